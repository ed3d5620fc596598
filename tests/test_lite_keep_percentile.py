"""Aggregate KEEP (DENSE_RANK FIRST|LAST ...) and PERCENTILE_CONT / PERCENTILE_DISC, held to Python models.

The models follow the SQL Language Reference: KEEP aggregates the rows whose
ORDER BY keys rank first (or last), NULLs placed as the ORDER BY says (NULLS
LAST ascending, FIRST descending, by default); PERCENTILE_CONT interpolates at
row 1 + p * (n - 1) of the ordered non-NULL values, PERCENTILE_DISC takes the
first value whose cumulative distribution reaches p.
"""

from __future__ import annotations

import math
import random
import statistics
from functools import cmp_to_key

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

from lite_sql import failure

_RANDOM = random.Random(20261126)
ROWS = [(i, _RANDOM.choice("ABC"), _RANDOM.choice([None, 1, 2, 2, 3]), _RANDOM.choice([None, 5.5, 10, 20, 20, 40]),
         _RANDOM.choice(["x", "y", "z", None]))
        for i in range(1, 41)]   # (id, g, k: ties and NULLs, v: values with NULLs, t: text)

AGGREGATES = {
    "MIN": lambda vs: min(vs) if vs else None,
    "MAX": lambda vs: max(vs) if vs else None,
    "SUM": lambda vs: sum(vs) if vs else None,
    "AVG": lambda vs: sum(vs) / len(vs) if vs else None,
    "COUNT": len,
    "VARIANCE": lambda vs: (statistics.variance(vs) if len(vs) > 1 else 0) if vs else None,
    "STDDEV": lambda vs: (statistics.stdev(vs) if len(vs) > 1 else 0) if vs else None,
}


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    db = connect(tmp_path_factory.mktemp("keep"))
    cur = db.cursor()
    cur.execute("CREATE TABLE kp (id NUMBER PRIMARY KEY, g VARCHAR2(1), k NUMBER, v NUMBER, t VARCHAR2(1))")
    cur.executemany("INSERT INTO kp (id, g, k, v, t) VALUES (:1, :2, :3, :4, :5)", ROWS)
    db.commit()
    yield db
    db.close()


def _keep(rows: list[tuple], aggregate: str, last: bool, desc: bool, nulls_first: bool | None) -> object:
    """Oracle's KEEP over ``rows``, ordered by k (column 2), aggregating v (column 3)."""
    first_nulls = desc if nulls_first is None else nulls_first

    def cmp(a, b):
        x, y = a[2], b[2]
        if x is None or y is None:
            return 0 if x is y else ((-1 if first_nulls else 1) if x is None else (1 if first_nulls else -1))
        return ((x > y) - (x < y)) * (-1 if desc else 1)

    ordered = sorted(rows, key=cmp_to_key(cmp))
    if not ordered:
        return AGGREGATES[aggregate]([])
    edge = ordered[-1 if last else 0]
    values = [r[3] for r in ordered if cmp(r, edge) == 0 and r[3] is not None]
    return AGGREGATES[aggregate](values)


@pytest.mark.parametrize("aggregate", list(AGGREGATES))
@pytest.mark.parametrize("last", [False, True], ids=["FIRST", "LAST"])
@pytest.mark.parametrize("order, desc, nulls_first", [("k", False, None), ("k DESC", True, None),
                                                      ("k NULLS FIRST", False, True), ("k DESC NULLS LAST", True, False)])
def test_keep_matches_the_definition(conn: LiteConnection, aggregate: str, last: bool, order: str, desc: bool,
                                     nulls_first: bool | None) -> None:
    cur = conn.cursor()
    rank = "LAST" if last else "FIRST"
    cur.execute(f"SELECT g, {aggregate}(v) KEEP (DENSE_RANK {rank} ORDER BY {order}) FROM kp GROUP BY g")
    got = dict(cur.fetchall())
    want = {g: _keep([r for r in ROWS if r[1] == g], aggregate, last, desc, nulls_first) for g in "ABC"}
    assert got.keys() == want.keys()
    for g in want:
        assert got[g] == pytest.approx(want[g]), (g, aggregate, rank, order)
    # the analytic form: every row gets its partition's value
    cur.execute(f"SELECT id, {aggregate}(v) KEEP (DENSE_RANK {rank} ORDER BY {order}) OVER (PARTITION BY g) "
                "FROM kp ORDER BY id")
    assert cur.fetchall() == [(r[0], pytest.approx(want[r[1]])) for r in ROWS]


def test_count_star_keep_and_text_values(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) KEEP (DENSE_RANK FIRST ORDER BY k), MAX(t) KEEP (DENSE_RANK LAST ORDER BY k) FROM kp")
    present = [r[2] for r in ROWS if r[2] is not None]
    lowest = [r for r in ROWS if r[2] == min(present)]
    nulls = [r for r in ROWS if r[2] is None]   # ascending: NULLS LAST, so the NULL keys rank last
    assert cur.fetchone() == (len(lowest), max((r[4] for r in nulls if r[4] is not None), default=None))


def _percentile(values: list, p: float, discrete: bool, desc: bool) -> object:
    ordered = sorted((v for v in values if v is not None), reverse=desc)
    if not ordered:
        return None
    if discrete:
        return ordered[max(1, math.ceil(p * len(ordered))) - 1]
    row = 1 + p * (len(ordered) - 1)
    low, high = math.floor(row), math.ceil(row)
    return ordered[low - 1] if low == high else (high - row) * ordered[low - 1] + (row - low) * ordered[high - 1]


@pytest.mark.parametrize("function", ["PERCENTILE_CONT", "PERCENTILE_DISC"])
@pytest.mark.parametrize("desc", [False, True], ids=["asc", "desc"])
def test_percentiles_match_the_definition(conn: LiteConnection, function: str, desc: bool) -> None:
    cur = conn.cursor()
    discrete = function == "PERCENTILE_DISC"
    for p in (0, 0.1, 0.25, 0.3, 0.5, 0.7, 0.99, 1):
        cur.execute(f"SELECT g, {function}(:p) WITHIN GROUP (ORDER BY v{' DESC' if desc else ''}) "
                    "FROM kp GROUP BY g", p=p)
        got = dict(cur.fetchall())
        want = {g: _percentile([r[3] for r in ROWS if r[1] == g], p, discrete, desc) for g in "ABC"}
        assert got == {g: pytest.approx(w) for g, w in want.items()}, (function, p, desc)
    cur.execute(f"SELECT {function}(0.5) WITHIN GROUP (ORDER BY t) FROM kp" if discrete
                else "SELECT MEDIAN(v), PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY v) FROM kp")
    row = cur.fetchone()
    if discrete:   # text values: PERCENTILE_DISC returns one of them
        assert row == (_percentile([r[4] for r in ROWS], 0.5, True, False),)
    else:          # MEDIAN is PERCENTILE_CONT(0.5)
        assert row[0] == pytest.approx(row[1])


def test_percentile_of_no_rows_is_null_and_analytic_form(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY v) FROM kp WHERE 1 = 0")
    assert cur.fetchone() == (None,)
    cur.execute("SELECT id, PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY v) OVER (PARTITION BY g) FROM kp "
                "ORDER BY id")
    want = {g: _percentile([r[3] for r in ROWS if r[1] == g], 0.5, True, False) for g in "ABC"}
    assert cur.fetchall() == [(r[0], want[r[1]]) for r in ROWS]


@pytest.mark.parametrize("sql, code", [
    ("SELECT PERCENTILE_CONT(1.5) WITHIN GROUP (ORDER BY v) FROM kp", 30493),
    ("SELECT PERCENTILE_DISC(-0.1) WITHIN GROUP (ORDER BY v) FROM kp", 30493),
    ("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY v, k) FROM kp", 907),   # the grammar's one key
    ("SELECT COUNT(DISTINCT v) KEEP (DENSE_RANK FIRST ORDER BY k) FROM kp", 3001),
    ("SELECT APPROX_PERCENTILE(0.5) WITHIN GROUP (ORDER BY v) FROM kp", 3001),
    ("SELECT g, v, MIN(v) KEEP (DENSE_RANK FIRST ORDER BY k) FROM kp GROUP BY g", 979),
])
def test_errors_are_oracles(conn: LiteConnection, sql: str, code: int) -> None:
    error = failure(conn, sql)
    assert error.code == code, error.message
    assert "ANONYMOUS" not in error.message   # the function is named as written


def _hypothetical(kind: str, rows: list[tuple], value, desc: bool):
    """Where a row with key ``value`` would rank among ``rows`` ordered by k (column 2), NULLs as ORDER BY puts
    them (LAST ascending, FIRST descending): the SQL Language Reference's hypothetical set aggregates."""
    def cmp(x, y):
        if x is None or y is None:
            return 0 if x is y else ((-1 if desc else 1) if x is None else (1 if desc else -1))
        return ((x > y) - (x < y)) * (-1 if desc else 1)

    keys = [r[2] for r in rows]
    before = [k for k in keys if cmp(k, value) < 0]
    tied = sum(1 for k in keys if cmp(k, value) == 0)
    return {"RANK": len(before) + 1,
            "DENSE_RANK": len(set(before)) + 1,
            "PERCENT_RANK": len(before) / len(keys) if keys else 0,
            "CUME_DIST": (len(before) + tied + 1) / (len(keys) + 1)}[kind]


@pytest.mark.parametrize("kind", ["RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST"])
@pytest.mark.parametrize("desc", [False, True], ids=["asc", "desc"])
def test_hypothetical_set_aggregates_match_the_definition(conn: LiteConnection, kind: str, desc: bool) -> None:
    cur = conn.cursor()
    for value in (0, 1, 2, 2.5, 3, 9):
        cur.execute(f"SELECT g, {kind}(:v) WITHIN GROUP (ORDER BY k{' DESC' if desc else ''}) FROM kp GROUP BY g",
                    v=value)
        got = dict(cur.fetchall())
        want = {g: _hypothetical(kind, [r for r in ROWS if r[1] == g], value, desc) for g in "ABC"}
        assert got == {g: pytest.approx(w) for g, w in want.items()}, (kind, value, desc)
    cur.execute(f"SELECT {kind}(1) WITHIN GROUP (ORDER BY k) FROM kp WHERE 1 = 0")   # the row alone
    assert cur.fetchone() == (_hypothetical(kind, [], 1, False),)


def test_hypothetical_rank_of_two_keys_and_the_documented_example(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT RANK(3, 20) WITHIN GROUP (ORDER BY k DESC, v) FROM kp")
    ordered_before = [r for r in ROWS if (r[2] is None) or (r[2] > 3) or (r[2] == 3 and r[3] is not None
                                                                          and r[3] < 20)]
    assert cur.fetchone() == (len(ordered_before) + 1,)   # DESC puts NULL keys first; v ascending NULLS LAST


@pytest.mark.parametrize("sql, code", [
    ("SELECT RANK(1, 2) WITHIN GROUP (ORDER BY k) FROM kp", 909),
    ("SELECT g, CUME_DIST(1) WITHIN GROUP (ORDER BY k) FROM kp", 937),
    ("SELECT RANK(1) WITHIN GROUP (ORDER BY k) OVER (PARTITION BY g) FROM kp", 3001),
])
def test_hypothetical_errors(conn: LiteConnection, sql: str, code: int) -> None:
    error = failure(conn, sql)
    assert error.code == code, error.message


def test_count_keep_of_no_rows_is_zero(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) KEEP (DENSE_RANK FIRST ORDER BY k), SUM(v) KEEP (DENSE_RANK LAST ORDER BY k) "
                "FROM kp WHERE 1 = 0")
    assert cur.fetchone() == (0, None)
