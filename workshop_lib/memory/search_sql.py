"""The Oracle SQL of LiteMemoryStore.search: scope predicate, IN lists and the ranking query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Oracle caps IN lists at 1000 expressions (ORA-01795); callers page well below that.
IN_LIST_PAGE = 500


def in_list(column: str, prefix: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """``column IN (:prefix0, :prefix1, ...)`` and its binds (at most IN_LIST_PAGE values)."""
    if not values or len(values) > IN_LIST_PAGE:
        raise ValueError(f"an IN list needs 1..{IN_LIST_PAGE} values, got {len(values)}")
    binds = {f"{prefix}{i}": value for i, value in enumerate(values)}
    return f"{column} IN (" + ", ".join(f":{name}" for name in binds) + ")", binds


def scope_predicate(
    thread_id: str | None,
    user_id: str | None,
    agent_id: str | None,
    exact_thread: bool,
    exact_user: bool,
    exact_agent: bool,
) -> tuple[str | None, dict[str, Any]]:
    """The scope predicate of OAMP's DB search over chunk alias ``c``, or None when unscoped.

    Each ``exact_*`` flag constrains its dimension to the given id, ``None``
    meaning "unscoped on that dimension" (SQL NULL); a dimension without the
    flag is not filtered. A user profile behaves as (thread NULL, user = its
    id, agent NULL) and an agent profile as (thread NULL, user NULL, agent =
    its id); their chunk rows keep NULL scope columns, so those columns stand
    in for the NULLs.
    """
    active = [
        (dim, value)
        for dim, exact, value in (("thread", exact_thread, thread_id), ("user", exact_user, user_id),
                                  ("agent", exact_agent, agent_id))
        if exact
    ]
    if not active:
        return None, {}
    columns = {
        "c.source_record_type = 'user_profile'":
            {"thread": "c.thread_id", "user": "c.source_id", "agent": "c.agent_id"},
        "c.source_record_type = 'agent_profile'":
            {"thread": "c.thread_id", "user": "c.user_id", "agent": "c.source_id"},
        "c.source_record_type NOT IN ('user_profile', 'agent_profile')":
            {"thread": "c.thread_id", "user": "c.user_id", "agent": "c.agent_id"},
    }
    branches = []
    for guard, cols in columns.items():
        conditions = [guard] + [
            f"{cols[dim]} IS NULL" if value is None else f"{cols[dim]} = :scope_{dim}_id"
            for dim, value in active
        ]
        branches.append("(" + " AND ".join(conditions) + ")")
    binds = {f"scope_{dim}_id": value for dim, value in active if value is not None}
    return "(" + " OR ".join(branches) + ")", binds


def ranking_sql(chunks_table: str, where: Sequence[str]) -> str:
    """Records ranked by their best chunk's cosine distance to ``:query_vector``, nearest first.

    Binds: ``:query_vector`` (VECTOR) and ``:candidate_limit`` plus those of ``where``.
    """
    return (
        "SELECT c.source_id, c.source_record_type, "
        "MIN(VECTOR_DISTANCE(c.embedding, TO_VECTOR(:query_vector), COSINE)) AS distance "
        f"FROM {chunks_table} c WHERE " + " AND ".join(where) + " "
        "GROUP BY c.source_id, c.source_record_type "
        "ORDER BY distance, c.source_id "
        "FETCH FIRST :candidate_limit ROWS ONLY"
    )
