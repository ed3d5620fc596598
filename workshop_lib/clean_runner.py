"""Where a clean re-run runs: a fresh Python process, or a child forked from a warm parent that ran no learner code.

A fresh process spends most of a clean re-run importing (the checks, pandas,
OAMP's client: about a second; litellm for the agent's TODO: three to four
more). :class:`WarmParent` pays that once per grading run: it starts
``python -m workshop_lib.clean_grade --warm``, a process that imports the
checks and what the setup cells import and then only ever forks. Each re-run is
one forked child, which starts with the genuine check functions already
imported, exactly as a fresh process would have them before any learner code
ran, and runs in its own session with its own working directory, environment,
stdin (empty) and stdout/stderr (files the parent reads after it exits). The
parent never runs learner code, so one learner's child cannot change what the
next one starts from.

Forking is used on Linux only (macOS system libraries are not safe to fork
once loaded; Windows has no fork): elsewhere, and whenever the warm parent
misbehaves (died, answered out of turn, could not start), a re-run falls back
to :func:`run_fresh` and the next one starts a new warm parent.

Protocol between :class:`WarmParent` and :func:`serve`: one JSON line per
request on the parent's stdin (``id``, ``payload``, ``env``, ``cwd``,
``timeout``, ``imports``) and one JSON line per answer on its stdout (``id``,
``stdout``, ``stderr``, ``returncode``, ``timed_out``). Answers whose id is not
the pending request's are ignored.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Completed", "run_fresh", "WarmParent", "serve", "fork_available", "OUTPUT_LIMIT"]

#: What a re-run's stdout and stderr keep (their ends): the result line is the last one printed.
OUTPUT_LIMIT = 256 * 1024
_STARTUP_SECONDS = 120      # importing the libraries on a slow machine; a parent that takes longer is not used


@dataclass
class Completed:
    """What a re-run left: its output, exit code (None when killed) and whether it ran out of time."""

    stdout: str
    stderr: str
    returncode: int | None
    timed_out: bool = False


def fork_available() -> bool:
    """True where a warm parent may fork re-runs (Linux with os.fork)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def run_fresh(module: str, payload: str, env: dict[str, str], cwd: Path, timeout: float) -> Completed:
    """Run ``python -m module`` with ``payload`` on stdin in a new process (the way without a warm parent)."""
    try:
        done = subprocess.run([sys.executable, "-m", module], input=payload, capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=str(cwd))
    except subprocess.TimeoutExpired as exc:
        return Completed(_text(exc.stdout), _text(exc.stderr), None, timed_out=True)
    return Completed(done.stdout[-OUTPUT_LIMIT:], done.stderr[-OUTPUT_LIMIT:], done.returncode)


def _text(value: str | bytes | None) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return (value or "")[-OUTPUT_LIMIT:]


class WarmParent:
    """A warm parent process for ``module`` (started on first use); each :meth:`run` is one forked child.

    ``env`` is the parent's environment (give it no secrets: a child can read
    its parent's). Use as a context manager or call :meth:`close`.
    """

    def __init__(self, module: str, env: dict[str, str], cwd: Path) -> None:
        self.module, self.env, self.cwd = module, dict(env), Path(cwd)
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.forked = 0      # re-runs a warm parent answered (tests and benchmarks read it)
        self.fallbacks = 0   # re-runs that fell back to a fresh process

    def __enter__(self) -> "WarmParent":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, payload: str, env: dict[str, str], cwd: Path, timeout: float,
            imports: Iterable[str] = ()) -> Completed:
        """Run one re-run with ``payload`` on stdin, ``env`` and ``cwd``; a fresh process if forking fails."""
        if fork_available():
            request = {"id": secrets.token_hex(16), "payload": payload, "env": env, "cwd": str(cwd),
                       "timeout": timeout, "imports": list(imports)}
            answer = self._ask(request, timeout)
            if answer is not None:
                self.forked += 1
                return Completed(answer["stdout"], answer["stderr"], answer["returncode"], answer["timed_out"])
            self.close()   # whatever went wrong, the next re-run starts a new warm parent
        self.fallbacks += 1
        return run_fresh(self.module, payload, env, cwd, timeout)

    def _ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        try:
            proc = self._started()
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            return None
        deadline = time.monotonic() + timeout + _STARTUP_SECONDS
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None
            try:
                answer = json.loads(line)
            except ValueError:
                continue   # not an answer (something else wrote to the pipe): keep waiting for ours
            if isinstance(answer, dict) and answer.get("id") == request["id"]:
                return answer

    def _started(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._buffer = b""
            self._proc = subprocess.Popen([sys.executable, "-m", self.module, "--warm"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env,
                                          cwd=str(self.cwd))
        return self._proc

    def _read_line(self, deadline: float) -> bytes | None:
        """The warm parent's next stdout line, or None when it ended or the deadline passed."""
        import select

        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def close(self) -> None:
        """Stop the warm parent (end of its stdin, then a kill if it does not exit at once)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout is not None:
                proc.stdout.close()


# ----------------------------------------------------------------------------- the warm parent's side
def serve(entry: Callable[[str], int], imports: Iterable[str]) -> int:
    """The warm parent's loop: import ``imports``, then fork one child per request line on stdin.

    Each child runs ``entry(payload)`` and exits with its return value; this
    process answers with what the child printed. It runs no request's code
    itself, and imports a request's extra modules (never learner-named:
    :class:`WarmParent` callers pass fixed lists) before forking its child.
    """
    for name in imports:
        importlib.import_module(name)
    for line in sys.stdin.buffer:
        request = json.loads(line)
        for name in request.get("imports", ()):
            importlib.import_module(name)
        answer = _fork_one(entry, request)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


def _fork_one(entry: Callable[[str], int], request: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:   # the child: never returns
            _child_process(entry, request, out.fileno(), err.fileno())
        code, timed_out = _wait(pid, float(request["timeout"]))
        return {"id": request["id"], "stdout": _tail(out), "stderr": _tail(err), "returncode": code,
                "timed_out": timed_out}


def _child_process(entry: Callable[[str], int], request: dict[str, Any], out: int, err: int) -> None:
    code = 1
    try:
        os.setsid()   # its own session: a timeout kills whatever the learner's code started too
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdin = open(os.devnull, encoding="utf-8")   # not the parent's buffered request stream
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        code = entry(request["payload"])
    except SystemExit as exc:   # as the interpreter exits on it: None is 0, a number is the code, text is printed
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    except BaseException:   # noqa: BLE001 - report it as a fresh process would, on stderr
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 1)


def _wait(pid: int, timeout: float) -> tuple[int | None, bool]:
    """Wait for child ``pid`` (its exit code), killing its session when ``timeout`` passes.

    The child is seen exiting without being reaped (``WNOWAIT``), so its
    session is killed while its id cannot yet belong to anyone else.
    """
    deadline, pause = time.monotonic() + timeout, 0.001
    timed_out = False
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        if time.monotonic() >= deadline:
            timed_out = True
            break
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
    _kill_session(pid)   # on a timeout the child itself; always whatever the learner's code left running
    _, status = os.waitpid(pid, 0)
    return (None if timed_out else os.waitstatus_to_exitcode(status)), timed_out


def _kill_session(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(handle: Any) -> str:
    size = handle.seek(0, os.SEEK_END)
    handle.seek(max(0, size - OUTPUT_LIMIT))
    return handle.read().decode("utf-8", "replace")
