"""Column defaults in lite: ALL_TAB_COLUMNS.DATA_DEFAULT, and the DEFAULT keyword in VALUES and SET, as in Oracle.

Oracle records each column's DEFAULT as text (``DATA_DEFAULT``, with ``DEFAULT_ON_NULL``), and takes the keyword
``DEFAULT`` in an INSERT's VALUES and an UPDATE's SET for "this column's default" (SQL Language Reference, INSERT
and UPDATE: ``DEFAULT`` in ``values_clause`` / ``update_set_clause``), NULL for a column without one. Lite sent
the keyword on to SQLite, which answered ORA-00933, a syntax error for valid Oracle SQL.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite


@pytest.fixture
def conn(tmp_path: Path):
    connection = connect_lite(tmp_path, "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE jobs (id NUMBER GENERATED ALWAYS AS IDENTITY, grade NUMBER DEFAULT 3, "
                "code VARCHAR2(4) DEFAULT 'NEW', opened DATE DEFAULT SYSDATE, bonus NUMBER DEFAULT ON NULL -1, "
                "note VARCHAR2(20))")
    yield connection
    connection.close()


def rows(conn, sql: str) -> list[tuple]:
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def test_data_default_is_the_default_as_written(conn) -> None:
    with conn.cursor() as cur:
        cur.execute("ALTER TABLE jobs ADD (closed TIMESTAMP DEFAULT SYSTIMESTAMP)")
        cur.execute("ALTER TABLE jobs MODIFY (note DEFAULT 'none')")
    assert rows(conn, "SELECT column_name, data_default, default_on_null FROM user_tab_columns "
                      "WHERE table_name = 'JOBS' ORDER BY column_id") == [
        ("ID", None, "NO"), ("GRADE", "3", "NO"), ("CODE", "'NEW'", "NO"), ("OPENED", "SYSDATE", "NO"),
        ("BONUS", "-1", "YES"), ("NOTE", "'none'", "NO"), ("CLOSED", "SYSTIMESTAMP", "NO")]
    with conn.cursor() as cur:   # CREATE TABLE ... AS SELECT copies no defaults, as in Oracle
        cur.execute("CREATE TABLE jobs_copy AS SELECT * FROM jobs")
    assert rows(conn, "SELECT COUNT(data_default) FROM user_tab_columns WHERE table_name = 'JOBS_COPY'") == [(0,)]


def test_the_default_keyword_in_values_takes_each_columns_default(conn) -> None:
    with conn.cursor() as cur:
        cur.execute("INSERT INTO jobs (id, grade, code, opened, bonus, note) "
                    "VALUES (DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT)")
        cur.execute("INSERT INTO jobs VALUES (DEFAULT, 5, 'OLD', NULL, 2, 'x')")
    (first, second) = rows(conn, "SELECT id, grade, code, opened, bonus, note FROM jobs ORDER BY id")
    assert first[:3] == (1, 3, "NEW") and isinstance(first[3], dt.datetime) and first[4:] == (-1, None)
    assert second == (2, 5, "OLD", None, 2, "x")


def test_the_default_keyword_in_set_and_in_a_merge(conn) -> None:
    with conn.cursor() as cur:
        cur.execute("INSERT INTO jobs (grade, code, note) VALUES (9, 'X', 'kept')")
        cur.execute("UPDATE jobs SET grade = DEFAULT, code = DEFAULT, note = DEFAULT")
        assert rows(conn, "SELECT grade, code, note FROM jobs") == [(3, "NEW", None)]
        cur.execute("UPDATE jobs SET grade = 8")
        cur.execute("MERGE INTO jobs j USING (SELECT 1 AS k FROM dual UNION ALL SELECT 7 FROM dual) s "
                    "ON (j.id = s.k) WHEN MATCHED THEN UPDATE SET j.grade = DEFAULT "
                    "WHEN NOT MATCHED THEN INSERT (code, grade) VALUES ('M', DEFAULT)")
    assert rows(conn, "SELECT id, grade, code FROM jobs ORDER BY id") == [(1, 3, "NEW"), (2, 3, "M")]


@pytest.mark.parametrize("sql", ["SELECT DEFAULT FROM dual", "UPDATE jobs SET grade = DEFAULT + 1",
                                 "SELECT grade FROM jobs WHERE grade = DEFAULT"])
def test_default_anywhere_else_is_still_a_reserved_word(conn, sql: str) -> None:
    with pytest.raises(oracledb.DatabaseError, match="ORA-00904.*DEFAULT is an Oracle reserved word"):
        rows(conn, sql)


def test_a_default_an_older_lite_did_not_record_is_refused_by_name(conn, tmp_path: Path) -> None:
    """A WORKSHOP_HOME made before lite recorded DATA_DEFAULT: its columns' defaults are in SQLite's schema only, so
    the keyword is refused (ORA-03001) rather than answered with NULL."""
    conn.close()
    catalog = sqlite3.connect(tmp_path / "lite" / "_catalog.db")
    catalog.execute("UPDATE COLUMNS SET DATA_DEFAULT = NULL WHERE TABLE_NAME = 'JOBS'")
    catalog.commit()
    catalog.close()
    with connect_lite(tmp_path, "HR") as again, again.cursor() as cur:
        with pytest.raises(oracledb.DatabaseError, match="ORA-03001.*DEFAULT for HR.JOBS.GRADE"):
            cur.execute("INSERT INTO jobs (grade) VALUES (DEFAULT)")
        cur.execute("INSERT INTO jobs (note) VALUES (DEFAULT)")   # a column without a default: NULL, as before
        assert rows(again, "SELECT grade, note FROM jobs") == [(3, None)]
