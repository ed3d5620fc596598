"""Non-Oracle SQL must fail in lite exactly as documented, so lite never teaches SQL that fails on Oracle.

Each rejected statement is run through a real lite connection and must raise
an ``oracledb.DatabaseError`` whose message carries the ORA code, names the
construct and points at the Oracle form (the table in docs/lite-engine.md,
"What lite rejects"). The second half checks the guard does not reject Oracle
SQL that merely looks similar (a column called TEXT, LIMIT inside a string, a
``?`` in a comment, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

DOCS = Path(__file__).resolve().parent.parent / "docs" / "lite-engine.md"

# statement, ORA code, what the message must say, what the hint must suggest
REJECTED = [
    ("SELECT name FROM t LIMIT 5", 933, "LIMIT is not Oracle SQL", "FETCH FIRST n ROWS ONLY"),
    ("SELECT name FROM t WHERE id = ?", 911, "invalid character: ?", ":owner"),
    ("SELECT `name` FROM t", 911, "invalid character: `", "double quotes"),
    ("SELECT IFNULL(name, 'x') FROM t", 904, '"IFNULL": invalid identifier', "NVL(expr, default)"),
    ("SELECT GROUP_CONCAT(name) FROM t", 904, '"GROUP_CONCAT": invalid identifier', "LISTAGG"),
    ("SELECT id::VARCHAR2(10) FROM t", 933, "the :: cast is not Oracle SQL", "CAST(expr AS"),
    ("SELECT x.name FROM t AS x", 933, "Oracle does not allow AS before a table alias", "no AS"),
    ("CREATE TABLE bad_text (note TEXT)", 933, "TEXT type is not Oracle SQL", "VARCHAR2(n) or CLOB"),
    ("CREATE TABLE bad_dt (seen DATETIME)", 933, "DATETIME type is not Oracle SQL", "DATE or TIMESTAMP"),
    ("CREATE TABLE bad_ai (id INTEGER PRIMARY KEY AUTOINCREMENT)", 933, "AUTOINCREMENT is not Oracle SQL",
     "GENERATED ALWAYS AS IDENTITY"),
    ("SELECT name FROM t;", 933, "trailing ';'", "remove the semicolon"),
    ("SELECT name FROM t WHERE name ILIKE 'm%'", 933, "ILIKE is not Oracle SQL", "UPPER(col) LIKE UPPER"),
    ("SELECT TOP 3 name FROM t", 933, "TOP n is not Oracle SQL", "FETCH FIRST n ROWS ONLY"),
    ("SELECT NOW() FROM dual", 904, '"NOW": invalid identifier', "SYSDATE"),
    ("SELECT name FROM t WHERE id == 1", 920, "invalid relational operator ==", "use ="),
    ("SELECT JSON_EXTRACT(doc, '$.a') FROM t", 904, '"JSON_EXTRACT": invalid identifier', "JSON_VALUE"),
    ("SELECT STRING_AGG(name, ',') FROM t", 904, '"STRING_AGG": invalid identifier', "LISTAGG"),
    ("CREATE TABLE bad_serial (id SERIAL PRIMARY KEY)", 933, "SERIAL is not Oracle SQL", "IDENTITY"),
    ("CREATE TABLE bad_jsonb (doc JSONB)", 933, "JSONB type is not Oracle SQL", "JSON"),
    ("SELECT CAST(id AS TEXT) FROM t", 933, "TEXT type is not Oracle SQL", "VARCHAR2"),
    ("PRAGMA table_info(t)", 933, "PRAGMA is not Oracle SQL", "ALL_TAB_COLUMNS"),
    ("SELECT name FROM t WHERE name REGEXP 'a'", 933, "REGEXP operator is not Oracle SQL", "REGEXP_LIKE"),
    ("SELECT 1 FROM dual; SELECT 2 FROM dual", 933, "one statement at a time", "split the text"),
    ("SELECT DATETIME('now') FROM dual", 904, '"DATETIME": invalid identifier', "SYSDATE"),
]

# Oracle SQL that lite does not implement: refused with ORA-03001 naming it (never run half-way).
UNSUPPORTED = [
    ("SELECT name FROM t WHERE ROWNUM <= 2 ORDER BY name", "ROWNUM in a query block with ORDER BY", "FETCH FIRST n ROWS ONLY"),
    ("DELETE FROM t WHERE ROWNUM <= 2", "ROWNUM in DELETE statements", "ROWNUM <= n"),
    ("SELECT a.id FROM t a, t b WHERE a.id = id(+)", "(+) on a column without its table", "LEFT OUTER JOIN"),
    ("BEGIN NULL; END;", "PL/SQL blocks", "only on Oracle"),
    ("INSERT INTO t (id, name) SELECT 9, 'x' FROM dual RETURNING id INTO :new_id", "RETURNING ... INTO with INSERT ... SELECT",
     "select the rows"),
    ("SELECT name FROM t UNION SELECT name FROM t ORDER BY 1 FETCH FIRST 50 PERCENT ROWS ONLY",
     "FETCH FIRST ... PERCENT on a set operation", "select from the set operation in a subquery"),
    ("GRANT SELECT ON t TO someone", "GRANT/REVOKE", "only on Oracle"),
    ("CREATE TABLE t2 AS SELECT id, NULL AS nothing FROM t", "CREATE TABLE ... AS SELECT of a value whose type",
     "CAST(expression AS VARCHAR2(100)) AS NOTHING"),
    ("CREATE TABLE t3 (v VECTOR(3, INT8))", "column type VECTOR(3, INT8)", "FLOAT32|FLOAT64"),
    ("SELECT EXTRACT(TIMEZONE_HOUR FROM SYSTIMESTAMP) FROM dual", "EXTRACT(TIMEZONE_HOUR", None),
]


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    connection = connect(tmp_path_factory.mktemp("lite_guard"), "AGENT")
    cur = connection.cursor()
    cur.execute("CREATE TABLE t (id NUMBER PRIMARY KEY, name VARCHAR2(40), text VARCHAR2(40), doc JSON)")
    cur.execute("INSERT INTO t (id, name, text) VALUES (1, 'Maersk', 'LIMIT 5 rows')")
    cur.execute("INSERT INTO t (id, name, text) VALUES (2, 'MSC', 'why? `quoted` a::b')")
    connection.commit()
    yield connection
    connection.close()


@pytest.mark.parametrize("sql, code, message, hint", REJECTED, ids=[r[0][:40] for r in REJECTED])
def test_non_oracle_sql_is_rejected_with_the_documented_message(conn: LiteConnection, sql: str, code: int,
                                                                message: str, hint: str) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        conn.cursor().execute(sql)
    error = info.value.args[0]
    assert error.code == code, str(info.value)
    text = str(info.value)
    assert text.startswith(f"ORA-{code:05d}: ")
    assert message in text and hint in text, text


@pytest.mark.parametrize("sql, construct, hint", UNSUPPORTED, ids=[u[1] for u in UNSUPPORTED])
def test_unsupported_oracle_constructs_name_themselves(conn: LiteConnection, sql: str, construct: str,
                                                      hint: str | None) -> None:
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM t")
    before = cur.fetchone()
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute(sql)
    text = str(info.value)
    assert info.value.args[0].code == 3001 and construct in text, text
    if hint:
        assert hint in text
    cur.execute("SELECT COUNT(*) FROM t")
    assert cur.fetchone() == before  # nothing ran half-way


def test_rejected_statements_are_never_executed(conn: LiteConnection) -> None:
    cur = conn.cursor()
    with pytest.raises(oracledb.DatabaseError):
        cur.execute("DELETE FROM t WHERE id = ?", [1])
    with pytest.raises(oracledb.DatabaseError):
        cur.execute("DELETE FROM t LIMIT 1")
    cur.execute("SELECT COUNT(*) FROM t")
    assert cur.fetchone() == (2,)


LOOKALIKES = [
    # statement, binds, expected rows
    ("SELECT text FROM t WHERE text LIKE '%LIMIT%'", {}, [("LIMIT 5 rows",)]),
    ("SELECT text FROM t WHERE id = :id -- LIMIT 1 and a ? in a comment", {"id": 2}, [("why? `quoted` a::b",)]),
    ("SELECT /* IFNULL(x) ; */ name FROM t WHERE id = 1", {}, [("Maersk",)]),
    ("SELECT 'it''s ? ` :: LIMIT ;' AS s FROM dual", {}, [("it's ? ` :: LIMIT ;",)]),
    ('SELECT "TEXT" AS limit_text FROM t WHERE id = 1', {}, [("LIMIT 5 rows",)]),
    ("SELECT x.name AS text FROM t x WHERE x.id = :1", (1,), [("Maersk",)]),
    ("SELECT COUNT(*) AS total FROM t WHERE name = :name", {"name": "MSC"}, [(1,)]),
]


@pytest.mark.parametrize("sql, binds, expected", LOOKALIKES, ids=[f"lookalike{i}" for i in range(len(LOOKALIKES))])
def test_oracle_sql_that_looks_suspicious_still_runs(conn: LiteConnection, sql: str, binds: object,
                                                     expected: list[tuple]) -> None:
    cur = conn.cursor()
    cur.execute(sql, binds or None)
    assert cur.fetchall() == expected


def test_a_table_with_oracle_names_that_other_databases_treat_as_types(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE words (text VARCHAR2(10), string VARCHAR2(10), datetime DATE)")
    cur.execute("INSERT INTO words (text, string, datetime) VALUES ('a', 'b', DATE '2025-01-02')")
    cur.execute("SELECT text, string, datetime FROM words")
    assert [d[0] for d in cur.description] == ["TEXT", "STRING", "DATETIME"]
    assert cur.fetchall()[0][:2] == ("a", "b")


def test_every_rejection_is_documented() -> None:
    """docs/lite-engine.md lists each rejected construct with its ORA code and the Oracle form."""
    docs = DOCS.read_text(encoding="utf-8")
    section = docs.split("## What lite rejects", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    for sql, code, message, hint in REJECTED:
        construct = re.sub(r"^(invalid character: |invalid relational operator )", "", message)
        construct = construct.split(" is not Oracle SQL")[0].split(": invalid identifier")[0].strip('"')
        construct = {"the :: cast": "::", "one statement at a time": "two statements"}.get(construct, construct)
        construct = construct.replace(" type", "").replace("TOP n", "TOP").replace(" operator", "")
        matching = [row for row in rows if construct in row]
        assert matching, f"{construct!r} ({sql!r}) is not in the table of docs/lite-engine.md"
        assert any(f"ORA-{code:05d}" in row for row in matching), f"{construct}: ORA-{code:05d} not documented"
    for sql, construct, hint in UNSUPPORTED:
        assert construct.split(" ")[0] in section, construct


def _strip_strings_by_hand(sql: str) -> str:
    """The character loop lite used before the regular expression: the reference the faster one must match."""
    out, i, n = [], 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":
            j = i + 1
            while j < n:
                if sql[j] == ch:
                    if j + 1 < n and sql[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " * (j - i))
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def test_blanking_literals_and_comments_keeps_code_and_positions() -> None:
    import random

    from workshop_lib.lite.guard import _strip_strings

    rng = random.Random(11)
    alphabet = ["a", "'", '"', "-", "/", "*", "\n", " ", ":1", ";", "`", "''"]
    for _ in range(20000):
        sql = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert _strip_strings(sql) == _strip_strings_by_hand(sql), repr(sql)
    assert _strip_strings("SELECT 'a;b' -- c;\nFROM \"x\" /* ; */") == "SELECT       " + " " * 5 + "\nFROM " + " " * 3 \
        + " " + " " * 7


@pytest.mark.parametrize("sql", ["SELECT 1 AS order FROM dual", "SELECT 1 FROM dual order", "SELECT 1 AS select FROM dual",
                                 "SELECT t.id FROM t table", "SELECT id AS level FROM t"])
def test_an_oracle_reserved_word_is_no_name(conn: LiteConnection, sql: str) -> None:
    """Oracle rejects these; sqlglot reads most of them as names (its parser refuses the rest: ORA-00933) and
    SQLite would take them quoted."""
    with pytest.raises(oracledb.DatabaseError, match=r"ORA-00904: .*is an Oracle reserved word|ORA-00933"):
        conn.cursor().execute(sql)


def test_sqlite_keywords_are_names_in_oracle(conn: LiteConnection) -> None:
    """NOTHING, PLAN, QUERY, PRAGMA, ... are not reserved in Oracle: as aliases and columns they work (lite
    quotes them in the SQLite text; SQLite read `AS nothing` as a syntax error)."""
    cur = conn.cursor()
    cur.execute("SELECT 1 AS nothing, 2 AS plan, 3 AS pragma, 4 AS top, 5 AS limit, 6 AS vacuum FROM dual")
    assert cur.fetchall() == [(1, 2, 3, 4, 5, 6)]
    cur.execute("CREATE TABLE kw (query NUMBER, plan VARCHAR2(5), nothing NUMBER)")
    cur.execute("INSERT INTO kw (query, plan, nothing) VALUES (1, 'a', 2)")
    cur.execute("SELECT nothing, plan FROM kw WHERE query = 1 ORDER BY plan")
    assert cur.fetchall() == [(2, "a")]
    cur.execute("DROP TABLE kw")
