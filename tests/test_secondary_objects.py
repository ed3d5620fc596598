"""Index internals and the catalog: every reader of ALL_TABLES keeps to real tables (``secondary = 'N'``).

Oracle lists a spatial index's MDRT_…$ table (and Oracle Text's DR$… tables)
in ALL_/USER_TABLES with SECONDARY = 'Y'. The Oracle side (grants,
OWNED_TABLES_SQL) is unit-tested in test_oracle_unit.py and run for real in
test_oracle_integration.py; here: the TODO 1 check and its solution filter
them. (Lite does not create MDRT tables yet: the reference scanner must
filter them first - see docs/oracle.md.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.config import SCHEMA, SEED_TABLES
from workshop_lib.seed import run_seed

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory):
    home = tmp_path_factory.mktemp("secondary")
    with connect(home, SCHEMA) as owner:
        run_seed(owner, atomic=True, label="lite")
    conn = connect(home, "AGENT")
    yield conn
    conn.close()


def test_the_todo1_check_and_the_solution_keep_to_real_tables(seeded) -> None:
    import importlib

    todo1 = importlib.import_module("workshop_lib.checks.todo1")

    assert sorted(todo1._catalog_tables(seeded, SCHEMA)) == sorted(SEED_TABLES)
    source = Path(todo1.__file__).read_text(encoding="utf-8")
    assert "AND secondary = 'N'" in source
    nb = json.loads((REPO / "solutions" / "02_memory_and_scanner" / "02_memory_and_scanner.ipynb")
                    .read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"]]
    assert any("WHERE t.owner = :owner AND t.secondary = 'N'" in c for c in cells)
    assert any("`AND t.secondary = 'N'`" in c for c in cells), "the instructions state the rule"
