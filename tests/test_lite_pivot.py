"""PIVOT (lite/pivot.py), held to a Python model of the SQL Language Reference's pivot_clause.

The model groups the source rows by every column the PIVOT does not name and,
for each IN value and aggregate, aggregates the group's rows whose FOR column
equals the value (COUNT of none is 0, the other aggregates NULL).
"""

from __future__ import annotations

import random

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

from lite_sql import failure

_RANDOM = random.Random(3)
ROWS = [(i, _RANDOM.choice(["N", "S", "E"]), _RANDOM.choice([2023, 2024, 2025, None]),
         _RANDOM.choice([None, 5, 10, 25])) for i in range(1, 41)]   # (id, region, yr, amount)


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    db = connect(tmp_path_factory.mktemp("pivot"))
    cur = db.cursor()
    cur.execute("CREATE TABLE sales (id NUMBER PRIMARY KEY, region VARCHAR2(1), yr NUMBER, amount NUMBER)")
    cur.executemany("INSERT INTO sales (id, region, yr, amount) VALUES (:1, :2, :3, :4)", ROWS)
    db.commit()
    yield db
    db.close()


def _aggregate(kind: str, values: list):
    present = [v for v in values if v is not None]
    if kind == "COUNT":
        return len(values)
    if not present:
        return None
    return {"SUM": sum, "MAX": max, "MIN": min, "AVG": lambda v: sum(v) / len(v)}[kind](present)


@pytest.mark.parametrize("kind", ["SUM", "MAX", "MIN", "AVG", "COUNT"])
def test_pivot_matches_the_definition(conn: LiteConnection, kind: str) -> None:
    cur = conn.cursor()
    # COUNT(*) names no column, so an amount in the source would group too (as in Oracle): leave it out
    argument, source = ("*", "region, yr") if kind == "COUNT" else ("amount", "region, yr, amount")
    cur.execute(f"SELECT * FROM (SELECT {source} FROM sales) "
                f"PIVOT ({kind}({argument}) FOR yr IN (2023, 2024 AS y24, 2025))")
    assert [d[0] for d in cur.description] == ["REGION", "2023", "Y24", "2025"]
    got = sorted(cur.fetchall(), key=repr)
    want = sorted([(region, *[_aggregate(kind, [r[3] if kind != "COUNT" else 1 for r in ROWS
                                                if r[1] == region and r[2] == year])
                              for year in (2023, 2024, 2025)])
                   for region in {r[1] for r in ROWS}], key=repr)
    assert got == [tuple(pytest.approx(v) if isinstance(v, float) else v for v in row) for row in want]


def test_several_aggregates_string_values_and_an_alias(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT p.yr, p.\"'N'_TOTAL\", p.s_total, p.s_n FROM (SELECT region, yr, amount FROM sales) "
                "PIVOT (SUM(amount) AS total, COUNT(amount) AS n FOR region IN ('N', 'S' AS s)) p "
                "WHERE p.yr IS NOT NULL ORDER BY p.yr")
    want = [(year, _aggregate("SUM", [r[3] for r in ROWS if r[1] == "N" and r[2] == year]),
             _aggregate("SUM", [r[3] for r in ROWS if r[1] == "S" and r[2] == year]),
             sum(1 for r in ROWS if r[1] == "S" and r[2] == year and r[3] is not None))
            for year in (2023, 2024, 2025)]
    assert cur.fetchall() == want


def test_every_other_column_groups(conn: LiteConnection) -> None:
    """Pivoting the table itself groups by id too: one row per id, its amount under its region."""
    cur = conn.cursor()
    cur.execute("SELECT * FROM sales PIVOT (MAX(amount) FOR region IN ('N' AS n, 'S' AS s, 'E' AS e)) ORDER BY id")
    assert [d[0] for d in cur.description] == ["ID", "YR", "N", "S", "E"]
    assert cur.fetchall() == [(r[0], r[2], *[r[3] if r[1] == g else None for g in "NSE"]) for r in sorted(ROWS)]


@pytest.mark.parametrize("sql, code", [
    ("SELECT * FROM sales PIVOT (SUM(amount), COUNT(*) FOR region IN ('N'))", 918),
    ("SELECT * FROM sales UNPIVOT ((v, w) FOR k IN ((amount, yr) AS 'x'))", 3001),
    ("SELECT * FROM sales PIVOT (SUM(amount) FOR (region, yr) IN (('N', 2023)))", 3001),
    ("SELECT * FROM sales PIVOT (LISTAGG(id) FOR region IN ('N'))", 3001),
    ("SELECT * FROM sales PIVOT (SUM(no_such) FOR region IN ('N'))", 904),
])
def test_errors(conn: LiteConnection, sql: str, code: int) -> None:
    error = failure(conn, sql)
    assert error.code == code, error.message


@pytest.mark.parametrize("nulls", ["", "EXCLUDE NULLS", "INCLUDE NULLS"])
def test_unpivot_matches_the_definition(conn: LiteConnection, nulls: str) -> None:
    """One row per source row and listed column, labelled by the column's literal or name; NULL values left
    out unless INCLUDE NULLS; the columns not listed kept in front."""
    cur = conn.cursor()
    cur.execute(f"SELECT * FROM (SELECT id, yr, amount FROM sales) UNPIVOT {nulls} "
                f"(val FOR what IN (yr AS 'YEAR', amount))")
    assert [d[0] for d in cur.description] == ["ID", "WHAT", "VAL"]
    want = [(r[0], label, value) for r in ROWS for label, value in (("YEAR", r[2]), ("AMOUNT", r[3]))
            if value is not None or nulls == "INCLUDE NULLS"]
    assert sorted(cur.fetchall(), key=repr) == sorted(want, key=repr)


def test_pivot_then_unpivot_gives_the_sums_back(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT region, yr, total FROM (SELECT * FROM (SELECT region, yr, amount FROM sales) "
                "PIVOT (SUM(amount) FOR yr IN (2023 AS y2023, 2024 AS y2024))) "
                "UNPIVOT (total FOR yr IN (y2023 AS 2023, y2024 AS 2024)) ORDER BY region, yr")
    sums = {}
    for _, region, year, amount in ROWS:
        if year in (2023, 2024) and amount is not None:
            sums[(region, year)] = sums.get((region, year), 0) + amount
    assert cur.fetchall() == sorted((r, y, t) for (r, y), t in sums.items())
