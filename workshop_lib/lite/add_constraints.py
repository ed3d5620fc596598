"""ALTER TABLE ... ADD CONSTRAINT (and ``ADD (CONSTRAINT ..., ...)``) and DROP CONSTRAINT in lite.

Oracle validates the rows a table already has against a constraint it adds
(SQL Reference, "constraint": ENABLE VALIDATE is the default) and names the
constraint when they fail: ORA-01449 (a primary key column holds NULL),
ORA-02437 (primary key), ORA-02299 (unique), ORA-02293 (check), ORA-02298
(foreign key). A foreign key needs the referenced table's primary key or a
unique key over exactly its columns (ORA-02270, ORA-02268 without a primary
key, ORA-02256 for a different number of columns).

Then lite enforces it the way CREATE TABLE's constraints are enforced:

* PRIMARY KEY and UNIQUE: a unique index over the columns (a composite UNIQUE
  also gets the index that makes rows with equal non-NULL values and NULLs in
  the same columns duplicates, as in Oracle), and for a primary key, triggers
  refusing NULL (ORA-01400/01407) where the column has no NOT NULL;
* CHECK and FOREIGN KEY: the constraint is added to the table's CREATE TABLE
  text (alter_columns.rewrite_definition), so SQLite enforces it as if the
  table had been created with it; a foreign key to another schema's table is
  recorded, not enforced, as for CREATE TABLE (SQLite cannot reference another
  database).

The constraints of one statement are added in order, keys first (so a foreign
key may reference the key the same statement adds), together or not at all.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Callable

from . import catalog
from .alter_columns import drop_not_null, edit_definition, named_columns
from .error_catalogue import (
    ERR_CONSTRAINT_COLUMN_COUNT, ERR_CONSTRAINT_NAME_USED, ERR_INVALID_IDENTIFIER, ERR_KEY_EXISTS, ERR_KEY_REFERENCED,
    ERR_NO_MATCHING_KEY, ERR_NO_SUCH_CONSTRAINT, ERR_UNSUPPORTED,
    ERR_NO_PRIMARY_KEY_REFERENCED, ERR_ONE_PRIMARY_KEY, ERR_PRIMARY_KEY_HAS_NULLS, ERR_TABLE_DOES_NOT_EXIST,
    ERR_VALIDATE_CHECK, ERR_VALIDATE_FOREIGN_KEY, ERR_VALIDATE_PRIMARY_KEY, ERR_VALIDATE_UNIQUE, error,
)


@dataclass
class NewConstraint:
    """One constraint of the statement as ALL_CONSTRAINTS shows it, and a CHECK's condition in SQLite."""

    name: str | None
    kind: str                       # P, U, C or R
    columns: list[str]
    search_condition: str | None    # Oracle's text, for ALL_CONSTRAINTS
    reference: tuple | None         # (r_owner, r_table, r_columns, delete rule) of a foreign key
    condition: str = ""             # a CHECK's condition in SQLite


def add_constraints(con: sqlite3.Connection, db: str, owner: str, table: str, constraints: list[NewConstraint],
                    refuse_null: Callable[[str, str, str], None]) -> None:
    """Check each constraint against the table's rows, then enforce and record it (``refuse_null(column,
    statement, suffix)`` writes the NOT NULL trigger a primary key column without NOT NULL needs)."""
    columns = catalog.column_types(con, owner, table)
    order = {"P": 0, "U": 1, "C": 2, "R": 3}
    for constraint in sorted(constraints, key=lambda c: order[c.kind]):
        for column in constraint.columns:
            if column not in columns:
                raise error(ERR_INVALID_IDENTIFIER, name=column)
        if constraint.name and con.execute("SELECT 1 FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND "
                                           "CONSTRAINT_NAME = ?", (owner, constraint.name)).fetchone():
            raise error(ERR_CONSTRAINT_NAME_USED, name=constraint.name)
        if constraint.kind == "R":
            _check_reference(con, owner, constraint)
        if constraint.kind in ("P", "U") and sorted(constraint.columns) in [
                sorted(cols) for kind, cols in _keys(con, owner, table).values()]:
            raise error(ERR_KEY_EXISTS)
        name = catalog.record_constraints(con, owner, table, [(constraint.name, constraint.kind, constraint.columns,
                                                               constraint.search_condition, constraint.reference)])[0]
        label = f"{owner}.{name}"
        cols = ", ".join(f'"{c}"' for c in constraint.columns)
        if constraint.kind == "P":
            if con.execute("SELECT COUNT(*) FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND TABLE_NAME = ? "
                           "AND CONSTRAINT_TYPE = 'P'", (owner, table)).fetchone()[0] > 1:
                raise error(ERR_ONE_PRIMARY_KEY)
            if _any(con, db, table, " OR ".join(f'"{c}" IS NULL' for c in constraint.columns)):
                raise error(ERR_PRIMARY_KEY_HAS_NULLS)
            if _duplicates(con, db, table, constraint.columns, nulls_equal=False):
                raise error(ERR_VALIDATE_PRIMARY_KEY, constraint=label)
            con.execute(f'CREATE UNIQUE INDEX "{db}"."{name}$PK" ON "{table}" ({cols})')
            for column in constraint.columns:
                if not _declared_not_null(con, db, table, column):
                    refuse_null(column, "INSERT", "PK_INSERT")
                    refuse_null(column, "UPDATE", "PK_UPDATE")
                con.execute("UPDATE LITECAT.COLUMNS SET NULLABLE = 'N' WHERE OWNER = ? AND TABLE_NAME = ? "
                            "AND COLUMN_NAME = ?", (owner, table, column))
        elif constraint.kind == "U":
            if _duplicates(con, db, table, constraint.columns, nulls_equal=True):
                raise error(ERR_VALIDATE_UNIQUE, constraint=label)
            con.execute(f'CREATE UNIQUE INDEX "{db}"."{name}$UK" ON "{table}" ({cols})')
            if len(constraint.columns) > 1:   # Oracle's NULLs: (1, NULL) twice are duplicates
                null_aware_unique_index(con, db, table, name, constraint.columns)
        elif constraint.kind == "C":
            if _any(con, db, table, f"NOT ({constraint.condition})"):
                raise error(ERR_VALIDATE_CHECK, constraint=label)
            _append(con, db, table, f'CONSTRAINT "{name}" CHECK ({constraint.condition})')
        else:
            r_owner, r_table, r_columns, rule = constraint.reference
            if _orphans(con, db, table, constraint.columns, db if r_owner == owner else r_owner, r_table, r_columns):
                raise error(ERR_VALIDATE_FOREIGN_KEY, constraint=label)
            if r_owner == owner:   # another schema's table: recorded, not enforced, as for CREATE TABLE
                on_delete = f" ON DELETE {rule}" if rule in ("CASCADE", "SET NULL") else ""
                _append(con, db, table, f'CONSTRAINT "{name}" FOREIGN KEY ({cols}) REFERENCES "{r_table}" ('
                        + ", ".join(f'"{c}"' for c in r_columns) + f"){on_delete}")


def _check_reference(con: sqlite3.Connection, owner: str, constraint: NewConstraint) -> None:
    """The referenced table and key (its primary key when the REFERENCES clause names no columns)."""
    r_owner, r_table, r_columns, rule = constraint.reference
    if not catalog.table_exists(con, r_owner, r_table):
        raise error(ERR_TABLE_DOES_NOT_EXIST, owner=r_owner, table=r_table)
    keys = _keys(con, r_owner, r_table)
    if not r_columns:
        primary = [cols for kind, cols in keys.values() if kind == "P"]
        if not primary:
            raise error(ERR_NO_PRIMARY_KEY_REFERENCED)
        r_columns = primary[0]
    if len(r_columns) != len(constraint.columns):
        raise error(ERR_CONSTRAINT_COLUMN_COUNT)
    if sorted(r_columns) not in [sorted(cols) for _, cols in keys.values()]:
        raise error(ERR_NO_MATCHING_KEY)
    constraint.reference = (r_owner, r_table, list(r_columns), rule)


def _keys(con: sqlite3.Connection, owner: str, table: str) -> dict[str, tuple[str, list[str]]]:
    """The table's primary and unique keys: name -> (P or U, columns in key order)."""
    return {name: key for name, key in catalog.table_constraints(con, owner, table).items() if key[0] in ("P", "U")}


def _any(con: sqlite3.Connection, db: str, table: str, condition: str) -> bool:
    return con.execute(f'SELECT 1 FROM "{db}"."{table}" WHERE {condition} LIMIT 1').fetchone() is not None


def _duplicates(con: sqlite3.Connection, db: str, table: str, columns: list[str], *, nulls_equal: bool) -> bool:
    """Whether two rows have the same key; with ``nulls_equal`` (a unique key), NULLs compare equal and rows
    whose key is all NULL are left out."""
    keys = _null_keys(columns) if nulls_equal else ", ".join(f'"{c}"' for c in columns)
    where = " OR ".join(f'"{c}" IS NOT NULL' for c in columns) if nulls_equal else "1 = 1"
    return con.execute(f'SELECT 1 FROM "{db}"."{table}" WHERE {where} GROUP BY {keys} HAVING COUNT(*) > 1 '
                       f"LIMIT 1").fetchone() is not None


def _orphans(con: sqlite3.Connection, db: str, table: str, columns: list[str], r_db: str, r_table: str,
             r_columns: list[str]) -> bool:
    """Whether a row's key (all of it not NULL) has no parent row."""
    present = " AND ".join(f'c."{c}" IS NOT NULL' for c in columns)
    match = " AND ".join(f'p."{r}" = c."{c}"' for c, r in zip(columns, r_columns))
    return con.execute(f'SELECT 1 FROM "{db}"."{table}" c WHERE {present} AND NOT EXISTS '
                       f'(SELECT 1 FROM "{r_db}"."{r_table}" p WHERE {match}) LIMIT 1').fetchone() is not None


def _declared_not_null(con: sqlite3.Connection, db: str, table: str, column: str) -> bool:
    return any(row[1] == column and row[3] for row in con.execute(f'PRAGMA "{db}".table_info("{table}")'))


def _append(con: sqlite3.Connection, db: str, table: str, item: str) -> None:
    edit_definition(con, db, table, lambda items: items + [item])


def null_aware_unique_index(con: sqlite3.Connection, db: str, table: str, name: str, columns: list[str]) -> None:
    """The index that makes a composite UNIQUE key Oracle's: two rows whose non-NULL key values are equal and
    whose NULLs are in the same columns are duplicates ((1, NULL) twice is ORA-00001; SQLite takes any NULL
    as distinct); only rows with every key column NULL may repeat. NULL is written as a value no column holds
    (a zero-byte blob), for rows with a non-NULL key value. CREATE TABLE and ADD CONSTRAINT both use it."""
    some = " OR ".join(f'"{c}" IS NOT NULL' for c in columns)
    con.execute(f'CREATE UNIQUE INDEX "{db}"."{name}$NULLS" ON "{table}" ({_null_keys(columns)}) WHERE {some}')


def _null_keys(columns: list[str]) -> str:
    return ", ".join(f"ifnull(\"{c}\", x'00')" for c in columns)


def drop_constraint(con: sqlite3.Connection, db: str, owner: str, table: str, name: str, cascade: bool,
                    db_of: Callable[[str], str]) -> None:
    """``ALTER TABLE t DROP CONSTRAINT name [CASCADE]`` (``DROP PRIMARY KEY`` / ``DROP UNIQUE (cols)`` name theirs).

    ORA-02443 for a name the table lacks; a key foreign keys reference is ORA-02273 unless CASCADE, which drops
    them first. What enforced the constraint goes: a key's indexes and NOT NULL triggers (a key ALTER TABLE
    added; one CREATE TABLE declared is part of SQLite's table and is ORA-03001), a NOT NULL, a CHECK or a
    foreign key in the table's definition (SQLite's documented schema rewrite).
    """
    constraints = catalog.table_constraints(con, owner, table)
    if name not in constraints:
        raise error(ERR_NO_SUCH_CONSTRAINT)
    kind, columns = constraints[name]
    if kind in ("P", "U"):
        children = con.execute("SELECT OWNER, TABLE_NAME, CONSTRAINT_NAME FROM LITECAT.CONSTRAINTS WHERE R_OWNER = ? "
                               "AND R_CONSTRAINT_NAME = ?", (owner, name)).fetchall()
        if children and not cascade:
            raise error(ERR_KEY_REFERENCED)
        suffix = "$PK" if kind == "P" else "$UK"
        if not con.execute(f"SELECT 1 FROM \"{db}\".sqlite_master WHERE type = 'index' AND name = ?",
                           (name + suffix,)).fetchone():
            raise error(ERR_UNSUPPORTED, construct=f"DROP CONSTRAINT {name}: a key CREATE TABLE declared is part of "
                                                   f"SQLite's table (lite drops keys ALTER TABLE ... ADD CONSTRAINT "
                                                   f"added)")
        for child_owner, child_table, child in children:
            drop_constraint(con, db_of(child_owner), child_owner, child_table, child, False, db_of)
        for index in (suffix, "$NULLS"):
            con.execute(f'DROP INDEX IF EXISTS "{db}"."{name}{index}"')
        if kind == "P":
            for column in columns:
                for event in ("INSERT", "UPDATE"):
                    con.execute(f'DROP TRIGGER IF EXISTS "{db}"."{table}__{column}__PK_{event}"')
                if not _declared_not_null(con, db, table, column) and not con.execute(
                        "SELECT 1 FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND TABLE_NAME = ? AND CONSTRAINT_TYPE = 'C' "
                        "AND SEARCH_CONDITION = ?", (owner, table, f'"{column}" IS NOT NULL')).fetchone():
                    con.execute("UPDATE LITECAT.COLUMNS SET NULLABLE = 'Y' WHERE OWNER = ? AND TABLE_NAME = ? "
                                "AND COLUMN_NAME = ?", (owner, table, column))
    else:
        condition = con.execute("SELECT SEARCH_CONDITION FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND "
                                "CONSTRAINT_NAME = ?", (owner, name)).fetchone()[0]
        if kind == "C" and len(columns) == 1 and condition == f'"{columns[0]}" IS NOT NULL':
            drop_not_null(con, db, owner, table, columns[0])
        else:
            _remove_from_definition(con, db, owner, table, name, kind, columns)
    for target in ("CONSTRAINTS", "CONS_COLUMNS"):
        con.execute(f"DELETE FROM LITECAT.{target} WHERE OWNER = ? AND CONSTRAINT_NAME = ?", (owner, name))


def _remove_from_definition(con: sqlite3.Connection, db: str, owner: str, table: str, name: str, kind: str,
                            columns: list[str]) -> None:
    """Take a CHECK or FOREIGN KEY out of the table's CREATE TABLE text: the item lite wrote under the
    constraint's name, or the one unnamed item of its kind over exactly its columns."""
    word = "CHECK" if kind == "C" else "FOREIGN KEY"
    table_columns = list(catalog.column_types(con, owner, table))

    def edit(items: list[str]) -> list[str]:
        prefix = f'CONSTRAINT "{name}" '
        found = [i for i, item in enumerate(items)
                 if item.startswith(prefix) and item[len(prefix):].upper().startswith(word)]
        if not found:
            unnamed = [i for i, item in enumerate(items) if item.upper().startswith(word)
                       and _item_columns(item, kind, table_columns) == set(columns)]
            found = unnamed if len(unnamed) == 1 else []
        if len(found) != 1:
            raise error(ERR_UNSUPPORTED, construct=f"DROP CONSTRAINT {name}: a {word} written inside a column's "
                                                   f"definition (lite finds table-level ones and those it added)")
        return items[:found[0]] + items[found[0] + 1:]
    edit_definition(con, db, table, edit)


def _item_columns(item: str, kind: str, table_columns: list[str]) -> set[str]:
    """The columns a table-level CHECK names, or a FOREIGN KEY's own (referencing) columns."""
    if kind == "R":
        match = re.match(r'FOREIGN KEY\s*\(([^)]*)\)', item, re.I)
        return set(re.findall(r'"([^"]+)"', match.group(1))) if match else set()
    return named_columns(item, table_columns)
