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


# --------------------------------------------------------------------------- named passes (transforms.PASSES)

import inspect  # noqa: E402

import oracledb  # noqa: E402

from workshop_lib.lite import transforms  # noqa: E402
from workshop_lib.lite.translate import parse  # noqa: E402


def test_every_pass_is_a_documented_function_of_one_node() -> None:
    assert len(transforms.PASSES) >= 10
    for rewrite in transforms.PASSES:
        assert rewrite.__doc__ and len(rewrite.__doc__.split()) >= 8, rewrite.__name__
        assert list(inspect.signature(rewrite).parameters) == ["node"], rewrite.__name__
        # a pass leaves a node it is not about unchanged (the same object)
        other = exp.Literal.number(7)
        assert rewrite(other) is other


def test_preprocess_chains_passes_in_order() -> None:
    seen: list[str] = []

    def first(node: exp.Expression) -> exp.Expression:
        seen.append("first:" + node.sql())
        return exp.Literal.number(2) if isinstance(node, exp.Literal) else node

    def second(node: exp.Expression) -> exp.Expression:
        seen.append("second:" + node.sql())
        return node

    out = transforms.preprocess([first, second])(exp.Literal.number(1))
    assert out.sql() == "2" and seen == ["first:1", "second:2"]


def test_unsupported_args_refuses_before_the_pass_runs() -> None:
    tree = parse("SELECT 1 FROM dual FETCH FIRST 10 PERCENT ROWS ONLY")
    fetch = tree.find(exp.Fetch)
    with pytest.raises(oracledb.DatabaseError) as info:
        transforms.fetch_first_rows_only(fetch)
    assert info.value.args[0].full_code == "ORA-03001" and "PERCENT" in info.value.args[0].message
    plain = parse("SELECT 1 FROM dual FETCH FIRST 10 ROWS ONLY").find(exp.Fetch)
    assert transforms.fetch_first_rows_only(plain) is plain


def test_merge_pass_yields_oracle_update_then_insert() -> None:
    merge = parse("MERGE INTO t USING src s ON (t.id = s.id) "
                  "WHEN MATCHED THEN UPDATE SET t.a = s.a WHERE s.a > 0 "
                  "WHEN NOT MATCHED THEN INSERT (id, a) VALUES (s.id, s.a) WHERE s.a < 9")
    update, insert = transforms.merge_to_update_insert(merge)
    assert isinstance(update, exp.Update) and isinstance(insert, exp.Insert)
    assert update.sql() == 'UPDATE t AS "T" SET t.a = s.a FROM src AS "S" WHERE t.id = s.id AND (s.a > 0)'
    assert insert.sql() == ('INSERT INTO t ("ID", "A") SELECT s.id, s.a FROM src AS "S" '
                            'WHERE NOT EXISTS(SELECT 1 FROM t AS "T" WHERE t.id = s.id) AND (s.a < 9)')


@pytest.mark.parametrize("clause", [
    "WHEN MATCHED AND s.a > 0 THEN UPDATE SET t.a = s.a",          # not Oracle's MERGE syntax
    "WHEN MATCHED THEN DELETE",
])
def test_merge_pass_refuses_other_clauses(clause: str) -> None:
    merge = parse(f"MERGE INTO t USING src s ON (t.id = s.id) {clause}")
    with pytest.raises(oracledb.DatabaseError) as info:
        transforms.merge_to_update_insert(merge)
    assert info.value.args[0].full_code == "ORA-03001" and "MERGE" in info.value.args[0].message


def test_merge_update_and_insert_where_clauses_filter_rows(conn: LiteConnection) -> None:
    # Oracle's merge_update_clause and merge_insert_clause each take a WHERE (Oracle SQL Reference, MERGE)
    cur = conn.cursor()
    cur.execute("CREATE TABLE merge_t (id NUMBER PRIMARY KEY, a VARCHAR2(10), d DATE)")
    cur.executemany("INSERT INTO merge_t (id, a) VALUES (:1, :2)", [(1, "x"), (2, "y")])
    source = [(1, "one"), (2, "two"), (3, "three"), (4, "four")]
    union = " UNION ALL ".join(f"SELECT {i} id, '{a}' a FROM dual" for i, a in source)
    cur.execute(f"MERGE INTO merge_t t USING ({union}) s ON (t.id = s.id) "
                "WHEN MATCHED THEN UPDATE SET t.a = s.a, t.d = '05-MAR-21' WHERE s.id > 1 "
                "WHEN NOT MATCHED THEN INSERT (id, a) VALUES (s.id, s.a) WHERE s.id < 4")
    # expected by hand: 1 fails the update WHERE, 2 is updated, 3 inserted, 4 fails the insert WHERE
    assert cur.rowcount == 2
    cur.execute("SELECT id, a, TO_CHAR(d, 'YYYY-MM-DD') FROM merge_t ORDER BY id")
    assert cur.fetchall() == [(1, "x", None), (2, "two", "2021-03-05"), (3, "three", None)]
    conn.rollback()
    cur.execute("DROP TABLE merge_t")


def test_merge_delete_where_deletes_updated_rows_by_their_new_values(conn: LiteConnection) -> None:
    """UPDATE SET ... DELETE WHERE c (Oracle SQL Reference, merge_update_clause): c reads the updated values and
    the source row; a row it is UNKNOWN for stays; rows the MERGE does not match are never deleted."""
    cur = conn.cursor()
    cur.execute("CREATE TABLE merge_d (id NUMBER PRIMARY KEY, n NUMBER)")
    cur.executemany("INSERT INTO merge_d VALUES (:1, :2)", [(1, 10), (2, 20), (3, 30), (4, 40), (5, None)])
    union = " UNION ALL ".join(f"SELECT {i} id, {d} d FROM dual" for i, d in [(1, 5), (2, 100), (3, -25), (5, 1)])
    cur.execute(f"MERGE INTO merge_d t USING ({union}) s ON (t.id = s.id) "
                "WHEN MATCHED THEN UPDATE SET t.n = t.n + s.d DELETE WHERE t.n > 100 OR s.d < 0")
    # by hand: 1 -> 15 kept; 2 -> 120 deleted (new value); 3 -> 5 deleted (source d < 0); 4 not matched;
    # 5 -> NULL + 1 = NULL: the condition is UNKNOWN (NULL > 100 OR 1 < 0), so the row stays
    cur.execute("SELECT id, n FROM merge_d ORDER BY id")
    assert cur.fetchall() == [(1, 15), (4, 40), (5, None)]
    conn.rollback()
    for other in ("UPDATE SET t.n = 0 WHERE s.d > 0 DELETE WHERE t.n = 0",
                  "UPDATE SET t.n = 0 DELETE WHERE t.n = 0 WHEN NOT MATCHED THEN INSERT (id, n) VALUES (s.id, 0)"):
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute(f"MERGE INTO merge_d t USING ({union}) s ON (t.id = s.id) WHEN MATCHED THEN {other}")
        assert info.value.args[0].full_code == "ORA-03001" and "DELETE WHERE together with" in str(info.value)
    cur.execute("DROP TABLE merge_d")


def test_update_set_date_from_nls_string(conn: LiteConnection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE upd_d (id NUMBER, d DATE)")
    cur.execute("INSERT INTO upd_d VALUES (1, NULL)")
    cur.execute("UPDATE upd_d SET d = '07-JUN-45' WHERE id = 1")
    cur.execute("SELECT TO_CHAR(d, 'YYYY-MM-DD') FROM upd_d")
    assert cur.fetchone() == ("2045-06-07",)   # RR: 45 < 50 is this century
    cur.execute("DROP TABLE upd_d")


@pytest.mark.parametrize("sql, code", [
    ("SELECT NUMTODSINTERVAL(5, unit) FROM (SELECT 'HOUR' unit FROM dual)", "ORA-03001"),
    ("SELECT NUMTODSINTERVAL(5) FROM dual", "ORA-00909"),
    ("SELECT NUMTODSINTERVAL(5, 'WEEK') FROM dual", "ORA-01760"),
    ("SELECT SYSDATE + NUMTODSINTERVAL(5, UPPER('hour')) FROM dual", "ORA-03001"),
])
def test_numtodsinterval_with_a_unit_lite_cannot_read_is_an_oracle_error(conn: LiteConnection, sql: str,
                                                                          code: str) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        conn.cursor().execute(sql)
    assert info.value.args[0].full_code == code


# --------------------------------------------------------------------------- x op ANY|ALL (subquery), three-valued

_QUANTIFIED_OPS = {">": lambda a, b: a > b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b,
                   "<=": lambda a, b: a <= b, "=": lambda a, b: a == b, "<>": lambda a, b: a != b}


def _quantified_truth(x, values: list, op: str, every: bool) -> bool | None:
    """Oracle's definition: ALL is FALSE if one comparison is FALSE, else UNKNOWN if one is UNKNOWN, else TRUE
    (of no rows: TRUE); ANY is TRUE if one is TRUE, else UNKNOWN if one is UNKNOWN, else FALSE."""
    results = [None if x is None or v is None else _QUANTIFIED_OPS[op](x, v) for v in values]
    decisive = False if every else True
    if decisive in results:
        return decisive
    return None if None in results else (not decisive)


@pytest.fixture(scope="module")
def quantified(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    db = connect(tmp_path_factory.mktemp("quantified"))
    cur = db.cursor()
    cur.execute("CREATE TABLE qx (x NUMBER)")
    cur.execute("CREATE TABLE qv (k NUMBER, v NUMBER)")
    cur.executemany("INSERT INTO qx (x) VALUES (:1)", [[1], [5], [10], [None]])
    for k, values in enumerate(_QUANTIFIED_SETS):
        cur.executemany("INSERT INTO qv (k, v) VALUES (:1, :2)", [[k, v] for v in values])
    db.commit()
    yield db
    db.close()


_QUANTIFIED_SETS = [[], [3], [3, None], [None], [0, 20], [1, 5]]


@pytest.mark.parametrize("op", list(_QUANTIFIED_OPS))
@pytest.mark.parametrize("quantifier", ["ALL", "ANY", "SOME"])
def test_quantified_subquery_comparisons_keep_unknown_under_not_and_in_case(quantified: LiteConnection, op: str,
                                                                             quantifier: str) -> None:
    """Under NOT, in an OR and in a CASE, ``x op ALL|ANY (subquery)`` is TRUE, FALSE or UNKNOWN exactly as
    Oracle defines it (a Python model of the definition is the oracle here), NULLs on either side included."""
    every = quantifier == "ALL"
    cur = quantified.cursor()
    xs = [1, 5, 10, None]
    for k, values in enumerate(_QUANTIFIED_SETS):
        condition = f"x {op} {quantifier} (SELECT v FROM qv WHERE k = {k})"
        truth = {x: _quantified_truth(x, values, op, every) for x in xs}
        cur.execute(f"SELECT x, CASE WHEN {condition} THEN 'T' WHEN NOT ({condition}) THEN 'F' END FROM qx")
        assert dict(cur.fetchall()) == {x: {True: "T", False: "F", None: None}[t] for x, t in truth.items()}, \
            (condition, values)
        cur.execute(f"SELECT x FROM qx WHERE NOT ({condition})")
        assert {r[0] for r in cur.fetchall()} == {x for x, t in truth.items() if t is False}, (condition, values)
        cur.execute(f"SELECT x FROM qx WHERE {condition} OR x = 10")
        assert {r[0] for r in cur.fetchall()} == {x for x, t in truth.items() if t is True or x == 10}, \
            (condition, values)
