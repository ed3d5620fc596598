"""ALTER TABLE ... ADD in lite (ddl._alter_table): the vector-search guides' first step, with Oracle's rules.

Oracle's AI Vector Search guides add an embedding column to a table that
already has rows and fill it with an UPDATE; these tests take that path end
to end (dictionary, cached plans, the pruned nearest-rows search) and hold
the added columns to Oracle's rules: the DEFAULT fills existing rows, NOT
NULL without a DEFAULT needs an empty table, a failed statement adds nothing.
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
    cur.execute("CREATE TABLE docs (id NUMBER PRIMARY KEY, body VARCHAR2(100))")
    cur.executemany("INSERT INTO docs VALUES (:1, :2)", [(i, f"doc {i}") for i in range(1, 41)])
    connection.commit()
    yield connection
    connection.close()


def columns(conn, table: str = "DOCS") -> list[tuple]:
    return run(conn, "SELECT column_name, data_type, nullable FROM user_tab_columns WHERE table_name = :t "
                     "ORDER BY column_id", {"t": table})


def test_add_a_vector_column_fill_it_and_search_it(conn) -> None:
    assert len(run(conn, "SELECT * FROM docs WHERE id = 1")[0]) == 2    # a cached plan of SELECT * ...
    run(conn, "ALTER TABLE docs ADD (embedding VECTOR(3, FLOAT32))")
    assert len(run(conn, "SELECT * FROM docs WHERE id = 1")[0]) == 3    # ... sees the new column
    assert columns(conn)[-1] == ("EMBEDDING", "VECTOR", "Y")
    run(conn, "UPDATE docs SET embedding = TO_VECTOR('[' || id || ', 1, 0]')")
    near = run(conn, "SELECT id FROM docs ORDER BY VECTOR_DISTANCE(embedding, TO_VECTOR('[7, 1, 0]'), EUCLIDEAN) "
                     "FETCH FIRST 3 ROWS ONLY")
    assert [r[0] for r in near] == [7, 6, 8] or [r[0] for r in near] == [7, 8, 6]
    with pytest.raises(oracledb.DatabaseError, match="ORA-51803"):
        run(conn, "UPDATE docs SET embedding = TO_VECTOR('[1, 2]') WHERE id = 1")


def test_existing_rows_take_the_default_and_not_null_holds(conn) -> None:
    run(conn, "ALTER TABLE docs ADD (score NUMBER(5, 2) DEFAULT 1.5 NOT NULL, note VARCHAR2(20), meta JSON)")
    assert run(conn, "SELECT DISTINCT score, note, meta FROM docs") == [(1.5, None, None)]
    assert columns(conn)[2:] == [("SCORE", "NUMBER", "N"), ("NOTE", "VARCHAR2", "Y"), ("META", "JSON", "Y")]
    with pytest.raises(oracledb.DatabaseError, match="ORA-01407"):
        run(conn, "UPDATE docs SET score = NULL WHERE id = 1")
    with pytest.raises(oracledb.DatabaseError, match="ORA-40441"):
        run(conn, "UPDATE docs SET meta = '{not json' WHERE id = 1")
    run(conn, "INSERT INTO docs (id, body) VALUES (99, 'new')")
    assert run(conn, "SELECT score FROM docs WHERE id = 99") == [(1.5,)]


def test_not_null_without_default_needs_an_empty_table(conn) -> None:
    with pytest.raises(oracledb.DatabaseError, match="ORA-01758"):
        run(conn, "ALTER TABLE docs ADD (must NUMBER NOT NULL)")
    run(conn, "CREATE TABLE empty_t (id NUMBER)")
    run(conn, "ALTER TABLE empty_t ADD must NUMBER CONSTRAINT empty_must NOT NULL")
    with pytest.raises(oracledb.DatabaseError, match=r'ORA-01400: cannot insert NULL into \("HR"."EMPTY_T"."MUST"\)'):
        run(conn, "INSERT INTO empty_t (id) VALUES (1)")
    run(conn, "INSERT INTO empty_t (id, must) VALUES (1, 2)")
    with pytest.raises(oracledb.DatabaseError, match="ORA-01407"):
        run(conn, "UPDATE empty_t SET must = NULL")
    assert run(conn, "SELECT constraint_name, constraint_type FROM user_constraints WHERE table_name = 'EMPTY_T'") \
        == [("EMPTY_MUST", "C")]
    assert columns(conn, "EMPTY_T") == [("ID", "NUMBER", "Y"), ("MUST", "NUMBER", "N")]


@pytest.mark.parametrize("sql, code, fragment", [
    ("ALTER TABLE docs ADD (body VARCHAR2(5))", 1430, "already exists"),
    ("ALTER TABLE docs ADD (fresh NUMBER, other NUMBER, fresh DATE)", 1430, "already exists"),
    ("ALTER TABLE docs ADD (fresh NUMBER, bad_type TEXT)", 933, "TEXT type"),
    ("ALTER TABLE docs ADD COLUMN fresh NUMBER", 933, "ADD COLUMN is not Oracle SQL"),
    ("ALTER TABLE nowhere ADD (fresh NUMBER)", 942, "NOWHERE"),
    ("ALTER TABLE docs ADD (fresh NUMBER UNIQUE)", 3001, "UNIQUE on a column added by ALTER TABLE"),
    ("ALTER TABLE docs ADD (fresh NUMBER CHECK (fresh > 0))", 3001, "on a column added by ALTER TABLE"),
    ("ALTER TABLE docs ADD (fresh NUMBER GENERATED ALWAYS AS IDENTITY)", 3001, "on a column added by ALTER TABLE"),
    ("ALTER TABLE docs ADD (fresh DATE DEFAULT SYSDATE)", 3001, "constant defaults only"),
    ("ALTER TABLE docs DROP COLUMN body", 3001, "ALTER TABLE ... DROP COLUMN"),
    ("ALTER TABLE docs ADD CONSTRAINT docs_uk UNIQUE (body)", 3001, "ALTER TABLE ... ADD CONSTRAINT"),
    ("ALTER TABLE docs RENAME COLUMN body TO text", 3001, "ALTER TABLE ..."),
])
def test_refusals_name_the_problem_and_add_nothing(conn, sql: str, code: int, fragment: str) -> None:
    before = columns(conn)
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    assert info.value.args[0].code == code and fragment in str(info.value), str(info.value)
    assert columns(conn) == before
    assert len(run(conn, "SELECT * FROM docs WHERE id = 1")[0]) == len(before)
