"""GROUP BY ROLLUP, CUBE and GROUPING SETS in lite: one GROUP BY per grouping set, combined with UNION ALL.

Oracle groups the rows once per grouping set and returns every set's rows
together; a grouping expression that is not in a row's set is NULL there,
``GROUPING(e)`` is 1 for such an ``e`` (0 otherwise) and ``GROUPING_ID(e1,
..., en)`` packs those bits, ``e1`` the highest. SQLite has only plain GROUP
BY, so a query block with these grouping sets becomes::

    SELECT * FROM (<block grouped by set 1> UNION ALL <... set 2> ...) [ORDER BY ...] [FETCH ...]

with each branch's select list and HAVING using NULL and the GROUPING
literals of its set (outside aggregates, which still read the rows). A
plain column next to the constructs (``GROUP BY c, ROLLUP (a, b)``) is in
every set, and several constructs multiply out, as in Oracle. Every select
item keeps the name Oracle gives it, so ORDER BY may name an item or repeat
its expression; ORDER BY anything else, DISTINCT, analytic functions and
GROUP_ID are refused by name (ORA-03001).
"""

from __future__ import annotations

import itertools
from functools import reduce

from sqlglot import exp

from .error_catalogue import ERR_UNSUPPORTED, error
from .scope import column_name

_CONSTRUCTS = (exp.Rollup, exp.Cube, exp.GroupingSets)


def uses_grouping_sets(block: exp.Select) -> bool:
    """Whether ``block``'s GROUP BY has ROLLUP, CUBE or GROUPING SETS."""
    group = block.args.get("group")
    return group is not None and any(isinstance(e, _CONSTRUCTS) for e in group.expressions)


def _members(node: exp.Expression) -> list[exp.Expression]:
    """The expressions of one element of a ROLLUP/CUBE/GROUPING SETS list: ``(a, b)`` is two, ``a`` one."""
    if isinstance(node, exp.Tuple):
        return list(node.expressions)
    if isinstance(node, exp.Paren):
        return [node.this]
    if isinstance(node, _CONSTRUCTS):
        raise error(ERR_UNSUPPORTED, construct="a ROLLUP, CUBE or GROUPING SETS inside another (list the sets)")
    return [node]


def _options(item: exp.Expression) -> list[list[exp.Expression]]:
    """The grouping sets one GROUP BY item stands for, largest first."""
    if isinstance(item, exp.Rollup):
        parts = [_members(e) for e in item.expressions]
        return [[e for part in parts[:n] for e in part] for n in range(len(parts), -1, -1)]
    if isinstance(item, exp.Cube):
        parts = [_members(e) for e in item.expressions]
        subsets = [combo for n in range(len(parts), -1, -1) for combo in itertools.combinations(parts, n)]
        return [[e for part in combo for e in part] for combo in subsets]
    if isinstance(item, exp.GroupingSets):
        return sorted((_members(e) for e in item.expressions), key=len, reverse=True)
    return [[item]]


def _key(node: exp.Expression) -> str:
    """A grouping expression's identity: its text without table qualifiers (``s.store_name`` is ``store_name``,
    as GROUPING_ID(store_name) names it)."""
    bare = node.copy()
    for column in bare.find_all(exp.Column):
        column.set("table", None)
    return bare.sql(dialect="oracle").upper()


def _for_set(expression: exp.Expression, grouped: set[str], every: list[str]) -> exp.Expression:
    """``expression`` as one grouping set's rows see it: absent grouping expressions NULL (outside aggregates),
    GROUPING / GROUPING_ID as their literals."""
    def rewrite(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Grouping):
            return exp.Literal.number(0 if _key(node.expressions[0]) in grouped else 1)
        if isinstance(node, exp.GroupingId):
            bits = "".join("0" if _key(e) in grouped else "1" for e in node.expressions)
            return exp.Literal.number(int(bits, 2))
        if _key(node) in every and _key(node) not in grouped and node.find_ancestor(exp.AggFunc) is None \
                and not isinstance(node.parent, (exp.Grouping, exp.GroupingId)):
            return exp.Null()
        return node
    return expression.transform(rewrite)


def expand(block: exp.Select) -> exp.Expression:
    """``block`` (which uses grouping sets) as the UNION ALL of its grouping sets (module docstring)."""
    for key, clause in (("distinct", "DISTINCT"),):
        if block.args.get(key):
            raise error(ERR_UNSUPPORTED, construct=f"{clause} with ROLLUP, CUBE or GROUPING SETS")
    if any(isinstance(n, exp.Window) for item in block.expressions for n in item.find_all(exp.Window)):
        raise error(ERR_UNSUPPORTED, construct="analytic functions with ROLLUP, CUBE or GROUPING SETS")
    if any(isinstance(n, exp.Anonymous) and n.name.upper() == "GROUP_ID" for n in block.find_all(exp.Anonymous)):
        raise error(ERR_UNSUPPORTED, construct="GROUP_ID()")
    sets: list[list[exp.Expression]] = [[]]
    for item in block.args["group"].expressions:
        sets = [done + more for done in sets for more in _options(item)]
    every = list(dict.fromkeys(_key(e) for s in sets for e in s))
    names = [column_name(item) for item in block.expressions]
    items = [exp.alias_(item.this if isinstance(item, exp.Alias) else item, exp.to_identifier(name, quoted=True))
             for item, name in zip(block.expressions, names)]
    branches = []
    for grouping_set in sorted(sets, key=len, reverse=True):
        grouped = {_key(e) for e in grouping_set}
        branch = block.copy()
        for key in ("order", "limit", "offset", "with_"):
            branch.set(key, None)
        branch.set("expressions", [_for_set(item.copy(), grouped, every) for item in items])
        branch.set("group", exp.Group(expressions=[e.copy() for e in grouping_set]) if grouping_set else None)
        if block.args.get("having") is not None:
            branch.set("having", exp.Having(this=_for_set(block.args["having"].this.copy(), grouped, every)))
        branches.append(branch)
    union = reduce(lambda left, right: exp.Union(this=left, expression=right, distinct=False), branches)
    outer = exp.select("*").from_(exp.Subquery(this=union, alias=exp.TableAlias(this=exp.to_identifier("LITE_GROUPS"))))
    if block.args.get("with_") is not None:
        outer.set("with_", block.args["with_"].copy())
    order = block.args.get("order")
    if order is not None:
        outer.set("order", exp.Order(expressions=[_ordered(o, block.expressions, names) for o in order.expressions]))
    for key in ("limit", "offset"):
        if block.args.get(key) is not None:
            outer.set(key, block.args[key].copy())
    return outer


def _ordered(ordered: exp.Ordered, items: list[exp.Expression], names: list[str]) -> exp.Ordered:
    """An ORDER BY key of the grouped block as a key of the union: a position, an item's name or expression."""
    key = ordered.this
    if isinstance(key, exp.Literal) and not key.is_string:
        return ordered.copy()
    for item, name in zip(items, names):
        value = item.this if isinstance(item, exp.Alias) else item
        if _key(key) == _key(value) or (isinstance(key, exp.Column) and not key.table and key.name.upper() == name):
            copy = ordered.copy()
            copy.set("this", exp.column(exp.to_identifier(name, quoted=True)))
            return copy
    raise error(ERR_UNSUPPORTED, construct="ORDER BY an expression that is not in the select list of a query with "
                                          "ROLLUP, CUBE or GROUPING SETS (select it, then order by it)")
