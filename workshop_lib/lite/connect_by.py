"""Hierarchical queries (START WITH ... CONNECT BY) as a recursive WITH that lite then translates as usual.

    SELECT list FROM t alias [WHERE w] [START WITH s] CONNECT BY [NOCYCLE] c [ORDER SIBLINGS BY k | ORDER BY o]

becomes, before translation (it needs the FROM item's columns, so it runs with the catalog, like views.py):

    WITH "__H" (t's columns, "__LVL", "__KEYS", "__ORD", "__ROOT1"..., "__PATH1"...) AS (
        SELECT alias.*, 1, <keys>, <sibling key>, ... FROM t alias WHERE s                       -- the roots
        UNION ALL
        SELECT alias.*, "__P"."__LVL" + 1, ... FROM t alias JOIN "__H" "__P" ON c'           -- each row's children
    )
    SELECT list' FROM "__H" alias [WHERE w'] ORDER BY o | "__ORD"

following the SQL Language Reference's "Hierarchical Queries": the roots are
the rows START WITH selects (every row without it); a row's children are the
rows for which the CONNECT BY condition holds with ``PRIOR expr`` read on the
row (c' reads PRIOR expressions on "__P" and LEVEL as the child's level); WHERE
filters the rows of the hierarchy afterwards; the rows come depth first, each
row before its children, siblings in ORDER SIBLINGS BY order. ``"__ORD"``
makes that order a text sort: each row's key is its parent's followed by an
encoding of its own sibling-order values (``ora_cb_sortkey``). ``"__KEYS"``
holds the values of the PRIOR expressions along the path, so that a row that is
its own ancestor is ORA-01436 (NOCYCLE: not followed, and CONNECT_BY_ISCYCLE
says where); a query without PRIOR (``CONNECT BY LEVEL <= 10``) has no loop
check, as in Oracle.

LEVEL, PRIOR expr (the parent's value, NULL for a root), CONNECT_BY_ROOT expr,
SYS_CONNECT_BY_PATH(expr, 'sep'), CONNECT_BY_ISLEAF and CONNECT_BY_ISCYCLE
(NOCYCLE only, ORA-30930 otherwise) are read from the carried columns. A
hierarchical query over a join is ORA-03001.
"""

from __future__ import annotations

import json
import struct
from typing import Any, Callable

from sqlglot import exp

from .error_catalogue import (
    ERR_CONNECT_BY_ISCYCLE_WITHOUT_NOCYCLE, ERR_CONNECT_BY_LOOP, ERR_ORDER_SIBLINGS_NOT_ALLOWED, ERR_UNSUPPORTED, error,
)
from .scope import Scope, column_name, expand_stars, name_of
from .transforms import _anon, quoted, quoted_column, replace_block

CTE, PARENT, CHILD = "__H", "__P", "__C"   # the hierarchy, the parent row, a child row in a probe
JOINED = "LITE_JOINED"                     # a joined FROM clause's rows, as one source
_LEVEL, _KEYS, _ORD = "__LVL", "__KEYS", "__ORD"
PSEUDOCOLUMNS = ("LEVEL", "CONNECT_BY_ISLEAF", "CONNECT_BY_ISCYCLE")




def rewrite(tree: exp.Expression, scope_for: Callable[[exp.Select], Scope]) -> exp.Expression:
    """``tree`` with each hierarchical query block turned into a recursive WITH over its FROM item."""
    for order in tree.find_all(exp.Order):
        if order.args.get("siblings") and (not isinstance(order.parent, exp.Select)
                                           or order.parent.args.get("connect") is None):
            raise error(ERR_ORDER_SIBLINGS_NOT_ALLOWED)
    for block in [b for b in tree.find_all(exp.Select) if b.args.get("connect") is not None]:
        if block.args.get("joins"):
            joined = _over_the_join(block, scope_for(block))
            tree = replace_block(tree, block, joined)
            block = joined
        tree = replace_block(tree, block, _rewrite_block(block, scope_for(block)))
    return tree


def _over_the_join(block: exp.Select, scope: Scope) -> exp.Select:
    """A hierarchical query over ``a JOIN b ON ...`` as one over the join's rows, as Oracle evaluates it (the
    join first, then CONNECT BY, then WHERE): ``FROM (SELECT a.x AS "A__X", ..., b.y AS "B__Y", ... FROM a JOIN b
    ON ...) "LITE_JOINED"``, every column the block names read from there under its new name, the select list
    keeping its names. Comma joins (whose join conditions sit in WHERE), USING, and subqueries that read the
    joined tables are ORA-03001."""
    joins = block.args["joins"]
    if any(j.args.get("on") is None for j in joins if (j.args.get("kind") or "").upper() != "CROSS") \
            or any(j.args.get("using") for j in joins):
        raise error(ERR_UNSUPPORTED, construct="a hierarchical query over a comma join or JOIN ... USING (write "
                                               "JOIN ... ON: Oracle evaluates the join before CONNECT BY)")
    renamed = {(alias, name): f"{alias}__{name}" for alias in scope.order for name, _ in scope.sources[alias].columns}
    if any(name_of(c.args["table"]) in scope.order for sub in block.find_all(exp.Select) if sub is not block
           for c in sub.find_all(exp.Column) if c.args.get("table") is not None):
        raise error(ERR_UNSUPPORTED, construct="a hierarchical query over a join with a subquery that reads the "
                                               "joined tables")
    derived = exp.select(*[exp.alias_(quoted_column(name, alias), quoted(new))
                           for (alias, name), new in renamed.items()]).from_(block.args["from_"].this.copy())
    derived.set("joins", [j.copy() for j in joins])
    joined = block.copy()
    joined.set("joins", None)
    joined.set("from_", exp.From(this=exp.Subquery(this=derived, alias=exp.TableAlias(this=quoted(JOINED)))))
    items = expand_stars(block.expressions, scope)
    # each item keeps the name it had (its columns are renamed below)
    joined.set("expressions", [i.copy() if isinstance(i, exp.Alias) else exp.alias_(i.copy(), quoted(column_name(i)))
                               for i in items])
    for column in list(joined.find_all(exp.Column)):
        if isinstance(column.this, exp.Star) or column.find_ancestor(exp.Select) is not joined:
            continue   # the derived table's own columns, or a subquery's
        source = name_of(column.args["table"]) if column.args.get("table") is not None else next(
            (a for a in scope.order if (a, name_of(column.this)) in renamed), None)
        if source is not None and (source, name_of(column.this)) in renamed:
            column.replace(quoted_column(renamed[(source, name_of(column.this))], JOINED))
    return joined


def _rewrite_block(block: exp.Select, scope: Scope) -> exp.Select:
    if block.args.get("joins") or len(scope.order) != 1:
        raise error(ERR_UNSUPPORTED, construct="a hierarchical query over several FROM items")
    connect: exp.Connect = block.args["connect"]
    nocycle = bool(connect.args.get("nocycle"))
    alias = scope.order[0]
    columns = [name for name, _ in scope.sources[alias].columns]
    item = block.args["from_"].this.copy()
    item.set("alias", exp.TableAlias(this=quoted(alias)))   # the child rows, named as the user named them
    carried: list[tuple[str, exp.Expression, exp.Expression]] = []   # (name, root value, child value)

    # CONNECT BY: PRIOR operands read the parent ("__P"), other columns the child, LEVEL is the child's
    condition = connect.args["connect"].copy()
    priors = [_qualified(p.this.copy(), alias, every=False) for p in condition.find_all(exp.Prior)]
    _qualified(condition, alias, every=False)
    for prior in list(condition.find_all(exp.Prior)):
        prior.replace(_qualified(prior.this.copy(), PARENT, every=True))
    child_level = exp.Add(this=quoted_column(_LEVEL, PARENT), expression=exp.Literal.number(1))
    condition = _replace_level(condition, child_level)
    start = connect.args.get("start")
    start = start.copy() if start is not None else None
    if start is not None:
        start = _replace_level(start, exp.Literal.number(1))

    # the select list, WHERE, GROUP BY, HAVING and ORDER BY read the carried columns of the current row
    if any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star))
           for p in block.expressions):
        block.set("expressions", expand_stars(block.expressions, scope))
    for node in list(block.find_all(exp.ConnectByRoot, exp.Anonymous, exp.Prior)):
        if node.find_ancestor(exp.Connect) is not None:
            continue
        if isinstance(node, exp.Prior):   # the parent row's value (NULL for a root)
            name = f"__PRIOR{len(carried) + 1}"
            carried.append((name, exp.Null(), _qualified(node.this.copy(), PARENT, every=True)))
            node.replace(quoted_column(name, alias))
        elif isinstance(node, exp.ConnectByRoot):
            name = f"__ROOT{len(carried) + 1}"
            carried.append((name, _qualified(node.this.copy(), alias, every=False), quoted_column(name, PARENT)))
            node.replace(quoted_column(name, alias))
        elif node.name.upper() == "SYS_CONNECT_BY_PATH":
            if len(node.expressions) != 2:
                raise error(ERR_UNSUPPORTED, construct="SYS_CONNECT_BY_PATH without (column, 'separator')")
            value, separator = (_qualified(e.copy(), alias, every=False) for e in node.expressions)
            name = f"__PATH{len(carried) + 1}"
            carried.append((name, exp.DPipe(this=separator, expression=value),
                            exp.DPipe(this=exp.DPipe(this=quoted_column(name, PARENT), expression=separator.copy()),
                                      expression=value.copy())))
            node.replace(quoted_column(name, alias))
    for column in list(block.find_all(exp.Column)):
        if column.find_ancestor(exp.Connect) is not None or column.args.get("table") is not None \
                or not isinstance(column.this, exp.Identifier) or column.this.quoted:
            continue
        word = column.name.upper()
        if word == "LEVEL":
            column.replace(quoted_column(_LEVEL, alias))
        elif word == "CONNECT_BY_ISLEAF":
            column.replace(_flag(_children(item, alias, condition), when=0, otherwise=1))
        elif word == "CONNECT_BY_ISCYCLE":
            if not nocycle:
                raise error(ERR_CONNECT_BY_ISCYCLE_WITHOUT_NOCYCLE)
            seen_again = exp.EQ(this=_anon("ora_cb_seen", quoted_column(_KEYS, alias),
                                           *[_renamed(p, alias, CHILD) for p in priors]),
                                expression=exp.Literal.number(1))
            column.replace(_flag(_children(item, alias, condition, seen_again), when=1, otherwise=0))

    # LEVEL inside SYS_CONNECT_BY_PATH(LEVEL, ...) or CONNECT_BY_ROOT: the root's 1, the child's level
    carried = [(name, _replace_level(root, exp.Literal.number(1)), _replace_level(child, child_level))
               for name, root, child in carried]
    order = block.args.get("order")
    siblings = [o for o in order.expressions] if order is not None and order.args.get("siblings") else []
    roots = exp.select(*_row(alias, columns, exp.Literal.number(1),
                             _keys(exp.Literal.string("[]"), priors, nocycle),
                             _sort_key(exp.Literal.string(""), siblings, item, alias, columns),
                             [root for _, root, _ in carried])).from_(item.copy())
    if start is not None:
        roots = roots.where(_qualified(start, alias, every=False))
    keys = _keys(quoted_column(_KEYS, PARENT), priors, nocycle)
    joined = condition
    if priors:   # a loop is found only among the children: CASE keeps ora_cb_push off the other rows
        joined = exp.and_(condition, exp.Not(this=exp.Is(
            this=exp.Case(ifs=[exp.If(this=condition.copy(), true=keys.copy())]), expression=exp.Null())))
    children = exp.select(*_row(alias, columns, child_level.copy(), keys,
                                _sort_key(quoted_column(_ORD, PARENT), siblings, item, alias, columns),
                                [child for _, _, child in carried])).from_(item.copy()).join(
        exp.Table(this=quoted(CTE), alias=exp.TableAlias(this=quoted(PARENT))), on=joined)
    names = columns + [_LEVEL, _KEYS, _ORD] + [name for name, _, _ in carried]
    cte = exp.CTE(this=exp.union(roots, children, distinct=False),
                  alias=exp.TableAlias(this=quoted(CTE), columns=[quoted(n) for n in names]))
    with_ = block.args.get("with_")
    if with_ is None:
        block.set("with_", exp.With(expressions=[cte]))
    else:
        with_.append("expressions", cte)
    block.set("from_", exp.From(this=exp.Table(this=quoted(CTE), alias=exp.TableAlias(this=quoted(alias)))))
    block.set("connect", None)
    grouped = block.args.get("group") is not None or block.args.get("distinct") is not None or any(
        isinstance(node, exp.AggFunc) and node.find_ancestor(exp.Window) is None
        for p in block.expressions for node in p.find_all(exp.AggFunc))
    if siblings or (order is None and not grouped):   # the hierarchy's order, unless rows are grouped
        block.set("order", exp.Order(expressions=[exp.Ordered(this=quoted_column(_ORD, alias))]) if not grouped else None)
    return block


def _qualified(node: exp.Expression, table: str, *, every: bool) -> exp.Expression:
    """``node`` with its columns read from ``table``: the unqualified ones (``every``: all), LEVEL and the
    columns under PRIOR excepted (they read the level and the parent)."""
    for column in [node] if isinstance(node, exp.Column) else []:
        _set_table(column, table, every)
    for column in list(node.find_all(exp.Column)):
        if column.find_ancestor(exp.Select) is not None:
            continue   # a subquery's own column (its correlated ones are qualified already)
        if not every and column.find_ancestor(exp.Prior) is not None:
            continue
        _set_table(column, table, every)
    return node


def _set_table(column: exp.Column, table: str, every: bool) -> None:
    if isinstance(column.this, exp.Star) or (not every and column.args.get("table") is not None):
        return
    if column.args.get("table") is None and isinstance(column.this, exp.Identifier) and not column.this.quoted \
            and column.name.upper() in PSEUDOCOLUMNS:
        return
    column.set("table", quoted(table))


def _renamed(node: exp.Expression, old: str, new: str) -> exp.Expression:
    """A copy of ``node`` whose columns of table ``old`` read table ``new``."""
    out = node.copy()
    for column in [out] if isinstance(out, exp.Column) else list(out.find_all(exp.Column)):
        if column.args.get("table") is not None and name_of(column.args["table"]) == old:
            column.set("table", quoted(new))
    return out


def _children(item: exp.Expression, alias: str, condition: exp.Expression,
              also: exp.Expression | None = None) -> exp.Exists:
    """EXISTS (a child of the current row): the CONNECT BY condition with the child named "__C" and the
    parent ("__P") the current row of the query (named ``alias``)."""
    child = item.copy()
    child.set("alias", exp.TableAlias(this=quoted(CHILD)))
    where = _renamed(_renamed(condition, alias, CHILD), PARENT, alias)
    probe = exp.select(exp.Literal.number(1)).from_(child).where(where)
    if also is not None:
        probe = probe.where(also)
    return exp.Exists(this=probe)


def _flag(test: exp.Expression, *, when: int, otherwise: int) -> exp.Expression:
    return exp.Case(ifs=[exp.If(this=test, true=exp.Literal.number(when))], default=exp.Literal.number(otherwise))


def _replace_level(node: exp.Expression, value: exp.Expression) -> exp.Expression:
    """``node`` with each bare LEVEL replaced by ``value`` (in place; the node itself when it is LEVEL)."""
    for column in list(node.find_all(exp.Column)):
        if column.args.get("table") is None and isinstance(column.this, exp.Identifier) \
                and not column.this.quoted and column.name.upper() == "LEVEL":
            if column is node:
                return value.copy()
            column.replace(value.copy())
    return node


def _row(alias: str, columns: list[str], level: exp.Expression, keys: exp.Expression, order: exp.Expression,
         carried: list[exp.Expression]) -> list[exp.Expression]:
    return [quoted_column(c, alias) for c in columns] + [level, keys, order] + [c.copy() for c in carried]


def _keys(path: exp.Expression, priors: list[exp.Expression], nocycle: bool) -> exp.Expression:
    """The row's "__KEYS": its parent's followed by the row's values of the PRIOR expressions (a loop:
    ORA-01436, or NULL with NOCYCLE, which stops the row)."""
    return _anon("ora_cb_push", path, exp.Literal.number(int(nocycle)), *[p.copy() for p in priors])


def _sort_key(parent: exp.Expression, siblings: list[exp.Expression], item: exp.Expression,
              alias: str, columns: list[str]) -> exp.Expression:
    """The row's "__ORD": its parent's followed by its sibling-order values, encoded to sort as text."""
    flags = "".join(("D" if o.args.get("desc") else "A") + ("F" if o.args.get("nulls_first") else "L")
                    for o in siblings)
    values = [_qualified(o.this.copy(), alias, every=False) for o in siblings]
    # ties (Oracle leaves their order unspecified) in the table's order, or by the subquery's values
    ties = [exp.Column(this=exp.to_identifier("ROWID"), table=quoted(alias))] \
        if isinstance(item, exp.Table) and isinstance(item.this, exp.Identifier) else [quoted_column(c, alias) for c in columns]
    flags += "AL" * len(ties)
    values += ties
    return exp.DPipe(this=parent, expression=_anon("ora_cb_sortkey", exp.Literal.string(flags), *values))


# ----------------------------------------------------------------------------- SQLite functions

def push(path: str | None, nocycle: Any, *values: Any) -> str | None:
    """``ora_cb_push(path, nocycle, values...)``: the JSON list of the PRIOR expressions' values from the root
    to this row; a row whose values are an ancestor's is a loop (ORA-01436; NULL with NOCYCLE)."""
    keys = json.loads(path) if path else []
    if not values:
        return path
    key = list(values)
    if key in keys:
        if int(nocycle):
            return None
        raise ValueError(f"ORA-01436: {ERR_CONNECT_BY_LOOP.message}")
    return json.dumps(keys + [key], separators=(",", ":"))


def seen(path: str | None, *values: Any) -> int:
    """``ora_cb_seen(path, values...)``: 1 when a row with these PRIOR values is on ``path`` (an ancestor)."""
    return int(bool(values) and list(values) in (json.loads(path) if path else []))


def sort_key(flags: str, *values: Any) -> str:
    """``ora_cb_sortkey(flags, values...)``: the values encoded as text that sorts (BINARY) as ORDER BY
    would, each key self-delimiting so a parent's key followed by a child's still sorts depth first.
    ``flags`` has two letters per value: A/D (ascending, descending), F/L (NULLs first, last)."""
    parts = []
    for i, value in enumerate(values):
        descending, nulls_first = flags[2 * i] == "D", flags[2 * i + 1] == "F"
        if value is None:
            parts.append("0" if nulls_first else "3")
            continue
        encoded = _encode(value)
        if descending:
            encoded = encoded.translate(_INVERT)
        parts.append(("1" if isinstance(value, (int, float)) else "2") + encoded)
    return "".join(parts)


_INVERT = str.maketrans("0123456789abcdef", "fedcba9876543210")


def _encode(value: Any) -> str:
    """Numbers as order-preserving IEEE 754 bits (16 hex digits); text as its UTF-8 bytes in hex ended by 00."""
    if isinstance(value, (int, float)):
        bits = struct.unpack(">Q", struct.pack(">d", float(value)))[0]
        bits = bits ^ 0xFFFFFFFFFFFFFFFF if bits >> 63 else bits | (1 << 63)
        return f"{bits:016x}"
    if isinstance(value, bytes):
        return value.hex() + "00"
    return str(value).encode("utf-8").hex() + "00"


#: name -> (function, number of arguments (-1: any), deterministic), registered on each connection
SQL_FUNCTIONS: dict[str, tuple[Callable[..., Any], int, bool]] = {
    "ora_cb_push": (push, -1, True),
    "ora_cb_seen": (seen, -1, True),
    "ora_cb_sortkey": (sort_key, -1, True),
}
