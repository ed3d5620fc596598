"""Running a learner's function safely: timeout, captured output, failure messages, restored globals.

:class:`_Grader` wraps one TODO's check: it runs the learner's function in a
daemon thread with a time limit, captures stdout/stderr (Python and
file-descriptor level) and silences warnings and logging, lends recording
proxies in place of notebook globals and always puts the originals back,
and turns every problem into a :class:`CheckFailure` saying what was
expected, what came back, and a hint.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import inspect
import io
import logging
import os
import re
import sys
import tempfile
import threading
import traceback
import warnings
from collections.abc import Iterator
from typing import Any

from .. import graded_calls
from ..todos import todo as registered_todo
from .connection import _connection_error, _transaction_open
from .spies import _Log

DEFAULT_TIMEOUT = 60.0                     # seconds one call of the learner's function may take
TIMEOUT_ENV = "WORKSHOP_CHECK_TIMEOUT"     # overrides DEFAULT_TIMEOUT (instructors on slow machines)

_DDL_VERBS = ("CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE", "COMMENT", "RENAME")
_WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE",
                "GRANT", "REVOKE", "COMMENT", "BEGIN", "DECLARE", "CALL", "RENAME")


class CheckFailure(AssertionError):
    """A graded check failed; the message says what was expected, what came back, and a hint."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows for this error: the check's message alone, without the frames of the harness.

        IPython calls this hook instead of formatting a traceback; the cell still
        ends in an error, so nbgrader and nbclient see a failed check as before.
        """
        return ["\x1b[0;31mCheckFailure\x1b[0m: " + str(self).split("\n", 1)[0], *str(self).split("\n")[1:]]


class _Timeout(BaseException):
    """Raised inside a learner's function that overran its time (BaseException: ``except Exception`` can't eat it)."""


def _listed(items: Any, limit: int = 8) -> str:
    """``items`` as a list for a message; past ``limit`` it says how many more there are instead of cutting silently."""
    items = list(items)
    if len(items) <= limit:
        return repr(items)
    return repr(items[:limit])[:-1] + f", ... and {len(items) - limit} more]"


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _timeout_from(timeout: float | None) -> float:
    if timeout is not None:
        return float(timeout)
    raw = os.environ.get(TIMEOUT_ENV)
    if raw:
        try:
            return float(raw)
        except ValueError:
            pass
    return DEFAULT_TIMEOUT


def _statement_verb(sql: Any) -> str:
    text = re.sub(r"(--[^\n]*\n)|(/\*.*?\*/)", " ", str(sql), flags=re.DOTALL).strip()
    return text.split(None, 1)[0].upper() if text else ""


@contextlib.contextmanager
def _quiet() -> Iterator[dict[str, io.StringIO]]:
    """Capture stdout/stderr (Python and file-descriptor level), silence warnings and logging.

    Check cells must not write to stderr, whatever the learner's code or the
    libraries underneath (onnxruntime, tqdm, pandas) print. What was captured
    is kept so that a failure can show the learner their own output.
    """
    out, err = io.StringIO(), io.StringIO()
    saved_fd: int | None = None
    sink = None
    try:
        sys.stderr.flush()
        sink = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
        saved_fd = os.dup(2)
        os.dup2(sink.fileno(), 2)
    except (OSError, ValueError, AttributeError):
        if saved_fd is not None:
            os.close(saved_fd)
        saved_fd = None
    previous_disable = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            warnings.simplefilter("ignore")
            yield {"stdout": out, "stderr": err}
    finally:
        logging.disable(previous_disable)
        if saved_fd is not None:
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
        if sink is not None:
            sink.close()


class _Grader:
    """Runs one TODO's learner function safely and turns every problem into a CheckFailure."""

    def __init__(self, todo: int, fn: Any, timeout: float | None) -> None:
        self.todo = todo
        self.name = registered_todo(todo).function
        self.check_name = registered_todo(todo).check
        self.fn = fn
        self.timeout = _timeout_from(timeout)
        self.captured: dict[str, io.StringIO] = {}
        self.stack = contextlib.ExitStack()  # probe memories, scratch tables: undone however the check ends
        self.conn: Any = None
        self.ws: Any = None

    # -- failures
    def fail(self, what: str, *, expected: Any = None, got: Any = None, hint: str | None = None) -> None:
        lines = [f"TODO {self.todo} ({self.name}) failed: {what}"]
        if expected is not None:
            lines.append(f"  expected: {expected}")
        if got is not None:
            lines.append(f"  got:      {got}")
        if hint:
            lines.append(f"  hint: {hint}")
        for stream in ("stdout", "stderr"):
            text = self.captured.get(stream, io.StringIO()).getvalue().strip()
            if text:
                tail = "\n".join(text.splitlines()[-15:])
                lines.append(f"  your function printed ({stream}, last lines):\n" + _indent(tail, "    "))
        raise CheckFailure("\n".join(lines))

    # -- the TODO's signature
    def check_signature(self) -> None:
        """The learner's function keeps the defaults of the TODO's signature (``workshop_lib/todos.py``).

        The cells after a TODO call the function without those arguments, and
        so do some of the check's calls, so a changed or missing default is
        named here rather than as the wrong result it leads to. A function
        without a readable signature, or one that takes ``**kwargs`` in place
        of a parameter, is left to the calls.
        """
        wanted = registered_todo(self.todo).signature
        try:
            signature = inspect.signature(self.fn)
        except (TypeError, ValueError):
            return
        params = signature.parameters
        flexible = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        for name, default in _signature_defaults(wanted).items():
            param = params.get(name)
            if param is None:
                if flexible:
                    continue
                got = f"no parameter {name}"
            elif param.default is inspect.Parameter.empty:
                got = f"{name} without a default"
            elif type(param.default) is type(default) and param.default == default:
                continue
            else:
                got = f"{name}={param.default!r}"
            self.fail(f"{self.name} has {got}; the TODO's signature is {wanted}.",
                      hint=f"def {wanted}: — the cells after the TODO, and the check, call it without {name}, "
                           "relying on its default.")

    # -- the session around a whole check
    @contextlib.contextmanager
    def session(self) -> Iterator[_Grader]:
        if self.fn is None or not callable(self.fn):
            raise CheckFailure(
                f"TODO {self.todo} ({self.name}) failed: the check needs your function, got {_short(self.fn)}.\n"
                f"  hint: run the cell that defines {self.name}, then call "
                f"checks.{self.check_name}({self.name}).")
        try:
            with _quiet() as captured, self.stack:
                self.captured = captured
                yield self
        except CheckFailure as failure:
            raise CheckFailure(str(failure)) from None  # no chained library traceback in the cell
        except Exception as exc:  # noqa: BLE001 - the check's own machinery failed: say so plainly
            raise CheckFailure(
                f"TODO {self.todo} ({self.name}) could not be graded: the check itself failed with "
                f"{type(exc).__name__}: {exc}\n  at: {_where(exc, skip=0)}\n"
                "  hint: this is a problem of the workshop environment, not of your function: re-run the "
                "notebook's setup cell (or restart the kernel) and run the check again; if it persists, "
                "run `workshop doctor`.") from None
        print(f"TODO {self.todo} passed — {self.name}")

    def workshop(self) -> Any:
        from ..session import current

        try:
            ws = current()
        except RuntimeError:
            self.fail("no workshop is running in this kernel.",
                      hint="run the setup cell at the top of the notebook (ws = workshop_lib.start(...)) first.")
        exc = _connection_error(ws.conn)
        if exc is not None:
            self.fail(f"the workshop's database connection does not work ({type(exc).__name__}: {exc}).",
                      hint="re-run the notebook's setup cell (it opens a new connection), then the cells "
                           "after it; never close agent_conn in your own code.")
        self.conn = ws.conn
        self.ws = ws
        return ws

    def globals_of(self, names: tuple[str, ...]) -> dict[str, Any]:
        scope = getattr(self.fn, "__globals__", None)
        if not isinstance(scope, dict):
            self.fail(f"the check needs a plain Python function (def {self.name}(...)), got {_short(self.fn)}.",
                      hint=f"pass the function itself: checks.{self.check_name}({self.name}).")
        missing = [n for n in names if n not in scope]
        if missing:
            self.fail(f"the notebook global(s) {', '.join(missing)} used by {self.name} are not defined.",
                      hint="run the setup cell at the top of the notebook, which defines them.")
        return scope

    @contextlib.contextmanager
    def lent(self, replacements: dict[str, Any]) -> Iterator[None]:
        """Temporarily replace notebook globals of the learner's function (always restored).

        A default argument bound to one of those globals when the cell ran
        (``def f(q, client=memory_client)``) is the same object, and is lent
        the same way; so is a ``functools.partial`` of one made in the cell
        (``find = partial(retrieve_knowledge, kinds=[...])``), as a global or a
        default: the function then still calls what the check observes.
        """
        if not replacements:
            yield
            return
        scope = self.fn.__globals__
        saved = {name: scope[name] for name in replacements}
        swap = {id(saved[name]): value for name, value in replacements.items()}

        def lent_value(value: Any) -> Any:
            if isinstance(value, functools.partial) and id(value.func) in swap:
                return functools.partial(swap[id(value.func)], *value.args, **value.keywords)
            return swap.get(id(value), value)

        partials = {name: value for name, value in scope.items() if name not in saved
                    and isinstance(value, functools.partial) and id(value.func) in swap}
        saved.update(partials)
        defaults = getattr(self.fn, "__defaults__", None)
        kwdefaults = getattr(self.fn, "__kwdefaults__", None)
        scope.update(replacements)
        scope.update({name: lent_value(value) for name, value in partials.items()})
        try:
            if defaults:
                self.fn.__defaults__ = tuple(lent_value(v) for v in defaults)
            if kwdefaults:
                self.fn.__kwdefaults__ = {k: lent_value(v) for k, v in kwdefaults.items()}
            yield
        finally:
            scope.update(saved)
            if defaults:
                self.fn.__defaults__ = defaults
            if kwdefaults:
                self.fn.__kwdefaults__ = kwdefaults

    # -- calling the learner's function
    def run(self, described: str, *args: Any, **kwargs: Any) -> tuple[Any, BaseException | None]:
        """Run the learner's function in a daemon thread with a timeout; ``(value, error it raised)``.

        A timeout or NotImplementedError fails the check; any other exception
        is returned for the caller to judge (some TODOs must raise).
        """
        box: dict[str, Any] = {}

        library = self.name.lstrip("_")   # _scan_tables's library version is scan_tables
        seen: list[str] = []

        def run() -> None:
            before = graded_calls.count(library)   # this thread only, whatever alias the learner used
            try:
                box["value"] = self.fn(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - everything the learner raises is graded
                box["error"] = exc
            finally:
                if graded_calls.count(library) > before:
                    seen.append(f"{library} (workshop_lib.reference)")

        worker = threading.Thread(target=run, name=f"workshop-check-todo{self.todo}", daemon=True)
        worker.start()
        try:
            worker.join(self.timeout)
        finally:
            if worker.is_alive():
                self._stop(worker)
        error = box.get("error")
        if ("value" not in box and "error" not in box) or isinstance(error, _Timeout):
            still = (" It is still running in the background: if the next cells hang, restart the kernel."
                     if worker.is_alive() else "")
            self.fail(f"{described} did not return within {self.timeout:g} s.{still}",
                      hint="look for an endless loop (e.g. `while True` without a break) or a query that "
                           f"never finishes; the limit can be raised with {TIMEOUT_ENV}=<seconds>.")
        if isinstance(error, NotImplementedError):
            self.fail(f"TODO {self.todo} is not implemented yet ({described} raised NotImplementedError).",
                      hint=f"replace `raise NotImplementedError()` in {self.name} with your code, run that "
                           "cell, then run this check again.")
        if seen:
            self.fail(f"{described} called the library's own {seen[0]} instead of doing the work itself.",
                      hint=f"write {self.name} with the calls the TODO describes; the library's version is "
                           "what the check compares you with, so it cannot count as your answer.")
        return box.get("value"), error

    def raised(self, described: str, error: BaseException, *, why: str | None = None,
               hint: str | None = None) -> None:
        """Fail because the learner's call raised ``error`` unexpectedly (with where and a hint).

        ``why`` says what about this call a correct function handles (appended
        to the message) and ``hint`` replaces the general advice.
        """
        if hint is None:
            hint = "read the error and the line it points at, fix the function, re-run its cell and this check."
            if isinstance(error, TypeError) and "argument" in str(error):
                hint = ("keep the signature given in the TODO (parameter names and defaults): the check calls "
                        f"{described}.")
        self.fail(f"{described} raised {type(error).__name__}: {error}" + (f" — {why}" if why else ""),
                  got=_where(error), hint=hint)

    def call(self, described: str, *args: Any, **kwargs: Any) -> list[Any]:
        """Run the learner's function (see :meth:`run`); its result, which must be a list."""
        value, error = self.run(described, *args, **kwargs)
        if error is not None:
            self.raised(described, error)
        return self.as_list(described, value)

    def as_list(self, described: str, value: Any) -> list[Any]:
        """``value``, which the learner's function returned, when it is a list; else fail saying what it is."""
        if value is None:
            self.fail(f"{described} returned None.", expected="a list",
                      hint="end the function with `return <your list>` (a missing return gives None).")
        if inspect.isgenerator(value) or isinstance(value, Iterator):
            self.fail(f"{described} returned a generator/iterator, not a list.", expected="a list",
                      got=type(value).__name__,
                      hint="build and return a list (a list comprehension, or list(...)) instead of using yield.")
        if not isinstance(value, list):
            self.fail(f"{described} returned a {type(value).__name__}, not a list.", expected="a list",
                      got=_short(value), hint="return a Python list.")
        return value

    def _stop(self, worker: threading.Thread) -> None:
        """Stop a runaway call: an exception raised in its thread, then cancelling a running statement."""
        _interrupt(worker)
        worker.join(2.0)
        cancel = getattr(self.conn, "cancel", None)  # python-oracledb: Connection.cancel()
        if worker.is_alive() and callable(cancel):
            with contextlib.suppress(Exception):
                cancel()
            worker.join(2.0)

    def after_call(self, log: _Log, conn: Any, was_open: bool, *, read_only: bool = True,
                   write_rule: str = "it must only read", write_hint: str = "use SELECT statements only") -> None:
        """Fail when the function closed the shared connection, wrote, or left a transaction open.

        ``write_rule`` and ``write_hint`` say why SQL writes on this connection are wrong for this TODO
        (one that changes memories does so through memory_client, never with SQL).
        """
        if log.closed:
            self.fail("your function closed the shared connection (conn.close() or `with conn:`).",
                      hint="the connection belongs to the notebook: use `with conn.cursor() as cur:` and "
                           "close only the cursor.")
        if log.refused:
            self.fail(f"your function tried to change memories (memory_client.{log.refused[0]}).",
                      hint="this function only reads: call memory_client.search(...) and nothing that writes.")
        writes = [sql for sql, _, _ in log.statements if _statement_verb(sql) in _WRITE_VERBS]
        opened = _transaction_open(conn) and not was_open
        if opened:
            with contextlib.suppress(Exception):
                conn.rollback()
        if read_only and writes:
            committed = any(_statement_verb(sql) in _DDL_VERBS for sql in writes) or log.commits or not opened
            if committed:
                restored = _restore_shared_state(self.ws)
                undone = ("the change was committed (or was DDL, which commits), so it could not be rolled back; "
                          + (f"the check restored: {'; '.join(restored)}" if restored else
                             "the check found the seed, the memories' vectors and the text index intact"))
            else:
                undone = "the check rolled your change back"
            self.fail(f"your function changed the database; {write_rule}.",
                      got=_short(writes[0], 200), hint=f"{write_hint} ({undone}).")
        if opened:
            self.fail("your function left an uncommitted transaction open on the shared connection.",
                      hint="do not run INSERT/UPDATE/DELETE here (the check rolled it back).")


def _restore_shared_state(ws: Any) -> list[str]:
    """Put back what the checks rely on after a learner's committed write; returns what was repaired.

    SUPPLYCHAIN is reseeded when any table differs from the seed, memories
    that lost their chunks or vectors are re-embedded, and the Oracle Text
    index and profiles are recreated if missing. A failure to repair is
    reported with the command that does it, never hidden.
    """
    if ws is None:
        return []
    from ..config import TEXT_INDEX
    from ..dictionary import index_exists
    from ..memory.setup import repair_memories

    done: list[str] = []
    try:
        if not ws.seed_present():
            ws.seed()
            done.append("SUPPLYCHAIN reseeded")
        had_index = index_exists(ws.conn, TEXT_INDEX)
        ws.ensure_memory()
        if not had_index:
            done.append("the Oracle Text index recreated")
        repaired = repair_memories(ws)
        if repaired:
            done.append(f"{len(repaired)} memories re-embedded")
    except Exception as exc:  # noqa: BLE001 - say so, with the command that repairs it
        done.append(f"NOT everything ({type(exc).__name__}: {exc}) — run `workshop setup` before the next check")
    return done


def _signature_defaults(signature: str) -> dict[str, Any]:
    """The defaults a TODO's signature text gives, e.g. ``{'k': 5, 'kinds': None}`` for
    ``retrieve_knowledge(query, k=5, kinds=None)``."""
    import ast

    tree = ast.parse(f"def {signature}: pass").body[0]
    args = tree.args  # type: ignore[attr-defined]
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return {arg.arg: ast.literal_eval(node) for arg, node in pairs}


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _where(error: BaseException, skip: int = 1) -> str | None:
    frames = traceback.extract_tb(error.__traceback__)[skip:]  # skip=1: the check's own run() frame
    if not frames:
        return None
    shown = [f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}" + (f": {f.line.strip()}" if f.line else "")
             for f in frames[-3:]]
    return "\n            ".join(shown)


def _interrupt(worker: threading.Thread) -> None:
    """Stop a runaway learner function by raising _Timeout inside its thread (CPython only)."""
    if worker.ident is None:
        return
    with contextlib.suppress(Exception):
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(_Timeout))
