"""Index internals in the catalog: lite lists a spatial index's MDRT_…$ table and an Oracle Text index's DR$ tables
with SECONDARY = 'Y', as Oracle does.

So a scanner, a check or a learner's query meets the same catalog in both
backends, and every one of them must keep to real tables (``secondary = 'N'``).
The Oracle side (grants, OWNED_TABLES_SQL) is unit-tested in
test_oracle_unit.py and run for real in test_oracle_integration.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.config import SCHEMA, SEED_TABLES, SPATIAL_INDEXES
from workshop_lib.seed import run_seed


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory):
    home = tmp_path_factory.mktemp("secondary")
    with connect(home, SCHEMA) as owner:
        run_seed(owner, atomic=True, label="lite")
    conn = connect(home, "AGENT")
    yield conn
    conn.close()


def _secondary(conn) -> list[str]:
    with conn.cursor() as cur:
        cur.execute("SELECT table_name FROM all_tables WHERE owner = :o AND secondary = 'Y'", o=SCHEMA)
        return sorted(r[0] for r in cur.fetchall())


def test_the_seed_leaves_one_mdrt_table_per_spatial_index(seeded) -> None:
    secondary = _secondary(seeded)
    assert len(secondary) == len(SPATIAL_INDEXES) and all(t.startswith("MDRT_") for t in secondary)


def test_the_todo1_check_and_the_solution_keep_to_real_tables(seeded) -> None:
    from workshop_lib.checks.todo1 import _catalog_tables

    assert sorted(_catalog_tables(seeded, SCHEMA)) == sorted(SEED_TABLES)
    solution = Path(__file__).resolve().parent.parent / "solutions" / "02_memory_and_scanner" / \
        "02_memory_and_scanner.ipynb"
    assert "WHERE t.owner = :owner AND t.secondary = 'N'" in solution.read_text(encoding="utf-8")


def test_the_reference_scanner_ignores_index_internals(seeded) -> None:
    from workshop_lib.scanner import scan_columns, scan_tables

    secondary = set(_secondary(seeded))
    assert secondary
    tables = {f.subject.split(".", 1)[1] for f in scan_tables(seeded, SCHEMA)}
    columns = {f.subject.split(".")[1] for f in scan_columns(seeded, SCHEMA)}
    assert not (tables | columns) & secondary


# --------------------------------------------------------------------------- an Oracle Text index's DR$ tables

DR_TABLES = ["DR$NOTES_CTX$I", "DR$NOTES_CTX$K", "DR$NOTES_CTX$N", "DR$NOTES_CTX$R"]


def _rows(conn, sql: str, **binds) -> list[tuple]:
    with conn.cursor() as cur:
        cur.execute(sql, **binds)
        return cur.fetchall()


def _secondary_of(conn) -> list[str]:
    return [r[0] for r in _rows(conn, "SELECT table_name FROM user_tables WHERE secondary = 'Y' ORDER BY table_name")]


@pytest.fixture()
def notes(tmp_path: Path):
    conn = connect(tmp_path, "AGENT")
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE notes (id NUMBER PRIMARY KEY, body CLOB, tag VARCHAR2(20))")
        cur.execute("INSERT INTO notes VALUES (1, 'capacity in TEU, never tons', 'unit')")
        conn.commit()
        cur.execute("CREATE INDEX notes_ctx ON notes (body) INDEXTYPE IS CTXSYS.CONTEXT")
    yield conn
    conn.close()


def test_a_text_index_lists_its_dr_tables_as_secondary_objects_as_oracle_does(notes) -> None:
    """CTXSYS.CONTEXT keeps DR$<index>$I/$K/$N/$R in the index owner's schema, SECONDARY = 'Y' in USER_TABLES,
    ALL_TABLES and ALL_OBJECTS, with Oracle Text's columns; real-table queries skip them."""
    assert _secondary_of(notes) == DR_TABLES
    assert [r[0] for r in _rows(notes, "SELECT table_name FROM all_tables WHERE owner = 'AGENT' AND secondary = 'N'")
            ] == ["NOTES"]
    assert _rows(notes, "SELECT object_name, object_type, secondary FROM user_objects "
                        "WHERE object_name LIKE 'DR$%' ORDER BY object_name") == [
        (name, "TABLE", "Y") for name in DR_TABLES]
    assert _rows(notes, "SELECT column_name, data_type, data_length, data_precision FROM user_tab_columns "
                        "WHERE table_name = 'DR$NOTES_CTX$I' ORDER BY column_id") == [
        ("TOKEN_TEXT", "VARCHAR2", 64, None), ("TOKEN_TYPE", "NUMBER", 22, 10), ("TOKEN_FIRST", "NUMBER", 22, 10),
        ("TOKEN_LAST", "NUMBER", 22, 10), ("TOKEN_COUNT", "NUMBER", 22, 10), ("TOKEN_INFO", "BLOB", 4000, None)]
    assert _rows(notes, "SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'DR$NOTES_CTX$K' "
                        "ORDER BY column_id") == [("DOCID", "NUMBER"), ("TEXTKEY", "ROWID")]
    # real tables, empty: lite's inverted index is in memory (docs/lite-engine.md)
    assert _rows(notes, 'SELECT COUNT(*) FROM "DR$NOTES_CTX$I"') == [(0,)]
    with notes.cursor() as cur:   # and the index still answers
        cur.execute("SELECT id FROM notes WHERE CONTAINS(body, 'teu', 1) > 0")
        assert cur.fetchall() == [(1,)]


@pytest.mark.parametrize("drop", ["DROP INDEX notes_ctx", "ALTER TABLE notes DROP COLUMN body",
                                  "DROP TABLE notes PURGE"])
def test_dropping_the_text_index_its_column_or_its_table_drops_the_dr_tables(notes, drop: str) -> None:
    with notes.cursor() as cur:
        cur.execute(drop)
    assert _secondary_of(notes) == []
    assert _rows(notes, "SELECT COUNT(*) FROM user_tab_columns WHERE table_name LIKE 'DR$%'") == [(0,)]
    with notes.cursor() as cur:   # the table was dropped too, not only forgotten
        with pytest.raises(Exception, match="ORA-00942"):
            cur.execute('SELECT COUNT(*) FROM "DR$NOTES_CTX$I"')


def test_a_home_made_before_the_dr_tables_gets_them_when_it_is_opened(notes, tmp_path: Path) -> None:
    """A text index created by an older lite has no DR$ tables; opening the home adds them, once."""
    import sqlite3

    notes.close()
    con = sqlite3.connect(tmp_path / "lite" / "AGENT.db")
    con.execute(f"ATTACH DATABASE '{tmp_path / 'lite' / '_catalog.db'}' AS LITECAT")
    for name in DR_TABLES:   # as an older home has it
        con.execute(f'DROP TABLE "{name}"')
        for table in ("TABLES", "COLUMNS"):
            con.execute(f"DELETE FROM LITECAT.{table} WHERE OWNER = 'AGENT' AND TABLE_NAME = ?", (name,))
    con.commit()
    con.close()
    with connect(tmp_path, "AGENT") as reopened:
        assert _secondary_of(reopened) == DR_TABLES
        assert _rows(reopened, 'SELECT COUNT(*) FROM "DR$NOTES_CTX$R"') == [(0,)]
    with connect(tmp_path, "AGENT") as again:
        assert _secondary_of(again) == DR_TABLES


def test_the_agent_schema_lists_the_memory_text_index_tables_and_the_todo1_check_skips_them(memory_ws) -> None:
    """The agent user's schema, where CHECK 1 makes its second scan, has the memory text index's DR$ tables, as on
    Oracle: a scan that leaves out MDRT_% by name lists them and fails; secondary = 'N' skips them."""
    from workshop_lib.checks.todo1 import _catalog_tables, _secondary_tables

    owner = memory_ws.conn.username
    secondary = _secondary_tables(memory_ws.conn, owner)
    assert secondary and all(t.startswith("DR$") for t in secondary), secondary
    assert not secondary & set(_catalog_tables(memory_ws.conn, owner))
