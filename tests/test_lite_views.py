"""Views in lite (lite/views.py): stored Oracle text put in place of the view's name, with Oracle's rules.

A view must give the rows its query gives, wherever it is used (joined,
filtered, inside another view, in the nearest-rows search), be listed by the
dictionary as Oracle lists views, and be refused where lite does not
implement it (writes through a view) or where Oracle refuses it.
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
    cur.execute("CREATE TABLE dept (deptno NUMBER PRIMARY KEY, dname VARCHAR2(14) NOT NULL)")
    cur.execute("CREATE TABLE emp (empno NUMBER PRIMARY KEY, ename VARCHAR2(10), sal NUMBER, "
                "deptno NUMBER REFERENCES dept, v VECTOR(2, FLOAT32))")
    cur.executemany("INSERT INTO dept VALUES (:1, :2)", [(10, "ACCOUNTING"), (20, "RESEARCH"), (30, "SALES")])
    cur.executemany("INSERT INTO emp VALUES (:1, :2, :3, :4, TO_VECTOR(:5))",
                    [(i, f"E{i}", 100 * i, (10, 20, 30)[i % 3], f"[{i}, 1]") for i in range(1, 13)])
    connection.commit()
    yield connection
    connection.close()


QUERY = "SELECT e.empno, e.ename, d.dname, e.sal * 12 AS annual FROM emp e JOIN dept d ON d.deptno = e.deptno"


def test_a_view_gives_its_querys_rows_wherever_it_is_used(conn) -> None:
    run(conn, f"CREATE VIEW staff AS {QUERY}")
    assert sorted(run(conn, "SELECT * FROM staff")) == sorted(run(conn, QUERY))
    assert run(conn, "SELECT s.ename FROM staff s WHERE s.annual > 12000 AND s.dname = 'RESEARCH' ORDER BY 1") == \
        run(conn, f"SELECT ename FROM ({QUERY}) WHERE annual > 12000 AND dname = 'RESEARCH' ORDER BY 1")
    assert run(conn, "SELECT d.dname, COUNT(*) FROM staff s JOIN dept d ON d.dname = s.dname GROUP BY d.dname "
                     "ORDER BY 1") == [("ACCOUNTING", 4), ("RESEARCH", 4), ("SALES", 4)]
    assert len(run(conn, "SELECT ename FROM staff WHERE ROWNUM <= 5")) == 5
    run(conn, "CREATE VIEW top_staff (who, yearly) AS SELECT ename, annual FROM staff WHERE annual >= 12000")
    assert sorted(run(conn, "SELECT who FROM top_staff")) == sorted(
        (e,) for e, a in run(conn, "SELECT ename, sal * 12 FROM emp") if a >= 12000)


def test_the_nearest_rows_search_through_a_view_is_the_tables(conn) -> None:
    run(conn, "CREATE VIEW vecs AS SELECT empno, v FROM emp WHERE deptno <> 30")
    through = run(conn, "SELECT empno FROM vecs ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[5, 1]'), EUCLIDEAN) "
                        "FETCH FIRST 3 ROWS ONLY")
    direct = run(conn, "SELECT empno FROM emp WHERE deptno <> 30 "
                       "ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[5, 1]'), EUCLIDEAN) FETCH FIRST 3 ROWS ONLY")
    assert through == direct and len(through) == 3


def test_the_dictionary_lists_views_as_oracle_does(conn) -> None:
    run(conn, f"CREATE VIEW staff AS {QUERY}")
    run(conn, "COMMENT ON TABLE staff IS 'who works where'")
    assert run(conn, "SELECT view_name, text FROM user_views") == [("STAFF", QUERY)]
    assert run(conn, "SELECT table_name, table_type, comments FROM user_tab_comments ORDER BY 1") == [
        ("DEPT", "TABLE", None), ("EMP", "TABLE", None), ("STAFF", "VIEW", "who works where")]
    assert run(conn, "SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'STAFF' "
                     "ORDER BY column_id") == [("EMPNO", "NUMBER"), ("ENAME", "VARCHAR2"), ("DNAME", "VARCHAR2"),
                                               ("ANNUAL", "NUMBER")]
    assert ("STAFF",) not in run(conn, "SELECT table_name FROM user_tables")


def test_replace_and_drop(conn) -> None:
    run(conn, "CREATE VIEW v1 AS SELECT empno FROM emp WHERE empno < 3")
    with pytest.raises(oracledb.DatabaseError, match="ORA-00955"):
        run(conn, "CREATE VIEW v1 AS SELECT empno FROM emp")
    run(conn, "CREATE OR REPLACE VIEW v1 (n, who) AS SELECT empno, ename FROM emp WHERE empno > 10")
    assert run(conn, "SELECT n, who FROM v1 ORDER BY n") == [(11, "E11"), (12, "E12")]
    run(conn, "DROP VIEW v1")
    with pytest.raises(oracledb.DatabaseError, match="ORA-00942"):
        run(conn, "SELECT * FROM v1")
    assert run(conn, "SELECT COUNT(*) FROM user_tab_columns WHERE table_name = 'V1'") == [(0,)]
    with pytest.raises(oracledb.DatabaseError, match="ORA-00942"):
        run(conn, "DROP VIEW v1")


@pytest.mark.parametrize("sql, code", [
    ("CREATE VIEW bad AS SELECT nope FROM emp", 904),
    ("CREATE VIEW bad AS SELECT empno FROM nowhere", 942),
    ("CREATE VIEW bad AS SELECT empno, sal * 2 FROM emp", 998),
    ("CREATE VIEW bad AS SELECT empno FROM emp WHERE sal > :s", 1027),
    ("CREATE VIEW emp AS SELECT empno FROM emp", 955),
    ("CREATE VIEW bad AS SELECT numbers.NEXTVAL AS n FROM dual", 2287),   # no sequence numbers in a view
    ("CREATE TABLE staff_v (a NUMBER)", None),   # creates a table: the name is then taken for a view
])
def test_oracles_errors_at_create_and_nothing_created(conn, sql: str, code: int | None) -> None:
    run(conn, "CREATE SEQUENCE numbers")
    if code is None:
        run(conn, sql)
        with pytest.raises(oracledb.DatabaseError, match="ORA-00955"):
            run(conn, "CREATE VIEW staff_v AS SELECT empno FROM emp")
        return
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql, {"s": 1} if ":s" in sql else None)
    assert info.value.args[0].code == code, str(info.value)
    assert run(conn, "SELECT COUNT(*) FROM user_views") == [(0,)]


def test_writes_through_a_view_and_cycles_are_refused(conn) -> None:
    run(conn, "CREATE VIEW v1 AS SELECT empno, ename FROM emp")
    run(conn, "CREATE VIEW v2 AS SELECT empno FROM v1")
    for sql in ("INSERT INTO v1 VALUES (99, 'x')", "UPDATE v1 SET ename = 'y'", "DELETE FROM v2"):
        with pytest.raises(oracledb.DatabaseError, match="ORA-03001.*on the view HR.V"):
            run(conn, sql)
    with pytest.raises(oracledb.DatabaseError, match="ORA-01731"):
        run(conn, "CREATE OR REPLACE VIEW v1 AS SELECT empno, empno AS ename FROM v2")
    assert run(conn, "SELECT COUNT(*) FROM v2") == [(12,)]    # the failed replace kept v1 as it was
    run(conn, "CREATE VIEW ro AS SELECT empno FROM emp WITH READ ONLY")
    assert run(conn, "SELECT COUNT(*) FROM ro") == [(12,)]


def test_another_connections_replace_reaches_this_ones_cached_statement(conn, tmp_path) -> None:
    """A plan holds the view's query: a view replaced (or any DDL) by another connection drops this one's plans."""
    run(conn, "CREATE VIEW v AS SELECT empno AS n FROM emp WHERE empno = 1")
    other = connect_lite(tmp_path, "HR")
    try:
        assert run(other, "SELECT n FROM v") == [(1,)]
        run(conn, "CREATE OR REPLACE VIEW v AS SELECT empno AS n FROM emp WHERE empno = 2")
        assert run(other, "SELECT n FROM v") == [(2,)]
    finally:
        other.close()
