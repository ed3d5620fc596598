"""The lite data dictionary: what Oracle's ALL_*/USER_* views show, kept in SQLite.

Column types, comments, indexes, mining models and spatial geometry metadata
are recorded in a catalog database attached as ``LITECAT``; per-connection TEMP
views expose them under Oracle's names and column names
(``ALL_TAB_COMMENTS.COMMENTS``, ``USER_MINING_MODELS.MINING_FUNCTION``, ...),
upper-case identifiers throughout. ``USER_SDO_GEOM_METADATA`` is the one view
learners write to, as in Oracle: INSTEAD OF triggers turn its INSERT, UPDATE
and DELETE into changes of the current user's rows of the catalog table.
"""

from __future__ import annotations

import re
import sqlite3
import zlib
from collections.abc import Callable
from dataclasses import dataclass

CATALOG_SCHEMA = "LITECAT"
ORACLE_SQL_VERSION = "23.0.0.0.0"   # the Oracle release whose SQL lite speaks
VERSION_BANNER = (f"Workshop lite engine: Oracle SQL {ORACLE_SQL_VERSION} on SQLite {sqlite3.sqlite_version} "
                  "(not an Oracle Database)")
SDO_METADATA_TABLE = "SDO_GEOM_METADATA_TABLE"

# CREATED (TABLES, VIEWS, INDEXES, SEQUENCES): when the object was created, UTC text as SQLite's datetime('now')
# writes it (ALL_OBJECTS shows it as a local DATE); NULL for a view, index or sequence created before lite
# recorded it (the column was added later: ensure_catalog).
CATALOG_DDL = [
    # SECONDARY = 'Y': a table a domain index created for itself (a spatial index's MDRT_…$ table),
    # listed by the dictionary views as Oracle lists it, never created by a learner's DDL.
    """CREATE TABLE IF NOT EXISTS LITECAT.TABLES (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, CREATED TEXT,
        SECONDARY TEXT NOT NULL DEFAULT 'N',
        PRIMARY KEY (OWNER, TABLE_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.COLUMNS (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, COLUMN_ID INTEGER NOT NULL,
        COLUMN_NAME TEXT NOT NULL, DATA_TYPE TEXT NOT NULL, TYPE_CLASS TEXT NOT NULL,
        DATA_LENGTH INTEGER, DATA_PRECISION INTEGER, DATA_SCALE INTEGER, NULLABLE TEXT NOT NULL,
        IDENTITY_COLUMN TEXT NOT NULL DEFAULT 'NO', VECTOR_DIM INTEGER, VECTOR_FORMAT TEXT,
        CHAR_USED TEXT,
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
        UNIQUENESS TEXT NOT NULL, ITYP_OWNER TEXT, ITYP_NAME TEXT, PARAMETERS TEXT, CREATED TEXT,
        PRIMARY KEY (OWNER, INDEX_NAME))""",
    # Sequences: numbers as text (NOMAXVALUE is 10^28 - 1, beyond SQLite's integers); NEXT_VALUE is the next
    # number NEXTVAL hands out (sequences.py), what USER_SEQUENCES shows as LAST_NUMBER without a cache.
    """CREATE TABLE IF NOT EXISTS LITECAT.SEQUENCES (
        SEQUENCE_OWNER TEXT NOT NULL, SEQUENCE_NAME TEXT NOT NULL, MIN_VALUE TEXT NOT NULL, MAX_VALUE TEXT NOT NULL,
        INCREMENT_BY TEXT NOT NULL, CYCLE_FLAG TEXT NOT NULL, CACHE_SIZE INTEGER NOT NULL, NEXT_VALUE TEXT NOT NULL,
        CREATED TEXT, PRIMARY KEY (SEQUENCE_OWNER, SEQUENCE_NAME))""",
    # A view's query as written after AS (USER_VIEWS.TEXT); its columns are in COLUMNS (views.py)
    """CREATE TABLE IF NOT EXISTS LITECAT.VIEWS (
        OWNER TEXT NOT NULL, VIEW_NAME TEXT NOT NULL, TEXT TEXT NOT NULL, CREATED TEXT,
        PRIMARY KEY (OWNER, VIEW_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.MINING_MODELS (
        OWNER TEXT NOT NULL, MODEL_NAME TEXT NOT NULL, MINING_FUNCTION TEXT NOT NULL,
        ALGORITHM TEXT NOT NULL, PATH TEXT NOT NULL, CREATION_DATE TEXT, MODEL_SIZE INTEGER,
        COMMENTS TEXT, PRIMARY KEY (OWNER, MODEL_NAME))""",
    # ALL_CONSTRAINTS / ALL_CONS_COLUMNS: P(rimary key), U(nique), R(eferential), C(heck, NOT NULL included)
    """CREATE TABLE IF NOT EXISTS LITECAT.CONSTRAINTS (
        OWNER TEXT NOT NULL, CONSTRAINT_NAME TEXT NOT NULL, CONSTRAINT_TYPE TEXT NOT NULL,
        TABLE_NAME TEXT NOT NULL, SEARCH_CONDITION TEXT, R_OWNER TEXT, R_CONSTRAINT_NAME TEXT,
        DELETE_RULE TEXT, GENERATED TEXT NOT NULL, PRIMARY KEY (OWNER, CONSTRAINT_NAME))""",
    """CREATE TABLE IF NOT EXISTS LITECAT.CONS_COLUMNS (
        OWNER TEXT NOT NULL, CONSTRAINT_NAME TEXT NOT NULL, TABLE_NAME TEXT NOT NULL,
        COLUMN_NAME TEXT NOT NULL, POSITION INTEGER, PRIMARY KEY (OWNER, CONSTRAINT_NAME, COLUMN_NAME))""",
    # Oracle keeps USER_SDO_GEOM_METADATA rows in MDSYS.SDO_GEOM_METADATA_TABLE, one set per owner.
    f"""CREATE TABLE IF NOT EXISTS LITECAT.{SDO_METADATA_TABLE} (
        OWNER TEXT NOT NULL, TABLE_NAME TEXT NOT NULL, COLUMN_NAME TEXT NOT NULL, DIMINFO TEXT,
        SRID INTEGER, PRIMARY KEY (OWNER, TABLE_NAME, COLUMN_NAME))""",
]

# ALL_TABLES' columns after OWNER. The statistics (NUM_ROWS, BLOCKS, EMPTY_BLOCKS, AVG_ROW_LEN, SAMPLE_SIZE,
# LAST_ANALYZED): lite gathers none, so they are NULL, as for a never-analyzed table. Lite has heap tables only:
# no index-organized (IOT_TYPE NULL), nested or read-only ones; a scanner's usual filters (nested = 'NO',
# iot_type IS NULL, dropped = 'NO', secondary = 'N') work as on Oracle.
_TABLE_COLUMNS = ("TABLE_NAME, 'USERS' AS TABLESPACE_NAME, NULL AS NUM_ROWS, NULL AS BLOCKS, NULL AS EMPTY_BLOCKS, "
                  "NULL AS AVG_ROW_LEN, NULL AS SAMPLE_SIZE, 'VALID' AS STATUS, 'YES' AS LOGGING, "
                  "NULL AS IOT_TYPE, 'NO' AS NESTED, 'NO' AS READ_ONLY, "
                  "SECONDARY, 'NO' AS DROPPED, NULL AS LAST_ANALYZED, 'NO' AS TEMPORARY, 'NO' AS PARTITIONED")
# ALL_INDEXES' and USER_INDEXES' last columns: lite's indexes are visible and unpartitioned, with no statistics
_INDEX_TAIL = ("'VALID' AS STATUS, 'VISIBLE' AS VISIBILITY, 'NO' AS PARTITIONED, NULL AS NUM_ROWS, "
               "NULL AS DISTINCT_KEYS, NULL AS LAST_ANALYZED")

# ALL_CONS_COLUMNS' and USER_CONS_COLUMNS' columns (both have OWNER, as in Oracle)
_CONS_COLUMNS_COLUMNS = "OWNER, CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, POSITION"

# ALL_CONSTRAINTS' columns after OWNER
_CONSTRAINT_COLUMNS = ("CONSTRAINT_NAME, CONSTRAINT_TYPE, TABLE_NAME, SEARCH_CONDITION, "
                       "SEARCH_CONDITION AS SEARCH_CONDITION_VC, R_OWNER, R_CONSTRAINT_NAME, DELETE_RULE, "
                       "'ENABLED' AS STATUS, "
                       "'VALIDATED' AS VALIDATED, GENERATED, "
                       "CASE WHEN CONSTRAINT_TYPE IN ('P', 'U') THEN CONSTRAINT_NAME END AS INDEX_NAME")


# Oracle dictionary views lite provides, with Oracle's column names.
_SEQUENCE_COLUMNS = ("SEQUENCE_NAME, MIN_VALUE, MAX_VALUE, INCREMENT_BY, CYCLE_FLAG, 'N' AS ORDER_FLAG, "
                     "CACHE_SIZE, NEXT_VALUE AS LAST_NUMBER")
# Tables and views, as ALL_TAB_COMMENTS lists them (TABLE_TYPE).
_OBJECTS = ("SELECT OWNER, TABLE_NAME, 'TABLE' AS TABLE_TYPE FROM LITECAT.TABLES "
            "UNION ALL SELECT OWNER, VIEW_NAME, 'VIEW' FROM LITECAT.VIEWS")


def _local_date(utc: str) -> str:
    """SQL for a catalog CREATED (UTC, datetime('now')'s text) as lite's DATE text in local time, as SYSDATE is."""
    return f"strftime('%Y-%m-%d %H:%M:%S.000000', {utc}, 'localtime')"


# ALL_OBJECTS' rows: every table (a domain index's MDRT_…$ and DR$ tables too, SECONDARY 'Y'), view, index (a
# key constraint's too, numbered from its constraint row), sequence and mining model the catalog records.
# OBJECT_ID is derived from the catalog row's rowid: rowid * 8 + a number
# per catalog table, so it is a positive integer, unique across the six tables and every schema (one catalog
# file), and the same for every connection; it stays with the object through ALTER TABLE ... RENAME, NEXTVAL,
# CREATE OR REPLACE VIEW (ddl.py keeps the row's rowid) and a model registered again (an upsert), as Oracle's
# object number does. (A new row gets one more than the largest rowid left, so an object created right after
# the newest one was dropped gets its number, where Oracle never reuses one; lite never VACUUMs the catalog,
# which could renumber rowids.) DATA_OBJECT_ID is the number of the object's segment: the table's or a B-tree
# index's own; views, sequences and mining models have no segment, nor do domain and vector indexes (Oracle
# keeps their data in other tables or in memory), so it is NULL for them.
_CREATED = _local_date("CREATED")
# Oracle enforces a primary key or unique constraint with a unique index, which it creates named as the
# constraint (unless an index on those columns exists already; lite always has its own, SQLite's). Those indexes
# are listed from the constraints: ALL_INDEXES, ALL_IND_COLUMNS and ALL_OBJECTS show them, created with the table.
_KEY_INDEX_WHERE = "CONSTRAINT_TYPE IN ('P', 'U')"
_INDEX_ROWS = (
    "SELECT OWNER, INDEX_NAME, INDEX_TYPE, TABLE_OWNER, TABLE_NAME, UNIQUENESS, ITYP_OWNER, ITYP_NAME, PARAMETERS "
    "FROM LITECAT.INDEXES UNION ALL SELECT OWNER, CONSTRAINT_NAME, 'NORMAL', OWNER, TABLE_NAME, 'UNIQUE', NULL, "
    f"NULL, NULL FROM LITECAT.CONSTRAINTS WHERE {_KEY_INDEX_WHERE}")
_OBJECT_ROWS = (
    "SELECT OWNER, TABLE_NAME AS OBJECT_NAME, rowid * 8 + 1 AS OBJECT_ID, rowid * 8 + 1 AS DATA_OBJECT_ID, "
    f"'TABLE' AS OBJECT_TYPE, {_CREATED} AS CREATED, SECONDARY FROM LITECAT.TABLES "
    f"UNION ALL SELECT OWNER, VIEW_NAME, rowid * 8 + 2, NULL, 'VIEW', {_CREATED}, 'N' FROM LITECAT.VIEWS "
    "UNION ALL SELECT OWNER, INDEX_NAME, rowid * 8 + 3, CASE WHEN INDEX_TYPE = 'NORMAL' THEN rowid * 8 + 3 END, "
    f"'INDEX', {_CREATED}, 'N' FROM LITECAT.INDEXES "
    f"UNION ALL SELECT SEQUENCE_OWNER, SEQUENCE_NAME, rowid * 8 + 4, NULL, 'SEQUENCE', {_CREATED}, 'N' "
    "FROM LITECAT.SEQUENCES "
    # CREATION_DATE is lite's DATE text already (connection.register_mining_model)
    "UNION ALL SELECT OWNER, MODEL_NAME, rowid * 8 + 5, NULL, 'MINING MODEL', CREATION_DATE, 'N' "
    "FROM LITECAT.MINING_MODELS "
    "UNION ALL SELECT k.OWNER, k.CONSTRAINT_NAME, k.rowid * 8 + 6, k.rowid * 8 + 6, 'INDEX', "
    f"{_local_date('t.CREATED')}, 'N' FROM LITECAT.CONSTRAINTS k LEFT JOIN LITECAT.TABLES t "
    f"ON t.OWNER = k.OWNER AND t.TABLE_NAME = k.TABLE_NAME WHERE k.{_KEY_INDEX_WHERE}")

# ALL_OBJECTS' columns after OWNER, in Oracle's order (Database Reference, ALL_OBJECTS; NAMESPACE, EDITION_NAME
# and the later columns are left out). LAST_DDL_TIME is CREATED: lite records no later DDL on an object.
# TIMESTAMP is CREATED as Oracle writes it there, 'YYYY-MM-DD:HH24:MI:SS'. Lite has no temporary tables
# (ORA-03001) and names no object itself (GENERATED 'N'); STATUS is 'VALID' as in ALL_TABLES (lite keeps no
# invalid object: a view's query is checked when it is created).
_OBJECT_COLUMNS = ("OBJECT_NAME, NULL AS SUBOBJECT_NAME, OBJECT_ID, DATA_OBJECT_ID, OBJECT_TYPE, CREATED, "
                   "CREATED AS LAST_DDL_TIME, substr(CREATED, 1, 10) || ':' || substr(CREATED, 12, 8) AS TIMESTAMP, "
                   "'VALID' AS STATUS, 'N' AS TEMPORARY, 'N' AS GENERATED, SECONDARY")

# Byte length and character length of a column, as ALL_TAB_COLUMNS shows them (DATA_LENGTH, CHAR_LENGTH): a
# `VARCHAR2(n CHAR)` column may take 4 bytes a character (AL32UTF8); CHAR_LENGTH is the declared n.
_DATA_LENGTH = "CASE WHEN CHAR_USED = 'C' THEN 4 * DATA_LENGTH ELSE DATA_LENGTH END"
_CHAR_LENGTH = "CASE WHEN TYPE_CLASS IN ('VARCHAR2', 'CHAR') THEN DATA_LENGTH ELSE 0 END"

# ALL_IND_COLUMNS' rows. LITECAT.INDEXES.COLUMN_NAMES holds the indexed columns' names joined by ',' in key
# order (ddl._create_index writes it; alter_columns splits it the same way, and renames a column in it); the
# recursive CTE splits it into one row per column, COLUMN_POSITION counting from 1. COLUMN_LENGTH and
# CHAR_LENGTH are the column's DATA_LENGTH and CHAR_LENGTH in ALL_TAB_COLUMNS (Oracle: the indexed length, in
# bytes, and the length in characters). Lite builds every index ascending (a DESC in CREATE INDEX is read and
# not kept), so DESCEND is 'ASC'.
_INDEX_COLUMN_ROWS = (
    "WITH RECURSIVE k(INDEX_OWNER, INDEX_NAME, TABLE_OWNER, TABLE_NAME, COLUMN_NAME, COLUMN_POSITION, REST) AS ("
    "SELECT OWNER, INDEX_NAME, TABLE_OWNER, TABLE_NAME, NULL, 0, COLUMN_NAMES || ',' FROM LITECAT.INDEXES "
    "UNION ALL SELECT INDEX_OWNER, INDEX_NAME, TABLE_OWNER, TABLE_NAME, substr(REST, 1, instr(REST, ',') - 1), "
    "COLUMN_POSITION + 1, substr(REST, instr(REST, ',') + 1) FROM k WHERE REST <> ''), "
    # the key constraints' indexes (above): their columns in key order
    "ix AS (SELECT INDEX_OWNER, INDEX_NAME, TABLE_OWNER, TABLE_NAME, COLUMN_NAME, COLUMN_POSITION FROM k "
    "WHERE COLUMN_POSITION > 0 UNION ALL SELECT cc.OWNER, cc.CONSTRAINT_NAME, cc.OWNER, cc.TABLE_NAME, "
    "cc.COLUMN_NAME, cc.POSITION FROM LITECAT.CONS_COLUMNS cc JOIN LITECAT.CONSTRAINTS kc "
    f"ON kc.OWNER = cc.OWNER AND kc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME WHERE kc.{_KEY_INDEX_WHERE}) "
    "SELECT ix.INDEX_OWNER, ix.INDEX_NAME, ix.TABLE_OWNER, ix.TABLE_NAME, ix.COLUMN_NAME, ix.COLUMN_POSITION, "
    f"{_DATA_LENGTH} AS COLUMN_LENGTH, {_CHAR_LENGTH} AS CHAR_LENGTH, 'ASC' AS DESCEND "
    "FROM ix LEFT JOIN LITECAT.COLUMNS c ON c.OWNER = ix.TABLE_OWNER AND c.TABLE_NAME = ix.TABLE_NAME "
    "AND c.COLUMN_NAME = ix.COLUMN_NAME")
# USER_IND_COLUMNS' columns; ALL_IND_COLUMNS adds INDEX_OWNER first and TABLE_OWNER after INDEX_NAME (Oracle)
_IND_COLUMN_COLUMNS = "COLUMN_NAME, COLUMN_POSITION, COLUMN_LENGTH, CHAR_LENGTH, DESCEND"


def dictionary_views(user: str) -> dict[str, str]:
    """TEMP view name -> SELECT body, for the current ``user``."""
    u = user.replace("'", "''")
    # DATA_LENGTH is in bytes, CHAR_LENGTH the declared n, CHAR_USED 'B' or 'C', as in Oracle's views.
    cols = (f"OWNER, TABLE_NAME, COLUMN_NAME, DATA_TYPE, {_DATA_LENGTH} AS DATA_LENGTH, "
            "DATA_PRECISION, DATA_SCALE, NULLABLE, COLUMN_ID, IDENTITY_COLUMN, "
            f"{_CHAR_LENGTH} AS CHAR_LENGTH, "
            "CASE WHEN TYPE_CLASS IN ('VARCHAR2', 'CHAR') THEN COALESCE(CHAR_USED, 'B') END AS CHAR_USED, "
            # the DEFAULT as lite read it (keywords upper-cased; Oracle keeps the text as typed); NULL for an
            # identity column (Oracle: its sequence's NEXTVAL) and for a column of an older WORKSHOP_HOME
            "DATA_DEFAULT, COALESCE(DEFAULT_ON_NULL, 'NO') AS DEFAULT_ON_NULL")
    # *_TAB_COLS: Oracle's *_TAB_COLUMNS with the hidden, virtual and system-generated columns too, which
    # lite's tables never have, so every column is a visible one the user declared
    tab_cols = (f"{cols}, 'NO' AS HIDDEN_COLUMN, 'NO' AS VIRTUAL_COLUMN, COLUMN_ID AS SEGMENT_COLUMN_ID, "
                "COLUMN_ID AS INTERNAL_COLUMN_ID, COLUMN_NAME AS QUALIFIED_COL_NAME, 'YES' AS USER_GENERATED")
    return {
        "DUAL": "SELECT 'X' AS DUMMY",
        # the users that own tables, and the connected one; CREATED: when its first table was (lite keeps no
        # account records; NULL for a user without tables)
        "ALL_USERS": f"SELECT USERNAME, MIN(CREATED) AS CREATED FROM (SELECT OWNER AS USERNAME, {_CREATED} AS CREATED "
                     f"FROM LITECAT.TABLES UNION ALL SELECT '{u}', NULL) GROUP BY USERNAME",
        # lite says what it is: the Oracle SQL it speaks, on SQLite, not an Oracle Database
        "V$VERSION": f"SELECT '{VERSION_BANNER}' AS BANNER, '{VERSION_BANNER}' || ' Version {ORACLE_SQL_VERSION}' "
                     f"AS BANNER_FULL, '{VERSION_BANNER}' AS BANNER_LEGACY, 0 AS CON_ID",
        "ALL_TABLES": f"SELECT OWNER, {_TABLE_COLUMNS} FROM LITECAT.TABLES",
        "USER_TABLES": f"SELECT {_TABLE_COLUMNS} FROM LITECAT.TABLES WHERE OWNER = '{u}'",
        "ALL_CONSTRAINTS": f"SELECT OWNER, {_CONSTRAINT_COLUMNS} FROM LITECAT.CONSTRAINTS",
        "USER_CONSTRAINTS": f"SELECT {_CONSTRAINT_COLUMNS} FROM LITECAT.CONSTRAINTS WHERE OWNER = '{u}'",
        "ALL_CONS_COLUMNS": f"SELECT {_CONS_COLUMNS_COLUMNS} FROM LITECAT.CONS_COLUMNS",
        "USER_CONS_COLUMNS": f"SELECT {_CONS_COLUMNS_COLUMNS} FROM LITECAT.CONS_COLUMNS WHERE OWNER = '{u}'",
        "ALL_TAB_COMMENTS": f"SELECT t.OWNER, t.TABLE_NAME, t.TABLE_TYPE, c.COMMENTS FROM ({_OBJECTS}) t "
                            "LEFT JOIN LITECAT.TAB_COMMENTS c ON c.OWNER = t.OWNER AND c.TABLE_NAME = t.TABLE_NAME",
        "USER_TAB_COMMENTS": f"SELECT t.TABLE_NAME, t.TABLE_TYPE, c.COMMENTS FROM ({_OBJECTS}) t "
                             "LEFT JOIN LITECAT.TAB_COMMENTS c ON c.OWNER = t.OWNER AND c.TABLE_NAME = t.TABLE_NAME "
                             f"WHERE t.OWNER = '{u}'",
        "ALL_SEQUENCES": f"SELECT SEQUENCE_OWNER, {_SEQUENCE_COLUMNS} FROM LITECAT.SEQUENCES",
        "USER_SEQUENCES": f"SELECT {_SEQUENCE_COLUMNS} FROM LITECAT.SEQUENCES WHERE SEQUENCE_OWNER = '{u}'",
        "ALL_VIEWS": "SELECT OWNER, VIEW_NAME, LENGTH(TEXT) AS TEXT_LENGTH, TEXT FROM LITECAT.VIEWS",
        "USER_VIEWS": f"SELECT VIEW_NAME, LENGTH(TEXT) AS TEXT_LENGTH, TEXT FROM LITECAT.VIEWS WHERE OWNER = '{u}'",
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
        "ALL_TAB_COLS": f"SELECT {tab_cols} FROM LITECAT.COLUMNS",
        "USER_TAB_COLS": f"SELECT {tab_cols.replace('OWNER, ', '', 1)} FROM LITECAT.COLUMNS WHERE OWNER = '{u}'",
        "USER_MINING_MODELS": "SELECT MODEL_NAME, MINING_FUNCTION, ALGORITHM, CREATION_DATE, "
                              "MODEL_SIZE, COMMENTS FROM LITECAT.MINING_MODELS "
                              f"WHERE OWNER = '{u}'",
        "ALL_MINING_MODELS": "SELECT OWNER, MODEL_NAME, MINING_FUNCTION, ALGORITHM, CREATION_DATE, "
                             "MODEL_SIZE, COMMENTS FROM LITECAT.MINING_MODELS",
        "USER_INDEXES": "SELECT INDEX_NAME, INDEX_TYPE, TABLE_OWNER, TABLE_NAME, UNIQUENESS, "
                        f"ITYP_OWNER, ITYP_NAME, PARAMETERS, {_INDEX_TAIL}, "
                        "CASE WHEN INDEX_TYPE = 'DOMAIN' THEN 'VALID' END AS DOMIDX_STATUS "
                        f"FROM ({_INDEX_ROWS}) WHERE OWNER = '{u}'",
        "ALL_INDEXES": "SELECT OWNER, INDEX_NAME, INDEX_TYPE, TABLE_OWNER, TABLE_NAME, UNIQUENESS, "
                       f"ITYP_OWNER, ITYP_NAME, PARAMETERS, {_INDEX_TAIL} FROM ({_INDEX_ROWS})",
        "ALL_OBJECTS": f"SELECT OWNER, {_OBJECT_COLUMNS} FROM ({_OBJECT_ROWS})",
        "USER_OBJECTS": f"SELECT {_OBJECT_COLUMNS} FROM ({_OBJECT_ROWS}) WHERE OWNER = '{u}'",
        "ALL_IND_COLUMNS": f"SELECT INDEX_OWNER, INDEX_NAME, TABLE_OWNER, TABLE_NAME, {_IND_COLUMN_COLUMNS} "
                           f"FROM ({_INDEX_COLUMN_ROWS})",
        # Oracle: the columns of the user's indexes and of the indexes on the user's tables
        "USER_IND_COLUMNS": f"SELECT INDEX_NAME, TABLE_NAME, {_IND_COLUMN_COLUMNS} FROM ({_INDEX_COLUMN_ROWS}) "
                            f"WHERE INDEX_OWNER = '{u}' OR TABLE_OWNER = '{u}'",
        "USER_SDO_GEOM_METADATA": "SELECT TABLE_NAME, COLUMN_NAME, DIMINFO, SRID "
                                  f"FROM LITECAT.{SDO_METADATA_TABLE} WHERE OWNER = '{u}'",
        "ALL_SDO_GEOM_METADATA": "SELECT OWNER, TABLE_NAME, COLUMN_NAME, DIMINFO, SRID "
                                 f"FROM LITECAT.{SDO_METADATA_TABLE}",
    }


def _metadata_key(owner: str, new: bool = True) -> str:
    row = "NEW" if new else "OLD"
    table = f"UPPER({row}.TABLE_NAME)" if new else f"{row}.TABLE_NAME"
    column = f"UPPER({row}.COLUMN_NAME)" if new else f"{row}.COLUMN_NAME"
    return f"OWNER = '{owner}' AND TABLE_NAME = {table} AND COLUMN_NAME = {column}"


def view_triggers(user: str) -> dict[str, str]:
    """TEMP trigger name -> CREATE statement making the geometry metadata views behave as Oracle's.

    Writes to ``USER_SDO_GEOM_METADATA`` change the current user's rows, with
    table and column names upper-cased as Oracle stores them; a second row for
    the same column is ``ORA-13223`` and a DIMINFO that is not an
    ``SDO_DIM_ARRAY`` ``ORA-00932``. ``ALL_SDO_GEOM_METADATA`` is read-only
    (``ORA-01031``). SQLite allows no schema name on a trigger's INSERT, UPDATE
    or DELETE target, so those name the catalog table unqualified.
    """
    u = user.replace("'", "''")
    duplicate = ("SELECT ora_raise_error(13223, 'duplicate entry for ' || UPPER(NEW.TABLE_NAME) || '.' "
                 "|| UPPER(NEW.COLUMN_NAME) || ' in SDO_GEOM_METADATA') "
                 f"WHERE EXISTS (SELECT 1 FROM LITECAT.{SDO_METADATA_TABLE} WHERE {_metadata_key(u)})")
    view = "USER_SDO_GEOM_METADATA"
    triggers = {
        f"{view}__INSERT": (
            f'CREATE TEMP TRIGGER "{view}__INSERT" INSTEAD OF INSERT ON "{view}" BEGIN '
            "SELECT ora_sdo_check_diminfo(NEW.DIMINFO); "
            f"{duplicate}; "
            f"INSERT INTO {SDO_METADATA_TABLE} (OWNER, TABLE_NAME, COLUMN_NAME, DIMINFO, SRID) "
            f"VALUES ('{u}', UPPER(NEW.TABLE_NAME), UPPER(NEW.COLUMN_NAME), NEW.DIMINFO, NEW.SRID); END"),
        f"{view}__UPDATE": (
            f'CREATE TEMP TRIGGER "{view}__UPDATE" INSTEAD OF UPDATE ON "{view}" BEGIN '
            "SELECT ora_sdo_check_diminfo(NEW.DIMINFO); "
            f"{duplicate} AND (UPPER(NEW.TABLE_NAME) IS NOT OLD.TABLE_NAME "
            "OR UPPER(NEW.COLUMN_NAME) IS NOT OLD.COLUMN_NAME); "
            f"UPDATE {SDO_METADATA_TABLE} SET TABLE_NAME = UPPER(NEW.TABLE_NAME), "
            "COLUMN_NAME = UPPER(NEW.COLUMN_NAME), DIMINFO = NEW.DIMINFO, SRID = NEW.SRID "
            f"WHERE {_metadata_key(u, new=False)}; END"),
        f"{view}__DELETE": (
            f'CREATE TEMP TRIGGER "{view}__DELETE" INSTEAD OF DELETE ON "{view}" BEGIN '
            f"DELETE FROM {SDO_METADATA_TABLE} WHERE {_metadata_key(u, new=False)}; END"),
    }
    for action in ("INSERT", "UPDATE", "DELETE"):
        triggers[f"ALL_SDO_GEOM_METADATA__{action}"] = (
            f'CREATE TEMP TRIGGER "ALL_SDO_GEOM_METADATA__{action}" INSTEAD OF {action} '
            "ON \"ALL_SDO_GEOM_METADATA\" BEGIN SELECT ora_raise_error(1031, 'insufficient privileges'); END")
    return triggers


#: Oracle's types of each dictionary view's columns (for value conversion).
DICTIONARY_TYPES = {"CREATION_DATE": "DATE", "TEXT_LENGTH": "NUMBER", "MIN_VALUE": "NUMBER", "MAX_VALUE": "NUMBER",
                    "INCREMENT_BY": "NUMBER", "CACHE_SIZE": "NUMBER", "LAST_NUMBER": "NUMBER", "NUM_ROWS": "NUMBER",
                    "DATA_LENGTH": "NUMBER", "DATA_PRECISION": "NUMBER", "DATA_SCALE": "NUMBER", "COLUMN_ID": "NUMBER",
                    "MODEL_SIZE": "NUMBER", "SRID": "NUMBER", "LAST_ANALYZED": "DATE", "POSITION": "NUMBER",
                    "BLOCKS": "NUMBER", "EMPTY_BLOCKS": "NUMBER", "AVG_ROW_LEN": "NUMBER", "SAMPLE_SIZE": "NUMBER",
                    "DISTINCT_KEYS": "NUMBER", "CON_ID": "NUMBER",
                    "OBJECT_ID": "NUMBER", "DATA_OBJECT_ID": "NUMBER", "CREATED": "DATE", "LAST_DDL_TIME": "DATE",
                    "COLUMN_POSITION": "NUMBER", "COLUMN_LENGTH": "NUMBER", "CHAR_LENGTH": "NUMBER",
                    "SEGMENT_COLUMN_ID": "NUMBER", "INTERNAL_COLUMN_ID": "NUMBER"}

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
    "RAW": ("RAW", "BLOB"), "BOOLEAN": ("NUMBER", "INTEGER"),
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
    spatial_index: str | None = None   # name of the MDSYS spatial index on this column, if any
    # VARCHAR2/CHAR length semantics as ALL_TAB_COLUMNS.CHAR_USED shows it: 'B' (bytes, Oracle's default,
    # NLS_LENGTH_SEMANTICS=BYTE) or 'C' (declared `VARCHAR2(n CHAR)`); None for other types.
    char_used: str | None = None


# The geometry metadata views' columns, for DML through them (Oracle: MDSYS views over SDO_GEOM_METADATA_TABLE).
_METADATA_VIEW_COLUMNS = {
    "TABLE_NAME": ColumnType("VARCHAR2", "VARCHAR2", "TEXT", 32),
    "COLUMN_NAME": ColumnType("VARCHAR2", "VARCHAR2", "TEXT", 1024),
    "DIMINFO": ColumnType("SDO_DIM_ARRAY", "SDO_DIM_ARRAY", "TEXT"),
    "SRID": ColumnType("NUMBER", "NUMBER", "INTEGER", 22),
}
VIEW_COLUMNS = {
    "USER_SDO_GEOM_METADATA": _METADATA_VIEW_COLUMNS,
    "ALL_SDO_GEOM_METADATA": {"OWNER": ColumnType("VARCHAR2", "VARCHAR2", "TEXT", 32), **_METADATA_VIEW_COLUMNS},
}


_TYPE_RE = re.compile(r"^\s*([A-Z][A-Z_0-9 ]*?)\s*(?:\((.*)\))?\s*(?:WITH .*)?$", re.S)


def parse_type(oracle_text: str) -> ColumnType:
    """Interpret an Oracle type as rendered by the Oracle generator, e.g. 'VARCHAR2(100)'."""
    text = oracle_text.upper().strip()
    match = _TYPE_RE.match(text)
    if not match:
        raise ValueError(oracle_text)
    base, args = match.group(1).strip(), match.group(2)
    written = base
    if base.startswith("TIMESTAMP"):
        base = "TIMESTAMP"
    if base not in _TYPE_MAP:
        raise KeyError(base)
    type_class, sqlite_type = _TYPE_MAP[base]
    parts = [a.strip() for a in args.split(",")] if args else []
    length = precision = scale = dim = None
    char_used = None
    if type_class in ("VARCHAR2", "CHAR"):
        char_used = "C" if parts and parts[0].endswith("CHAR") else "B"
    if type_class in ("VARCHAR2", "CHAR") and parts:
        length = int(re.sub(r"\D", "", parts[0]) or 0)
    elif base == "RAW" and parts:
        length = int(parts[0])   # bytes; what a RAW(n) column stores is checked against it (raw.py)
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
    if written == "TIMESTAMP" and len(parts) == 1 and re.fullmatch(r"\d", parts[0]):
        # TIMESTAMP(p): recorded as written, so values are rounded to p fractional digits (translate.py)
        data_type = f"TIMESTAMP({parts[0]})"
    if length is None:
        length = {"NUMBER": 22, "DATE": 7, "TIMESTAMP": 11, "CLOB": 4000, "JSON": 8200,
                  "BINARY_DOUBLE": 8}.get(type_class)
    return ColumnType(data_type, type_class, sqlite_type, length, precision, scale, dim, vector_format,
                      char_used=char_used)


# Columns newer lite versions record, added to an older WORKSHOP_HOME's catalog: (table, column, definition)
_ADDED_COLUMNS = (
    ("COLUMNS", "VECTOR_FORMAT", "TEXT"), ("COLUMNS", "CHAR_USED", "TEXT"),
    ("TABLES", "SECONDARY", "TEXT NOT NULL DEFAULT 'N'"),
    ("VIEWS", "CREATED", "TEXT"), ("INDEXES", "CREATED", "TEXT"), ("SEQUENCES", "CREATED", "TEXT"),
    ("COLUMNS", "DATA_DEFAULT", "TEXT"), ("COLUMNS", "DEFAULT_ON_NULL", "TEXT"),
)


def ensure_catalog(con: sqlite3.Connection) -> None:
    """Create the catalog tables if this WORKSHOP_HOME is new (and add columns newer lite versions record)."""
    for ddl in CATALOG_DDL:
        con.execute(ddl)
    for table, column, definition in _ADDED_COLUMNS:
        known = {row[1] for row in con.execute(f"PRAGMA {CATALOG_SCHEMA}.table_info({table})")}
        if column not in known:
            con.execute(f"ALTER TABLE {CATALOG_SCHEMA}.{table} ADD COLUMN {column} {definition}")


def install_views(con: sqlite3.Connection, user: str) -> None:
    """(Re)create the per-connection TEMP dictionary views for ``user`` (and the triggers of the writable ones)."""
    for name, body in dictionary_views(user).items():
        con.execute(f'DROP VIEW IF EXISTS temp."{name}"')  # drops its triggers too
        con.execute(f'CREATE TEMP VIEW "{name}" AS {body}')
    for create in view_triggers(user).values():
        con.execute(create)


def record_column(con: sqlite3.Connection, owner: str, table: str, position: int, cname: str, ctype: ColumnType, *,
                  nullable: bool, identity: bool = False, default: str | None = None, on_null: bool = False) -> None:
    """One column in LITECAT.COLUMNS, which ALL_TAB_COLUMNS and the translator's types read (``default``: the
    DEFAULT clause as written, in Oracle SQL, which ALL_TAB_COLUMNS.DATA_DEFAULT shows)."""
    con.execute(
        "INSERT INTO LITECAT.COLUMNS (OWNER, TABLE_NAME, COLUMN_ID, COLUMN_NAME, DATA_TYPE, TYPE_CLASS, "
        "DATA_LENGTH, DATA_PRECISION, DATA_SCALE, NULLABLE, IDENTITY_COLUMN, VECTOR_DIM, VECTOR_FORMAT, "
        "CHAR_USED, DATA_DEFAULT, DEFAULT_ON_NULL) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (owner, table, position, cname, ctype.data_type, ctype.type_class, ctype.length, ctype.precision,
         ctype.scale, "Y" if nullable else "N", "YES" if identity else "NO", ctype.vector_dim, ctype.vector_format,
         ctype.char_used, default, "YES" if on_null else "NO"))


def column_default(con: sqlite3.Connection, db: str, owner: str, table: str, column: str) -> tuple[str | None, bool]:
    """``(DEFAULT as Oracle SQL or None, unrecorded)`` for ``owner.table.column`` (ALL_TAB_COLUMNS.DATA_DEFAULT).

    ``unrecorded``: SQLite's schema has a default the catalog lacks (a column an older lite created), which the
    caller refuses rather than answer with NULL.
    """
    row = con.execute("SELECT DATA_DEFAULT FROM LITECAT.COLUMNS WHERE OWNER = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?",
                      (owner, table, column)).fetchone()
    if row is not None and row[0] is not None:
        return str(row[0]), False
    stored = {r[1]: r[4] for r in con.execute(f'PRAGMA "{db}".table_info("{table}")')}
    return None, stored.get(column) is not None


def key_index_exists(con: sqlite3.Connection, owner: str, name: str) -> bool:
    """Whether ``owner.name`` is the index of a primary key or unique constraint (the views list them above)."""
    return con.execute(f"SELECT 1 FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND CONSTRAINT_NAME = ? "
                       f"AND {_KEY_INDEX_WHERE}", (owner, name)).fetchone() is not None


def column_types(con: sqlite3.Connection, owner: str, table: str) -> dict[str, ColumnType]:
    """Column name -> ColumnType for one table, in column order (empty when unknown).

    The geometry metadata views are listed too (under any owner: a qualified
    name such as ``SUPPLYCHAIN.USER_SDO_GEOM_METADATA`` still fails in SQLite
    with ORA-00942), so INSERT, UPDATE and DELETE can address them.
    """
    if table in VIEW_COLUMNS:
        return dict(VIEW_COLUMNS[table])
    rows = con.execute(
        "SELECT c.COLUMN_NAME, c.DATA_TYPE, c.TYPE_CLASS, c.DATA_LENGTH, c.DATA_PRECISION, c.DATA_SCALE, "
        "c.VECTOR_DIM, c.VECTOR_FORMAT, (SELECT MIN(i.INDEX_NAME) FROM LITECAT.INDEXES i "
        "WHERE i.TABLE_OWNER = c.OWNER AND i.TABLE_NAME = c.TABLE_NAME AND i.COLUMN_NAMES = c.COLUMN_NAME "
        "AND i.INDEX_TYPE = 'DOMAIN' AND i.ITYP_OWNER = 'MDSYS'), "
        "CASE WHEN c.TYPE_CLASS IN ('VARCHAR2', 'CHAR') THEN COALESCE(c.CHAR_USED, 'B') END "
        "FROM LITECAT.COLUMNS c WHERE c.OWNER = ? AND c.TABLE_NAME = ? ORDER BY c.COLUMN_ID",
        (owner, table),
    ).fetchall()
    return {
        r[0]: ColumnType(r[1], r[2], "", r[3], r[4], r[5], r[6], r[7], r[8], r[9]) for r in rows
    }


def geometry_metadata(con: sqlite3.Connection, owner: str, table: str,
                      column: str) -> tuple[str | None, int | None] | None:
    """(DIMINFO, SRID) of ``owner``'s USER_SDO_GEOM_METADATA row for ``table.column``, or None without one."""
    row = con.execute(f"SELECT DIMINFO, SRID FROM LITECAT.{SDO_METADATA_TABLE} "
                      "WHERE OWNER = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?", (owner, table, column)).fetchone()
    return None if row is None else (row[0], row[1])


def view_text(con: sqlite3.Connection, owner: str, view: str) -> str | None:
    """The query text of view ``owner.view``, or None when there is no such view."""
    row = con.execute("SELECT TEXT FROM LITECAT.VIEWS WHERE OWNER = ? AND VIEW_NAME = ?", (owner, view)).fetchone()
    return row[0] if row else None


def forget_view(con: sqlite3.Connection, owner: str, view: str, *, keep_comments: bool = False) -> None:
    """Remove a dropped view's catalog rows (a replaced one's, ``keep_comments``: all but its comments)."""
    for name in ("COLUMNS",) if keep_comments else ("COLUMNS", "TAB_COMMENTS", "COL_COMMENTS"):
        con.execute(f"DELETE FROM LITECAT.{name} WHERE OWNER = ? AND TABLE_NAME = ?", (owner, view))
    con.execute("DELETE FROM LITECAT.VIEWS WHERE OWNER = ? AND VIEW_NAME = ?", (owner, view))


def sequence_exists(con: sqlite3.Connection, owner: str, name: str) -> bool:
    """Whether ``owner`` has a sequence called ``name``."""
    return con.execute("SELECT 1 FROM LITECAT.SEQUENCES WHERE SEQUENCE_OWNER = ? AND SEQUENCE_NAME = ?",
                       (owner, name)).fetchone() is not None


def name_used(con: sqlite3.Connection, owner: str, name: str) -> bool:
    """Whether ``owner`` has a table, view or sequence called ``name`` (one namespace, as in Oracle: ORA-00955)."""
    return table_exists(con, owner, name) or view_text(con, owner, name) is not None \
        or sequence_exists(con, owner, name)


def table_exists(con: sqlite3.Connection, owner: str, table: str) -> bool:
    """True when the catalog knows ``owner.table``."""
    return con.execute(
        "SELECT 1 FROM LITECAT.TABLES WHERE OWNER = ? AND TABLE_NAME = ?", (owner, table)
    ).fetchone() is not None


def record_constraints(con: sqlite3.Connection, owner: str, table: str,
                       constraints: list[tuple[str | None, str, list[str], str | None, tuple | None]]) -> list[str]:
    """Record a new table's constraints for ALL_CONSTRAINTS / ALL_CONS_COLUMNS.

    Each is ``(name or None, type P|U|R|C, columns, search condition, reference)`` with ``reference``
    ``(r_owner, r_table, r_columns or [], delete_rule)`` for R. An unnamed constraint gets Oracle's kind of
    generated name (``SYS_C`` and a number); a foreign key points at the referenced table's primary or unique
    key over the same columns (its primary key when the REFERENCES clause names none). Returns the names.
    """
    names = []
    for name, ctype, columns, condition, reference in constraints:
        generated = "USER NAME"
        if not name:
            number = con.execute("SELECT COUNT(*) FROM LITECAT.CONSTRAINTS").fetchone()[0] + 1
            name, generated = f"SYS_C{number:07d}", "GENERATED NAME"
            while con.execute("SELECT 1 FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND CONSTRAINT_NAME = ?",
                              (owner, name)).fetchone():
                number += 1
                name = f"SYS_C{number:07d}"
        r_owner = r_name = delete_rule = None
        if reference is not None:
            r_owner, r_table, r_columns, delete_rule = reference
            keys = con.execute(
                "SELECT c.CONSTRAINT_NAME, c.CONSTRAINT_TYPE, GROUP_CONCAT(k.COLUMN_NAME, ',') FROM LITECAT.CONSTRAINTS c "
                "JOIN (SELECT * FROM LITECAT.CONS_COLUMNS ORDER BY POSITION) k ON k.OWNER = c.OWNER "
                "AND k.CONSTRAINT_NAME = c.CONSTRAINT_NAME WHERE c.OWNER = ? AND c.TABLE_NAME = ? "
                "AND c.CONSTRAINT_TYPE IN ('P', 'U') GROUP BY c.CONSTRAINT_NAME, c.CONSTRAINT_TYPE",
                (r_owner, r_table)).fetchall()
            for key_name, key_type, key_columns in keys:
                if (r_columns and key_columns.split(",") == r_columns) or (not r_columns and key_type == "P"):
                    r_name = key_name
                    break
            delete_rule = delete_rule or "NO ACTION"
        con.execute("INSERT INTO LITECAT.CONSTRAINTS (OWNER, CONSTRAINT_NAME, CONSTRAINT_TYPE, TABLE_NAME, "
                    "SEARCH_CONDITION, R_OWNER, R_CONSTRAINT_NAME, DELETE_RULE, GENERATED) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (owner, name, ctype, table, condition, r_owner, r_name, delete_rule, generated))
        for position, column in enumerate(columns, start=1):
            con.execute("INSERT OR IGNORE INTO LITECAT.CONS_COLUMNS (OWNER, CONSTRAINT_NAME, TABLE_NAME, "
                        "COLUMN_NAME, POSITION) VALUES (?, ?, ?, ?, ?)",
                        (owner, name, table, column, position if ctype in ("P", "U", "R") else None))
        names.append(name)
    return names


def table_constraints(con: sqlite3.Connection, owner: str, table: str) -> dict[str, tuple[str, list[str]]]:
    """Constraint name -> (type P|U|R|C, its columns in key order) for ``owner.table``."""
    found: dict[str, tuple[str, list[str]]] = {}
    for name, kind, column in con.execute(
            "SELECT c.CONSTRAINT_NAME, c.CONSTRAINT_TYPE, k.COLUMN_NAME FROM LITECAT.CONSTRAINTS c "
            "LEFT JOIN LITECAT.CONS_COLUMNS k ON k.OWNER = c.OWNER AND k.CONSTRAINT_NAME = c.CONSTRAINT_NAME "
            "WHERE c.OWNER = ? AND c.TABLE_NAME = ? ORDER BY k.POSITION", (owner, table)):
        found.setdefault(name, (kind, []))[1].extend([column] if column else [])
    return found


def forget_table(con: sqlite3.Connection, owner: str, table: str) -> None:
    """Remove every catalog row about a dropped table."""
    for name in ("TABLES", "COLUMNS", "TAB_COMMENTS", "COL_COMMENTS", "CONSTRAINTS", "CONS_COLUMNS"):
        con.execute(f"DELETE FROM LITECAT.{name} WHERE OWNER = ? AND TABLE_NAME = ?", (owner, table))
    con.execute("DELETE FROM LITECAT.INDEXES WHERE TABLE_OWNER = ? AND TABLE_NAME = ?", (owner, table))


# --- secondary objects: the tables a domain index keeps in the schema -----------------------------
#
# Oracle's domain indexes keep their data in tables of their own, which USER_TABLES and ALL_TABLES list
# with SECONDARY = 'Y' (Data Cartridge secondary objects) and which go when the index (or its table) goes:
#
# * a spatial index (MDSYS.SPATIAL_INDEX_V2) keeps its R-tree in MDRT_<hex>$ (NODE_ID, NODE_LEVEL, INFO), in
#   the schema of the indexed table's owner;
# * an Oracle Text CONTEXT index keeps its inverted index in DR$<index>$I (the tokens), $K (rowid -> docid),
#   $N (deleted docids) and $R (docid -> rowid), in the index owner's schema (Text Reference; the basic set:
#   preferences lite refuses, such as a substring index, would add more).
#
# Lite creates the same tables, empty (its R-tree is SQLite's and its text index is in memory, lite/text.py),
# so that a scanner or a check reading the dictionary meets the same catalog in both backends: a table scan
# that leaves out MDRT_% by name and forgets DR$ lists internals here as on Oracle.

SPATIAL_INDEX_TABLE_COLUMNS = (
    ("NODE_ID", ColumnType("NUMBER", "NUMBER", "NUMERIC", 22)),
    ("NODE_LEVEL", ColumnType("NUMBER", "NUMBER", "NUMERIC", 22)),
    ("INFO", ColumnType("BLOB", "BLOB", "BLOB", 4000)),
)

_NUMBER_10 = ColumnType("NUMBER", "NUMBER", "NUMERIC", 22, 10, 0)
_NUMBER_38 = ColumnType("NUMBER", "NUMBER", "NUMERIC", 22, 38, 0)
_BLOB = ColumnType("BLOB", "BLOB", "BLOB", 4000)
TEXT_INDEX_TABLE_COLUMNS = {   # DR$<index>$<suffix> -> its columns, as Oracle Text creates them
    "I": (("TOKEN_TEXT", ColumnType("VARCHAR2", "VARCHAR2", "TEXT", 64, char_used="B")),
          ("TOKEN_TYPE", _NUMBER_10), ("TOKEN_FIRST", _NUMBER_10), ("TOKEN_LAST", _NUMBER_10),
          ("TOKEN_COUNT", _NUMBER_10), ("TOKEN_INFO", _BLOB)),
    "K": (("DOCID", _NUMBER_38), ("TEXTKEY", ColumnType("ROWID", "VARCHAR2", "TEXT", 10))),
    "N": (("NLT_DOCID", _NUMBER_38), ("NLT_MARK", ColumnType("CHAR", "CHAR", "TEXT", 1, char_used="B"))),
    "R": (("ROW_NO", ColumnType("NUMBER", "NUMBER", "NUMERIC", 22, 3, 0)), ("DATA", _BLOB)),
}


def spatial_index_table_name(owner: str, index: str) -> str:
    """``MDRT_<hex>$`` for ``owner.index`` (Oracle derives the hex from an object number; lite from the name)."""
    return f"MDRT_{zlib.crc32(f'{owner}.{index}'.encode('utf-8')) & 0xFFFFF:X}$"


def text_index_table_names(index: str) -> list[str]:
    """``DR$<index>$I``, ``$K``, ``$N``, ``$R``: the tables of Oracle Text CONTEXT index ``index``."""
    return [f"DR${index}${suffix}" for suffix in TEXT_INDEX_TABLE_COLUMNS]


def _create_secondary_table(con: sqlite3.Connection, db: str, owner: str, name: str,
                            columns: tuple[tuple[str, ColumnType], ...]) -> None:
    """Create table ``owner.name`` (in SQLite database ``db``) and list it as SECONDARY = 'Y'."""
    cols = ", ".join(f'"{c}" {t.sqlite_type}' for c, t in columns)
    con.execute(f'CREATE TABLE IF NOT EXISTS "{db}"."{name}" ({cols})')
    forget_table(con, owner, name)
    con.execute("INSERT INTO LITECAT.TABLES (OWNER, TABLE_NAME, CREATED, SECONDARY) "
                "VALUES (?, ?, datetime('now'), 'Y')", (owner, name))
    for position, (cname, ctype) in enumerate(columns, start=1):
        record_column(con, owner, name, position, cname, ctype, nullable=True)


def _drop_secondary_table(con: sqlite3.Connection, db: str, owner: str, name: str) -> None:
    con.execute(f'DROP TABLE IF EXISTS "{db}"."{name}"')
    forget_table(con, owner, name)


def create_spatial_index_table(con: sqlite3.Connection, db: str, owner: str, index: str) -> str:
    """Create the spatial index's MDRT table (in SQLite database ``db``) and list it as SECONDARY = 'Y'."""
    name = spatial_index_table_name(owner, index)
    _create_secondary_table(con, db, owner, name, SPATIAL_INDEX_TABLE_COLUMNS)
    return name


def create_text_index_tables(con: sqlite3.Connection, db: str, owner: str, index: str) -> list[str]:
    """Create CONTEXT index ``owner.index``'s DR$ tables (in SQLite database ``db``), SECONDARY = 'Y'."""
    for name, columns in zip(text_index_table_names(index), TEXT_INDEX_TABLE_COLUMNS.values()):
        _create_secondary_table(con, db, owner, name, columns)
    return text_index_table_names(index)


def drop_index_tables(con: sqlite3.Connection, db_of: Callable[[str], str], owner: str, *, index: str | None = None,
                      table: str | None = None) -> None:
    """Drop the secondary tables of domain index ``owner.index``, or of every domain index on ``owner.table``.

    ``db_of(owner)`` names the SQLite database holding a schema. Called before
    the index's catalog row is forgotten: that row says which kind it is.
    """
    where, args = ("OWNER = ? AND INDEX_NAME = ?", (owner, index)) if index is not None else (
        "TABLE_OWNER = ? AND TABLE_NAME = ?", (owner, table))
    for index_owner, name, table_owner, ityp_owner in con.execute(
            f"SELECT OWNER, INDEX_NAME, TABLE_OWNER, ITYP_OWNER FROM LITECAT.INDEXES WHERE {where} "
            "AND INDEX_TYPE = 'DOMAIN'", args).fetchall():
        if ityp_owner == "MDSYS":
            _drop_secondary_table(con, db_of(table_owner), table_owner, spatial_index_table_name(table_owner, name))
        elif ityp_owner == "CTXSYS":
            for dr_table in text_index_table_names(name):
                _drop_secondary_table(con, db_of(index_owner), index_owner, dr_table)


def add_missing_text_index_tables(con: sqlite3.Connection, db_of: Callable[[str], str]) -> None:
    """Give CONTEXT indexes made before lite listed DR$ tables (older WORKSHOP_HOMEs) their tables."""
    missing = con.execute(
        "SELECT i.OWNER, i.INDEX_NAME FROM LITECAT.INDEXES i WHERE i.ITYP_OWNER = 'CTXSYS' AND NOT EXISTS "
        "(SELECT 1 FROM LITECAT.TABLES t WHERE t.OWNER = i.OWNER AND t.TABLE_NAME = 'DR$' || i.INDEX_NAME || '$I')"
    ).fetchall()
    if not missing:
        return
    con.execute("BEGIN IMMEDIATE")
    try:
        for owner, index in missing:
            create_text_index_tables(con, db_of(owner), owner, index)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
