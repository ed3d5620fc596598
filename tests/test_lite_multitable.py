"""INSERT ALL / INSERT FIRST (lite/multitable.py), held to a Python model of the SQL Language Reference.

The model: each subquery row goes to every INTO clause of an unconditional
INSERT ALL; under WHEN conditions INSERT ALL sends it to every clause whose
condition is true (ELSE: to the ELSE clauses when none is), INSERT FIRST to the
clauses of the first true condition only. A NULL comparison is not true.
"""

from __future__ import annotations

import random

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

from lite_sql import failure

_RANDOM = random.Random(11)
SOURCE = [(i, _RANDOM.choice([None, 1, 4, 6, 9]), _RANDOM.choice(["n", "s", None])) for i in range(1, 26)]
TABLES = ("t_big", "t_mid", "t_copy", "t_else")


@pytest.fixture()
def conn(tmp_path) -> LiteConnection:
    db = connect(tmp_path)
    cur = db.cursor()
    cur.execute("CREATE TABLE src (id NUMBER PRIMARY KEY, n NUMBER, tag VARCHAR2(1))")
    cur.executemany("INSERT INTO src (id, n, tag) VALUES (:1, :2, :3)", SOURCE)
    for table in TABLES:
        cur.execute(f"CREATE TABLE {table} (id NUMBER NOT NULL, n NUMBER, tag VARCHAR2(1))")
    db.commit()
    yield db
    db.close()


def _contents(db: LiteConnection) -> dict[str, list[tuple]]:
    cur = db.cursor()
    out = {}
    for table in TABLES:
        cur.execute(f"SELECT id, n, tag FROM {table}")
        out[table] = sorted(cur.fetchall(), key=repr)
    return out


def _true(value) -> bool:
    return value is True


def model(kind: str, whens: list[tuple], else_tables: list[str]) -> dict[str, list[tuple]]:
    """``whens``: (condition on a row -> True/False/None, [tables]) in order."""
    out: dict[str, list[tuple]] = {t: [] for t in TABLES}
    for row in SOURCE:
        hits = [tables for condition, tables in whens if _true(condition(row))]
        if kind == "FIRST":
            hits = hits[:1]
        for tables in hits:
            for table in tables:
                out[table].append(row)
        if not hits:
            for table in else_tables:
                out[table].append(row)
    return {t: sorted(rows, key=repr) for t, rows in out.items()}


def _gt(limit: int):
    return lambda row: None if row[1] is None else row[1] > limit


@pytest.mark.parametrize("kind", ["ALL", "FIRST"])
def test_conditional_inserts_match_the_definition(conn: LiteConnection, kind: str) -> None:
    cur = conn.cursor()
    cur.execute(f"""INSERT {kind}
                      WHEN n > 5 THEN INTO t_big (id, n, tag) VALUES (id, n, tag)
                                      INTO t_copy VALUES (id, n, tag)
                      WHEN n > 3 THEN INTO t_mid (id, n, tag) VALUES (id, n, tag)
                      WHEN tag = 's' THEN INTO t_copy (id, n, tag) VALUES (id, n, tag)
                      ELSE INTO t_else (id, tag) VALUES (id, tag)
                    SELECT id, n, tag FROM src""")
    want = model(kind, [(_gt(5), ["t_big", "t_copy"]), (_gt(3), ["t_mid"]),
                        (lambda r: None if r[2] is None else r[2] == "s", ["t_copy"])], ["t_else"])
    want["t_else"] = sorted([(r[0], None, r[2]) for r in want["t_else"]], key=repr)   # n is not inserted there
    assert _contents(conn) == want
    assert cur.rowcount == sum(len(rows) for rows in want.values())


def test_unconditional_insert_all_and_the_multi_row_idiom(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("INSERT ALL INTO t_big (id, n) VALUES (id, n) INTO t_mid (id, tag) VALUES (id + 100, tag) "
                "SELECT id, n, tag FROM src WHERE id <= 3")
    assert cur.rowcount == 6
    # the classic pre-23ai way to insert several rows in one statement
    cur.execute("INSERT ALL INTO t_else (id, tag) VALUES (1, 'a') INTO t_else (id, tag) VALUES (2, 'b') "
                "INTO t_copy (id) VALUES (:x) SELECT * FROM dual", x=7)
    assert cur.rowcount == 3
    got = _contents(conn)
    assert got["t_big"] == sorted([(r[0], r[1], None) for r in SOURCE[:3]], key=repr)
    assert got["t_mid"] == sorted([(r[0] + 100, None, r[2]) for r in SOURCE[:3]], key=repr)
    assert got["t_else"] == [(1, None, "a"), (2, None, "b")] and got["t_copy"] == [(7, None, None)]


def test_a_failing_into_undoes_the_whole_statement(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("INSERT INTO t_copy (id) VALUES (0)")
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute("INSERT ALL INTO t_big (id) VALUES (id) INTO t_mid (id) VALUES (n) SELECT id, n FROM src")
    assert info.value.args[0].code == 1400   # a NULL n into t_mid's NOT NULL id
    got = _contents(conn)
    assert got["t_big"] == [] and got["t_mid"] == [] and got["t_copy"] == [(0, None, None)]   # earlier work kept


@pytest.mark.parametrize("sql, code", [
    ("INSERT ALL INTO src (id) VALUES (id + 100) SELECT id FROM src", 3001),
    ("INSERT ALL INTO t_big (id) VALUES (no_such_column) SELECT id FROM src", 904),
    ("INSERT ALL INTO t_big (id, n) VALUES (id) SELECT id FROM src", 947),
    ("INSERT ALL INTO supplychain_nowhere.t (id) VALUES (id) SELECT id FROM src", 942),
])
def test_errors(conn: LiteConnection, sql: str, code: int) -> None:
    error = failure(conn, sql)
    assert error.code == code, error.message
    assert _contents(conn) == {t: [] for t in TABLES}


def test_sequence_numbers_are_refused(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE SEQUENCE mti_seq")
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute("INSERT ALL INTO t_big (id) VALUES (mti_seq.NEXTVAL) SELECT id FROM src")
    assert info.value.args[0].code == 3001 and "sequence" in info.value.args[0].message
