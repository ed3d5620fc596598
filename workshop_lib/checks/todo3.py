"""The check of TODO 3 ``hybrid_rrf_search_memories``: one SQL round trip whose rows match the checks' rankings."""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..config import CHUNKS_TABLE, EMBED_MODEL, MEMORY_TABLE, SCHEMA
from .connection import _fetch, _transaction_open
from .harness import CheckFailure, _Grader, _listed, _short
from .rankings import (
    SENTINEL,
    _leg_head,
    _leg_rank_ok,
    _Rankings,
    _rankings,
    _worst_score,
)
from .scratch import (
    _add_probes,
    _kindless_probe,
    _probe_hits,
    _probe_reason,
    _remove_stale_probes,
    _scope_probes,
)
from .spies import _bind_values, _ClientSpy, _ConnectionSpy, _keyword_spy, _Log

_HY_KEYS = ("record_id", "kind", "subject", "content", "r_vec", "r_txt", "rrf_score")


_LONG_PROBE = ("Workshop check probe: harbour notes kept by the port authority. " + " ".join(
    f"Note {i}: pilots board inbound ships at the outer anchorage and report to the harbour master."
    for i in range(1, 9)))

#: Cosine distances from the last probe question: ~0.05 and ~0.33 (_LONG_PROBE is ~0.48 away, its average
#: with the question itself as a second chunk ~0.24).
_BETWEEN_PROBES = (
    ("Workshop check probe: tug assignments logged per berth for vessels arriving in port", "nearer-than-average"),
    ("Workshop check probe: berth occupancy report for the container terminal", "farther-than-average"),
)

_RECORD_SQL = f"""SELECT m.user_id, m.agent_id, JSON_VALUE(m.metadata, '$.kind') AS kind,
       JSON_VALUE(m.metadata, '$.subject') AS subject, DBMS_LOB.SUBSTR(m.content, 500, 1) AS content, m.status
FROM {MEMORY_TABLE} m
WHERE m.record_id = :record_id"""

_EXTRA_CHUNK_SQL = f"""INSERT INTO {CHUNKS_TABLE} (source_id, source_record_type, source_emb_column, chunk_seq,
       chunk_text, thread_id, user_id, agent_id, status, embedding)
SELECT source_id, source_record_type, source_emb_column, chunk_seq + 1, :chunk_text, thread_id, user_id,
       agent_id, status, VECTOR_EMBEDDING({EMBED_MODEL} USING :chunk_text AS DATA)
FROM {CHUNKS_TABLE}
WHERE source_id = :record_id AND chunk_seq = 1"""


#: What both legs keep: valid memories of the workshop's user and agent, tool output left out (NVL: kindless stays).
_BOTH_LEGS = ("both legs need: m.status = 'valid' AND m.user_id = :user_id AND m.agent_id = :agent_id AND "
              "NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'.")


def _wrong_leg_hint(ws: Any, query: str, leg: str, ranks: dict[str, int], per_list: int) -> str | None:
    """Explain a leg's wrong ranks by the typical wrong leg that gives all of them, if one does.

    ``ranks`` holds the leg's rank of every returned row: a variant that fits
    one row but not the others (e.g. tool output kept, when no tool output came
    back) is not the learner's mistake, so it is not named.
    """
    variants: list[tuple[dict[str, Any], str]] = [
        ({"drop_tool_output": False}, ("your {leg} leg keeps tool_output memories: add "
                                       "NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'.")),
        ({"scoped": False}, "your {leg} leg is not scoped: add m.user_id = :user_id AND m.agent_id = :agent_id."),
        ({"scoped": False, "drop_tool_output": False},
         "your {leg} leg is neither scoped to the user/agent nor free of tool_output memories."),
        ({"valid_only": False}, "your {leg} leg keeps drafts and discarded memories: keep only "
                                "m.status = 'valid' memories in both legs."),
    ]
    if leg == "vector":
        variants += [({"aggregate": aggregate}, f"your vector leg ranks a memory by the {what} of its chunks' "
                                                "distances: rank it by its closest chunk, MIN(VECTOR_DISTANCE("
                                                "c.embedding, q.v, COSINE)) with GROUP BY c.source_id.")
                     for aggregate, what in (("AVG", "average"), ("MAX", "largest"))]
    for variant, hint in variants:
        _, bounds = _leg_head(ws, query, leg, per_list, **variant)
        if all(_leg_rank_ok(bounds, rid, rank, per_list) for rid, rank in ranks.items()):
            return hint.format(leg=leg)
    return None


def todo3(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 3 ``hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60) -> list[dict]``.

    Spies on ``agent_conn`` (exactly one SQL execute per call, the query,
    the keyword query and the user and agent ids bound rather than written
    into the SQL, no other search round trips; a question without one
    searchable word answered, not raised on) and
    validates every row against rankings the check computes itself (vector
    ranks from VECTOR_DISTANCE over each memory's best chunk, keyword ranks
    from Oracle Text SCORE; ties go to the smaller record id): int ranks, the
    999999 sentinel exactly when a leg's top ``per_list`` misses the memory,
    ``rrf_score == 1/(rrf_k + r_vec) + 1/(rrf_k + r_txt)``, sorted
    descending, the right top ``k``, content ≤ 500 characters matching the
    memory; ``per_list``, ``rrf_k`` and ``k`` are varied (the library's
    reference, called with the same arguments, must pass the same validation
    first, so an environment problem is never blamed on the learner); the
    TEU probe's top hit is the memory the reference ranks first (the
    CAPACITY_TEU column fact, unless Part 4's correction outranks it) with
    both legs contributing; probe memories (tool output, another user,
    another agent, a draft, one without a kind, a memory with two chunks)
    check scoping, the tool_output exclusion (NVL: a memory without a kind
    stays), the valid-only filter, one row per memory ranked by its closest
    chunk (two probes between the two-chunk memory's best chunk and its
    average, and between its average and its farthest chunk), and ties broken by ascending record id in each leg and
    in the fused order.
    """
    grader = _Grader(3, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("agent_conn", "MEMORY_TABLE", "ONNX_EMBED_MODEL", "text_query",
                                   "USER_ID", "AGENT_ID"))
        grader.check_signature()
        _remove_stale_probes(ws)

        teu = "TEU 20-foot equivalent capacity unit for vessels"
        rows, reference_rows = _grade_hybrid(grader, ws, scope, teu, None, None, None)
        _grade_top_hit(grader, teu, rows, reference_rows)
        _grade_hybrid(grader, ws, scope, "Which voyages are delayed and why?", 8, 4, 10)
        _grade_hybrid(grader, ws, scope, "ORA-00904: invalid identifier -- what does it mean?", 3, 10, 1)
        _grade_hybrid(grader, ws, scope, "How is the total cargo value computed in US dollars?", 6, 12, 60)
        # a question whose rows ordered by the sum of their ranks come out in another order than by rrf_score
        _grade_hybrid(grader, ws, scope, "container gross weight kg", None, None, None)
        _grade_without_keywords(grader, ws, scope)

        probe_text = "Workshop check probe: berth log of tug assignments for arriving vessels"
        probes = _scope_probes(grader, ws, probe_text)
        kindless = _kindless_probe(grader, ws, probe_text)
        multi = _add_probes(grader, ws, _LONG_PROBE, [("two-chunks", ws.user_id, ws.agent_id, "guideline")])[0]
        # one memory nearer the question than the average of multi's two chunks (farther than its best), one
        # between that average and its farthest chunk: MIN, AVG and MAX of the chunk distances all rank multi
        # differently
        for text, suffix in _BETWEEN_PROBES:
            _add_probes(grader, ws, text, [(suffix, ws.user_id, ws.agent_id, "guideline")])
        try:
            with ws.conn.cursor() as cur:
                cur.execute(_EXTRA_CHUNK_SQL, chunk_text=probe_text, record_id=multi.record_id)
            ws.conn.commit()
        except Exception:  # noqa: BLE001 - a store whose chunk table differs: the probe keeps one chunk
            with contextlib.suppress(Exception):
                ws.conn.rollback()
        rows, _ = _grade_hybrid(grader, ws, scope, probe_text, 20, 10, 60, kindless=kindless)
        leaked = _probe_hits([r.get("record_id") for r in rows], probes, lambda p: p.record_id)
        if leaked:
            grader.fail(f"{grader.name}({probe_text!r}, k=20, per_list=10) returned {_probe_reason(leaked[0])}.",
                        hint=_BOTH_LEGS)


def _grade_top_hit(grader: _Grader, query: str, rows: list[dict[str, Any]],
                   reference_rows: list[dict[str, Any]]) -> None:
    """The learner's top hit for ``query`` is the memory the reference ranks first, found by both legs.

    In a workshop as the scan leaves it that is the CAPACITY_TEU column fact.
    The expectation comes from the reference on the same store, not from that
    fact: after Part 4 an accepted correction about CAPACITY_TEU (which says
    "TEU" too) ranks above it, and a learner who goes back to Part 3 must
    still pass with a correct function.
    """
    top = rows[0] if rows else {}
    want = reference_rows[0] if reference_rows else {}
    if (top.get("kind"), top.get("subject")) != (want.get("kind"), want.get("subject")):
        what = ("the CAPACITY_TEU column fact" if (want.get("kind"), want.get("subject")) ==
                ("column", f"{SCHEMA}.VESSELS.CAPACITY_TEU") else "the memory the workshop's reference ranks first")
        grader.fail(f"the top hit for {query!r} is not {what}.",
                    expected=f"kind {want.get('kind')!r}, subject {want.get('subject')!r}",
                    got=f"kind {top.get('kind')!r}, subject {top.get('subject')!r}")
    both = want.get("r_vec") != SENTINEL and want.get("r_txt") != SENTINEL
    if both and (top.get("r_vec") == SENTINEL or top.get("r_txt") == SENTINEL):
        grader.fail(f"for {query!r} both legs must rank the top hit.",
                    got=f"r_vec={top.get('r_vec')}, r_txt={top.get('r_txt')}",
                    hint="the keyword leg must use text_query(query) so every term can match.")


#: A question without one searchable word: text_query returns None, and Oracle Text refuses an empty query.
_NO_WORDS = "?? -- !!"


def _grade_without_keywords(grader: _Grader, ws: Any, scope: dict[str, Any]) -> None:
    """A question with no searchable word must still be answered (by the vector leg), not raise."""
    _grade_hybrid(grader, ws, scope, _NO_WORDS, 3, None, None, raised=(
        f"for a question with no searchable word, text_query({_NO_WORDS!r}) returns None and CONTAINS needs a "
        "query.", "kw = text_query(query) or '<a term that matches nothing>' (the markdown above names one), so "
                  "the keyword leg is empty and the vector leg still answers."))


def _grade_hybrid(grader: _Grader, ws: Any, scope: dict[str, Any], query: str, k: int | None,
                  per_list: int | None, rrf_k: int | None, *, kindless: str | None = None,
                  raised: tuple[str, str] | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Grade one call of the learner's function; returns its rows and the reference's for the same call.

    ``kindless`` names a memory without a kind that matches ``query`` best: it
    must come back (checked before the ranks, which its absence would shift).
    ``raised`` is (why, hint) for a call that raises: what about this query a
    correct function handles.
    """
    from .. import reference

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
            value, error = grader.run(described, query, **args)
    finally:
        log.live = False
        conn_spy.restore()
    if error is not None:
        why, hint = raised or (None, None)
        grader.raised(described, error, why=why, hint=hint)
    rows = grader.as_list(described, value)
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
    keywords = scope["text_query"](query)
    if keywords and keywords in sql:
        grader.fail(f"{described} wrote the keyword query {keywords!r} into the SQL text.",
                    got=_short(sql, 200),
                    hint="bind it: CONTAINS(m.content, :kw, 1) and pass kw=text_query(query) to cur.execute; a "
                         "question with a quote in it would break the statement.")
    for what, value in (("user id", ws.user_id), ("agent id", ws.agent_id)):
        if f"'{value}'" in sql:
            grader.fail(f"{described} wrote the {what} {value!r} into the SQL text.", got=_short(sql, 200),
                        hint="every value is a bind: m.user_id = :user_id AND m.agent_id = :agent_id, with "
                             "user_id=USER_ID, agent_id=AGENT_ID passed to cur.execute.")

    if kindless is not None and kindless not in {r.get("record_id") for r in rows if isinstance(r, Mapping)}:
        grader.fail(f"{described} left out {kindless}, a memory whose metadata has no kind: "
                    "JSON_VALUE(m.metadata, '$.kind') is NULL for it, and NULL <> 'tool_output' is not true.",
                    hint="exclude tool output with NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output' "
                         "in both legs, so a memory without a kind stays.")
    tree = _inspect_statement(grader, described, sql, log.statements[0][1], log.statements[0][2],
                              {"k": k_eff, "per_list": p_eff, "rrf_k": rrf_eff})
    bound_texts = [v for v in _bind_values(log.statements[0][1], log.statements[0][2]) if isinstance(v, str)]
    if keywords and keywords not in sql and keywords not in bound_texts:
        grader.fail(f"{described} did not bind the keyword query text_query(query) = {keywords!r}.",
                    got=_short([v for v in bound_texts if v != query], 200),
                    hint="kw = text_query(query) (each word escaped, joined with ACCUM), bound as it is: "
                         "CONTAINS(m.content, :kw, 1) with kw=kw; text_query returns None only for a question "
                         "without a searchable word.")
    rankings = _rankings(ws, query, p_eff)
    # Self-test first: the library's reference, called with the same arguments, must satisfy the
    # same validation; if it does not, the environment is at fault and the learner is not blamed.
    expected = reference.hybrid_rrf_search_memories(query, k_eff, p_eff, rrf_eff, conn=ws.conn,
                                                    user_id=ws.user_id, agent_id=ws.agent_id)
    try:
        _validate_rows(grader, f"the reference for {described}", ws, query, expected, rankings, k_eff, p_eff,
                       rrf_eff)
        _check_tie_order(grader, f"the reference for {described}", expected, rankings)
    except CheckFailure as problem:
        grader.fail("the check cannot grade this call: the workshop's reference implementation disagrees with "
                    "the rankings the check computes (" + str(problem).splitlines()[0] + ").",
                    hint="this is a problem of the environment, not of your code: run `workshop doctor` and "
                         "re-run the notebook's setup cell.")
    _validate_rows(grader, described, ws, query, rows, rankings, k_eff, p_eff, rrf_eff, sql=sql)
    if tree is not None:
        _check_orderings(grader, described, tree)
        _check_metric(grader, described, sql)
    _check_tie_order(grader, described, rows, rankings)
    return rows, expected


_ID_COLUMNS = {"record_id", "source_id"}


def _inspect_statement(grader: _Grader, described: str, sql: str, params: Any, kwargs: dict[str, Any],
                       values: dict[str, int]) -> Any:
    """Every value bound, and a final ORDER BY; returns the parsed statement (None if it cannot be parsed).

    A statement the check cannot parse is left to the row checks.
    """
    import sqlglot
    from sqlglot import exp

    bound = [v for v in _bind_values(params, kwargs) if isinstance(v, int) and not isinstance(v, bool)]
    for name, value in values.items():
        if value not in bound:
            grader.fail(f"{described} did not pass {name}={value} as a bind variable.",
                        hint=f"every value is a bind: write :{name} in the SQL and pass {name}={name} to "
                             "cur.execute, never an f-string.")
    try:
        tree = _parsed(sql)
    except sqlglot.errors.ParseError:
        return None
    _check_status_literals(grader, described, tree)
    final = _top_n_query(tree)
    if isinstance(final, exp.Select) and final.args.get("order") is None:
        grader.fail(f"{described}: the final SELECT has no ORDER BY, so the fused rows come out in any order "
                    "(and FETCH FIRST :k keeps arbitrary ones).",
                    hint="end with ORDER BY rrf_score DESC, f.record_id FETCH FIRST :k ROWS ONLY.")
    return tree


@functools.lru_cache(maxsize=32)
def _parsed(sql: str) -> Any:
    """The learner's statement parsed, once per text: the check's calls send one text with other binds, and
    parsing it was a third of the check. Shared, so read only (:func:`_metrics` works on a copy)."""
    import sqlglot

    from ..lite.dialect import Oracle

    return sqlglot.parse_one(sql, read=Oracle)


_STATUSES = ("valid", "invalid")   # the values OAMP writes in the status columns, lower case


def _check_status_literals(grader: _Grader, described: str, tree: Any) -> None:
    """A ``status`` compared with a text no memory or chunk has ('VALID'): the leg it filters finds nothing, which
    the rows would report as a missing rank."""
    from sqlglot import exp

    for comparison in tree.find_all(exp.EQ, exp.NEQ):
        sides = (comparison.this, comparison.expression)
        column = next((side for side in sides if isinstance(side, exp.Column)), None)
        literal = next((side for side in sides if isinstance(side, exp.Literal) and side.is_string), None)
        if column is not None and literal is not None and column.name.lower() == "status" \
                and literal.this not in _STATUSES:
            grader.fail(f"{described} compares {column.sql(dialect='oracle')} with {literal.this!r}, a status no "
                        f"memory has: OAMP writes {' and '.join(repr(v) for v in _STATUSES)}, in lower case.",
                        hint="keep valid memories and chunks with m.status = 'valid' (and c.status = 'valid').")


def _top_n_query(tree: Any) -> Any:
    """The ordered query of Oracle's classic top-N form, ``SELECT * FROM (... ORDER BY ...) WHERE ROWNUM <= :k``,
    which orders and cuts as ORDER BY ... FETCH FIRST does; any other statement as it is."""
    from sqlglot import exp

    # sqlglot keeps a SELECT's FROM under "from_" (under "from" in older versions)
    source = (tree.args.get("from_") or tree.args.get("from")) if isinstance(tree, exp.Select) else None
    inner = source.this if source is not None else None
    if (tree.args.get("order") is None and not tree.args.get("joins") and isinstance(inner, exp.Subquery)
            and isinstance(inner.this, exp.Select) and inner.this.args.get("order") is not None
            and any(c.name.upper() == "ROWNUM" for c in (tree.args.get("where") or exp.Where()).find_all(exp.Column))):
        return inner.this
    return tree


def _check_orderings(grader: _Grader, described: str, tree: Any) -> None:
    """What lite's stable row order would hide: ordered cut-offs in the legs and record-id tie-breakers.

    Oracle gives no row order without ORDER BY, so a leg's ``FETCH FIRST`` needs
    an ORDER BY in the same SELECT, and ties need ``record_id`` to make the
    result the same every time. Checked after the rows, so a wrong result is
    reported as what it is first.
    """
    from sqlglot import exp

    def resolved(select: exp.Select, key: exp.Expression) -> exp.Expression:
        """An ORDER BY key, or the select-list item (column or alias) a position such as ORDER BY 1 stands for."""
        if isinstance(key, exp.Literal) and key.is_int and 0 < int(key.name) <= len(select.expressions):
            return select.expressions[int(key.name) - 1]
        return key

    def id_ordered(select: exp.Select) -> bool:
        orders = [select.args.get("order")] + [w.args.get("order") for w in select.find_all(exp.Window)
                                                if w.find_ancestor(exp.Select) is select]
        keys = [resolved(select, key.this) for o in orders if o is not None for key in o.expressions]
        return any(c.name.lower() in _ID_COLUMNS for k in keys for c in k.find_all(exp.Column)) or any(
            isinstance(k, exp.Alias) and k.alias.lower() in _ID_COLUMNS for k in keys)

    final = _top_n_query(tree)
    for select in tree.find_all(exp.Select):
        if select.args.get("limit") is None or select is final:
            continue
        if any(p.name.lower() == "k" for p in select.args["limit"].find_all(exp.Placeholder)):
            grader.fail(f"{described}: FETCH FIRST :k cuts a list before the final SELECT, so rows are dropped "
                        "before they are ordered by rrf_score.",
                        hint="only the final SELECT keeps k rows: ... ORDER BY rrf_score DESC, f.record_id "
                             "FETCH FIRST :k ROWS ONLY; each leg keeps :per_list.")
        if select.args.get("order") is None:
            grader.fail(f"{described}: a leg cuts its list with FETCH FIRST but has no ORDER BY in the same "
                        "SELECT; on Oracle which rows it keeps is then arbitrary.",
                        hint="ORDER BY the leg's rank (r_vec / r_txt) before FETCH FIRST :per_list ROWS ONLY.")
        if not id_ordered(select):
            grader.fail(f"{described}: a leg orders rows tied on distance or score arbitrarily.",
                        hint="break ties by record id: ROW_NUMBER() OVER (ORDER BY ..., c.source_id) or "
                             "ORDER BY SCORE(1) DESC, m.record_id.")
    order = final.args.get("order") if isinstance(final, exp.Select) else None
    if order is not None and order.expressions:
        first = resolved(final, order.expressions[0].this)
        fused = (isinstance(first, exp.Alias) and first.alias.lower() == "rrf_score") or any(
            c.name.lower() == "rrf_score" for c in first.find_all(exp.Column)) or any(
            p.name.lower() == "rrf_k" for p in first.find_all(exp.Placeholder))
        if not fused:
            grader.fail(f"{described} is not sorted by rrf_score, best first: the final ORDER BY starts with "
                        f"{_short(order.expressions[0].sql(dialect='oracle'), 80)}.",
                        hint="ORDER BY rrf_score DESC, f.record_id — the fused score decides the order, not the "
                             "ranks themselves.")
    if isinstance(final, exp.Select) and not id_ordered(final):
        grader.fail(f"{described}: rows tied on rrf_score must be ordered by record_id.",
                    hint="ORDER BY rrf_score DESC, f.record_id — ties then come out the same every time.")


def _check_metric(grader: _Grader, described: str, sql: str) -> None:
    """Every vector distance in the statement is COSINE, the instructions' metric and OAMP's chunk index's.

    On unit vectors EUCLIDEAN and DOT rank exactly as COSINE does, so no row
    shows the difference; the statement does. A distance written with Oracle
    23ai's shorthand (``<->``, ``L2_DISTANCE``, ``INNER_PRODUCT``, ...) is read
    as the VECTOR_DISTANCE it stands for; one without a metric is COSINE, Oracle's default.
    """
    wrong = sorted(_metrics(sql) - {"COSINE"})
    if wrong:
        grader.fail(f"{described} measures vector distance with {' and '.join(wrong)}, not COSINE.",
                    hint="VECTOR_DISTANCE(c.embedding, q.v, COSINE): the metric the instructions name, and the one "
                         "OAMP builds its chunk index with. On these unit vectors the order happens to agree; the "
                         "distances do not.")


@functools.lru_cache(maxsize=32)
def _metrics(sql: str) -> frozenset[str]:
    """The metrics of the statement's vector distances, the shorthands read by lite's own rewrites, on one copy of
    the parsed statement (a rewrite copies the tree unless told not to, and a copy was a fifth of the check)."""
    from sqlglot import exp

    from ..lite.transforms import distance_functions, distance_operators

    tree = _parsed(sql).copy().transform(distance_operators, copy=False).transform(distance_functions, copy=False)
    return frozenset(call.expressions[2].sql(dialect="oracle").upper() for call in tree.find_all(exp.Anonymous)
                     if call.name.upper() == "VECTOR_DISTANCE" and len(call.expressions) > 2)


def _check_tie_order(grader: _Grader, described: str, rows: list[dict[str, Any]], rk: _Rankings) -> None:
    """Ties go to the smaller record id, in each leg and in the fused order, as the instructions say.

    Checked on the rows (after the statement's shape, which names a missing
    tie-breaker as such): two returned memories tied on a leg's distance or
    score must have their ranks in record-id order, and rows tied on
    rrf_score must come out in record-id order.
    """
    for key, values, eps, label, what, column in (
            ("r_vec", rk.distance, 1e-6, "vector", "distance", "c.source_id"),
            ("r_txt", rk.score, 1e-9, "keyword", "score", "m.record_id")):
        ranked = sorted((row[key], str(row["record_id"])) for row in rows
                        if row[key] != SENTINEL and row["record_id"] in values)
        for (rank_a, id_a), (rank_b, id_b) in itertools.combinations(ranked, 2):
            if id_a > id_b and abs(values[id_a] - values[id_b]) <= eps:
                grader.fail(f"{described}: the {label} leg ranks memories tied on {what} out of record-id order.",
                            got=f"{id_a} ranked {rank_a}, {id_b} ranked {rank_b}",
                            hint=f"ties go to the smaller record id: ORDER BY ..., {column} (ascending) in the "
                                 "leg's ROW_NUMBER().")
    for a, b in itertools.pairwise(rows):
        if math.isclose(a["rrf_score"], b["rrf_score"], rel_tol=1e-12) and str(a["record_id"]) > str(b["record_id"]):
            grader.fail(f"{described}: rows tied on rrf_score come out of record-id order.",
                        got=f"{a['record_id']} before {b['record_id']}, both {a['rrf_score']:.10f}",
                        hint="ORDER BY rrf_score DESC, f.record_id — ascending, so ties come out the same every "
                             "time.")


def _validate_rows(grader: _Grader, described: str, ws: Any, query: str, rows: list[Any], rk: _Rankings, k: int,
                   per_list: int, rrf_k: int, *, sql: str = "") -> None:
    """Every row against the check's own rankings; ``sql`` (the learner's statement) only sharpens hints."""
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
    if any(rid is None for rid in ids):
        grader.fail(f"{described} returned a row without a record_id.",
                    hint="a memory only one leg found has its id in that leg alone: "
                         "NVL(v.record_id, t.record_id) AS record_id in the fused rows.")
    dup = sorted({rid for rid in ids if ids.count(rid) > 1})
    if dup:
        hint = ("one row per memory: the vector leg groups the chunks by c.source_id and ranks each memory by its "
                "best chunk (MIN(VECTOR_DISTANCE(...))).")
        if sql and re.search(r"\bunion\b", sql, re.IGNORECASE):
            hint = ("a UNION of the legs has a row from each leg for a memory both found: GROUP BY record_id with "
                    "MIN(r_vec) and MIN(r_txt) over it (each NVL'd to 999999), or FULL OUTER JOIN the legs on "
                    "record_id.")
        grader.fail(f"{described} returned a memory more than once.", got=_listed(dup), hint=hint)
    for row in rows:
        rid = row["record_id"]
        if not rk.in_scope(rid):
            info = _fetch(ws.conn, _RECORD_SQL, record_id=rid)
            why = "a record the workshop's memories do not contain"
            if info:
                user_id, agent_id, kind, _, _, status = info[0]
                if status != "valid":
                    why = (f"a memory with OAMP status {status!r} (a draft or a discarded correction); keep only "
                           "m.status = 'valid' memories in both legs")
                elif kind == "tool_output":
                    why = "a tool_output memory; exclude kind 'tool_output' in both legs"
                elif user_id != ws.user_id:
                    why = f"a memory of another user ({user_id}); scope both legs with m.user_id = :user_id"
                elif agent_id != ws.agent_id:
                    why = f"a memory of another agent ({agent_id}); scope both legs with m.agent_id = :agent_id"
            grader.fail(f"{described} returned {rid!r}: {why}.",
                        hint=_BOTH_LEGS)
    for row in rows:
        rid = row["record_id"]
        for key, bounds, label in (("r_vec", rk.vec_bounds, "vector"), ("r_txt", rk.txt_bounds, "keyword")):
            rank = row[key]
            if _leg_rank_ok(bounds, rid, rank, per_list):
                continue
            # the message needs the rank of a row outside the head too: the whole leg is read for it
            known = rk.bounds_of(label, rid)
            if known:
                lo, hi = known
                if lo > per_list:
                    should = f"{SENTINEL} (rank {lo} is outside the top per_list={per_list})"
                elif hi > per_list:
                    within = f"{lo}" if lo == per_list else f"{lo}..{per_list}"
                    should = f"{within} or {SENTINEL} (tied at the per_list={per_list} cut-off)"
                else:
                    should = f"{lo}" if lo == hi else f"{lo}..{hi} (tied)"
            else:
                should = f"{SENTINEL} (the {label} leg does not find it)"
            hint = _wrong_leg_hint(ws, query, label, {r["record_id"]: r[key] for r in rows}, per_list)
            ranking = re.search(r"\b(DENSE_RANK|RANK)\s*\(", sql, re.IGNORECASE)
            if hint:
                pass
            elif ranking and known and rank != SENTINEL and rank < known[0]:
                hint = (f"{ranking.group(1).upper()}() gives tied rows the same rank and the next ones smaller "
                        "ranks than their position: number the rows with ROW_NUMBER(), with the id as tie-break.")
            elif rank == SENTINEL and known and known[0] == per_list:
                hint = (f"the memory ranked {per_list} is missing: each leg keeps its top :per_list rows, ranks 1 "
                        "to per_list (FETCH FIRST :per_list ROWS ONLY, or r <= :per_list, not < :per_list).")
            elif rank == 0 or (known and rank == known[0] - 1):
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
        _, _, kind, subject, content, _ = info[0]
        if row["content"] != (content or "") or row["kind"] != kind or row["subject"] != subject:
            grader.fail(f"{described}: kind/subject/content of {row['record_id']} do not match the memory.",
                        expected=_short((kind, subject, content), 160),
                        got=_short((row["kind"], row["subject"], row["content"]), 160),
                        hint="kind and subject from JSON_VALUE(m.metadata, '$.kind' / '$.subject'); "
                             "content = DBMS_LOB.SUBSTR(m.content, 500, 1) of the same memory.")

    certain = {rid for rid in set(rk.distance) | set(rk.score)
               if (rid in rk.vec_bounds and rk.vec_bounds[rid][1] <= per_list)
               or (rid in rk.txt_bounds and rk.txt_bounds[rid][1] <= per_list)}
    returned = set(ids)
    lowest = min(scores) if scores else math.inf
    for rid in sorted(certain - returned):
        worst = _worst_score(rk.vec_bounds, rid, per_list, rrf_k) + _worst_score(rk.txt_bounds, rid, per_list, rrf_k)
        if len(rows) < k or worst > lowest + 1e-12:
            keyword_only = rid not in rk.vec_bounds or rk.vec_bounds[rid][0] > per_list
            grader.fail(f"{described} left out {rid}, which belongs in the top {k}"
                        + (" (only the keyword leg finds it)." if keyword_only else "."),
                        expected=f"{min(k, len(certain | returned))} rows including {rid} "
                                 f"(its fused score is at least {worst:.6f})",
                        got=f"{len(rows)} rows, lowest rrf_score {lowest:.6f}",
                        hint=("a memory only the keyword leg finds has its id in txt alone: FULL OUTER JOIN the "
                              "legs and take NVL(v.record_id, t.record_id) AS record_id." if keyword_only else
                              "FULL OUTER JOIN the two legs (a memory found by only one leg still counts), "
                              "ORDER BY rrf_score DESC, FETCH FIRST :k ROWS ONLY."))
