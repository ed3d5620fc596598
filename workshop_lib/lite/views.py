"""Oracle views in lite: the query kept in the catalog, put in place of the view's name in each statement.

``CREATE VIEW v AS query`` stores the query's Oracle text (LITECAT.VIEWS, read
by USER_VIEWS / ALL_VIEWS) and the view's columns (LITECAT.COLUMNS, so
ALL_TAB_COLUMNS and the translator's scopes see them as Oracle's dictionary
does). A statement naming ``v`` gets ``(query) v`` in its place before it is
translated, with the query's first block naming its columns as the view
does, so everything lite does for a query (types, the pruned nearest-rows
and Oracle Text searches, ROWNUM, outer joins) works through a view. No
SQLite view is made: SQLite cannot have a view in one schema's file read a
table in another's, and learners' views read SUPPLYCHAIN's tables.

Unqualified names in a view's query are the view owner's; a view named as
the target of INSERT, UPDATE, DELETE or MERGE is refused (ORA-03001), and a
view that reaches itself is ORA-01731.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from .error_catalogue import ERR_CIRCULAR_VIEW, ERR_UNSUPPORTED_VIEW_DML, error
from .plan import Context
from .scope import DICTIONARY_VIEWS, build_scope, cte_sources, expand_stars, first_block, name_of, table_ref

#: How deep views may name views before lite calls it a cycle (Oracle: ORA-01731 circular view definition).
MAX_DEPTH = 32

_DML = (exp.Insert, exp.Update, exp.Delete, exp.Merge)


def _written(table: exp.Table) -> bool:
    """Whether ``table`` is the table a DML statement writes (not one its query reads)."""
    node: exp.Expression = table
    if isinstance(node.parent, exp.Schema):
        node = node.parent
    return isinstance(node.parent, _DML) and node.arg_key == "this"


def _cte_names(tree: exp.Expression) -> set[str]:
    return {name_of(cte.args["alias"].this) for cte in tree.find_all(exp.CTE) if cte.args.get("alias")}


def _qualify(query: exp.Expression, owner: str) -> None:
    """Give the owner's schema to the query's unqualified table names (not its CTEs, DUAL or dictionary views)."""
    ctes = _cte_names(query)
    for table in query.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):   # a JSON_TABLE
            continue
        name = name_of(table.this)
        if table.args.get("db") is None and name not in ctes and name not in DICTIONARY_VIEWS:
            table.set("db", exp.to_identifier(owner, quoted=True))


def _name_columns(ctx: Context, query: exp.Expression, names: list[str]) -> None:
    """Alias the first block's select-list items with the view's column names (``*`` spelled out first)."""
    block = first_block(query)
    scope = build_scope(ctx, block, cte_sources(ctx, block, {}))
    items = expand_stars(block.expressions, scope)
    block.set("expressions", [exp.alias_(item.this if isinstance(item, exp.Alias) else item,
                                         exp.to_identifier(name, quoted=True))
                              for item, name in zip(items, names)])


def parse_query(text: str, parse: Callable[[str], exp.Expression]) -> exp.Expression:
    """A view's query, parsed, without WITH READ ONLY / WITH CHECK OPTION (they are about writes, which lite
    refuses through a view)."""
    query = parse(text)
    for block in query.find_all(exp.Select):
        block.set("options", None)
    return query


def expand(tree: exp.Expression, ctx: Context, view_query: Callable[[str, str], str | None],
           parse: Callable[[str], exp.Expression], depth: int = 0) -> exp.Expression:
    """``tree`` with every view it reads replaced by ``(the view's query) alias``, views within views too."""
    ctes = _cte_names(tree)
    for table in list(tree.find_all(exp.Table)):
        if not isinstance(table.this, exp.Identifier):   # a table function or JSON_TABLE
            continue
        owner, name = table_ref(table, ctx.user)
        if table.args.get("db") is None and (name in ctes or name in DICTIONARY_VIEWS):
            continue
        text = view_query(owner, name)
        if text is None:
            continue
        if _written(table):
            raise error(ERR_UNSUPPORTED_VIEW_DML, statement=table.find_ancestor(*_DML).key.upper(),
                        owner=owner, view=name)
        if depth >= MAX_DEPTH:
            raise error(ERR_CIRCULAR_VIEW, owner=owner, view=name)
        query = parse_query(text, parse)
        _qualify(query, owner)
        query = expand(query, ctx, view_query, parse, depth + 1)
        _name_columns(ctx, query, list(ctx.columns_of(owner, name)))
        alias = table.args.get("alias") or exp.TableAlias(this=exp.to_identifier(name, quoted=True))
        table.replace(exp.Subquery(this=query, alias=alias.copy()))
    return tree
