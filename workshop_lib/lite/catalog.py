"""The lite data dictionary: what Oracle's ALL_*/USER_* views show, kept in SQLite.

Column types, comments, indexes and mining models are recorded in a catalog
database attached as ``LITECAT``; per-connection TEMP views expose them under
Oracle's names and column names (``ALL_TAB_COMMENTS.COMMENTS``,
``USER_MINING_MODELS.MINING_FUNCTION``, ...), upper-case identifiers throughout.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

CATALOG_SCHEMA = "LITECAT"

CATALOG_DDL = [
    """CREATE TABLE IF NOT EXISTS LITECAT.TABLES (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, CREATED TEXT,
        PRIMARY KEY (OWNER, TABLE_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.COLUMNS (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, COLUMN_ID INTEGER NOT NULL,
        COLUMN_NAME TEXT NOT NULL, DATA_TYPE TEXT NOT NULL, TYPE_CLASS TEXT NOT NULL,
        DATA_LENGTH INTEGER, DATA_PRECISION INTEGER, DATA_SCALE INTEGER, NULLABLE TEXT NOT NULL,
        IDENTITY_COLUMN TEXT NOT NULL DEFAULT 'NO', VECTOR_DIM INTEGER, VECTOR_FORMAT TEXT,
        PRIMARY KEY (OWNER, TABLE_NAME, COLUMN_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.TAB_COMMENTS (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, COMMENTS TEXT,
        PRIMARY KEY (OWNER, TABLE_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.COL_COMMENTS (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, COLUMN_NAME TEXT NOT NULL, COMMENTS TEXT,
        PRIMARY KEY (OWNER, TABLE_NAME, COLUMN_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.INDEXES (
        OWNER TEXT NOT NULL, INDEX_NAME TEXT NOT NULL, TABLE_OWNER TEXT NOT NULL,
        TABLE_NAME TEXT NOT NULL, COLUMN_NAMES TEXT NOT NULL, INDEX_TYPE TEXT NOT NULL,
        UNIQUENESS TEXT NOT NULL, ITYP_OWNER TEXT, ITYP_NAME TEXT, PARAMETERS TEXT,
        PRIMARY KEY (OWNER, INDEX_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.MINING_MODELS (
        OWNER TEXT NOT NULL, MODEL_NAME TEXT NOT NULL, MINING_FUNCTION TEXT NOT NULL,
        ALGORITHM TEXT NOT NULL, PATH TEXT NOT NULL, CREATION_DATE TEXT, MODEL_SIZE INTEGER,
        COMMENTS TEXT, PRIMARY KEY (OWNER, MODEL_NAME))""",
]

# Oracle dictionary views lite provides, with Oracle's column names.
def dictionary_views(user: str) -> dict[str, str]:
    """TEMP view name -> SELECT body, for the current ``user``."""
    u = user.replace("'", "''")
    cols = ("OWNER, TABLE_NAME, COLUMN_NAME, DATA_TYPE, DATA_LENGTH, DATA_PRECISION, "
            "DATA_SCALE, NULLABLE, COLUMN_ID, IDENTITY_COLUMN")
    return {
        "DUAL": "SELECT 'X' AS DUMMY",
        "ALL_USERS": "SELECT DISTINCT OWNER AS USERNAME FROM LITECAT.TABLES "
                     f"UNION SELECT '{u}'",
        "ALL_TABLES": "SELECT OWNER, TABLE_NAME, 'USERS' AS TABLESPACE_NAME, NULL AS NUM_ROWS, "
                      "'VALID' AS STATUS FROM LITECAT.TABLES",
        "USER_TABLES": "SELECT TABLE_NAME, 'USERS' AS TABLESPACE_NAME, NULL AS NUM_ROWS, 'VALID' AS STATUS "
                       f"FROM LITECAT.TABLES WHERE OWNER = '{u}'",
        "ALL_TAB_COMMENTS": "SELECT t.OWNER, t.TABLE_NAME, 'TABLE' AS TABLE_TYPE, c.COMMENTS "
                            "FROM LITECAT.TABLES t LEFT JOIN LITECAT.TAB_COMMENTS c "
                            "ON c.OWNER = t.OWNER AND c.TABLE_NAME = t.TABLE_NAME",
        "USER_TAB_COMMENTS": "SELECT t.TABLE_NAME, 'TABLE' AS TABLE_TYPE, c.COMMENTS "
                             "FROM LITECAT.TABLES t LEFT JOIN LITECAT.TAB_COMMENTS c "
                             "ON c.OWNER = t.OWNER AND c.TABLE_NAME = t.TABLE_NAME "
                             f"WHERE t.OWNER = '{u}'",
        "ALL_COL_COMMENTS": "SELECT k.OWNER, k.TABLE_NAME, k.COLUMN_NAME, c.COMMENTS "
                            "FROM LITECAT.COLUMNS k LEFT JOIN LITECAT.COL_COMMENTS c "
                            "ON c.OWNER = k.OWNER AND c.TABLE_NAME = k.TABLE_NAME "
                            "AND c.COLUMN_NAME = k.COLUMN_NAME",
        "USER_COL_COMMENTS": "SELECT k.TABLE_NAME, k.COLUMN_NAME, c.COMMENTS "
                             "FROM LITECAT.COLUMNS k LEFT JOIN LITECAT.COL_COMMENTS c "
                             "ON c.OWNER = k.OWNER AND c.TABLE_NAME = k.TABLE_NAME "
                             f"AND c.COLUMN_NAME = k.COLUMN_NAME WHERE k.OWNER = '{u}'",
        "ALL_TAB_COLUMNS": f"SELECT {cols} FROM LITECAT.COLUMNS",
        "USER_TAB_COLUMNS": f"SELECT {cols.replace('OWNER, ', '')} FROM LITECAT.COLUMNS "
                            f"WHERE OWNER = '{u}'",
        "USER_MINING_MODELS": "SELECT MODEL_NAME, MINING_FUNCTION, ALGORITHM, CREATION_DATE, "
                              "MODEL_SIZE, COMMENTS FROM LITECAT.MINING_MODELS "
                              f"WHERE OWNER = '{u}'",
        "ALL_MINING_MODELS": "SELECT OWNER, MODEL_NAME, MINING_FUNCTION, ALGORITHM, CREATION_DATE, "
                             "MODEL_SIZE, COMMENTS FROM LITECAT.MINING_MODELS",
        "USER_INDEXES": "SELECT INDEX_NAME, INDEX_TYPE, TABLE_OWNER, TABLE_NAME, UNIQUENESS, "
                        "ITYP_OWNER, ITYP_NAME, PARAMETERS, 'VALID' AS STATUS, "
                        "CASE WHEN INDEX_TYPE = 'DOMAIN' THEN 'VALID' END AS DOMIDX_STATUS "
                        f"FROM LITECAT.INDEXES WHERE OWNER = '{u}'",
        "ALL_INDEXES": "SELECT OWNER, INDEX_NAME, INDEX_TYPE, TABLE_OWNER, TABLE_NAME, UNIQUENESS, "
                       "ITYP_OWNER, ITYP_NAME, PARAMETERS, 'VALID' AS STATUS FROM LITECAT.INDEXES",
    }


#: Oracle's types of each dictionary view's columns (for value conversion).
DICTIONARY_TYPES = {"CREATION_DATE": "DATE", "NUM_ROWS": "NUMBER", "DATA_LENGTH": "NUMBER",
                    "DATA_PRECISION": "NUMBER", "DATA_SCALE": "NUMBER", "COLUMN_ID": "NUMBER",
                    "MODEL_SIZE": "NUMBER"}

# Oracle type name -> (type class used for value conversion, SQLite declared type)
_TYPE_MAP = {
    "NUMBER": ("NUMBER", "NUMERIC"), "INTEGER": ("NUMBER", "INTEGER"), "INT": ("NUMBER", "INTEGER"),
    "SMALLINT": ("NUMBER", "INTEGER"), "DECIMAL": ("NUMBER", "NUMERIC"), "NUMERIC": ("NUMBER", "NUMERIC"),
    "FLOAT": ("NUMBER", "REAL"), "REAL": ("NUMBER", "REAL"), "BINARY_DOUBLE": ("BINARY_DOUBLE", "REAL"),
    "BINARY_FLOAT": ("BINARY_DOUBLE", "REAL"), "DOUBLE PRECISION": ("NUMBER", "REAL"),
    "VARCHAR2": ("VARCHAR2", "TEXT"), "VARCHAR": ("VARCHAR2", "TEXT"), "NVARCHAR2": ("VARCHAR2", "TEXT"),
    "CHAR": ("CHAR", "TEXT"), "NCHAR": ("CHAR", "TEXT"), "CLOB": ("CLOB", "TEXT"), "NCLOB": ("CLOB", "TEXT"),
    "DATE": ("DATE", "TEXT"), "TIMESTAMP": ("TIMESTAMP", "TEXT"), "JSON": ("JSON", "TEXT"),
    "VECTOR": ("VECTOR", "BLOB"), "SDO_GEOMETRY": ("SDO_GEOMETRY", "TEXT"), "BLOB": ("BLOB", "BLOB"),
    "RAW": ("BLOB", "BLOB"), "BOOLEAN": ("NUMBER", "INTEGER"),
}


@dataclass(frozen=True)
class ColumnType:
    """An Oracle column type as the catalog records it."""

    data_type: str            # DATA_TYPE as Oracle shows it: NUMBER, VARCHAR2, TIMESTAMP(6), VECTOR, ...
    type_class: str           # conversion class: NUMBER, VARCHAR2, DATE, TIMESTAMP, JSON, VECTOR, ...
    sqlite_type: str          # declared type in SQLite (sets its affinity)
    length: int | None = None
    precision: int | None = None
    scale: int | None = None
    vector_dim: int | None = None
    vector_format: str | None = None   # FLOAT32 / FLOAT64 (None: any, written VECTOR or VECTOR(n, *))


_TYPE_RE = re.compile(r"^\s*([A-Z][A-Z_0-9 ]*?)\s*(?:\((.*)\))?\s*(?:WITH .*)?$", re.S)


def parse_type(oracle_text: str) -> ColumnType:
    """Interpret an Oracle type as rendered by the Oracle generator, e.g. 'VARCHAR2(100)'."""
    text = oracle_text.upper().strip()
    match = _TYPE_RE.match(text)
    if not match:
        raise ValueError(oracle_text)
    base, args = match.group(1).strip(), match.group(2)
    if base.startswith("TIMESTAMP"):
        base = "TIMESTAMP"
    if base not in _TYPE_MAP:
        raise KeyError(base)
    type_class, sqlite_type = _TYPE_MAP[base]
    parts = [a.strip() for a in args.split(",")] if args else []
    length = precision = scale = dim = None
    if type_class in ("VARCHAR2", "CHAR") and parts:
        length = int(re.sub(r"\D", "", parts[0]) or 0)
    elif base in ("NUMBER", "DECIMAL", "NUMERIC") and parts:
        precision = int(parts[0]) if parts[0] != "*" else None
        scale = int(parts[1]) if len(parts) > 1 else 0
        if scale == 0:
            sqlite_type = "INTEGER"
    vector_format = None
    if base == "VECTOR":
        if parts and parts[0] not in ("*", ""):
            dim = int(parts[0])
        if len(parts) > 1 and parts[1] != "*":
            vector_format = parts[1]
            if vector_format not in ("FLOAT32", "FLOAT64"):
                raise KeyError(f"VECTOR format {vector_format}")
    if base in ("INTEGER", "INT", "SMALLINT"):
        precision, scale = 38, 0
    data_type = {"TIMESTAMP": "TIMESTAMP(6)", "INTEGER": "NUMBER", "INT": "NUMBER", "SMALLINT": "NUMBER",
                 "DECIMAL": "NUMBER", "NUMERIC": "NUMBER", "VARCHAR": "VARCHAR2"}.get(base, base)
    if base == "BOOLEAN":
        data_type = "BOOLEAN"
    if length is None:
        length = {"NUMBER": 22, "DATE": 7, "TIMESTAMP": 11, "CLOB": 4000, "JSON": 8200,
                  "BINARY_DOUBLE": 8}.get(type_class)
    return ColumnType(data_type, type_class, sqlite_type, length, precision, scale, dim, vector_format)


def ensure_catalog(con: sqlite3.Connection) -> None:
    """Create the catalog tables if this WORKSHOP_HOME is new (and add columns newer lite versions record)."""
    for ddl in CATALOG_DDL:
        con.execute(ddl)
    known = {row[1] for row in con.execute(f"PRAGMA {CATALOG_SCHEMA}.table_info(COLUMNS)")}
    if "VECTOR_FORMAT" not in known:
        con.execute(f"ALTER TABLE {CATALOG_SCHEMA}.COLUMNS ADD COLUMN VECTOR_FORMAT TEXT")


def install_views(con: sqlite3.Connection, user: str) -> None:
    """(Re)create the per-connection TEMP dictionary views for ``user``."""
    for name, body in dictionary_views(user).items():
        con.execute(f'DROP VIEW IF EXISTS temp."{name}"')
        con.execute(f'CREATE TEMP VIEW "{name}" AS {body}')


def column_types(con: sqlite3.Connection, owner: str, table: str) -> dict[str, ColumnType]:
    """Column name -> ColumnType for one table, in column order (empty when unknown)."""
    rows = con.execute(
        "SELECT COLUMN_NAME, DATA_TYPE, TYPE_CLASS, DATA_LENGTH, DATA_PRECISION, DATA_SCALE, VECTOR_DIM, "
        "VECTOR_FORMAT "
        "FROM LITECAT.COLUMNS WHERE OWNER = ? AND TABLE_NAME = ? ORDER BY COLUMN_ID",
        (owner, table),
    ).fetchall()
    return {
        r[0]: ColumnType(r[1], r[2], "", r[3], r[4], r[5], r[6], r[7]) for r in rows
    }


def table_exists(con: sqlite3.Connection, owner: str, table: str) -> bool:
    """True when the catalog knows ``owner.table``."""
    return con.execute(
        "SELECT 1 FROM LITECAT.TABLES WHERE OWNER = ? AND TABLE_NAME = ?", (owner, table)
    ).fetchone() is not None


def forget_table(con: sqlite3.Connection, owner: str, table: str) -> None:
    """Remove every catalog row about a dropped table."""
    for name in ("TABLES", "COLUMNS", "TAB_COMMENTS", "COL_COMMENTS"):
        con.execute(f"DELETE FROM LITECAT.{name} WHERE OWNER = ? AND TABLE_NAME = ?", (owner, table))
    con.execute("DELETE FROM LITECAT.INDEXES WHERE TABLE_OWNER = ? AND TABLE_NAME = ?", (owner, table))
