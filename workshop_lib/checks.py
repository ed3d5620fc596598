"""Hard-stop checks for the graded TODOs: ``checks.todo1(fn)``, ``checks.todo2(fn)``, ``checks.todo3(fn)``.

Each check is called from a locked notebook cell right below its TODO with
the learner's function. It recomputes what the function must return from the
database (its own catalog queries, OAMP searches and rank computations, the
library's reference functions called with explicit arguments) — never from a
stored answer — and checks behaviour, not shape alone: bind variables, the
oversampled search call, the rerank call and the single SQL round trip are
observed through recording proxies that temporarily replace the notebook
globals the function uses (``memory_client``, ``agent_conn``, ``rerank``, ...).

A passing check prints exactly one line to stdout (``TODO 2 passed —
retrieve_knowledge``). A failing check raises :class:`CheckFailure` (an
``AssertionError``) saying what was expected, what came back, and a hint.
Nothing is written to stderr: the learner's function and the library run with
stdout/stderr captured, warnings silenced and logging disabled (nbgrader
scores a cell that writes to stderr as failed).

Bad input is graded, never fatal: a function that raises, returns ``None`` or
a generator, runs longer than the timeout (``timeout=`` argument, the
``WORKSHOP_CHECK_TIMEOUT`` environment variable, default 60 s), closes the
shared connection or leaves a transaction open fails its check with a clear
message, and the workshop is left as it was (globals restored, probe memories
and scratch tables removed, open transactions rolled back), so the next
TODO still grades.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import inspect
import io
import itertools
import logging
import math
import os
import re
import sys
import tempfile
import threading
import traceback
import uuid
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import config
from .config import CHUNKS_TABLE, EMBED_MODEL, MEMORY_TABLE, SCHEMA

__all__ = ["DEFAULT_TIMEOUT", "TIMEOUT_ENV", "CheckFailure", "todo1", "todo2", "todo3"]

DEFAULT_TIMEOUT = 60.0                     # seconds one call of the learner's function may take
TIMEOUT_ENV = "WORKSHOP_CHECK_TIMEOUT"     # overrides DEFAULT_TIMEOUT (instructors on slow machines)
PROBE_PREFIX = "workshop-check-"           # record ids of the short-lived memories the checks add
CHECK_SCHEMA = "WORKSHOP_CHECK"            # second schema TODO 1 is tried on (lite; falls back to own schema)
# The TODOs' specified values, deliberately not imported from workshop_lib.reference:
# a change to the reference must not silently change what the checks demand.
SENTINEL = 999999                          # rank of a memory a leg did not return
OVERSAMPLE = 4                             # retrieve_knowledge searches k * OVERSAMPLE candidates

_NAMES = {1: "_scan_tables", 2: "retrieve_knowledge", 3: "hybrid_rrf_search_memories"}
_WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE",
                "GRANT", "REVOKE", "COMMENT", "BEGIN", "DECLARE", "CALL", "RENAME")


class CheckFailure(AssertionError):
    """A graded check failed; the message says what was expected, what came back, and a hint."""


class _Timeout(BaseException):
    """Raised inside a learner's function that overran its time (BaseException: ``except Exception`` can't eat it)."""


# --------------------------------------------------------------------------- small helpers


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


def _bind_values(parameters: Any, kwargs: Mapping[str, Any]) -> list[Any]:
    values: list[Any] = list(kwargs.values())
    if isinstance(parameters, Mapping):
        values.extend(parameters.values())
    elif isinstance(parameters, (list, tuple)):
        values.extend(parameters)
    elif parameters is not None:
        values.append(parameters)
    return values


def _transaction_open(conn: Any) -> bool:
    """True when ``conn`` has uncommitted work (python-oracledb flag, or the lite engine's SQLite state)."""
    flag = getattr(conn, "transaction_in_progress", None)
    if isinstance(flag, bool):
        return flag
    inner = getattr(conn, "_con", None)  # lite: no public flag yet, the SQLite connection knows
    return bool(getattr(inner, "in_transaction", False))


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


# --------------------------------------------------------------------------- recording proxies


@dataclass
class _Log:
    """What the learner's function did to the objects lent to it during one call."""

    statements: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    searches: list[dict[str, Any]] = field(default_factory=list)
    reranks: list[dict[str, Any]] = field(default_factory=list)
    keyword_searches: int = 0
    closed: bool = False
    refused: list[str] = field(default_factory=list)
    live: bool = True

    def require_live(self) -> None:
        if not self.live:
            raise RuntimeError("This object was lent to a workshop check that has finished; "
                               "use the notebook's own agent_conn / memory_client.")


class _CursorSpy:
    """A cursor that records every statement (and its binds) before running it."""

    def __init__(self, cursor: Any, log: _Log) -> None:
        object.__setattr__(self, "_cursor", cursor)
        object.__setattr__(self, "_log", log)

    def execute(self, statement: Any, parameters: Any = None, **kwargs: Any) -> Any:
        self._log.require_live()
        self._log.statements.append((str(statement), parameters, dict(kwargs)))
        result = self._cursor.execute(statement, parameters, **kwargs)
        return self if result is self._cursor else result

    def executemany(self, statement: Any, parameters: Any, **kwargs: Any) -> Any:
        self._log.require_live()
        self._log.statements.append((str(statement), parameters, dict(kwargs)))
        result = self._cursor.executemany(statement, parameters, **kwargs)
        return self if result is self._cursor else result

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor)

    def __enter__(self) -> _CursorSpy:
        return self

    def __exit__(self, *exc: object) -> None:
        self._cursor.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._cursor, name, value)  # e.g. cursor.rowfactory / arraysize must reach the real cursor


class _ConnectionSpy:
    """The shared connection as lent to a learner: cursors are recorded, close() is refused."""

    def __init__(self, conn: Any, log: _Log) -> None:
        object.__setattr__(self, "_conn", conn)
        object.__setattr__(self, "_log", log)
        object.__setattr__(self, "_changed", {})

    def cursor(self, *args: Any, **kwargs: Any) -> _CursorSpy:
        self._log.require_live()
        return _CursorSpy(self._conn.cursor(*args, **kwargs), self._log)

    def close(self) -> None:
        self._log.closed = True  # refused: the notebook and the next checks need this connection

    def __enter__(self) -> _ConnectionSpy:
        return self

    def __exit__(self, *exc: object) -> None:
        self._log.closed = True  # python-oracledb closes a connection at the end of `with conn:`

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def __setattr__(self, name: str, value: Any) -> None:
        # Settings such as outputtypehandler reach the real connection for the
        # call and are put back afterwards (restore()).
        self._changed.setdefault(name, getattr(self._conn, name, None))
        setattr(self._conn, name, value)

    def restore(self) -> None:
        for name, value in self._changed.items():
            with contextlib.suppress(Exception):
                setattr(self._conn, name, value)


class _ClientSpy:
    """The OAMP client as lent to a learner: search() is recorded, writes are refused."""

    def __init__(self, client: Any, log: _Log) -> None:
        self._client = client
        self._log = log
        try:
            self._signature: inspect.Signature | None = inspect.signature(client.search)
        except (TypeError, ValueError):
            self._signature = None

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self._log.require_live()
        arguments: dict[str, Any] = dict(kwargs)
        if self._signature is not None:
            with contextlib.suppress(TypeError):
                arguments = dict(self._signature.bind_partial(*args, **kwargs).arguments)
        elif args:
            arguments["query"] = args[0]
        self._log.searches.append(arguments)
        return self._client.search(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("add", "delete", "update", "create", "register")):
            def refused(*args: Any, **kwargs: Any) -> Any:
                self._log.refused.append(name)
                raise RuntimeError(f"memory_client.{name}() is not allowed here: this function must only "
                                   "search the memories, not change them.")
            return refused
        return getattr(self._client, name)


def _rerank_spy(real: Callable[..., Any], log: _Log) -> Callable[..., Any]:
    try:
        signature: inspect.Signature | None = inspect.signature(real)
    except (TypeError, ValueError):
        signature = None

    def rerank(*args: Any, **kwargs: Any) -> Any:
        log.require_live()
        arguments: dict[str, Any] = dict(kwargs)
        if signature is not None:
            with contextlib.suppress(TypeError):
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                arguments = dict(bound.arguments)
        candidates = arguments.get("candidates")
        snapshot = [dict(c) if isinstance(c, Mapping) else c for c in candidates] \
            if isinstance(candidates, list) else candidates
        call = {**arguments, "candidates": snapshot}
        log.reranks.append(call)
        result = real(*args, **kwargs)
        call["result"] = result
        return result

    rerank.__doc__ = getattr(real, "__doc__", None)
    return rerank


def _keyword_spy(real: Callable[..., Any], log: _Log) -> Callable[..., Any]:
    def keyword_search_memories(*args: Any, **kwargs: Any) -> Any:
        log.require_live()
        log.keyword_searches += 1
        return real(*args, **kwargs)

    return keyword_search_memories


# --------------------------------------------------------------------------- the grader


class _Grader:
    """Runs one TODO's learner function safely and turns every problem into a CheckFailure."""

    def __init__(self, todo: int, fn: Any, timeout: float | None) -> None:
        self.todo = todo
        self.name = _NAMES[todo]
        self.fn = fn
        self.timeout = _timeout_from(timeout)
        self.captured: dict[str, io.StringIO] = {}
        self.stack = contextlib.ExitStack()  # probe memories, scratch tables: undone however the check ends
        self.conn: Any = None

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

    # -- the session around a whole check
    @contextlib.contextmanager
    def session(self) -> Iterator[_Grader]:
        if self.fn is None or not callable(self.fn):
            raise CheckFailure(
                f"TODO {self.todo} ({self.name}) failed: the check needs your function, got {_short(self.fn)}.\n"
                f"  hint: run the cell that defines {self.name}, then call "
                f"checks.todo{self.todo}({self.name}).")
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
        from .workshop import current

        try:
            ws = current()
        except RuntimeError:
            self.fail("no workshop is running in this kernel.",
                      hint="run the setup cell at the top of the notebook (ws = workshop_lib.start(...)) first.")
        try:
            with ws.conn.cursor() as cur:
                cur.execute("SELECT 1 FROM dual")
                cur.fetchall()
        except Exception as exc:  # noqa: BLE001 - any failure means the connection is unusable
            self.fail(f"the workshop's database connection does not work ({type(exc).__name__}: {exc}).",
                      hint="restart the kernel and run the notebook from the setup cell; "
                           "never close agent_conn in your own code.")
        self.conn = ws.conn
        return ws

    def globals_of(self, names: tuple[str, ...]) -> dict[str, Any]:
        scope = getattr(self.fn, "__globals__", None)
        if not isinstance(scope, dict):
            self.fail(f"the check needs a plain Python function (def {self.name}(...)), got {_short(self.fn)}.",
                      hint=f"pass the function itself: checks.todo{self.todo}({self.name}).")
        missing = [n for n in names if n not in scope]
        if missing:
            self.fail(f"the notebook global(s) {', '.join(missing)} used by {self.name} are not defined.",
                      hint="run the setup cell at the top of the notebook, which defines them.")
        return scope

    @contextlib.contextmanager
    def lent(self, replacements: dict[str, Any]) -> Iterator[None]:
        """Temporarily replace notebook globals of the learner's function (always restored)."""
        if not replacements:
            yield
            return
        scope = self.fn.__globals__
        saved = {name: scope[name] for name in replacements}
        scope.update(replacements)
        try:
            yield
        finally:
            scope.update(saved)

    # -- calling the learner's function
    def call(self, described: str, *args: Any, **kwargs: Any) -> list[Any]:
        """Run the learner's function in a daemon thread with a timeout; return its list result."""
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["value"] = self.fn(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - everything the learner raises is graded
                box["error"] = exc

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
        if error is not None:
            hint = "read the error and the line it points at, fix the function, re-run its cell and this check."
            if isinstance(error, TypeError) and "argument" in str(error):
                hint = ("keep the signature given in the TODO (parameter names and defaults): the check calls "
                        f"{described}.")
            self.fail(f"{described} raised {type(error).__name__}: {error}",
                      got=_where(error), hint=hint)
        value = box["value"]
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

    def after_call(self, log: _Log, conn: Any, was_open: bool, *, read_only: bool = True) -> None:
        """Fail when the function closed the shared connection, wrote, or left a transaction open."""
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
            self.fail("your function changed the database; it must only read.",
                      got=_short(writes[0], 200),
                      hint="use SELECT statements only (the check rolled your change back).")
        if opened:
            self.fail("your function left an uncommitted transaction open on the shared connection.",
                      hint="do not run INSERT/UPDATE/DELETE here (the check rolled it back).")


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


def _fetch(conn: Any, sql: str, **binds: Any) -> list[tuple[Any, ...]]:
    with conn.cursor() as cur:
        cur.execute(sql, **binds)
        return cur.fetchall()


# --------------------------------------------------------------------------- TODO 1


def _catalog_tables(conn: Any, owner: str) -> dict[str, str | None]:
    """table -> comment for ``owner``, from two plain dictionary queries of the check's own."""
    tables = [row[0] for row in _fetch(conn, "SELECT table_name FROM all_tables WHERE owner = :owner",
                                       owner=owner)]
    comments = dict(_fetch(conn, "SELECT table_name, comments FROM all_tab_comments WHERE owner = :owner",
                           owner=owner))
    return {table: comments.get(table) for table in tables}


@contextlib.contextmanager
def _scratch_schema(conn: Any) -> Iterator[str]:
    """A small second schema for TODO 1: one commented table, one without a comment (dropped afterwards).

    The dedicated schema WORKSHOP_CHECK is used where the connected user can
    create it (lite); otherwise (Oracle without CREATE ANY TABLE) the
    connected user's own schema holds the two tables. The uncommented table
    is named VESSELS, like a commented SUPPLYCHAIN table, so a comment join
    that forgets the owner picks up the wrong comment.
    """
    tag = uuid.uuid4().hex[:8].upper()
    own = str(getattr(conn, "username", "") or "").upper()
    created: list[str] = []
    try:
        owner = ""
        for candidate in dict.fromkeys(c for c in (CHECK_SCHEMA, own) if c and c != SCHEMA):
            try:
                _run(conn, f"CREATE TABLE {candidate}.CHK_{tag}_BERTHS (berth_id NUMBER PRIMARY KEY, "
                           "berth_name VARCHAR2(40))")
            except Exception:  # noqa: BLE001 - no such schema / no privilege: try the next candidate
                continue
            owner = candidate
            created.append(f"{candidate}.CHK_{tag}_BERTHS")
            break
        if not owner:
            raise RuntimeError(f"neither {CHECK_SCHEMA} nor the connected user's schema accepts CREATE TABLE")
        _run(conn, f"COMMENT ON TABLE {created[0]} IS 'Check scratch table: berths of a port, one row per berth.'")
        for name in (f"{owner}.VESSELS", f"{owner}.CHK_{tag}_TUGS"):
            try:
                _run(conn, f"CREATE TABLE {name} (tug_id NUMBER PRIMARY KEY)")
            except Exception:  # noqa: BLE001 - a VESSELS table of the user's own exists: use a unique name
                continue
            created.append(name)
            break
        yield owner
    finally:
        for name in reversed(created):
            with contextlib.suppress(Exception):
                _run(conn, f"DROP TABLE {name} PURGE")


def _run(conn: Any, sql: str) -> None:
    with conn.cursor() as cur:
        cur.execute(sql)


def todo1(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 1 ``_scan_tables(conn, owner) -> list[Fact]``.

    Checks, against the check's own ALL_TABLES / ALL_TAB_COMMENTS queries:
    exactly one Fact per table of the owner (SUPPLYCHAIN and a second,
    freshly created schema with an uncommented table), kind ``table``,
    subject ``OWNER.TABLE``, body exactly ``table_body``'s format with the
    comment text and never "None", the owner passed as a bind variable (never
    in the SQL text), read-only use of the connection.
    """
    from .scanner import table_body

    grader = _Grader(1, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        conn = ws.conn
        _grade_scan(grader, conn, SCHEMA, table_body)
        try:
            owner = grader.stack.enter_context(_scratch_schema(conn))
        except Exception as exc:  # noqa: BLE001
            grader.fail(f"the check could not create its scratch tables ({type(exc).__name__}: {exc}).",
                        hint="this is a problem of the environment, not of your code: run `workshop doctor`.")
        _grade_scan(grader, conn, owner, table_body)


def _grade_scan(grader: _Grader, conn: Any, owner: str, table_body: Callable[..., str]) -> None:
    expected = _catalog_tables(conn, owner)
    log = _Log()
    spy = _ConnectionSpy(conn, log)
    # The notebook global too, so that a function ignoring its conn argument is recognised.
    global_log = _Log()
    scope = getattr(grader.fn, "__globals__", None)
    lent: dict[str, Any] = {}
    if isinstance(scope, dict) and "agent_conn" in scope:
        lent["agent_conn"] = _ConnectionSpy(scope["agent_conn"], global_log)
    was_open = _transaction_open(conn)
    described = f"{grader.name}(conn, {owner!r})"
    try:
        with grader.lent(lent):
            facts = grader.call(described, spy, owner)
    finally:
        log.live = global_log.live = False
        spy.restore()
        for lent_spy in lent.values():
            lent_spy.restore()
    grader.after_call(log, conn, was_open)
    grader.after_call(global_log, conn, was_open)
    if global_log.statements and not log.statements:
        grader.fail(f"{described} queried the notebook global agent_conn instead of its conn argument.",
                    hint="use the connection you are given: `with conn.cursor() as cur:`.")

    for item in facts:
        if not all(hasattr(item, a) for a in ("kind", "subject", "body")):
            grader.fail(f"{described} returned an item that is not a Fact.", got=_short(item, 200),
                        hint="build each item with Fact(kind='table', subject=f'{owner}.{table}', "
                             "body=table_body(...)-style text).")
    subjects = [str(f.subject) for f in facts]
    wanted = {f"{owner}.{t}": c for t, c in expected.items()}
    dup = sorted({s for s in subjects if subjects.count(s) > 1})
    if dup:
        grader.fail(f"{described} returned the same table more than once.", got=", ".join(dup[:5]),
                    hint="one Fact per table: join ALL_TAB_COMMENTS on both owner and table_name.")
    missing = sorted(set(wanted) - set(subjects))
    extra = sorted(set(subjects) - set(wanted))
    if missing or extra:
        hint = "select from ALL_TABLES WHERE owner = :owner, LEFT JOIN ALL_TAB_COMMENTS ON owner AND table_name."
        if extra and all("." not in s for s in extra):
            hint = f"the subject is OWNER.TABLE, e.g. {owner}.{next(iter(expected), 'TABLE')}."
        elif missing and not extra:
            undocumented = [s for s in missing if not (wanted[s] or "").strip()]
            if undocumented:
                hint = ("tables without a comment are missing: use a LEFT JOIN to ALL_TAB_COMMENTS so they "
                        "are kept.")
        elif any(not s.upper().startswith(f"{owner}.") for s in extra):
            hint = "only the tables of the given owner: filter ALL_TABLES with WHERE owner = :owner."
        grader.fail(f"{described} did not return exactly the tables of {owner}.",
                    expected=f"{len(wanted)} facts, subjects {sorted(wanted)[:8]}",
                    got=f"{len(subjects)} facts; missing {missing[:5]}, unexpected {extra[:5]}", hint=hint)
    for fact in facts:
        if str(fact.kind) != "table":
            grader.fail(f"{described}: the Fact for {fact.subject} has kind {fact.kind!r}.",
                        expected="'table'", got=repr(fact.kind), hint="use kind='table' for table facts.")
        table = str(fact.subject).split(".", 1)[1]
        body = table_body(owner, table, wanted[str(fact.subject)])
        if "None" in str(fact.body):
            grader.fail(f"{described}: the body of {fact.subject} contains 'None'.", expected=repr(body),
                        got=repr(fact.body),
                        hint="a table without a comment must say 'not documented (the table has no comment).', "
                             "never format None into the text.")
        if fact.body != body:
            grader.fail(f"{described}: the body of {fact.subject} is not in the required format.",
                        expected=repr(body), got=_short(fact.body),
                        hint="body = f'Table {owner}.{table}. Documented purpose: {comment}' (comment stripped), "
                             "or the 'not documented' sentence when there is no comment.")

    sql_texts = [sql for sql, _, _ in log.statements]
    if not sql_texts:
        grader.fail(f"{described} ran no SQL.", hint="query ALL_TABLES and ALL_TAB_COMMENTS with conn.cursor().")
    literal = re.compile(rf"\b{re.escape(owner)}\b", re.IGNORECASE)
    inlined = [sql for sql in sql_texts if literal.search(sql)]
    if inlined:
        grader.fail(f"{described} wrote the owner {owner!r} into the SQL text.", got=_short(inlined[0], 200),
                    hint="use a bind variable: WHERE t.owner = :owner, then cur.execute(sql, owner=owner).")
    bound = any(str(v).upper() == owner.upper()
                for _, params, kwargs in log.statements for v in _bind_values(params, kwargs))
    if not bound:
        grader.fail(f"{described} did not pass the owner as a bind variable.",
                    hint="cur.execute(sql, owner=owner) with WHERE t.owner = :owner in the SQL.")


# --------------------------------------------------------------------------- probe memories (TODO 2 and 3)


@dataclass
class _Probe:
    record_id: str
    text: str
    user_id: str
    agent_id: str
    kind: str
    why: str


def _remove_stale_probes(ws: Any) -> None:
    """Delete probe memories an interrupted earlier check may have left behind."""
    rows = _fetch(ws.conn, f"SELECT record_id FROM {MEMORY_TABLE} WHERE record_id LIKE :prefix",
                  prefix=PROBE_PREFIX + "%")
    for (record_id,) in rows:
        _delete_probe(ws, record_id)


def _delete_probe(ws: Any, record_id: str) -> None:
    with contextlib.suppress(Exception):
        ws.memory_client.delete_memory(record_id)
    with contextlib.suppress(Exception):
        with ws.conn.cursor() as cur:
            cur.execute(f"DELETE FROM {CHUNKS_TABLE} WHERE source_id = :record_id", record_id=record_id)
        ws.conn.commit()


def _add_probes(grader: _Grader, ws: Any, text: str, specs: list[tuple[str, str, str, str]]) -> list[_Probe]:
    """Add short-lived memories with ``text`` as (suffix, user, agent, kind, why); removed at the end."""
    probes = []
    run = uuid.uuid4().hex[:10]
    for suffix, user_id, agent_id, kind in specs:
        probe = _Probe(f"{PROBE_PREFIX}{run}-{suffix}", text, user_id, agent_id, kind, suffix)
        grader.stack.callback(_delete_probe, ws, probe.record_id)
        ws.memory_client.add_memory(text, user_id=user_id, agent_id=agent_id, memory_id=probe.record_id,
                                    metadata={"kind": kind, "subject": f"{CHECK_SCHEMA}.PROBE#{suffix}"})
        probes.append(probe)
    return probes


def _probe_reason(probe: _Probe) -> str:
    return {
        "tool-output": "a tool_output memory (kind == 'tool_output' must be dropped)",
        "other-user": f"a memory of another user ({probe.user_id}); scope the search to USER_ID",
        "other-agent": f"a memory of another agent ({probe.agent_id}); scope the search to AGENT_ID",
    }.get(probe.why, probe.why)


def _scope_probes(grader: _Grader, ws: Any, text: str) -> list[_Probe]:
    return _add_probes(grader, ws, text, [
        ("tool-output", ws.user_id, ws.agent_id, "tool_output"),
        ("other-user", config.OTHER_USER_ID, ws.agent_id, "guideline"),
        ("other-agent", ws.user_id, f"{ws.agent_id}_other", "guideline"),
    ])


# --------------------------------------------------------------------------- TODO 2

_RK_KEYS = ("kind", "subject", "body", "metadata", "distance")


def todo2(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 2 ``retrieve_knowledge(query, k=5, kinds=None) -> list[dict]``.

    Spies on ``memory_client.search`` (one call, ``max_results == 4*k`` for
    several k, scoped to USER_ID/AGENT_ID, record_types ['memory']) and on
    ``rerank`` (called once with the filtered candidates, ``top_k=k``,
    ``content_key='body'``); compares the results with the reference
    retrieval computed with explicit arguments (order, kind, subject, body,
    metadata, distance); checks the kinds filter in its string, list and
    empty-list forms, ``len <= k``, the expected facts for two probe queries,
    and — with short-lived probe memories whose text equals the query — that
    tool output and other users' or agents' memories never come back.
    """
    from . import reference

    grader = _Grader(2, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("memory_client", "rerank", "USER_ID", "AGENT_ID"))
        _remove_stale_probes(ws)

        def grade(query: str, k: int | None = None, kinds: Any = None, *, pass_kinds: bool = False
                  ) -> list[dict[str, Any]]:
            args: dict[str, Any] = {}
            if k is not None:
                args["k"] = k
            if pass_kinds:
                args["kinds"] = kinds
            k_eff = 5 if k is None else k
            described = f"{grader.name}({query!r}" + "".join(f", {n}={v!r}" for n, v in args.items()) + ")"
            log = _Log()
            conn_spy = _ConnectionSpy(scope.get("agent_conn", ws.conn), log)
            lent = {"memory_client": _ClientSpy(scope["memory_client"], log),
                    "rerank": _rerank_spy(scope["rerank"], log)}
            if "agent_conn" in scope:
                lent["agent_conn"] = conn_spy
            was_open = _transaction_open(ws.conn)
            try:
                with grader.lent(lent):
                    got = grader.call(described, query, **args)
            finally:
                log.live = False
                conn_spy.restore()
            grader.after_call(log, ws.conn, was_open)
            _check_search_call(grader, described, log, query, k_eff, ws)
            _check_items(grader, described, got, k_eff)
            wanted = reference.normalise_kinds(kinds)
            candidates = _expected_candidates(ws, query, k_eff, wanted)
            _check_rerank_call(grader, described, log, query, k_eff, candidates, got, kinds)
            expected = reference.retrieve_knowledge(query, k_eff, kinds, memory_client=ws.memory_client,
                                                    user_id=ws.user_id, agent_id=ws.agent_id)
            _compare_knowledge(grader, described, got, expected, wanted)
            return got

        positions = grade("Where do we record vessel current positions?")
        top3 = [r.get("subject") for r in positions[:3]]
        if f"{SCHEMA}.VESSEL_POSITIONS" not in top3:
            grader.fail("the table fact SUPPLYCHAIN.VESSEL_POSITIONS is not in the top 3 for "
                        "'Where do we record vessel current positions?'.", got=top3,
                        hint="search the memories (not messages), drop tool_output, rerank the rest.")
        units = grade("What unit is vessel capacity measured in?", 3)
        if not any("CAPACITY_TEU" in str(r.get("subject")) for r in units):
            grader.fail("no CAPACITY_TEU fact for 'What unit is vessel capacity measured in?' (k=3).",
                        got=[r.get("subject") for r in units])
        money = grade("Is the cargo unit value stored in dollars or cents?", 2)
        if not any("UNIT_VALUE_CENTS" in str(r.get("subject")) for r in money):
            grader.fail("no UNIT_VALUE_CENTS fact for 'Is the cargo unit value stored in dollars or cents?' (k=2).",
                        got=[r.get("subject") for r in money])
        grade("Which columns describe vessel capacity and cargo value?", 1)
        grade("What unit is vessel capacity measured in?", 4, "table, column", pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 3, "column,guideline", pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 3, ["guideline"], pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 3, [], pass_kinds=True)

        probe_text = "Workshop check probe: which berth log records the tug assignments of arriving vessels?"
        probes = _scope_probes(grader, ws, probe_text)
        got = grade(probe_text, 5)
        leaked = _probe_hits([r.get("subject") for r in got], probes, lambda p: f"{CHECK_SCHEMA}.PROBE#{p.why}")
        if leaked:
            grader.fail(f"{grader.name}({probe_text!r}, k=5) returned {_probe_reason(leaked[0])}.",
                        got=[r.get("subject") for r in got],
                        hint="memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, "
                             "record_types=['memory'], max_results=k * 4), then skip kind == 'tool_output'.")


def _probe_hits(values: list[Any], probes: list[_Probe], key: Callable[[_Probe], str]) -> list[_Probe]:
    return [p for p in probes if key(p) in values]


def _check_search_call(grader: _Grader, described: str, log: _Log, query: str, k: int, ws: Any) -> None:
    if not log.searches:
        grader.fail(f"{described} did not call memory_client.search(...).",
                    hint="candidates = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, "
                         "record_types=['memory'], max_results=k * 4).")
    if len(log.searches) > 1:
        grader.fail(f"{described} called memory_client.search {len(log.searches)} times.", expected="once",
                    hint="one search for k * 4 candidates, then filter and rerank them in Python.")
    call = log.searches[0]
    max_results = call.get("max_results")
    if max_results != OVERSAMPLE * k:
        grader.fail(f"{described} searched with max_results={max_results!r}.",
                    expected=f"max_results={OVERSAMPLE * k} (k * 4 candidates for k={k})", got=max_results,
                    hint="oversample: ask for k * 4 candidates, because filtering and reranking need spares.")
    # A prebuilt OAMP SearchScope is a valid alternative; the probe memories then prove the scoping.
    scoped_by_object = call.get("scope") is not None
    if not scoped_by_object and (call.get("user_id") != ws.user_id or call.get("agent_id") != ws.agent_id):
        grader.fail(f"{described} did not scope the search to the workshop's user and agent.",
                    expected=f"user_id={ws.user_id!r}, agent_id={ws.agent_id!r}",
                    got=f"user_id={call.get('user_id')!r}, agent_id={call.get('agent_id')!r}",
                    hint="pass user_id=USER_ID and agent_id=AGENT_ID to memory_client.search.")
    types = call.get("record_types")
    if not isinstance(types, (list, tuple, set, frozenset)) or set(types) != {"memory"}:
        grader.fail(f"{described} searched record types {types!r}.", expected="record_types=['memory']",
                    got=repr(types), hint="only long-term memories: record_types=['memory'].")
    if call.get("query") not in (None, query):
        grader.fail(f"{described} searched for a different text.", expected=repr(query),
                    got=_short(call.get("query")), hint="search for the query you were given.")


def _check_items(grader: _Grader, described: str, got: list[Any], k: int) -> None:
    if len(got) > k:
        grader.fail(f"{described} returned {len(got)} results.", expected=f"at most k={k}",
                    hint="rerank(query, candidates, top_k=k, content_key='body') keeps the best k.")
    for item in got:
        if not isinstance(item, Mapping):
            grader.fail(f"{described} returned an item that is not a dict.", got=_short(item, 200),
                        hint="build a dict per candidate: kind, subject, body, metadata, distance.")
        missing = [key for key in _RK_KEYS if key not in item]
        if missing:
            grader.fail(f"{described} returned a dict without {', '.join(missing)}.",
                        expected=f"keys {list(_RK_KEYS)}", got=sorted(item),
                        hint="kind/subject from result.metadata, body = result.content, "
                             "metadata = result.metadata, distance = result.distance.")
        if item.get("kind") == "tool_output":
            grader.fail(f"{described} returned a tool_output memory ({item.get('subject')}).",
                        hint="skip candidates whose metadata kind is 'tool_output' before reranking.")


def _expected_candidates(ws: Any, query: str, k: int, wanted: list[str] | None) -> list[dict[str, Any]]:
    """The rerank input the function should build: the scoped 4k search, filtered (check's own code)."""
    results = ws.memory_client.search(query, user_id=ws.user_id, agent_id=ws.agent_id, exact_user_match=True,
                                      exact_agent_match=True, record_types=["memory"],
                                      max_results=k * OVERSAMPLE)
    candidates = []
    for result in results:
        metadata = dict(result.metadata or {})
        if metadata.get("kind") == "tool_output":
            continue
        if wanted is not None and metadata.get("kind") not in wanted:
            continue
        candidates.append({"kind": metadata.get("kind"), "subject": metadata.get("subject"),
                           "body": result.content})
    return candidates


def _check_rerank_call(grader: _Grader, described: str, log: _Log, query: str, k: int,
                       candidates: list[dict[str, Any]], got: list[Any], kinds: Any) -> None:
    hint = "finish with: return rerank(query, candidates, top_k=k, content_key='body')."
    if len(log.reranks) != 1:
        grader.fail(f"{described} called rerank {len(log.reranks)} times.", expected="once", hint=hint)
    call = log.reranks[0]
    if call.get("query") != query or call.get("top_k") != k or call.get("content_key") != "body":
        grader.fail(f"{described} called rerank with the wrong arguments.",
                    expected=f"rerank({query!r}, candidates, top_k={k}, content_key='body')",
                    got=f"query={_short(call.get('query'), 80)}, top_k={call.get('top_k')!r}, "
                        f"content_key={call.get('content_key')!r}", hint=hint)
    given = call.get("candidates")
    if not isinstance(given, list):
        grader.fail(f"{described} passed {type(given).__name__} candidates to rerank.", expected="a list",
                    hint=hint)
    shown = [(c.get("kind"), c.get("subject")) if isinstance(c, Mapping) else c for c in given]
    wanted = [(c["kind"], c["subject"]) for c in candidates]
    if shown != wanted:
        extra = [s for s in shown if s not in wanted]
        lost = [s for s in wanted if s not in shown]
        why = "filter the search results before reranking: drop tool_output and keep only the requested kinds."
        if len(shown) < len(wanted) and not extra:
            why = "keep every candidate that passes the filters, in the search order (k * 4 were searched)."
        leaked = [str(subject) for _, subject in extra if str(subject).startswith(f"{CHECK_SCHEMA}.PROBE#")]
        if leaked:
            why = {"other-user": "a memory of another user came back: pass user_id=USER_ID (exact match).",
                   "other-agent": "a memory of another agent came back: pass agent_id=AGENT_ID and keep the "
                                  "agent match exact (do not pass exact_agent_match=False).",
                   "tool-output": "drop candidates whose kind is 'tool_output'."}.get(leaked[0].split("#")[-1], why)
        elif isinstance(kinds, str) and lost:
            why = (f"kinds={kinds!r} means the kinds {[p.strip() for p in kinds.split(',')]}: split the string "
                   "on commas and strip each part.")
        elif isinstance(kinds, (list, tuple)) and not kinds and lost:
            why = "kinds=[] means no filter (like None): keep every kind except tool_output."
        grader.fail(f"{described} gave rerank a different candidate list than the filtered search results.",
                    expected=f"{len(wanted)} candidates {wanted[:6]}",
                    got=f"{len(shown)} candidates; unexpected {extra[:4]}, missing {lost[:4]}", hint=why)
    bodies = [c.get("body") for c in given]
    if bodies != [c["body"] for c in candidates]:
        grader.fail(f"{described}: the candidates' body is not the memory text.",
                    hint="body = result.content for each search result.")
    if got != call.get("result"):
        grader.fail(f"{described} did not return rerank's result unchanged.",
                    expected=f"the {len(call.get('result') or [])} results rerank returned", got=f"{len(got)} results",
                    hint=hint)


def _compare_knowledge(grader: _Grader, described: str, got: list[dict[str, Any]], expected: list[dict[str, Any]],
                       wanted: list[str] | None) -> None:
    got_subjects = [r.get("subject") for r in got]
    expected_subjects = [r["subject"] for r in expected]
    if wanted is not None:
        off = [r.get("kind") for r in got if r.get("kind") not in wanted]
        if off:
            grader.fail(f"{described} returned kinds {sorted(set(map(str, off)))} that were not asked for.",
                        expected=f"only {wanted}", hint="split a comma-separated kinds string and strip each part; "
                                                        "an empty list means no filter.")
    if got_subjects != expected_subjects:
        grader.fail(f"{described} returned different memories (or a different order) than expected.",
                    expected=expected_subjects, got=got_subjects,
                    hint="best first as rerank returns them; a kinds string like 'table, column' is split on "
                         "commas and stripped, and an empty list means no filter.")
    for mine, theirs in zip(got, expected):
        for key in ("kind", "body", "metadata"):
            if mine.get(key) != theirs[key]:
                grader.fail(f"{described}: {key} of {theirs['subject']} is wrong.",
                            expected=_short(theirs[key], 150), got=_short(mine.get(key), 150),
                            hint="kind = metadata['kind'], body = result.content, metadata = result.metadata.")
        distance = mine.get("distance")
        if isinstance(distance, bool) or not isinstance(distance, (int, float)) or \
                not math.isclose(float(distance), theirs["distance"], abs_tol=1e-5):
            grader.fail(f"{described}: distance of {theirs['subject']} is wrong.",
                        expected=round(theirs["distance"], 6), got=_short(distance, 60),
                        hint="distance = float(result.distance).")


# --------------------------------------------------------------------------- TODO 3

_HY_KEYS = ("record_id", "kind", "subject", "content", "r_vec", "r_txt", "rrf_score")

def _leg_sql(leg: str, *, scoped: bool = True, drop_tool_output: bool = True) -> str:
    """The check's own ranking query for one leg (vector: best chunk distance; keyword: SCORE).

    ``scoped`` / ``drop_tool_output`` off give the rankings of typical wrong
    legs, used only to explain a failure.
    """
    where = ["m.status = 'valid'"]
    if scoped:
        where.append("m.user_id = :user_id AND m.agent_id = :agent_id")
    if drop_tool_output:
        where.append("NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'")
    if leg == "vector":
        return (f"SELECT c.source_id, MIN(VECTOR_DISTANCE(c.embedding, VECTOR_EMBEDDING({EMBED_MODEL} USING :q "
                f"AS DATA), COSINE)) AS distance FROM {CHUNKS_TABLE} c JOIN {MEMORY_TABLE} m ON m.record_id = "
                "c.source_id WHERE c.source_record_type = 'memory' AND c.status = 'valid' AND "
                + " AND ".join(where) + " GROUP BY c.source_id")
    return (f"SELECT m.record_id, SCORE(1) AS score FROM {MEMORY_TABLE} m WHERE CONTAINS(m.content, :kw, 1) > 0 AND "
            + " AND ".join(where))


def _leg_values(ws: Any, query: str, leg: str, **variant: bool) -> dict[str, float]:
    from .retrieval import text_query

    binds: dict[str, Any] = {}
    if variant.get("scoped", True):
        binds = {"user_id": ws.user_id, "agent_id": ws.agent_id}
    if leg == "vector":
        binds["q"] = query
    else:
        kw = text_query(query)
        if kw is None:
            return {}
        binds["kw"] = kw
    return {rid: float(value) for rid, value in _fetch(ws.conn, _leg_sql(leg, **variant), **binds)}


# A memory longer than 500 characters (content must be cut) that gets a second chunk.
_LONG_PROBE = ("Workshop check probe: harbour notes kept by the port authority. " + " ".join(
    f"Note {i}: pilots board inbound ships at the outer anchorage and report to the harbour master."
    for i in range(1, 9)))

_RECORD_SQL = f"""SELECT m.user_id, m.agent_id, JSON_VALUE(m.metadata, '$.kind') AS kind,
       JSON_VALUE(m.metadata, '$.subject') AS subject, DBMS_LOB.SUBSTR(m.content, 500, 1) AS content
FROM {MEMORY_TABLE} m
WHERE m.record_id = :record_id"""

_EXTRA_CHUNK_SQL = f"""INSERT INTO {CHUNKS_TABLE} (source_id, source_record_type, source_emb_column, chunk_seq,
       chunk_text, thread_id, user_id, agent_id, status, embedding)
SELECT source_id, source_record_type, source_emb_column, chunk_seq + 1, :chunk_text, thread_id, user_id,
       agent_id, status, VECTOR_EMBEDDING({EMBED_MODEL} USING :chunk_text AS DATA)
FROM {CHUNKS_TABLE}
WHERE source_id = :record_id AND chunk_seq = 1"""


@dataclass
class _Rankings:
    """Independent vector and keyword rankings of the in-scope memories for one query."""

    distance: dict[str, float]
    score: dict[str, float]
    vec_bounds: dict[str, tuple[int, int]]
    txt_bounds: dict[str, tuple[int, int]]


def _bounds(values: dict[str, float], *, smaller_is_better: bool, eps: float) -> dict[str, tuple[int, int]]:
    """Rank range of each id: ties (within eps) may be ordered either way by a correct solution."""
    ordered = sorted(values.values())
    out = {}
    for rid, value in values.items():
        below = bisect.bisect_left(ordered, value - eps)
        upto = bisect.bisect_right(ordered, value + eps)
        if smaller_is_better:
            out[rid] = (below + 1, upto)
        else:
            n = len(ordered)
            out[rid] = (n - upto + 1, n - below)
    return out


def _rankings(ws: Any, query: str) -> _Rankings:
    distance = _leg_values(ws, query, "vector")
    score = _leg_values(ws, query, "keyword")
    return _Rankings(distance, score, _bounds(distance, smaller_is_better=True, eps=1e-6),
                     _bounds(score, smaller_is_better=False, eps=1e-9))


def _wrong_leg_hint(ws: Any, query: str, leg: str, rid: str, rank: int, per_list: int) -> str | None:
    """Explain a wrong rank by the wrong leg that would give it (tool output kept, scope missing)."""
    for variant, hint in (
        ({"drop_tool_output": False}, ("your {leg} leg keeps tool_output memories: add "
                                       "NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'.")),
        ({"scoped": False}, "your {leg} leg is not scoped: add m.user_id = :user_id AND m.agent_id = :agent_id."),
        ({"scoped": False, "drop_tool_output": False},
         "your {leg} leg is neither scoped to the user/agent nor free of tool_output memories."),
    ):
        values = _leg_values(ws, query, leg, **variant)
        bounds = _bounds(values, smaller_is_better=(leg == "vector"), eps=1e-6 if leg == "vector" else 1e-9)
        if _leg_rank_ok(bounds, rid, rank, per_list):
            return hint.format(leg=leg)
    return None


def todo3(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 3 ``hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60) -> list[dict]``.

    Spies on ``agent_conn`` (exactly one SQL execute per call, the query
    bound rather than pasted into the SQL, no other search round trips) and
    validates every row against rankings the check computes itself (vector
    ranks from VECTOR_DISTANCE over each memory's best chunk, keyword ranks
    from Oracle Text SCORE; ties may be broken either way): int ranks, the
    999999 sentinel exactly when a leg's top ``per_list`` misses the memory,
    ``rrf_score == 1/(rrf_k + r_vec) + 1/(rrf_k + r_txt)``, sorted
    descending, the right top ``k``, content ≤ 500 characters matching the
    memory; ``per_list``, ``rrf_k`` and ``k`` are varied (the library's
    reference, called with the same arguments, must pass the same validation
    first, so an environment problem is never blamed on the learner); the
    TEU probe's top hit is the CAPACITY_TEU column fact with
    both legs contributing; probe memories (tool output, another user,
    another agent, a memory with two chunks) check scoping, the tool_output
    exclusion and one row per memory.
    """
    grader = _Grader(3, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("agent_conn", "MEMORY_TABLE", "ONNX_EMBED_MODEL", "text_query",
                                   "USER_ID", "AGENT_ID"))
        _remove_stale_probes(ws)

        teu = "TEU 20-foot equivalent capacity unit for vessels"
        rows = _grade_hybrid(grader, ws, scope, teu, None, None, None)
        top = rows[0] if rows else {}
        if top.get("subject") != f"{SCHEMA}.VESSELS.CAPACITY_TEU" or top.get("kind") != "column":
            grader.fail(f"the top hit for {teu!r} is not the CAPACITY_TEU column fact.",
                        expected="kind 'column', subject 'SUPPLYCHAIN.VESSELS.CAPACITY_TEU'",
                        got=f"kind {top.get('kind')!r}, subject {top.get('subject')!r}")
        if top.get("r_vec") == SENTINEL or top.get("r_txt") == SENTINEL:
            grader.fail(f"for {teu!r} both legs must rank the top hit.",
                        got=f"r_vec={top.get('r_vec')}, r_txt={top.get('r_txt')}",
                        hint="the keyword leg must use text_query(query) so every term can match.")
        _grade_hybrid(grader, ws, scope, "Which voyages are delayed and why?", 8, 4, 10)
        _grade_hybrid(grader, ws, scope, "ORA-00904: invalid identifier -- what does it mean?", 3, 10, 1)
        _grade_hybrid(grader, ws, scope, "How is the total cargo value computed in US dollars?", 6, 12, 60)

        probe_text = "Workshop check probe: berth log of tug assignments for arriving vessels"
        probes = _scope_probes(grader, ws, probe_text)
        multi = _add_probes(grader, ws, _LONG_PROBE, [("two-chunks", ws.user_id, ws.agent_id, "guideline")])[0]
        try:
            with ws.conn.cursor() as cur:
                cur.execute(_EXTRA_CHUNK_SQL, chunk_text=probe_text, record_id=multi.record_id)
            ws.conn.commit()
        except Exception:  # noqa: BLE001 - a store whose chunk table differs: the probe keeps one chunk
            with contextlib.suppress(Exception):
                ws.conn.rollback()
        rows = _grade_hybrid(grader, ws, scope, probe_text, 20, 10, 60)
        leaked = _probe_hits([r.get("record_id") for r in rows], probes, lambda p: p.record_id)
        if leaked:
            grader.fail(f"{grader.name}({probe_text!r}, k=20, per_list=10) returned {_probe_reason(leaked[0])}.",
                        hint="both legs need: m.user_id = :user_id AND m.agent_id = :agent_id AND "
                             "NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'.")


def _grade_hybrid(grader: _Grader, ws: Any, scope: dict[str, Any], query: str, k: int | None,
                  per_list: int | None, rrf_k: int | None) -> list[dict[str, Any]]:
    from . import reference

    args = {name: value for name, value in (("k", k), ("per_list", per_list), ("rrf_k", rrf_k))
            if value is not None}
    k_eff, p_eff, rrf_eff = k or 5, per_list or 30, 60 if rrf_k is None else rrf_k
    described = f"{grader.name}({query!r}" + "".join(f", {n}={v!r}" for n, v in args.items()) + ")"
    log = _Log()
    conn_spy = _ConnectionSpy(scope["agent_conn"], log)
    lent: dict[str, Any] = {"agent_conn": conn_spy}
    if "memory_client" in scope:
        lent["memory_client"] = _ClientSpy(scope["memory_client"], log)
    if "keyword_search_memories" in scope:
        lent["keyword_search_memories"] = _keyword_spy(scope["keyword_search_memories"], log)
    was_open = _transaction_open(ws.conn)
    try:
        with grader.lent(lent):
            rows = grader.call(described, query, **args)
    finally:
        log.live = False
        conn_spy.restore()
    grader.after_call(log, ws.conn, was_open)

    executes = len(log.statements)
    if executes != 1 or log.searches or log.keyword_searches:
        extra = []
        if log.searches:
            extra.append(f"{len(log.searches)} memory_client.search call(s)")
        if log.keyword_searches:
            extra.append(f"{log.keyword_searches} keyword_search_memories call(s)")
        grader.fail(f"{described} made {executes} SQL execute call(s)" + (f" and {', '.join(extra)}" if extra else "")
                    + ".", expected="exactly one cursor.execute of one SQL statement",
                    hint="one statement: WITH vec AS (...), txt AS (...) SELECT ... FROM vec FULL OUTER JOIN txt "
                         "... — both legs and the fusion run inside the database.")
    sql = log.statements[0][0]
    if query in sql:
        grader.fail(f"{described} pasted the query text into the SQL.",
                    hint="bind it: VECTOR_EMBEDDING(... USING :q AS DATA) and CONTAINS(m.content, :kw, 1) with "
                         "kw = text_query(query).")

    rankings = _rankings(ws, query)
    # Self-test first: the library's reference, called with the same arguments, must satisfy the
    # same validation; if it does not, the environment is at fault and the learner is not blamed.
    expected = reference.hybrid_rrf_search_memories(query, k_eff, p_eff, rrf_eff, conn=ws.conn,
                                                    user_id=ws.user_id, agent_id=ws.agent_id)
    try:
        _validate_rows(grader, f"the reference for {described}", ws, query, expected, rankings, k_eff, p_eff,
                       rrf_eff)
    except CheckFailure as problem:
        grader.fail("the check cannot grade this call: the workshop's reference implementation disagrees with "
                    "the rankings the check computes (" + str(problem).splitlines()[0] + ").",
                    hint="this is a problem of the environment, not of your code: run `workshop doctor` and "
                         "re-run the notebook's setup cell.")
    _validate_rows(grader, described, ws, query, rows, rankings, k_eff, p_eff, rrf_eff)
    return rows


def _leg_rank_ok(bounds: dict[str, tuple[int, int]], rid: str, rank: int, per_list: int) -> bool:
    if rid not in bounds:
        return rank == SENTINEL
    lo, hi = bounds[rid]
    if rank == SENTINEL:
        return hi > per_list  # a tie at the cut-off may leave it out
    return lo <= rank <= min(hi, per_list)


def _worst_score(bounds: dict[str, tuple[int, int]], rid: str, per_list: int, rrf_k: int) -> float:
    if rid in bounds and bounds[rid][1] <= per_list:
        return 1.0 / (rrf_k + bounds[rid][1])
    return 1.0 / (rrf_k + SENTINEL)


def _validate_rows(grader: _Grader, described: str, ws: Any, query: str, rows: list[Any], rk: _Rankings, k: int,
                   per_list: int, rrf_k: int) -> None:
    sql_hint = ("rank each leg with ROW_NUMBER() OVER (ORDER BY ...) — 1 is best — keep its top :per_list, "
                "FULL OUTER JOIN the legs and NVL a missing rank to 999999.")
    for row in rows:
        if not isinstance(row, Mapping):
            grader.fail(f"{described} returned a row that is not a dict.", got=_short(row, 200),
                        hint="names = [d[0].lower() for d in cur.description]; "
                             "rows = [dict(zip(names, r)) for r in cur.fetchall()].")
        missing = [key for key in _HY_KEYS if key not in row]
        if missing:
            upper = all(str(key).upper() == str(key) for key in row)
            grader.fail(f"{described} returned rows without {', '.join(missing)}.", expected=list(_HY_KEYS),
                        got=sorted(map(str, row)),
                        hint="lower-case the column names from cur.description." if upper else
                        "alias the SELECT columns record_id, kind, subject, content, r_vec, r_txt, rrf_score.")
        for key in ("r_vec", "r_txt"):
            value = row[key]
            if isinstance(value, bool) or not isinstance(value, int):
                grader.fail(f"{described}: {key} must be an int rank.", got=_short(value, 60),
                            hint="a rank is a position (ROW_NUMBER()), not a distance or a score; convert with "
                                 "int(...) in Python.")
        if isinstance(row["rrf_score"], bool) or not isinstance(row["rrf_score"], float):
            grader.fail(f"{described}: rrf_score must be a float.", got=_short(row["rrf_score"], 60),
                        hint="convert with float(row['rrf_score']).")
        if not isinstance(row["content"], str) or len(row["content"]) > 500:
            grader.fail(f"{described}: content must be a str of at most 500 characters.",
                        got=f"{type(row['content']).__name__} of length "
                            f"{len(row['content']) if hasattr(row['content'], '__len__') else '?'}",
                        hint="select DBMS_LOB.SUBSTR(m.content, 500, 1) AS content.")
    if len(rows) > k:
        grader.fail(f"{described} returned {len(rows)} rows.", expected=f"at most k={k}",
                    hint="end the statement with FETCH FIRST :k ROWS ONLY.")
    ids = [row["record_id"] for row in rows]
    dup = sorted({rid for rid in ids if ids.count(rid) > 1})
    if dup:
        grader.fail(f"{described} returned a memory more than once.", got=dup[:3],
                    hint="one row per memory: the vector leg groups the chunks by c.source_id and ranks each "
                         "memory by its best chunk (MIN(VECTOR_DISTANCE(...))).")
    in_scope = set(rk.distance) | set(rk.score)
    for row in rows:
        rid = row["record_id"]
        if rid not in in_scope:
            info = _fetch(ws.conn, _RECORD_SQL, record_id=rid)
            why = "a record the workshop's memories do not contain"
            if info:
                user_id, agent_id, kind, _, _ = info[0]
                if kind == "tool_output":
                    why = "a tool_output memory; exclude kind 'tool_output' in both legs"
                elif user_id != ws.user_id:
                    why = f"a memory of another user ({user_id}); scope both legs with m.user_id = :user_id"
                elif agent_id != ws.agent_id:
                    why = f"a memory of another agent ({agent_id}); scope both legs with m.agent_id = :agent_id"
            grader.fail(f"{described} returned {rid!r}: {why}.")
    for row in rows:
        rid = row["record_id"]
        for key, bounds, label in (("r_vec", rk.vec_bounds, "vector"), ("r_txt", rk.txt_bounds, "keyword")):
            rank = row[key]
            if _leg_rank_ok(bounds, rid, rank, per_list):
                continue
            if rid in bounds:
                lo, hi = bounds[rid]
                if lo > per_list:
                    should = f"{SENTINEL} (rank {lo} is outside the top per_list={per_list})"
                elif hi > per_list:
                    within = f"{lo}" if lo == per_list else f"{lo}..{per_list}"
                    should = f"{within} or {SENTINEL} (tied at the per_list={per_list} cut-off)"
                else:
                    should = f"{lo}" if lo == hi else f"{lo}..{hi} (tied)"
            else:
                should = f"{SENTINEL} (the {label} leg does not find it)"
            hint = _wrong_leg_hint(ws, query, label, rid, rank, per_list)
            if hint:
                pass
            elif rank == 0 or (rid in bounds and rank == bounds[rid][0] - 1):
                hint = "ranks start at 1: use ROW_NUMBER() as it is, without subtracting 1."
            elif rank != SENTINEL and rank > per_list and rank > 900:
                hint = f"a memory a leg did not return gets the sentinel rank {SENTINEL}: NVL(r, 999999)."
            elif rank != SENTINEL and rank > per_list:
                hint = "each leg keeps only its top :per_list rows (FETCH FIRST :per_list ROWS ONLY)."
            elif label == "keyword" and rank == SENTINEL:
                hint = ("the keyword leg must search CONTAINS(m.content, :kw, 1) > 0 with kw = text_query(query) "
                        "(raw user text is an Oracle Text phrase/operator query) and rank by SCORE(1) DESC.")
            elif label == "keyword":
                hint = "rank the keyword leg by SCORE(1) DESC (higher score = better = rank 1)."
            else:
                hint = ("rank the vector leg by the smallest VECTOR_DISTANCE(..., COSINE) of each memory's "
                        "chunks, ascending.")
            grader.fail(f"{described}: {key} of {row.get('subject') or rid} is {rank}.",
                        expected=should, got=rank, hint=hint)
        if row["r_vec"] == SENTINEL and row["r_txt"] == SENTINEL:
            grader.fail(f"{described}: {rid} has the sentinel rank in both legs.", hint=sql_hint)
    for key in ("r_vec", "r_txt"):
        ranks = [row[key] for row in rows if row[key] != SENTINEL]
        if len(ranks) != len(set(ranks)):
            grader.fail(f"{described}: two rows share the same {key}.", got=sorted(ranks), hint=sql_hint)
    for row in rows:
        want = 1.0 / (rrf_k + row["r_vec"]) + 1.0 / (rrf_k + row["r_txt"])
        if not math.isclose(row["rrf_score"], want, rel_tol=1e-9, abs_tol=1e-12):
            grader.fail(f"{described}: rrf_score of {row['record_id']} does not match its ranks.",
                        expected=f"1/({rrf_k}+{row['r_vec']}) + 1/({rrf_k}+{row['r_txt']}) = {want:.10f}",
                        got=row["rrf_score"],
                        hint="rrf_score = 1 / (:rrf_k + r_vec) + 1 / (:rrf_k + r_txt), with the rrf_k argument.")
    scores = [row["rrf_score"] for row in rows]
    if any(a < b - 1e-12 for a, b in itertools.pairwise(scores)):
        grader.fail(f"{described} is not sorted by rrf_score, best first.", got=[round(s, 6) for s in scores],
                    hint="ORDER BY rrf_score DESC.")
    for row in rows:
        info = _fetch(ws.conn, _RECORD_SQL, record_id=row["record_id"])
        _, _, kind, subject, content = info[0]
        if row["content"] != (content or "") or row["kind"] != kind or row["subject"] != subject:
            grader.fail(f"{described}: kind/subject/content of {row['record_id']} do not match the memory.",
                        expected=_short((kind, subject, content), 160),
                        got=_short((row["kind"], row["subject"], row["content"]), 160),
                        hint="kind and subject from JSON_VALUE(m.metadata, '$.kind' / '$.subject'); "
                             "content = DBMS_LOB.SUBSTR(m.content, 500, 1) of the same memory.")

    certain = {rid for rid in in_scope
               if (rid in rk.vec_bounds and rk.vec_bounds[rid][1] <= per_list)
               or (rid in rk.txt_bounds and rk.txt_bounds[rid][1] <= per_list)}
    returned = set(ids)
    lowest = min(scores) if scores else math.inf
    for rid in sorted(certain - returned):
        worst = _worst_score(rk.vec_bounds, rid, per_list, rrf_k) + _worst_score(rk.txt_bounds, rid, per_list, rrf_k)
        if len(rows) < k or worst > lowest + 1e-12:
            grader.fail(f"{described} left out {rid}, which belongs in the top {k}.",
                        expected=f"{min(k, len(certain | returned))} rows including {rid} "
                                 f"(its fused score is at least {worst:.6f})",
                        got=f"{len(rows)} rows, lowest rrf_score {lowest:.6f}",
                        hint="FULL OUTER JOIN the two legs (a memory found by only one leg still counts), "
                             "ORDER BY rrf_score DESC, FETCH FIRST :k ROWS ONLY.")
