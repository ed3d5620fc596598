"""The checks' own vector and keyword rankings of the in-scope memories (TODO 3), with tie-aware rank bounds."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from ..config import CHUNKS_TABLE, EMBED_MODEL, MEMORY_TABLE
from .connection import _fetch

# The TODO's specified value, deliberately not imported from workshop_lib.reference:
# a change to the reference must not silently change what the checks demand.
SENTINEL = 999999                          # rank of a memory a leg did not return


def _leg_sql(leg: str, *, scoped: bool = True, drop_tool_output: bool = True, valid_only: bool = True,
             aggregate: str = "MIN") -> str:
    """The check's own ranking query for one leg (vector: best chunk distance; keyword: SCORE).

    ``scoped`` / ``drop_tool_output`` / ``valid_only`` off, or another
    ``aggregate`` of a memory's chunk distances than MIN, give the rankings of
    typical wrong legs, used only to explain a failure.
    """
    if aggregate not in ("MIN", "AVG", "MAX"):
        raise ValueError(f"aggregate must be MIN, AVG or MAX, not {aggregate!r}")
    where = ["c.source_record_type = 'memory'"] if leg == "vector" else ["CONTAINS(m.content, :kw, 1) > 0"]
    if valid_only:
        where += ["c.status = 'valid'"] if leg == "vector" else []
        where.append("m.status = 'valid'")
    if scoped:
        where.append("m.user_id = :user_id AND m.agent_id = :agent_id")
    if drop_tool_output:
        where.append("NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'")
    if leg == "vector":
        # the question is embedded once (CTE q), not once per chunk row inside the aggregate
        return (f"WITH q AS (SELECT VECTOR_EMBEDDING({EMBED_MODEL} USING :q AS DATA) AS v FROM dual) "
                f"SELECT c.source_id, {aggregate}(VECTOR_DISTANCE(c.embedding, q.v, COSINE)) AS distance "
                f"FROM {CHUNKS_TABLE} c JOIN {MEMORY_TABLE} m ON m.record_id = c.source_id CROSS JOIN q "
                "WHERE " + " AND ".join(where) + " GROUP BY c.source_id")
    return f"SELECT m.record_id, SCORE(1) AS score FROM {MEMORY_TABLE} m WHERE " + " AND ".join(where)


def _leg_values(ws: Any, query: str, leg: str, **variant: Any) -> dict[str, float]:
    from ..retrieval import text_query

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
