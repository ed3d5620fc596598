"""Reject SQL that Oracle would reject, before lite's more forgiving parser sees it.

sqlglot parses many dialects' syntax with any reader (``LIMIT``, ``?``,
``IFNULL``, ``x::int``, ``FROM t AS x``) and SQLite would run it, so without
this check lite would teach SQL that fails on Oracle. The check works on
sqlglot's token stream of the statement and raises the error Oracle would
raise, with a hint naming the Oracle form.
"""

from __future__ import annotations

import functools
import re

from sqlglot.errors import TokenError
from sqlglot.tokens import Token, TokenType

from .dialect import Oracle
from .oracle_functions import is_lite_helper
from .error_catalogue import (
    ERR_AS_BEFORE_TABLE_ALIAS, ERR_BACKTICK, ERR_DOUBLE_COLON_CAST, ERR_DOUBLE_EQUALS, ERR_INVALID_CHARACTER,
    ERR_QUOTED_STRING_NOT_TERMINATED,
    ERR_NON_ORACLE_FUNCTION, ERR_NOT_ORACLE_SYNTAX, ERR_UNKNOWN_FUNCTION, ERR_POSITIONAL_PLACEHOLDER, ERR_TRAILING_SEMICOLON,
    ERR_UNSUPPORTED_JSON_FUNCTION, ERR_UNSUPPORTED_JSON_SERIALIZE_OPTION,
    ERR_UNSUPPORTED_PARTITIONED_OUTER_JOIN,
    ERR_UNSUPPORTED_PLSQL,
    error,
)

# Oracle JSON functions whose arguments sqlglot cannot parse, and JSON_SERIALIZE's options: lite names them
# (ORA-03001) instead of reporting valid Oracle SQL as a syntax error.
_UNREAD_JSON_FUNCTIONS = frozenset({"JSON_TRANSFORM"})
_JSON_SERIALIZERS = frozenset({"JSON_SERIALIZE", "JSON_MERGEPATCH"})
_JSON_SERIALIZE_OPTIONS = frozenset({"PRETTY", "ASCII", "TRUNCATE", "ORDERED", "RETURNING", "EXTENDED"})

_TOKENIZER = Oracle().tokenizer_class  # class; instantiated per call (tokenizers keep state)

# Functions other databases have and Oracle does not: name -> Oracle form.
NON_ORACLE_FUNCTIONS = {
    "IFNULL": "NVL(expr, default)",
    "ISNULL": "NVL(expr, default)",
    "NOW": "SYSDATE or SYSTIMESTAMP",
    "GETDATE": "SYSDATE",
    "CURDATE": "TRUNC(SYSDATE)",
    "DATETIME": "TO_DATE(text, 'YYYY-MM-DD HH24:MI:SS') or SYSDATE",
    "STRFTIME": "TO_CHAR(date, 'YYYY-MM-DD')",
    "DATE_FORMAT": "TO_CHAR(date, 'YYYY-MM-DD')",
    "DATEDIFF": "date1 - date2 (days)",
    "DATE_ADD": "date + n or ADD_MONTHS(date, n)",
    "GROUP_CONCAT": "LISTAGG(expr, ',') WITHIN GROUP (ORDER BY expr)",
    "STRING_AGG": "LISTAGG(expr, ',') WITHIN GROUP (ORDER BY expr)",
    "ARRAY_AGG": "JSON_ARRAYAGG(expr) or LISTAGG",
    "JSON_EXTRACT": "JSON_VALUE(col, '$.path')",
    "JSON_EXTRACT_PATH_TEXT": "JSON_VALUE(col, '$.path')",
    "RANDOM": "DBMS_RANDOM.VALUE",
    "RAND": "DBMS_RANDOM.VALUE",
    "LEN": "LENGTH(text)",
    "CHARINDEX": "INSTR(text, search)",
    "SUBSTRING": "SUBSTR(text, start, length)",
    "IIF": "CASE WHEN ... THEN ... ELSE ... END",
    "CONCAT_WS": "a || ',' || b",
    "TOTAL": "SUM(expr)",
    "PRINTF": "TO_CHAR(number, format)",
    "TYPEOF": "DUMP(expr)",
    "UNIXEPOCH": "(date - DATE '1970-01-01') * 86400",
    "LAST_INSERT_ROWID": "INSERT ... RETURNING id INTO :out",
    "COSINE_SIMILARITY": "1 - VECTOR_DISTANCE(a, b, COSINE)",
    "TO_TSVECTOR": "CONTAINS(col, :query, 1) > 0 with an Oracle Text index",
    "MATCH": "CONTAINS(col, :query, 1) > 0 with an Oracle Text index",
}

# Words that are not Oracle syntax at all: upper-cased text -> (construct, Oracle form).
NON_ORACLE_WORDS = {
    "LIMIT": ("LIMIT", "FETCH FIRST n ROWS ONLY"),
    "ILIKE": ("ILIKE", "UPPER(col) LIKE UPPER(:pattern)"),
    "AUTOINCREMENT": ("AUTOINCREMENT", "NUMBER GENERATED ALWAYS AS IDENTITY"),
    "AUTO_INCREMENT": ("AUTO_INCREMENT", "NUMBER GENERATED ALWAYS AS IDENTITY"),
    "SERIAL": ("SERIAL", "NUMBER GENERATED ALWAYS AS IDENTITY"),
    "BIGSERIAL": ("BIGSERIAL", "NUMBER GENERATED ALWAYS AS IDENTITY"),
    "TOP": ("TOP n", "FETCH FIRST n ROWS ONLY"),
    "PRAGMA": ("PRAGMA", "the data dictionary views (ALL_TAB_COLUMNS, USER_TABLES, ...)"),
    "UPSERT": ("UPSERT", "MERGE INTO ... USING ... ON (...) WHEN MATCHED ... WHEN NOT MATCHED ..."),
    "GLOB": ("GLOB", "LIKE or REGEXP_LIKE(col, pattern)"),
    "REGEXP": ("REGEXP operator", "REGEXP_LIKE(col, pattern)"),
    "DATETIME": ("DATETIME type", "DATE or TIMESTAMP"),
    "TEXT": ("TEXT type", "VARCHAR2(n) or CLOB"),
    "STRING": ("STRING type", "VARCHAR2(n)"),
    "BYTEA": ("BYTEA type", "BLOB"),
    "JSONB": ("JSONB type", "JSON"),
    "UUID": ("UUID type", "RAW(16) or VARCHAR2(36)"),
}

# Token types that mark the start of a clause; used to know whether an AS is a table alias.
_CLAUSE_TOKENS = {
    TokenType.SELECT: "SELECT", TokenType.FROM: "FROM", TokenType.JOIN: "FROM",
    TokenType.WHERE: "WHERE", TokenType.ON: "ON", TokenType.GROUP_BY: "GROUP",
    TokenType.ORDER_BY: "ORDER", TokenType.HAVING: "HAVING", TokenType.USING: "USING",
    TokenType.WITH: "WITH", TokenType.UNION: "SELECT", TokenType.EXCEPT: "SELECT",
    TokenType.INTERSECT: "SELECT", TokenType.INTO: "INTO", TokenType.SET: "SET",
    TokenType.VALUES: "VALUES", TokenType.CREATE: "CREATE", TokenType.ALTER: "ALTER", TokenType.MERGE: "MERGE",
    TokenType.UPDATE: "UPDATE", TokenType.DELETE: "DELETE",
}


def tokenize(sql: str) -> list[Token]:
    """Tokenize ``sql`` with the workshop's Oracle tokenizer (ORA-00911 on bad characters)."""
    if "`" in _strip_strings(sql):
        raise error(ERR_BACKTICK)
    try:
        return _TOKENIZER().tokenize(sql)
    except TokenError as exc:
        if sql.replace("''", "").count("'") % 2:
            raise error(ERR_QUOTED_STRING_NOT_TERMINATED) from None
        raise error(ERR_INVALID_CHARACTER, detail=str(exc).replace("Error tokenizing", "near")) from None


_QUOTED_OR_COMMENT = re.compile(r"""'(?:[^']|'')*'?|"(?:[^"]|"")*"?|--[^\n]*|/\*.*?(?:\*/|\Z)""", re.S)


@functools.lru_cache(maxsize=256)
def _strip_strings(sql: str) -> str:
    """Blank out quoted literals, identifiers and comments so character scans see only code.

    Positions are kept (each blanked character becomes a space, an unterminated
    quote or comment runs to the end), so an offset in the result is an offset
    in ``sql``. Cached: the guard, the bind renaming and the bind order each
    scan the same text.
    """
    return _QUOTED_OR_COMMENT.sub(lambda m: " " * (m.end() - m.start()), sql)


_PLSQL_UNIT = re.compile(r"\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NON)?EDITIONABLE\s+)?"
                         r"(?:PROCEDURE|FUNCTION|TRIGGER|PACKAGE|TYPE\s+BODY)\b", re.I)


def check(sql: str) -> list[Token]:
    """Raise the Oracle error for non-Oracle syntax in ``sql``; return its tokens otherwise."""
    stripped = _strip_strings(sql).rstrip()
    if _PLSQL_UNIT.match(stripped):   # its body has ';'s of its own: name what it is before the ';' checks
        raise error(ERR_UNSUPPORTED_PLSQL)
    if stripped.endswith(";") and not stripped.upper().endswith("END;"):
        raise error(ERR_TRAILING_SEMICOLON)
    if "::" in stripped:
        raise error(ERR_DOUBLE_COLON_CAST)
    if "==" in stripped:
        raise error(ERR_DOUBLE_EQUALS)
    tokens = tokenize(sql)
    depth = 0
    clause: dict[int, str] = {0: ""}
    owner: dict[int, str] = {0: ""}
    prev: Token | None = None
    closed: str | None = None   # the call the last ')' closed
    for i, tok in enumerate(tokens):
        text = tok.text.upper()
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.token_type == TokenType.PLACEHOLDER and tok.text == "?":
            raise error(ERR_POSITIONAL_PLACEHOLDER)
        if tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER) or tok.token_type == TokenType.VAR:
            bind_name = prev is not None and prev.token_type == TokenType.COLON   # :limit is a bind
            identity_limit = text == "LIMIT" and nxt is not None and nxt.text.upper() == "VALUE"  # START WITH LIMIT VALUE
            if text in NON_ORACLE_WORDS and tok.token_type != TokenType.STRING and not _is_quoted(tok) \
                    and not bind_name and not identity_limit:
                construct, oracle_form = NON_ORACLE_WORDS[text]
                # TEXT / STRING / DATETIME / SERIAL are only wrong as data types; as column names they are fine.
                if text in ("TEXT", "STRING", "DATETIME", "UUID", "JSONB", "BYTEA", "SERIAL", "BIGSERIAL") \
                        and not _in_type_position(
                        prev, clause.get(0, ""), owner.get(depth, "")):
                    pass
                elif text == "DATETIME" and nxt is not None and nxt.token_type == TokenType.L_PAREN:
                    pass  # handled as a function below
                elif prev is not None and prev.token_type == TokenType.ALIAS and owner.get(depth, "") != "CAST":
                    pass  # `AS pragma`, `AS top`: an alias, a name Oracle takes
                else:
                    raise error(ERR_NOT_ORACLE_SYNTAX, construct=construct, oracle_form=oracle_form)
            if (nxt is not None and nxt.token_type == TokenType.L_PAREN and text in NON_ORACLE_FUNCTIONS
                    and not _is_quoted(tok) and not (prev is not None and prev.token_type == TokenType.DOT)):
                raise error(ERR_NON_ORACLE_FUNCTION, name=text, oracle_form=NON_ORACLE_FUNCTIONS[text])
        if tok.token_type == TokenType.PARTITION_BY and clause.get(depth) == "FROM" and owner.get(depth) != "OVER":
            raise error(ERR_UNSUPPORTED_PARTITIONED_OUTER_JOIN)
        if nxt is not None and nxt.token_type == TokenType.L_PAREN and not _is_quoted(tok):   # a call
            if is_lite_helper(text):
                raise error(ERR_UNKNOWN_FUNCTION, name=text)   # lite's own ora_* helpers: not names Oracle SQL has
            if text in _UNREAD_JSON_FUNCTIONS:
                raise error(ERR_UNSUPPORTED_JSON_FUNCTION, function=text)   # sqlglot cannot parse them: name them
        if depth and text in _JSON_SERIALIZE_OPTIONS and owner.get(depth) in _JSON_SERIALIZERS \
                and tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER):
            raise error(ERR_UNSUPPORTED_JSON_SERIALIZE_OPTION, function=owner[depth], option=text)
        if tok.token_type == TokenType.L_PAREN:
            depth += 1
            clause[depth] = ""
            owner[depth] = prev.text.upper() if prev is not None else ""
        elif tok.token_type == TokenType.R_PAREN:
            clause.pop(depth, None)
            closed = owner.pop(depth, None)
            depth = max(depth - 1, 0)
        elif tok.token_type in _CLAUSE_TOKENS:
            clause[depth] = _CLAUSE_TOKENS[tok.token_type]
        elif tok.token_type == TokenType.ALIAS and clause.get(depth) == "FROM" \
                and not (prev is not None and prev.token_type == TokenType.R_PAREN and closed == "JSON_TABLE"):
            raise error(ERR_AS_BEFORE_TABLE_ALIAS)   # JSON_TABLE(...) AS jt is Oracle's (its reference writes it)
        prev = tok
    return tokens


def _is_quoted(tok: Token) -> bool:
    return tok.token_type == TokenType.IDENTIFIER


def _in_type_position(prev: Token | None, statement_clause: str, paren_owner: str) -> bool:
    """A type name follows a column name in CREATE TABLE or ALTER TABLE ... ADD, or AS inside CAST(... AS type)."""
    if prev is None:
        return False
    if paren_owner == "CAST":
        return prev.token_type == TokenType.ALIAS
    return statement_clause in ("CREATE", "ALTER") and prev.token_type in (TokenType.VAR, TokenType.IDENTIFIER) \
        and prev.text.upper() != "TO"   # RENAME COLUMN a TO text: a name
