"""NUMBER arithmetic in lite is decimal, as Oracle's is: 0.1 + 0.2 is 0.3, not 0.30000000000000004.

Each expected value is Python's ``decimal`` arithmetic on the literals as written, converted to the float
python-oracledb would return (an int when whole). Whole-number arithmetic stays SQLite's own integer
arithmetic, and BINARY_DOUBLE arithmetic stays IEEE, which Oracle uses for those types too.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from lite_sql import failure, run
from workshop_lib.backends.lite import connect_lite


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("decimal"), "AGENT")
    run(connection, "CREATE TABLE prices (id NUMBER(6) PRIMARY KEY, price NUMBER, qty NUMBER(4), ratio BINARY_DOUBLE)")
    for ident, price, qty in [(1, "19.99", 3), (2, "0.1", 7), (3, "0.2", 1), (4, "2.675", 2), (5, "1.1", 10)]:
        run(connection, f"INSERT INTO prices VALUES ({ident}, {price}, {qty}, {price})")
    run(connection, "COMMIT")
    yield connection
    connection.close()


def oracle(value: Decimal):
    """A decimal result as python-oracledb returns Oracle's NUMBER: an int when whole, else a float."""
    return int(value) if value == value.to_integral_value() else float(value)


@pytest.mark.parametrize(("expression", "expected"), [
    ("0.1 + 0.2", Decimal("0.1") + Decimal("0.2")),
    ("1 - 0.9", Decimal("1") - Decimal("0.9")),
    ("24000 * 1.1", Decimal("24000") * Decimal("1.1")),
    ("1.1 * 3", Decimal("1.1") * 3),
    ("3.3 / 3", Decimal("3.3") / 3),
    ("0.7 + 0.1 - 0.8", Decimal("0.7") + Decimal("0.1") - Decimal("0.8")),
    ("(0.1 + 0.2) * 10", (Decimal("0.1") + Decimal("0.2")) * 10),
    ("'10' + 0.5", Decimal("10.5")),
    ("7 / 2", Decimal("3.5")),
])
def test_literal_arithmetic(conn, expression: str, expected: Decimal) -> None:
    (got,), = run(conn, f"SELECT {expression} FROM dual")
    assert got == oracle(expected) and type(got) is type(oracle(expected)), (expression, got)


def test_an_equality_holds_as_in_oracle(conn) -> None:
    assert run(conn, "SELECT COUNT(*) FROM dual WHERE 0.1 + 0.2 = 0.3 AND 24000 * 1.1 = 26400") == [(1,)]


def test_column_arithmetic_and_sums(conn) -> None:
    rows = run(conn, "SELECT id, price * qty, price + 0.01 FROM prices ORDER BY id")
    prices = {1: "19.99", 2: "0.1", 3: "0.2", 4: "2.675", 5: "1.1"}
    quantities = {1: 3, 2: 7, 3: 1, 4: 2, 5: 10}
    assert rows == [(i, oracle(Decimal(prices[i]) * quantities[i]), oracle(Decimal(prices[i]) + Decimal("0.01")))
                    for i in sorted(prices)]
    total = sum(Decimal(p) * quantities[i] for i, p in prices.items())
    assert run(conn, "SELECT SUM(price * qty), SUM(price), AVG(price) FROM prices") == \
        [(oracle(total), oracle(sum(map(Decimal, prices.values()))),
          oracle(sum(map(Decimal, prices.values())) / 5))]
    running = run(conn, "SELECT SUM(price) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM prices "
                        "ORDER BY id")
    values = [Decimal(prices[i]) for i in sorted(prices)]
    assert running == [(oracle(values[i] + (values[i - 1] if i else 0)),) for i in range(5)]


def test_an_update_stores_the_decimal_result(conn) -> None:
    run(conn, "UPDATE prices SET price = price * 1.1 WHERE id = 5")
    assert run(conn, "SELECT price FROM prices WHERE id = 5") == [(oracle(Decimal("1.1") * Decimal("1.1")),)]
    assert run(conn, "SELECT COUNT(*) FROM prices WHERE price = 1.21") == [(1,)]
    run(conn, "ROLLBACK")


def test_whole_numbers_keep_sqlites_integer_arithmetic(conn) -> None:
    plan = conn._plan("SELECT id + qty, id * 2, qty - 1, SUM(qty), COUNT(*) * 2 FROM prices GROUP BY id, qty")
    assert "ora_dec" not in " ".join(plan.sql).lower()
    plan = conn._plan("SELECT price + 1, SUM(price) FROM prices GROUP BY price")
    assert "ora_dec_add" in " ".join(plan.sql).lower() and "ora_dec_sum" in " ".join(plan.sql).lower()


def test_binary_double_stays_ieee(conn) -> None:
    (got,), = run(conn, "SELECT ratio + 0.2 FROM prices WHERE id = 2")
    assert got == 0.1 + 0.2   # 0.30000000000000004, as Oracle computes BINARY_DOUBLE


def test_nulls_and_bad_text(conn) -> None:
    assert run(conn, "SELECT NULL + 0.1, 0.5 * NULL, SUM(CAST(NULL AS NUMBER)) FROM dual") == [(None, None, None)]
    assert failure(conn, "SELECT 'ten' + 0.5 FROM dual").code == 1722


def test_a_bind_holding_whole_numbers_keeps_integer_arithmetic_at_run_time(conn) -> None:
    """``:k + qty``: the plan cannot know the bind is whole, so it checks the values' SQLite types row by row."""
    assert run(conn, "SELECT :k + qty, :k + price FROM prices WHERE id = 2", {"k": 60}) == [(67, 60.1)]
    assert run(conn, "SELECT :k + qty FROM prices WHERE id = 2", {"k": 0.1}) == [(7.1,)]
    sql = " ".join(conn._plan("SELECT :k + qty FROM prices").sql).lower()
    assert "typeof" in sql and "ora_dec_add" in sql


def test_distinct_sums_and_averages(conn) -> None:
    run(conn, "INSERT INTO prices VALUES (6, 0.1, 1, 0.1)")
    distinct = [Decimal(v) for v in ("19.99", "0.1", "0.2", "2.675", "1.1")]
    assert run(conn, "SELECT SUM(DISTINCT price), AVG(DISTINCT price), SUM(price) FROM prices") == \
        [(oracle(sum(distinct)), oracle(sum(distinct) / 5), oracle(sum(distinct) + Decimal("0.1")))]
    run(conn, "ROLLBACK")


def test_a_sum_of_quotients_stays_binary(conn) -> None:
    """A quotient reaches the next operator as a double already (1/61 has no exact form), so adding two of them
    (the hybrid query's RRF score) is SQLite's addition, not a decimal call per row."""
    sql = " ".join(conn._plan("SELECT 1 / (60 + qty) + 1 / (60 + id) FROM prices").sql).lower()
    assert "ora_dec_add" not in sql
    (got,), = run(conn, "SELECT 1 / (60 + qty) + 1 / (60 + id) FROM prices WHERE id = 1")
    assert got == 1 / 63 + 1 / 61
