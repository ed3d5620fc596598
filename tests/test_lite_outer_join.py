"""Oracle's (+) outer joins in lite (lite/outer_join.py): the same rows as the ANSI join Oracle documents as equal.

Every (+) query here is paired with the LEFT OUTER JOIN Oracle's SQL
Reference gives as its meaning, and both run over tables with missing
matches, NULL keys and duplicate keys; lite's ANSI joins are SQLite's own.
Misuses raise Oracle's error numbers and change nothing.
"""

from __future__ import annotations

import random
from collections import Counter

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("outer-join"), "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE a (id NUMBER, k NUMBER, tag VARCHAR2(5))")
    cur.execute("CREATE TABLE b (id NUMBER, k NUMBER, flag VARCHAR2(1))")
    cur.execute("CREATE TABLE c (id NUMBER, bk NUMBER, note VARCHAR2(5))")
    rng = random.Random(11)
    key = lambda: rng.choice([None, 1, 2, 2, 3, 4, 5, 6])   # noqa: E731 - NULLs, repeats and misses
    cur.executemany("INSERT INTO a VALUES (:1, :2, :3)", [(i, key(), rng.choice(["x", "y"])) for i in range(30)])
    cur.executemany("INSERT INTO b VALUES (:1, :2, :3)", [(i, key(), rng.choice(["Y", "N"])) for i in range(12)])
    cur.executemany("INSERT INTO c VALUES (:1, :2, :3)", [(i, key(), f"n{i}") for i in range(8)])
    connection.commit()
    yield connection
    connection.close()


def rows(conn, sql: str, binds=None) -> Counter:
    cur = conn.cursor()
    cur.execute(sql, binds or {})
    return Counter(cur.fetchall())


PAIRS = [
    # (+) on the right-hand table
    ("SELECT a.id, b.id FROM a, b WHERE a.k = b.k(+)",
     "SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON a.k = b.k"),
    # the marked table first in FROM, the condition written either way round
    ("SELECT a.id, b.id FROM b, a WHERE b.k(+) = a.k",
     "SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON b.k = a.k"),
    # a marked condition on a constant joins fewer rows; an unmarked one filters the result
    ("SELECT a.id, b.id FROM a, b WHERE a.k = b.k(+) AND b.flag(+) = 'Y'",
     "SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON a.k = b.k AND b.flag = 'Y'"),
    ("SELECT a.id, b.id FROM a, b WHERE a.k = b.k(+) AND b.flag = 'Y'",
     "SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON a.k = b.k WHERE b.flag = 'Y'"),
    # a bind in the marked condition, and an inner condition on the preserved table
    ("SELECT a.id, b.id FROM a, b WHERE a.k = b.k(+) AND b.id(+) > :m AND a.tag = 'x'",
     "SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON a.k = b.k AND b.id > :m WHERE a.tag = 'x'"),
    # a chain: c outer-joined to b, itself outer-joined to a (FROM order reversed)
    ("SELECT a.id, b.id, c.id FROM c, b, a WHERE a.k = b.k(+) AND c.bk(+) = b.k",
     "SELECT a.id, b.id, c.id FROM a LEFT OUTER JOIN b ON a.k = b.k LEFT OUTER JOIN c ON c.bk = b.k"),
    # one table outer-joined to two others (Oracle 12c and later)
    ("SELECT a.id, c.id, b.id FROM a, b, c WHERE a.id = c.id AND b.k(+) = a.k AND b.id(+) = c.bk",
     "SELECT a.id, c.id, b.id FROM a CROSS JOIN c LEFT OUTER JOIN b ON b.k = a.k AND b.id = c.bk WHERE a.id = c.id"),
    # an inner join beside an outer one
    ("SELECT a.id, b.id, c.id FROM a, b, c WHERE a.k = b.k AND c.bk(+) = a.k",
     "SELECT a.id, b.id, c.id FROM a JOIN b ON a.k = b.k LEFT OUTER JOIN c ON c.bk = a.k"),
    # a self join with aliases, an expression over a marked column, an inline view
    ("SELECT x.id, y.id FROM a x, a y WHERE x.k + 1 = y.k(+)",
     "SELECT x.id, y.id FROM a x LEFT OUTER JOIN a y ON x.k + 1 = y.k"),
    ("SELECT a.id, v.id FROM a, (SELECT id, k FROM b WHERE flag = 'Y') v WHERE v.k(+) = a.k",
     "SELECT a.id, v.id FROM a LEFT OUTER JOIN (SELECT id, k FROM b WHERE flag = 'Y') v ON v.k = a.k"),
    # aggregates over the joined rows
    ("SELECT a.tag, COUNT(*), COUNT(b.id) FROM a, b WHERE a.k = b.k(+) GROUP BY a.tag",
     "SELECT a.tag, COUNT(*), COUNT(b.id) FROM a LEFT OUTER JOIN b ON a.k = b.k GROUP BY a.tag"),
]


@pytest.mark.parametrize("marked, ansi", PAIRS, ids=[p[0][:60] for p in PAIRS])
def test_a_marked_query_returns_the_rows_of_its_ansi_join(conn, marked: str, ansi: str) -> None:
    binds = {"m": 4} if ":m" in marked else None
    got, expected = rows(conn, marked, binds), rows(conn, ansi, binds)
    assert got == expected
    # the data has rows without a match, so the outer join keeps rows the inner join drops -- except where an
    # unmarked condition on the outer-joined table filters them out again, as in Oracle
    inner = rows(conn, marked.replace("(+)", ""), binds)
    assert (got == inner) == ("b.flag = 'Y'" in marked)


def test_a_correlated_condition_and_a_single_table_make_no_outer_join(conn) -> None:
    """Oracle: (+) between a subquery's table and the outer query's, or in a one-table block, filters as written."""
    assert rows(conn, "SELECT a.id, (SELECT MAX(b.id) FROM b WHERE b.k(+) = a.k) FROM a") == \
        rows(conn, "SELECT a.id, (SELECT MAX(b.id) FROM b WHERE b.k = a.k) FROM a")
    assert rows(conn, "SELECT id FROM a WHERE a.k(+) = 2") == rows(conn, "SELECT id FROM a WHERE a.k = 2")


@pytest.mark.parametrize("sql, code", [
    ("SELECT a.id FROM a, b WHERE a.k = b.k(+) OR a.id = 1", 1719),
    ("SELECT a.id FROM a, b WHERE a.k = b.k(+) AND (b.flag(+) = 'Y' OR a.id = 1)", 1719),
    ("SELECT a.id FROM a, b WHERE a.k = b.k(+) AND b.id(+) IN (1, 2)", 1719),
    ("SELECT a.id FROM a, b WHERE a.k(+) = b.k(+)", 1468),
    ("SELECT a.id FROM a, b WHERE a.k = b.k(+) AND b.id = a.id(+)", 1416),
    ("SELECT a.id FROM a JOIN c ON c.id = a.id, b WHERE a.k = b.k(+)", 25156),
    ("SELECT a.id FROM a, b WHERE b.k(+) = (SELECT MAX(k) FROM c)", 1799),
    ("SELECT a.id, b.id(+) FROM a, b WHERE a.k = b.k(+)", 30563),
    ("SELECT a.id FROM a, b WHERE a.k = b.k(+) ORDER BY b.id(+)", 30563),
    ("UPDATE a SET k = 1 WHERE a.k(+) = 2", 30563),
    ("SELECT a.id FROM a, b WHERE a.k = flag(+)", 3001),
    ("SELECT a.id FROM a, b WHERE a.k(+) = 1 AND b.k(+) = 2", 3001),
    ("SELECT a.id FROM a, a WHERE a.k = a.id(+)", 918),
])
def test_misuses_raise_oracles_error_and_change_nothing(conn, sql: str, code: int) -> None:
    before = rows(conn, "SELECT id, k FROM a")
    with pytest.raises(oracledb.DatabaseError) as info:
        rows(conn, sql)
    assert info.value.args[0].code == code, str(info.value)
    assert rows(conn, "SELECT id, k FROM a") == before
