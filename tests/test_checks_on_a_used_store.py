"""The checks grade fairly on a store the learner has used: their own notes, and Part 4's corrections.

Checks that expected the catalog's facts on top failed correct code in such a
store: TODO 3's TEU probe once Part 4 had accepted a correction about
CAPACITY_TEU (which says "TEU" too), TODO 2's positions question once the
learner had added notes of their own about vessel positions. A learner who
experiments in Part 3, or finishes Part 4 and goes back, must still pass
every check with correct code, and every wrong implementation of TODO 2 and
TODO 3 (the searches, whose answers depend on the store) must still fail.
Same shape as test_checks.py, on a workshop of its own.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from mutants import mutants, notebook_namespace
from test_checks import CHECKS, MODULES, NAMES, REASONS, store_state

import workshop_lib
from workshop_lib import config, reference

TEU_QUERY = "TEU 20-foot equivalent capacity unit for vessels"   # the probe of checks.todo3
POSITIONS_QUERY = "Where do we record vessel current positions?"   # a question of checks.todo2


@pytest.fixture(scope="module")
def ws(home_copy) -> Any:
    """A scanned lite workshop with the learner's own runbook and notes, and Part 4's review (cells 7 and 18)."""
    from workshop_lib import checks
    from workshop_lib.memory.lifecycle import propose_memory
    from workshop_lib.notebook import NOTEBOOK_SOURCE, propose_correction

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKSHOP_HOME", str(home_copy("scan", "used_store_home")))
        mp.setenv("WORKSHOP_BACKEND", "lite")
        mp.delenv(checks.TIMEOUT_ENV, raising=False)
        workshop = workshop_lib.start(upto="scan")
        workshop.memory_client.add_memory(
            "ORA-29855 while creating the Oracle Text index: my own runbook. ORA-29855 CTXAPP Oracle Text index "
            "went away after GRANT CTXAPP.", user_id=workshop.user_id, agent_id=workshop.agent_id,
            metadata={"kind": "runbook", "subject": "MY.ORA-29855"})
        for n in range(4):
            workshop.memory_client.add_memory(
                f"My note {n}: where do we record vessel current positions? In the positions log (note {n}).",
                user_id=workshop.user_id, agent_id=workshop.agent_id,
                metadata={"kind": "note", "subject": f"MY.NOTE{n}"})
        wrong = propose_correction("CARGO_ITEMS.UNIT_VALUE_CENTS is already in US dollars; no conversion is needed.",
                                   subject=f"{config.SCHEMA}.CARGO_ITEMS.UNIT_VALUE_CENTS")
        right_value = propose_correction("CARGO_ITEMS.UNIT_VALUE_CENTS is in US cents: divide by 100 for US dollars.",
                                         subject=f"{config.SCHEMA}.CARGO_ITEMS.UNIT_VALUE_CENTS", contradicts=wrong)
        # as propose_correction files it, with an id of its own: the correction ties with the CAPACITY_TEU column
        # fact on rrf_score for the TEU probe, and the tie goes to the smaller record id, which a random one made
        # the column fact's in about one run in fifty (a uuid from "fb" up sorts after "fact-")
        right_teu = propose_memory(workshop.memory_client, "VESSELS.CAPACITY_TEU is measured in TEU (twenty-foot "
                                   "equivalent units), never in tons.", user_id=workshop.user_id,
                                   agent_id=workshop.agent_id, subject=f"{config.SCHEMA}.VESSELS.CAPACITY_TEU",
                                   memory_id="correction-capacity-teu", source=NOTEBOOK_SOURCE)
        for memory_id, status in ((right_value, "accepted"), (right_teu, "accepted"), (wrong, "discard")):
            reference.set_memory_status(memory_id, status, memory_client=workshop.memory_client, conn=workshop.conn)
        for module in MODULES.values():
            vars(module).update(notebook_namespace(workshop))
        vars(MODULES[5]).update(retrieve_knowledge=workshop_lib.notebook.library_retrieve_knowledge,
                                agent_tools=workshop_lib.notebook.agent_toolbox(workshop))
        yield workshop
        workshop.close()


def test_the_learners_memories_outrank_the_catalogs_facts(ws: Any) -> None:
    """The premise: in this store Part 4's correction tops TODO 3's TEU probe, the notes TODO 2's question."""
    top = reference.hybrid_rrf_search_memories(TEU_QUERY, conn=ws.conn, user_id=ws.user_id,
                                               agent_id=ws.agent_id)[0]
    assert (top["kind"], top["subject"]) == ("correction", f"{config.SCHEMA}.VESSELS.CAPACITY_TEU")
    top3 = [r["subject"] for r in reference.retrieve_knowledge(POSITIONS_QUERY, memory_client=ws.memory_client,
                                                               user_id=ws.user_id, agent_id=ws.agent_id)[:3]]
    assert f"{config.SCHEMA}.VESSEL_POSITIONS" not in top3 and all(s.startswith("MY.NOTE") for s in top3)


@pytest.mark.parametrize("todo", [1, 2, 3, 4, 5])
def test_solution_still_passes(ws: Any, todo: int, capfd: pytest.CaptureFixture[str]) -> None:
    before = store_state(ws)
    CHECKS[todo](MODULES[todo].solution)
    assert capfd.readouterr() == (f"TODO {todo} passed — {NAMES[todo]}\n", "")
    assert store_state(ws) == before


@pytest.mark.parametrize(("todo", "grade_id"), [(2, "check_todo2"), (3, "check_todo3")])
def test_the_hidden_tests_pass_correct_code_too(ws: Any, todo: int, grade_id: str,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    """Part 3's check cells as nbgrader runs them (hidden tests included), with the learner's own ORA-29855 runbook.

    The hidden tests once demanded the workshop's ORA-29855 runbook first; here the learner's ranks above it.
    """
    import nbformat

    from workshop_lib import release

    first = {2: reference.retrieve_knowledge("ORA-29855 while creating the Oracle Text index", 3,
                                             ["runbook", "guideline"], memory_client=ws.memory_client,
                                             user_id=ws.user_id, agent_id=ws.agent_id),
             3: reference.hybrid_rrf_search_memories("ORA-29855 CTXAPP Oracle Text index", k=3, conn=ws.conn,
                                                     user_id=ws.user_id, agent_id=ws.agent_id)}[todo][0]["subject"]
    assert first == "MY.ORA-29855", "the premise: the learner's runbook comes first"
    path = release.REPO_ROOT / "solutions" / "03_retrieval" / "03_retrieval.ipynb"
    cell = next(c for c in nbformat.read(str(path), as_version=4).cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    assert "BEGIN HIDDEN TESTS" in cell.source
    namespace = {**notebook_namespace(ws), NAMES[todo]: MODULES[todo].solution}
    exec(cell.source, namespace)  # noqa: S102 - the workshop's own check cell
    assert capfd.readouterr() == (f"TODO {todo} passed — {NAMES[todo]}\n", "")


SEARCH_MUTANTS = [(todo, name) for todo in (2, 3) for name in sorted(mutants(MODULES[todo]))]


@pytest.mark.parametrize(("todo", "name"), SEARCH_MUTANTS, ids=[f"todo{t}-{n}" for t, n in SEARCH_MUTANTS])
def test_search_mutant_still_fails(ws: Any, todo: int, name: str, capfd: pytest.CaptureFixture[str]) -> None:
    """The checks whose expectations come from the reference on the store still reject every wrong version."""
    with pytest.raises(AssertionError) as failure:
        CHECKS[todo](getattr(MODULES[todo], name))
    message = str(failure.value)
    assert message.startswith(f"TODO {todo} ({NAMES[todo]}) failed: "), message
    # the same mistake named; counts in it (SQL calls per hit) grow with the store's memories
    assert re.sub(r"\d+", "N", REASONS.get((todo, name), "")) in re.sub(r"\d+", "N", message), message
    assert capfd.readouterr() == ("", "")
