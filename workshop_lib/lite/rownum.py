"""Oracle's ROWNUM pseudocolumn in lite: a query block's LIMIT and ``ROW_NUMBER() OVER ()``.

Oracle numbers the rows of a query block as they pass its WHERE clause (after
the joins, before GROUP BY, DISTINCT and ORDER BY), and a condition on ROWNUM
is checked as each number is handed out: ``ROWNUM <= 5`` stops after five
rows, ``ROWNUM > 1`` returns none (the first row is always number 1). In a
block with none of those later clauses that is exactly SQLite's LIMIT, and
ROWNUM in the select list is ``ROW_NUMBER() OVER ()`` (rows numbered in the
order they arrive, an ordered inline view's order included). So lite takes:

* ``ROWNUM <= n``, ``< n``, ``= n``, ``> n``, ``>= n`` (either side; ``n`` a
  number or a bind variable) as conditions ANDed into the block's WHERE;
* ROWNUM anywhere in the block's select list;

and refuses, naming the clause (ORA-03001), a block that also has ORDER BY,
GROUP BY, HAVING, DISTINCT, an aggregate or analytic function, or FETCH/OFFSET
(Oracle numbers its rows before those apply, which a LIMIT cannot say), and
ROWNUM anywhere else (inside OR, in ORDER BY, in UPDATE or DELETE). The
classic top-N query ``SELECT * FROM (SELECT ... ORDER BY ...) WHERE ROWNUM
<= n`` and the ROWNUM pagination pattern are blocks of the first kind.
"""

from __future__ import annotations

import math
from decimal import Decimal

from sqlglot import exp

from .dialect import Oracle
from .error_catalogue import ERR_UNSUPPORTED_ROWNUM, ERR_UNSUPPORTED_ROWNUM_CLAUSE, error
from .scope import clause_of, conjuncts

#: ``ROWNUM <op> n`` -> the same condition written ``n <op'> ROWNUM``.
_MIRRORED = {exp.LTE: exp.GTE, exp.LT: exp.GT, exp.EQ: exp.EQ, exp.GT: exp.LT, exp.GTE: exp.LTE}
_COMPARISONS = tuple(_MIRRORED)


def is_rownum(node: exp.Expression) -> bool:
    """Whether ``node`` is the ROWNUM pseudocolumn (unqualified, unquoted: ``"ROWNUM"`` is a column name)."""
    return (isinstance(node, exp.Column) and not node.table and isinstance(node.this, exp.Identifier)
            and not node.this.quoted and node.this.name.upper() == "ROWNUM")


def _own(block: exp.Select) -> list[exp.Column]:
    """The ROWNUM references of ``block`` itself (not of its subqueries, which number their own rows)."""
    return [c for c in block.find_all(exp.Column) if is_rownum(c) and c.find_ancestor(exp.Select) is block]


def _bound(node: exp.Expression) -> Decimal | exp.Placeholder | None:
    """The number or bind variable a ROWNUM condition compares with; None for anything else."""
    value, negative = node, False
    while isinstance(value, exp.Paren):
        value = value.this
    if isinstance(value, exp.Neg):
        value, negative = value.this, True
    if isinstance(value, exp.Placeholder) and not negative:
        return value
    if isinstance(value, exp.Literal) and not value.is_string:
        number = Decimal(value.this)
        return -number if negative else number
    return None


def _condition(node: exp.Expression) -> tuple[type[exp.Expression], Decimal | exp.Placeholder] | None:
    """``(comparison, bound)`` of ``ROWNUM <comparison> bound`` for a condition of that form (mirrored too)."""
    if not isinstance(node, _COMPARISONS):
        return None
    left, right = node.this, node.expression
    if is_rownum(left) and not right.find(exp.Column):
        bound = _bound(right)
        return (type(node), bound) if bound is not None else None
    if is_rownum(right) and not left.find(exp.Column):
        bound = _bound(left)
        return (_MIRRORED[type(node)], bound) if bound is not None else None
    return None


def _rows(comparison: type[exp.Expression], bound: Decimal) -> int | None:
    """How many rows pass ``ROWNUM <comparison> bound`` as Oracle hands out the numbers; None: every row."""
    if comparison is exp.LTE:
        return max(0, math.floor(bound))
    if comparison is exp.LT:
        return max(0, math.ceil(bound) - 1)
    if comparison is exp.EQ:
        return 1 if bound == 1 else 0
    if comparison is exp.GT:
        return None if bound < 1 else 0
    return None if bound <= 1 else 0   # GTE


def _rows_of_bind(comparison: type[exp.Expression], bind: exp.Placeholder) -> exp.Expression:
    """The same count for a bind variable, as an Oracle expression (-1: SQLite's LIMIT for every row)."""
    text = {
        exp.LTE: "CASE WHEN {b} >= 1 THEN FLOOR({b}) ELSE 0 END",
        exp.LT: "CASE WHEN {b} > 1 THEN CEIL({b}) - 1 ELSE 0 END",
        exp.EQ: "CASE WHEN {b} = 1 THEN 1 ELSE 0 END",
        exp.GT: "CASE WHEN {b} < 1 THEN -1 ELSE 0 END",
        exp.GTE: "CASE WHEN {b} <= 1 THEN -1 ELSE 0 END",
    }[comparison]
    return exp.maybe_parse(text.format(b=bind.sql(dialect=Oracle)), dialect=Oracle)


def _later_clause(block: exp.Select) -> str | None:
    """The first clause of ``block`` that Oracle applies after numbering its rows, or None."""
    for key, name in (("distinct", "DISTINCT"), ("group", "GROUP BY"), ("having", "HAVING"),
                      ("order", "ORDER BY"), ("limit", "FETCH FIRST"), ("offset", "OFFSET")):
        if block.args.get(key):
            return name
    for item in block.expressions:
        for node in item.find_all(exp.AggFunc, exp.Window):
            if node.find_ancestor(exp.Select) is not block:
                continue
            if isinstance(node, exp.Window):
                return "an analytic function (OVER)"
            if not isinstance(node.parent, exp.Window):
                return f"an aggregate function ({node.sql_name()})"
    return None


_CLAUSES = {"joins": "a join condition", "from_": "the FROM clause", "order": "ORDER BY", "group": "GROUP BY",
            "having": "HAVING", "limit": "FETCH FIRST", "offset": "OFFSET"}


def number_rows(block: exp.Select) -> None:
    """Rewrite ``block``'s own ROWNUM references in place (module docstring); refuse the forms lite cannot number.

    A block without ROWNUM is left alone. Conditions on ROWNUM leave the
    WHERE clause and become the block's LIMIT (the smallest, when there are
    several; a bind variable's count is computed when the statement runs);
    ROWNUM in the select list becomes ``ROW_NUMBER() OVER ()``.
    """
    uses = _own(block)
    if not uses:
        return
    places = {id(c): clause_of(c, block) for c in uses}
    for column in uses:
        if places[id(column)] not in ("expressions", "where"):
            raise error(ERR_UNSUPPORTED_ROWNUM, form=_CLAUSES.get(places[id(column)], "this clause"))
    clause = _later_clause(block)
    if clause is not None:
        raise error(ERR_UNSUPPORTED_ROWNUM_CLAUSE, clause=clause)
    where = block.args.get("where")
    kept: list[exp.Expression] = []
    counts: list[int | None] = []
    binds: list[exp.Expression] = []
    for conjunct in conjuncts(where.this) if where is not None else []:
        if not any(is_rownum(c) and places.get(id(c)) == "where" for c in conjunct.find_all(exp.Column)):
            kept.append(conjunct)
            continue
        condition = _condition(conjunct)
        if condition is None:
            raise error(ERR_UNSUPPORTED_ROWNUM, form=f"the condition {conjunct.sql(dialect='oracle')}")
        comparison, bound = condition
        if isinstance(bound, exp.Placeholder):
            binds.append(_rows_of_bind(comparison, bound))
        else:
            counts.append(_rows(comparison, bound))
    if binds and len(binds) + len(counts) > 1:
        raise error(ERR_UNSUPPORTED_ROWNUM, form="more than one condition, one of them with a bind variable")
    for column in uses:
        if places[id(column)] == "expressions":
            column.replace(exp.Window(this=exp.RowNumber()))
    if binds or counts:
        block.set("where", exp.Where(this=exp.and_(*kept)) if kept else None)
    limited = [c for c in counts if c is not None]
    limit = binds[0] if binds else exp.Literal.number(min(limited)) if limited else None
    if limit is not None:
        block.set("limit", exp.Limit(expression=limit))


def refuse_leftovers(tree: exp.Expression) -> None:
    """Refuse ROWNUM that no query block numbered: in an UPDATE, DELETE or MERGE, or an INSERT's VALUES."""
    for column in tree.find_all(exp.Column):
        if is_rownum(column):
            raise error(ERR_UNSUPPORTED_ROWNUM, form=f"{tree.key.upper()} statements outside their queries")
