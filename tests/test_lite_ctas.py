"""CREATE TABLE ... AS SELECT in lite (lite/ctas.py): Oracle's names, types and NOT NULL rules, all or nothing.

The rules checked are the SQL Language Reference's for ``AS subquery``: types
and lengths come from the query; NOT NULL constraints written for a selected
column carry over (not a primary key's implicit one, not through a set
operation, not onto an expression); keys, defaults and checks do not; a row
that breaks a carried constraint means no table at all.
"""

from __future__ import annotations

import oracledb
import pytest

from lite_sql import run
from workshop_lib.backends.lite import connect_lite


@pytest.fixture
def conn(tmp_path):
    connection = connect_lite(tmp_path, "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE src (id NUMBER(6) PRIMARY KEY, name VARCHAR2(10) NOT NULL, note VARCHAR2(5 CHAR), "
                "amount NUMBER(8, 2) DEFAULT 0 CHECK (amount >= 0), seen DATE, v VECTOR(3, FLOAT32), doc JSON)")
    cur.executemany("INSERT INTO src VALUES (:1, :2, :3, :4, :5, TO_VECTOR(:6), :7)",
                    [(i, f"n{i}", None if i % 2 else "odd", i * 1.5, None, f"[{i}, 0, 1]", '{"k": %d}' % i)
                     for i in range(1, 7)])
    connection.commit()
    yield connection
    connection.close()


def described(conn, table: str) -> list[tuple]:
    return run(conn, "SELECT column_name, data_type, data_length, data_precision, data_scale, nullable, char_used "
                     "FROM user_tab_columns WHERE table_name = :t ORDER BY column_id", {"t": table})


def test_a_copy_keeps_types_and_written_not_null_but_no_key_default_or_check(conn) -> None:
    run(conn, "CREATE TABLE copy1 AS SELECT * FROM src WHERE id > 2")
    src, copy = described(conn, "SRC"), described(conn, "COPY1")
    assert [c[:5] + c[6:] for c in copy] == [c[:5] + c[6:] for c in src]   # names, types, lengths
    assert [c[5] for c in copy] == ["Y", "N", "Y", "Y", "Y", "Y", "Y"]       # the key's implicit NOT NULL: no
    assert run(conn, "SELECT COUNT(*), MIN(id) FROM copy1") == [(4, 3)]
    assert run(conn, "SELECT constraint_type FROM user_constraints WHERE table_name = 'COPY1'") == [("C",)]
    run(conn, "INSERT INTO copy1 (id, name, amount) VALUES (3, 'dup', -1)")  # no key, no check: Oracle takes it
    assert run(conn, "SELECT amount FROM copy1 WHERE name = 'dup'") == [(-1,)]
    near = run(conn, "SELECT id FROM copy1 ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[5, 0, 1]'), EUCLIDEAN) "
                     "FETCH FIRST 1 ROWS ONLY")
    assert near == [(5,)] and run(conn, "SELECT JSON_VALUE(doc, '$.k') FROM copy1 WHERE id = 4") == [("4",)]


def test_names_from_the_column_list_or_aliases_types_from_the_values(conn) -> None:
    run(conn, "CREATE TABLE derived (ident, label, twice, stamp, emb) AS "
              "SELECT id, name || '!', amount * 2, SYSDATE, TO_VECTOR('[1, 2]') FROM src")
    assert [c[:2] + c[5:6] for c in described(conn, "DERIVED")] == [
        ("IDENT", "NUMBER", "Y"), ("LABEL", "VARCHAR2", "Y"), ("TWICE", "NUMBER", "Y"), ("STAMP", "DATE", "Y"),
        ("EMB", "VECTOR", "Y")]
    run(conn, "CREATE TABLE aliased AS SELECT name AS who, amount + 1 AS more FROM src WHERE ROWNUM <= 2")
    assert [c[0] for c in described(conn, "ALIASED")] == ["WHO", "MORE"]
    assert described(conn, "ALIASED")[0][5] == "N"   # a selected column, renamed, keeps its written NOT NULL
    assert len(run(conn, "SELECT * FROM aliased")) == 2


def test_set_operations_and_joins(conn) -> None:
    run(conn, "CREATE TABLE both_ways AS SELECT id, name FROM src UNION ALL SELECT id, name FROM src")
    assert [c[5] for c in described(conn, "BOTH_WAYS")] == ["Y", "Y"]    # no NOT NULL through a set operation
    assert run(conn, "SELECT COUNT(*) FROM both_ways") == [(12,)]
    run(conn, "CREATE TABLE joined AS SELECT a.id, b.note FROM src a, src b WHERE a.id = b.id(+) + 1")
    assert run(conn, "SELECT COUNT(*), COUNT(note) FROM joined") == [(6, 2)]


def test_a_row_that_breaks_a_carried_not_null_leaves_no_table(conn) -> None:
    with pytest.raises(oracledb.DatabaseError, match="ORA-01400"):
        run(conn, "CREATE TABLE broken AS SELECT a.id, b.name FROM src a, src b WHERE a.id = b.id(+) + 1")
    assert run(conn, "SELECT COUNT(*) FROM user_tables WHERE table_name = 'BROKEN'") == [(0,)]
    assert described(conn, "BROKEN") == []


@pytest.mark.parametrize("sql, code", [
    ("CREATE TABLE bad AS SELECT id, amount * 2 FROM src", 998),
    ("CREATE TABLE bad AS SELECT id, name AS id FROM src", 957),
    ("CREATE TABLE bad (a) AS SELECT id, name FROM src", 1730),
    ("CREATE TABLE bad (a NUMBER) AS SELECT id FROM src", 1773),
    ("CREATE TABLE bad AS SELECT id FROM src WHERE id = :1", 1027),
    ("CREATE TABLE src AS SELECT id FROM src", 955),
    ("CREATE TABLE bad AS SELECT id, NULL AS nothing FROM src", 3001),
    ("CREATE TABLE bad AS SELECT id, 1 / (id - 3) AS boom FROM src", 1476),
])
def test_refusals_create_nothing(conn, sql: str, code: int) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql, [3] if ":1" in sql else None)
    assert info.value.args[0].code == code, str(info.value)
    assert run(conn, "SELECT COUNT(*) FROM user_tables WHERE table_name = 'BAD'") == [(0,)]
    assert run(conn, "SELECT COUNT(*) FROM src") == [(6,)]


def test_insert_select_star_meets_each_columns_conversion(conn) -> None:
    """INSERT ... SELECT * (and alias.*) is the same copy into an existing table (it was ORA_NUMBER_IN(*))."""
    run(conn, "CREATE TABLE target AS SELECT * FROM src WHERE 1 = 0")
    run(conn, "INSERT INTO target SELECT * FROM src WHERE id <= 2")
    run(conn, "INSERT INTO target SELECT s.* FROM src s WHERE id = 3")
    assert run(conn, "SELECT COUNT(*) FROM target") == [(3,)]
    with pytest.raises(oracledb.DatabaseError, match="ORA-00913"):
        run(conn, "INSERT INTO target SELECT * FROM src a, src b WHERE a.id = b.id")
    with pytest.raises(oracledb.DatabaseError, match="ORA-00947"):
        run(conn, "INSERT INTO target (id, name) SELECT id FROM src")


def test_a_sequence_numbers_the_new_tables_rows(conn) -> None:
    run(conn, "CREATE SEQUENCE numbers START WITH 100")
    run(conn, "CREATE TABLE numbered AS SELECT numbers.NEXTVAL AS id, name FROM src WHERE id <= 3")
    assert sorted(run(conn, "SELECT id FROM numbered")) == [(100,), (101,), (102,)]
    assert run(conn, "SELECT data_type FROM user_tab_columns WHERE table_name = 'NUMBERED' AND column_name = 'ID'") \
        == [("NUMBER",)]
    with pytest.raises(oracledb.DatabaseError, match="ORA-00998"):
        run(conn, "CREATE TABLE bad AS SELECT numbers.NEXTVAL, name FROM src")
