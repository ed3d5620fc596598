"""IGNORE NULLS for FIRST_VALUE / LAST_VALUE / NTH_VALUE / LAG / LEAD, and NTH_VALUE FROM LAST, against a model.

The model reads the SQL Language Reference: the analytic function sees its
window frame (ROWS frames here, so the frame is exact), NULLs left out under
IGNORE NULLS; LAG(x, k, d) IGNORE NULLS is the k-th non-NULL value before the
current row (d when there is none), LEAD the same after it. Frames that leave
out the current row are the ones CPython 3.11's sqlite3 cannot give a Python
window function (it crashes on an empty frame), so lite widens them and cuts
back: they are tested here on purpose, and the process must survive them.
"""

from __future__ import annotations

import random

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

from lite_sql import failure

_RANDOM = random.Random(7)
ROWS = [(i, _RANDOM.choice("AB"), _RANDOM.choice([None, None, 1, 2, 3, 4, 5])) for i in range(1, 31)]  # (id, g, x)

# (SQL frame, the frame as (start, end) offsets from the current row; None: unbounded)
FRAMES = [
    ("ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", (None, 0)),
    ("ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING", (-2, 1)),
    ("ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING", (-3, -1)),
    ("ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING", (None, -2)),
    ("ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING", (1, 3)),
    ("ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING", (2, None)),
    ("ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING", (None, None)),
]


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    db = connect(tmp_path_factory.mktemp("ignore_nulls"))
    cur = db.cursor()
    cur.execute("CREATE TABLE inl (id NUMBER PRIMARY KEY, g VARCHAR2(1), x NUMBER)")
    cur.executemany("INSERT INTO inl (id, g, x) VALUES (:1, :2, :3)", ROWS)
    db.commit()
    yield db
    db.close()


def _partitions() -> dict[str, list[tuple]]:
    return {g: sorted((r for r in ROWS if r[1] == g), key=lambda r: r[0]) for g in "AB"}


def _frame(rows: list[tuple], i: int, bounds: tuple[int | None, int | None]) -> list:
    start = 0 if bounds[0] is None else max(0, i + bounds[0])
    end = len(rows) - 1 if bounds[1] is None else min(len(rows) - 1, i + bounds[1])
    return [r[2] for r in rows[start:end + 1]] if start <= end else []


def _pick(values: list, n: int, from_last: bool, ignore: bool):
    kept = [v for v in values if v is not None] if ignore else values
    if len(kept) < n:
        return None
    return kept[-n] if from_last else kept[n - 1]


@pytest.mark.parametrize("frame_sql, bounds", FRAMES, ids=[f[0][13:] for f in FRAMES])
@pytest.mark.parametrize("function, n, from_last, ignore", [
    ("FIRST_VALUE(x IGNORE NULLS)", 1, False, True),
    ("FIRST_VALUE(x) IGNORE NULLS", 1, False, True),
    ("LAST_VALUE(x IGNORE NULLS)", 1, True, True),
    ("NTH_VALUE(x, 2) IGNORE NULLS", 2, False, True),
    ("NTH_VALUE(x, 2) FROM LAST IGNORE NULLS", 2, True, True),
    ("NTH_VALUE(x, 3) FROM LAST", 3, True, False),
    ("NTH_VALUE(x, 2) FROM LAST RESPECT NULLS", 2, True, False),
])
def test_frame_values_match_the_definition(conn: LiteConnection, frame_sql: str, bounds, function: str, n: int,
                                           from_last: bool, ignore: bool) -> None:
    cur = conn.cursor()
    cur.execute(f"SELECT id, {function} OVER (PARTITION BY g ORDER BY id {frame_sql}) FROM inl")
    got = dict(cur.fetchall())
    want = {r[0]: _pick(_frame(rows, i, bounds), n, from_last, ignore)
            for rows in _partitions().values() for i, r in enumerate(rows)}
    assert got == want, (function, frame_sql)


@pytest.mark.parametrize("function, k, default, back", [
    ("LAG(x IGNORE NULLS)", 1, None, True),
    ("LAG(x, 2, -1) IGNORE NULLS", 2, -1, True),
    ("LEAD(x) IGNORE NULLS", 1, None, False),
    ("LEAD(x, 3, 0) IGNORE NULLS", 3, 0, False),
])
def test_lag_and_lead_ignore_nulls(conn: LiteConnection, function: str, k: int, default, back: bool) -> None:
    cur = conn.cursor()
    cur.execute(f"SELECT id, {function} OVER (PARTITION BY g ORDER BY id) FROM inl")
    got = dict(cur.fetchall())
    want = {}
    for rows in _partitions().values():
        for i, r in enumerate(rows):
            others = [o[2] for o in (reversed(rows[:i]) if back else rows[i + 1:]) if o[2] is not None]
            want[r[0]] = others[k - 1] if len(others) >= k else default
    assert got == want, function


def test_default_frame_and_a_range_frame_through_the_current_row(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT id, LAST_VALUE(x IGNORE NULLS) OVER (ORDER BY id) FROM inl")
    ordered = sorted(ROWS)
    assert dict(cur.fetchall()) == {r[0]: next((o[2] for o in reversed(ordered[:i + 1]) if o[2] is not None), None)
                                    for i, r in enumerate(ordered)}


@pytest.mark.parametrize("sql, code", [
    ("SELECT LAST_VALUE(x IGNORE NULLS) OVER (ORDER BY id RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM inl", 3001),
    ("SELECT NTH_VALUE(x, 0) IGNORE NULLS OVER (ORDER BY id) FROM inl", 1428),
    ("SELECT LISTAGG(x, ',') WITHIN GROUP (ORDER BY x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) "
     "FROM inl", 30487),
    ("SELECT MEDIAN(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM inl", 30487),
    ("SELECT PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY x) OVER (ORDER BY id) FROM inl", 30487),
])
def test_refusals_are_errors_not_crashes(conn: LiteConnection, sql: str, code: int) -> None:
    """Before these were refused, LISTAGG and MEDIAN over a frame without rows crashed the Python process."""
    error = failure(conn, sql)
    assert error.code == code, error.message


def test_median_over_a_partition(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT id, MEDIAN(x) OVER (PARTITION BY g) FROM inl")
    import statistics
    medians = {g: statistics.median([r[2] for r in rows if r[2] is not None]) for g, rows in _partitions().items()}
    assert dict(cur.fetchall()) == {r[0]: pytest.approx(medians[r[1]]) for r in ROWS}
