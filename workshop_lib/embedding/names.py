"""Validation of in-database model names.

A model name cannot be a bind variable inside ``VECTOR_EMBEDDING(<model> USING
... AS DATA)``, so it is written into SQL text and must be checked first. The
rules are Oracle's for machine-learning model names: an unquoted identifier
of at most 123 characters -- a letter first, then letters, digits, ``_``,
``$`` or ``#`` -- and not a reserved word.
"""

from __future__ import annotations

import re

from ..errors import ModelError

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_$#]{0,122}")

# Oracle SQL reserved words (SQL Language Reference, "Oracle SQL Reserved Words").
_RESERVED = frozenset(
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


def validate_model_name(name: str) -> str:
    """Return ``name`` upper-cased (as Oracle stores it) or raise ModelError saying why it is invalid."""
    if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
        raise ModelError(
            f"Invalid model name {name!r}: use an unquoted Oracle identifier of at most 123 "
            "characters that starts with a letter and contains only letters, digits, _, $ "
            "or # (for example ALL_MINILM_L6_V2)."
        )
    upper = name.upper()
    if upper in _RESERVED:
        raise ModelError(f"Invalid model name {name!r}: {upper} is an Oracle reserved word.")
    return upper
