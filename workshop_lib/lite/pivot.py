"""Oracle's PIVOT as the conditional aggregation it stands for, before translation.

    FROM src PIVOT (agg1(x) [AS a1], ... FOR c IN (v1 [AS n1], v2, ...)) [alias]

becomes (it needs src's columns, so it runs with the catalog, like views.py)

    FROM (SELECT g1, ..., agg1(CASE WHEN c = v1 THEN x END) AS "N1_A1", ...
          FROM src "LITE_PIVOT_SRC" GROUP BY g1, ...) [alias]

following the SQL Language Reference's pivot_clause: the rows are grouped by
every column of ``src`` that neither the FOR clause nor an aggregate's
argument names (``g1, ...``); each value of the IN list and each aggregate
make one column, the aggregate taken over the group's rows whose FOR column
equals the value (COUNT of none is 0, the others NULL, as Oracle's). A column
is named by the value's alias, else the value as written (a string with its
quotes: ``'CLERK'``), followed by ``_`` and the aggregate's alias when it has
one. Several aggregates without aliases would name columns alike: ORA-00918.

UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR n IN (c1 [AS 'k1'], ...)) is the UNION ALL
of one SELECT per listed column (see :func:`_unpivoted`).

PIVOT XML, ANY or a subquery in the IN list, several FOR columns, and UNPIVOT
of several value columns at once are ORA-03001.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from .dialect import Oracle
from .error_catalogue import ERR_SQLITE_AMBIGUOUS_COLUMN, ERR_UNSUPPORTED, error
from .scope import name_of
from .transforms import quoted, quoted_column, replace_block

SOURCE = "LITE_PIVOT_SRC"
_AGGREGATES = (exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Count, exp.Median, exp.Stddev, exp.Variance)


def has_pivot(node: exp.Expression) -> bool:
    """Whether ``node`` is a FROM item (table or subquery) with a PIVOT or UNPIVOT clause."""
    return isinstance(node, (exp.Table, exp.Subquery)) and bool(node.args.get("pivots"))


def rewrite(tree: exp.Expression, columns_of: Callable[[exp.Expression], list[str]]) -> exp.Expression:
    """``tree`` with each pivoted FROM item replaced by its grouped subquery (``columns_of(item)``: the names of
    the columns a FROM item without the pivot has)."""
    # innermost first: an outer pivot reads its source's columns, which an inner pivot makes
    for item in reversed([n for n in tree.find_all(exp.Table, exp.Subquery, bfs=False) if has_pivot(n)]):
        tree = replace_block(tree, item, _pivoted(item, columns_of))
    return tree


def _refuse(construct: str) -> exp.Expression:
    raise error(ERR_UNSUPPORTED, construct=construct)


def _value_name(value: exp.Expression) -> str:
    """The column name part of one IN-list value: its alias, else the value as Oracle writes it."""
    if isinstance(value, exp.PivotAlias):
        return name_of(value.args["alias"])
    if isinstance(value, exp.Literal):
        return f"'{value.this}'" if value.is_string else value.this
    return value.sql(dialect=Oracle)


def _conditional(aggregate: exp.Expression, match: exp.Expression) -> exp.Expression:
    """``agg(x)`` as ``agg(CASE WHEN match THEN x END)`` (``COUNT(*)``: ``COUNT(CASE WHEN match THEN 1 END)``)."""
    inner = aggregate.copy()
    argument = inner.this
    distinct = isinstance(argument, exp.Distinct)
    value = argument.expressions[0] if distinct else argument
    if isinstance(value, exp.Star):
        value = exp.Literal.number(1)
    case = exp.Case(ifs=[exp.If(this=match.copy(), true=value.copy())])
    inner.set("this", exp.Distinct(expressions=[case]) if distinct else case)
    return inner


def _pivoted(item: exp.Expression, columns_of: Callable[[exp.Expression], list[str]]) -> exp.Subquery:
    pivots = item.args["pivots"]
    pivot: exp.Pivot = pivots[0]
    if len(pivots) > 1:
        _refuse("more than one PIVOT or UNPIVOT on a FROM item")
    if pivot.args.get("unpivot"):
        return _unpivoted(item, pivot, columns_of)
    fields = pivot.args.get("fields") or []
    field = fields[0] if len(fields) == 1 else None
    if not isinstance(field, exp.In) or not isinstance(field.this, exp.Column) or field.args.get("query") \
            or field.args.get("unnest") or not field.expressions:
        _refuse("PIVOT XML, ANY or a subquery in the IN list, or several FOR columns")
    assert isinstance(field, exp.In)
    for_column = name_of(field.this.this)
    aggregates: list[tuple[exp.Expression, str | None]] = []
    for entry in pivot.expressions:
        aggregate = entry.this if isinstance(entry, exp.Alias) else entry
        if not isinstance(aggregate, _AGGREGATES):
            _refuse(f"PIVOT over {aggregate.sql(dialect=Oracle)[:40]} (lite pivots SUM, AVG, MIN, MAX, COUNT, "
                    "MEDIAN, STDDEV and VARIANCE)")
        aggregates.append((aggregate, name_of(entry.args["alias"]) if isinstance(entry, exp.Alias) else None))

    source = item.copy()
    source.set("pivots", None)
    source.set("alias", exp.TableAlias(this=quoted(SOURCE)))
    used = {for_column} | {name_of(c.this) for a, _ in aggregates for c in a.find_all(exp.Column)
                           if isinstance(c.this, exp.Identifier)}
    grouped = [c for c in columns_of(source) if c not in used]

    items: list[exp.Expression] = [quoted_column(g, SOURCE) for g in grouped]
    names = list(grouped)
    for value in field.expressions:
        literal = value.this if isinstance(value, exp.PivotAlias) else value
        match = exp.EQ(this=quoted_column(for_column, SOURCE), expression=literal.copy())
        for aggregate, alias in aggregates:
            name = _value_name(value) + (f"_{alias}" if alias else "")
            if name in names:
                raise error(ERR_SQLITE_AMBIGUOUS_COLUMN, column=name)
            names.append(name)
            conditional = _conditional(aggregate, match)
            _qualify(conditional)
            items.append(exp.alias_(conditional, quoted(name)))
    query = exp.select(*items).from_(source)
    if grouped:
        query = query.group_by(*[quoted_column(g, SOURCE) for g in grouped])
    alias = pivot.args.get("alias") or item.args.get("alias")
    return exp.Subquery(this=query, alias=alias.copy() if alias is not None else None)


def _qualify(node: exp.Expression) -> None:
    """Point the aggregate's bare column names at the pivoted source (they name its columns)."""
    for col in node.find_all(exp.Column):
        if isinstance(col.this, exp.Identifier) and not col.table:
            col.set("table", quoted(SOURCE))


def _unpivoted(item: exp.Expression, pivot: exp.Pivot, columns_of: Callable[[exp.Expression], list[str]]
               ) -> exp.Subquery:
    """``src UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR n IN (c1 [AS 'k1'], c2, ...))``: one row per source row and
    listed column, ``UNION ALL`` of ``SELECT <the other columns>, 'k1' AS n, c1 AS v FROM src [WHERE c1 IS NOT
    NULL]`` (EXCLUDE NULLS, the default, leaves out the rows whose value is NULL); ``n`` is the column's
    literal, else its name. Several value columns at once are ORA-03001."""
    fields = pivot.args.get("fields") or []
    field = fields[0] if len(fields) == 1 else None
    if len(pivot.expressions) != 1 or not isinstance(field, exp.In) or not isinstance(field.this, exp.Identifier):
        _refuse("UNPIVOT of several value columns at once")
    assert isinstance(field, exp.In)
    value_name, name_name = name_of(pivot.expressions[0]), name_of(field.this)
    listed: list[tuple[str, exp.Expression]] = []
    for entry in field.expressions:
        column = entry.this if isinstance(entry, exp.PivotAlias) else entry
        if not isinstance(column, exp.Column):
            _refuse("UNPIVOT of column groups ((a, b) AS ...)")
        label = entry.args["alias"].copy() if isinstance(entry, exp.PivotAlias) else \
            exp.Literal.string(name_of(column.this))
        listed.append((name_of(column.this), label))
    source = item.copy()
    source.set("pivots", None)
    source.set("alias", exp.TableAlias(this=quoted(SOURCE)))
    names = [n for n, _ in listed]
    kept = [c for c in columns_of(source) if c not in names]

    branches: list[exp.Select] = []
    for name, label in listed:
        branch = exp.select(*[quoted_column(k, SOURCE) for k in kept], exp.alias_(label, quoted(name_name)),
                            exp.alias_(quoted_column(name, SOURCE), quoted(value_name))).from_(source.copy())
        if not pivot.args.get("include_nulls"):
            branch = branch.where(exp.Not(this=exp.Is(this=quoted_column(name, SOURCE), expression=exp.Null())))
        branches.append(branch)
    query: exp.Expression = branches[0]
    for branch in branches[1:]:
        query = exp.Union(this=query, expression=branch, distinct=False)
    alias = pivot.args.get("alias") or item.args.get("alias")
    return exp.Subquery(this=query, alias=alias.copy() if alias is not None else None)
