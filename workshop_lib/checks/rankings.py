"""The checks' own vector and keyword rankings of the in-scope memories (TODO 3), with tie-aware rank bounds.

A leg's ranking is read as its *head*: the rows that can rank within the
top ``per_list``, fetched with ``ORDER BY ... FETCH FIRST :n ROWS ONLY`` (the
statement lite prunes as it prunes the hybrid legs, and Oracle stops early
on), widened until the first row left out is farther than every row of the
head by more than the tie tolerance. The head's rank bounds are then those of
the whole ranking, and a row outside it ranks below ``per_list`` whatever the
ties, so every verdict is the one the whole ranking gives. The whole ranking
(every in-scope row: O(N) at 10^5 memories) is read only to word a failure.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from ..config import CHUNKS_TABLE, EMBED_MODEL, MEMORY_TABLE
from .connection import _fetch

# The TODO's specified value, deliberately not imported from workshop_lib.reference:
# a change to the reference must not silently change what the checks demand.
SENTINEL = 999999                          # rank of a memory a leg did not return

#: Values closer than this tie: a correct solution may order them either way (scores are integers).
EPS = {"vector": 1e-6, "keyword": 1e-9}

#: A head's first fetch is ``2 * per_list`` rows and these: room for the ties at the cut-off and the row
#: that ends them, so a store without many ties is read in one statement.
_HEAD_SLACK = 32


def _leg_sql(leg: str, *, scoped: bool = True, drop_tool_output: bool = True, valid_only: bool = True,
             aggregate: str = "MIN", head: bool = False) -> str:
    """The check's own ranking query for one leg (vector: best chunk distance; keyword: SCORE).

    ``scoped`` / ``drop_tool_output`` / ``valid_only`` off, or another
    ``aggregate`` of a memory's chunk distances than MIN, give the rankings of
    typical wrong legs, used only to explain a failure. ``head`` orders the
    rows best first and keeps the first ``:n``.
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
    fetch = " FETCH FIRST :n ROWS ONLY" if head else ""
    if leg == "vector":
        # the question is embedded once (CTE q), not once per chunk row inside the aggregate
        return (f"WITH q AS (SELECT VECTOR_EMBEDDING({EMBED_MODEL} USING :q AS DATA) AS v FROM dual) "
                f"SELECT c.source_id, {aggregate}(VECTOR_DISTANCE(c.embedding, q.v, COSINE)) AS distance "
                f"FROM {CHUNKS_TABLE} c JOIN {MEMORY_TABLE} m ON m.record_id = c.source_id CROSS JOIN q "
                "WHERE " + " AND ".join(where) + " GROUP BY c.source_id"
                + (" ORDER BY distance, c.source_id" + fetch if head else ""))
    return (f"SELECT m.record_id, SCORE(1) AS score FROM {MEMORY_TABLE} m WHERE " + " AND ".join(where)
            + (" ORDER BY SCORE(1) DESC, m.record_id" + fetch if head else ""))


def _leg_values(ws: Any, query: str, leg: str, *, n: int | None = None, **variant: Any) -> dict[str, float]:
    """record id -> distance (vector) or score (keyword) of the leg's rows; its best ``n`` when ``n`` is given."""
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
    if n is not None:
        binds["n"] = n
    return {rid: float(value) for rid, value in _fetch(ws.conn, _leg_sql(leg, head=n is not None, **variant),
                                                        **binds)}


def _leg_head(ws: Any, query: str, leg: str, per_list: int,
              **variant: Any) -> tuple[dict[str, float], dict[str, tuple[int, int]]]:
    """The leg's head for ``per_list`` (see the module docstring): its values and their exact rank bounds.

    Every row that can rank within the top ``per_list`` is in it, with the
    bounds the whole ranking gives it; a row outside ranks below ``per_list``,
    so :func:`_leg_rank_ok` answers as it would with the whole ranking. A leg
    with fewer rows than the first fetch is returned whole.
    """
    eps, nearest = EPS[leg], leg == "vector"
    per_list = max(per_list, 1)
    n = 2 * per_list + _HEAD_SLACK
    while True:
        values = _leg_values(ws, query, leg, n=n, **variant)
        bounds = _bounds(values, smaller_is_better=nearest, eps=eps)
        if len(values) < n:
            return values, bounds   # the whole leg
        ordered = sorted(values.values(), reverse=not nearest)
        cut, last = ordered[per_list - 1], ordered[-1]
        # A row left out is at least as far as the last one fetched. Once that is beyond the cut-off by more
        # than two tolerances, the bounds of the rows within one tolerance of it count every row they tie with
        # or trail; the rows beyond rank below per_list, and their own bounds may miss rows, so they go.
        if (last > cut + 2 * eps) if nearest else (last < cut - 2 * eps):
            head = {rid: v for rid, v in values.items() if (v <= cut + eps if nearest else v >= cut - eps)}
            return head, {rid: bounds[rid] for rid in head}
        n *= 4


def _leg_whole(ws: Any, query: str, leg: str, per_list: int = 0,
               **variant: Any) -> tuple[dict[str, float], dict[str, tuple[int, int]]]:
    """Every row of the leg, with its rank bounds: O(N). Takes :func:`_leg_head`'s arguments, so it can stand
    in for it (the tests and ``benchmarks/bench_retrieval.py`` compare the two); ``per_list`` is not needed."""
    values = _leg_values(ws, query, leg, **variant)
    return values, _bounds(values, smaller_is_better=(leg == "vector"), eps=EPS[leg])


@dataclass
class _Rankings:
    """Independent vector and keyword rankings of the in-scope memories for one query: the legs' heads.

    ``distance`` / ``score`` and ``vec_bounds`` / ``txt_bounds`` hold the
    rows that can rank within the top ``per_list`` of each leg (all rows of a
    small store). :meth:`whole` reads a leg's every row, for failure messages.
    """

    ws: Any = field(repr=False)
    query: str
    distance: dict[str, float]
    score: dict[str, float]
    vec_bounds: dict[str, tuple[int, int]]
    txt_bounds: dict[str, tuple[int, int]]
    _whole: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict, repr=False)

    def whole(self, leg: str) -> dict[str, tuple[int, int]]:
        """The rank bounds of every row of ``leg`` ("vector" or "keyword"), read once (O(N): failures only)."""
        if leg not in self._whole:
            self._whole[leg] = _leg_whole(self.ws, self.query, leg)[1]
        return self._whole[leg]

    def bounds_of(self, leg: str, rid: str) -> tuple[int, int] | None:
        """``rid``'s rank bounds in ``leg``, from the head or else the whole leg; None when the leg lacks it."""
        head = self.vec_bounds if leg == "vector" else self.txt_bounds
        return head.get(rid) or self.whole(leg).get(rid)

    def in_scope(self, rid: str) -> bool:
        """True when either leg ranks ``rid`` (a valid, scoped memory, not tool output)."""
        return (rid in self.distance or rid in self.score or rid in self.whole("vector")
                or rid in self.whole("keyword"))


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


def _rankings(ws: Any, query: str, per_list: int) -> _Rankings:
    distance, vec_bounds = _leg_head(ws, query, "vector", per_list)
    score, txt_bounds = _leg_head(ws, query, "keyword", per_list)
    return _Rankings(ws, query, distance, score, vec_bounds, txt_bounds)


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
