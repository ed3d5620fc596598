"""Sequences in lite (lite/sequences.py): NEXTVAL/CURRVAL held to a model of Oracle's numbering, and its errors.

Oracle's rules checked: one number per row however often NEXTVAL is named,
CURRVAL is the session's last NEXTVAL (ORA-08002 before one), bounds end a
NOCYCLE sequence (ORA-08004) and restart a CYCLE one, NEXTVAL only where
Oracle allows it (ORA-02287), and CREATE SEQUENCE's own checks (ORA-040xx).
"""

from __future__ import annotations

import oracledb
import pytest

from lite_sql import run
from workshop_lib.backends.lite import connect_lite


@pytest.fixture
def conn(tmp_path):
    connection = connect_lite(tmp_path, "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE t (id NUMBER PRIMARY KEY, twin NUMBER, name VARCHAR2(10))")
    cur.execute("CREATE TABLE src (name VARCHAR2(10))")
    cur.executemany("INSERT INTO src VALUES (:1)", [(f"n{i}",) for i in range(7)])
    connection.commit()
    yield connection
    connection.close()


def oracle_numbers(start: int, step: int, low: int, high: int, cycle: bool, count: int) -> list[int | str]:
    """The numbers Oracle's NEXTVAL hands out, one call at a time ('ORA-08004' once a NOCYCLE one runs out)."""
    out: list[int | str] = []
    value = start
    for _ in range(count):
        if not low <= value <= high:
            if not cycle:
                out.append("ORA-08004")
                break
            value = low if step > 0 else high
        out.append(value)
        value += step
    return out


@pytest.mark.parametrize("ddl, start, step, low, high, cycle", [
    ("CREATE SEQUENCE s", 1, 1, 1, 10 ** 28 - 1, False),
    ("CREATE SEQUENCE s START WITH 100 INCREMENT BY 7 NOCACHE", 100, 7, 1, 10 ** 28 - 1, False),
    ("CREATE SEQUENCE s MAXVALUE 4 NOCACHE NOCYCLE", 1, 1, 1, 4, False),
    ("CREATE SEQUENCE s MINVALUE 2 MAXVALUE 7 INCREMENT BY 2 CYCLE NOCACHE", 2, 2, 2, 7, True),
    ("CREATE SEQUENCE s INCREMENT BY -3 MINVALUE -8 MAXVALUE -1 CYCLE CACHE 2", -1, -3, -8, -1, True),
    ("CREATE SEQUENCE s START WITH 5 INCREMENT BY -1 MINVALUE 3 MAXVALUE 9", 5, -1, 3, 9, False),
])
def test_nextval_hands_out_oracles_numbers(conn, ddl, start, step, low, high, cycle) -> None:
    run(conn, ddl)
    expected = oracle_numbers(start, step, low, high, cycle, 9)
    got: list[int | str] = []
    for _ in expected:
        try:
            got.append(run(conn, "SELECT s.NEXTVAL FROM dual")[0][0])
        except oracledb.DatabaseError as exc:
            got.append(exc.args[0].full_code)
            break
    assert got == expected


def test_one_number_per_row_and_currval_is_the_sessions_last(conn) -> None:
    run(conn, "CREATE SEQUENCE s START WITH 10 INCREMENT BY 10")
    with pytest.raises(oracledb.DatabaseError, match="ORA-08002"):
        run(conn, "SELECT s.CURRVAL FROM dual")
    run(conn, "INSERT INTO t (id, twin, name) VALUES (s.NEXTVAL, s.NEXTVAL, 'v')")
    run(conn, "INSERT INTO t (id, twin, name) SELECT s.NEXTVAL, s.CURRVAL, name FROM src WHERE name < 'n3'")
    assert run(conn, "SELECT id, twin, name FROM t ORDER BY id") == [
        (10, 10, "v"), (20, 20, "n0"), (30, 30, "n1"), (40, 40, "n2")]
    assert run(conn, "SELECT s.CURRVAL, s.CURRVAL + 1 FROM dual") == [(40, 41)]
    run(conn, "UPDATE t SET twin = s.NEXTVAL WHERE name = 'v'")
    assert run(conn, "SELECT twin FROM t WHERE name = 'v'") == [(50,)]
    assert run(conn, "SELECT sequence_name, increment_by, last_number FROM user_sequences") == [("S", 10, 60)]
    # through an alias too (the catalog keeps the numbers as text: each column is typed by its name)
    assert run(conn, "SELECT q.sequence_name, q.increment_by, q.last_number, q.max_value FROM user_sequences q") \
        == [("S", 10, 60, 10 ** 28 - 1)]


def test_another_session_has_its_own_currval(conn, tmp_path) -> None:
    run(conn, "CREATE SEQUENCE s")
    run(conn, "SELECT s.NEXTVAL FROM dual")
    conn.commit()
    other = connect_lite(tmp_path, "HR")
    try:
        with pytest.raises(oracledb.DatabaseError, match="ORA-08002"):
            other.cursor().execute("SELECT s.CURRVAL FROM dual")
        cur = other.cursor()
        cur.execute("SELECT s.NEXTVAL FROM dual")
        assert cur.fetchall() == [(2,)]
    finally:
        other.close()


@pytest.mark.parametrize("sql", [
    "SELECT name FROM src WHERE LENGTH(name) = s.NEXTVAL",
    "SELECT DISTINCT s.NEXTVAL FROM src",
    "SELECT s.NEXTVAL FROM src ORDER BY name",
    "SELECT (SELECT s.NEXTVAL FROM dual) FROM dual",
    "SELECT s.NEXTVAL FROM dual UNION ALL SELECT 1 FROM dual",
    "DELETE FROM t WHERE id = s.NEXTVAL",
])
def test_nextval_where_oracle_refuses_it(conn, sql: str) -> None:
    run(conn, "CREATE SEQUENCE s")
    with pytest.raises(oracledb.DatabaseError, match="ORA-02287"):
        run(conn, sql)


@pytest.mark.parametrize("sql, code", [
    ("CREATE SEQUENCE bad INCREMENT BY 0", "ORA-04002"),
    ("CREATE SEQUENCE bad MINVALUE 5 MAXVALUE 5", "ORA-04004"),
    ("CREATE SEQUENCE bad START WITH 0", "ORA-04006"),
    ("CREATE SEQUENCE bad START WITH 11 MAXVALUE 10", "ORA-04008"),
    ("CREATE SEQUENCE bad MAXVALUE 3 CYCLE", "ORA-04013"),          # the default CACHE 20 is more than a cycle
    ("CREATE SEQUENCE bad START WITH 1.5", "ORA-04001"),
    ("CREATE SEQUENCE t", "ORA-00955"),
    ("CREATE SEQUENCE bad SCALE EXTEND", "ORA-03001"),
    ("SELECT bad.NEXTVAL FROM dual", "ORA-02289"),
    ("DROP SEQUENCE bad", "ORA-02289"),
])
def test_oracles_errors_and_nothing_created(conn, sql: str, code: str) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    assert info.value.args[0].full_code == code, str(info.value)
    assert run(conn, "SELECT COUNT(*) FROM user_sequences") == [(0,)]


def test_drop_and_the_shared_namespace(conn) -> None:
    run(conn, "CREATE SEQUENCE s")
    with pytest.raises(oracledb.DatabaseError, match="ORA-00955"):
        run(conn, "CREATE TABLE s (a NUMBER)")
    for view in ("CREATE VIEW s AS SELECT 1 AS one FROM dual", "CREATE OR REPLACE VIEW s AS SELECT 1 AS one FROM dual"):
        with pytest.raises(oracledb.DatabaseError, match="ORA-00955"):
            run(conn, view)
    run(conn, "DROP SEQUENCE s")
    assert run(conn, "SELECT COUNT(*) FROM user_sequences") == [(0,)]
    run(conn, "CREATE TABLE s (a NUMBER)")
