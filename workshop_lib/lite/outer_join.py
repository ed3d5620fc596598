"""Oracle's ``(+)`` outer-join operator in lite: a query block's comma joins rewritten as ANSI LEFT JOINs.

In ``FROM emp e, dept d WHERE e.deptno = d.deptno(+)`` the marked table
(``d``) is outer-joined: every ``e`` row is kept, with NULLs where no ``d`` row
matches. Each WHERE condition (an AND term) that marks columns of one table
becomes part of that table's ON clause, and the table moves after the tables
its conditions read, so the block becomes ``FROM emp e LEFT JOIN dept d ON
e.deptno = d.deptno``: a chain (``b.x(+) = a.x AND c.y(+) = b.y``) joins in
order, a table outer-joined to several others (Oracle 12c and later) joins
after all of them, and a marked condition on a constant (``d.loc(+) =
'DALLAS'``) filters the joined rows, not the result. Unmarked conditions stay
in WHERE, as Oracle applies them after the joins. The other tables are joined
with CROSS JOIN, which is what the comma was.

Oracle's own errors for the operator are raised with its numbers: with ANSI
joins in the block (ORA-25156), under OR or IN (ORA-01719), marking two tables
in one condition (ORA-01468), against a subquery (ORA-01799), two tables
outer-joined to each other (ORA-01416), outside a WHERE clause (ORA-30563). As
in Oracle, a condition between a subquery's table and a table of the query
around it makes no outer join (it filters as written), and neither does a
single-table block. A
marked column without its table's name or alias is refused (ORA-03001): lite
would have to resolve it before knowing which table to join.
"""

from __future__ import annotations

from sqlglot import exp

from .error_catalogue import (
    ERR_OUTER_JOIN_CYCLE, ERR_OUTER_JOIN_IN_OR, ERR_OUTER_JOIN_NOT_HERE, ERR_OUTER_JOIN_SUBQUERY,
    ERR_OUTER_JOIN_TWO_TABLES, ERR_OUTER_JOIN_WITH_ANSI, ERR_SQLITE_AMBIGUOUS_COLUMN,
    ERR_UNSUPPORTED_OUTER_JOIN_NOTHING_TO_JOIN, ERR_UNSUPPORTED_OUTER_JOIN_UNQUALIFIED, error,
)
from .scope import conjuncts, name_of


def _marked(node: exp.Expression, block: exp.Select) -> list[exp.Column]:
    """The columns under ``node`` that carry ``(+)`` and belong to ``block`` (not to a subquery of it)."""
    return [c for c in node.find_all(exp.Column) if c.args.get("join_mark") and c.find_ancestor(exp.Select) is block]


def _tables(block: exp.Select) -> dict[str, exp.Expression]:
    """The block's FROM items by the name a column qualifier uses (alias, else table name), in FROM order."""
    items = [block.args["from_"].this] + [j.this for j in block.args.get("joins") or []]
    named: dict[str, exp.Expression] = {}
    for item in items:
        alias = item.args.get("alias")
        name = name_of(alias.this if alias is not None else item.this)
        if name in named:   # FROM emp, emp: a qualifier could not say which one is outer-joined
            raise error(ERR_SQLITE_AMBIGUOUS_COLUMN, column=name)
        named[name] = item
    return named


def _checked(conjunct: exp.Expression, block: exp.Select) -> str:
    """The one table ``conjunct`` outer-joins (its qualifier, upper case); Oracle's error for a misuse."""
    for inner in conjunct.find_all(exp.Or, exp.In):
        if inner.find_ancestor(exp.Select) is block and _marked(inner, block):
            raise error(ERR_OUTER_JOIN_IN_OR)
    if any(s.find_ancestor(exp.Select) is block for s in conjunct.find_all(exp.Subquery)):
        raise error(ERR_OUTER_JOIN_SUBQUERY)
    marked = _marked(conjunct, block)
    for column in marked:
        if not column.table:
            raise error(ERR_UNSUPPORTED_OUTER_JOIN_UNQUALIFIED, column=name_of(column.this))
    tables = {name_of(c.args["table"]) for c in marked}
    if len(tables) > 1:
        raise error(ERR_OUTER_JOIN_TWO_TABLES)
    return tables.pop()


def _reads(conjunct: exp.Expression, block: exp.Select, outer: str) -> set[str]:
    """The other tables of the block that ``conjunct`` reads (unmarked, qualified columns)."""
    return {name_of(c.args["table"]) for c in conjunct.find_all(exp.Column)
            if c.table and not c.args.get("join_mark") and c.find_ancestor(exp.Select) is block} - {outer}


def outer_joins(block: exp.Select) -> None:
    """Rewrite ``block``'s ``(+)`` conditions as LEFT JOINs in place (module docstring); Oracle's errors otherwise."""
    where = block.args.get("where")
    if where is None or block.args.get("from_") is None or not _marked(where, block):
        return   # nothing to join; a mark left here is refused by refuse_leftovers
    joins = block.args.get("joins") or []
    if any(j.args.get("on") or j.args.get("using") or j.args.get("kind") or j.args.get("side") for j in joins):
        raise error(ERR_OUTER_JOIN_WITH_ANSI)
    tables = _tables(block)
    kept: list[exp.Expression] = []
    ons: dict[str, list[exp.Expression]] = {}
    needs: dict[str, set[str]] = {}
    for conjunct in conjuncts(where.this):
        if not _marked(conjunct, block):
            kept.append(conjunct)
            continue
        outer = _checked(conjunct, block)
        reads = _reads(conjunct, block, outer)
        for column in _marked(conjunct, block):
            column.set("join_mark", None)
        if outer not in tables or (reads and not reads & set(tables)):
            # One side is a table of an enclosing query: Oracle makes no outer join of that, the condition
            # filters as written (and names no table at all resolve to ORA-00904 later, as any column does).
            kept.append(conjunct)
            continue
        ons.setdefault(outer, []).append(conjunct)
        needs.setdefault(outer, set()).update(reads & set(tables))
    order = [name for name in tables if name not in ons]
    pending = [name for name in tables if name in ons]
    while pending:
        ready = [name for name in pending if needs[name] <= set(order)]
        if not ready:
            raise error(ERR_OUTER_JOIN_CYCLE)
        order.append(ready[0])
        pending.remove(ready[0])
    if order[0] in ons:
        if len(tables) > 1:
            raise error(ERR_UNSUPPORTED_OUTER_JOIN_NOTHING_TO_JOIN)
        kept.extend(ons.pop(order[0]))   # one table: nothing to outer-join, the conditions filter it
    block.set("from_", exp.From(this=tables[order[0]]))
    block.set("joins", [
        exp.Join(this=tables[name], on=exp.and_(*ons[name]), side="LEFT") if name in ons
        else exp.Join(this=tables[name], kind="CROSS")
        for name in order[1:]
    ])
    block.set("where", exp.Where(this=exp.and_(*kept)) if kept else None)


def refuse_leftovers(tree: exp.Expression) -> None:
    """``(+)`` that no query block's WHERE joined (in a select list, ON, ORDER BY, an UPDATE's SET) is ORA-30563."""
    if any(c.args.get("join_mark") for c in tree.find_all(exp.Column)):
        raise error(ERR_OUTER_JOIN_NOT_HERE)
