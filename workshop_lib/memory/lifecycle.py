"""The memory lifecycle: a correction arrives as a draft, a reviewer accepts or discards it.

Statuses and moves (the contract the workshop adopts from a public agent
framework's memory store)::

    draft    -> accepted, discard
    accepted -> discard
    discard  (terminal)

The lifecycle lives on OAMP's own records, in both backends: the status is
kept in the memory's metadata (``"lifecycle"``, with ``"updated_at"`` set on
every move), and OAMP's record status follows it — ``valid`` only when
accepted, ``invalid`` for drafts and discards — so OAMP's search, the learner's
``retrieve_knowledge`` and the hybrid SQL (which filters ``status = 'valid'``)
never see a memory nobody has accepted. A correction records what it
contradicts or supersedes with an OAMP record link.

Memories written without a lifecycle (the catalog scan, the runbooks) are
``accepted``: they were reviewed when the workshop was written.

The move itself, :func:`set_memory_status`, is graded TODO 4 in Part 4; the
library's version lives in :mod:`workshop_lib.reference` and this module
provides what both need: the statuses, the allowed moves, reading the state,
and proposing a draft.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any

from oracleagentmemory.apis.records import RecordStatus

from ..config import MEMORY_TABLE
from ..errors import WorkshopError

__all__ = ["Status", "ALLOWED_TRANSITIONS", "OAMP_STATUS", "LifecycleError", "LifecycleState",
           "read_lifecycle", "propose_memory", "review_queue", "lifecycle_rows", "delete_by_source", "now_iso"]


class Status(str, Enum):
    """Where a memory is in its review: ``draft``, ``accepted`` or ``discard``."""

    DRAFT = "draft"
    ACCEPTED = "accepted"
    DISCARD = "discard"

    def __str__(self) -> str:
        return self.value


#: The moves a reviewer may make; anything else is refused and changes nothing.
ALLOWED_TRANSITIONS: dict[Status, frozenset[Status]] = {
    Status.DRAFT: frozenset({Status.ACCEPTED, Status.DISCARD}),
    Status.ACCEPTED: frozenset({Status.DISCARD}),
    Status.DISCARD: frozenset(),
}

#: OAMP's record status for each lifecycle status: only accepted memories are searchable.
OAMP_STATUS: dict[Status, RecordStatus] = {
    Status.DRAFT: RecordStatus.INVALID,
    Status.ACCEPTED: RecordStatus.VALID,
    Status.DISCARD: RecordStatus.INVALID,
}


class LifecycleError(WorkshopError):
    """A lifecycle move that is not allowed (or a memory that does not exist); nothing was changed."""


@dataclass(frozen=True)
class LifecycleState:
    """One memory's lifecycle as stored: status, OAMP status, content and metadata."""

    memory_id: str
    status: Status
    oamp_status: str
    content: str
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def updated_at(self) -> str | None:
        """When the status last changed (ISO-8601 UTC), or None for a memory never moved."""
        return self.metadata.get("updated_at")


def now_iso() -> str:
    """The current time as ISO-8601 UTC with microseconds (what ``updated_at`` holds)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def parse_status(value: Any) -> Status:
    """``value`` as a :class:`Status` (a Status or its text); LifecycleError naming the choices otherwise."""
    try:
        return Status(value.value if isinstance(value, Status) else value)
    except ValueError:
        raise LifecycleError(f"{value!r} is not a memory status; use one of "
                             f"{', '.join(repr(s.value) for s in Status)}.") from None


def read_lifecycle(conn: Any, memory_id: str) -> LifecycleState:
    """The stored lifecycle of memory ``memory_id`` (LifecycleError when there is no such memory)."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT record_id, content, metadata, status FROM {MEMORY_TABLE} WHERE record_id = :id",
                    id=memory_id)
        row = cur.fetchone()
    if row is None:
        raise LifecycleError(f"no memory with id {memory_id!r} in {MEMORY_TABLE}; "
                             "list the review queue with review_queue() to see the drafts' ids.")
    return _state(row)


def _state(row: tuple[Any, ...]) -> LifecycleState:
    """The LifecycleState of a ``(record_id, content, metadata, status)`` row of the memory table."""
    memory_id, content, metadata, oamp_status = row
    metadata = dict(metadata or {})
    content = content.read() if hasattr(content, "read") else content
    return LifecycleState(memory_id, parse_status(metadata.get("lifecycle", Status.ACCEPTED.value)),
                          str(oamp_status), content or "", metadata)


def propose_memory(memory_client: Any, content: str, *, user_id: str, agent_id: str, subject: str,
                   kind: str = "correction", contradicts: str | None = None, supersedes: str | None = None,
                   source: str = "review", extra: dict[str, Any] | None = None,
                   memory_id: str | None = None) -> str:
    """Store ``content`` as a **draft** memory (invalid in OAMP, so no search returns it); returns its id.

    ``subject`` names what the memory is about (e.g. ``CARGO_ITEMS.UNIT_VALUE_CENTS``).
    ``contradicts`` / ``supersedes`` link it to an existing memory with an
    OAMP record link, written in the same call as the memory itself.
    ``memory_id`` chooses the id (default: a new UUID).
    """
    if not isinstance(content, str) or not content.strip():
        raise LifecycleError("a proposed memory needs non-empty text content.")
    if contradicts and supersedes:
        raise LifecycleError("a proposal may contradict or supersede one memory, not both; pass one of them.")
    memory_id = memory_id or str(uuid.uuid4())
    # The id is in the metadata too, so a search hit (retrieve_knowledge's dicts carry the metadata)
    # can cite the memory it came from.
    metadata = {"kind": kind, "subject": subject, "source": source, "lifecycle": Status.DRAFT.value,
                "updated_at": now_iso(), "memory_id": memory_id, **(extra or {})}
    options: dict[str, Any] = {}
    target = contradicts or supersedes
    if target:
        options.update(memory_id_to_link=target, link_type="contradicts" if contradicts else "supersedes")
        metadata["contradicts" if contradicts else "supersedes"] = target
    return memory_client.add_memory(content, user_id=user_id, agent_id=agent_id, metadata=metadata,
                                    memory_id=memory_id, status=OAMP_STATUS[Status.DRAFT], **options)


def lifecycle_rows(conn: Any, user_id: str, agent_id: str, *, kind: str | None = "correction",
                   status: Status | str | None = None, source: str | None = None) -> list[LifecycleState]:
    """Every memory of ``kind`` (all kinds when None) for the user and agent, oldest first, with its lifecycle;
    with ``status``, only the memories in that lifecycle status; with ``source``, only those whose metadata
    ``source`` is that (what wrote them: ``notebook``, ``agent``, ``session``, ``catalog_scanner``, ...).

    One statement, filtered in the database: agent memory can hold 10^5
    memories, and reading each one to keep a few drafts took seconds.
    """
    sql = (f"SELECT record_id, content, metadata, status FROM {MEMORY_TABLE} WHERE user_id = :u AND agent_id = :a"
           + (" AND JSON_VALUE(metadata, '$.kind') = :kind" if kind else "")
           # a memory written without a lifecycle (the scan's facts, OAMP's own writes) is accepted
           + (" AND NVL(JSON_VALUE(metadata, '$.lifecycle'), :accepted) = :lifecycle" if status is not None else "")
           + (" AND JSON_VALUE(metadata, '$.source') = :source" if source is not None else "")
           + " ORDER BY order_seq")
    binds: dict[str, Any] = {"u": user_id, "a": agent_id}
    if kind:
        binds["kind"] = kind
    if status is not None:
        binds.update(accepted=Status.ACCEPTED.value, lifecycle=parse_status(status).value)
    if source is not None:
        binds["source"] = source
    with conn.cursor() as cur:
        cur.execute(sql, binds)
        return [_state(row) for row in cur.fetchall()]


def delete_by_source(memory_client: Any, conn: Any, user_id: str, agent_id: str, source: str) -> list[LifecycleState]:
    """Delete the user's and agent's memories whose metadata ``source`` is ``source``; returns what was deleted.

    Each goes through OAMP's ``delete_memory`` (its chunks and record links
    with it), one memory at a time: an interrupted call leaves whole memories
    behind, which the next call deletes.
    """
    doomed = lifecycle_rows(conn, user_id, agent_id, kind=None, source=source)
    for state in doomed:
        memory_client.delete_memory(state.memory_id)
    return doomed


def review_queue(conn: Any, user_id: str, agent_id: str) -> list[LifecycleState]:
    """The drafts waiting for review (any kind), oldest first."""
    return lifecycle_rows(conn, user_id, agent_id, kind=None, status=Status.DRAFT)
