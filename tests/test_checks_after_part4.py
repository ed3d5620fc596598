"""The checks grade the same after Part 4: a learner who goes back to an earlier notebook is graded fairly.

Part 4 leaves reviewed corrections in the store (two accepted, one discarded),
and an accepted correction about CAPACITY_TEU says "TEU" as the catalog's
column fact does. A learner who finishes Part 4 and re-runs Part 3 must still
pass every check with correct code, and every wrong implementation must still
fail. Same shape as test_checks.py, on a workshop of its own.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from mutants import mutants, notebook_namespace
from test_checks import CHECKS, MODULES, NAMES, REASONS, store_state

import workshop_lib
from workshop_lib import checks, config, reference

TEU_QUERY = "TEU 20-foot equivalent capacity unit for vessels"   # the probe of checks.todo3


@pytest.fixture(scope="module")
def ws(home_copy) -> Any:
    """A scanned lite workshop after Part 4's review: what cells 7 and 18 of the Part 4 notebook leave."""
    from workshop_lib.notebook import propose_correction

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKSHOP_HOME", str(home_copy("scan", "after_part4_home")))
        mp.setenv("WORKSHOP_BACKEND", "lite")
        mp.delenv(checks.TIMEOUT_ENV, raising=False)
        workshop = workshop_lib.start(upto="scan")
        wrong = propose_correction("CARGO_ITEMS.UNIT_VALUE_CENTS is already in US dollars; no conversion is needed.",
                                   subject=f"{config.SCHEMA}.CARGO_ITEMS.UNIT_VALUE_CENTS")
        right_value = propose_correction("CARGO_ITEMS.UNIT_VALUE_CENTS is in US cents: divide by 100 for US dollars.",
                                         subject=f"{config.SCHEMA}.CARGO_ITEMS.UNIT_VALUE_CENTS", contradicts=wrong)
        right_teu = propose_correction("VESSELS.CAPACITY_TEU is measured in TEU (twenty-foot equivalent units), "
                                       "never in tons.", subject=f"{config.SCHEMA}.VESSELS.CAPACITY_TEU")
        for memory_id, status in ((right_value, "accepted"), (right_teu, "accepted"), (wrong, "discard")):
            reference.set_memory_status(memory_id, status, memory_client=workshop.memory_client, conn=workshop.conn)
        for module in MODULES.values():
            vars(module).update(notebook_namespace(workshop))
        vars(MODULES[5]).update(retrieve_knowledge=workshop_lib.notebook.library_retrieve_knowledge,
                                agent_tools=workshop_lib.notebook.agent_toolbox(workshop))
        yield workshop
        workshop.close()


def test_the_accepted_correction_outranks_the_column_fact(ws: Any) -> None:
    """The premise: in this store the reference's top hit for TODO 3's TEU probe is Part 4's correction."""
    top = reference.hybrid_rrf_search_memories(TEU_QUERY, conn=ws.conn, user_id=ws.user_id,
                                               agent_id=ws.agent_id)[0]
    assert (top["kind"], top["subject"]) == ("correction", f"{config.SCHEMA}.VESSELS.CAPACITY_TEU")


@pytest.mark.parametrize("todo", [1, 2, 3, 4, 5])
def test_solution_still_passes(ws: Any, todo: int, capfd: pytest.CaptureFixture[str]) -> None:
    before = store_state(ws)
    CHECKS[todo](MODULES[todo].solution)
    assert capfd.readouterr() == (f"TODO {todo} passed — {NAMES[todo]}\n", "")
    assert store_state(ws) == before


TODO3_MUTANTS = sorted(mutants(MODULES[3]))


@pytest.mark.parametrize("name", TODO3_MUTANTS)
def test_todo3_mutant_still_fails(ws: Any, name: str, capfd: pytest.CaptureFixture[str]) -> None:
    """The check whose expectation now comes from the reference still rejects every wrong implementation."""
    with pytest.raises(AssertionError) as failure:
        checks.todo3(getattr(MODULES[3], name))
    message = str(failure.value)
    assert message.startswith(f"TODO 3 ({NAMES[3]}) failed: "), message
    # the same mistake named; counts in it (SQL calls per hit) grow with the store's memories
    assert re.sub(r"\d+", "N", REASONS.get((3, name), "")) in re.sub(r"\d+", "N", message), message
    assert capfd.readouterr() == ("", "")
