"""Every error the lite engine raises, numbered in one place (python-oracledb's ``errors.py`` pattern).

Each ``ERR_*`` constant is an :class:`ErrorSpec`: the Oracle error number, the
message format and the hint format (``str.format`` fields, filled from the
keyword arguments of :func:`error`). Call sites write
``raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=table)`` instead of
composing the text inline, so the wording of an error is reviewed, tested
(tests/test_lite_errors.py) and documented here once.

Specs with ``unsupported=True`` are ORA-03001 refusals: their message is the
construct lite does not implement, raised as :class:`LiteNotSupportedError`
("unimplemented feature in the lite backend: <construct>").

Two kinds of errors arrive with their number and text already made, and are
only wrapped here: SQLite's own errors (:func:`from_sqlite` maps them with the
``_SQLITE_PATTERNS`` table below) and errors raised inside lite's SQL functions
or date-format parser, which carry ``ORA-NNNNN: text`` (:func:`from_function_error`,
:func:`passthrough`).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable

from .errors import LiteDatabaseError, LiteNotSupportedError
from .oracle_functions import ORACLE_FUNCTIONS


@dataclass(frozen=True)
class ErrorSpec:
    """One catalogue entry: Oracle error number, message format, optional hint format."""

    code: int
    message: str
    hint: str | None = None
    unsupported: bool = False   # an ORA-03001 refusal: ``message`` names the construct

    @property
    def full_code(self) -> str:
        return f"ORA-{self.code:05d}"


def _unsupported(construct: str, hint: str | None = None) -> ErrorSpec:
    return ErrorSpec(3001, construct, hint, unsupported=True)


def error(spec: ErrorSpec, **params: Any) -> LiteDatabaseError:
    """The exception for ``spec`` with its message and hint formatted from ``params`` (raise it)."""
    message = spec.message.format(**params)
    hint = spec.hint.format(**params) if spec.hint is not None else None
    if spec.unsupported:
        return LiteNotSupportedError(message, hint, code=spec.code)
    return LiteDatabaseError(spec.code, message, hint)


def passthrough(code: int, message: str, spec_for_hint: ErrorSpec | None = None) -> LiteDatabaseError:
    """An error whose number and text another table already made (a date-format error), with a catalogue hint."""
    return LiteDatabaseError(code, message, spec_for_hint.hint if spec_for_hint is not None else None)


# ----------------------------------------------------------------------------- shared hint texts
_HINT_SCHEMA = "check the name and schema (e.g. SUPPLYCHAIN.VESSELS); run ws.seed() if SUPPLYCHAIN is missing"
_HINT_UNSUPPORTED_STATEMENT = ("lite runs CREATE/DROP TABLE, ALTER TABLE ... ADD (columns) | ADD/DROP CONSTRAINT | "
                               "MODIFY | DROP COLUMN | RENAME COLUMN | RENAME TO, CREATE/DROP INDEX, COMMENT ON and "
                               "TRUNCATE "
                               "(constraint states such as DISABLE or NOVALIDATE are not read)")
_ODCI_INDEX_CREATE = "error occurred in the execution of ODCIINDEXCREATE routine"
_ODCI_INDEX_START = "error in executing ODCIIndexStart() routine\nORA-20000: Oracle Text error:\n"

# ----------------------------------------------------------------------------- names and objects
ERR_TABLE_DOES_NOT_EXIST = ErrorSpec(942, 'table or view "{owner}"."{table}" does not exist')
ERR_TABLE_DOES_NOT_EXIST_IN_QUERY = ErrorSpec(942, 'table or view "{owner}"."{table}" does not exist', _HINT_SCHEMA)
ERR_DICTIONARY_VIEW_NOT_IN_LITE = ErrorSpec(
    942, 'table or view "{owner}"."{table}" does not exist',
    "lite's data dictionary has no {table}{instead}; it has {views} (no synonyms, procedures, packages, triggers "
    "or types: docs/lite-engine.md, Dictionary views)")
ERR_DICTIONARY_READ_ONLY = ErrorSpec(
    1031, "insufficient privileges ({action} {name}: the data dictionary's, which every user may only read)",
    "the dictionary changes with DDL: COMMENT ON TABLE/COLUMN sets a comment, CREATE and DROP add and remove "
    "objects (USER_SDO_GEOM_METADATA is the one view that takes INSERT, UPDATE and DELETE)")
ERR_INVALID_IDENTIFIER = ErrorSpec(904, '"{name}": invalid identifier')
ERR_UNKNOWN_FUNCTION = ErrorSpec(
    904, '"{name}": invalid identifier',
    "no Oracle SQL function has this name: check its spelling, or whether it is a function of your schema "
    "that was never created")
ERR_NON_ORACLE_FUNCTION = ErrorSpec(904, '"{name}": invalid identifier ({name} is not an Oracle function)',
                                    "use {oracle_form}")
ERR_INVALID_METRIC = ErrorSpec(904, '"{metric}": invalid identifier (VECTOR_DISTANCE metric)',
                               "use COSINE, EUCLIDEAN, EUCLIDEAN_SQUARED, DOT or MANHATTAN")
ERR_INVALID_SDO_ATTRIBUTE = ErrorSpec(
    904, '"{alias}"."{column}"."{path}": invalid identifier',
    "SDO_GEOMETRY attributes: SDO_GTYPE, SDO_SRID, SDO_POINT.X, SDO_POINT.Y, SDO_POINT.Z")
ERR_NAME_ALREADY_USED = ErrorSpec(955, "name is already used by an existing object")
ERR_INDEX_DOES_NOT_EXIST = ErrorSpec(1418, "specified index does not exist")
ERR_DROP_KEY_INDEX = ErrorSpec(2429, "cannot drop index used for enforcement of unique/primary key",
                               "{owner}.{name} is the index of the constraint of that name: drop the constraint "
                               "instead, ALTER TABLE ... DROP CONSTRAINT {name}, and its index goes with it")
ERR_USER_NOT_ATTACHED = ErrorSpec(1435, 'user "{schema}" does not exist in lite yet',
                                  "create it outside a transaction (CREATE USER or a first CREATE TABLE)")
ERR_MODEL_DOES_NOT_EXIST = ErrorSpec(
    40284, "model {model} does not exist",
    "load it with `workshop setup` (lite registers the ONNX file) and check USER_MINING_MODELS")

# ----------------------------------------------------------------------------- syntax (guard.py, parse)
ERR_BACKTICK = ErrorSpec(
    911, "invalid character: ` (backtick)",
    "Oracle quotes identifiers with double quotes: \"MyColumn\"; unquoted names are case-insensitive")
ERR_INVALID_CHARACTER = ErrorSpec(911, "invalid character in SQL ({detail})")
ERR_QUOTED_STRING_NOT_TERMINATED = ErrorSpec(1756, "quoted string not properly terminated",
                                             "close the string literal with a ' (write '' for a quote inside it)")
ERR_POSITIONAL_PLACEHOLDER = ErrorSpec(
    911, "invalid character: ? (positional placeholder)",
    "Oracle uses named bind variables: WHERE owner = :owner, then execute(sql, owner=...)")
ERR_TRAILING_SEMICOLON = ErrorSpec(
    933, "SQL command not properly ended (trailing ';')",
    "python-oracledb runs one statement without its ';' — remove the semicolon")
ERR_DOUBLE_COLON_CAST = ErrorSpec(
    933, "SQL command not properly ended (the :: cast is not Oracle SQL)",
    "use CAST(expr AS NUMBER) or TO_NUMBER / TO_CHAR / TO_DATE")
ERR_DOUBLE_EQUALS = ErrorSpec(920, "invalid relational operator ==", "use = for equality")
ERR_RESERVED_WORD_AS_NAME = ErrorSpec(
    904, '"{name}": invalid identifier ({name} is an Oracle reserved word)',
    'quote it to use it as a name ("{name}"), or choose another name')
ERR_NOT_ORACLE_SYNTAX = ErrorSpec(933, "{construct} is not Oracle SQL", "use {oracle_form}")
ERR_AS_BEFORE_TABLE_ALIAS = ErrorSpec(
    933, "SQL command not properly ended (Oracle does not allow AS before a table alias)",
    "write FROM supplychain.vessels v (no AS); AS is only for column aliases")
ERR_PARSE = ErrorSpec(
    933, "SQL command not properly ended or invalid{where}{near}",
    "if this is valid Oracle SQL, it uses a construct the lite backend does not implement; "
    "docs/lite-engine.md lists what lite covers")
ERR_MORE_THAN_ONE_STATEMENT = ErrorSpec(
    933, "SQL command not properly ended: execute() runs one statement at a time",
    "split the text and call execute() for each statement")

# ----------------------------------------------------------------------------- values and types
ERR_TOO_MANY_VALUES = ErrorSpec(913, "too many values")
ERR_NOT_ENOUGH_VALUES = ErrorSpec(947, "not enough values")
ERR_INCONSISTENT_DATATYPES = ErrorSpec(932, "inconsistent datatypes: expected {expected} got {got}")
ERR_DATE_PLUS_DATE = ErrorSpec(975, "date + date not allowed",
                               "subtract them for the days between, or add a number or an INTERVAL to one")
ERR_NOT_A_GROUP_BY_EXPRESSION = ErrorSpec(
    979, "not a GROUP BY expression",
    "{expression} is neither a GROUP BY item nor inside an aggregate: add it to GROUP BY or aggregate it")
ERR_NOT_SINGLE_GROUP = ErrorSpec(
    937, "not a single-group group function",
    "{expression} is next to an aggregate without GROUP BY: add GROUP BY {expression} or aggregate it")
ERR_INVALID_DATATYPE = ErrorSpec(902, "invalid datatype for column {column}")
ERR_ILLEGAL_FUNCTION_ARGUMENT = ErrorSpec(1760, "illegal argument for function {function} ({unit})")
ERR_WRONG_NUMBER_OF_ARGUMENTS = ErrorSpec(909, "invalid number of arguments ({function})")
ERR_INVALID_INTERVAL = ErrorSpec(1867, "the interval is invalid")
ERR_NOT_ENOUGH_ARGUMENTS = ErrorSpec(938, "not enough arguments for function {function}")
ERR_VECTOR_DIMENSIONS = ErrorSpec(51808, "VECTOR_DISTANCE of vectors with {left} and {right} dimensions")
ERR_DATE_LITERAL = ErrorSpec(  # the number and text come from formats.FormatError (see passthrough)
    1861, "literal does not match format string",
    "write a date as DATE '2025-01-01' or TO_DATE('2025-01-01', 'YYYY-MM-DD'), "
    "a timestamp as TIMESTAMP '2025-01-01 10:00:00'")

# ----------------------------------------------------------------------------- binds, cursors, connections
ERR_BINDS_TWO_WAYS = ErrorSpec(1036, "illegal variable name/number",
                               "pass binds either as one dict/sequence or as keyword arguments, not both")
ERR_UNKNOWN_BIND = ErrorSpec(1036, "illegal variable name/number: {names}",
                             "the statement has no bind variable with that name")
ERR_BIND_COUNT = ErrorSpec(1008, "not all variables bound",
                           "the statement has {expected} bind variable(s) ({binds}), {given} given")
ERR_BIND_MISSING = ErrorSpec(1008, "not all variables bound", "missing value for {binds}")
ERR_UNSUPPORTED_REPEATED_BIND = _unsupported(
    "different values for the occurrences of the repeated positional bind {bind}",
    "give each occurrence its own name (:a, :b), or bind by name with a dict")
ERR_BIND_TYPE = ErrorSpec(3115, "unsupported network datatype or representation: {detail}")
ERR_CURSOR_CLOSED = ErrorSpec(1001, "invalid cursor (the cursor is closed)", "open a new one with connection.cursor()")
ERR_FETCH_OUT_OF_SEQUENCE = ErrorSpec(1002, "fetch out of sequence (no query was executed)")
ERR_NOT_CONNECTED = ErrorSpec(3114, "not connected to ORACLE (the lite connection is closed)")

# ----------------------------------------------------------------------------- constraints (also from SQLite)
ERR_UNIQUE_VIOLATED = ErrorSpec(1, "unique constraint ({constraint}) violated")
ERR_PARENT_KEY_NOT_FOUND = ErrorSpec(
    2291, "integrity constraint violated - parent key not found (or child record found)")
ERR_CHILD_RECORD_FOUND = ErrorSpec(2292, "integrity constraint violated - child record found",
                                   "delete the child rows first (or declare the foreign key ON DELETE CASCADE)")
ERR_CANNOT_INSERT_NULL = ErrorSpec(1400, "cannot insert NULL into ({column})")
ERR_VALUE_TOO_LARGE = ErrorSpec(12899, "value too large for column (actual: {actual}, maximum: {maximum})")
ERR_CANNOT_UPDATE_TO_NULL = ErrorSpec(1407, "cannot update ({column}) to NULL")
ERR_CHECK_VIOLATED = ErrorSpec(2290, "check constraint ({constraint}) violated")
ERR_REFERENCED_BY_FOREIGN_KEYS = ErrorSpec(
    2449, "unique/primary keys in table referenced by foreign keys",
    "drop the child tables first, or use DROP TABLE ... CASCADE CONSTRAINTS")

# ----------------------------------------------------------------------------- SQLite errors (from_sqlite)
ERR_SQLITE_NO_SUCH_TABLE = ErrorSpec(942, 'table or view "{table}" does not exist', _HINT_SCHEMA)
ERR_SQLITE_NO_SUCH_COLUMN = ErrorSpec(904, "{column}: invalid identifier")
ERR_SQLITE_NAME_IN_USE = ErrorSpec(955, "name is already used by an existing object ({name})")
ERR_SQLITE_AMBIGUOUS_COLUMN = ErrorSpec(918, 'column ambiguously defined: "{column}"')
ERR_SQLITE_NO_SUCH_FUNCTION = ErrorSpec(
    904, '"{function}": invalid identifier',
    "the lite backend does not implement this function; see docs/lite-engine.md for the ones it has")
ERR_SQLITE_LOCKED = ErrorSpec(
    54, "resource busy: another connection on this WORKSHOP_HOME (a notebook, kernel or process) holds an "
        "uncommitted change, and lite lets one connection write at a time",
    "commit or roll back in the other connection (or close it), then run this again; Oracle would not make "
    "this statement wait (lite's single-writer limit, docs/lite-engine.md)")
ERR_GROUP_FUNCTION_NOT_ALLOWED = ErrorSpec(
    934, "group function is not allowed here",
    "filter on an aggregate in HAVING, or compute it in a subquery: WHERE sal > (SELECT AVG(sal) FROM emp)")
ERR_CONSTRAINT_NAME_USED = ErrorSpec(2264, "name already used by an existing constraint ({name})",
                                     "constraint names are unique within a schema: choose another name")
ERR_TRUNCATE_REFERENCED = ErrorSpec(2266, "unique/primary keys in table referenced by enabled foreign keys ({owner}.{table})",
                                    "delete the child rows and then the parent's (DELETE), or truncate the children "
                                    "and drop them first")
ERR_CAST_VALUE_OUT_OF_RANGE = ErrorSpec(25137, "Data value out of range ('{value}' as {type})")
ERR_NOT_SINGLE_GROUP_NESTED = ErrorSpec(
    937, "not a single-group group function (with nested aggregates every select-list item must be one)",
    "aggregate the grouped rows in a subquery: SELECT MAX(n) FROM (SELECT COUNT(*) n FROM t GROUP BY g)")
ERR_WINDOW_FUNCTION_NOT_ALLOWED = ErrorSpec(
    30483, "window functions are not allowed here",
    "compute it in a subquery and filter outside: SELECT * FROM (SELECT ..., ROW_NUMBER() OVER (...) rn ...) "
    "WHERE rn = 1")
ERR_ORDER_BY_POSITION = ErrorSpec(1785, "ORDER BY item must be the number of a SELECT-list expression")
ERR_SET_COLUMN_COUNT = ErrorSpec(1789, "query block has incorrect number of result columns")
ERR_INVALID_NUMBER_CONVERSION = ErrorSpec(1722, "invalid number ('{text}' converted to the NUMBER type of the first "
                                               "argument)", "give every argument the same type: NVL(TO_CHAR(n), 'text')")
ERR_NOT_SELECTED_EXPRESSION = ErrorSpec(1791, "not a SELECTed expression ({name})",
                                        "with SELECT DISTINCT, ORDER BY only what the select list shows")
ERR_USING_COLUMN_QUALIFIED = ErrorSpec(25154, "column part of USING clause cannot have qualifier ({name})",
                                       "write the USING column without a table alias: {name}")
ERR_SET_EXPRESSION_TYPES = ErrorSpec(1790, "expression must have same datatype as corresponding expression",
                                     "convert one side: TO_CHAR(n), TO_NUMBER(text), TO_DATE(text, 'fmt')")
ERR_SQLITE_SYNTAX = ErrorSpec(933, "SQL command not properly ended or invalid (near {token})",
                              "if this is valid Oracle SQL, it uses a construct the lite backend does not implement; "
                              "docs/lite-engine.md lists what lite covers")
ERR_SQLITE_OTHER = ErrorSpec(604, "error in the lite engine: {detail}",
                             "this statement is probably outside the SQL subset lite supports")
ERR_SQL_FUNCTION = ErrorSpec(604, "error in a SQL function: {detail}")

# ----------------------------------------------------------------------------- Oracle Text and Spatial
ERR_TEXT_NULL_QUERY = ErrorSpec(29902, _ODCI_INDEX_START + "DRG-50901: text query parser syntax error: null query",
                                "pass a non-empty text query")
ERR_TEXT_QUERY = ErrorSpec(29902, _ODCI_INDEX_START + "{detail}",
                           "escape user text with workshop_lib.retrieval.text_query(...) or braces {{...}}")
ERR_TEXT_NOT_INDEXED = ErrorSpec(20000, "Oracle Text error: DRG-10599: column is not indexed",
                                 "CONTAINS needs a column of a table with a CTXSYS.CONTEXT index")
ERR_TEXT_COLUMN_NOT_INDEXED = ErrorSpec(
    20000, "Oracle Text error: DRG-10599: column is not indexed ({owner}.{table}.{column})",
    "create the index: CREATE INDEX ... ON {table_lower}({column_lower}) INDEXTYPE IS CTXSYS.CONTEXT")
ERR_TEXT_INVALID_LABEL = ErrorSpec(29907, "found duplicate or invalid labels in primary invocations",
                                   "the CONTAINS label is a number literal: CONTAINS(col, :kw, 1)")
ERR_SCORE_WITHOUT_CONTAINS = ErrorSpec(29908, "missing primary invocation for ancillary operator SCORE({label})",
                                       "SCORE(n) needs a CONTAINS(col, query, n) with the same label n")
ERR_TEXT_INDEX_COLUMN = ErrorSpec(29855, _ODCI_INDEX_CREATE,
                                  "an Oracle Text CONTEXT index goes on one VARCHAR2 or CLOB column")
ERR_SPATIAL_INDEX_NEEDED = ErrorSpec(
    13226, "interface not supported without a spatial index ({where})",
    "SDO_WITHIN_DISTANCE(<indexed SDO_GEOMETRY column>, <geometry>, 'distance=n unit=KM') needs a "
    "USER_SDO_GEOM_METADATA row and CREATE INDEX ... INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2 on that column")
ERR_SPATIAL_INDEX_ONE_COLUMN = ErrorSpec(29851, "cannot build a domain index on more than one column",
                                         "a spatial index goes on one SDO_GEOMETRY column")
ERR_SPATIAL_INDEX_EXISTS = ErrorSpec(
    29879, "cannot create multiple domain indexes on a column list using same indextype",
    "{owner}.{table}.{column} already has the spatial index {index}")
ERR_SPATIAL_INDEX_TYPE = ErrorSpec(
    29855, _ODCI_INDEX_CREATE + "\nORA-13228: spatial index create failed due to invalid type",
    "{owner}.{table}.{column} is {data_type}; a spatial index goes on an SDO_GEOMETRY column")
ERR_SPATIAL_LAYER_GTYPE = ErrorSpec(
    29855, _ODCI_INDEX_CREATE + "\nORA-13376: invalid type name specified for layer_gtype parameter",
    "use layer_gtype=POINT for point data (or LINE, POLYGON, MULTIPOINT, ...)")
ERR_SPATIAL_NO_METADATA = ErrorSpec(
    29855, _ODCI_INDEX_CREATE + "\nORA-13203: failed to read USER_SDO_GEOM_METADATA view",
    "as {owner}, INSERT INTO user_sdo_geom_metadata (table_name, column_name, diminfo, srid) "
    "VALUES ('{table}', '{column}', SDO_DIM_ARRAY(SDO_DIM_ELEMENT('X', -180, 180, 0.05), "
    "SDO_DIM_ELEMENT('Y', -90, 90, 0.05)), 4326) before creating the index")
ERR_SPATIAL_SRID_MISMATCH = ErrorSpec(
    29855, _ODCI_INDEX_CREATE + "\nORA-13365: layer SRID does not match geometry SRID",
    "USER_SDO_GEOM_METADATA says SRID {srid} for {table}.{column}; the rows use {row_srids}")
ERR_VECTOR_INDEX_COLUMN = ErrorSpec(51961, "vector index must be created on a single VECTOR column")

# ----------------------------------------------------------------------------- ORA-03001: what lite does not implement
ERR_UNSUPPORTED = _unsupported("{construct}")   # a construct named by sqlglot or the statement itself
ERR_UNSUPPORTED_STATEMENT = _unsupported("{statement}", _HINT_UNSUPPORTED_STATEMENT)
ERR_UNSUPPORTED_DICTIONARY_NAME = _unsupported(
    "a table or view named like a data dictionary view ({name})",
    "lite's dictionary views take that name in every session, so the object could never be read or written: "
    "choose another name (Oracle allows it, hiding the view for its owner)")
ERR_UNSUPPORTED_ALTER_TABLE = _unsupported(
    "ALTER TABLE ... {action}",
    "lite runs ALTER TABLE t ADD (c type [DEFAULT value] [NOT NULL], ...), ADD / DROP CONSTRAINT, MODIFY (c ...), "
    "DROP COLUMN c, DROP (c, ...), RENAME COLUMN a TO b and RENAME TO u; for any other change create the new "
    "table and copy the rows with INSERT INTO new_t SELECT ... FROM t")
ERR_UNSUPPORTED_ADDED_COLUMN_CONSTRAINT = _unsupported(
    "{constraint} on a column added by ALTER TABLE",
    "add the column with its type, DEFAULT and NOT NULL, then the constraint: ALTER TABLE t ADD CONSTRAINT name ...")
ERR_COLUMN_ALREADY_EXISTS = ErrorSpec(1430, "column being added already exists in table",
                                      "choose another name; ALL_TAB_COLUMNS lists the table's columns")
ERR_NOT_NULL_COLUMN_NEEDS_EMPTY_TABLE = ErrorSpec(
    1758, "table must be empty to add mandatory (NOT NULL) column",
    "give the column a DEFAULT (ADD (c NUMBER DEFAULT 0 NOT NULL)), which the existing rows take")
ERR_UNSUPPORTED_PLSQL = _unsupported("PL/SQL blocks",
                                     "lite runs SQL statements; PL/SQL (DBMS_* packages) runs only on Oracle")
ERR_UNSUPPORTED_OUT_BINDS = _unsupported(
    "cursor.var() bound as {use}", "lite binds variables only to RETURNING ... INTO; pass plain values otherwise")
ERR_RETURNING_NEEDS_INTO = ErrorSpec(925, "missing INTO keyword",
                                     "write RETURNING expr, ... INTO :bind, ... (one bind variable per expression)")
ERR_RETURNING_BIND_NOT_VAR = ErrorSpec(
    1008, "not all variables bound (:{bind} of RETURNING ... INTO receives the values: bind a variable to it)",
    "bind cursor.var(int) (or str, float, ...) to :{bind} and read it with .getvalue() after execute()")
ERR_UNSUPPORTED_CALLPROC = _unsupported("callproc({name})", "stored procedures run only on Oracle")
ERR_EXECUTEMANY_NEEDS_DML = ErrorSpec(3001, "executemany() takes an INSERT, UPDATE, DELETE or MERGE")
ERR_UNSUPPORTED_RETURNING = _unsupported("RETURNING ... INTO with INSERT ... SELECT",
                                         "select the rows after the INSERT (e.g. by their key)")
ERR_UNSUPPORTED_MERGE_CLAUSE = _unsupported(
    "this MERGE clause (lite supports WHEN MATCHED THEN UPDATE and WHEN NOT MATCHED THEN INSERT)")
ERR_UNSUPPORTED_GRANT = _unsupported("GRANT/REVOKE", "lite has a single user; privileges apply only on Oracle")
ERR_UNSUPPORTED_CTAS_TYPE = _unsupported(
    "CREATE TABLE ... AS SELECT of a value whose type lite cannot tell (column {column})",
    "give the value its type: CAST(expression AS VARCHAR2(100)) AS {column}")
ERR_UNSUPPORTED_VIEW_DML = _unsupported(
    "{statement} on the view {owner}.{view}", "write to the view's tables; lite's views are read-only")
ERR_CIRCULAR_VIEW = ErrorSpec(1731, "circular view definition encountered",
                              "view {owner}.{view} reaches itself through the views it reads; redefine one of them")
ERR_CTAS_NEEDS_ALIAS = ErrorSpec(998, "must name this expression with a column alias",
                                 "write {expression} AS name (CREATE TABLE ... AS SELECT names columns after them)")
ERR_CTAS_BIND = ErrorSpec(1027, "bind variables not allowed for data definition operations",
                          "create the table from the query with literals, or create it first and INSERT ... SELECT "
                          "with binds")
ERR_CTAS_COLUMN_COUNT = ErrorSpec(1730, "invalid number of column names specified",
                                  "name as many columns as the query returns")
ERR_CTAS_COLUMN_TYPES = ErrorSpec(1773, "may not specify column datatypes in this CREATE TABLE",
                                  "list the names only: CREATE TABLE t (a, b) AS SELECT ...; the query gives the types")
ERR_DUPLICATE_COLUMN_NAME = ErrorSpec(957, "duplicate column name",
                                      "give the query's columns distinct aliases")
ERR_CONNECT_BY_LOOP = ErrorSpec(1436, "CONNECT BY loop in user data",
                                "a row is its own ancestor: add NOCYCLE (CONNECT_BY_ISCYCLE shows where) or fix the data")
ERR_CONNECT_BY_ISCYCLE_WITHOUT_NOCYCLE = ErrorSpec(
    30930, "NOCYCLE keyword is required with CONNECT_BY_ISCYCLE pseudocolumn", "write CONNECT BY NOCYCLE ...")
ERR_ORDER_SIBLINGS_NOT_ALLOWED = ErrorSpec(30929, "ORDER SIBLINGS BY clause not allowed here",
                                          "ORDER SIBLINGS BY belongs to a query with CONNECT BY; use ORDER BY")
ERR_CANNOT_DROP_ALL_COLUMNS = ErrorSpec(12983, "cannot drop all columns in a table",
                                       "drop the table instead: DROP TABLE t")
ERR_DROP_MULTI_COLUMN_CONSTRAINT = ErrorSpec(
    12991, "column is referenced in a multi-column constraint",
    "drop its other columns with it, or add CASCADE CONSTRAINTS to drop the constraint too")
ERR_RENAMED_COLUMN_EXISTS = ErrorSpec(957, "duplicate column name ({name})",
                                      "the table already has a column {name}: choose another name")
ERR_DROP_PARENT_KEY = ErrorSpec(12992, "cannot drop parent key column",
                                "a foreign key references this key: drop the referencing table first")
ERR_ONE_PRIMARY_KEY = ErrorSpec(2260, "table can have only one primary key")
ERR_KEY_EXISTS = ErrorSpec(2261, "such unique or primary key already exists in the table")
ERR_PRIMARY_KEY_HAS_NULLS = ErrorSpec(1449, "column contains NULL values; cannot alter to NOT NULL",
                                      "fill the NULLs (UPDATE ... SET c = ... WHERE c IS NULL) first")
ERR_VALIDATE_PRIMARY_KEY = ErrorSpec(2437, "cannot validate ({constraint}) - primary key violated",
                                     "rows share a key: find them with SELECT key, COUNT(*) ... GROUP BY key "
                                     "HAVING COUNT(*) > 1")
ERR_VALIDATE_UNIQUE = ErrorSpec(2299, "cannot validate ({constraint}) - duplicate keys found",
                                "rows share a key: find them with GROUP BY ... HAVING COUNT(*) > 1")
ERR_VALIDATE_CHECK = ErrorSpec(2293, "cannot validate ({constraint}) - check constraint violated",
                               "rows break the condition: find them with WHERE NOT (condition)")
ERR_VALIDATE_FOREIGN_KEY = ErrorSpec(2298, "cannot validate ({constraint}) - parent keys not found",
                                     "rows point at parent keys that do not exist: add the parents or fix the rows")
ERR_NO_MATCHING_KEY = ErrorSpec(2270, "no matching unique or primary key for this column-list",
                                "reference the parent's primary key or a unique key over exactly those columns")
ERR_NO_PRIMARY_KEY_REFERENCED = ErrorSpec(2268, "referenced table does not have a primary key",
                                          "name the referenced columns: REFERENCES parent (key columns)")
ERR_CONSTRAINT_COLUMN_COUNT = ErrorSpec(2256, "number of referencing columns must match referenced columns")
ERR_DECREASE_LENGTH = ErrorSpec(1441, "cannot decrease column length because some value is too big",
                                "find them with WHERE LENGTHB(c) > n and shorten them first")
ERR_DECREASE_PRECISION = ErrorSpec(1440, "column to be modified must be empty to decrease precision or scale")
ERR_MUST_BE_EMPTY_TO_CHANGE_TYPE = ErrorSpec(1439, "column to be modified must be empty to change datatype",
                                             "add a column of the new type, copy the values with an UPDATE, "
                                             "then drop the old one")
ERR_ALREADY_NOT_NULL = ErrorSpec(1442, "column to be modified to NOT NULL is already NOT NULL")
ERR_ALREADY_NULL = ErrorSpec(1451, "column to be modified to NULL cannot be modified to NULL",
                             "the column already allows NULL, or it is part of the primary key")
ERR_NULLS_FOUND = ErrorSpec(2296, "cannot enable ({constraint}) - null values found",
                            "fill the NULLs first: UPDATE t SET c = ... WHERE c IS NULL")
ERR_NO_SUCH_CONSTRAINT = ErrorSpec(2443, "Cannot drop constraint  - nonexistent constraint",
                                   "list the table's constraints: SELECT constraint_name FROM user_constraints "
                                   "WHERE table_name = 'T'")
ERR_KEY_REFERENCED = ErrorSpec(2273, "this unique/primary key is referenced by some foreign keys",
                               "add CASCADE to drop those foreign keys too")
ERR_NO_PRIMARY_KEY_TO_DROP = ErrorSpec(2441, "Cannot drop nonexistent primary key")
ERR_NO_UNIQUE_KEY_TO_DROP = ErrorSpec(2442, "Cannot drop nonexistent unique key")
ERR_OTHER_SCHEMA = ErrorSpec(
    1031, "insufficient privileges ({action} {owner}.{name} as {user})",
    "lite has no GRANT: a user reads other users' tables but writes and changes only its own, as AGENT holds "
    "SELECT only on SUPPLYCHAIN's tables in the workshop's Oracle setup; connect as {owner} to change its objects")
ERR_JSON_TABLE_DUPLICATE_COLUMN = ErrorSpec(957, "duplicate column name ({name} in JSON_TABLE)",
                                            "give each JSON_TABLE column its own name, NESTED PATH columns included")
ERR_JSON_TABLE_ORDINALITY = ErrorSpec(
    933, "SQL command not properly ended or invalid: a second FOR ORDINALITY column ({name}) in one COLUMNS clause",
    "Oracle allows one FOR ORDINALITY column per COLUMNS clause (each NESTED PATH clause may have its own)")
ERR_UNSUPPORTED_COLUMN_TYPE = _unsupported(
    "column type {type}",
    "lite maps NUMBER, VARCHAR2, CHAR, DATE, TIMESTAMP, CLOB, JSON, "
    "VECTOR(n, FLOAT32|FLOAT64), SDO_GEOMETRY, BLOB, BINARY_DOUBLE")
ERR_UNSUPPORTED_COLUMN_CONSTRAINT = _unsupported("column constraint {constraint}")
ERR_UNSUPPORTED_TABLE_CONSTRAINT = _unsupported("table constraint {constraint}")
ERR_UNSUPPORTED_TABLE_ELEMENT = _unsupported("table element {element}")
ERR_UNSUPPORTED_CASCADE = _unsupported(
    "DROP TABLE ... CASCADE CONSTRAINTS while {children} still reference {owner}.{table}",
    "drop the child tables first (in reverse dependency order)")
ERR_UNSUPPORTED_COMMENT = _unsupported("COMMENT ON {kind}")
ERR_UNSUPPORTED_VECTOR_INDEX = _unsupported("vector index clause: {clause}",
                                            "use ORGANIZATION INMEMORY NEIGHBOR GRAPH DISTANCE COSINE "
                                            "[WITH TARGET ACCURACY n]")
ERR_UNSUPPORTED_INDEX_CLAUSE = _unsupported(
    "index clause: {clause}",
    "use INDEXTYPE IS CTXSYS.CONTEXT [PARAMETERS ('SYNC (ON COMMIT)')] or "
    "INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2 [PARAMETERS ('layer_gtype=POINT')]")
ERR_UNSUPPORTED_PLAIN_INDEX_CLAUSE = _unsupported("index clause: {clause}")
ERR_UNSUPPORTED_ORACLE_FUNCTION = _unsupported(
    "the Oracle function {name}", "docs/lite-engine.md lists the functions lite implements; run the statement "
    "on the Oracle backend, or compute the value another way")
ERR_UNSUPPORTED_FUNCTION_INDEX = _unsupported("function-based index ({expression})", "index the column itself")
ERR_UNSUPPORTED_TEXT_INDEXTYPE = _unsupported("CTXSYS.{indextype} indexes", "use CTXSYS.CONTEXT")
ERR_UNSUPPORTED_TEXT_PARAMETER = _unsupported(
    "Oracle Text index parameter {parameter}",
    "lite indexes plain text with the default lexer, stoplist and no sections; it accepts SYNC (...), "
    "TRANSACTIONAL, MEMORY n, FILTER CTXSYS.NULL_FILTER, SECTION GROUP CTXSYS.NULL_SECTION_GROUP, "
    "LEXER CTXSYS.DEFAULT_LEXER, STOPLIST CTXSYS.DEFAULT_STOPLIST; leave the others out on lite")
ERR_TEXT_PARAMETERS_SYNTAX = ErrorSpec(
    29855, _ODCI_INDEX_CREATE + "\nORA-20000: Oracle Text error:\nDRG-11000: invalid keyword {keyword}",
    "PARAMETERS is a list of 'KEYWORD value' pairs, e.g. PARAMETERS ('SYNC (ON COMMIT)')")
ERR_OUTER_JOIN_WITH_ANSI = ErrorSpec(25156, "old style outer join (+) cannot be used with ANSI joins",
                                    "write every join of the query block in one style")
ERR_OUTER_JOIN_IN_OR = ErrorSpec(1719, "outer join operator (+) not allowed in operand of OR or IN",
                                 "write an ANSI join: FROM t1 LEFT OUTER JOIN t2 ON (... OR ...)")
ERR_OUTER_JOIN_TWO_TABLES = ErrorSpec(1468, "a predicate may reference only one outer-joined table")
ERR_OUTER_JOIN_SUBQUERY = ErrorSpec(1799, "a column may not be outer-joined to a subquery")
ERR_OUTER_JOIN_CYCLE = ErrorSpec(1416, "two tables cannot be outer-joined to each other")
ERR_OUTER_JOIN_NOT_HERE = ErrorSpec(30563, "outer join operator (+) is not allowed here",
                                    "(+) marks a column in a WHERE condition of a query block with comma joins")
ERR_UNSUPPORTED_OUTER_JOIN_UNQUALIFIED = _unsupported(
    "(+) on a column without its table ({column}(+))",
    "qualify the column with its table or alias: d.{column}(+), or write an ANSI join: LEFT OUTER JOIN ... ON")
ERR_UNSUPPORTED_OUTER_JOIN_NOTHING_TO_JOIN = _unsupported(
    "(+) on every table of a query block",
    "mark the columns of the table whose rows may be missing, or write an ANSI join: LEFT OUTER JOIN ... ON")
ERR_UNSUPPORTED_ROWNUM = _unsupported(
    "ROWNUM in {form}",
    "lite numbers rows for ROWNUM compared with a number or bind (ROWNUM <= n, <, =, >, >=) ANDed into a "
    "query's WHERE, and for ROWNUM in its select list; elsewhere use FETCH FIRST n ROWS ONLY or "
    "ROW_NUMBER() OVER (...) in a subquery")
ERR_UNSUPPORTED_ROWNUM_CLAUSE = _unsupported(
    "ROWNUM in a query block with {clause} (Oracle numbers the rows before {clause} applies)",
    "for the first n rows in an order write ORDER BY ... FETCH FIRST n ROWS ONLY, or filter an ordered "
    "inline view: SELECT * FROM (SELECT ... ORDER BY ...) WHERE ROWNUM <= n; otherwise apply {clause} in "
    "an outer query over the numbered rows")
ERR_UNSUPPORTED_INTERVAL_SPAN_EXPRESSION = _unsupported("an INTERVAL span with a non-literal value")
ERR_UNSUPPORTED_INTERVAL_SPAN = _unsupported("INTERVAL ... {first} TO {last}")
ERR_UNSUPPORTED_INTERVAL_UNIT = _unsupported("INTERVAL unit {unit}")
ERR_UNSUPPORTED_INTERVAL_UNIT_EXPRESSION = _unsupported(
    "{function} with a unit that is not a string literal",
    "write the unit as a literal: {function}(n, 'HOUR'); lite chooses the arithmetic when it translates")
ERR_UNSUPPORTED_YM_INTERVAL = _unsupported("INTERVAL YEAR TO MONTH outside date arithmetic",
                                           "add it to a date: d + INTERVAL '1' MONTH, or use ADD_MONTHS")
ERR_UNSUPPORTED_NUMTOYMINTERVAL = _unsupported("NUMTOYMINTERVAL outside date arithmetic", "use ADD_MONTHS(date, n)")
ERR_UNSUPPORTED_EXTRACT = _unsupported("EXTRACT({unit} FROM ...)")
ERR_UNSUPPORTED_DATE_OF_EXPRESSION = _unsupported("DATE applied to an expression", "use TO_DATE(text, 'YYYY-MM-DD')")
ERR_UNSUPPORTED_FETCH_OPTION = _unsupported(
    "FETCH FIRST ... {option} on a set operation (UNION, INTERSECT, MINUS)",
    "select from the set operation in a subquery and put the FETCH clause on that query")
ERR_UNSUPPORTED_JSON_DATETIME = _unsupported(
    "a TIMESTAMP value in JSON_OBJECT, JSON_ARRAY or JSON_ARRAYAGG (Oracle writes it in ISO 8601 with its "
    "fractional seconds; a DATE is written)",
    "write it as text: TO_CHAR(ts, 'YYYY-MM-DD\"T\"HH24:MI:SS.FF6'), or CAST(ts AS DATE)")
ERR_JSON_PATH_SYNTAX = ErrorSpec(40442, "JSON path expression syntax error ({path})",
                                 "write the path as $ followed by steps: .field, [n], [*], ?(@.field == 1), .size()")
ERR_UNSUPPORTED_JSON_QUERY_OPTIONS = _unsupported("JSON_QUERY with options", "use JSON_QUERY(col, '$.path')")
ERR_UNSUPPORTED_CONTAINS_EXPRESSION = _unsupported("CONTAINS on an expression", "CONTAINS takes an indexed column")
ERR_UNSUPPORTED_CONTAINS_CORRELATED = _unsupported("a CONTAINS query that depends on other columns",
                                                   "pass the text query as a bind variable: CONTAINS(col, :kw, 1) > 0")
ERR_UNSUPPORTED_SCORE_PLACE = _unsupported("SCORE outside the query block of its CONTAINS")
ERR_UNSUPPORTED_STATEMENT_KIND = _unsupported("{kind} statements")
ERR_SAVEPOINT_UNKNOWN = ErrorSpec(
    1086, "savepoint '{name}' never established in this session or is invalid",
    "a COMMIT, a ROLLBACK or DDL (which commits) ends every savepoint; mark it again with SAVEPOINT {name}")
ERR_UNSUPPORTED_KEEP = _unsupported(
    "KEEP (DENSE_RANK FIRST|LAST ORDER BY ...) of {aggregate}",
    "lite keeps MIN, MAX, SUM, AVG, COUNT, VARIANCE and STDDEV without DISTINCT; for another, number the rows "
    "with DENSE_RANK() OVER (PARTITION BY ... ORDER BY ...) in a subquery and aggregate rank 1")
ERR_UNSUPPORTED_WITHIN_GROUP = _unsupported(
    "{function}(...) WITHIN GROUP (ORDER BY ...)",
    "lite implements LISTAGG, PERCENTILE_CONT, PERCENTILE_DISC and the hypothetical RANK, DENSE_RANK, "
    "PERCENT_RANK and CUME_DIST ... WITHIN GROUP")
ERR_HYPOTHETICAL_ARGUMENTS = ErrorSpec(
    909, "invalid number of arguments ({function}(...) WITHIN GROUP takes one value per ORDER BY key)",
    "give the hypothetical row one value for each ORDER BY expression, in the same order")
ERR_MISSING_WINDOW = ErrorSpec(30484, "missing window specification for this function ({function})",
                                "write {function}(x) OVER ([PARTITION BY ...])")
ERR_ORDER_BY_NOT_ALLOWED = ErrorSpec(
    30487, "ORDER BY not allowed here ({function} takes only PARTITION BY in its OVER clause)",
    "write OVER (PARTITION BY ...) without ORDER BY or a window frame")
ERR_PERCENTILE_ONE_KEY = ErrorSpec(
    907, "missing right parenthesis (PERCENTILE_CONT and PERCENTILE_DISC order by exactly one expression)",
    "write WITHIN GROUP (ORDER BY one_expression [DESC])")
ERR_UNSUPPORTED_CTE_SEARCH = _unsupported(
    "SEARCH DEPTH|BREADTH FIRST BY ... SET ... of a recursive WITH",
    "build an ordering column (a path or level) in the recursive member and ORDER BY it")
ERR_UNSUPPORTED_PREDICTION = _unsupported(
    "PREDICTION (scoring with an in-database model)",
    "lite runs ONNX embedding models through VECTOR_EMBEDDING only; score in Python (onnxruntime)")
ERR_UNSUPPORTED_SEQUENCE_OPTION = _unsupported(
    "sequence option {option}", "lite takes START WITH, INCREMENT BY, MINVALUE, MAXVALUE, CYCLE and CACHE")
ERR_SEQUENCE_DOES_NOT_EXIST = ErrorSpec(2289, "sequence does not exist",
                                        "create it (CREATE SEQUENCE name) or check its schema: USER_SEQUENCES")
ERR_SEQUENCE_NOT_ALLOWED = ErrorSpec(
    2287, "sequence number not allowed here",
    "NEXTVAL and CURRVAL go in a query's select list (no subquery, DISTINCT, GROUP BY, ORDER BY or UNION), an "
    "INSERT's VALUES or query, or an UPDATE's SET")
ERR_SEQUENCE_CURRVAL_UNDEFINED = ErrorSpec(8002, "sequence {sequence}.CURRVAL is not yet defined in this session",
                                           "use {sequence}.NEXTVAL first in this session")
ERR_SEQUENCE_EXHAUSTED = ErrorSpec(8004, "sequence {sequence}.NEXTVAL {bound} and cannot be instantiated",
                                   "create the sequence with a wider range, or with CYCLE")
ERR_SEQUENCE_BAD_OPTION = ErrorSpec(4001, "sequence parameter {option} must be an integer (not {value})")
ERR_SEQUENCE_INCREMENT_ZERO = ErrorSpec(4002, "sequence parameter INCREMENT must be a non-zero integer")
ERR_SEQUENCE_MIN_MAX = ErrorSpec(4004, "MINVALUE must be less than MAXVALUE")
ERR_SEQUENCE_START_BELOW_MIN = ErrorSpec(4006, "START WITH cannot be less than MINVALUE")
ERR_SEQUENCE_START_ABOVE_MAX = ErrorSpec(4008, "START WITH cannot be more than MAXVALUE")
ERR_SEQUENCE_CACHE_CYCLE = ErrorSpec(4013, "number to CACHE must be less than one cycle",
                                     "add NOCACHE, or a CACHE smaller than the number of values in one cycle")
ERR_UNSUPPORTED_DEFAULT = _unsupported(
    "DEFAULT expression of column {column} (lite stores constant defaults only)",
    "use a literal DEFAULT, an identity column, or set the value in the INSERT")
ERR_UNSUPPORTED_PARTITIONED_OUTER_JOIN = _unsupported(
    "partitioned outer joins (FROM t PARTITION BY (...) ... OUTER JOIN)",
    "CROSS JOIN the partition values with the dimension, then LEFT OUTER JOIN the facts")
ERR_UNSUPPORTED_JSON_FUNCTION = _unsupported(
    "{function} (lite has JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_TABLE, JSON_SERIALIZE, JSON_MERGEPATCH, "
    "JSON_EQUAL and the JSON generation functions)",
    "read the document with JSON_QUERY / JSON_TABLE, or change it with JSON_MERGEPATCH(doc, patch)")
ERR_UNSUPPORTED_JSON_SERIALIZE_OPTION = _unsupported(
    "{function}(... {option}) (lite writes {function}'s result as compact JSON text, without options)")
ERR_UNSUPPORTED_MERGE_DELETE = _unsupported(
    "MERGE ... UPDATE SET ... DELETE WHERE together with an UPDATE ... WHERE or a WHEN NOT MATCHED clause "
    "(lite runs DELETE WHERE when every matched row is updated and nothing is inserted)",
    "run the MERGE without DELETE WHERE, then a DELETE for those rows")


#: Every entry, by constant name (the test formats each one and checks its number).
CATALOGUE: dict[str, ErrorSpec] = {name: value for name, value in globals().items()
                                   if name.startswith("ERR_") and isinstance(value, ErrorSpec)}


# ----------------------------------------------------------------------------- SQLite's errors, as Oracle's
_SQLITE_PATTERNS: list[tuple[re.Pattern[str], ErrorSpec, Callable[[re.Match[str]], dict[str, str]]]] = [
    (re.compile(r"no such table: (?:\w+\.)?(.+)"), ERR_SQLITE_NO_SUCH_TABLE,
     lambda m: {"table": m.group(1).upper()}),
    (re.compile(r"no such column: (.+)"), ERR_SQLITE_NO_SUCH_COLUMN,
     lambda m: {"column": ".".join(f'"{part.upper()}"' for part in m.group(1).split("."))}),
    (re.compile(r"UNIQUE constraint failed: index '([^']+)\$NULLS'"), ERR_UNIQUE_VIOLATED,
     lambda m: {"constraint": m.group(1).upper()}),
    (re.compile(r"UNIQUE constraint failed: (.+)"), ERR_UNIQUE_VIOLATED,
     lambda m: {"constraint": m.group(1).upper()}),
    (re.compile(r"FOREIGN KEY constraint failed"), ERR_PARENT_KEY_NOT_FOUND, lambda m: {}),
    (re.compile(r"NOT NULL constraint failed: (.+)"), ERR_CANNOT_INSERT_NULL,
     lambda m: {"column": m.group(1).upper()}),
    (re.compile(r"CHECK constraint failed: (.+)"), ERR_CHECK_VIOLATED, lambda m: {"constraint": m.group(1)}),
    (re.compile(r"table (\S+) already exists"), ERR_SQLITE_NAME_IN_USE, lambda m: {"name": m.group(1).upper()}),
    (re.compile(r"index (\S+) already exists"), ERR_SQLITE_NAME_IN_USE, lambda m: {"name": m.group(1).upper()}),
    (re.compile(r"ambiguous column name: (.+)"), ERR_SQLITE_AMBIGUOUS_COLUMN,
     lambda m: {"column": m.group(1).upper()}),
    (re.compile(r"no such function: (\w+)"), ERR_SQLITE_NO_SUCH_FUNCTION, lambda m: {"function": m.group(1).upper()}),
    (re.compile(r"database is locked"), ERR_SQLITE_LOCKED, lambda m: {}),
    (re.compile(r"wrong number of arguments to function (\w+)\(\)"), ERR_WRONG_NUMBER_OF_ARGUMENTS,
     lambda m: {"function": m.group(1).upper()}),
    (re.compile(r"misuse of window function"), ERR_WINDOW_FUNCTION_NOT_ALLOWED, lambda m: {}),
    (re.compile(r"misuse of aggregate function"), ERR_GROUP_FUNCTION_NOT_ALLOWED, lambda m: {}),
    (re.compile(r"ORDER BY term out of range"), ERR_ORDER_BY_POSITION, lambda m: {}),
    (re.compile(r"do not have the same number of result columns"), ERR_SET_COLUMN_COUNT, lambda m: {}),
    (re.compile(r'near "([^"]*)": syntax error'), ERR_SQLITE_SYNTAX, lambda m: {"token": m.group(1).upper()}),
    (re.compile(r"default value of column \[(\w+)\] is not constant"), ERR_UNSUPPORTED_DEFAULT,
     lambda m: {"column": m.group(1).upper()}),
]


def from_sqlite(exc: sqlite3.Error, sql: str | None = None) -> LiteDatabaseError:
    """Map a sqlite3 error to the Oracle error a learner would see on Oracle."""
    text = str(exc)
    for pattern, spec, params in _SQLITE_PATTERNS:
        match = pattern.search(text)
        if match:
            found = params(match)
            if spec is ERR_SQLITE_NO_SUCH_FUNCTION and found["function"] in ORACLE_FUNCTIONS:
                # an Oracle function sqlglot knows and lite does not implement: lite's limit, not a typo
                return error(ERR_UNSUPPORTED_ORACLE_FUNCTION, name=found["function"])
            return error(spec, **found)
    return error(ERR_SQLITE_OTHER, detail=text)


def from_function_error(exc: BaseException) -> LiteDatabaseError:
    """The error a lite SQL function raised: its own ``ORA-NNNNN: text`` when it has one, else ORA-00604."""
    if isinstance(exc, LiteDatabaseError):
        return exc
    text = str(exc)
    if text.startswith("ORA-") and ":" in text:
        return LiteDatabaseError(int(text[4:9]), text[11:])
    return error(ERR_SQL_FUNCTION, detail=text)


DOC_BEGIN = "<!-- generated from error_catalogue.unsupported_markdown(): do not edit by hand -->"
DOC_END = "<!-- end of generated table -->"


def unsupported_markdown() -> str:
    """The ORA-03001 entries of this catalogue as the Markdown table docs/lite-engine.md shows.

    The docs' table is this function's output between :data:`DOC_BEGIN` and
    :data:`DOC_END` (tests/test_lite_errors.py compares them), so the list of
    what lite refuses cannot drift from what the engine raises. ``{name}``
    fields are filled in per statement.
    """
    def cell(text: str | None) -> str:
        return (text or "").replace("|", "\\|").replace("\n", " ")

    rows = ["| Not implemented in lite (ORA-03001) | Hint |", "|---|---|"]
    for name, spec in CATALOGUE.items():
        if spec.unsupported and name not in ("ERR_UNSUPPORTED", "ERR_UNSUPPORTED_STATEMENT"):
            rows.append(f"| {cell(spec.message)} | {cell(spec.hint)} |")
    return "\n".join([DOC_BEGIN, *rows, DOC_END])
