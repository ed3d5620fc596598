"""ROWNUM in lite (lite/rownum.py): Oracle's numbering as rows pass WHERE, held to a model of Oracle's rule.

Oracle hands out ROWNUM values one row at a time: a row that fails the
condition does not use up its number, so the next row is offered the same
one. ``oracle_rownum`` below is that rule in Python; every comparison lite
accepts must return exactly the rows it gives, for literals and binds alike.
"""

from __future__ import annotations

import random
from decimal import Decimal

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite

ROWS = 20
OPERATORS = {"<=": lambda n, b: n <= b, "<": lambda n, b: n < b, "=": lambda n, b: n == b,
             ">": lambda n, b: n > b, ">=": lambda n, b: n >= b}
BOUNDS = [-1, 0, 0.5, 1, 1.5, 2, 2.5, 3, 7, 19, 20, 21, 100]


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("rownum"), "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE emp (empno NUMBER PRIMARY KEY, ename VARCHAR2(20), sal NUMBER, deptno NUMBER)")
    cur.executemany("INSERT INTO emp VALUES (:1, :2, :3, :4)",
                    [(i, f"E{i:02d}", (i * 37) % 101, i % 3) for i in range(1, ROWS + 1)])
    cur.execute("CREATE TABLE big (id NUMBER PRIMARY KEY, k NUMBER)")
    keys = list(range(2000))
    random.Random(7).shuffle(keys)
    cur.executemany("INSERT INTO big VALUES (:1, :2)", list(enumerate(keys)))
    connection.commit()
    yield connection
    connection.close()


def oracle_rownum(passing: int, test) -> int:
    """How many of ``passing`` rows Oracle returns for a ROWNUM condition ``test(rownum)``."""
    returned = 0
    for _ in range(passing):
        if test(returned + 1):
            returned += 1
    return returned


def rows(conn, sql: str, binds=None) -> list[tuple]:
    cur = conn.cursor()
    cur.execute(sql, binds or {})
    return cur.fetchall()


@pytest.mark.parametrize("op", list(OPERATORS))
def test_every_comparison_returns_what_oracles_numbering_gives(conn, op: str) -> None:
    for bound in BOUNDS:
        expected = oracle_rownum(ROWS, lambda n: OPERATORS[op](n, bound))
        literal = rows(conn, f"SELECT ename FROM emp WHERE ROWNUM {op} {bound}")
        bound_value = rows(conn, f"SELECT ename FROM emp WHERE ROWNUM {op} :b", {"b": bound})
        mirrored = {"<=": ">=", "<": ">", "=": "=", ">": "<", ">=": "<="}[op]
        flipped = rows(conn, f"SELECT ename FROM emp WHERE {bound} {mirrored} ROWNUM")
        assert len(literal) == len(bound_value) == len(flipped) == expected, (op, bound)


def test_a_decimal_and_a_null_bind(conn) -> None:
    assert len(rows(conn, "SELECT ename FROM emp WHERE ROWNUM < :b", {"b": Decimal("3.2")})) == 3
    assert rows(conn, "SELECT ename FROM emp WHERE ROWNUM <= :b", {"b": None}) == []


def test_other_conditions_filter_before_numbering_and_several_conditions_take_the_smallest(conn) -> None:
    got = rows(conn, "SELECT empno FROM emp WHERE deptno = 1 AND ROWNUM <= 3")
    assert len(got) == 3 and all(e % 3 == 1 for (e,) in got)
    assert len(rows(conn, "SELECT empno FROM emp WHERE ROWNUM <= 5 AND deptno = 2 AND ROWNUM < 3")) == 2
    assert len(rows(conn, "SELECT empno FROM emp WHERE ROWNUM > 0 AND ROWNUM <= 4")) == 4


def test_rownum_in_the_select_list_numbers_the_rows_returned(conn) -> None:
    got = rows(conn, "SELECT ROWNUM, ROWNUM * 10 AS tens, ename FROM emp WHERE ROWNUM <= 4")
    assert [(r[0], r[1]) for r in got] == [(1, 10), (2, 20), (3, 30), (4, 40)]
    joined = rows(conn, "SELECT ROWNUM, a.empno FROM emp a JOIN emp b ON b.empno = a.empno + 1 WHERE ROWNUM < 4")
    assert [r[0] for r in joined] == [1, 2, 3]


def test_top_n_and_pagination_follow_the_inline_views_order(conn) -> None:
    ordered = sorted(range(2000), key=lambda i: -i)   # k values, descending
    top = rows(conn, "SELECT ROWNUM, k FROM (SELECT k FROM big ORDER BY k DESC) WHERE ROWNUM <= 50")
    assert top == [(i + 1, k) for i, k in enumerate(ordered[:50])]
    page = rows(conn, "SELECT k, rnum FROM (SELECT a.*, ROWNUM rnum FROM (SELECT k FROM big ORDER BY k) a "
                      "WHERE ROWNUM <= :last) WHERE rnum > :first", {"first": 1000, "last": 1010})
    assert page == [(k, k + 1) for k in range(1000, 1010)]


def test_a_scalar_subquery_with_rownum_1_is_one_row_not_ora_01427(conn) -> None:
    got = rows(conn, "SELECT (SELECT ename FROM emp x WHERE x.deptno = 1 AND ROWNUM = 1) FROM dual")
    assert len(got) == 1 and got[0][0] is not None


def test_insert_select_with_rownum(conn) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE emp_copy (empno NUMBER, ename VARCHAR2(20))")
    cur.execute("INSERT INTO emp_copy SELECT empno, ename FROM emp WHERE ROWNUM <= 6")
    assert rows(conn, "SELECT COUNT(*) FROM emp_copy") == [(6,)]
    conn.rollback()


@pytest.mark.parametrize("sql, named", [
    ("SELECT ename FROM emp WHERE ROWNUM <= 5 ORDER BY sal", "with ORDER BY"),
    ("SELECT DISTINCT deptno FROM emp WHERE ROWNUM <= 5", "with DISTINCT"),
    ("SELECT deptno FROM emp WHERE ROWNUM <= 5 GROUP BY deptno", "with GROUP BY"),
    ("SELECT COUNT(*) FROM emp WHERE ROWNUM <= 5", "with an aggregate function (COUNT)"),
    ("SELECT ename, RANK() OVER (ORDER BY sal) FROM emp WHERE ROWNUM <= 5", "with an analytic function"),
    ("SELECT ename FROM emp WHERE ROWNUM <= 5 FETCH FIRST 2 ROWS ONLY", "with FETCH FIRST"),
    ("SELECT ename FROM emp WHERE ROWNUM <= 5 OFFSET 1 ROWS", "with OFFSET"),
    ("SELECT ename FROM emp ORDER BY ROWNUM", "ROWNUM in ORDER BY"),
    ("SELECT a.ename FROM emp a JOIN emp b ON ROWNUM = b.empno", "ROWNUM in a join condition"),
    ("SELECT ename FROM emp WHERE ROWNUM <= 5 OR deptno = 1", "ROWNUM in the condition"),
    ("SELECT ename FROM emp WHERE NOT ROWNUM > 5", "ROWNUM in the condition"),
    ("SELECT ename FROM emp WHERE ROWNUM <= sal", "ROWNUM in the condition"),
    ("SELECT ename FROM emp WHERE ROWNUM BETWEEN 1 AND 3", "ROWNUM in the condition"),
    ("SELECT ename FROM emp WHERE ROWNUM <= :a AND ROWNUM < 3", "more than one condition"),
    ("UPDATE emp SET sal = ROWNUM", "ROWNUM in UPDATE statements"),
    ("DELETE FROM emp WHERE ROWNUM <= 2", "ROWNUM in DELETE statements"),
])
def test_what_lite_cannot_number_is_refused_by_name_and_changes_nothing(conn, sql: str, named: str) -> None:
    before = rows(conn, "SELECT empno, sal FROM emp ORDER BY empno")
    with pytest.raises(oracledb.DatabaseError) as info:
        rows(conn, sql, {"a": 2} if ":a" in sql else None)
    assert info.value.args[0].code == 3001 and named in str(info.value), str(info.value)
    assert rows(conn, "SELECT empno, sal FROM emp ORDER BY empno") == before


def test_quoted_pseudocolumn_names_are_column_names(conn) -> None:
    """Oracle reads ROWNUM, SYSDATE, ... as keywords only unquoted; SQLite would read an unknown quoted name as a
    string, so lite checks it like any column name."""
    for name in ("ROWNUM", "SYSDATE", "LEVEL", "USER"):
        with pytest.raises(oracledb.DatabaseError, match=f'ORA-00904: "{name}": invalid identifier'):
            rows(conn, f'SELECT "{name}" FROM emp WHERE empno = 1')
    cur = conn.cursor()
    cur.execute('CREATE TABLE odd ("ROWNUM" NUMBER, "LEVEL" NUMBER)')
    cur.execute("INSERT INTO odd VALUES (7, 8)")
    cur.execute("INSERT INTO odd VALUES (9, 9)")
    assert rows(conn, 'SELECT "ROWNUM", "LEVEL", ROWNUM FROM odd WHERE "ROWNUM" = 9') == [(9, 9, 1)]
    conn.rollback()
