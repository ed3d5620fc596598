"""Oracle's row limiting clause with PERCENT or WITH TIES, as the analytic functions Oracle itself rewrites it to.

``[OFFSET o ROWS] FETCH FIRST|NEXT n [PERCENT] ROWS ONLY | WITH TIES`` is, by
Oracle's own transformation (its plans show ``rowlimit_$$_rownumber``,
``rowlimit_$$_rank`` and ``rowlimit_$$_total``), a filter over a window of
the query's rows in ORDER BY order:

    SELECT c1 AS name1, ... FROM (
        SELECT q.*, ROW_NUMBER() OVER (ORDER BY k) AS "LITE_RN", RANK() OVER (ORDER BY k) AS "LITE_RK",
               COUNT(*) OVER () AS "LITE_TOTAL"
        FROM (SELECT <items> AS c1..., <keys not in the list> AS k1... FROM ... [GROUP BY ...]) q)
    WHERE "LITE_RN" > offset AND "LITE_RN" | "LITE_RK" <= offset + count
    ORDER BY "LITE_RN"

* count is ``FLOOR(n)`` rows, or ``CEIL("LITE_TOTAL" * n / 100)`` with
  PERCENT (so 10 PERCENT of 101 rows is 11, as Oracle answers);
* WITH TIES compares the RANK, which keeps every row tied with the last one
  (and needs a count above 0: no rows have no last row);
  without ORDER BY it adds no rows (the SQL Language Reference), so it is the
  ROW_NUMBER;
* offset is ``FLOOR(o)``, 0 when negative; a NULL offset or count, a
  negative count or percent return no rows.

ORDER BY keys that name a select-list alias or position, or repeat a
select-list item, are read from the inner query's output; other keys are
computed there as extra columns. FETCH FIRST n ROWS ONLY without PERCENT stays
SQLite's LIMIT (transforms.py); the clause on a set operation is ORA-03001.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from .error_catalogue import ERR_ORDER_BY_POSITION, ERR_UNSUPPORTED_FETCH_OPTION, error
from .scope import Scope, column_name, expand_stars, name_of
from .transforms import quoted, quoted_column, replace_block

_Q = "LITE_ROWLIMIT_Q"
_RN, _RK, _TOTAL = "LITE_RN", "LITE_RK", "LITE_TOTAL"


def needs_rewrite(node: exp.Expression) -> bool:
    """Whether ``node`` is a FETCH clause with PERCENT or WITH TIES (the ones SQLite's LIMIT cannot say)."""
    if not isinstance(node, exp.Fetch):
        return False
    options = node.args.get("limit_options")
    return options is not None and bool(options.args.get("percent") or options.args.get("with_ties"))


def rewrite(tree: exp.Expression, scope_for: Callable[[exp.Select], Scope]) -> exp.Expression:
    """``tree`` with each query block whose FETCH has PERCENT or WITH TIES turned into the window filter above."""
    for fetch in [f for f in tree.find_all(exp.Fetch) if needs_rewrite(f)]:
        block = fetch.parent
        if not isinstance(block, exp.Select):
            options = fetch.args["limit_options"]
            raise error(ERR_UNSUPPORTED_FETCH_OPTION, option="PERCENT" if options.args.get("percent") else "WITH TIES")
        tree = replace_block(tree, block, _rewrite_block(block, scope_for(block)))
    return tree




def _rewrite_block(block: exp.Select, scope: Scope) -> exp.Select:
    fetch: exp.Fetch = block.args["limit"]
    options = fetch.args["limit_options"]
    percent, ties = bool(options.args.get("percent")), bool(options.args.get("with_ties"))
    offset_node = block.args.get("offset")
    order = block.args.get("order")
    inner = block.copy()
    for key in ("limit", "offset", "order"):
        inner.set(key, None)
    items = expand_stars(inner.expressions, scope)
    names = [column_name(item) for item in items]
    columns = [f"LITE_C{i}" for i in range(1, len(items) + 1)]
    inner_items: list[exp.Expression] = [exp.alias_(item.unalias() if isinstance(item, exp.Alias) else item,
                                                    quoted(col)) for item, col in zip(items, columns)]
    window_keys: list[exp.Ordered] = []
    for ordered in (order.expressions if order is not None else []):
        target = _output_of(ordered.this, items, names, columns)
        if target is None:
            target = f"LITE_K{len(window_keys) + 1}"
            inner_items.append(exp.alias_(ordered.this.copy(), quoted(target)))
        key = ordered.copy()
        key.set("this", quoted_column(target))
        window_keys.append(key)
    inner.set("expressions", inner_items)

    def window(function: str) -> exp.Window:
        spec = exp.Order(expressions=[k.copy() for k in window_keys]) if window_keys else None
        return exp.Window(this=exp.Anonymous(this=function), order=spec)

    middle = exp.select(
        exp.Column(this=exp.Star(), table=quoted(_Q)),
        exp.alias_(window("ROW_NUMBER"), quoted(_RN)),
        exp.alias_(window("RANK"), quoted(_RK)),
        exp.alias_(exp.Window(this=exp.Count(this=exp.Star())), quoted(_TOTAL)),
    ).from_(exp.Subquery(this=inner, alias=exp.TableAlias(this=quoted(_Q))))

    count = fetch.args.get("count")
    count = count.copy() if count is not None else exp.Literal.number(1)   # FETCH FIRST ROW ONLY: one row
    if percent:
        limit = exp.Ceil(this=exp.Div(this=exp.Mul(this=quoted_column(_TOTAL), expression=exp.Paren(this=count)),
                                      expression=exp.Literal.number(100)))
    else:
        limit = exp.Floor(this=count)
    offset = _offset(offset_node.expression.copy() if offset_node is not None else None)
    ranked = quoted_column(_RK) if ties and window_keys else quoted_column(_RN)
    condition = exp.and_(exp.GT(this=quoted_column(_RN), expression=offset),
                         exp.LTE(this=ranked, expression=exp.Add(this=offset.copy(), expression=limit.copy())))
    if ranked.name == _RK:
        # no rows (a count of 0 or less) have no last row to tie with, whatever ranks the offset skipped
        condition = exp.and_(condition, exp.GT(this=limit, expression=exp.Literal.number(0)))
    outer = exp.select(*[exp.alias_(quoted_column(col), quoted(name)) for col, name in zip(columns, names)]).from_(
        exp.Subquery(this=middle, alias=exp.TableAlias(this=quoted(_Q)))).where(condition).order_by(quoted_column(_RN))
    return outer


def _offset(value: exp.Expression | None) -> exp.Expression:
    """OFFSET's row count as Oracle reads it: none is 0, a negative one 0, a fraction truncated, NULL stays NULL."""
    if value is None:
        return exp.Literal.number(0)
    return exp.Case(ifs=[exp.If(this=exp.LT(this=value.copy(), expression=exp.Literal.number(0)),
                                true=exp.Literal.number(0))],
                    default=exp.Floor(this=value.copy()))


def _output_of(key: exp.Expression, items: list[exp.Expression], names: list[str],
               columns: list[str]) -> str | None:
    """The inner column an ORDER BY key reads: a position, a select-list alias, or an item it repeats."""
    if isinstance(key, exp.Literal) and not key.is_string and key.this.isdigit():
        position = int(key.this)
        if not 1 <= position <= len(columns):
            raise error(ERR_ORDER_BY_POSITION)
        return columns[position - 1]
    if isinstance(key, exp.Column) and not key.table:
        name = name_of(key.this)
        for item, column in zip(items, columns):
            if isinstance(item, exp.Alias) and name_of(item.args["alias"]) == name:
                return column
    for item, column in zip(items, columns):
        if (item.unalias() if isinstance(item, exp.Alias) else item) == key:
            return column
    return None
