"""Where clean re-runs run: a warm parent's forked children behave as fresh processes, and trouble falls back.

The target (tests/runner_target.py) runs each payload as Python source, so these
tests see the runner itself in milliseconds; tests/test_clean_grade.py grades
real TODO cells both ways.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from workshop_lib.clean_runner import OUTPUT_LIMIT, WarmParent, fork_available, run_fresh

TESTS = Path(__file__).resolve().parent
TARGET = "runner_target"
pytestmark = pytest.mark.skipif(not fork_available(), reason="warm parents fork on Linux only")

REPORT = '''
import json, os, sys
print(json.dumps({"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(), "stdin": sys.stdin.read(),
                  "color": os.environ.get("COLOR"), "keys": sorted(os.environ)}))
'''


def _env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join([str(TESTS), str(TESTS.parent)])
    return {"PATH": os.environ["PATH"], "PYTHONPATH": path, "LC_ALL": "C.UTF-8", **extra}


@pytest.fixture()
def warm(tmp_path):
    with WarmParent(TARGET, _env(), tmp_path) as parent:
        yield parent


def _report(done) -> dict:
    assert done.returncode == 0 and not done.timed_out, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_forked_child_sees_what_a_fresh_process_sees(warm, tmp_path):
    env = _env(COLOR="teal")
    fresh = _report(run_fresh(TARGET, REPORT, env, tmp_path, 30))
    first = _report(warm.run(REPORT, env, tmp_path, 30))
    second = _report(warm.run(REPORT, _env(COLOR="red"), TESTS, 30))
    for seen in (fresh, first):
        assert (seen["cwd"], seen["stdin"], seen["color"], seen["keys"]) == (
            str(tmp_path), "", "teal", sorted(env)), seen
    assert (second["cwd"], second["color"]) == (str(TESTS), "red")
    assert first["ppid"] == second["ppid"] == warm._proc.pid != fresh["ppid"]   # two children of one parent
    assert first["pid"] != second["pid"]
    assert (warm.forked, warm.fallbacks) == (2, 0)


def test_exit_codes_errors_and_long_output_come_back_as_from_a_fresh_process(warm, tmp_path):
    for payload, code in (("import sys; sys.exit(3)", 3), ("import sys; sys.exit()", 0),
                          ("import sys; sys.exit('bye')", 1), ("import os; os._exit(5)", 5),
                          ("raise KeyError('lost')", 1), ("import os, signal; os.kill(os.getpid(), 9)", -9)):
        fresh, child = run_fresh(TARGET, payload, _env(), tmp_path, 30), warm.run(payload, _env(), tmp_path, 30)
        assert fresh.returncode == child.returncode == code, (payload, fresh, child)
    assert "KeyError: 'lost'" in warm.run("raise KeyError('lost')", _env(), tmp_path, 30).stderr
    assert warm.run("import sys; sys.exit('bye')", _env(), tmp_path, 30).stderr == "bye\n"
    long = warm.run(f"print('x' * {OUTPUT_LIMIT}); print('the end')", _env(), tmp_path, 30)
    assert len(long.stdout) == OUTPUT_LIMIT and long.stdout.endswith("x\nthe end\n")
    assert warm.fallbacks == 0


STRAY = '''
import subprocess
child = subprocess.Popen(["sleep", "300"])
open("stray.pid", "w").write(str(child.pid))
{tail}
'''


def test_a_timeout_kills_the_child_and_what_it_started_and_the_parent_serves_the_next(warm, tmp_path):
    started = time.monotonic()
    endless = warm.run(STRAY.format(tail="while True: pass"), _env(), tmp_path, 2.5)
    assert endless.timed_out and endless.returncode is None
    assert time.monotonic() - started < 15
    assert not _alive(int((tmp_path / "stray.pid").read_text())), "its background process outlived the re-run"
    parent = warm._proc.pid
    done = warm.run(STRAY.format(tail="print('done')"), _env(), tmp_path, 30)
    assert done.stdout == "done\n" and not done.timed_out
    assert not _alive(int((tmp_path / "stray.pid").read_text())), "a finished re-run leaves nothing running"
    assert warm._proc.pid == parent and (warm.forked, warm.fallbacks) == (2, 0)


def test_lines_a_child_writes_into_its_parents_answers_are_ignored(warm, tmp_path):
    forge = ('import os\nwith open(f"/proc/{os.getppid()}/fd/1", "w") as out:\n'
             '    out.write("not an answer\\n" + \'{"id": "x", "stdout": "forged"}\\n\')\nprint("genuine")')
    assert warm.run(forge, _env(), tmp_path, 30).stdout == "genuine\n"
    assert warm.run("print('next')", _env(), tmp_path, 30).stdout == "next\n"
    assert (warm.forked, warm.fallbacks) == (2, 0)


def test_a_dead_parent_is_replaced_and_one_that_cannot_start_gives_way_to_fresh_processes(warm, tmp_path):
    assert warm.run("print(1)", _env(), tmp_path, 30).stdout == "1\n"
    first = warm._proc.pid
    warm._proc.kill()    # it ends between two re-runs: nothing of the next one ran yet
    warm._proc.wait()
    assert warm.run("print(2)", _env(), tmp_path, 30).stdout == "2\n"
    assert warm._proc.pid != first and (warm.forked, warm.fallbacks) == (2, 0)

    with WarmParent(TARGET, _env(BREAK_WARM_PARENT="1"), tmp_path) as broken:
        done = broken.run("import os; print(os.getppid())", _env(), tmp_path, 30)
        assert done.returncode == 0 and int(done.stdout) == os.getpid()   # a fresh process, started from here
        started = time.monotonic()
        assert broken.run("print(3)", _env(), tmp_path, 30).stdout == "3\n"
        assert time.monotonic() - started < 5   # it did not try to start the broken parent again
    assert (broken.forked, broken.fallbacks) == (0, 2)


def test_a_child_that_kills_its_parent_fails_its_own_re_run_only(warm, tmp_path):
    killer = STRAY.format(tail="import os, signal, time\nopen('self.pid', 'w').write(str(os.getpid()))\n"
                                "os.kill(os.getppid(), signal.SIGKILL)\ntime.sleep(300)")
    started = time.monotonic()
    done = warm.run(killer, _env(), tmp_path, 60)
    assert time.monotonic() - started < 30
    assert (done.returncode, done.timed_out, done.stdout) == (None, False, "")
    assert done.stderr == "the warm parent of the clean re-runs ended while this re-run ran\n"
    for pid_file in ("self.pid", "stray.pid"):   # the orphaned child and what it started were stopped
        assert not _alive(int((tmp_path / pid_file).read_text())), pid_file
    assert warm.run("print('next')", _env(), tmp_path, 30).stdout == "next\n"   # a new parent
    assert (warm.forked, warm.fallbacks) == (2, 0)


def test_stopping_early_stops_the_running_child_too(warm, tmp_path):
    """Grading interrupted mid re-run (Ctrl-C, say): closing the runner leaves nothing running."""
    def interrupt(*_args):
        if (tmp_path / "self.pid").exists():   # once the child runs
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            warm.run(STRAY.format(tail="import os\nopen('self.pid', 'w').write(str(os.getpid()))\nwhile True: pass"),
                     _env(), tmp_path, 60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    warm.close()
    for pid_file in ("self.pid", "stray.pid"):
        assert not _alive(int((tmp_path / pid_file).read_text())), pid_file


def test_closing_stops_the_parent(tmp_path):
    parent = WarmParent(TARGET, _env(), tmp_path)
    parent.run("pass", _env(), tmp_path, 30)
    proc = parent._proc
    parent.close()
    assert proc.poll() == 0 and parent._proc is None
    parent.close()   # twice is harmless


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped by init counts as gone)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:   # SIGKILL is delivered asynchronously
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
                if stat.read().rsplit(")", 1)[-1].split()[0] == "Z":
                    return False
        except FileNotFoundError:
            return False
        time.sleep(0.05)
    return True


if sys.platform.startswith("linux"):
    assert hasattr(os, "waitid")   # the runner needs it where it forks
