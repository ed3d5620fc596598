"""FETCH FIRST ... PERCENT and WITH TIES (lite/row_limits.py), held to a Python model of Oracle's definition.

The model reads the SQL Language Reference's row_limiting_clause: sort by the
ORDER BY keys (NULLS LAST ascending, FIRST descending, unless written), skip
OFFSET rows (a fraction truncated, a negative offset 0, NULL: no rows), take the
row count (truncated) or CEIL(percent * rows / 100), and with WITH TIES add the
rows whose keys equal the last row taken.
"""

from __future__ import annotations

import math
import random
from functools import cmp_to_key

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

from lite_sql import failure

ROWS = [(i, random.Random(i).choice([None, 1, 2, 2, 3, 3, 3, 4]), random.Random(-i).randint(0, 4))
        for i in range(1, 48)]   # (id, a: NULLs and ties, b: ties)


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    db = connect(tmp_path_factory.mktemp("row_limits"))
    cur = db.cursor()
    cur.execute("CREATE TABLE rl (id NUMBER PRIMARY KEY, a NUMBER, b NUMBER)")
    cur.executemany("INSERT INTO rl (id, a, b) VALUES (:1, :2, :3)", ROWS)
    db.commit()
    yield db
    db.close()


def _compare(x, y, desc: bool, nulls_first: bool | None) -> int:
    first = desc if nulls_first is None else nulls_first
    if x is None or y is None:
        return 0 if x is y else ((-1 if first else 1) if x is None else (1 if first else -1))
    return (x > y) - (x < y) if not desc else (x < y) - (x > y)


def model(keys: list[tuple[int, bool, bool | None]], offset, count, percent: bool, ties: bool) -> list[tuple]:
    """The rows Oracle returns, as keys equal to the last row's (``keys``: (column index, DESC, NULLS FIRST))."""
    def cmp(r, s):
        for index, desc, nulls_first in keys:
            c = _compare(r[index], s[index], desc, nulls_first)
            if c:
                return c
        return 0

    ordered = sorted(ROWS, key=cmp_to_key(cmp))
    if offset is None or count is None:
        return []
    skip = max(0, math.floor(offset))
    take = math.ceil(len(ROWS) * count / 100) if percent else math.floor(count)
    if take <= 0:
        return []
    taken = ordered[skip:skip + take]
    if ties and keys and taken and skip + take < len(ordered):
        last = taken[-1]
        taken += [r for r in ordered[skip + take:] if cmp(r, last) == 0]
    return taken


ORDERS = [("a", [(1, False, None)]), ("a DESC", [(1, True, None)]), ("a NULLS FIRST", [(1, False, True)]),
          ("a DESC NULLS LAST, b", [(1, True, False), (2, False, None)]), ("b, a", [(2, False, None), (1, False, None)])]


@pytest.mark.parametrize("order_sql, keys", ORDERS, ids=[o[0] for o in ORDERS])
@pytest.mark.parametrize("percent, ties", [(True, False), (False, True), (True, True)],
                         ids=["percent-only", "rows-with-ties", "percent-with-ties"])   # n ROWS ONLY is LIMIT
def test_row_limits_match_the_definition(conn: LiteConnection, order_sql: str, keys, percent: bool, ties: bool) -> None:
    cur = conn.cursor()
    counts = [0, 1, 2.7, 5, 30, -3, None] + ([12.5, 99, 150] if percent else [100])
    for offset in (None, 0, 3, 4.9, -2, 60):
        for count in counts:
            sql = (f"SELECT id, a, b FROM rl ORDER BY {order_sql}"
                   + (" OFFSET :o ROWS" if offset is not None else "")
                   + f" FETCH FIRST :n {'PERCENT ' if percent else ''}ROWS {'WITH TIES' if ties else 'ONLY'}")
            binds = {"n": count, **({"o": offset} if offset is not None else {})}
            cur.execute(sql, binds)
            got = cur.fetchall()
            want = model(keys, 0 if offset is None else offset, count, percent, ties)
            # Oracle leaves the order of rows tied on every key open, so which of them a cut keeps is open
            # too: the keys must come in the model's order; the rows themselves are fixed only when WITH TIES
            # and no OFFSET (which could cut through a tie) decide the cut
            key_of = lambda r: tuple(r[i] for i, _, _ in keys)   # noqa: E731
            assert [key_of(r) for r in got] == [key_of(r) for r in want], (sql, binds)
            if ties and not offset:
                assert sorted(got) == sorted(want), (sql, binds)


def test_ten_percent_of_101_rows_is_11(conn: LiteConnection) -> None:
    """Oracle rounds a percentage up (CEIL in its own rewrite)."""
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM (SELECT id FROM rl ORDER BY id FETCH FIRST 10 PERCENT ROWS ONLY)")
    assert cur.fetchone()[0] == math.ceil(len(ROWS) * 10 / 100)


def test_names_aliases_positions_and_grouping(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT b AS bucket, COUNT(*) AS n FROM rl GROUP BY b ORDER BY n DESC FETCH FIRST 1 ROWS WITH TIES")
    assert [d[0] for d in cur.description] == ["BUCKET", "N"]
    counts = {}
    for _, _, b in ROWS:
        counts[b] = counts.get(b, 0) + 1
    top = max(counts.values())
    assert sorted(cur.fetchall()) == sorted((b, n) for b, n in counts.items() if n == top)
    cur.execute("SELECT * FROM rl ORDER BY 3 DESC, 1 FETCH FIRST 2 ROWS WITH TIES")
    assert [d[0] for d in cur.description] == ["ID", "A", "B"]
    assert cur.fetchall() == sorted(ROWS, key=lambda r: (-r[2], r[0]))[:2]
    cur.execute("SELECT id * 2, b FROM rl WHERE a IS NOT NULL ORDER BY b * -1, id FETCH FIRST 3 ROWS WITH TIES")
    assert cur.fetchall() == [(r[0] * 2, r[2]) for r in sorted((r for r in ROWS if r[1] is not None),
                                                                 key=lambda r: (-r[2], r[0]))[:3]]


def test_without_order_by_with_ties_adds_nothing(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT id FROM rl FETCH FIRST 3 ROWS WITH TIES")
    assert len(cur.fetchall()) == 3


def test_in_a_subquery_and_an_in_list(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM rl WHERE id IN (SELECT id FROM rl ORDER BY b DESC FETCH FIRST 1 ROWS WITH TIES)")
    assert cur.fetchone()[0] == sum(1 for r in ROWS if r[2] == max(x[2] for x in ROWS))


@pytest.mark.parametrize("sql, code", [
    ("SELECT id FROM rl ORDER BY 4 FETCH FIRST 1 ROWS WITH TIES", 1785),
    ("SELECT DISTINCT a FROM rl ORDER BY b FETCH FIRST 10 PERCENT ROWS ONLY", 1791),
    ("SELECT id FROM rl UNION SELECT id FROM rl ORDER BY 1 FETCH FIRST 10 PERCENT ROWS ONLY", 3001),
    ("SELECT id FROM rl MINUS SELECT id FROM rl ORDER BY 1 FETCH FIRST 1 ROWS WITH TIES", 3001),
])
def test_errors_are_oracles(conn: LiteConnection, sql: str, code: int) -> None:
    assert failure(conn, sql).code == code


@pytest.mark.parametrize("sql, ids", [
    ("SELECT id FROM rl ORDER BY id FETCH FIRST :n - 1 ROWS ONLY", [1, 2]),
    ("SELECT id FROM rl ORDER BY id OFFSET :n - 2 ROWS FETCH NEXT (:n + 1) / 2 ROWS ONLY", [2, 3]),
    ("SELECT id FROM rl ORDER BY id FETCH FIRST :n * 2 - 5 ROW ONLY", [1]),
])
def test_a_row_count_is_an_expression(conn: LiteConnection, sql: str, ids: list[int]) -> None:
    """Oracle's rowcount and offset are expressions (SQL Language Reference, row_limiting_clause); lite read one
    field and refused ':n - 1' as ORA-00933."""
    cur = conn.cursor()
    cur.execute(sql, n=3)
    assert [row[0] for row in cur.fetchall()] == ids


@pytest.mark.parametrize("sql", [
    "SELECT id FROM rl ORDER BY id FETCH FIRST 2 ROWS",         # no ONLY or WITH TIES
    "SELECT id FROM rl ORDER BY id FETCH FIRST 2",              # no ROWS either
    "SELECT id FROM rl ORDER BY id FETCH FIRST 2 ONLY",         # no ROWS
    "SELECT id FROM rl ORDER BY id OFFSET 2",                   # OFFSET without ROWS
    "SELECT id FROM rl ORDER BY id FETCH FIRST 10 % ROWS ONLY",  # % is not PERCENT
    "SELECT id FROM rl ORDER BY id FETCH APPROX FIRST 2 ROWS",
])
def test_the_keywords_oracle_requires_are_required(conn: LiteConnection, sql: str) -> None:
    """{ROW | ROWS} and {ONLY | WITH TIES} are not optional in Oracle's grammar; lite accepted them missing."""
    assert failure(conn, sql).code == 933
