"""COMMIT, ROLLBACK, SAVEPOINT and ROLLBACK TO SAVEPOINT run as SQL statements (lite/transactions.py)."""

from __future__ import annotations

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection


@pytest.fixture()
def home(tmp_path):
    setup = connect(tmp_path)
    setup.cursor().execute("CREATE TABLE tx (n NUMBER)")
    setup.close()
    return tmp_path


def _rows(conn: LiteConnection) -> list[int]:
    cur = conn.cursor()
    cur.execute("SELECT n FROM tx ORDER BY n")
    return [r[0] for r in cur.fetchall()]


def test_commit_and_rollback_statements_are_the_connections_own(home) -> None:
    conn, other = connect(home), connect(home)
    cur = conn.cursor()
    cur.execute("INSERT INTO tx (n) VALUES (1)")
    assert cur.execute("COMMIT WORK") is None and not conn.transaction_in_progress
    assert _rows(other) == [1]   # another session sees it
    cur.execute("INSERT INTO tx (n) VALUES (2)")
    cur.execute("rollback")
    assert _rows(conn) == [1]
    cur.execute("INSERT INTO tx (n) VALUES (3)")
    cur.execute("COMMIT COMMENT 'nightly load' WRITE NOWAIT;")
    assert _rows(other) == [1, 3]
    conn.close()
    other.close()


def test_rollback_to_a_savepoint_keeps_the_work_before_it_and_the_savepoint(home) -> None:
    conn = connect(home)
    cur = conn.cursor()
    cur.execute("INSERT INTO tx (n) VALUES (1)")
    cur.execute("SAVEPOINT before_two")
    cur.execute("INSERT INTO tx (n) VALUES (2)")
    cur.execute("SAVEPOINT before_three")
    cur.execute("INSERT INTO tx (n) VALUES (3)")
    cur.execute("ROLLBACK TO SAVEPOINT before_two")
    assert _rows(conn) == [1] and conn.transaction_in_progress
    with pytest.raises(oracledb.DatabaseError) as info:   # marked after the one rolled back to: gone
        cur.execute("ROLLBACK TO before_three")
    assert info.value.args[0].code == 1086 and "BEFORE_THREE" in info.value.args[0].message
    cur.execute("INSERT INTO tx (n) VALUES (4)")
    cur.execute("ROLLBACK WORK TO BEFORE_TWO")   # the savepoint stays after a rollback to it; names ignore case
    assert _rows(conn) == [1]
    cur.execute("COMMIT")
    with pytest.raises(oracledb.DatabaseError, match="ORA-01086"):   # COMMIT ends every savepoint
        cur.execute("ROLLBACK TO before_two")
    conn.close()
    fresh = connect(home)
    assert _rows(fresh) == [1]
    fresh.close()


def test_a_savepoint_before_any_change_and_ddl_ending_savepoints(home) -> None:
    conn = connect(home)
    cur = conn.cursor()
    cur.execute("SAVEPOINT start_here")
    cur.execute("INSERT INTO tx (n) VALUES (5)")
    cur.execute("ROLLBACK TO start_here")
    assert _rows(conn) == []
    cur.execute("INSERT INTO tx (n) VALUES (6)")
    cur.execute("SAVEPOINT after_six")
    cur.execute("CREATE TABLE tx2 (n NUMBER)")   # DDL commits: the 6 stays, the savepoint goes
    with pytest.raises(oracledb.DatabaseError, match="ORA-01086"):
        cur.execute("ROLLBACK TO after_six")
    cur.execute("ROLLBACK")
    assert _rows(conn) == [6]
    conn.close()


def test_a_script_ending_with_commit_runs_inside_atomic(home) -> None:
    conn = connect(home)
    cur = conn.cursor()
    with conn.atomic():
        cur.execute("INSERT INTO tx (n) VALUES (7)")
        cur.execute("COMMIT")   # the block commits at its end
        with pytest.raises(oracledb.DatabaseError, match="ORA-03001"):
            cur.execute("ROLLBACK")
    assert _rows(conn) == [7]
    conn.close()


@pytest.mark.parametrize("sql", ["COMMIT FORCE 'txn'", "ROLLBACK WORK FORCE '1.2.3'", "SAVEPOINT", "COMMIT now",
                                 "ROLLBACK TO"])
def test_other_forms_are_refused_by_name(home, sql: str) -> None:
    conn = connect(home)
    with pytest.raises(oracledb.DatabaseError) as info:
        conn.cursor().execute(sql)
    assert info.value.args[0].code == 3001
    conn.close()


def test_executemany_refuses_a_transaction_statement(home) -> None:
    conn = connect(home)
    with pytest.raises(oracledb.DatabaseError):
        conn.cursor().executemany("COMMIT", [{}])
    conn.close()
