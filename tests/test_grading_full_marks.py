"""`workshop grade` end to end (lite), part 1: full marks, and a dead kernel that does not stop the run.

The class (tests/grading_class.py) holds ``crasher`` (graded first: its kernel
dies) and ``solved``; it is graded once for this module. The partial-credit
learners are in test_grading_partial.py, so pytest-xdist grades both classes
at once.
"""

from __future__ import annotations

import pytest

from grading_class import P2, P3, P4, add_crasher, add_solved, errors, executed, grade_class


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return grade_class(tmp_path_factory.mktemp("grading-full"), add_crasher, add_solved)


@pytest.mark.slow
@pytest.mark.timeout(900)
class TestFullMarks:
    def test_solutions_get_full_marks(self, graded):
        row = graded["rows"]["solved"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["TODO 4"], row["TODO 5"]) == \
            ("3", "3", "4", "3", "4"), graded["stdout"]
        assert (row["total"], row["max"], row["percent"], row["notes"]) == ("17", "17", "100.0", ""), graded["stdout"]
        for name in (P2, P3, P4):
            assert errors(executed(graded, "solved", name)) == {}

    def test_a_dead_kernel_does_not_stop_the_run_and_the_clean_rerun_scores_the_todo_cells(self, graded):
        row = graded["rows"]["crasher"]
        # its TODO cells are the solutions: the clean re-run (TODO cells only) earns their points
        assert (row["TODO 2"], row["TODO 3"], row["total"]) == ("3", "4", "7"), graded["stdout"]
        assert "03_retrieval: autograding failed (" in row["notes"]
        assert "DeadKernelError" in row["notes"] or "died" in row["notes"].lower(), row["notes"]
        assert "the notebook run scored 0, the clean re-run of the TODO cell 3 (the clean score counts)" in row["notes"]
        assert graded["rows"]["solved"]["total"] == "17"  # graded after the crash

    def test_nbgrader_execution_turns_the_progress_bar_off(self, graded):
        nb = executed(graded, "solved", P2)
        scan = next(c for c in nb.cells if "write_facts(memory_client" in c.source)
        text = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in scan.outputs)
        assert "stored" in text and "writing memories" not in text

    def test_exit_code_and_rows(self, graded):
        assert graded["code"] == 1, "crasher scores 7 of 17, below 50 %"
        assert "below 50%: crasher" in graded["stderr"]
        assert set(graded["rows"]) == {"solved", "crasher"}

    def test_grading_leaves_the_callers_workshop_home_alone(self, graded):
        assert not graded["home"].exists()
