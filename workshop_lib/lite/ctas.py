"""CREATE TABLE ... AS SELECT in lite: the new table's columns, read from the query as Oracle derives them.

Oracle names each column after its select-list item (an expression needs an
alias, ORA-00998) or after the statement's column list, and types it from the
query: a column taken as it is keeps its table's type and a NOT NULL
constraint written for it (not one a primary key implies, and none through a
set operation); an expression gets the type of its value. Keys, defaults and
other constraints are not carried over. Lite reads those from
its catalog and its type inference; an expression's text becomes
``VARCHAR2(4000)`` (Oracle computes the exact maximum length) and a vector
``VECTOR`` of any dimension. ddl.py creates the table from
:func:`table_definition` and the cursor fills it with ``INSERT INTO t``
followed by the statement's own query text (:func:`query_after_as`) in the
same transaction, so a failing query leaves no table behind. A view's
columns are named and typed the same way (views.py).
"""

from __future__ import annotations

import sqlite3

from sqlglot import exp
from sqlglot.tokens import TokenType

from . import catalog
from .dialect import Oracle
from .error_catalogue import (
    ERR_CTAS_BIND, ERR_CTAS_COLUMN_COUNT, ERR_CTAS_COLUMN_TYPES, ERR_CTAS_NEEDS_ALIAS, ERR_DUPLICATE_COLUMN_NAME,
    ERR_UNSUPPORTED_CTAS_TYPE, error,
)
from .scope import (
    Context, Source, build_scope, column_name, cte_sources, expand_stars, first_block, infer_type, is_sequence_number,
    name_of,
)

#: The type a column gets from an expression of each type class (Oracle sizes text exactly; lite cannot).
_BY_CLASS = {"NUMBER": "NUMBER", "VARCHAR2": "VARCHAR2(4000)", "CHAR": "VARCHAR2(4000)", "DATE": "DATE",
             "TIMESTAMP": "TIMESTAMP", "CLOB": "CLOB", "BLOB": "BLOB", "RAW": "RAW(2000)", "JSON": "JSON", "VECTOR": "VECTOR",
             "BINARY_DOUBLE": "BINARY_DOUBLE"}


def _as_is(con: sqlite3.Connection, ctx: Context, src: Source | None, column: str, keeps_not_null: bool
           ) -> tuple[catalog.ColumnType, bool] | None:
    """A base-table column's type and whether the copy may hold NULL, when ``src`` is a base table that has it.

    Only a NOT NULL constraint written for the column carries over, and only from a single query block
    (Oracle: not the NOT NULL a primary key implies, and none through a set operation).
    """
    if src is None or src.owner is None or not src.table:
        return None
    ctype = ctx.columns_of(src.owner, src.table).get(column)
    if ctype is None:
        return None
    declared = keeps_not_null and con.execute(
        "SELECT 1 FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND TABLE_NAME = ? AND CONSTRAINT_TYPE = 'C' "
        "AND SEARCH_CONDITION = ?", (src.owner, src.table, f'"{column}" IS NOT NULL')).fetchone() is not None
    return ctype, not declared


def _of_class(type_class: str | None, name: str) -> catalog.ColumnType:
    text = _BY_CLASS.get(type_class or "")
    if text is None:
        raise error(ERR_UNSUPPORTED_CTAS_TYPE, column=name)
    return catalog.parse_type(text)


def table_columns(con: sqlite3.Connection, ctx: Context, create: exp.Create
                  ) -> list[tuple[str, catalog.ColumnType, bool]]:
    """(name, type, nullable) of each column ``CREATE TABLE ... AS <query>`` gives its table; Oracle's errors."""
    query = create.expression
    if query.find(exp.Placeholder):
        raise error(ERR_CTAS_BIND)
    block = first_block(query)
    keeps = isinstance(query, exp.Select)
    scope = build_scope(ctx, block, cte_sources(ctx, block, {}))
    named = isinstance(create.this, exp.Schema)   # a column list names every column: no alias needed
    found: list[tuple[str, catalog.ColumnType, bool]] = []
    for item in expand_stars(block.expressions, scope):
        value = item.this if isinstance(item, exp.Alias) else item
        name = column_name(item)
        column = isinstance(value, exp.Column) and not is_sequence_number(value)   # a name, not an expression
        if column and value.args.get("db") is None:
            kept = _as_is(con, ctx, *scope.resolve(value), keeps)
            if kept is not None:
                found.append((name, *kept))
                continue
        elif not column and not isinstance(item, exp.Alias) and not named:
            raise error(ERR_CTAS_NEEDS_ALIAS, expression=" ".join(value.sql(dialect=Oracle).split())[:60])
        found.append((name, _of_class(infer_type(value, scope), name), True))
    schema = create.this
    if isinstance(schema, exp.Schema):
        if any(not isinstance(e, exp.Identifier) for e in schema.expressions):
            raise error(ERR_CTAS_COLUMN_TYPES)
        if len(schema.expressions) != len(found):
            raise error(ERR_CTAS_COLUMN_COUNT)
        found = [(name_of(ident), ctype, nullable) for ident, (_, ctype, nullable) in zip(schema.expressions, found)]
    seen: set[str] = set()
    for name, _, _ in found:
        if name in seen:
            raise error(ERR_DUPLICATE_COLUMN_NAME)
        seen.add(name)
    return found


def _type_text(ctype: catalog.ColumnType) -> str:
    """The Oracle type a column of ``ctype`` is created with."""
    if ctype.type_class in ("VARCHAR2", "CHAR"):
        return f"{ctype.data_type}({ctype.length or 4000}{' CHAR' if ctype.char_used == 'C' else ''})"
    if ctype.data_type == "NUMBER" and ctype.precision is not None:
        return f"NUMBER({ctype.precision}, {ctype.scale or 0})"
    if ctype.type_class == "VECTOR":
        return f"VECTOR({ctype.vector_dim or '*'}, {ctype.vector_format or '*'})"
    return ctype.data_type


def table_definition(owner: str, table: str, columns: list[tuple[str, catalog.ColumnType, bool]]) -> str:
    """The Oracle ``CREATE TABLE`` for ``columns`` (names quoted as the catalog has them)."""
    body = ", ".join(f'"{name}" {_type_text(ctype)}{"" if nullable else " NOT NULL"}'
                     for name, ctype, nullable in columns)
    return f'CREATE TABLE "{owner}"."{table}" ({body})'


def query_after_as(sql: str) -> str:
    """The query of ``CREATE TABLE|VIEW name [(...)] AS query``, as written: the text after the first ``AS``
    outside parentheses (the fill of a new table and a view's stored text)."""
    depth = 0
    for token in Oracle().tokenizer_class().tokenize(sql):
        depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(token.token_type, 0)
        if token.token_type == TokenType.ALIAS and depth == 0:
            return sql[token.end + 1:].strip()
    raise ValueError(f"no AS before the query of {sql[:60]!r}")   # the parser found one: cannot happen
