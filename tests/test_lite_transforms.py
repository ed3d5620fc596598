"""translate.TRANSFORMS: the one-to-one rewrites, table-driven as in sqlglot's generators."""

from __future__ import annotations


import pytest
from sqlglot import exp

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection
from workshop_lib.lite.translate import TRANSFORMS


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    connection = connect(tmp_path_factory.mktemp("lite_transforms"), "AGENT")
    yield connection
    connection.close()


def test_the_table_maps_sqlglot_classes_to_rewrites() -> None:
    assert TRANSFORMS and all(isinstance(k, type) and issubclass(k, exp.Expression) for k in TRANSFORMS)
    assert all(callable(v) for v in TRANSFORMS.values())


@pytest.mark.parametrize("oracle, sqlite, value", [
    ("ADD_MONTHS(DATE '2025-01-31', 1)", "ora_add_months(", "2025-02-28 00:00:00"),
    ("INITCAP('hello world')", "ora_initcap('hello world')", "Hello World"),
    ("REGEXP_SUBSTR('a1b22', '[0-9]+', 1, 2)", "ora_regexp_substr('a1b22', '[0-9]+', 1, 2)", "22"),
    ("REGEXP_COUNT('a1b22', '[0-9]')", "ora_regexp_count('a1b22', '[0-9]')", 3),
    ("LPAD('7', 3, '0')", "ora_lpad('7', 3, '0')", "007"),
    ("INSTR('banana', 'an', 1, 2)", "ora_instr('banana', 'an', 1, 2)", 4),
    ("GREATEST(1, 5, 3)", "MAX(1, 5, 3)", 5),
    ("TRUNC(12.345, 1)", "ora_trunc(12.345, 1)", 12.3),
    ("TO_NUMBER('42')", "ora_to_number('42')", 42),
])
def test_each_rewrite_yields_the_lite_function_and_oracles_value(conn: LiteConnection, oracle: str, sqlite: str,
                                                                 value: object) -> None:
    sql = f"SELECT {oracle} AS v FROM dual"
    with conn.cursor() as cur:
        cur.execute(sql)
        got = cur.fetchone()[0]
    assert sqlite.upper() in conn.caches.plans[sql].sql[0].upper()
    if isinstance(value, str) and value[:4].isdigit():
        assert str(got).startswith(value[:10])
    else:
        assert got == value
