"""The check of TODO 4 ``set_memory_status``: every allowed move stored, every other move refused untouched."""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from ..config import MEMORY_TABLE
from .connection import _connection_error, _fetch, _transaction_open
from .harness import _Grader, _short
from .scratch import PROBE_PREFIX, _delete_probe, _remove_stale_probes, new_probe_run
from .spies import _ConnectionSpy, _Log

# The lifecycle the TODO states, written out here rather than imported: a change
# to the library's table must not silently change what the check demands.
_ALLOWED = {("draft", "accepted"), ("draft", "discard"), ("accepted", "discard")}
_STATUSES = ("draft", "accepted", "discard")
_OAMP = {"draft": "invalid", "accepted": "valid", "discard": "invalid"}
_PROBE_TEXT = "Check probe {run}: CHECK_SCHEMA.PROBE_COLUMN holds kilograms, never pounds."


class _WriteLog:
    """memory_client lent to the learner's function: records update_memory calls, refuses other writes.

    An update of any memory but the one the function was called with is
    recorded and refused, never forwarded: another memory (a real correction,
    a catalog fact) is left exactly as it was.
    """

    def __init__(self, client: Any, memory_id: Any) -> None:
        self._client = client
        self._memory_id = memory_id
        self.updates: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self.other_ids: list[Any] = []
        self.live = True
        self.started = self.ended = None   # when the learner's call began and ended (UTC)

    def update_memory(self, memory_id: str, *args: Any, **kwargs: Any) -> Any:
        if not self.live:
            raise RuntimeError("This object was lent to a workshop check that has finished.")
        self.updates.append({"memory_id": memory_id, "args": args, **kwargs})
        if memory_id != self._memory_id:
            self.other_ids.append(memory_id)
            raise PermissionError(f"the check called set_memory_status({self._memory_id!r}, ...), so only that "
                                  f"memory may be updated, not {memory_id!r} (the update was not made)")
        return self._client.update_memory(memory_id, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("add_", "delete_", "link_")):
            def refused(*args: Any, **kwargs: Any) -> Any:
                self.refused.append(name)
                raise PermissionError(f"set_memory_status must only update the memory's status, not call {name}")
            return refused
        return getattr(self._client, name)


def todo4(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 4 ``set_memory_status(memory_id, new_status) -> LifecycleState``.

    For all nine (from, to) pairs of draft/accepted/discard, on probe memories
    of its own: an allowed move must return the new state and store it — the
    lifecycle in the metadata, OAMP's status (valid only when accepted: what
    search filters on), ``updated_at`` as now_iso() writes it (ISO-8601 with
    a 'T', UTC, the time of the call), every other metadata key and the
    content unchanged, with exactly one ``update_memory`` call and no SQL
    write on ``agent_conn``; a move the lifecycle does not allow must raise
    ``LifecycleError`` naming both states, the right way round, and change
    nothing (no update at all), and two different refused moves must not get
    the same message. A memory without a lifecycle in its metadata (a catalog
    fact) counts as accepted: it may be discarded, not accepted again. An
    unknown status and an unknown memory id must raise ``LifecycleError``
    too. Calling the library's own ``set_memory_status`` does not count.

    After every call: ``agent_conn`` is lent as a spy, so closing it (or
    ``with agent_conn:``) fails as the learner's mistake and leaves the shared
    connection open; an ``update_memory`` of another memory than the one
    asked for is refused, not forwarded; the stored lifecycle must be a
    status's value and ``updated_at`` ISO-8601 text; a memory changed without
    the notebook's ``memory_client`` is named as such; and the returned state
    must be the one stored after the move (status, OAMP status, metadata,
    memory id and content).
    """
    from .. import reference
    from ..memory.lifecycle import LifecycleError, propose_memory, read_lifecycle

    grader = _Grader(4, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("memory_client", "agent_conn"))
        _remove_stale_probes(ws)
        run = new_probe_run()
        text = _PROBE_TEXT.format(run=run)

        def probe(status: str | None, n: int) -> str:
            """A probe memory in ``status``; None: one without a lifecycle in its metadata, as a catalog fact."""
            memory_id = f"{PROBE_PREFIX}{run}-{n}"
            grader.stack.callback(_delete_probe, ws, memory_id)
            if status is None:
                ws.memory_client.add_memory(text, user_id=ws.user_id, agent_id=ws.agent_id, memory_id=memory_id,
                                            metadata={"kind": "guideline", "subject": "CHECK_SCHEMA.PROBE_COLUMN",
                                                      "probe_note": "kept by every move"})
                return memory_id
            propose_memory(ws.memory_client, text, user_id=ws.user_id, agent_id=ws.agent_id,
                           subject="CHECK_SCHEMA.PROBE_COLUMN", memory_id=memory_id,
                           extra={"probe_note": "kept by every move"})
            if status != "draft":
                reference.set_memory_status(memory_id, status, memory_client=ws.memory_client, conn=ws.conn)
            return memory_id

        def attempt(memory_id: str, target: Any) -> tuple[Any, BaseException | None, _WriteLog]:
            log = _WriteLog(scope["memory_client"], memory_id)
            conn_log = _Log()
            conn_spy = _ConnectionSpy(scope["agent_conn"], conn_log)
            was_open = _transaction_open(ws.conn)
            calls: list[str] = []
            real = reference.set_memory_status

            def spy(*args: Any, **kwargs: Any) -> Any:
                calls.append("reference.set_memory_status")
                return real(*args, **kwargs)

            reference.set_memory_status = spy
            log.started = _utc_now()
            try:
                with grader.lent({"memory_client": log, "agent_conn": conn_spy}):
                    value, error = grader.run(f"{grader.name}({memory_id!r}, {target!r})", memory_id, target)
            finally:
                log.ended = _utc_now()
                reference.set_memory_status = real
                log.live = False
                conn_log.live = False
                conn_spy.restore()
            _connection_still_works(grader, ws.conn)
            grader.after_call(conn_log, ws.conn, was_open,
                              write_rule="a move goes through memory_client.update_memory only, never SQL on "
                                         "agent_conn",
                              write_hint="memory_client.update_memory(memory_id, metadata=..., "
                                         "status=OAMP_STATUS[new]): OAMP keeps the status of the memory's search "
                                         "chunks with the memory's, which an UPDATE of the memory table leaves "
                                         "behind")
            if calls:
                grader.fail("your function called the library's own set_memory_status instead of doing the move.",
                            hint="read the state with read_lifecycle, check ALLOWED_TRANSITIONS, then call "
                                 "memory_client.update_memory yourself.")
            if log.refused:
                grader.fail(f"your function called memory_client.{log.refused[0]}; a move only updates the memory.",
                            hint="use memory_client.update_memory(memory_id, metadata=..., status=...).")
            if log.other_ids:
                grader.fail(f"{grader.name}({memory_id!r}, {target!r}) called memory_client.update_memory("
                            f"{log.other_ids[0]!r}, ...): it updated another memory than the one it was given "
                            "(the check refused that update, so that memory is unchanged).",
                            hint="pass the function's own memory_id parameter to update_memory; a global of the "
                                 "same name left by an earlier cell, or a parameter renamed, moves the wrong memory.")
            return value, error, log

        def move(memory_id: str, start: str, target: str, described: str) -> BaseException | None:
            """One move graded: stored as asked when the lifecycle allows it, refused untouched otherwise."""
            before = read_lifecycle(ws.conn, memory_id)
            value, error, log = attempt(memory_id, target)
            after = _stored(grader, ws.conn, memory_id, described, target)
            if (start, target) in _ALLOWED:
                _check_allowed(grader, described, value, error, log, before, after, start, target)
            else:
                _check_refused(grader, described, error, log, before, after, start, target, LifecycleError)
            return error

        refusals: dict[str, tuple[str, str]] = {}   # a refusal's message (memory id left out) -> its move
        for n, (start, target) in enumerate(itertools.product(_STATUSES, _STATUSES)):
            memory_id = probe(start, n)
            article = "an" if start == "accepted" else "a"
            described = f"{grader.name}({memory_id!r}, {target!r}) on {article} {start} memory"
            error = move(memory_id, start, target, described)
            if (start, target) not in _ALLOWED:
                _check_distinct(grader, described, str(error).replace(memory_id, "<id>"), refusals, start, target)
        # a memory without lifecycle metadata (a catalog fact, a runbook) counts as accepted: it may be discarded,
        # not accepted again; a function that reads the state from metadata['lifecycle'] gets this wrong
        for n, target in enumerate(("accepted", "discard"), start=30):
            memory_id = probe(None, n)
            move(memory_id, "accepted", target, f"{grader.name}({memory_id!r}, {target!r}) on a memory without a "
                                                "lifecycle in its metadata (as a catalog fact has none: it counts "
                                                "as accepted)")
        for bad_status in ("approved", None):
            memory_id = probe("draft", 20 + (bad_status is None))
            before = read_lifecycle(ws.conn, memory_id)
            described = f"{grader.name}({memory_id!r}, {bad_status!r})"
            _, error, log = attempt(memory_id, bad_status)
            if (not isinstance(error, LifecycleError) or log.updates
                    or _stored(grader, ws.conn, memory_id, described, bad_status) != before):
                grader.fail(f"{described} must raise LifecycleError and change nothing ({bad_status!r} is not a "
                            "status).", got="no error" if error is None else f"{type(error).__name__}: {error}",
                            hint="turn the text into a Status with parse_status(new_status) first; it raises "
                                 "LifecycleError for anything else.")
        missing = f"{PROBE_PREFIX}{run}-missing"
        _, error, _ = attempt(missing, "accepted")
        if not isinstance(error, LifecycleError):
            grader.fail(f"{grader.name}({missing!r}, 'accepted') for a memory that does not exist must raise "
                        "LifecycleError.", got="no error" if error is None else f"{type(error).__name__}: {error}",
                        hint="read the current state with read_lifecycle(agent_conn, memory_id) first: it raises "
                             "LifecycleError for an unknown id.")


def _connection_still_works(grader: _Grader, conn: Any) -> None:
    """Fail, naming the learner's mistake, when the shared connection no longer answers after their call."""
    exc = _connection_error(conn)
    if exc is not None:
        grader.fail(f"the workshop's database connection no longer works after your function ran "
                    f"({type(exc).__name__}: {exc}).",
                    hint="never close agent_conn (conn.close() or `with agent_conn:`) in your own code: it "
                         "belongs to the notebook; re-run the setup cell (it opens a new connection), then the "
                         "cells after it.")


def _stored(grader: _Grader, conn: Any, memory_id: str, described: str, target: Any) -> Any:
    """The memory's lifecycle after the learner's call; a lifecycle that is not a status fails as their mistake."""
    from ..memory.lifecycle import LifecycleError, read_lifecycle

    try:
        return read_lifecycle(conn, memory_id)
    except LifecycleError:
        rows = _fetch(conn, f"SELECT metadata FROM {MEMORY_TABLE} WHERE record_id = :id", id=memory_id)
        if not rows:
            raise
        metadata = rows[0][0]
        metadata = json.loads(metadata) if isinstance(metadata, (str, bytes)) else dict(metadata or {})
        wanted = getattr(target, "value", target)
        grader.fail(f"{described} stored {metadata.get('lifecycle')!r} in the metadata's 'lifecycle', which is not "
                    "a status: it must be the status's value, the lowercase text "
                    f"{wanted if isinstance(wanted, str) and wanted in _STATUSES else 'accepted'!r}.",
                    hint="store the Status's value: {**state.metadata, 'lifecycle': target.value, ...} where "
                         "target = parse_status(new_status) (not target.name, which is 'ACCEPTED').")
    return None  # unreachable: fail() raises


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _check_updated_at(grader: _Grader, described: str, old: Any, new: Any, log: _WriteLog) -> None:
    """``updated_at`` is now_iso()'s text: ISO-8601 with a 'T', in UTC, and the time of the move itself."""
    hint = "every move sets metadata['updated_at'] = now_iso() (called, at the move)."
    if new is None or new == old:
        grader.fail(f"{described} did not set updated_at (before {old!r}, after {new!r}).", hint=hint)
    when = None
    if isinstance(new, str):
        with contextlib.suppress(ValueError):
            when = datetime.fromisoformat(new)
    if when is None or len(new) < 19 or new[10] != "T":
        grader.fail(f"{described} stored updated_at {_short(new, 60)} ({type(new).__name__}); updated_at must be "
                    "ISO-8601 text as now_iso() writes it, e.g. '2026-05-04T09:30:00.123456+00:00'.",
                    hint="set metadata['updated_at'] = now_iso() (not time.time(), str(datetime.now()), a date, "
                         "or a datetime object).")
    if when.utcoffset() != timedelta(0):
        grader.fail(f"{described} stored updated_at {new!r}, which is not in UTC "
                    f"({'no time zone' if when.tzinfo is None else 'offset ' + new[-6:]}).",
                    hint="now_iso() gives the time in UTC with its +00:00 offset; datetime.now() is local time.")
    # taken between the call's start and end; a text without fractional seconds is truncated, so up to a
    # second early (a little slack for text cut to milliseconds)
    slack = timedelta(milliseconds=50) if len(new) > 19 and new[19] == "." else timedelta(seconds=1)
    if log.started is not None and log.ended is not None and not log.started - slack <= when <= log.ended + slack:
        grader.fail(f"{described} stored updated_at {new!r}, which is not the time of the move "
                    f"(the call ran from {log.started.isoformat(timespec='milliseconds')}).",
                    hint="call now_iso() inside the function, when it moves the memory (not a fixed value or a "
                         "time taken when the cell ran).")


def _check_allowed(grader: _Grader, described: str, value: Any, error: BaseException | None, log: _WriteLog,
                   before: Any, after: Any, start: str, target: str) -> None:
    if error is not None:
        refused = type(error).__name__ == "LifecycleError"
        grader.raised(described, error, why=f"but {start} -> {target} is allowed.",
                      hint="ALLOWED_TRANSITIONS[state.status] lists the moves to accept." if refused else
                      "write with memory_client.update_memory(memory_id, metadata=..., status=OAMP_STATUS[new]) "
                      "(keyword arguments: the second positional one is the content), the metadata a dict and "
                      "'updated_at' the text now_iso() returns.")
    if after.status.value != target:
        grader.fail(f"{described} did not store the new status.", expected=f"lifecycle {target!r} in the metadata",
                    got=f"lifecycle {after.status.value!r}",
                    hint="write metadata={**state.metadata, 'lifecycle': new_status, 'updated_at': now_iso()}.")
    if after.oamp_status != _OAMP[target]:
        grader.fail(f"{described} left OAMP's record status {after.oamp_status!r}; a {target} memory must be "
                    f"{_OAMP[target]!r} so that search {'finds' if target == 'accepted' else 'never returns'} it.",
                    hint="pass status=OAMP_STATUS[new_status] to memory_client.update_memory.")
    lost = {k: v for k, v in before.metadata.items() if k not in ("lifecycle", "updated_at")
            and after.metadata.get(k) != v}
    if lost:
        grader.fail(f"{described} lost or changed other metadata keys: {sorted(lost)}.",
                    hint="start from the stored metadata: {**state.metadata, 'lifecycle': ..., 'updated_at': ...}.")
    _check_updated_at(grader, described, before.updated_at, after.updated_at, log)
    if after.content != before.content:
        grader.fail(f"{described} changed the memory's text; a move only changes its status.")
    if not log.updates and after != before:
        grader.fail(f"{described} changed the memory without calling the notebook's memory_client: it wrote "
                    "through another client (e.g. ws.memory_client), so the check saw 0 "
                    "memory_client.update_memory calls.",
                    hint="use the notebook's memory_client (the one the setup cell defines): "
                         "memory_client.update_memory(memory_id, metadata=..., status=...) once.")
    if len(log.updates) != 1:
        grader.fail(f"{described} called memory_client.update_memory {len(log.updates)} times; one call "
                    "writes the metadata and the status together.",
                    hint="memory_client.update_memory(memory_id, metadata=..., status=...) once.")
    status = getattr(value, "status", None)
    if getattr(status, "value", status) != target:
        grader.fail(f"{described} returned {_short(value)}.", expected=f"the new state (status {target!r})",
                    hint="end with `return read_lifecycle(agent_conn, memory_id)`.")
    for name in ("oamp_status", "metadata", "memory_id", "content"):
        returned, stored = getattr(value, name, None), getattr(after, name)
        if returned == stored:
            continue
        if name == "metadata" and isinstance(returned, dict):
            keys = sorted(k for k in {*returned, *stored} if returned.get(k) != stored.get(k))
            returned, stored = {k: returned.get(k) for k in keys}, {k: stored.get(k) for k in keys}
        grader.fail(f"{described} returned a state with a stale {name}: {_short(returned, 160)}, but the memory "
                    f"now holds {_short(stored, 160)}.",
                    expected="the state read back after the move (status, oamp_status, metadata, memory_id and "
                             "content as stored)",
                    hint="end with `return read_lifecycle(agent_conn, memory_id)`, not the state read before "
                         "the move with only its status replaced.")


def _check_refused(grader: _Grader, described: str, error: BaseException | None, log: _WriteLog, before: Any,
                   after: Any, start: str, target: str, lifecycle_error: type) -> None:
    changed = after != before or bool(log.updates)
    if error is None:
        what = "and stored it" if changed else "without an error"
        grader.fail(f"{described} accepted the move {start} -> {target} {what}; the lifecycle does not allow it.",
                    hint=f"from {start} the allowed moves are: "
                         f"{', '.join(t for s, t in sorted(_ALLOWED) if s == start) or 'none (terminal)'}; "
                         "raise LifecycleError otherwise.")
    if changed:
        grader.fail(f"{described} changed the memory before refusing the move {start} -> {target}.",
                    hint="check ALLOWED_TRANSITIONS before calling update_memory: a refused move changes nothing.")
    if not isinstance(error, lifecycle_error):
        grader.fail(f"{described} raised {type(error).__name__}: {error}; a refused move raises LifecycleError.",
                    hint="raise LifecycleError(f'... from {state.status.value} to {new.value} ...').")
    text = str(error).lower()
    if start not in text or target not in text:
        grader.fail(f"{described} raised LifecycleError({str(error)!r}), which does not name both states.",
                    expected=f"a message naming {start!r} and {target!r}",
                    hint="say which move was refused, e.g. f'cannot move from {state.status.value} to {new.value}'.")
    if start != target and re.search(rf"\bfrom\W+{target}\b.*\bto\W+{start}\b", text):
        grader.fail(f"{described} raised LifecycleError({str(error)!r}): it names the move the wrong way round "
                    f"({target} -> {start}, a move that is not the one refused).",
                    hint="from the memory's status to the one asked for: "
                         "f'cannot move from {state.status.value} to {new.value}'.")


def _check_distinct(grader: _Grader, described: str, message: str, refusals: dict[str, tuple[str, str]],
                    start: str, target: str) -> None:
    """Two different refused moves must not get the same message: it must say which move was refused."""
    earlier = refusals.setdefault(message, (start, target))
    if earlier != (start, target):
        grader.fail(f"{described} raised LifecycleError({message!r}), the same message as for the refused move "
                    f"{earlier[0]} -> {earlier[1]}: it does not say which move was refused.",
                    expected=f"a message naming this memory's status {start!r} and the status asked for {target!r}",
                    hint="say which move was refused, e.g. "
                         "f'cannot move from {state.status.value} to {new.value}'.")
