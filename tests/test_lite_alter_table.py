"""ALTER TABLE ... ADD, DROP COLUMN, RENAME COLUMN and RENAME TO in lite (ddl._alter_table, alter_columns.py).

Oracle's AI Vector Search guides add an embedding column to a table that
already has rows and fill it with an UPDATE; these tests take that path end
to end (dictionary, cached plans, the pruned nearest-rows search) and hold
the added columns to Oracle's rules: the DEFAULT fills existing rows, NOT
NULL without a DEFAULT needs an empty table, a failed statement adds nothing.
Dropping and renaming follow the SQL Reference's ALTER TABLE: what depends on
a dropped column goes with it, a renamed column or table keeps its rows,
constraints, indexes and comments.
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
    ("ALTER TABLE docs ADD CONSTRAINT docs_uk UNIQUE (body)", 3001, "ALTER TABLE ... ADD CONSTRAINT"),
    ("ALTER TABLE docs MODIFY (body VARCHAR2(200))", 3001, "MODIFY"),
    ("ALTER TABLE docs DROP COLUMN nope", 904, '"NOPE"'),
    ("ALTER TABLE docs DROP (body, nope)", 904, '"NOPE"'),
    ("ALTER TABLE docs DROP (id, body)", 12983, "cannot drop all columns"),
    ("ALTER TABLE docs DROP COLUMN id", 3001, "primary key column"),
    ("ALTER TABLE docs RENAME COLUMN nope TO other", 904, '"NOPE"'),
    ("ALTER TABLE docs RENAME COLUMN body TO id", 957, "duplicate column name (ID)"),
])
def test_refusals_name_the_problem_and_add_nothing(conn, sql: str, code: int, fragment: str) -> None:
    before = columns(conn)
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    assert info.value.args[0].code == code and fragment in str(info.value), str(info.value)
    assert columns(conn) == before
    assert len(run(conn, "SELECT * FROM docs WHERE id = 1")[0]) == len(before)


def test_drop_the_vector_column_again_and_add_it_back(conn) -> None:
    """The guides' column, dropped: its vector index and comment go, a cached SELECT * sees the table as it
    is, the column ids close up, and the column can be added again."""
    run(conn, "ALTER TABLE docs ADD (embedding VECTOR(3, FLOAT32), note VARCHAR2(10))")
    run(conn, "UPDATE docs SET embedding = TO_VECTOR('[' || id || ', 1, 0]'), note = 'n' || id")
    run(conn, "CREATE VECTOR INDEX docs_vx ON docs (embedding) ORGANIZATION NEIGHBOR PARTITIONS DISTANCE COSINE")
    run(conn, "COMMENT ON COLUMN docs.embedding IS 'the vector'")
    assert len(run(conn, "SELECT * FROM docs WHERE id = 1")[0]) == 4
    run(conn, "ALTER TABLE docs DROP COLUMN embedding")
    assert run(conn, "SELECT * FROM docs WHERE id = 1") == [(1, "doc 1", "n1")]
    assert run(conn, "SELECT column_name, column_id FROM user_tab_columns WHERE table_name = 'DOCS' "
                     "ORDER BY column_id") == [("ID", 1), ("BODY", 2), ("NOTE", 3)]
    assert run(conn, "SELECT index_name FROM user_indexes WHERE table_name = 'DOCS'") == []
    assert run(conn, "SELECT COUNT(*) FROM user_col_comments WHERE table_name = 'DOCS' "
                     "AND comments IS NOT NULL") == [(0,)]
    run(conn, "ALTER TABLE docs ADD (embedding VECTOR(3, FLOAT32))")
    assert run(conn, "SELECT COUNT(embedding) FROM docs") == [(0,)]


def test_drop_takes_the_column_s_indexes_checks_and_not_null_with_it(conn) -> None:
    run(conn, "CREATE TABLE items (id NUMBER PRIMARY KEY, a NUMBER NOT NULL, b NUMBER, c VARCHAR2(20), "
              "CONSTRAINT ab_ck CHECK (a < b), CONSTRAINT b_ck CHECK (b > 0))")
    run(conn, "INSERT INTO items VALUES (1, 1, 2, 'red pen')")
    run(conn, "CREATE INDEX items_ab ON items (a, b)")
    run(conn, "CREATE INDEX items_c_tx ON items (c) INDEXTYPE IS CTXSYS.CONTEXT")
    with pytest.raises(oracledb.DatabaseError) as info:   # AB_CK also names B
        run(conn, "ALTER TABLE items DROP COLUMN a")
    assert info.value.args[0].code == 12991
    run(conn, "ALTER TABLE items DROP COLUMN a CASCADE CONSTRAINTS")
    assert run(conn, "SELECT constraint_name FROM user_constraints WHERE table_name = 'ITEMS' "
                     "AND constraint_type = 'C' ORDER BY 1") == [("B_CK",)]
    assert run(conn, "SELECT index_name FROM user_indexes WHERE table_name = 'ITEMS' ORDER BY 1") == [("ITEMS_C_TX",)]
    run(conn, "INSERT INTO items (id, b, c) VALUES (2, 5, 'blue ink')")   # A's NOT NULL went with it
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO items (id, b) VALUES (3, -1)")   # B's own CHECK stays
    assert info.value.args[0].code == 2290
    assert run(conn, "SELECT id FROM items WHERE CONTAINS(c, 'pen') > 0") == [(1,)]
    run(conn, "ALTER TABLE items DROP (c)")
    assert run(conn, "SELECT * FROM items ORDER BY id") == [(1, 2), (2, 5)]
    assert run(conn, "SELECT COUNT(*) FROM user_indexes WHERE table_name = 'ITEMS'") == [(0,)]


def test_a_referenced_key_cannot_be_dropped(conn) -> None:
    run(conn, "CREATE TABLE notes (id NUMBER PRIMARY KEY, doc_id NUMBER REFERENCES docs (id))")
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "ALTER TABLE docs DROP COLUMN id")
    assert info.value.args[0].code == 12992
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "ALTER TABLE notes DROP COLUMN doc_id")
    assert info.value.args[0].code == 3001 and "foreign key column" in str(info.value)


def test_rename_a_column_keeps_rows_constraints_indexes_and_comment(conn) -> None:
    run(conn, "CREATE TABLE people (id NUMBER PRIMARY KEY, name VARCHAR2(20) NOT NULL, age NUMBER DEFAULT ON NULL 0)")
    run(conn, "INSERT INTO people (id, name) VALUES (1, 'Ann')")
    run(conn, "CREATE INDEX people_name ON people (name)")
    run(conn, "COMMENT ON COLUMN people.name IS 'given name'")
    run(conn, "CREATE VIEW adults AS SELECT name FROM people WHERE age >= 18")
    run(conn, "ALTER TABLE people RENAME COLUMN name TO full_name")
    run(conn, "ALTER TABLE people RENAME COLUMN age TO years")
    assert run(conn, "SELECT full_name, years FROM people") == [("Ann", 0)]
    assert run(conn, "SELECT comments FROM user_col_comments WHERE table_name = 'PEOPLE' AND column_name = 'FULL_NAME'") \
        == [("given name",)]
    assert run(conn, "SELECT search_condition FROM user_constraints WHERE table_name = 'PEOPLE' "
                     "AND constraint_type = 'C'") == [('"FULL_NAME" IS NOT NULL',)]
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO people (id, full_name) VALUES (2, NULL)")
    assert "FULL_NAME" in str(info.value)
    with pytest.raises(oracledb.DatabaseError) as info:   # DEFAULT ON NULL's trigger, written again
        run(conn, "UPDATE people SET years = NULL")
    assert info.value.args[0].code == 1407 and '"PEOPLE"."YEARS"' in str(info.value)
    with pytest.raises(oracledb.DatabaseError) as info:   # the view reads a column the table no longer has
        run(conn, "SELECT * FROM adults")
    assert info.value.args[0].code == 904


def test_rename_a_table_keeps_its_constraints_and_the_foreign_keys_to_it(conn) -> None:
    run(conn, "CREATE TABLE notes (id NUMBER PRIMARY KEY, doc_id NUMBER NOT NULL REFERENCES docs (id))")
    run(conn, "INSERT INTO notes VALUES (1, 1)")
    run(conn, "ALTER TABLE docs RENAME TO papers")
    assert run(conn, "SELECT COUNT(*) FROM papers") == [(40,)]
    assert run(conn, "SELECT table_name FROM user_tables ORDER BY 1") == [("NOTES",), ("PAPERS",)]
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "SELECT * FROM docs")
    assert info.value.args[0].code == 942
    run(conn, "INSERT INTO notes VALUES (2, 2)")
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO notes VALUES (3, 99)")   # the foreign key now names PAPERS
    assert info.value.args[0].code == 2291
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "DELETE FROM papers WHERE id = 1")
    assert info.value.args[0].code == 2292
    run(conn, "CREATE VIEW few AS SELECT id FROM papers WHERE id < 3")
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "ALTER TABLE notes RENAME TO few")
    assert info.value.args[0].code == 955
    run(conn, "ALTER TABLE notes RENAME TO remarks")
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO remarks (id) VALUES (9)")
    assert info.value.args[0].code == 1400 and '"REMARKS"."DOC_ID"' in str(info.value)


def test_a_table_renamed_after_a_vector_search_and_a_new_one_under_its_old_name(conn) -> None:
    """The connection keeps a change log per table name for its vector caches: after a rename, writes to a
    new table of the old name still reach the search (no stale matrix)."""
    def nearest() -> list[tuple]:
        return run(conn, "SELECT id FROM docs ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[1, 0]'), COSINE), id "
                         "FETCH FIRST 2 ROWS ONLY")
    run(conn, "ALTER TABLE docs ADD (v VECTOR(2, FLOAT32))")
    run(conn, "UPDATE docs SET v = TO_VECTOR('[0, 1]')")
    run(conn, "UPDATE docs SET v = TO_VECTOR('[1, 0]') WHERE id = 7")
    assert nearest() == [(7,), (1,)]
    run(conn, "ALTER TABLE docs RENAME TO old_docs")
    run(conn, "CREATE TABLE docs (id NUMBER, v VECTOR(2, FLOAT32))")
    run(conn, "INSERT INTO docs VALUES (1, TO_VECTOR('[0, 1]'))")
    assert nearest() == [(1,)]
    run(conn, "INSERT INTO docs VALUES (2, TO_VECTOR('[1, 0.1]'))")
    assert nearest() == [(2,), (1,)]
    run(conn, "UPDATE old_docs SET v = TO_VECTOR('[1, 0]') WHERE id = 3")
    assert run(conn, "SELECT id FROM old_docs ORDER BY VECTOR_DISTANCE(v, TO_VECTOR('[1, 0]'), COSINE), id "
                     "FETCH FIRST 2 ROWS ONLY") == [(3,), (7,)]
