"""GROUP BY ROLLUP / CUBE / GROUPING SETS in lite (lite/grouping_sets.py), held to a Python model of Oracle's rule.

Each grouping set groups the rows on its own; the grouping expressions not in
a set are NULL in its rows; GROUPING(e) is 1 there and GROUPING_ID packs the
bits (first argument highest); HAVING filters each set's groups.
"""

from __future__ import annotations

import itertools
import random

import oracledb
import pytest

from lite_sql import run
from workshop_lib.backends.lite import connect_lite

ROWS = [(i, random.Random(i).choice("abc"), random.Random(i * 7).choice([1, 2, None]), i * 3 % 11) for i in range(60)]


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("grouping"), "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE facts (id NUMBER, kind VARCHAR2(1), grade NUMBER, amount NUMBER)")
    cur.executemany("INSERT INTO facts VALUES (:1, :2, :3, :4)", ROWS)
    connection.commit()
    yield connection
    connection.close()


def model(sets: list[tuple[str, ...]], having_min: int = 0) -> list[tuple]:
    """(kind, grade, GROUPING(kind), GROUPING_ID(kind, grade), COUNT(*), SUM(amount)) per group of each set."""
    out = []
    for grouping_set in sets:
        groups: dict[tuple, list[tuple]] = {}
        for row in ROWS:
            key = (row[1] if "kind" in grouping_set else None, row[2] if "grade" in grouping_set else None)
            groups.setdefault(key, []).append(row)
        g_kind, g_grade = int("kind" not in grouping_set), int("grade" not in grouping_set)
        out += [(kind, grade, g_kind, g_kind * 2 + g_grade, len(rows), sum(r[3] for r in rows))
                for (kind, grade), rows in groups.items() if len(rows) > having_min]
    return sorted(out, key=repr)


SELECT = "SELECT kind, grade, GROUPING(kind), GROUPING_ID(kind, grade), COUNT(*), SUM(amount) FROM facts "


@pytest.mark.parametrize("group_by, sets", [
    ("ROLLUP (kind, grade)", [("kind", "grade"), ("kind",), ()]),
    ("CUBE (kind, grade)", [s for n in (2, 1, 0) for s in itertools.combinations(("kind", "grade"), n)]),
    ("GROUPING SETS ((kind), (grade), ())", [("kind",), ("grade",), ()]),
    ("kind, ROLLUP (grade)", [("kind", "grade"), ("kind",)]),
    ("ROLLUP (kind), ROLLUP (grade)", [("kind", "grade"), ("kind",), ("grade",), ()]),
])
def test_each_grouping_set_is_grouped_as_oracle_does(conn, group_by: str, sets) -> None:
    assert sorted(run(conn, SELECT + "GROUP BY " + group_by), key=repr) == model(sets)
    assert sorted(run(conn, SELECT + "GROUP BY " + group_by + " HAVING COUNT(*) > 5"), key=repr) == model(sets, 5)


def test_order_by_names_an_item_or_repeats_its_expression_and_fetch_applies_after(conn) -> None:
    got = run(conn, "SELECT kind, COUNT(*) AS n FROM facts GROUP BY ROLLUP (kind) ORDER BY n DESC, kind")
    assert got[0] == (None, 60) and [r[1] for r in got] == sorted((r[1] for r in got), reverse=True)
    assert run(conn, "SELECT kind, COUNT(*) FROM facts GROUP BY ROLLUP (kind) ORDER BY COUNT(*) DESC "
                     "FETCH FIRST 1 ROWS ONLY") == [(None, 60)]
    assert run(conn, "SELECT COUNT(*) FROM (SELECT kind, COUNT(*) n FROM facts GROUP BY CUBE (kind, grade))") == \
        [(len(model([s for n in (2, 1, 0) for s in itertools.combinations(("kind", "grade"), n)])),)]


@pytest.mark.parametrize("sql", [
    "SELECT kind, COUNT(*) FROM facts GROUP BY ROLLUP (kind) ORDER BY SUM(amount)",
    "SELECT DISTINCT kind FROM facts GROUP BY ROLLUP (kind)",
    "SELECT kind, RANK() OVER (ORDER BY COUNT(*)) FROM facts GROUP BY ROLLUP (kind)",
    "SELECT GROUPING(kind) FROM facts GROUP BY kind",
    "SELECT kind, GROUP_ID() FROM facts GROUP BY ROLLUP (kind)",
    "SELECT kind, COUNT(*) FROM facts GROUP BY GROUPING SETS (ROLLUP (kind), grade)",
])
def test_what_lite_leaves_out_is_refused_by_name(conn, sql: str) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    assert info.value.args[0].code == 3001, str(info.value)
