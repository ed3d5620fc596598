"""Hierarchical queries in lite (lite/connect_by.py), held to a Python model of the SQL Reference's rules.

"Hierarchical Queries": START WITH picks the roots (every row without it);
the rows for which the CONNECT BY condition holds, with PRIOR read on a row,
are its children; the result is depth first, each row before its children,
siblings in ORDER SIBLINGS BY order; WHERE filters afterwards; a row that is its
own ancestor is ORA-01436 unless NOCYCLE (then CONNECT_BY_ISCYCLE marks the row
whose child would loop).
"""

from __future__ import annotations

import random
from typing import Any, Callable

import oracledb
import pytest

from lite_sql import run
from workshop_lib.backends.lite import connect_lite


def _staff(seed: int, n: int) -> list[tuple]:
    """(empno, ename, mgr, sal, dept): a random forest of two trees, some names and salaries alike or NULL."""
    rnd = random.Random(seed)
    rows = []
    for empno in range(1, n + 1):
        mgr = None if empno in (1, 2) else rnd.randint(1, empno - 1)
        rows.append((empno, rnd.choice(["ADAMS", "BLAKE", "CLARK", "FORD", "KING", "WARD"]), mgr,
                     rnd.choice([None, 800, 1250, 2975, 3000]), rnd.choice([10, 20])))
    return rows


STAFF = _staff(7, 40)
DEPTS = [(10, "ACCOUNTING")]   # no row for department 20: an inner join leaves its staff out


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("connect_by"), "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE staff (empno NUMBER PRIMARY KEY, ename VARCHAR2(10), mgr NUMBER, sal NUMBER, "
                "dept NUMBER)")
    cur.executemany("INSERT INTO staff VALUES (:1, :2, :3, :4, :5)", STAFF)
    cur.execute("CREATE TABLE depts (dept NUMBER PRIMARY KEY, dname VARCHAR2(10))")
    cur.executemany("INSERT INTO depts VALUES (:1, :2)", DEPTS)
    cur.execute("CREATE TABLE links (id NUMBER, parent NUMBER)")
    cur.executemany("INSERT INTO links VALUES (:1, :2)", [(1, 3), (2, 1), (3, 2), (4, 2), (5, None)])
    connection.commit()
    yield connection
    connection.close()


def model(rows: list[tuple], is_root: Callable[[tuple], bool], sibling_key: Callable[[tuple], Any] | None = None,
          max_level: int | None = None) -> list[tuple[tuple, int, list[tuple]]]:
    """START WITH is_root CONNECT BY PRIOR empno = mgr [AND LEVEL <= max_level] ORDER SIBLINGS BY sibling_key:
    (row, LEVEL, the rows from the root to it), depth first."""
    order = sibling_key or (lambda r: r[0])   # lite breaks sibling ties in the table's order (rowid)
    out: list[tuple[tuple, int, list[tuple]]] = []

    def visit(row: tuple, chain: list[tuple]) -> None:
        chain = chain + [row]
        out.append((row, len(chain), chain))
        if max_level is not None and len(chain) >= max_level:
            return
        for child in sorted((r for r in rows if r[2] == row[0]), key=order):
            visit(child, chain)
    for root in sorted((r for r in rows if is_root(r)), key=order):
        visit(root, [])
    return out


def _name_then_salary_desc(row: tuple) -> tuple:
    """ORDER SIBLINGS BY ename, sal DESC (NULLS FIRST, Oracle's default for DESC), then the table's order."""
    return (row[1], 0 if row[3] is None else 1, -(row[3] or 0), row[0])


def test_depth_first_with_level_path_root_leaf_and_prior(conn) -> None:
    got = run(conn, """
        SELECT empno, LEVEL, SYS_CONNECT_BY_PATH(ename, '/'), CONNECT_BY_ROOT empno, CONNECT_BY_ISLEAF,
               PRIOR ename
        FROM   staff
        START  WITH mgr IS NULL
        CONNECT BY PRIOR empno = mgr
        ORDER  SIBLINGS BY ename, sal DESC""")
    expected = [(row[0], level, "".join("/" + r[1] for r in chain), chain[0][0],
                 int(not any(r[2] == row[0] for r in STAFF)), chain[-2][1] if level > 1 else None)
                for row, level, chain in model(STAFF, lambda r: r[2] is None, _name_then_salary_desc)]
    assert got == expected


def test_without_order_siblings_the_order_is_still_depth_first(conn) -> None:
    got = [r[0] for r in run(conn, "SELECT empno FROM staff START WITH empno = 2 CONNECT BY mgr = PRIOR empno")]
    assert got == [row[0] for row, _, _ in model(STAFF, lambda r: r[0] == 2)]


def test_where_filters_after_the_hierarchy_and_level_can_bound_it(conn) -> None:
    """A row WHERE removes still leads to its children; LEVEL <= 3 in CONNECT BY stops at the third level."""
    got = run(conn, "SELECT empno, LEVEL FROM staff WHERE sal >= 2975 START WITH mgr IS NULL "
                    "CONNECT BY PRIOR empno = mgr AND LEVEL <= 3")
    assert got == [(row[0], level) for row, level, _ in model(STAFF, lambda r: r[2] is None, max_level=3)
                   if row[3] is not None and row[3] >= 2975]


def test_without_start_with_every_row_is_a_root(conn) -> None:
    got = run(conn, "SELECT COUNT(*), MAX(LEVEL) FROM staff CONNECT BY PRIOR empno = mgr")
    rows = model(STAFF, lambda r: True)
    assert got == [(len(rows), max(level for _, level, _ in rows))]


def test_levels_can_be_grouped_and_ordered_by(conn) -> None:
    got = run(conn, "SELECT LEVEL, COUNT(*) FROM staff START WITH mgr IS NULL CONNECT BY PRIOR empno = mgr "
                    "GROUP BY LEVEL ORDER BY LEVEL")
    levels: dict[int, int] = {}
    for _, level, _ in model(STAFF, lambda r: r[2] is None):
        levels[level] = levels.get(level, 0) + 1
    assert got == sorted(levels.items())


def test_a_row_generator_from_dual(conn) -> None:
    """CONNECT BY without PRIOR has no loop check: DUAL's one row is its own child until LEVEL stops it."""
    assert run(conn, "SELECT LEVEL FROM dual CONNECT BY LEVEL <= 4") == [(1,), (2,), (3,), (4,)]
    assert run(conn, "SELECT TO_CHAR(DATE '2025-01-30' + LEVEL - 1, 'MM-DD') FROM dual CONNECT BY LEVEL <= 3") \
        == [("01-30",), ("01-31",), ("02-01",)]


def test_tutorial_forms_prior_in_an_expression_and_level_in_a_path(conn) -> None:
    """Forms from Oracle tutorials: PRIOR inside an expression of the select list, CONNECT_BY_ROOT of an
    expression, SYS_CONNECT_BY_PATH of LEVEL, a path trimmed with LTRIM."""
    got = run(conn, "SELECT empno, ename || ' reports to ' || PRIOR ename, CONNECT_BY_ROOT (ename || '_' || empno), "
                    "LTRIM(SYS_CONNECT_BY_PATH(LEVEL, '>'), '>') FROM staff START WITH empno = 1 "
                    "CONNECT BY PRIOR empno = mgr ORDER SIBLINGS BY empno")
    root = STAFF[0]
    assert got == [(row[0], row[1] + " reports to " + (chain[-2][1] if level > 1 else ""),
                    f"{root[1]}_{root[0]}", ">".join(str(i) for i in range(1, level + 1)))
                   for row, level, chain in model(STAFF, lambda r: r[0] == 1)]


def test_a_correlated_hierarchy_counts_each_row_s_team(conn) -> None:
    got = run(conn, "SELECT s.empno, (SELECT COUNT(*) FROM staff x START WITH x.empno = s.empno "
                    "CONNECT BY PRIOR x.empno = x.mgr) FROM staff s ORDER BY s.empno")
    assert got == [(r[0], len(model(STAFF, lambda x, e=r[0]: x[0] == e))) for r in sorted(STAFF)]


def test_a_view_or_subquery_can_be_the_hierarchy(conn) -> None:
    run(conn, "CREATE OR REPLACE VIEW dept10 AS SELECT empno, ename, mgr FROM staff WHERE dept = 10")
    try:
        dept10 = [r for r in STAFF if r[4] == 10]
        expected = [(row[0], level) for row, level, _ in model(dept10, lambda r: r[2] is None or
                                                                   r[2] not in {x[0] for x in dept10})]
        for source in ("dept10", "(SELECT * FROM staff WHERE dept = 10) d"):
            got = run(conn, f"SELECT empno, LEVEL FROM {source} START WITH mgr IS NULL OR mgr NOT IN "
                            f"(SELECT empno FROM staff WHERE dept = 10) CONNECT BY PRIOR empno = mgr "
                            f"ORDER SIBLINGS BY empno")
            assert got == expected, source
    finally:
        run(conn, "DROP VIEW dept10")


def test_a_loop_is_ora_01436_and_nocycle_marks_it(conn) -> None:
    """links: 1 -> 2 -> 3 -> 1 (a loop) and 2 -> 4."""
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "SELECT id FROM links START WITH id = 1 CONNECT BY PRIOR id = parent")
    assert info.value.args[0].full_code == "ORA-01436"
    got = run(conn, "SELECT id, LEVEL, CONNECT_BY_ISCYCLE, CONNECT_BY_ISLEAF FROM links START WITH id = 1 "
                    "CONNECT BY NOCYCLE PRIOR id = parent ORDER SIBLINGS BY id")
    assert got == [(1, 1, 0, 0), (2, 2, 0, 0), (3, 3, 1, 0), (4, 3, 0, 1)]


@pytest.mark.parametrize("sql, code, fragment", [
    ("SELECT id, CONNECT_BY_ISCYCLE FROM links START WITH id = 1 CONNECT BY PRIOR id = parent", "ORA-30930",
     "NOCYCLE"),
    ("SELECT s.empno FROM staff s, links l START WITH s.mgr IS NULL CONNECT BY PRIOR s.empno = s.mgr", "ORA-03001",
     "comma join"),
    ("SELECT s.empno FROM staff s JOIN depts d USING (dept) START WITH s.mgr IS NULL CONNECT BY PRIOR s.empno = s.mgr",
     "ORA-03001", "USING"),
    ("SELECT PRIOR empno FROM staff", "ORA-00904", "PRIOR"),
    ("SELECT empno FROM staff ORDER SIBLINGS BY empno", "ORA-30929", "ORDER SIBLINGS BY"),   # Oracle: ORA-00976, not allowed here
])
def test_mistakes_and_what_lite_lacks_are_named(conn, sql: str, code: str, fragment: str) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    error = info.value.args[0]
    assert error.full_code == code and fragment in error.message, error.message


def test_the_sibling_key_sorts_as_order_by_does() -> None:
    """The text key of ORDER SIBLINGS BY values sorts (as text) in the values' order: numbers of any sign,
    text by its characters with a prefix first, DESC reversed, NULLs where NULLS FIRST/LAST puts them; and a
    key followed by more keys (a child's) stays between its own key and the next sibling's."""
    from workshop_lib.lite.connect_by import sort_key

    numbers = [-1e20, -2.5, -1, 0, 0.5, 3, 1e20]
    assert sorted(numbers, key=lambda v: sort_key("AL", v)) == numbers
    assert sorted(numbers, key=lambda v: sort_key("DF", v)) == numbers[::-1]
    words = ["", "a", "ab", "b", "é"]
    assert sorted(words[::-1], key=lambda v: sort_key("AL", v)) == words
    assert sorted(words, key=lambda v: sort_key("DF", v)) == words[::-1]
    assert sort_key("AL", None) > sort_key("AL", 10 ** 30) and sort_key("DF", None) < sort_key("DF", -(10 ** 30))
    parent, child, sibling = sort_key("AL", "a"), sort_key("AL", "a") + sort_key("AL", "zz"), sort_key("AL", "ab")
    assert parent < child < sibling


def test_a_hierarchy_over_a_join_is_the_hierarchy_of_the_joined_rows(conn) -> None:
    """Oracle evaluates the join first, then CONNECT BY over its rows, then WHERE: with an inner join the staff
    of department 20 (no DEPTS row) are not in the hierarchy, so nobody below them is reached either."""
    joined = [r for r in STAFF if r[4] == 10]
    expected = [(row[0], row[1], "ACCOUNTING", level, "/".join(str(r[0]) for r in chain))
                for row, level, chain in model(joined, lambda r: r[2] is None)]
    got = run(conn, "SELECT s.empno, ename, d.dname, LEVEL, LTRIM(SYS_CONNECT_BY_PATH(s.empno, '/'), '/') "
                    "FROM staff s JOIN depts d ON d.dept = s.dept START WITH s.mgr IS NULL "
                    "CONNECT BY PRIOR s.empno = s.mgr ORDER SIBLINGS BY s.empno")
    assert got == expected
    # a LEFT JOIN keeps every row: the whole forest, each with its department's name or NULL
    got = run(conn, "SELECT s.empno, d.dname, LEVEL FROM staff s LEFT JOIN depts d ON d.dept = s.dept "
                    "WHERE LEVEL <= 3 START WITH s.mgr IS NULL CONNECT BY PRIOR s.empno = s.mgr "
                    "ORDER SIBLINGS BY s.empno")
    assert got == [(row[0], "ACCOUNTING" if row[4] == 10 else None, level)
                   for row, level, _ in model(STAFF, lambda r: r[2] is None) if level <= 3]
