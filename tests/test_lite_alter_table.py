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


def error_code(conn, sql: str) -> int:
    """The Oracle error number ``sql`` fails with (it must fail)."""
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    return info.value.args[0].code


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
    ("ALTER TABLE docs ADD CONSTRAINT docs_ck CHECK (body IS NOT NULL) DISABLE", 3001, "ADD CONSTRAINT"),
    ("ALTER TABLE docs MODIFY CONSTRAINT docs_pk DISABLE", 3001, "MODIFY CONSTRAINT"),
    ("ALTER TABLE docs MODIFY (body VARCHAR2(5))", 1441, "some value is too big"),
    ("ALTER TABLE docs MODIFY (id NUMBER(1))", 1440, "decrease precision"),
    ("ALTER TABLE docs MODIFY (body NUMBER)", 1439, "empty to change datatype"),
    ("ALTER TABLE docs MODIFY (body DATE)", 1439, "empty to change datatype"),
    ("ALTER TABLE docs MODIFY (id NULL)", 1451, "cannot be modified to NULL"),
    ("ALTER TABLE docs MODIFY (body NULL)", 1451, "cannot be modified to NULL"),
    ("ALTER TABLE docs MODIFY (nope NUMBER)", 904, '"NOPE"'),
    ("ALTER TABLE docs MODIFY (body DEFAULT SYSDATE)", 3001, "constant defaults only"),
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

# an index that is not the one Oracle made for a primary key or unique constraint
NOT_A_KEYS_INDEX = "index_name NOT IN (SELECT index_name FROM user_constraints WHERE index_name IS NOT NULL)"



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
    assert run(conn, f"SELECT index_name FROM user_indexes WHERE table_name = 'DOCS' AND {NOT_A_KEYS_INDEX}") == []
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
    assert error_code(conn, "ALTER TABLE items DROP COLUMN a") == 12991  # AB_CK also names B
    run(conn, "ALTER TABLE items DROP COLUMN a CASCADE CONSTRAINTS")
    assert run(conn, "SELECT constraint_name FROM user_constraints WHERE table_name = 'ITEMS' "
                     "AND constraint_type = 'C' ORDER BY 1") == [("B_CK",)]
    assert run(conn, f"SELECT index_name FROM user_indexes WHERE table_name = 'ITEMS' AND {NOT_A_KEYS_INDEX} "
                     "ORDER BY 1") == [("ITEMS_C_TX",)]
    run(conn, "INSERT INTO items (id, b, c) VALUES (2, 5, 'blue ink')")   # A's NOT NULL went with it
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO items (id, b) VALUES (3, -1)")   # B's own CHECK stays
    assert info.value.args[0].code == 2290
    assert run(conn, "SELECT id FROM items WHERE CONTAINS(c, 'pen') > 0") == [(1,)]
    run(conn, "ALTER TABLE items DROP (c)")
    assert run(conn, "SELECT * FROM items ORDER BY id") == [(1, 2), (2, 5)]
    assert run(conn, f"SELECT COUNT(*) FROM user_indexes WHERE table_name = 'ITEMS' AND {NOT_A_KEYS_INDEX}") == [(0,)]
    assert run(conn, "SELECT uniqueness FROM user_indexes WHERE table_name = 'ITEMS'") == [("UNIQUE",)]   # the key's


def test_a_referenced_key_cannot_be_dropped(conn) -> None:
    run(conn, "CREATE TABLE notes (id NUMBER PRIMARY KEY, doc_id NUMBER REFERENCES docs (id))")
    assert error_code(conn, "ALTER TABLE docs DROP COLUMN id") == 12992
    with pytest.raises(oracledb.DatabaseError) as info:   # written inside the column's definition
        run(conn, "ALTER TABLE notes DROP COLUMN doc_id")
    assert info.value.args[0].code == 3001 and "foreign key column" in str(info.value)


def test_drop_columns_with_the_keys_alter_table_added(conn) -> None:
    """Keys and foreign keys ALTER TABLE added go with their columns (CASCADE CONSTRAINTS: the foreign keys
    that reference a dropped key too)."""
    run(conn, "CREATE TABLE cats (id NUMBER, code VARCHAR2(5), label VARCHAR2(20))")
    run(conn, "ALTER TABLE cats ADD (CONSTRAINT cats_pk PRIMARY KEY (id), CONSTRAINT cats_code_u UNIQUE (code))")
    run(conn, "CREATE TABLE items (id NUMBER, cat_id NUMBER, note VARCHAR2(10))")
    run(conn, "ALTER TABLE items ADD CONSTRAINT items_cat_fk FOREIGN KEY (cat_id) REFERENCES cats (id)")
    run(conn, "INSERT INTO cats VALUES (1, 'a', 'one')")
    run(conn, "INSERT INTO items VALUES (1, 1, 'x')")
    run(conn, "ALTER TABLE cats DROP COLUMN code")
    run(conn, "INSERT INTO cats VALUES (2, 'two')")
    assert error_code(conn, "ALTER TABLE cats DROP COLUMN id") == 12992
    run(conn, "ALTER TABLE items DROP COLUMN cat_id")
    run(conn, "ALTER TABLE items ADD (cat_id NUMBER)")
    run(conn, "ALTER TABLE items ADD CONSTRAINT items_cat_fk FOREIGN KEY (cat_id) REFERENCES cats (id)")
    run(conn, "ALTER TABLE cats DROP COLUMN id CASCADE CONSTRAINTS")
    run(conn, "INSERT INTO items VALUES (2, 'y', 99)")
    assert run(conn, "SELECT constraint_name FROM user_constraints WHERE table_name IN ('CATS', 'ITEMS')") == []
    assert run(conn, "SELECT * FROM cats ORDER BY label") == [("one",), ("two",)]


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
    assert error_code(conn, "SELECT * FROM adults") == 904  # the view reads a column the table no longer has


def test_rename_a_table_keeps_its_constraints_and_the_foreign_keys_to_it(conn) -> None:
    run(conn, "CREATE TABLE notes (id NUMBER PRIMARY KEY, doc_id NUMBER NOT NULL REFERENCES docs (id))")
    run(conn, "INSERT INTO notes VALUES (1, 1)")
    run(conn, "ALTER TABLE docs RENAME TO papers")
    assert run(conn, "SELECT COUNT(*) FROM papers") == [(40,)]
    assert run(conn, "SELECT table_name FROM user_tables ORDER BY 1") == [("NOTES",), ("PAPERS",)]
    assert error_code(conn, "SELECT * FROM docs") == 942
    run(conn, "INSERT INTO notes VALUES (2, 2)")
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO notes VALUES (3, 99)")   # the foreign key now names PAPERS
    assert info.value.args[0].code == 2291
    assert error_code(conn, "DELETE FROM papers WHERE id = 1") == 2292
    run(conn, "CREATE VIEW few AS SELECT id FROM papers WHERE id < 3")
    assert error_code(conn, "ALTER TABLE notes RENAME TO few") == 955
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


# --------------------------------------------------------------------------- ADD CONSTRAINT


def test_add_constraints_as_the_sample_schema_scripts_do(conn) -> None:
    """hr_create.sql's way: tables first, then ADD (CONSTRAINT ... PRIMARY KEY, CONSTRAINT ... FOREIGN KEY);
    each is enforced afterwards as if the table had been created with it, and listed as Oracle lists it."""
    run(conn, "CREATE TABLE regions (region_id NUMBER, region_name VARCHAR2(25))")
    run(conn, "CREATE TABLE countries (country_id CHAR(2), region_id NUMBER, name VARCHAR2(40))")
    run(conn, "INSERT INTO regions VALUES (1, 'Europe')")
    run(conn, "INSERT INTO countries VALUES ('UK', 1, 'United Kingdom')")
    run(conn, "ALTER TABLE regions ADD (CONSTRAINT reg_id_pk PRIMARY KEY (region_id))")
    run(conn, "ALTER TABLE countries ADD (CONSTRAINT countr_pk PRIMARY KEY (country_id), "
              "CONSTRAINT countr_reg_fk FOREIGN KEY (region_id) REFERENCES regions (region_id))")
    run(conn, "ALTER TABLE countries ADD CONSTRAINT countr_name_u UNIQUE (name)")
    run(conn, "ALTER TABLE countries ADD CONSTRAINT countr_name_c CHECK (LENGTH(name) > 1)")
    assert run(conn, "SELECT constraint_name, constraint_type, r_constraint_name FROM user_constraints "
                     "WHERE table_name = 'COUNTRIES' ORDER BY 1") == [
        ("COUNTR_NAME_C", "C", None), ("COUNTR_NAME_U", "U", None), ("COUNTR_PK", "P", None),
        ("COUNTR_REG_FK", "R", "REG_ID_PK")]
    assert columns(conn, "REGIONS")[0] == ("REGION_ID", "NUMBER", "N")
    assert error_code(conn, "INSERT INTO regions VALUES (1, 'Again')") == 1
    assert error_code(conn, "INSERT INTO regions VALUES (NULL, 'None')") == 1400
    assert error_code(conn, "INSERT INTO countries VALUES ('XX', 9, 'Nowhere')") == 2291
    assert error_code(conn, "INSERT INTO countries VALUES ('FR', 1, 'United Kingdom')") == 1
    assert error_code(conn, "INSERT INTO countries VALUES ('FR', 1, 'F')") == 2290
    assert error_code(conn, "DELETE FROM regions WHERE region_id = 1") == 2292
    run(conn, "INSERT INTO countries VALUES ('FR', NULL, 'France')")   # a NULL key needs no parent


def test_a_foreign_key_may_reference_the_key_the_same_statement_adds(conn) -> None:
    run(conn, "CREATE TABLE staff (id NUMBER, manager_id NUMBER)")
    run(conn, "INSERT INTO staff VALUES (1, NULL)")
    run(conn, "INSERT INTO staff VALUES (2, 1)")
    run(conn, "ALTER TABLE staff ADD (CONSTRAINT staff_mgr_fk FOREIGN KEY (manager_id) REFERENCES staff, "
              "CONSTRAINT staff_pk PRIMARY KEY (id))")
    assert error_code(conn, "INSERT INTO staff VALUES (3, 42)") == 2291


def test_a_composite_unique_key_treats_nulls_as_oracle_does(conn) -> None:
    run(conn, "CREATE TABLE pairs (a NUMBER, b NUMBER)")
    run(conn, "INSERT INTO pairs VALUES (NULL, NULL)")
    run(conn, "INSERT INTO pairs VALUES (NULL, NULL)")
    run(conn, "INSERT INTO pairs VALUES (1, NULL)")
    run(conn, "ALTER TABLE pairs ADD CONSTRAINT pairs_u UNIQUE (a, b)")
    run(conn, "INSERT INTO pairs VALUES (NULL, NULL)")   # all NULL: never a duplicate
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "INSERT INTO pairs VALUES (1, NULL)")   # the same non-NULL values, NULL in the same column
    assert info.value.args[0].code == 1


@pytest.mark.parametrize("setup, sql, code, fragment", [
    ("INSERT INTO docs VALUES (41, NULL)", "ALTER TABLE docs ADD CONSTRAINT body_c CHECK (body LIKE 'doc%')", 0, ""),
    ("INSERT INTO docs VALUES (41, 'x')", "ALTER TABLE docs ADD CONSTRAINT body_c CHECK (body LIKE 'doc%')", 2293,
     "cannot validate (HR.BODY_C) - check constraint violated"),
    ("INSERT INTO docs VALUES (41, 'doc 1')", "ALTER TABLE docs ADD CONSTRAINT body_u UNIQUE (body)", 2299,
     "(HR.BODY_U) - duplicate keys found"),
    ("CREATE TABLE t2 (k NUMBER)", "ALTER TABLE t2 ADD PRIMARY KEY (k)", 0, ""),
    ("CREATE TABLE t2 (k NUMBER); INSERT INTO t2 VALUES (NULL)", "ALTER TABLE t2 ADD PRIMARY KEY (k)", 1449,
     "NULL values"),
    ("CREATE TABLE t2 (k NUMBER); INSERT INTO t2 VALUES (1); INSERT INTO t2 VALUES (1)",
     "ALTER TABLE t2 ADD CONSTRAINT t2_pk PRIMARY KEY (k)", 2437, "(HR.T2_PK) - primary key violated"),
    ("", "ALTER TABLE docs ADD CONSTRAINT docs_pk2 PRIMARY KEY (body)", 2260, "only one primary key"),
    ("", "ALTER TABLE docs ADD CONSTRAINT docs_id_u UNIQUE (id)", 2261, "already exists"),
    ("CREATE TABLE t2 (k NUMBER, d NUMBER); INSERT INTO t2 VALUES (1, 99)",
     "ALTER TABLE t2 ADD CONSTRAINT t2_fk FOREIGN KEY (d) REFERENCES docs (id)", 2298, "(HR.T2_FK) - parent keys not found"),
    ("CREATE TABLE t2 (k NUMBER, d VARCHAR2(100))",
     "ALTER TABLE t2 ADD CONSTRAINT t2_fk FOREIGN KEY (d) REFERENCES docs (body)", 2270, "no matching unique"),
    ("CREATE TABLE t2 (k NUMBER); CREATE TABLE t3 (k NUMBER)",
     "ALTER TABLE t2 ADD CONSTRAINT t2_fk FOREIGN KEY (k) REFERENCES t3", 2268, "does not have a primary key"),
    ("CREATE TABLE t2 (k NUMBER, j NUMBER)",
     "ALTER TABLE t2 ADD CONSTRAINT t2_fk FOREIGN KEY (k, j) REFERENCES docs (id)", 2256, "number of referencing"),
    ("CREATE TABLE t2 (k NUMBER)", "ALTER TABLE t2 ADD CONSTRAINT t2_fk FOREIGN KEY (k) REFERENCES nowhere", 942,
     "NOWHERE"),
    ("CREATE TABLE t2 (k NUMBER)", "ALTER TABLE t2 ADD CONSTRAINT t2_c CHECK (nope > 0)", 904, "NOPE"),
    ("CREATE TABLE t2 (k NUMBER)", "ALTER TABLE t2 ADD CONSTRAINT t2_u UNIQUE (nope)", 904, "NOPE"),
    ("CREATE TABLE t2 (k NUMBER CONSTRAINT t2_c CHECK (k > 0))", "ALTER TABLE t2 ADD CONSTRAINT t2_c UNIQUE (k)",
     2264, "T2_C"),
])
def test_add_constraint_checks_the_rows_and_names_what_fails(conn, setup: str, sql: str, code: int,
                                                              fragment: str) -> None:
    for statement in filter(None, (s.strip() for s in setup.split(";"))):
        run(conn, statement)
    before = run(conn, "SELECT COUNT(*) FROM user_constraints")
    if not code:
        run(conn, sql)
        return
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql)
    assert info.value.args[0].code == code and fragment in str(info.value), str(info.value)
    assert run(conn, "SELECT COUNT(*) FROM user_constraints") == before   # nothing half-added


def test_one_statement_adds_all_its_constraints_or_none(conn) -> None:
    run(conn, "CREATE TABLE t2 (k NUMBER, d NUMBER)")
    run(conn, "INSERT INTO t2 VALUES (1, 99)")
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "ALTER TABLE t2 ADD (CONSTRAINT t2_pk PRIMARY KEY (k), "
                  "CONSTRAINT t2_fk FOREIGN KEY (d) REFERENCES docs (id))")
    assert info.value.args[0].code == 2298
    assert run(conn, "SELECT COUNT(*) FROM user_constraints WHERE table_name = 'T2'") == [(0,)]
    run(conn, "INSERT INTO t2 VALUES (1, 99)")   # no primary key was left behind


# --------------------------------------------------------------------------- MODIFY


def test_modify_widens_sets_defaults_and_switches_not_null(conn) -> None:
    """The usual MODIFYs: a longer VARCHAR2 (checked on the next write), a DEFAULT for new rows, NOT NULL after
    the NULLs are filled (ORA-02296 before, ORA-01442 twice), and NULL again."""
    run(conn, "ALTER TABLE docs ADD (note VARCHAR2(5), score NUMBER(4, 1))")
    assert error_code(conn, "UPDATE docs SET note = 'longer text' WHERE id = 1") == 12899
    run(conn, "ALTER TABLE docs MODIFY (note VARCHAR2(40), score NUMBER(6, 2) DEFAULT 2.5)")
    run(conn, "UPDATE docs SET note = 'longer text' WHERE id = 1")
    run(conn, "INSERT INTO docs (id, body) VALUES (41, 'doc 41')")
    assert run(conn, "SELECT note, score FROM docs WHERE id IN (1, 41) ORDER BY id") == [("longer text", None),
                                                                                       (None, 2.5)]
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "ALTER TABLE docs MODIFY note CONSTRAINT docs_note_nn NOT NULL")
    assert info.value.args[0].code == 2296 and "HR.DOCS_NOTE_NN" in str(info.value)
    run(conn, "UPDATE docs SET note = 'n' WHERE note IS NULL")
    run(conn, "ALTER TABLE docs MODIFY note CONSTRAINT docs_note_nn NOT NULL")
    assert columns(conn)[2] == ("NOTE", "VARCHAR2", "N")
    assert run(conn, "SELECT constraint_name FROM user_constraints WHERE constraint_type = 'C'") == [("DOCS_NOTE_NN",)]
    assert error_code(conn, "INSERT INTO docs (id, body) VALUES (42, 'doc 42')") == 1400
    assert error_code(conn, "ALTER TABLE docs MODIFY (note NOT NULL)") == 1442
    run(conn, "ALTER TABLE docs MODIFY (note NULL, score DEFAULT NULL)")
    run(conn, "INSERT INTO docs (id, body) VALUES (42, 'doc 42')")
    assert run(conn, "SELECT note, score FROM docs WHERE id = 42") == [(None, None)]
    assert run(conn, "SELECT COUNT(*) FROM user_constraints WHERE constraint_type = 'C'") == [(0,)]
    assert run(conn, "SELECT data_length FROM user_tab_columns WHERE table_name = 'DOCS' AND column_name = 'NOTE'") \
        == [(40,)]


def test_a_column_created_not_null_can_be_made_nullable(conn) -> None:
    run(conn, "CREATE TABLE people (id NUMBER PRIMARY KEY, name VARCHAR2(20) NOT NULL)")
    run(conn, "ALTER TABLE people MODIFY (name NULL)")
    run(conn, "INSERT INTO people VALUES (1, NULL)")
    assert run(conn, "SELECT nullable FROM user_tab_columns WHERE table_name = 'PEOPLE' AND column_name = 'NAME'") \
        == [("Y",)]


# --------------------------------------------------------------------------- DROP CONSTRAINT


def test_drop_constraint_undoes_what_add_constraint_did(conn) -> None:
    run(conn, "CREATE TABLE parts (id NUMBER, code VARCHAR2(5), n NUMBER CHECK (n > 0), CHECK (code <> 'x'))")
    run(conn, "ALTER TABLE parts ADD (CONSTRAINT parts_pk PRIMARY KEY (id), CONSTRAINT parts_code_u UNIQUE (code), "
              "CONSTRAINT parts_n_c CHECK (n < 100))")
    run(conn, "CREATE TABLE uses (id NUMBER, part_id NUMBER, CONSTRAINT uses_part_fk FOREIGN KEY (part_id) "
              "REFERENCES parts (id))")
    run(conn, "INSERT INTO parts VALUES (1, 'a', 5)")
    run(conn, "INSERT INTO uses VALUES (1, 1)")
    assert error_code(conn, "ALTER TABLE parts DROP CONSTRAINT nope") == 2443
    assert error_code(conn, "ALTER TABLE parts DROP PRIMARY KEY") == 2273
    run(conn, "ALTER TABLE parts DROP CONSTRAINT parts_n_c")
    run(conn, "INSERT INTO parts VALUES (2, 'b', 500)")
    run(conn, "ALTER TABLE parts DROP UNIQUE (code)")
    run(conn, "INSERT INTO parts VALUES (3, 'b', 5)")
    assert error_code(conn, "ALTER TABLE parts DROP UNIQUE (code)") == 2442
    unnamed_check = run(conn, "SELECT constraint_name FROM user_constraints WHERE table_name = 'PARTS' "
                              "AND search_condition LIKE 'code%'")[0][0]
    run(conn, f"ALTER TABLE parts DROP CONSTRAINT {unnamed_check}")
    run(conn, "INSERT INTO parts VALUES (4, 'x', 5)")
    column_check = run(conn, "SELECT constraint_name FROM user_constraints WHERE table_name = 'PARTS' "
                             "AND search_condition LIKE 'n%'")[0][0]
    assert error_code(conn, f"ALTER TABLE parts DROP CONSTRAINT {column_check}") == 3001   # written inside the column
    run(conn, "ALTER TABLE parts DROP PRIMARY KEY CASCADE")   # and the foreign key that references it
    run(conn, "INSERT INTO parts VALUES (1, 'z', 5)")
    run(conn, "INSERT INTO uses VALUES (2, 99)")
    assert error_code(conn, "ALTER TABLE parts DROP PRIMARY KEY") == 2441
    assert run(conn, "SELECT constraint_name FROM user_constraints WHERE table_name IN ('PARTS', 'USES')") == [
        (column_check,)]
    assert run(conn, "SELECT nullable FROM user_tab_columns WHERE table_name = 'PARTS' AND column_name = 'ID'") \
        == [("Y",)]
    assert error_code(conn, "ALTER TABLE docs DROP PRIMARY KEY") == 3001   # CREATE TABLE's key is part of SQLite's table


def test_a_renamed_table_s_triggers_name_it(conn) -> None:
    """Lite's triggers (DEFAULT ON NULL, identity) carry the table's name in their names and messages."""
    run(conn, "CREATE TABLE counters (id NUMBER GENERATED ALWAYS AS IDENTITY, n NUMBER DEFAULT ON NULL 0)")
    run(conn, "INSERT INTO counters (n) VALUES (NULL)")
    run(conn, "ALTER TABLE counters RENAME TO tallies")
    run(conn, "INSERT INTO tallies (n) VALUES (NULL)")
    assert run(conn, "SELECT id, n FROM tallies ORDER BY id") == [(1, 0), (2, 0)]
    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, "UPDATE tallies SET n = NULL")
    assert info.value.args[0].code == 1407 and '"HR"."TALLIES"."N"' in str(info.value)
    assert error_code(conn, "INSERT INTO tallies (id) VALUES (9)") == 32795
    assert [name for (name,) in conn.sqlite.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            if name.startswith("COUNTERS")] == []


def test_another_user_s_table_cannot_be_altered(tmp_path) -> None:
    """Lite has no GRANT: as in Oracle without ALTER ANY TABLE, a learner connected as AGENT cannot change
    SUPPLYCHAIN's columns or constraints (ORA-01031), which the doctor's row counts would not notice."""
    owner = connect_lite(tmp_path, "SUPPLYCHAIN")
    run(owner, "CREATE TABLE vessels (id NUMBER PRIMARY KEY, capacity_teu NUMBER)")
    owner.commit()
    agent = connect_lite(tmp_path, "AGENT")
    try:
        for sql in ("ALTER TABLE supplychain.vessels DROP COLUMN capacity_teu",
                    "ALTER TABLE supplychain.vessels RENAME COLUMN capacity_teu TO tons",
                    "ALTER TABLE supplychain.vessels MODIFY (capacity_teu NUMBER(3))",
                    "ALTER TABLE supplychain.vessels ADD (note VARCHAR2(10))",
                    "ALTER TABLE supplychain.vessels ADD CONSTRAINT cap_c CHECK (capacity_teu > 0)"):
            with pytest.raises(oracledb.DatabaseError) as info:
                run(agent, sql)
            assert info.value.args[0].code == 1031 and "connect as SUPPLYCHAIN" in str(info.value), sql
        assert error_code(agent, "ALTER TABLE supplychain.nowhere DROP COLUMN x") == 942
        assert run(owner, "SELECT column_name FROM user_tab_columns WHERE table_name = 'VESSELS' ORDER BY column_id") \
            == [("ID",), ("CAPACITY_TEU",)]
        run(owner, "ALTER TABLE vessels ADD (note VARCHAR2(10))")   # the owner may
    finally:
        agent.close()
        owner.close()
