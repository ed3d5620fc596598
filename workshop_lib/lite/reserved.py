"""Oracle SQL's reserved words (SQL Language Reference, "Oracle SQL Reserved Words").

An unquoted reserved word is never a name in Oracle: ``SELECT 1 AS order``
or ``FROM dual order`` is a syntax error there. Lite's parser (sqlglot) reads
many of them as names and SQLite takes them quoted, so lite checks the parsed
statement against this list (transforms.refuse_reserved_names); the model
builder checks model names against it too. The pseudocolumns among them
(``ROWNUM``, ``ROWID``, ``LEVEL``, ``SYSDATE``, ``USER``, ``UID``) are words
Oracle itself reads in column position.
"""

from __future__ import annotations

ORACLE_RESERVED_WORDS = frozenset(
    """ACCESS ADD ALL ALTER AND ANY AS ASC AUDIT BETWEEN BY CHAR CHECK CLUSTER COLUMN
    COLUMN_VALUE COMMENT COMPRESS CONNECT CREATE CURRENT DATE DECIMAL DEFAULT DELETE DESC
    DISTINCT DROP ELSE EXCLUSIVE EXISTS FILE FLOAT FOR FROM GRANT GROUP HAVING IDENTIFIED
    IMMEDIATE IN INCREMENT INDEX INITIAL INSERT INTEGER INTERSECT INTO IS LEVEL LIKE LOCK
    LONG MAXEXTENTS MINUS MLSLABEL MODE MODIFY NESTED_TABLE_ID NOAUDIT NOCOMPRESS NOT NOWAIT
    NULL NUMBER OF OFFLINE ON ONLINE OPTION OR ORDER PCTFREE PRIOR PUBLIC RAW RENAME
    RESOURCE REVOKE ROW ROWID ROWNUM ROWS SELECT SESSION SET SHARE SIZE SMALLINT START
    SUCCESSFUL SYNONYM SYSDATE TABLE THEN TO TRIGGER UID UNION UNIQUE UPDATE USER VALIDATE
    VALUES VARCHAR VARCHAR2 VIEW WHENEVER WHERE WITH""".split()
)

#: Reserved words that are Oracle's own pseudocolumns, legal where a column is.
PSEUDOCOLUMNS = frozenset({"ROWNUM", "ROWID", "LEVEL", "SYSDATE", "USER", "UID"})
