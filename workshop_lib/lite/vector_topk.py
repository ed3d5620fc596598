"""Exact top-k vector search without scanning every row: lite's stand-in for a vector index.

A query block such as

    SELECT c.source_id, ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, :q, COSINE))) r
    FROM chunks c JOIN memory m ON ... WHERE <filters> GROUP BY c.source_id
    ORDER BY r FETCH FIRST :n ROWS ONLY

only needs the rows nearest to the query vector. When a block's ordering is
a distance to a constant vector (the distance itself, MIN of it per group, or a
ROW_NUMBER over either), ascending, and it fetches the first n rows, the
connection runs it on the m nearest rows of the table (all rows at distance
<= the m-th distance), checks that the restricted block still yields n rows,
and widens m otherwise. The answer is exact, not approximate:

* a row outside the candidate set is strictly farther than every candidate, so
  it cannot displace a row of the top n once n filtered rows are found;
* a group with any candidate row has its nearest row among the candidates, so
  its MIN is exact, and groups without one have a larger MIN.

Blocks with other aggregates, other window functions, DISTINCT, HAVING, OFFSET,
subqueries or an outer-joined vector table are left alone (full scan).

The keyword leg is pruned the same way (:func:`score_ordered_block`): a block
whose WHERE has ``CONTAINS(col, :q, label) > 0`` as a conjunct, ordered by
``SCORE(label) DESC`` (or a ROW_NUMBER over it) with FETCH FIRST n, runs on the
rows whose score is at least the m-th highest score, widening m until the
block yields n rows. A row left out scores strictly less than every candidate,
so it cannot be among the first n, and ROW_NUMBER values of the candidates are
unchanged (every left-out row sorts after them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlglot import exp


def _is_distance(node: exp.Expression, vd: exp.Expression) -> bool:
    return node is vd


def _ordering_key(select: exp.Select, key: exp.Expression) -> exp.Expression:
    """An ORDER BY key that names a select-list alias stands for that item's expression."""
    if isinstance(key, exp.Column) and not key.args.get("table"):
        wanted = key.name.upper()
        for proj in select.expressions:
            if isinstance(proj, exp.Alias) and proj.alias.upper() == wanted:
                return proj.this
    return key


def _distance_ordered(key: exp.Expression, vd: exp.Expression, grouped: bool) -> bool:
    """True when ordering by ``key`` ascending is ordering by the distance (or MIN of it per group)."""
    if isinstance(key, exp.Paren):
        return _distance_ordered(key.this, vd, grouped)
    if not grouped and _is_distance(key, vd):
        return True
    if grouped and isinstance(key, exp.Min) and _is_distance(key.this, vd):
        return True
    if isinstance(key, exp.Window) and isinstance(key.this, exp.RowNumber) and not key.args.get("partition_by"):
        order = key.args.get("order")
        if order is None or not order.expressions:
            return False
        first = order.expressions[0]
        return not first.args.get("desc") and _distance_ordered(first.this, vd, grouped)
    return False


def _vector_table_is_inner(select: exp.Select, alias: str) -> bool:
    """The vector's table is the FROM item or an inner join (restricting an outer side changes results)."""
    for join in select.args.get("joins") or []:
        target = join.this
        name = (target.alias_or_name if isinstance(target, exp.Table) else "").upper()
        if name == alias.upper() and (join.side or "").upper() in ("LEFT", "RIGHT", "FULL"):
            return False
        if (join.side or "").upper() in ("RIGHT", "FULL"):
            return False
    return True


def limit_count(select: exp.Select) -> exp.Expression | None:
    """The row-count expression of a block's FETCH FIRST / LIMIT (read after rewriting)."""
    limit = select.args.get("limit")
    if isinstance(limit, exp.Fetch):
        return limit.args.get("count")
    if isinstance(limit, exp.Limit):
        return limit.expression
    return None


def prunable_block(vd: exp.Expression, alias: str) -> exp.Select | None:
    """The block of ``vd`` when it may run on the rows nearest to the query vector only."""
    select = vd.find_ancestor(exp.Select)
    if select is None:
        return None
    limit = select.args.get("limit")
    if isinstance(limit, exp.Fetch):
        count = limit.args.get("count")
        options = limit.args.get("limit_options")
        if options is not None and (options.args.get("percent") or options.args.get("with_ties")):
            return None
    elif isinstance(limit, exp.Limit):
        count = limit.expression
    else:
        return None
    if count is None or select.args.get("offset") or select.args.get("distinct") or select.args.get("having"):
        return None
    # the block's own WITH clause only defines sources (e.g. a constant CTE q): not per-row subqueries
    with_ = select.args.get("with_")
    skipped = {id(n) for n in with_.walk()} if with_ is not None else set()
    if any(isinstance(node, (exp.Subquery, exp.Select)) and node is not select and id(node) not in skipped
           for node in select.walk()):
        return None
    order = select.args.get("order")
    if order is None or not order.expressions or order.expressions[0].args.get("desc"):
        return None
    grouped = bool(select.args.get("group"))
    key = _ordering_key(select, order.expressions[0].this)
    if not _distance_ordered(key, vd, grouped):
        return None
    aggregates = [a for a in select.find_all(exp.AggFunc)]
    if any(not (isinstance(a, exp.Min) and a.this is vd) for a in aggregates):
        return None
    windows = list(select.find_all(exp.Window))
    if len(windows) > 1 or (windows and windows[0] is not key):
        return None
    if not _vector_table_is_inner(select, alias):
        return None
    # The candidate count runs the block on its own (SELECT COUNT(*) FROM (block)), where the
    # statement's outer WITH is not in scope: drop a CROSS JOIN of a one-row constant CTE nothing
    # else reads (its vector became the slot), and leave blocks that still read an outer CTE alone.
    _drop_constant_joins(select)
    if _outer_ctes_read(select):
        return None
    return select


def _outer_cte(select: exp.Select, name: str) -> exp.CTE | None:
    """The CTE ``name`` defined by a WITH above ``select`` (not by ``select`` itself)."""
    return _cte_in_scope(select.parent, name)


def _cte_in_scope(scope: exp.Expression | None, name: str) -> exp.CTE | None:
    """The CTE ``name`` defined by the WITH of ``scope`` or of the nearest node above it that has one."""
    while scope is not None:
        with_ = scope.args.get("with_")
        for cte in (with_.expressions if with_ is not None else []):
            if cte.alias_or_name.upper() == name.upper():
                return cte
        scope = scope.parent
    return None


def _drop_constant_joins(select: exp.Select) -> None:
    for join in list(select.args.get("joins") or []):
        target = join.this
        if not isinstance(target, exp.Table) or target.args.get("db") or join.args.get("on") \
                or join.args.get("using") or join.side or (join.kind or "CROSS").upper() != "CROSS":
            continue
        cte = _outer_cte(select, target.name)
        if cte is None or _one_row_from_dual(cte.this) is False:
            continue
        name = target.alias_or_name.upper()
        if any(isinstance(c, exp.Column) and c.table and c.table.upper() == name for c in select.walk()):
            continue
        join.pop()   # joining exactly one row changes nothing


def _one_row_from_dual(body: exp.Expression) -> bool:
    if not isinstance(body, exp.Select) or body.args.get("joins") or body.args.get("with_"):
        return False
    if any(body.args.get(k) for k in ("where", "group", "having", "order", "limit", "offset", "distinct")):
        return False
    source = body.args["from_"].this if body.args.get("from_") else None
    return isinstance(source, exp.Table) and source.name.upper() == "DUAL" \
        and (not source.args.get("db") or source.args["db"].name.upper() == "SYS")


def _outer_ctes_read(select: exp.Select) -> bool:
    inner = set()
    with_ = select.args.get("with_")
    for cte in (with_.expressions if with_ is not None else []):
        inner.add(cte.alias_or_name.upper())
    return any(isinstance(t, exp.Table) and not t.args.get("db") and t.name.upper() not in inner
               and _outer_cte(select, t.name) is not None for t in select.find_all(exp.Table))


def restriction(slot: int, alias: str) -> exp.Expression:
    """``alias.rowid IN (candidate rowids of the slot)``, added to the block's WHERE."""
    rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
    members = exp.select("value").from_(exp.Anonymous(
        this="json_each", expressions=[exp.Anonymous(this="ora_vd_candidates",
                                                     expressions=[exp.Literal.number(slot)])]))
    return exp.In(this=rowid, query=exp.Subquery(this=members))


def _fetch_count(select: exp.Select) -> exp.Expression | None:
    """The FETCH FIRST / LIMIT count of a block that may be pruned, or None (no limit, PERCENT, WITH TIES)."""
    limit = select.args.get("limit")
    if isinstance(limit, exp.Fetch):
        options = limit.args.get("limit_options")
        if options is not None and (options.args.get("percent") or options.args.get("with_ties")):
            return None
        return limit.args.get("count")
    if isinstance(limit, exp.Limit):
        return limit.expression
    return None


def _is_score(node: exp.Expression, label: int) -> bool:
    return (isinstance(node, exp.Anonymous) and node.name.upper() == "SCORE" and len(node.expressions) == 1
            and isinstance(node.expressions[0], exp.Literal) and not node.expressions[0].is_string
            and int(node.expressions[0].this) == label)


def _score_ordered(key: exp.Expression, desc: bool, label: int) -> bool:
    """True when ordering by ``key`` (descending when ``desc``) puts higher SCORE(label) first."""
    if isinstance(key, exp.Paren):
        return _score_ordered(key.this, desc, label)
    if _is_score(key, label):
        return desc
    if not desc and isinstance(key, exp.Window) and isinstance(key.this, exp.RowNumber) \
            and not key.args.get("partition_by"):
        order = key.args.get("order")
        if order is None or not order.expressions:
            return False
        first = order.expressions[0]
        return bool(first.args.get("desc")) and _is_score(first.this, label)
    return False


def score_ordered_block(member: exp.In, label: int | None) -> exp.Select | None:
    """The block of a ``rowid IN (CONTAINS rowids)`` conjunct when it may run on the best-scored rows only.

    Called while the statement is rewritten, before SCORE is: ``member`` is the
    IN node CONTAINS(...) > 0 became. The block qualifies when the IN node is a
    top-level AND conjunct of its WHERE (restricting its set then only adds a
    filter), it is ordered first by ``SCORE(label) DESC`` or by a ROW_NUMBER
    whose first key that is, and it fetches the first n rows; blocks with
    grouping, DISTINCT, HAVING, OFFSET, other windows, other subqueries, other
    CONTAINS/SCORE labels or vector distances are left alone.
    """
    if label is None:
        return None
    node: exp.Expression = member
    while isinstance(node.parent, (exp.And, exp.Paren)):
        node = node.parent
    where = node.parent
    if not isinstance(where, exp.Where) or not isinstance(where.parent, exp.Select):
        return None
    select = where.parent
    count = _fetch_count(select)
    if count is None or select.args.get("offset") or select.args.get("distinct") or select.args.get("having") \
            or select.args.get("group"):
        return None
    order = select.args.get("order")
    if order is None or not order.expressions:
        return None
    first = order.expressions[0]
    key = _ordering_key(select, first.this)
    if not _score_ordered(key, bool(first.args.get("desc")), label):
        return None
    inside = {id(n) for n in member.walk()}
    for node in select.walk():
        if id(node) in inside or node is select:
            continue
        if isinstance(node, (exp.Subquery, exp.Select, exp.Contains, exp.AggFunc)):
            return None
        if isinstance(node, exp.Anonymous):
            name = node.name.upper()
            if name.startswith(("ORA_VD_", "ORA_CTX_")) or (name == "SCORE" and not _is_score(node, label)):
                return None
    windows = list(select.find_all(exp.Window))
    if len(windows) > 1 or (windows and windows[0] is not key):
        return None
    return select


def constant_cte_value(node: exp.Expression) -> exp.Expression | None:
    """The expression behind ``q.v`` when ``q`` is a one-row constant CTE, else None.

    ``WITH q AS (SELECT VECTOR_EMBEDDING(m USING :q AS DATA) AS v FROM dual)``
    joined into a block makes ``VECTOR_DISTANCE(c.embedding, q.v, COSINE)`` a
    distance to one constant vector, exactly as if the expression were written
    inline — so it can be a numpy slot (and a pruned top-k) instead of a
    per-row call. Only a CTE that selects expressions from DUAL with nothing
    else (no WHERE, GROUP BY, ORDER BY, FETCH, DISTINCT, subqueries) counts;
    the translator still refuses an expression that reads a column.
    """
    if not isinstance(node, exp.Column) or not node.table:
        return None
    qualifier, wanted = node.table.upper(), node.name.upper()
    select = node.find_ancestor(exp.Select)
    if select is None:
        return None
    sources = [select.args["from_"].this] if select.args.get("from_") else []
    sources += [join.this for join in select.args.get("joins") or []]
    named = [s for s in sources if isinstance(s, exp.Table) and s.alias_or_name.upper() == qualifier]
    if len(named) != 1 or named[0].args.get("db"):
        return None
    cte = _cte_in_scope(select, named[0].name)
    return _constant_projection(cte.this, wanted) if cte is not None else None


def _constant_projection(body: exp.Expression, wanted: str) -> exp.Expression | None:
    if not _one_row_from_dual(body):
        return None
    assert isinstance(body, exp.Select)
    for proj in body.expressions:
        if proj.alias_or_name.upper() == wanted:
            expr = proj.this if isinstance(proj, exp.Alias) else proj
            # the caller still checks the expression reads no column (a model name is not one)
            return None if any(isinstance(n, exp.Select) for n in expr.walk()) else expr
    return None


def row_probe(block: exp.Select) -> exp.Select:
    """A copy of a pruned block that only says how many rows it yields: ``SELECT 1 ... LIMIT n``.

    The connection widens the candidate set until the block yields its n
    rows. The block's rows are its FROM/JOIN rows that pass WHERE (one per
    group when grouped), whatever it selects and however it orders them, so
    the probe keeps FROM, JOIN, WHERE, WITH and the FETCH count and drops the
    select list and ORDER BY: SQLite then stops after n rows instead
    of sorting every candidate and computing its window (with one SCORE or
    distance lookup per row), which matters when many candidates tie. A
    grouped block (no HAVING, see :func:`prunable_block`) yields one row per
    distinct group key, so its probe is ``SELECT DISTINCT <group keys> ...
    LIMIT n``: same count, but SQLite checks each row against the keys seen
    so far and stops at the n-th new key, where GROUP BY would first sort
    every candidate.
    """
    probe = block.copy()
    probe.set("order", None)
    group = probe.args.get("group")
    plain_keys = group is not None and group.expressions and set(group.args) <= {"expressions"} and not any(
        isinstance(key, (exp.Rollup, exp.Cube, exp.GroupingSets)) for key in group.expressions)
    if plain_keys:
        probe.set("expressions", [key.copy() for key in group.expressions])
        probe.set("group", None)
        probe.set("distinct", exp.Distinct())
    else:
        probe.set("expressions", [exp.Literal.number(1)])
    return probe


def first_size(wanted: int) -> int:
    """How many candidates a pruned block of ``wanted`` rows is first given.

    Two per wanted row leaves room for the block's filters to drop half of
    them before it has to widen (one more hand-over and probe, and
    :func:`widen` then sizes the next round by the share that passed); a few
    dozen at least. Every candidate is a row SQLite joins, filters and orders
    in the statement itself, so more would cost each query for nothing: the
    workshop's hybrid statement at 10^4 memories took about 0.5 ms less with
    two per row than with four (its legs drop one row in five, tool output).
    """
    return max(2 * wanted, 32)


def widen(size: int, wanted: int, found: int) -> int:
    """The next candidate count after ``size`` candidates gave a block ``found`` of its ``wanted`` rows.

    ``found / size`` is the share of candidates that pass the block's filters
    (the probe counts every row when it finds fewer than ``wanted``): ask for
    half as many again as that share needs, and at least twice as many as
    before, so a selective filter is reached in one or two rounds rather than
    a fixed factor's many.
    """
    if found <= 0:
        return 4 * size
    return max(2 * size, -(-3 * size * wanted // (2 * found)))


SMALL_SCORES = 1 << 16   # Oracle Text scores are 0-100; a larger integer range is sorted, not counted


def nth_highest(values: np.ndarray, n: int) -> Any:
    """The ``n``-th highest of ``values`` (1 <= n <= len), counted duplicates included.

    Scores are small non-negative integers with many repeats (short, similar
    texts score alike); ``np.partition`` is slow on such data when the rank is
    far from the start (1 ms at 10^4 hits, ten times a sort), so they are
    counted with ``np.bincount`` instead; any other values are partitioned.
    """
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        if low >= 0 and high < SMALL_SCORES:
            at_least = np.cumsum(np.bincount(values)[::-1])   # at_least[i]: how many are >= high - i
            return values.dtype.type(high - int(np.searchsorted(at_least, n)))
    return np.partition(values, len(values) - n)[len(values) - n]


def tie_key(block: exp.Select, member: exp.In) -> str | None:
    """The column that orders equal scores in a pruned keyword block, when it is one the connection can read.

    ``ORDER BY SCORE(1) DESC, m.record_id`` (or a ROW_NUMBER over that)
    puts rows of one score in ``record_id`` order. When many hits tie at the
    candidate threshold — short, similar texts score alike — the connection
    reads this column for the tied rows and keeps only the first of them in
    that order (still a prefix of the block's order, so still exact). Only an
    ascending plain column of the CONTAINS table qualifies; None otherwise.
    """
    order = block.args.get("order")
    if order is None or not order.expressions:
        return None
    key = _ordering_key(block, order.expressions[0].this)
    window_order = key.args.get("order") if isinstance(key, exp.Window) else None
    keys = window_order.expressions if window_order is not None else order.expressions
    if len(keys) < 2 or keys[1].args.get("desc"):
        return None
    column, rowid = keys[1].this, member.this
    if isinstance(column, exp.Column) and isinstance(rowid, exp.Column) and column.table \
            and column.table.upper() == rowid.table.upper():
        return column.name.upper()
    return None


#: The TEMP table (one per connection, created by connection.py) a pruned slot's candidates are handed to
#: SQLite in: ``(slot, rid, v)``, v the distance or score of row ``rid``.
SLOT_ROWS = "lite_slot_rows"


def _slot_rows(slot: int) -> exp.Select:
    return exp.select("rid").from_(exp.Table(this=exp.to_identifier(SLOT_ROWS), db=exp.to_identifier("temp"))) \
        .where(exp.EQ(this=exp.column("slot"), expression=exp.Literal.number(slot)))


def _slot_value(slot: int, rowid: exp.Expression) -> exp.Subquery:
    select = exp.select("v").from_(exp.Table(this=exp.to_identifier(SLOT_ROWS), db=exp.to_identifier("temp"))) \
        .where(exp.and_(exp.EQ(this=exp.column("slot"), expression=exp.Literal.number(slot)),
                        exp.EQ(this=exp.column("rid"), expression=rowid)))
    return exp.Subquery(this=select)


def hand_over(tree: exp.Expression, slots: set[int]) -> exp.Expression:
    """``tree`` with the pruned ``slots`` read from the TEMP table instead of per-row Python calls.

    Applied to the finished SQLite tree, just before it is written out. A pruned
    block's candidate set ``rowid IN (SELECT value FROM json_each(...))`` becomes
    ``rowid IN (SELECT rid FROM temp.lite_slot_rows WHERE slot = n)`` and each
    ``ora_vd_lookup(n, rowid)`` the subquery reading that row's distance: SQLite
    then finds a candidate's value with an index lookup rather than a call into
    Python (one or two per candidate row, about a millisecond per query at 10^5
    rows). ``ora_ctx_score(n, rowid)`` reads the table first and calls Python only
    for a row that is not a candidate (a SCORE read outside the pruned block),
    whose score the table does not hold.
    """
    for node in list(tree.find_all(exp.Anonymous)):
        name = node.name.lower()
        args = node.expressions
        if not args or not isinstance(args[0], exp.Literal) or args[0].is_string or int(args[0].this) not in slots:
            continue
        slot = int(args[0].this)
        if name == "ora_vd_lookup":
            node.replace(_slot_value(slot, args[1].copy()))
        elif name == "ora_ctx_score":
            node.replace(exp.Coalesce(this=_slot_value(slot, args[1].copy()), expressions=[node.copy()]))
        elif name in ("ora_vd_candidates", "ora_ctx_rowids"):
            members = node.find_ancestor(exp.Select)
            if members is not None:
                members.replace(_slot_rows(slot))
    return tree
