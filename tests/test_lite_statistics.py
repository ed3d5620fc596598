"""Oracle's statistical aggregates in lite, against Python's own ``statistics`` module as the reference.

VARIANCE / STDDEV (sample figures, 0 for one value), VAR_SAMP / STDDEV_SAMP (NULL for one value),
VAR_POP / STDDEV_POP, COVAR_POP / COVAR_SAMP, CORR and the REGR_ functions, each as an aggregate (GROUP BY,
DISTINCT) and as an analytic function (OVER with PARTITION BY and a frame), rows with a NULL left out; and
RATIO_TO_REPORT, whose OVER clause takes only PARTITION BY.
"""

from __future__ import annotations

import math
import statistics

import pytest

from lite_sql import failure, run
from workshop_lib.backends.lite import connect_lite

ROWS = [  # (id, grp, y, x): NULLs in both columns, one group with a single complete pair
    (1, "a", 3.5, 1), (2, "a", 7.25, 2), (3, "a", 2, 4), (4, "a", None, 5), (5, "a", 11, 7),
    (6, "b", 4, None), (7, "b", 9, 3), (8, "c", 5, 5), (9, "c", 5, 6), (10, "c", 5, 8),
]


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("stats"), "AGENT")
    run(connection, "CREATE TABLE obs (id NUMBER, grp VARCHAR2(1), y NUMBER, x NUMBER)")
    for row in ROWS:
        run(connection, "INSERT INTO obs VALUES (:1, :2, :3, :4)", list(row))
    yield connection
    connection.close()


def ys(group=None):
    return [r[2] for r in ROWS if r[2] is not None and group in (None, r[1])]


def pairs(group=None):
    return [(r[2], r[3]) for r in ROWS if None not in (r[2], r[3]) and group in (None, r[1])]


def reference(function: str, group=None):
    """The figure by its definition, from the statistics module (None where the Reference says NULL)."""
    values, both = ys(group), pairs(group)
    y, x = [p[0] for p in both], [p[1] for p in both]
    one = {"VARIANCE": lambda: statistics.variance(values) if len(values) > 1 else 0,
           "STDDEV": lambda: statistics.stdev(values) if len(values) > 1 else 0,
           "VAR_SAMP": lambda: statistics.variance(values) if len(values) > 1 else None,
           "STDDEV_SAMP": lambda: statistics.stdev(values) if len(values) > 1 else None,
           "VAR_POP": lambda: statistics.pvariance(values),
           "STDDEV_POP": lambda: statistics.pstdev(values)}
    if function in one:
        return one[function]() if values else None
    if function == "REGR_COUNT":
        return len(both)
    if not both:
        return None
    flat_x, flat_y = statistics.pvariance(x) == 0, statistics.pvariance(y) == 0
    slope = None if flat_x else statistics.linear_regression(x, y).slope
    return {
        "COVAR_POP": statistics.covariance(y, x) * (len(y) - 1) / len(y) if len(y) > 1 else 0,
        "COVAR_SAMP": statistics.covariance(y, x) if len(y) > 1 else None,
        "CORR": None if flat_x or flat_y else statistics.correlation(y, x),
        "REGR_SLOPE": slope,
        "REGR_INTERCEPT": None if flat_x else statistics.linear_regression(x, y).intercept,
        "REGR_R2": None if flat_x else 1 if flat_y else statistics.correlation(y, x) ** 2,
        "REGR_AVGX": statistics.fmean(x), "REGR_AVGY": statistics.fmean(y),
        "REGR_SXX": statistics.pvariance(x) * len(x), "REGR_SYY": statistics.pvariance(y) * len(y),
        "REGR_SXY": (statistics.covariance(y, x) * (len(y) - 1)) if len(y) > 1 else 0,
    }[function]


ONE = ["VARIANCE", "STDDEV", "VAR_SAMP", "STDDEV_SAMP", "VAR_POP", "STDDEV_POP"]
TWO = ["COVAR_POP", "COVAR_SAMP", "CORR", "REGR_SLOPE", "REGR_INTERCEPT", "REGR_COUNT", "REGR_R2", "REGR_AVGX",
       "REGR_AVGY", "REGR_SXX", "REGR_SYY", "REGR_SXY"]


def close(got, expected) -> bool:
    if expected is None or got is None:
        return got is expected
    return math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("function", ONE + TWO)
def test_each_function_by_group_against_its_definition(conn, function: str) -> None:
    call = f"{function}(y)" if function in ONE else f"{function}(y, x)"
    rows = run(conn, f"SELECT grp, {call} FROM obs GROUP BY grp ORDER BY grp")
    for group, got in rows:
        assert close(got, reference(function, group)), (function, group, got, reference(function, group))
    (whole,), = run(conn, f"SELECT {call} FROM obs")
    assert close(whole, reference(function)), (function, whole)


@pytest.mark.parametrize("function", ONE + TWO)
def test_each_function_over_no_rows(conn, function: str) -> None:
    call = f"{function}(y)" if function in ONE else f"{function}(y, x)"
    assert run(conn, f"SELECT {call} FROM obs WHERE id > 100") == [(0 if function == "REGR_COUNT" else None,)]


def test_one_value_separates_variance_from_var_samp(conn) -> None:
    assert run(conn, "SELECT VARIANCE(y), STDDEV(y), VAR_SAMP(y), STDDEV_SAMP(y), VAR_POP(y) FROM obs WHERE id = 7") \
        == [(0, 0, None, None, 0)]


def test_distinct(conn) -> None:
    (got,), = run(conn, "SELECT STDDEV(DISTINCT y) FROM obs")
    assert close(got, statistics.stdev(sorted(set(ys()))))


def test_as_analytic_functions_with_partitions_and_frames(conn) -> None:
    rows = run(conn, "SELECT id, STDDEV_POP(y) OVER (PARTITION BY grp), "
                     "VARIANCE(y) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
                     "REGR_SLOPE(y, x) OVER (PARTITION BY grp) FROM obs ORDER BY id")
    by_id = {r[0]: r for r in ROWS}
    for ident, pop, moving, slope in rows:
        group = by_id[ident][1]
        assert close(pop, reference("STDDEV_POP", group))
        window = [by_id[i][2] for i in range(max(1, ident - 2), ident + 1) if by_id[i][2] is not None]
        assert close(moving, statistics.variance(window) if len(window) > 1 else 0), (ident, moving)
        assert close(slope, reference("REGR_SLOPE", group))


def test_ratio_to_report(conn) -> None:
    rows = run(conn, "SELECT id, RATIO_TO_REPORT(y) OVER (PARTITION BY grp) FROM obs ORDER BY id")
    totals = {g: sum(ys(g)) for g in "abc"}
    by_id = {r[0]: r for r in ROWS}
    for ident, ratio in rows:
        y, group = by_id[ident][2], by_id[ident][1]
        assert close(ratio, None if y is None else y / totals[group]), (ident, ratio)
    assert failure(conn, "SELECT RATIO_TO_REPORT(y) OVER (ORDER BY id) FROM obs").code == 30487
    assert failure(conn, "SELECT RATIO_TO_REPORT(y) FROM obs").code == 30484
    assert failure(conn, "SELECT RATIO_TO_REPORT(y - y) OVER () FROM obs WHERE y IS NOT NULL").code == 1476
