"""ALTER TABLE ... DROP COLUMN, RENAME COLUMN, RENAME TO and MODIFY in lite, with Oracle's rules (SQL Reference).

SQLite does each of these itself (its RENAME COLUMN and RENAME TO rewrite the
table's indexes, triggers and foreign keys; its DROP COLUMN rewrites the rows);
this module checks what Oracle checks first, moves lite's own objects out of
SQLite's way (a dropped column's indexes, Oracle Text, vector and spatial
indexes, and the triggers lite wrote for it) and keeps the catalog (LITECAT)
in step: column positions, comments, constraints and indexes. A view that reads
a dropped or renamed column fails when it is next used, as Oracle's does.

A table-level CHECK constraint, a foreign key and a key ALTER TABLE added on a
dropped column go too (SQLite's documented way of removing a CHECK or foreign
key: the table's schema text is rewritten). What SQLite cannot drop without
rebuilding the table, and Oracle drops with the column, is refused by name
(ORA-03001): a column of a key CREATE TABLE declared, or of a foreign key
written inside a column's definition.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Callable

from . import catalog, functions
from .errors import LiteNotSupportedError
from .error_catalogue import (
    ERR_ALREADY_NOT_NULL, ERR_ALREADY_NULL, ERR_CANNOT_DROP_ALL_COLUMNS, ERR_DECREASE_LENGTH, ERR_DECREASE_PRECISION,
    ERR_DROP_MULTI_COLUMN_CONSTRAINT, ERR_DROP_PARENT_KEY, ERR_INVALID_IDENTIFIER, ERR_MUST_BE_EMPTY_TO_CHANGE_TYPE,
    ERR_NAME_ALREADY_USED, ERR_NULLS_FOUND, ERR_RENAMED_COLUMN_EXISTS, ERR_UNSUPPORTED, error,
)


def drop_columns(con: sqlite3.Connection, db: str, owner: str, table: str, names: list[str], cascade: bool,
                 drop_index: Callable[[str, str], None], drop_constraint: Callable[[str], None]) -> None:
    """``ALTER TABLE t DROP COLUMN c`` / ``DROP (c1, c2) [CASCADE CONSTRAINTS]``.

    Oracle's checks, in its order: a name the table lacks is ORA-00904, all of
    its columns ORA-12983, a column of a key another constraint references
    ORA-12992 and one of a multi-column constraint ORA-12991 (both unless
    CASCADE CONSTRAINTS). Then what depends on the columns goes: their keys and
    foreign keys (``drop_constraint(name)``, with CASCADE CONSTRAINTS the
    foreign keys that reference them; a key CREATE TABLE declared is ORA-03001,
    as SQLite would have to rebuild the table), their indexes (``drop_index(owner,
    name)``), lite's triggers for them, their comments and other constraints (a
    table-level CHECK on them too), and SQLite drops the columns; the rest move up.
    """
    columns = list(catalog.column_types(con, owner, table))
    for name in names:
        if name not in columns:
            raise error(ERR_INVALID_IDENTIFIER, name=name)
    if set(columns) <= set(names):
        raise error(ERR_CANNOT_DROP_ALL_COLUMNS)
    constraints = catalog.table_constraints(con, owner, table)
    dropped = set(names)
    keys = []
    for cname, (kind, cols) in constraints.items():
        if not dropped & set(cols):
            continue
        if kind in ("P", "U") and not cascade and con.execute(
                "SELECT 1 FROM LITECAT.CONSTRAINTS WHERE R_OWNER = ? AND R_CONSTRAINT_NAME = ?",
                (owner, cname)).fetchone():
            raise error(ERR_DROP_PARENT_KEY)
        if set(cols) - dropped and not cascade:
            raise error(ERR_DROP_MULTI_COLUMN_CONSTRAINT)
        if kind in ("P", "U", "R"):
            keys.append((cname, kind))
    for cname, kind in keys:
        try:
            drop_constraint(cname)
        except LiteNotSupportedError:
            what = {"P": "a primary key", "U": "a unique key", "R": "a foreign key"}[kind]
            raise error(ERR_UNSUPPORTED, construct=f"DROP COLUMN of {what} column (constraint {cname}) that CREATE "
                                                   f"TABLE declared: lite cannot remove it from SQLite's table; create "
                                                   f"the new table and copy the rows") from None
    sql = table_definition(con, db, table)
    checks = [item for item in _table_constraint_items(sql) if dropped & named_columns(item, columns)]
    for item in checks:
        if named_columns(item, columns) - dropped and not cascade:
            raise error(ERR_DROP_MULTI_COLUMN_CONSTRAINT)
    if checks:
        edit_definition(con, db, table, lambda items: [item for item in items if item not in checks])
    indexes = con.execute("SELECT OWNER, INDEX_NAME, COLUMN_NAMES FROM LITECAT.INDEXES WHERE TABLE_OWNER = ? "
                          "AND TABLE_NAME = ?", (owner, table)).fetchall()
    for index_owner, index, cols in indexes:
        if dropped & set(cols.split(",")):
            drop_index(index_owner, index)   # Oracle drops an index on a dropped column, composite ones too
    for trigger, body in con.execute(f"SELECT name, sql FROM \"{db}\".sqlite_master WHERE type = 'trigger' "
                                     f"AND tbl_name = ?", (table,)).fetchall():
        if any(trigger.startswith(f"{table}__{c}__") or f'"{c}"' in body for c in names):
            con.execute(f'DROP TRIGGER "{db}"."{trigger}"')
    for name in names:
        con.execute(f'ALTER TABLE "{db}"."{table}" DROP COLUMN "{name}"')
        position = con.execute("SELECT COLUMN_ID FROM LITECAT.COLUMNS WHERE OWNER = ? AND TABLE_NAME = ? "
                               "AND COLUMN_NAME = ?", (owner, table, name)).fetchone()[0]
        for target in ("COLUMNS", "COL_COMMENTS"):
            con.execute(f"DELETE FROM LITECAT.{target} WHERE OWNER = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?",
                        (owner, table, name))
        con.execute("UPDATE LITECAT.COLUMNS SET COLUMN_ID = COLUMN_ID - 1 WHERE OWNER = ? AND TABLE_NAME = ? "
                    "AND COLUMN_ID > ?", (owner, table, position))
    for cname, (_, cols) in constraints.items():
        if dropped & set(cols):
            for target in ("CONSTRAINTS", "CONS_COLUMNS"):
                con.execute(f"DELETE FROM LITECAT.{target} WHERE OWNER = ? AND CONSTRAINT_NAME = ?", (owner, cname))


def named_columns(item: str, columns: list[str]) -> set[str]:
    """The table's columns a CHECK constraint's text names (quoted as lite writes them, or as the user did)."""
    text = re.sub(r"'(?:[^']|'')*'", "''", item)   # not inside string literals
    return {c for c in columns if f'"{c}"' in text or re.search(rf'(?<!["\w]){re.escape(c)}(?![\w"])', text, re.I)}


def edit_definition(con: sqlite3.Connection, db: str, table: str, edit: Callable[[list[str]], list[str]]) -> None:
    """Rewrite the table's CREATE TABLE text with its items (columns and table constraints, as written) passed
    through ``edit``: the one way lite changes a table's CHECK, FOREIGN KEY, NOT NULL or DEFAULT in place."""
    sql = table_definition(con, db, table)
    start, end = sql.index("(") + 1, sql.rindex(")")
    items = edit(split_items(sql[start:end]))
    rewrite_definition(con, db, table, sql[:start] + "\n  " + ",\n  ".join(items) + "\n" + sql[end:])


def table_definition(con: sqlite3.Connection, db: str, table: str) -> str:
    """The CREATE TABLE text SQLite keeps for ``table``."""
    return con.execute(f"SELECT sql FROM \"{db}\".sqlite_master WHERE type = 'table' AND name = ?",
                       (table,)).fetchone()[0]


def rewrite_definition(con: sqlite3.Connection, db: str, table: str, rewritten: str) -> None:
    """Replace the table's CREATE TABLE text: SQLite's documented procedure for adding or removing CHECK and
    FOREIGN KEY constraints (ALTER TABLE, "making other kinds of table schema changes"), which do not change
    how rows are stored: the schema text is rewritten and its version moved on, in the caller's transaction.
    The caller checks the rows against what it adds first."""
    version = con.execute(f'PRAGMA "{db}".schema_version').fetchone()[0]
    con.execute("PRAGMA writable_schema = ON")
    try:
        con.execute(f"UPDATE \"{db}\".sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                    (rewritten, table))
        con.execute(f'PRAGMA "{db}".schema_version = {version + 1}')
    finally:
        con.execute("PRAGMA writable_schema = OFF")


def split_items(body: str) -> list[str]:
    """The top-level comma-separated items of a CREATE TABLE's parenthesised body."""
    items, depth, start, quote = [], 0, 0, ""
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:i].strip())
            start = i + 1
    items.append(body[start:].strip())
    return items


def _table_constraint_items(sql: str) -> list[str]:
    """The table-level CHECK constraints of a CREATE TABLE text (top-level items that are not columns)."""
    items = split_items(sql[sql.index("(") + 1:sql.rindex(")")])
    return [item for item in items if re.match(r"(CONSTRAINT\s+\S+\s+)?CHECK\b", item, re.I)]


def rename_column(con: sqlite3.Connection, db: str, owner: str, table: str, old: str, new: str) -> None:
    """``ALTER TABLE t RENAME COLUMN old TO new``: ORA-00904 for a name the table lacks, ORA-00957 for one it
    has; SQLite renames it in the table, its indexes, triggers and foreign keys, the catalog follows, and the
    triggers lite wrote for the column are written again (their names and messages carry the column's)."""
    columns = catalog.column_types(con, owner, table)
    if old not in columns:
        raise error(ERR_INVALID_IDENTIFIER, name=old)
    if new in columns:
        raise error(ERR_RENAMED_COLUMN_EXISTS, name=new)
    con.execute(f'ALTER TABLE "{db}"."{table}" RENAME COLUMN "{old}" TO "{new}"')
    for target in ("COLUMNS", "COL_COMMENTS", "CONS_COLUMNS"):
        con.execute(f"UPDATE LITECAT.{target} SET COLUMN_NAME = ? WHERE OWNER = ? AND TABLE_NAME = ? "
                    f"AND COLUMN_NAME = ?", (new, owner, table, old))
    con.execute(f"UPDATE LITECAT.{catalog.SDO_METADATA_TABLE} SET COLUMN_NAME = ? WHERE OWNER = ? AND TABLE_NAME = ? "
                "AND COLUMN_NAME = ?", (new, owner, table, old))
    con.execute("UPDATE LITECAT.CONSTRAINTS SET SEARCH_CONDITION = ? WHERE OWNER = ? AND TABLE_NAME = ? "
                "AND SEARCH_CONDITION = ?", (f'"{new}" IS NOT NULL', owner, table, f'"{old}" IS NOT NULL'))
    for index, cols in con.execute("SELECT INDEX_NAME, COLUMN_NAMES FROM LITECAT.INDEXES WHERE TABLE_OWNER = ? "
                                   "AND TABLE_NAME = ?", (owner, table)).fetchall():
        renamed = ",".join(new if c == old else c for c in cols.split(","))
        if renamed != cols:
            con.execute("UPDATE LITECAT.INDEXES SET COLUMN_NAMES = ? WHERE TABLE_OWNER = ? AND INDEX_NAME = ?",
                        (renamed, owner, index))
    _rewrite_triggers(con, db, table, f"{table}__{old}__", f"{table}__{new}__",
                      f'"{owner}"."{table}"."{old}"', f'"{owner}"."{table}"."{new}"')


def rename_table(con: sqlite3.Connection, db: str, owner: str, table: str, new: str) -> None:
    """``ALTER TABLE t RENAME TO u``: ORA-00955 for a name the schema uses; SQLite renames the table (its
    indexes, triggers and the foreign keys that reference it follow), the catalog follows, and lite's
    triggers, whose names and messages carry the table's name, are written again."""
    if catalog.name_used(con, owner, new):
        raise error(ERR_NAME_ALREADY_USED)
    # The connection's TEMP change-log triggers would follow the table to its new name while the connection
    # still files them under the old one (a new table of that name would go unlogged): drop them, the
    # connection creates them again for whichever table it next reads (connection._tracked).
    for (trigger,) in con.execute("SELECT name FROM sqlite_temp_master WHERE type = 'trigger' AND tbl_name = ?",
                                  (table,)).fetchall():
        con.execute(f'DROP TRIGGER temp."{trigger}"')
    con.execute(f'ALTER TABLE "{db}"."{table}" RENAME TO "{new}"')
    for target in ("TABLES", "COLUMNS", "TAB_COMMENTS", "COL_COMMENTS", "CONSTRAINTS", "CONS_COLUMNS",
                   catalog.SDO_METADATA_TABLE):
        con.execute(f"UPDATE LITECAT.{target} SET TABLE_NAME = ? WHERE OWNER = ? AND TABLE_NAME = ?",
                    (new, owner, table))
    con.execute("UPDATE LITECAT.INDEXES SET TABLE_NAME = ? WHERE TABLE_OWNER = ? AND TABLE_NAME = ?",
                (new, owner, table))
    _rewrite_triggers(con, db, new, f"{table}__", f"{new}__", f'"{owner}"."{table}".', f'"{owner}"."{new}".')


def _rewrite_triggers(con: sqlite3.Connection, db: str, table: str, old_prefix: str, new_prefix: str,
                      old_text: str, new_text: str) -> None:
    """Lite's triggers on ``table`` named ``old_prefix...``, again under ``new_prefix...`` with ``old_text``
    in their bodies (an error message naming the column) replaced by ``new_text``."""
    for trigger, body in con.execute(f"SELECT name, sql FROM \"{db}\".sqlite_master WHERE type = 'trigger' "
                                     f"AND tbl_name = ?", (table,)).fetchall():
        if not trigger.startswith(old_prefix):
            continue
        renamed = new_prefix + trigger[len(old_prefix):]
        con.execute(f'DROP TRIGGER "{db}"."{trigger}"')
        body = body.replace(old_text, new_text).replace(f'TRIGGER "{trigger}"', f'TRIGGER "{db}"."{renamed}"', 1)
        con.execute(body)


@dataclass
class ColumnChange:
    """One column of ALTER TABLE ... MODIFY: its new type, DEFAULT (SQLite text; ``"NULL"`` removes it) and
    NULL / NOT NULL (``not_null`` None when not given; ``constraint`` the NOT NULL's name, if written)."""

    name: str
    ctype: catalog.ColumnType | None
    default: str | None
    not_null: bool | None
    constraint: str | None = None
    default_text: str | None = None   # the DEFAULT as written (Oracle SQL), for ALL_TAB_COLUMNS.DATA_DEFAULT


def modify_columns(con: sqlite3.Connection, db: str, owner: str, table: str, changes: list[ColumnChange],
                   refuse_null: Callable[[str, str, str], None]) -> None:
    """``ALTER TABLE t MODIFY (c [type] [DEFAULT v] [NULL | NOT NULL], ...)``, with Oracle's checks.

    A new length or precision of the column's type is checked against its values (ORA-01441 for text too
    long for a shorter VARCHAR2, ORA-01440 for decreasing a NUMBER's precision or scale over values) and then
    checked on every write (the catalog holds it); another type is ORA-01439 over values and ORA-03001 on an
    empty column (SQLite keeps the column's storage class). NOT NULL is checked against the rows
    (ORA-02296) and enforced by triggers, ORA-01442 when the column is already NOT NULL; NULL removes it
    (ORA-01451 when there is none, or for a primary key column). A DEFAULT is written into the table's
    definition (SQLite's documented schema rewrite).
    """
    columns = catalog.column_types(con, owner, table)
    keys = {c for kind, cols in catalog.table_constraints(con, owner, table).values() if kind == "P" for c in cols}
    for change in changes:
        old = columns.get(change.name)
        if old is None:
            raise error(ERR_INVALID_IDENTIFIER, name=change.name)
        has_values = con.execute(f'SELECT 1 FROM "{db}"."{table}" WHERE "{change.name}" IS NOT NULL LIMIT 1'
                                 ).fetchone() is not None
        if change.ctype is not None:
            _retype(con, db, owner, table, change.name, old, change.ctype, has_values)
        if change.default is not None:
            _set_default(con, db, table, change.name, change.default)
            con.execute("UPDATE LITECAT.COLUMNS SET DATA_DEFAULT = ? WHERE OWNER = ? AND TABLE_NAME = ? AND "
                        "COLUMN_NAME = ?", (change.default_text, owner, table, change.name))
        nullable = con.execute("SELECT NULLABLE FROM LITECAT.COLUMNS WHERE OWNER = ? AND TABLE_NAME = ? AND "
                               "COLUMN_NAME = ?", (owner, table, change.name)).fetchone()[0] == "Y"
        if change.not_null is True:
            if not nullable:
                raise error(ERR_ALREADY_NOT_NULL)
            name = catalog.record_constraints(con, owner, table, [(change.constraint, "C", [change.name],
                                                                   f'"{change.name}" IS NOT NULL', None)])[0]
            if con.execute(f'SELECT 1 FROM "{db}"."{table}" WHERE "{change.name}" IS NULL LIMIT 1').fetchone():
                raise error(ERR_NULLS_FOUND, constraint=f"{owner}.{name}")
            refuse_null(change.name, "INSERT", "NOT_NULL_INSERT")
            refuse_null(change.name, "UPDATE", "NOT_NULL_UPDATE")
            con.execute("UPDATE LITECAT.COLUMNS SET NULLABLE = 'N' WHERE OWNER = ? AND TABLE_NAME = ? "
                        "AND COLUMN_NAME = ?", (owner, table, change.name))
        elif change.not_null is False:
            if nullable or change.name in keys:
                raise error(ERR_ALREADY_NULL)
            drop_not_null(con, db, owner, table, change.name)


def _retype(con: sqlite3.Connection, db: str, owner: str, table: str, column: str, old: catalog.ColumnType,
            new: catalog.ColumnType, has_values: bool) -> None:
    same_kind = old.type_class == new.type_class and old.data_type.split("(")[0] == new.data_type.split("(")[0]
    if not same_kind or old.type_class not in ("VARCHAR2", "CHAR", "NUMBER", "TIMESTAMP"):
        if has_values:
            raise error(ERR_MUST_BE_EMPTY_TO_CHANGE_TYPE)
        raise error(ERR_UNSUPPORTED, construct=f"MODIFY of column {column} from {old.data_type} to {new.data_type} "
                                               f"(lite changes a column's length, precision or scale, not its type)")
    if new.type_class in ("VARCHAR2", "CHAR") and new.length is not None:
        in_bytes = new.char_used != "C"
        longest = max((functions.value_length(v, in_bytes) for (v,) in con.execute(
            f'SELECT "{column}" FROM "{db}"."{table}" WHERE "{column}" IS NOT NULL') if isinstance(v, str)),
            default=0)
        if longest > new.length:
            raise error(ERR_DECREASE_LENGTH)
    if new.type_class == "NUMBER" and has_values and (
            (new.precision is not None and (old.precision is None or new.precision < old.precision))
            or (new.scale or 0) < (old.scale or 0)):
        raise error(ERR_DECREASE_PRECISION)
    con.execute("UPDATE LITECAT.COLUMNS SET DATA_TYPE = ?, DATA_LENGTH = ?, DATA_PRECISION = ?, DATA_SCALE = ?, "
                "CHAR_USED = ? WHERE OWNER = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?",
                (new.data_type, new.length, new.precision, new.scale, new.char_used, owner, table, column))


def _edit_column(con: sqlite3.Connection, db: str, table: str, column: str, change: Callable[[str], str]) -> None:
    """Pass ``column``'s item of the table's definition through ``change``."""
    def edit(items: list[str]) -> list[str]:
        return [change(item) if item.startswith(f'"{column}" ') or item == f'"{column}"' else item for item in items]
    edit_definition(con, db, table, edit)


def _set_default(con: sqlite3.Connection, db: str, table: str, column: str, default: str) -> None:
    """A new DEFAULT for rows inserted from now on. SQLite reads a column missing from a row stored before
    ALTER TABLE ADD added it as the column's current DEFAULT, so each row's value is written out first: the
    rows keep the values they have, as in Oracle."""
    con.execute(f'UPDATE "{db}"."{table}" SET "{column}" = "{column}"')

    def change(item: str) -> str:
        start = item.find(" DEFAULT (")
        if start >= 0:   # lite writes DEFAULT (value); find its closing parenthesis
            depth, end = 0, start + len(" DEFAULT ")
            for end in range(start + len(" DEFAULT "), len(item)):
                depth += {"(": 1, ")": -1}.get(item[end], 0)
                if depth == 0:
                    break
            item = item[:start] + item[end + 1:]
        return item if default.upper() == "NULL" else f"{item} DEFAULT ({default})"
    _edit_column(con, db, table, column, change)


def drop_not_null(con: sqlite3.Connection, db: str, owner: str, table: str, column: str) -> None:
    """Remove a column's NOT NULL: SQLite's own (from the table's definition) and lite's triggers."""
    _edit_column(con, db, table, column, lambda item: re.sub(r"\s+NOT NULL\b", "", item, count=1))
    for (trigger,) in con.execute(f"SELECT name FROM \"{db}\".sqlite_master WHERE type = 'trigger' AND tbl_name = ? "
                                  f"AND name IN (?, ?)", (table, f"{table}__{column}__NOT_NULL_INSERT",
                                                          f"{table}__{column}__NOT_NULL_UPDATE")).fetchall():
        con.execute(f'DROP TRIGGER "{db}"."{trigger}"')
    for (name,) in con.execute("SELECT CONSTRAINT_NAME FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND TABLE_NAME = ? "
                               "AND CONSTRAINT_TYPE = 'C' AND SEARCH_CONDITION = ?",
                               (owner, table, f'"{column}" IS NOT NULL')).fetchall():
        for target in ("CONSTRAINTS", "CONS_COLUMNS"):
            con.execute(f"DELETE FROM LITECAT.{target} WHERE OWNER = ? AND CONSTRAINT_NAME = ?", (owner, name))
    con.execute("UPDATE LITECAT.COLUMNS SET NULLABLE = 'Y' WHERE OWNER = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?",
                (owner, table, column))
