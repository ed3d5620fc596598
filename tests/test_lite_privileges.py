"""Lite's privileges: AGENT reads SUPPLYCHAIN's tables and changes none of them (ORA-01031), as in Oracle.

The workshop's Oracle setup grants AGENT SELECT on SUPPLYCHAIN's tables and no
ANY privilege. Lite has no GRANT, so it applies the same rule to every user:
reading another schema is allowed, writing it or changing its objects is
ORA-01031. The seed itself runs on a SUPPLYCHAIN connection (backends/lite.py).
"""

from __future__ import annotations

from pathlib import Path

import oracledb
import pytest

from workshop_lib.backends.lite import LiteBackend, connect_lite
from workshop_lib.config import Settings
from workshop_lib.seed import seed_manifest

COUNTS = seed_manifest()   # rows per SUPPLYCHAIN table, read from the seed script


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home seeded the way `workshop setup` seeds it: through the backend, from an AGENT connection."""
    home = tmp_path_factory.mktemp("privileges")
    backend = LiteBackend(Settings(home=home))
    agent = backend.connect()
    backend.seed(agent)
    agent.close()
    return home


@pytest.fixture()
def agent(seeded: Path):
    conn = connect_lite(seeded, "AGENT")
    yield conn
    conn.rollback()
    conn.close()


def _state(conn) -> tuple:
    """What a learner could damage: row counts, one value per fact the LLM gets wrong, comments, indexes."""
    cur = conn.cursor()
    counts = {}
    for table in COUNTS:
        cur.execute(f"SELECT COUNT(*) FROM supplychain.{table}")
        counts[table] = cur.fetchone()[0]
    cur.execute("SELECT SUM(capacity_teu) FROM supplychain.vessels")
    teu = cur.fetchone()[0]
    cur.execute("SELECT SUM(unit_value_cents) FROM supplychain.cargo_items")
    cents = cur.fetchone()[0]
    cur.execute("SELECT column_name, comments FROM all_col_comments WHERE owner = 'SUPPLYCHAIN' "
                "AND table_name = 'VESSELS' ORDER BY column_name")
    comments = cur.fetchall()
    cur.execute("SELECT index_name FROM all_indexes WHERE owner = 'SUPPLYCHAIN' OR table_owner = 'SUPPLYCHAIN' "
                "ORDER BY index_name")
    indexes = cur.fetchall()
    cur.execute("SELECT table_name, column_name, data_type FROM all_tab_columns WHERE owner = 'SUPPLYCHAIN' "
                "ORDER BY table_name, column_id")
    columns = cur.fetchall()
    cur.execute("SELECT table_name FROM all_tab_comments WHERE owner = 'SUPPLYCHAIN' "   # tables and views
                "UNION ALL SELECT sequence_name FROM all_sequences WHERE sequence_owner = 'SUPPLYCHAIN' ORDER BY 1")
    objects = cur.fetchall()
    return counts, teu, cents, comments, indexes, columns, objects


# (statement, the action the message names, the object it names)
WRITES = [
    ("INSERT INTO supplychain.carriers (carrier_id, scac_code, carrier_name, headquarters_country, "
     "headquarters_city, founded_year) VALUES (99, 'XXXX', 'Nobody', 'DK', 'Aarhus', 2000)",
     "INSERT INTO", "CARRIERS"),
    ("INSERT INTO supplychain.carriers SELECT * FROM supplychain.carriers WHERE ROWNUM = 0", "INSERT INTO", "CARRIERS"),
    ("UPDATE supplychain.vessels SET capacity_teu = capacity_teu * 1000", "UPDATE", "VESSELS"),
    ("UPDATE supplychain.cargo_items SET unit_value_cents = unit_value_cents / 100", "UPDATE", "CARGO_ITEMS"),
    ("DELETE FROM supplychain.cargo_items", "DELETE FROM", "CARGO_ITEMS"),
    ("MERGE INTO supplychain.ports p USING (SELECT 1 AS port_id FROM dual) s ON (p.port_id = s.port_id) "
     "WHEN MATCHED THEN UPDATE SET p.annual_teu = 0", "MERGE INTO", "PORTS"),
    ("TRUNCATE TABLE supplychain.vessel_positions", "TRUNCATE TABLE", "VESSEL_POSITIONS"),
    ("DROP TABLE supplychain.cargo_items PURGE", "DROP TABLE", "CARGO_ITEMS"),
    ("DROP TABLE IF EXISTS supplychain.cargo_items", "DROP TABLE", "CARGO_ITEMS"),
    ("CREATE TABLE supplychain.scratch (n NUMBER)", "CREATE TABLE", "SCRATCH"),
    ("CREATE TABLE supplychain.ports_copy AS SELECT * FROM supplychain.ports", "CREATE TABLE", "PORTS_COPY"),
    ("CREATE VIEW supplychain.big_ships AS SELECT * FROM supplychain.vessels", "CREATE VIEW", "BIG_SHIPS"),
    ("CREATE SEQUENCE supplychain.s", "CREATE SEQUENCE", "S"),
    ("CREATE INDEX supplychain.vessels_teu_ix ON supplychain.vessels (capacity_teu)", "CREATE INDEX", "VESSELS_TEU_IX"),
    ("CREATE INDEX my_teu_ix ON supplychain.vessels (capacity_teu)", "CREATE INDEX ON", "VESSELS"),
    ("DROP INDEX supplychain.vessels_carrier_ix", "DROP INDEX", "VESSELS_CARRIER_IX"),
    ("DROP INDEX supplychain.ports_location_sx", "DROP INDEX", "PORTS_LOCATION_SX"),
    ("COMMENT ON TABLE supplychain.vessels IS 'Capacity is in tons'", "COMMENT ON TABLE", "VESSELS"),
    ("COMMENT ON COLUMN supplychain.vessels.capacity_teu IS 'Capacity in tons'", "COMMENT ON COLUMN", "VESSELS"),
    ("ALTER TABLE supplychain.vessels ADD (capacity_tons NUMBER)", "ALTER TABLE", "VESSELS"),
    ("ALTER TABLE supplychain.vessels DROP COLUMN capacity_teu", "ALTER TABLE", "VESSELS"),
    ("ALTER TABLE supplychain.vessels MODIFY (capacity_teu NUMBER(12))", "ALTER TABLE", "VESSELS"),
    ("ALTER TABLE supplychain.vessels RENAME COLUMN capacity_teu TO capacity_tons", "ALTER TABLE", "VESSELS"),
]


@pytest.mark.parametrize("sql, action, name", WRITES, ids=[w[0][:48] for w in WRITES])
def test_agent_cannot_change_supplychain(agent, sql: str, action: str, name: str) -> None:
    before = _state(agent)
    with pytest.raises(oracledb.DatabaseError) as info:
        agent.cursor().execute(sql)
    error = info.value.args[0]
    assert error.code == 1031, error.message
    assert f"insufficient privileges ({action} SUPPLYCHAIN.{name} as AGENT)" in error.message
    assert "connect as SUPPLYCHAIN" in error.message
    assert _state(agent) == before


def test_a_refused_write_leaves_the_agents_own_open_transaction_alone(agent) -> None:
    cur = agent.cursor()
    cur.execute("CREATE TABLE my_notes (n NUMBER)")
    cur.execute("INSERT INTO my_notes (n) VALUES (1)")
    with pytest.raises(oracledb.DatabaseError, match="ORA-01031"):
        cur.execute("UPDATE supplychain.vessels SET capacity_teu = 0")
    cur.execute("SELECT n FROM my_notes")
    assert cur.fetchall() == [(1,)]
    agent.commit()
    cur.execute("DROP TABLE my_notes PURGE")


def test_agent_still_reads_supplychain_and_builds_on_it_in_its_own_schema(agent) -> None:
    cur = agent.cursor()
    cur.execute("SELECT COUNT(*) FROM supplychain.vessels v JOIN supplychain.carriers c ON c.carrier_id = v.carrier_id")
    assert cur.fetchone()[0] == COUNTS["VESSELS"]
    cur.execute("CREATE TABLE my_ports AS SELECT port_id, unlocode FROM supplychain.ports")
    cur.execute("INSERT INTO my_ports SELECT port_id + 1000, unlocode FROM supplychain.ports")
    cur.execute("CREATE VIEW my_big_ships AS SELECT vessel_name FROM supplychain.vessels WHERE capacity_teu > 15000")
    cur.execute("SELECT COUNT(*) FROM my_ports")
    assert cur.fetchone()[0] == 2 * COUNTS["PORTS"]
    cur.execute("SELECT COUNT(*) FROM my_big_ships")
    assert cur.fetchone()[0] > 0
    cur.execute("DROP VIEW my_big_ships")
    cur.execute("DROP TABLE my_ports PURGE")


def test_what_does_not_exist_is_still_ora_00942(agent) -> None:
    cur = agent.cursor()
    for sql in ("DROP TABLE supplychain.no_such_table", "UPDATE supplychain.no_such_table SET n = 1"):
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute(sql)
        assert info.value.args[0].code == 942
    cur.execute("DROP TABLE IF EXISTS supplychain.no_such_table")   # nothing to drop: nothing to refuse


def test_the_owner_changes_its_own_tables(seeded: Path) -> None:
    owner = connect_lite(seeded, "SUPPLYCHAIN")
    cur = owner.cursor()
    cur.execute("UPDATE supplychain.vessels SET capacity_teu = capacity_teu + 1 WHERE vessel_id = 1")
    assert cur.rowcount == 1
    owner.rollback()
    owner.close()


def test_the_seed_ran_as_supplychain(seeded: Path) -> None:
    """The geometry metadata rows are SUPPLYCHAIN's own, as when the script runs as SUPPLYCHAIN on Oracle."""
    owner = connect_lite(seeded, "SUPPLYCHAIN")
    cur = owner.cursor()
    cur.execute("SELECT table_name, column_name FROM user_sdo_geom_metadata ORDER BY table_name")
    assert cur.fetchall() == [("PORTS", "LOCATION"), ("VESSEL_POSITIONS", "POSITION")]
    owner.close()
    agent = connect_lite(seeded, "AGENT")
    cur = agent.cursor()
    cur.execute("SELECT COUNT(*) FROM user_sdo_geom_metadata")
    assert cur.fetchone()[0] == 0
    cur.execute("SELECT DISTINCT owner FROM all_sdo_geom_metadata")
    assert cur.fetchall() == [("SUPPLYCHAIN",)]
    agent.close()
