"""Index internals in the catalog: lite lists a spatial index's MDRT_…$ table with SECONDARY = 'Y', as Oracle does.

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
