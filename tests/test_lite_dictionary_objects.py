"""USER_OBJECTS / ALL_OBJECTS and USER_IND_COLUMNS / ALL_IND_COLUMNS in lite (lite/catalog.py), as Oracle has them.

Tutorials, instructors' snippets and LLM output list a schema's objects from
USER_OBJECTS and ALL_OBJECTS, and an index's columns from USER_IND_COLUMNS.
Lite answers from its catalog (LITECAT): one object row per table, view, index,
sequence and mining model, with Oracle's column names, an OBJECT_ID that is
unique and the same for every connection, and CREATED as a DATE in SYSDATE's
time; one index-column row per indexed column, in key order.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
import time
from pathlib import Path

import oracledb
import pytest

from lite_sql import failure, run
from workshop_lib.backends.lite import LiteBackend, connect_lite
from workshop_lib.config import SPATIAL_INDEXES, Settings
from workshop_lib.seed import seed_manifest


@pytest.fixture
def conn(tmp_path):
    connection = connect_lite(tmp_path, "HR")
    run(connection, "CREATE TABLE dept (deptno NUMBER PRIMARY KEY, dname VARCHAR2(14) NOT NULL)")
    run(connection, "CREATE TABLE emp (empno NUMBER PRIMARY KEY, ename VARCHAR2(10), hired DATE, "
                    "deptno NUMBER REFERENCES dept)")
    run(connection, "CREATE INDEX emp_dept_ix ON emp (deptno, ename)")
    run(connection, "CREATE VIEW staff AS SELECT e.ename, d.dname FROM emp e JOIN dept d ON d.deptno = e.deptno")
    run(connection, "CREATE SEQUENCE emp_seq START WITH 100")
    yield connection
    connection.close()


def test_user_objects_lists_the_users_tables_views_indexes_and_sequences(conn) -> None:
    assert run(conn, "SELECT object_name, object_type FROM user_objects WHERE object_type IN ('TABLE','VIEW') "
                     "ORDER BY object_name") == [("DEPT", "TABLE"), ("EMP", "TABLE"), ("STAFF", "VIEW")]
    assert run(conn, "SELECT object_type, COUNT(*) FROM user_objects GROUP BY object_type ORDER BY 1") == [
        ("INDEX", 3), ("SEQUENCE", 1), ("TABLE", 2), ("VIEW", 1)]
    # EMP_DEPT_IX, and the unique index Oracle makes for each primary key, named as its constraint
    keys = run(conn, "SELECT index_name FROM user_constraints WHERE constraint_type = 'P' ORDER BY 1")
    assert len(keys) == 2 and all(name.startswith("SYS_C") for (name,) in keys)
    assert run(conn, "SELECT object_name FROM user_objects WHERE object_type = 'INDEX' ORDER BY 1") == \
        [("EMP_DEPT_IX",), *keys]
    assert run(conn, "SELECT DISTINCT subobject_name, status, temporary, generated, secondary FROM user_objects") \
        == [(None, "VALID", "N", "N", "N")]


def test_oracles_column_order_and_types(conn) -> None:
    cur = conn.cursor()
    cur.execute("SELECT * FROM user_objects WHERE object_name = 'EMP'")
    assert [d[0] for d in cur.description] == [
        "OBJECT_NAME", "SUBOBJECT_NAME", "OBJECT_ID", "DATA_OBJECT_ID", "OBJECT_TYPE", "CREATED", "LAST_DDL_TIME",
        "TIMESTAMP", "STATUS", "TEMPORARY", "GENERATED", "SECONDARY"]
    cur.execute("SELECT owner, object_name FROM all_objects WHERE object_name = 'EMP'")
    assert [d[0] for d in cur.description] == ["OWNER", "OBJECT_NAME"] and cur.fetchall() == [("HR", "EMP")]
    cur.execute("SELECT object_id, data_object_id, created, last_ddl_time FROM user_objects WHERE object_name = 'EMP'")
    assert [d[1] for d in cur.description] == [oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_NUMBER,
                                               oracledb.DB_TYPE_DATE, oracledb.DB_TYPE_DATE]
    object_id, data_object_id, created, last_ddl = cur.fetchone()
    assert isinstance(object_id, int) and object_id > 0 and data_object_id == object_id
    assert isinstance(created, dt.datetime) and last_ddl == created


def test_only_tables_and_btree_indexes_have_a_segment(conn) -> None:
    rows = run(conn, "SELECT object_type, CASE WHEN data_object_id = object_id THEN 'own' "
                     "WHEN data_object_id IS NULL THEN 'none' ELSE 'other' END FROM user_objects ORDER BY 1, 2")
    assert rows == [("INDEX", "own")] * 3 + [("SEQUENCE", "none"), ("TABLE", "own"), ("TABLE", "own"), ("VIEW", "none")]


def test_dropped_objects_leave_user_objects(conn) -> None:
    run(conn, "DROP VIEW staff")
    assert run(conn, "SELECT COUNT(*) FROM user_objects WHERE object_name = 'STAFF'") == [(0,)]
    run(conn, "DROP SEQUENCE emp_seq")
    run(conn, "DROP INDEX emp_dept_ix")
    assert run(conn, "SELECT object_name FROM user_objects WHERE object_type <> 'INDEX' ORDER BY 1") == [
        ("DEPT",), ("EMP",)]
    dept_key = run(conn, "SELECT index_name FROM user_constraints WHERE table_name = 'DEPT' AND constraint_type = 'P'")
    run(conn, "CREATE INDEX emp_hired_ix ON emp (hired)")
    run(conn, "DROP TABLE emp")   # its indexes go with it, the primary key's too
    assert run(conn, "SELECT object_name, object_type FROM user_objects ORDER BY 2, 1") == [
        (dept_key[0][0], "INDEX"), ("DEPT", "TABLE")]


def test_object_ids_are_unique_and_the_same_for_every_connection(conn, tmp_path) -> None:
    ids = run(conn, "SELECT object_name, object_id FROM user_objects ORDER BY object_id")
    assert len(ids) == 7 and len({i for _, i in ids}) == 7
    other = connect_lite(tmp_path, "HR")
    scott = connect_lite(tmp_path, "SCOTT")
    try:
        assert run(other, "SELECT object_name, object_id FROM user_objects ORDER BY object_id") == ids
        assert run(scott, "SELECT object_name, object_id FROM all_objects WHERE owner = 'HR' ORDER BY object_id") \
            == ids
        run(scott, "CREATE TABLE emp (empno NUMBER)")   # same name, another schema: another object
        every = run(scott, "SELECT owner, object_name, object_id FROM all_objects")
        assert len({i for _, _, i in every}) == len(every) == 8
    finally:
        other.close()
        scott.close()


def test_an_object_keeps_its_number_where_oracle_keeps_the_object(conn) -> None:
    def number(name: str) -> tuple:
        return run(conn, "SELECT object_id, created FROM user_objects WHERE object_name = :n", {"n": name})[0]

    view, table, sequence = number("STAFF"), number("EMP"), number("EMP_SEQ")
    run(conn, "CREATE VIEW later AS SELECT dname FROM dept")   # the newest view: STAFF's row is not the last
    run(conn, "CREATE OR REPLACE VIEW staff AS SELECT ename FROM emp")
    assert number("STAFF") == view
    run(conn, "ALTER TABLE emp RENAME TO employees")
    assert number("EMPLOYEES") == table
    run(conn, "SELECT emp_seq.NEXTVAL FROM dual")
    assert number("EMP_SEQ") == sequence


def test_user_objects_shows_only_the_connected_users_objects(conn, tmp_path) -> None:
    scott = connect_lite(tmp_path, "SCOTT")
    try:
        run(scott, "CREATE TABLE bonus (ename VARCHAR2(10))")
        run(scott, "CREATE SEQUENCE bonus_seq")
        assert run(scott, "SELECT object_name, object_type FROM user_objects ORDER BY 1") == [
            ("BONUS", "TABLE"), ("BONUS_SEQ", "SEQUENCE")]
        assert run(conn, "SELECT COUNT(*) FROM user_objects WHERE object_name LIKE 'BONUS%'") == [(0,)]
        assert run(conn, "SELECT owner, COUNT(*) FROM all_objects GROUP BY owner ORDER BY owner") == [
            ("HR", 7), ("SCOTT", 2)]
        assert run(conn, "SELECT object_name FROM sys.all_objects WHERE owner = 'SCOTT' AND object_type = 'TABLE'") \
            == [("BONUS",)]
    finally:
        scott.close()


@pytest.fixture
def away_from_utc(monkeypatch):
    """The process's local time 5 h 30 min ahead of UTC (SYSDATE and SQLite's 'localtime' both follow TZ)."""
    monkeypatch.setenv("TZ", "XYZ-5:30")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_created_is_a_date_in_sysdates_time(tmp_path, away_from_utc) -> None:
    connection = connect_lite(tmp_path, "HR")
    try:
        run(connection, "CREATE TABLE t (x NUMBER)")
        run(connection, "CREATE INDEX t_x ON t (x)")
        run(connection, "CREATE VIEW v AS SELECT x FROM t")
        run(connection, "CREATE SEQUENCE s")
        now = run(connection, "SELECT SYSDATE FROM dual")[0][0]
        rows = run(connection, "SELECT object_name, created, last_ddl_time, timestamp FROM user_objects")
        assert len(rows) == 4
        for name, created, last_ddl, stamp in rows:
            assert abs((now - created).total_seconds()) < 60, (name, created, now)
            assert last_ddl == created and stamp == created.strftime("%Y-%m-%d:%H:%M:%S")
        assert run(connection, "SELECT COUNT(*) FROM user_objects WHERE created > SYSDATE - 1/24") == [(4,)]
        assert run(connection, "SELECT COUNT(*) FROM user_objects WHERE created >= TRUNC(SYSDATE) "
                               "AND created < SYSDATE + 1") == [(4,)]
    finally:
        connection.close()


def test_a_mining_model_is_listed_with_its_creation_date(conn, tmp_path) -> None:
    conn.register_mining_model("doc_model", str(tmp_path / "missing.onnx"))
    row = run(conn, "SELECT o.object_type, o.data_object_id, o.created - m.creation_date FROM user_objects o "
                    "JOIN user_mining_models m ON m.model_name = o.object_name")
    assert row == [("MINING MODEL", None, 0)]


def test_a_home_from_before_the_created_columns_keeps_working(tmp_path) -> None:
    """An older lite's catalog has no CREATED for views, indexes and sequences: lite adds the columns, and the
    objects created before show CREATED NULL (unknown) while newer ones are dated."""
    first = connect_lite(tmp_path, "HR")
    run(first, "CREATE TABLE t (x NUMBER)")
    run(first, "CREATE VIEW old_v AS SELECT x FROM t")
    run(first, "CREATE INDEX old_ix ON t (x)")
    run(first, "CREATE SEQUENCE old_s")
    first.close()
    catalog = sqlite3.connect(tmp_path / "lite" / "_catalog.db")
    for table in ("VIEWS", "INDEXES", "SEQUENCES"):
        catalog.execute(f"ALTER TABLE {table} DROP COLUMN CREATED")
    catalog.commit()
    catalog.close()
    second = connect_lite(tmp_path, "HR")
    try:
        run(second, "CREATE VIEW new_v AS SELECT x FROM t")
        assert run(second, "SELECT object_name, CASE WHEN created IS NULL THEN 'unknown' ELSE 'dated' END "
                           "FROM user_objects ORDER BY object_name") == [
            ("NEW_V", "dated"), ("OLD_IX", "unknown"), ("OLD_S", "unknown"), ("OLD_V", "unknown"), ("T", "dated")]
    finally:
        second.close()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home seeded the way `workshop setup` seeds it (SUPPLYCHAIN's tables, indexes and spatial indexes)."""
    home = tmp_path_factory.mktemp("dictionary_objects")
    backend = LiteBackend(Settings(home=home))
    agent = backend.connect()
    backend.seed(agent)
    agent.close()
    return home


def test_the_seeded_schema_as_all_objects_lists_it(seeded) -> None:
    agent = connect_lite(seeded, "AGENT")
    try:
        tables = run(agent, "SELECT COUNT(*) FROM all_objects WHERE owner = 'SUPPLYCHAIN' AND object_type = 'TABLE'")
        # the seed's tables and each spatial index's MDRT_…$ table, as ALL_TABLES lists them
        assert tables == [(len(seed_manifest()) + len(SPATIAL_INDEXES),)]
        assert tables == run(agent, "SELECT COUNT(*) FROM all_tables WHERE owner = 'SUPPLYCHAIN'")
        assert run(agent, "SELECT object_name FROM all_objects WHERE owner = 'SUPPLYCHAIN' AND secondary = 'Y' "
                          "ORDER BY 1") == run(agent, "SELECT table_name FROM all_tables WHERE owner = 'SUPPLYCHAIN' "
                                                      "AND secondary = 'Y' ORDER BY 1")
        assert run(agent, "SELECT object_name FROM all_objects WHERE owner = 'SUPPLYCHAIN' AND object_type = 'INDEX' "
                          "ORDER BY 1") == run(agent, "SELECT index_name FROM all_indexes WHERE owner = 'SUPPLYCHAIN' "
                                                      "ORDER BY 1")
        spatial = run(agent, "SELECT object_name, data_object_id FROM all_objects WHERE object_type = 'INDEX' "
                             "AND owner = 'SUPPLYCHAIN' AND object_name LIKE '%\\_SX' ESCAPE '\\' ORDER BY 1")
        assert spatial == [(name, None) for name in sorted(SPATIAL_INDEXES)]   # a domain index has no segment
        assert run(agent, "SELECT COUNT(*) FROM user_objects") == [(0,)]   # AGENT owns nothing after the seed
    finally:
        agent.close()


# --------------------------------------------------------------------------- USER_IND_COLUMNS / ALL_IND_COLUMNS

def test_an_indexs_columns_in_key_order(conn) -> None:
    run(conn, "CREATE TABLE kinds (k NUMBER, code VARCHAR2(10), label VARCHAR2(7 CHAR), since DATE)")
    run(conn, "CREATE UNIQUE INDEX kinds_ux ON kinds (label, code, since, k)")   # not the table's column order
    cur = conn.cursor()
    cur.execute("SELECT column_name, column_position, column_length, char_length, descend FROM user_ind_columns "
                "WHERE index_name = 'KINDS_UX' ORDER BY column_position")
    assert [d[1] for d in cur.description[1:4]] == [oracledb.DB_TYPE_NUMBER] * 3
    # lengths as ALL_TAB_COLUMNS gives them: bytes (4 a character for CHAR semantics) and characters
    assert cur.fetchall() == [("LABEL", 1, 28, 7, "ASC"), ("CODE", 2, 10, 10, "ASC"), ("SINCE", 3, 7, 0, "ASC"),
                              ("K", 4, 22, 0, "ASC")]
    assert run(conn, "SELECT column_name FROM user_ind_columns WHERE index_name = 'EMP_DEPT_IX' "
                     "ORDER BY column_position") == [("DEPTNO",), ("ENAME",)]


def _primary_keys(conn) -> dict[str, str]:
    """table -> the name of its primary key's index (SYS_Cnnnnnnn, as Oracle names an unnamed constraint)."""
    return dict(run(conn, "SELECT table_name, index_name FROM user_constraints WHERE constraint_type = 'P'"))


def test_the_queries_others_write_on_index_columns(conn) -> None:
    run(conn, "CREATE UNIQUE INDEX dept_name_ux ON dept (dname)")
    keys = _primary_keys(conn)
    assert run(conn, "SELECT i.index_name, i.uniqueness, c.column_name FROM user_indexes i "
                     "JOIN user_ind_columns c ON c.index_name = i.index_name "
                     "WHERE i.table_name IN ('EMP', 'DEPT') ORDER BY i.index_name, c.column_position") == sorted([
        ("DEPT_NAME_UX", "UNIQUE", "DNAME"), ("EMP_DEPT_IX", "NONUNIQUE", "DEPTNO"),
        ("EMP_DEPT_IX", "NONUNIQUE", "ENAME"), (keys["DEPT"], "UNIQUE", "DEPTNO"), (keys["EMP"], "UNIQUE", "EMPNO")])
    assert run(conn, "SELECT table_name, index_name, LISTAGG(column_name, ', ') WITHIN GROUP "
                     "(ORDER BY column_position) AS cols FROM user_ind_columns GROUP BY table_name, index_name "
                     "ORDER BY 1, 2") == sorted([
        ("DEPT", "DEPT_NAME_UX", "DNAME"), ("EMP", "EMP_DEPT_IX", "DEPTNO, ENAME"), ("DEPT", keys["DEPT"], "DEPTNO"),
        ("EMP", keys["EMP"], "EMPNO")])


def test_oracles_columns_user_ind_columns_without_the_owners(conn) -> None:
    cur = conn.cursor()
    cur.execute("SELECT * FROM all_ind_columns WHERE index_name = 'EMP_DEPT_IX' AND column_position = 1")
    assert [d[0] for d in cur.description] == [
        "INDEX_OWNER", "INDEX_NAME", "TABLE_OWNER", "TABLE_NAME", "COLUMN_NAME", "COLUMN_POSITION",
        "COLUMN_LENGTH", "CHAR_LENGTH", "DESCEND"]
    assert cur.fetchall() == [("HR", "EMP_DEPT_IX", "HR", "EMP", "DEPTNO", 1, 22, 0, "ASC")]
    cur.execute("SELECT * FROM user_ind_columns WHERE index_name = 'EMP_DEPT_IX' AND column_position = 1")
    assert [d[0] for d in cur.description] == [
        "INDEX_NAME", "TABLE_NAME", "COLUMN_NAME", "COLUMN_POSITION", "COLUMN_LENGTH", "CHAR_LENGTH", "DESCEND"]
    with pytest.raises(oracledb.DatabaseError, match="ORA-00904"):
        run(conn, "SELECT table_owner FROM user_ind_columns")


def test_index_columns_follow_the_ddl(conn) -> None:
    run(conn, "ALTER TABLE emp RENAME COLUMN ename TO full_name")
    assert run(conn, "SELECT column_name FROM user_ind_columns WHERE index_name = 'EMP_DEPT_IX' "
                     "ORDER BY column_position") == [("DEPTNO",), ("FULL_NAME",)]
    run(conn, "CREATE INDEX emp_hired_ix ON emp (hired)")
    run(conn, "DROP INDEX emp_dept_ix")
    keys = _primary_keys(conn)
    assert run(conn, "SELECT index_name, column_name FROM user_ind_columns WHERE table_name = 'EMP' ORDER BY 1") == \
        sorted([("EMP_HIRED_IX", "HIRED"), (keys["EMP"], "EMPNO")])
    run(conn, "DROP TABLE emp")
    assert run(conn, "SELECT index_name FROM all_ind_columns") == [(keys["DEPT"],)]


def test_user_ind_columns_shows_only_the_connected_users_indexes(conn, tmp_path) -> None:
    scott = connect_lite(tmp_path, "SCOTT")
    try:
        run(scott, "CREATE TABLE bonus (ename VARCHAR2(10), comm NUMBER)")
        run(scott, "CREATE INDEX bonus_ix ON bonus (comm, ename)")
        assert run(scott, "SELECT index_name, column_name FROM user_ind_columns ORDER BY column_position") == [
            ("BONUS_IX", "COMM"), ("BONUS_IX", "ENAME")]
        keys = _primary_keys(conn)
        assert run(conn, "SELECT DISTINCT index_name FROM user_ind_columns ORDER BY 1") == sorted(
            [("EMP_DEPT_IX",), (keys["DEPT"],), (keys["EMP"],)])
        assert run(conn, "SELECT index_owner, table_owner, index_name, COUNT(*) FROM all_ind_columns "
                         "GROUP BY index_owner, table_owner, index_name ORDER BY 1, 3") == [
            *sorted([("HR", "HR", "EMP_DEPT_IX", 2), ("HR", "HR", keys["DEPT"], 1), ("HR", "HR", keys["EMP"], 1)]),
            ("SCOTT", "SCOTT", "BONUS_IX", 2)]
    finally:
        scott.close()


def test_the_seeded_indexes_columns(seeded) -> None:
    agent = connect_lite(seeded, "AGENT")
    try:
        # every index ALL_INDEXES lists has its columns, a spatial index's its SDO_GEOMETRY column
        assert run(agent, "SELECT COUNT(DISTINCT index_name) FROM all_ind_columns WHERE index_owner = 'SUPPLYCHAIN'") \
            == run(agent, "SELECT COUNT(*) FROM all_indexes WHERE owner = 'SUPPLYCHAIN'")
        assert run(agent, "SELECT c.table_name, c.column_name, t.data_type FROM all_ind_columns c "
                          "JOIN all_tab_columns t ON t.owner = c.table_owner AND t.table_name = c.table_name "
                          "AND t.column_name = c.column_name WHERE c.index_owner = 'SUPPLYCHAIN' "
                          "AND c.index_name = 'PORTS_LOCATION_SX'") == [("PORTS", "LOCATION", "SDO_GEOMETRY")]
        assert run(agent, "SELECT COUNT(*) FROM user_ind_columns") == [(0,)]
    finally:
        agent.close()


# --------------------------------------------------------------------------- a dictionary view lite does not have

@pytest.mark.parametrize("sql, owner, name, instead", [
    ("SELECT synonym_name FROM user_synonyms", "HR", "USER_SYNONYMS", None),
    ("SELECT object_name FROM dba_objects WHERE owner = 'HR'", "HR", "DBA_OBJECTS", "ALL_OBJECTS"),
    ("SELECT index_name FROM sys.dba_ind_columns", "SYS", "DBA_IND_COLUMNS", "ALL_IND_COLUMNS"),
    ("SELECT COUNT(*) FROM v$session", "HR", "V$SESSION", None),
    ("SELECT value FROM nls_session_parameters WHERE parameter = 'NLS_DATE_FORMAT'", "HR",
     "NLS_SESSION_PARAMETERS", None),
    ("SELECT privilege FROM session_privs", "HR", "SESSION_PRIVS", None),
    ("SELECT table_name FROM dictionary WHERE table_name LIKE 'USER%'", "HR", "DICTIONARY", None),
])
def test_a_dictionary_view_lite_lacks_is_named_with_the_ones_it_has(conn, sql, owner, name, instead) -> None:
    err = failure(conn, sql)
    assert err.code == 942 and f'"{owner}"."{name}" does not exist' in err.message
    assert "ws.seed()" not in err.message
    hint = err.message.split("\nHelp: ", 1)[1]   # the views lite has, ALL_ and USER_ ones together
    assert "ALL_/USER_ " in hint and {"OBJECTS", "IND_COLUMNS", "TABLES"} <= set(re.findall(r"\w+", hint))
    assert (f"(use {instead})" in err.message) == (instead is not None)


@pytest.mark.parametrize("sql, action, name", [
    ("DELETE FROM user_tables", "DELETE FROM", "USER_TABLES"),
    ("UPDATE sys.all_tab_comments SET comments = 'x'", "UPDATE", "ALL_TAB_COMMENTS"),
    ("INSERT INTO user_tab_comments (table_name, comments) VALUES ('T', 'x')", "INSERT INTO", "USER_TAB_COMMENTS"),
    ("MERGE INTO all_objects o USING dual ON (1 = 1) WHEN MATCHED THEN UPDATE SET o.status = 'X'", "MERGE INTO",
     "ALL_OBJECTS"),
    ("DELETE FROM dual", "DELETE FROM", "DUAL"),
])
def test_writing_to_the_dictionary_is_insufficient_privileges_as_in_oracle(conn, sql, action, name) -> None:
    """The views are SYS's, with SELECT granted to PUBLIC: a write is ORA-01031 (it was ORA-00942, 'does not
    exist', about a view the same statement could read), and the hint says how the dictionary does change."""
    err = failure(conn, sql)
    assert err.code == 1031 and f"({action} {name}: the data dictionary's" in err.message, err.message
    assert "COMMENT ON" in err.message
    assert run(conn, "SELECT COUNT(*) FROM dual") == [(1,)]


@pytest.mark.parametrize("sql, name", [
    ("CREATE TABLE user_tables (a NUMBER)", "USER_TABLES"),
    ("CREATE TABLE hr.all_objects AS SELECT 1 AS a FROM dual", "ALL_OBJECTS"),
    ("CREATE VIEW user_indexes AS SELECT 1 AS x FROM dual", "USER_INDEXES"),
    ("ALTER TABLE emp RENAME TO dual", "DUAL"),
])
def test_an_object_named_like_a_dictionary_view_is_refused_by_name(conn, sql, name) -> None:
    """Lite's dictionary views are TEMP views that every unqualified name reaches first: a table of that name
    was created and then could not be written (ORA-00604 'cannot modify ... because it is a view') nor read."""
    err = failure(conn, sql)
    assert err.code == 3001 and f"named like a data dictionary view ({name})" in err.message, err.message
    assert run(conn, "SELECT COUNT(*) FROM user_objects WHERE object_name = :n", {"n": name}) == [(0,)]
    assert run(conn, "SELECT COUNT(*) FROM emp") == [(0,)]


def test_a_table_of_the_users_with_a_dictionary_like_name_is_the_users(conn) -> None:
    run(conn, "CREATE TABLE user_profiles (id NUMBER)")
    run(conn, "INSERT INTO user_profiles VALUES (1)")
    assert run(conn, "SELECT id FROM user_profiles") == [(1,)]
    assert "ws.seed()" in failure(conn, "SELECT * FROM no_such_table").message   # other names: the seed hint


def test_select_star_on_a_dictionary_view_is_typed_as_its_named_columns(conn) -> None:
    """SELECT * and v.* describe and convert a view's columns as naming them does (they came back as text)."""
    cur = conn.cursor()
    cur.execute("SELECT * FROM user_sequences")
    named = dict(zip([d[0] for d in cur.description], cur.fetchone()))
    assert named["LAST_NUMBER"] == 100 and named["INCREMENT_BY"] == 1, named
    cur.execute("SELECT o.*, 1 AS one FROM user_objects o WHERE o.object_name = 'EMP'")
    types = {d[0]: d[1] for d in cur.description}
    row = dict(zip(types, cur.fetchone()))
    assert types["CREATED"] is oracledb.DB_TYPE_DATE and isinstance(row["CREATED"], dt.datetime), row
    assert types["OBJECT_ID"] is oracledb.DB_TYPE_NUMBER and isinstance(row["OBJECT_ID"], int), row
    assert row["ONE"] == 1
    assert failure(conn, "SELECT no_such_column FROM user_tables").code == 904


# --------------------------------------------------------------------------- the indexes of key constraints

def test_primary_and_unique_keys_have_their_index_as_in_oracle(conn) -> None:
    """Oracle enforces a primary or unique key with a unique index named as the constraint: ALL_INDEXES,
    ALL_IND_COLUMNS (key order) and ALL_OBJECTS list it, ALL_CONSTRAINTS.INDEX_NAME names it, DROP INDEX on it is
    ORA-02429, its name is taken (ORA-00955), and dropping the constraint drops it."""
    run(conn, "CREATE TABLE grades (emp NUMBER, yr NUMBER, code VARCHAR2(5), "
              "CONSTRAINT grades_pk PRIMARY KEY (yr, emp))")
    run(conn, "ALTER TABLE grades ADD CONSTRAINT grades_code_uk UNIQUE (code)")
    assert run(conn, "SELECT index_name, index_type, uniqueness, table_name FROM user_indexes "
                     "WHERE table_name = 'GRADES' ORDER BY 1") == [
        ("GRADES_CODE_UK", "NORMAL", "UNIQUE", "GRADES"), ("GRADES_PK", "NORMAL", "UNIQUE", "GRADES")]
    assert run(conn, "SELECT column_name FROM user_ind_columns WHERE index_name = 'GRADES_PK' "
                     "ORDER BY column_position") == [("YR",), ("EMP",)]
    assert run(conn, "SELECT c.constraint_name FROM user_constraints c JOIN user_indexes i "
                     "ON i.index_name = c.index_name WHERE c.table_name = 'GRADES' ORDER BY 1") == [
        ("GRADES_CODE_UK",), ("GRADES_PK",)]
    assert run(conn, "SELECT object_type FROM user_objects WHERE object_name = 'GRADES_PK'") == [("INDEX",)]
    for sql, code in (("DROP INDEX grades_pk", 2429), ("CREATE INDEX grades_pk ON grades (code)", 955)):
        err = failure(conn, sql)
        assert err.code == code, err.message
    assert "DROP CONSTRAINT GRADES_PK" in failure(conn, "DROP INDEX grades_pk").message
    run(conn, "ALTER TABLE grades DROP CONSTRAINT grades_code_uk")
    assert run(conn, "SELECT index_name FROM user_indexes WHERE table_name = 'GRADES'") == [("GRADES_PK",)]


# --------------------------------------------------------------------------- columns others' queries read

def test_v_version_says_what_lite_is(conn) -> None:
    """SELECT banner FROM v$version, often a first query: lite names the Oracle SQL it speaks and SQLite, and
    says it is not an Oracle Database, rather than ORA-00942 or a banner that passes for Oracle's."""
    import sqlite3

    banner, full, legacy, con_id = run(conn, "SELECT banner, banner_full, banner_legacy, con_id FROM v$version")[0]
    assert "Oracle SQL 23.0.0.0.0" in banner and f"SQLite {sqlite3.sqlite_version}" in banner
    assert "not an Oracle Database" in banner and full.startswith(banner) and legacy == banner and con_id == 0
    assert conn.version == "23.0.0.0.0"


def test_all_users_has_created(conn, tmp_path) -> None:
    """ALL_USERS.CREATED, for `ORDER BY created`: when the user's first table was (NULL without tables)."""
    scott = connect_lite(tmp_path, "SCOTT")
    try:
        rows = dict(run(scott, "SELECT username, created FROM all_users"))
        assert isinstance(rows["HR"], dt.datetime) and rows["SCOTT"] is None
        assert rows["HR"] == run(conn, "SELECT MIN(created) FROM user_objects WHERE object_type = 'TABLE'")[0][0]
    finally:
        scott.close()


def test_the_filters_scanners_write_on_tables_and_indexes(conn) -> None:
    """Columns others' catalog scans filter on: lite's tables are heap tables without statistics, its indexes
    visible and unpartitioned."""
    assert run(conn, "SELECT table_name, num_rows, blocks, avg_row_len FROM user_tables WHERE nested = 'NO' "
                     "AND iot_type IS NULL AND dropped = 'NO' AND secondary = 'N' AND read_only = 'NO' "
                     "ORDER BY table_name") == [("DEPT", None, None, None), ("EMP", None, None, None)]
    assert run(conn, "SELECT DISTINCT visibility, partitioned, status FROM user_indexes") == [
        ("VISIBLE", "NO", "VALID")]


# --------------------------------------------------------------------------- USER_TAB_COLS / ALL_TAB_COLS

_COMMON = ("table_name, column_name, data_type, data_length, data_precision, data_scale, nullable, column_id, "
           "char_length, char_used, data_default, default_on_null")


def test_tab_cols_lists_what_tab_columns_lists_as_oracle_does_without_hidden_columns(conn) -> None:
    """Oracle's *_TAB_COLS is *_TAB_COLUMNS plus hidden, virtual and system-generated columns; lite's tables
    have none of those, so the rows are the same and every column is a visible one the user declared."""
    run(conn, "CREATE TABLE notes (id NUMBER(6) PRIMARY KEY, body VARCHAR2(20 CHAR) DEFAULT 'x', v VECTOR(3, FLOAT32))")
    for view, other in (("user_tab_cols", "user_tab_columns"), ("all_tab_cols", "all_tab_columns")):
        columns = ("owner, " if view.startswith("all") else "") + _COMMON
        mine = run(conn, f"SELECT {columns} FROM {view} ORDER BY {columns.split(',')[0]}, table_name, column_id")
        theirs = run(conn, f"SELECT {columns} FROM {other} ORDER BY {columns.split(',')[0]}, table_name, column_id")
        assert mine == theirs and len(mine) >= 11, view
    assert run(conn, "SELECT column_name, hidden_column, virtual_column, segment_column_id, internal_column_id, "
                     "qualified_col_name, user_generated FROM user_tab_cols WHERE table_name = 'NOTES' "
                     "ORDER BY internal_column_id") == [
        ("ID", "NO", "NO", 1, 1, "ID", "YES"), ("BODY", "NO", "NO", 2, 2, "BODY", "YES"),
        ("V", "NO", "NO", 3, 3, "V", "YES")]
    # what scripts written for Oracle ask it: the visible columns of a table, in order
    assert run(conn, "SELECT column_name FROM all_tab_cols WHERE owner = 'HR' AND table_name = 'DEPT' "
                     "AND hidden_column = 'NO' ORDER BY column_id") == [("DEPTNO",), ("DNAME",)]
    cur = conn.cursor()
    cur.execute("SELECT * FROM user_tab_cols WHERE table_name = 'NOTES' AND column_id = 1")
    row = dict(zip([d[0] for d in cur.description], cur.fetchone()))
    assert "OWNER" not in row and isinstance(row["SEGMENT_COLUMN_ID"], int) and row["DATA_TYPE"] == "NUMBER"


def test_tab_cols_is_read_only_and_its_name_is_taken_like_the_other_views(conn) -> None:
    assert failure(conn, "DELETE FROM user_tab_cols").code == 1031
    err = failure(conn, "CREATE TABLE all_tab_cols (a NUMBER)")
    assert err.code == 3001 and "(ALL_TAB_COLS)" in err.message
