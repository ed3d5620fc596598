"""`workshop grade` end to end (lite), part 2: partial credit, tampering and untouched notebooks.

The class (tests/grading_class.py) holds ``one_todo`` and ``untouched``; it is
graded once for this module (the full-marks learners are in
test_grading_full_marks.py, graded at the same time by another worker).
"""

from __future__ import annotations

import re

import nbformat
import pytest

from grading_class import (ENV_PROBE, P2, P3, P4, add_one_todo, add_untouched, assert_gradebook_agrees_with_the_csv,
                           errors, executed, grade_class, grade_folder, outputs_text, student_path)
from workshop_lib import grading, todos


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return grade_class(tmp_path_factory.mktemp("grading-partial"), add_one_todo, add_untouched)


@pytest.mark.slow
@pytest.mark.timeout(900)
class TestPartialCredit:
    def test_untouched_student_notebooks_get_zero_and_crash_only_in_checks(self, graded):
        """The released student notebooks, run as a learner who wrote nothing, fail in their checks only.

        This is also the test that the student notebooks run: nbgrader executes
        every cell of the released notebook (the locked cells are the same).
        """
        row = graded["rows"]["untouched"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["total"]) == ("0", "0", "0", "0")
        assert row["notes"] == "", "no cell other than the checks may fail"
        for name, checks in ((P2, {"check_todo1"}), (P3, {"check_todo2", "check_todo3"}),
                             (P4, {"check_todo4", "check_todo5"})):
            nb = executed(graded, "untouched", name)
            failed = errors(nb)
            assert set(failed) == checks, failed
            assert all("not implemented" in message for message in failed.values()), failed
            # later cells fell back to the library's versions and said so
            assert "not written yet" in "\n".join(outputs_text(c) for c in nb.cells), name

    def test_one_solved_todo_gets_exactly_its_points(self, graded):
        row = graded["rows"]["one_todo"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["total"]) == ("0", "0", "4", "4"), graded["stdout"]
        assert row["percent"] == "23.5"   # 4 of the 17 points of parts 2-4
        assert f"{P2}: not submitted" in row["notes"]
        # the tampered check cell was restored from the source notebook and failed honestly
        failed = errors(executed(graded, "one_todo", P3))
        assert "not implemented" in failed["check_todo2"]
        assert "check_todo3" not in failed
        # the learner's own crashing cell is reported, and did not stop the grading
        assert re.search(r"03_retrieval: cell \d+ \('ratio = 1 / 0'\) raised ZeroDivisionError", row["notes"])

    def test_a_todo_cell_that_kills_the_warm_parent_loses_the_clean_re_run_only(self, graded):
        """The grader survives, says so once, uses the notebook run's score and flags the cell; the next
        learner's re-runs get a new warm parent (``untouched`` is graded after ``one_todo``)."""
        row = graded["rows"]["one_todo"]
        failed = ("03_retrieval: the clean re-run failed (the warm parent of the clean re-runs ended while this "
                  "re-run ran); the notebook run's score is used")
        assert row["notes"].count(failed) == 1, row["notes"]
        assert "TODO 3: REVIEW — the TODO cell inspects or steers the grading process" in row["notes"]
        assert row["TODO 3"] == "4"   # the notebook run's score
        untouched = graded["rows"]["untouched"]
        assert "clean re-run" not in untouched["notes"] and untouched["total"] == "0"

    def test_learners_kernels_see_no_instructor_secret_and_no_env_file(self, graded):
        nb = executed(graded, "one_todo", P3)
        probe = next(c for c in nb.cells if c.source == ENV_PROBE)
        assert outputs_text(probe).strip() == "kernel env: None PRODUCTION 1"

    def test_the_gradebook_agrees_with_the_csv(self, graded):
        assert_gradebook_agrees_with_the_csv(graded)

    def test_hidden_tests_run_in_the_autograder_only(self, graded):
        source = "\n".join(c.source for c in executed(graded, "untouched", P3).cells)
        assert "BEGIN HIDDEN TESTS" in source, "autograde restores the hidden tests from the source notebook"
        assert "BEGIN HIDDEN TESTS" not in student_path(P3).read_text(encoding="utf-8")

    def test_exit_code_table_and_csv(self, graded):
        assert graded["code"] == 1, "learners are below 50 %"
        assert "below 50%: one_todo, untouched" in graded["stderr"]
        table = graded["stdout"]
        header = next(line for line in table.splitlines() if line.strip().startswith("learner"))
        assert all(f"TODO {t.number} (/{t.points})" in header for t in todos.TODOS)
        assert re.search(r"one_todo\s+-?0\s+0\s+4\s+0\s+0\s+4\s+17\s+23\.5", table)
        assert "untouched TODO 2: CheckFailure" in table  # why points were lost, for the instructor
        assert set(graded["rows"]) == {"untouched", "one_todo"}

    def test_fail_under_thresholds_on_the_real_report(self, graded):
        report = grading.GradeReport(["TODO 1", "TODO 2", "TODO 3"], [
            _learner_from_row(name, row) for name, row in sorted(graded["rows"].items())])
        assert report.below(0) == []
        assert report.below(40) == ["untouched"]
        assert report.below(100.1) == ["one_todo", "untouched"]


def _learner_from_row(name: str, row: dict) -> grading.LearnerGrades:
    points = {"TODO 1": 3.0, "TODO 2": 3.0, "TODO 3": 4.0}
    return grading.LearnerGrades(name, {label: grading.TodoScore(float(row[label]), points[label])
                                        for label in points})


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_second_run_in_the_same_workdir_grades_only_what_changed(graded):
    """Instructors grade again as submissions arrive: unchanged submissions keep their result (no kernel,
    no re-run, not even the lite home is prepared); a changed one is graded again."""
    base = graded["base"]
    again = grade_folder(base, csv_name="again.csv")
    lines = again["stdout"].splitlines()
    assert sum(line.startswith("unchanged since the last run: ") for line in lines) == 4, again["stdout"]
    assert not any(line.startswith(("graded ", "prepared a lite workshop")) for line in lines), again["stdout"]
    assert again["rows"] == graded["rows"] and again["code"] == graded["code"]

    part2 = base / "class" / "untouched" / "part2.ipynb"
    nb = nbformat.read(str(part2), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("print('handed in again')"))
    nbformat.write(nb, str(part2))
    changed = grade_folder(base, csv_name="changed.csv")
    graded_lines = [line for line in changed["stdout"].splitlines() if line.startswith("graded ")]
    assert [line.split(" (")[0] for line in graded_lines] == [f"graded untouched / {P2}: 0/3"], changed["stdout"]
    assert changed["stdout"].count("unchanged since the last run: ") == 3
    assert changed["rows"] == graded["rows"]
    assert_gradebook_agrees_with_the_csv(changed)

    # feedback for a run that no longer holds a learner the course folder has from before: one converter per
    # assignment writes the pages of this run's learners only
    submitted = base / "class" / f"one_todo_{P3}.ipynb"
    aside = base / f"one_todo_{P3}.ipynb"
    submitted.rename(aside)
    try:
        alone = grade_folder(base, csv_name="alone.csv", feedback=True)
    finally:
        aside.rename(submitted)
    pages = sorted(p.relative_to(alone["feedback"]).as_posix() for p in alone["feedback"].rglob("*.html"))
    assert pages == [f"untouched/{name}.html" for name in (P2, P3, P4)], alone["stdout"]
    assert not (alone["course"] / "feedback" / "one_todo").exists(), "a learner outside the run got a page"
    assert "feedback: 3 pages written to" in alone["stdout"]
