"""grade_workers: several submissions at once in worker processes, and a worker that ends.

The workers are real spawned processes; what they grade with is a stand-in
grader (this module's ``StandIn``), so the pool's contract is tested in
seconds. `workshop grade --jobs 2` with nbgrader is tested end to end in
test_grading_full_marks.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from workshop_lib.grade_workers import MAX_DEFAULT_JOBS, default_jobs, grade_at_once


class StandIn:
    """Grades an item by name: ``meet:<learner>`` waits for that learner's item to start too, ``die`` ends its
    worker, ``sleep`` takes a minute; every item leaves ``started-<learner>`` holding its worker's pid."""

    def __init__(self, folder: str) -> None:
        self.folder = Path(folder)

    def autograde_one(self, submission: str, learner_id: str) -> tuple[dict, list[str]]:
        (self.folder / f"started-{learner_id}").write_text(str(os.getpid()))
        if submission.startswith("meet:"):
            other = self.folder / f"started-{submission.split(':', 1)[1]}"
            deadline = time.monotonic() + 30
            while not other.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            return {"met": other.exists(), "pid": os.getpid()}, [f"{learner_id} graded"]
        if submission == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        if submission == "sleep":
            time.sleep(60)
        if submission == "fail":
            raise RuntimeError("the gradebook is gone")
        return {"pid": os.getpid()}, [f"{learner_id} graded"]

    def close(self) -> None:
        pass


def _grade(tmp_path: Path, names: list[str], jobs: int = 2):
    done: dict[int, tuple] = {}

    def record(index, scores, notes, seconds):
        assert index not in done
        done[index] = (scores, notes, seconds)

    left, reason = grade_at_once([(name, f"learner{i}") for i, name in enumerate(names)], jobs,
                                 partial(StandIn, str(tmp_path)), record)
    return done, left, reason


def test_two_workers_grade_at_the_same_time_and_report_to_this_process(tmp_path):
    # each of the first two items waits for the other to start: graded one at a time, neither would meet
    done, left, reason = _grade(tmp_path, ["meet:learner1", "meet:learner0", "c", "d"])
    assert (left, reason) == ([], "")
    assert sorted(done) == [0, 1, 2, 3]
    assert done[0][0]["met"] and done[1][0]["met"], "the first two items did not run at the same time"
    assert done[0][0]["pid"] != done[1][0]["pid"] and os.getpid() not in {s["pid"] for s, _n, _t in done.values()}
    assert done[2][1] == ["learner2 graded"]


def test_a_worker_that_ends_leaves_its_items_to_the_caller_with_the_reason(tmp_path):
    done, left, reason = _grade(tmp_path, ["a", "b", "die"])
    assert 2 in left and not set(left) & set(done), (left, sorted(done))
    assert set(left) | set(done) == {0, 1, 2}
    assert "terminated abruptly" in reason


def test_an_error_of_the_grader_itself_stops_the_run(tmp_path):
    with pytest.raises(RuntimeError, match="the gradebook is gone"):
        _grade(tmp_path, ["a", "fail", "b"])


def test_default_jobs_is_the_usable_cores_at_most_four():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert default_jobs() == max(1, min(MAX_DEFAULT_JOBS, cores))


INTERRUPTED = """
import sys
from functools import partial
sys.path.insert(0, {tests!r})
from test_grade_workers import StandIn
from workshop_lib.grade_workers import grade_at_once

if __name__ == "__main__":
    try:
        grade_at_once([("sleep", f"learner{{i}}") for i in range(5)], 2, partial(StandIn, {folder!r}),
                      lambda *result: print("graded", result[0]))
    except KeyboardInterrupt:
        print("interrupted")
"""


def test_an_interrupt_of_the_grading_process_alone_stops_its_workers_at_once(tmp_path):
    """Ctrl-C from a Jupyter kernel or ``kill -INT`` reaches the grading process only: it interrupts the
    workers, which stop their item and skip the ones queued to them (each item here would take a minute)."""
    script = tmp_path / "grade.py"
    script.write_text(INTERRUPTED.format(tests=str(Path(__file__).parent), folder=str(tmp_path)), encoding="utf-8")
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("started-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = {int(p.read_text()) for p in tmp_path.glob("started-*")}
    assert len(workers) == 2, "two items did not start"
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    assert time.monotonic() - started < 10 and out.strip() == "interrupted", out
    assert len(list(tmp_path.glob("started-*"))) == 2, "a queued item started after the interrupt"
    for pid in workers:   # the workers have exited (ProcessPoolExecutor joined them)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
