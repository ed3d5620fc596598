"""Where a clean re-run runs: a fresh Python process, or a child forked from a warm parent that ran no learner code.

A fresh process spends most of a clean re-run importing (the checks, pandas,
OAMP's client, and litellm for the agent's TODO; docs/benchmarks.md has the
figures). :class:`WarmParent` pays that once per grading run: it starts
``python -m workshop_lib.clean_grade --warm``, a process that imports the
checks and what the setup cells import and then only ever forks. Each re-run is
one forked child, which starts with the genuine check functions already
imported, exactly as a fresh process would have them before any learner code
ran, and runs in its own session with its own working directory, environment,
stdin (empty) and stdout/stderr (files the parent reads after it exits). The
parent never runs learner code, so one learner's child cannot change what the
next one starts from.

Forking is used on Linux only (macOS system libraries are not safe to fork
once loaded; Windows has no fork): elsewhere, and when a warm parent cannot
start, re-runs are fresh processes (:func:`run_fresh`). A warm parent that ended
between two re-runs is replaced; one that ends *while* its child runs (the
learner's code may kill its parent) fails that re-run instead of running the
same code again in a fresh process, whose parent would be the grading process.

Protocol between :class:`WarmParent` and :func:`serve`, one JSON object per
line: the parent says ``{"ready": true}`` once its imports are done; each
request on its stdin (``id``, ``payload``, ``env``, ``cwd``, ``timeout``,
``imports``) is answered on its stdout by ``{"id", "child"}`` when the child is
forked, then ``{"id", "stdout", "stderr", "returncode", "timed_out"}``. Lines
that are not about the pending request are ignored.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import select
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
        self._child: int | None = None   # the running re-run's child, stopped by close() should we stop early
        self._broken = False   # a warm parent could not start: every re-run is a fresh process
        self.forked = 0        # re-runs handed to a warm parent's child (tests and benchmarks read it)
        self.fallbacks = 0     # re-runs run in a fresh process instead

    def __enter__(self) -> "WarmParent":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, payload: str, env: dict[str, str], cwd: Path, timeout: float,
            imports: Iterable[str] = ()) -> Completed:
        """Run one re-run with ``payload`` on stdin, ``env`` and ``cwd``; in a fresh process where no parent runs.

        A warm parent that ends while its child runs (the learner's code
        killed it, say) is not replaced for that re-run, which is reported as
        failed: running the same code again in a fresh process would put this
        process within its reach. The next re-run starts a new warm parent.
        """
        request = {"id": secrets.token_hex(16), "payload": payload, "env": env, "cwd": str(cwd),
                   "timeout": timeout, "imports": list(imports)}
        if not self._send(request):
            self.fallbacks += 1
            return run_fresh(self.module, payload, env, cwd, timeout)
        self.forked += 1
        deadline = time.monotonic() + timeout + _STARTUP_SECONDS
        while True:
            message = self._message(deadline)
            if message is None:   # the parent ended, or hangs past the child's own time limit
                timed_out = time.monotonic() >= deadline   # else its stdout ended: the parent did
                self.close()
                return Completed("", "the warm parent of the clean re-runs ended while this re-run ran\n"
                                 if not timed_out else "", None, timed_out)
            if message.get("id") != request["id"]:
                continue   # not about this request (something else wrote to the pipe)
            if "child" in message:
                self._child = int(message["child"])
                continue
            self._child = None
            return Completed(message["stdout"], message["stderr"], message["returncode"], message["timed_out"])

    def _send(self, request: dict[str, Any]) -> bool:
        """Hand ``request`` to a running warm parent (started if need be, once more if it just ended)."""
        for _attempt in range(2):
            proc = self._ready()
            if proc is None:
                return False
            try:
                assert proc.stdin is not None
                proc.stdin.write(json.dumps(request).encode() + b"\n")
                proc.stdin.flush()
                return True
            except OSError:   # it ended since it was last seen: nothing of this request ran yet
                self.close()
        return False

    def _ready(self) -> subprocess.Popen[bytes] | None:
        """The running warm parent, started (and waited for) if need be; None where none can run."""
        if self._broken or not fork_available():
            return None
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self.close()
        self._proc = subprocess.Popen([sys.executable, "-m", self.module, "--warm"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env,
                                      cwd=str(self.cwd))
        if self._message(time.monotonic() + _STARTUP_SECONDS) != {"ready": True}:
            self.close()
            self._broken = True   # it would fail the same way again: fresh processes from now on
            return None
        return self._proc

    def _message(self, deadline: float) -> dict[str, Any] | None:
        """The warm parent's next JSON object line (other lines skipped); None when it ended or time ran out."""
        while True:
            line = self._read_line(deadline)
            if line is None:
                return None
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message

    def _read_line(self, deadline: float) -> bytes | None:
        """The warm parent's next stdout line, or None when it ended or the deadline passed."""
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
        """Stop the warm parent (end of its stdin, then a kill if it does not exit at once) and a running child."""
        proc, self._proc, self._buffer = self._proc, None, b""
        if self._child is not None:   # a re-run still running (its parent ended, or we stop early)
            _kill_session(self._child)
            self._child = None
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
    _say({"ready": True})
    for line in sys.stdin.buffer:
        request = json.loads(line)
        for name in request.get("imports", ()):
            try:
                importlib.import_module(name)
            except Exception:   # noqa: BLE001 - the child imports it again and fails as a fresh process would
                pass
        _say(_fork_one(entry, request))
    return 0


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _fork_one(entry: Callable[[str], int], request: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:   # the child: never returns
            _child_process(entry, request, out.fileno(), err.fileno())
        _say({"id": request["id"], "child": pid})   # should this process die, the caller can stop the child
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
