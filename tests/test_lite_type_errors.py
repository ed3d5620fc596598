"""Every function and operator over a column of every type answers or fails with an Oracle error.

A value of the wrong type (a VECTOR in arithmetic, a string in POWER, a VECTOR concatenated) must give the
error Oracle names (ORA-00932, ORA-01722, ...), or lite's ORA-03001 where it lacks the conversion; never
ORA-00604 (an internal error inside lite) nor a message that shows SQLite or Python underneath.
"""

from __future__ import annotations

import itertools

import oracledb
import pytest

from lite_sql import failure, run
from workshop_lib.backends.lite import connect_lite

COLUMNS = ["n", "s", "d", "t", "j", "v", "b"]
EXPRESSIONS = [
    "UPPER({})", "LENGTH({})", "SUBSTR({}, 1, 2)", "TO_CHAR({})", "TO_NUMBER({})", "ROUND({})", "TRUNC({})",
    "ABS({})", "NVL({}, NULL)", "{} || 'x'", "{} + 1", "{} * 2", "{} / 2", "MAX({})", "MIN({})", "SUM({})", "AVG({})",
    "COUNT(DISTINCT {})", "LISTAGG({}, ',') WITHIN GROUP (ORDER BY 1)", "JSON_ARRAY({})", "JSON_OBJECT('k' VALUE {})",
    "CAST({} AS VARCHAR2(30))", "TO_DATE({})", "INITCAP({})", "LPAD({}, 5)", "REPLACE({}, 'a', 'b')",
    "INSTR({}, 'a')", "GREATEST({}, {})", "DECODE({}, NULL, 1, 2)", "JSON_VALUE({}, '$.a')", "VECTOR_DISTANCE({}, {})",
    "EXTRACT(YEAR FROM {})", "ADD_MONTHS({}, 1)", "MEDIAN({})", "STDDEV({})", "SIGN({})", "TO_CHAR({}, 'YYYY')",
    "TO_CHAR({}, '999.9')", "MOD({}, 2)", "POWER({}, 2)", "SQRT({})", "LN({})",
]
CONDITIONS = ["{} = {}", "{} < {}", "REGEXP_LIKE({}, 'a')", "{} IS JSON", "{} LIKE 'a%'", "{} BETWEEN {} AND {}"]


def internal_errors(connection, statements: list[str]) -> dict[str, str]:
    """Statement -> message of each that failed with lite's internal ORA-00604 or showed what runs underneath
    (SQLite, Python's decimal or float conversion); any other Oracle error is an answer."""
    found = {}
    for sql in statements:
        try:
            run(connection, sql)
        except oracledb.DatabaseError as exc:
            message = exc.args[0].message
            if exc.args[0].code == 604 or any(w in message.lower() for w in ("sqlite", "decimal.", "python",
                                                                               "could not")):
                found[sql] = message.splitlines()[0]
    return found


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("types"), "AGENT")
    run(connection, "CREATE TABLE p (n NUMBER, s VARCHAR2(20), d DATE, t TIMESTAMP, j JSON, v VECTOR(2, FLOAT32), "
                    "b BINARY_DOUBLE)")
    run(connection, "INSERT INTO p VALUES (1.5, 'abc', DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05', "
                    "'{\"a\":[1,2]}', TO_VECTOR('[1,2]'), 2.5)")
    yield connection
    connection.close()


def test_no_type_mistake_is_an_internal_error(conn) -> None:
    statements = [f"SELECT {e.format(c, c)} FROM p" for e, c in itertools.product(EXPRESSIONS, COLUMNS)]
    statements += [f"SELECT 1 FROM p WHERE {e.format(c, c, c)}" for e, c in itertools.product(CONDITIONS, COLUMNS)]
    assert internal_errors(conn, statements) == {}


OPERANDS = COLUMNS + ["NULL", "1", "'x'", "INTERVAL '1' DAY", "SYSDATE"]
BINARY = ["{} + {}", "{} - {}", "{} * {}", "{} / {}", "{} || {}", "NVL({}, {})", "GREATEST({}, {})", "NULLIF({}, {})",
          "DECODE({}, {}, 1, 0)", "MOD({}, {})", "ROUND({}, {})", "INSTR({}, {})", "MONTHS_BETWEEN({}, {})",
          "VECTOR_DISTANCE({}, {})"]


def test_no_pair_of_operands_is_an_internal_error(conn) -> None:
    """Every pair of a column, a literal, an INTERVAL or SYSDATE under each two-argument function and operator
    (date + date is ORA-00975, a number for a VECTOR ORA-00932, text for a number ORA-01722, ...)."""
    statements = [f"SELECT {form.format(a, b)} FROM p"
                  for (a, b), form in itertools.product(itertools.product(OPERANDS, OPERANDS), BINARY)]
    assert internal_errors(conn, statements) == {}


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT d + d FROM p", 975), ("SELECT VECTOR_DISTANCE(n, 1) FROM p", 932),
    ("SELECT ROUND(n, s) FROM p", 1722),
    ("SELECT v + 1 FROM p", 932), ("SELECT SUM(v) FROM p", 932), ("SELECT v || 'x' FROM p", 932),
    ("SELECT POWER(s, 2) FROM p", 1722), ("SELECT VECTOR_DISTANCE(n, n) FROM p", 932),
    ("SELECT CAST(v AS VARCHAR2(30)) FROM p", 3001),
])
def test_the_error_names_the_mistake(conn, sql: str, code: int) -> None:
    assert failure(conn, sql).code == code


@pytest.mark.parametrize(("k", "rows"), [(2, 2), (1.9, 1), ("2", 2), (-3, 0), (None, 0), (0, 0)])
def test_a_fetch_count_bind_is_read_as_oracle_reads_it(conn, k, rows) -> None:
    """FETCH FIRST :k ROWS ONLY: the fraction dropped, a negative or NULL count none (SQL Reference,
    row_limiting_clause); text through TO_NUMBER. The same in a vector top-k block lite prunes and in SQLite's
    LIMIT (a non-integer reached SQLite as 'datatype mismatch', or escaped as a Python ValueError)."""
    run(conn, "CREATE TABLE fetch_v (id NUMBER, v VECTOR(2, FLOAT32))") if not run(
        conn, "SELECT table_name FROM user_tables WHERE table_name = 'FETCH_V'") else None
    run(conn, "DELETE FROM fetch_v")
    for i in range(5):
        run(conn, "INSERT INTO fetch_v VALUES (:1, TO_VECTOR(:2))", [i, f"[{i}, 1]"])
    pruned = run(conn, "SELECT id FROM fetch_v ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[0, 1]'), EUCLIDEAN) "
                       "FETCH FIRST :k ROWS ONLY", {"k": k})
    plain = run(conn, "SELECT id FROM fetch_v ORDER BY id FETCH FIRST :k ROWS ONLY", {"k": k})
    assert pruned == plain == [(i,) for i in range(rows)]
    assert run(conn, "SELECT id FROM fetch_v ORDER BY id OFFSET :o ROWS FETCH NEXT 1 ROWS ONLY", {"o": k}) == \
        [(min(rows, 4),)]


def test_a_fetch_count_that_is_not_a_number(conn) -> None:
    for sql in ("SELECT id FROM fetch_v ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[0, 1]')) FETCH FIRST :k ROWS ONLY",
                "SELECT id FROM fetch_v ORDER BY id FETCH FIRST :k ROWS ONLY"):
        assert failure(conn, sql, {"k": "two"}).code == 1722


def test_no_bind_value_escapes_as_a_python_error(tmp_path) -> None:
    """Odd Python bind values into a column of each type, in an INSERT, a WHERE and an UPDATE: each is stored
    or refused with an Oracle error (a whole number beyond 64 bits is kept as a float, bytes that are no VECTOR
    are ORA-00932, an infinite dimension ORA-51805), never a Python exception such as OverflowError."""
    import array
    import datetime
    import decimal

    connection = connect_lite(tmp_path, "AGENT")
    run(connection, "CREATE TABLE b (n NUMBER, s VARCHAR2(5), d DATE, t TIMESTAMP, j JSON, v VECTOR(2, FLOAT32), "
                    "x BINARY_DOUBLE, c CLOB)")
    values = [None, 1, 1.5, float("nan"), float("inf"), 10 ** 40, "x", "", "[1,2]", b"\x00", [1, 2], {"a": 1},
              True, datetime.date(2020, 1, 2), datetime.timedelta(days=1), decimal.Decimal("1.25"),
              decimal.Decimal(10) ** 30, array.array("f", [1, 2]), array.array("d", [1e300, 2]), [1e40, 1], object()]
    escaped = {}
    for column in ("n", "s", "d", "t", "j", "v", "x", "c"):
        for value in values:
            for sql in (f"INSERT INTO b ({column}) VALUES (:1)", f"SELECT COUNT(*) FROM b WHERE {column} = :1"):
                try:
                    run(connection, sql, [value])
                except oracledb.DatabaseError as exc:
                    if exc.args[0].code == 604 or "sqlite" in exc.args[0].message.lower():
                        escaped[(sql, repr(value))] = exc.args[0].message.splitlines()[0]
                except Exception as exc:   # noqa: BLE001 - the point: nothing but Oracle errors
                    escaped[(sql, repr(value))] = f"{type(exc).__name__}: {exc}"
    connection.close()
    assert escaped == {}


WINDOW_FUNCTIONS = ["SUM(x)", "AVG(x)", "COUNT(x)", "MIN(s)", "MAX(d)", "STDDEV(x)", "VARIANCE(x)", "CORR(x, g)",
                    "MEDIAN(x)", "LISTAGG(s, ',') WITHIN GROUP (ORDER BY s)", "ROW_NUMBER()", "RANK()", "NTILE(2)",
                    "LAG(x)", "LEAD(s, 2, 'z')", "FIRST_VALUE(x)", "LAST_VALUE(x IGNORE NULLS)", "NTH_VALUE(x, 2)",
                    "PERCENT_RANK()", "RATIO_TO_REPORT(x)", "JSON_ARRAYAGG(x)", "REGR_SLOPE(x, g)",
                    "SUM(DISTINCT x)", "COUNT(DISTINCT s)"]
OVERS = [" OVER ()", " OVER (PARTITION BY g)", " OVER (ORDER BY x)", " OVER (PARTITION BY g ORDER BY d DESC)",
         " OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
         " OVER (ORDER BY d RANGE BETWEEN 2 PRECEDING AND CURRENT ROW)",
         " OVER (ORDER BY x ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING)",
         " OVER (ORDER BY x ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)"]


def test_no_window_function_and_frame_is_an_internal_error_or_a_crash(tmp_path) -> None:
    """Every aggregate and analytic function under each kind of OVER clause, frames that can hold no row
    included: CPython 3.11's sqlite3 kills the process when a Python window function (lite's decimal SUM, its
    statistics) is asked for such a frame, so lite keeps them out of those frames; DISTINCT takes PARTITION BY
    only (ORA-30487, as in Oracle)."""
    connection = connect_lite(tmp_path, "AGENT")
    run(connection, "CREATE TABLE w (g NUMBER, x NUMBER, s VARCHAR2(5), d DATE)")
    for i in range(6):
        run(connection, "INSERT INTO w VALUES (:1, :2, :3, DATE '2020-01-01' + :4)",
            [i % 2, None if i == 3 else i * 1.5, f"s{i}", i])
    internal = internal_errors(connection, [f"SELECT {function}{over} FROM w"
                                            for function, over in itertools.product(WINDOW_FUNCTIONS, OVERS)])
    # the two rows before each row (x in g, x order, NULL last: 0, 3, 6, 1.5, 7.5, NULL): a decimal SUM there is
    # SQLite's own (no crash), NULL for the first row, whose frame is empty
    assert run(connection, "SELECT SUM(x) OVER (ORDER BY g, x ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM w "
                           "ORDER BY g, x") == [(None,), (0,), (3,), (9,), (7.5,), (9,)]
    # lite's own statistics cannot take such a frame: refused by name before SQLite could ask for it
    assert failure(connection, "SELECT STDDEV(x) OVER (ORDER BY x ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) "
                               "FROM w").code == 3001
    connection.close()
    assert internal == {}
