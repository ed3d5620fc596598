"""`workshop grade` end to end (lite), part 1: full marks, and a dead kernel that does not stop the run.

The class (tests/grading_class.py) holds ``crasher`` (graded first: its kernel
dies), ``solved`` and ``worker_killer`` (its kernel kills its grading worker);
it is graded once for this module, two submissions at a time in worker
processes (``--jobs 2``). The partial-credit learners are in
test_grading_partial.py, graded one at a time, so pytest-xdist grades both
classes at once and both ways of grading are run.
"""

from __future__ import annotations

import pytest

from grading_class import (P2, P3, P4, add_crasher, add_solved, add_worker_killer, assert_gradebook_agrees_with_the_csv,
                           errors, executed, grade_class, gradebook_scores)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return grade_class(tmp_path_factory.mktemp("grading-full"), add_crasher, add_solved, add_worker_killer, jobs=2,
                       feedback=True)


@pytest.mark.slow
@pytest.mark.timeout(900)
class TestFullMarks:
    def test_solutions_get_full_marks(self, graded):
        row = graded["rows"]["solved"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["TODO 4"], row["TODO 5"]) == \
            ("3", "3", "4", "3", "4"), graded["stdout"]
        assert (row["total"], row["max"], row["percent"]) == ("17", "17", "100.0"), graded["stdout"]
        # the only note: graded without workers when worker_killer broke the pool while it ran
        notes = [note for note in row["notes"].split("; ") if note]
        assert all(": graded without workers, as a grading worker ended" in note for note in notes), notes
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

    def test_the_gradebook_holds_the_score_that_counts(self, graded):
        """crasher's notebook run scored 0 (its kernel died), its clean re-run 3 + 4: nbgrader's gradebook,
        which formgrader and `nbgrader export` read, holds the clean scores, as grades.csv does."""
        assert_gradebook_agrees_with_the_csv(graded)
        held = gradebook_scores(graded)
        assert (held[("crasher", "check_todo2")], held[("crasher", "check_todo3")]) == (3, 4)
        # and the TODO cell says where its points came from (formgrader and the feedback page show it)
        from nbgrader.api import Gradebook

        with Gradebook(f"sqlite:///{graded['course'] / 'gradebook.db'}") as gb:
            comment = gb.find_comment("todo2", P3, P3, "crasher").auto_comment
            assert comment == ("TODO 2: the points come from a clean re-run of this cell with the genuine check, "
                               "not from the check cell's output in this notebook: 3 of 3."), comment
            assert gb.find_comment("todo2", P3, P3, "solved").auto_comment is None   # the two runs agreed

    def test_feedback_pages_show_the_scores_that_count_without_the_hidden_tests(self, graded):
        pages = sorted(p.relative_to(graded["feedback"]).as_posix() for p in graded["feedback"].rglob("*.html"))
        assert pages == [f"solved/{P2}.html", f"solved/{P3}.html", f"solved/{P4}.html",
                         f"worker_killer/{P2}.html"], pages
        # crasher's kernel died: nbgrader wrote no executed notebook, so there is no page, and the run says so
        assert f"no feedback for crasher / {P3}: nbgrader could not run the notebook" in graded["stdout"]
        assert "feedback: 4 pages written to" in graded["stdout"]
        solved = (graded["feedback"] / "solved" / f"{P3}.html").read_text(encoding="utf-8")
        assert "Score: 7.0 / 7.0" in solved
        hidden = next(c.source for c in executed(graded, "solved", P3).cells if "BEGIN HIDDEN TESTS" in c.source)
        assert "_runbooks = retrieve_knowledge(" in hidden   # nbgrader ran it ...
        assert "HIDDEN TESTS" not in solved and "_runbooks" not in solved   # ... the learner does not see it
        # the untouched TODO fails CHECK 1: the page shows its score and the check's message
        killer = (graded["feedback"] / "worker_killer" / f"{P2}.html").read_text(encoding="utf-8")
        assert "Score: 0.0 / 3.0" in killer and "CheckFailure" in killer and "not implemented" in killer
        assert "HIDDEN TESTS" not in killer

    def test_nbgrader_execution_turns_the_progress_bar_off(self, graded):
        nb = executed(graded, "solved", P2)
        scan = next(c for c in nb.cells if "write_facts(memory_client" in c.source)
        text = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in scan.outputs)
        assert "stored" in text and "writing memories" not in text

    def test_exit_code_and_rows(self, graded):
        assert graded["code"] == 1, "crasher scores 7 of 17, below 50 %"
        assert "below 50%: crasher, worker_killer" in graded["stderr"]
        assert set(graded["rows"]) == {"solved", "crasher", "worker_killer"}

    def test_the_class_was_graded_two_submissions_at_a_time(self, graded):
        assert "grading 5 submissions, 2 at a time" in graded["stdout"]
        assert len(_graded_lines(graded)) == 5, graded["stdout"]

    def test_a_kernel_that_kills_its_grading_worker_costs_no_one_a_grade(self, graded):
        """The pool breaks; what it had not finished is graded without workers, and says so."""
        row = graded["rows"]["worker_killer"]
        assert row["notes"].startswith(f"{P2}: graded without workers, as a grading worker ended before this "
                                       "submission was done ("), row["notes"]
        # graded in the grading process, where the cell kills nothing: the untouched notebook's score
        assert (row["TODO 1"], row["total"]) == ("0", "0"), graded["stdout"]
        assert set(errors(executed(graded, "worker_killer", P2))) == {"check_todo1"}
        assert graded["rows"]["solved"]["total"] == "17" and graded["rows"]["crasher"]["total"] == "7"

    def test_grading_leaves_the_callers_workshop_home_alone(self, graded):
        assert not graded["home"].exists()


def _graded_lines(graded: dict) -> list[str]:
    return [line for line in graded["stdout"].splitlines() if line.startswith("graded ")]
