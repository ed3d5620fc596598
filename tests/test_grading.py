"""`workshop grade`: nbgrader autograding of submitted notebooks, end to end (lite).

One class is graded once per test session (module fixture) with three
learners in three different folder layouts:

* ``solved``    — the solution notebooks of parts 2-4 (nbgrader class layout);
* ``untouched`` — the student notebooks of parts 2-4 as released (a learner folder);
* ``one_todo``  — the part 3 student notebook with only TODO 3's solution pasted
  into its cell, CHECK 2 tampered with, and a crashing cell appended (one
  notebook file in the class folder); no part 2 submission;
* ``crasher``   — the part 3 solution notebook with a cell that kills the kernel
  (graded before the others, which must still be graded).
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from workshop_lib import grading, release, todos
from workshop_lib.grading import GradingError, find_submissions

ROOT = release.REPO_ROOT
P2, P3, P4 = "02_memory_and_scanner", "03_retrieval", "04_agent_and_corrections"


def _solution(name: str) -> Path:
    return ROOT / "solutions" / name / f"{name}.ipynb"


def _student(name: str) -> Path:
    return ROOT / "notebooks" / name / f"{name}.ipynb"


def _grade_id(cell) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def paste_solution(student: nbformat.NotebookNode, solution: nbformat.NotebookNode, grade_id: str) -> None:
    """Replace the learner's cell ``grade_id`` with the solution's source, as a learner would type it."""
    source = {_grade_id(c): c.source for c in solution.cells}[grade_id]
    cell = next(c for c in student.cells if _grade_id(c) == grade_id)
    cell.source = source


def build_class(folder: Path) -> Path:
    """The class folder described in the module docstring."""
    for name in (P2, P3, P4):
        target = folder / "solved" / name / f"{name}.ipynb"
        target.parent.mkdir(parents=True)
        shutil.copy(_solution(name), target)
    (folder / "untouched").mkdir()
    shutil.copy(_student(P2), folder / "untouched" / "part2.ipynb")
    shutil.copy(_student(P3), folder / "untouched" / "part3.ipynb")
    shutil.copy(_student(P4), folder / "untouched" / "part4.ipynb")
    nb = nbformat.read(str(_student(P3)), as_version=4)
    paste_solution(nb, nbformat.read(str(_solution(P3)), as_version=4), "todo3")
    check2 = next(c for c in nb.cells if _grade_id(c) == "check_todo2")
    check2.source = 'print("TODO 2 passed — retrieve_knowledge")'  # tampering must not earn points
    nb.cells.append(nbformat.v4.new_code_cell("ratio = 1 / 0"))
    nbformat.write(nb, str(folder / f"one_todo_{P3}.ipynb"))
    crash = nbformat.read(str(_solution(P3)), as_version=4)
    crash.cells.insert(3, nbformat.v4.new_code_cell("import os\nos._exit(3)  # the kernel dies"))
    (folder / "crasher").mkdir()
    nbformat.write(crash, str(folder / "crasher" / "retrieval.ipynb"))
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Grade the class once with grade_command (fail-under 50 %), keeping nbgrader's course folder."""
    base = tmp_path_factory.mktemp("grading")
    folder = build_class(base / "class")
    out, err = io.StringIO(), io.StringIO()
    mp = pytest.MonkeyPatch()
    mp.setenv("WORKSHOP_HOME", str(base / "unused-home"))  # grading must not touch the caller's home
    mp.setenv("WORKSHOP_BACKEND", "lite")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = grading.grade_command(folder, fail_under=50, csv_path=base / "out" / "grades.csv",
                                         workdir=base / "course")
    finally:
        mp.undo()
    with open(base / "out" / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {row["learner"]: row for row in csv.DictReader(handle)}
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue(), "rows": rows,
            "course": base / "course", "home": base / "unused-home"}


def _executed(graded, learner: str, name: str) -> nbformat.NotebookNode:
    return nbformat.read(str(graded["course"] / "autograded" / learner / name / f"{name}.ipynb"), as_version=4)


def _errors(nb) -> dict[str | None, str]:
    return {(_grade_id(c) or f"cell {i}"): f"{o.ename}: {o.evalue}" for i, c in enumerate(nb.cells)
            for o in c.get("outputs", []) if o.output_type == "error"}


@pytest.mark.slow
@pytest.mark.timeout(900)
class TestRoundTrip:
    def test_solutions_get_full_marks(self, graded):
        row = graded["rows"]["solved"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["TODO 4"], row["TODO 5"]) == \
            ("3", "3", "4", "3", "4"), graded["stdout"]
        assert (row["total"], row["max"], row["percent"], row["notes"]) == ("17", "17", "100.0", ""), graded["stdout"]
        for name in (P2, P3, P4):
            assert _errors(_executed(graded, "solved", name)) == {}

    def test_untouched_student_notebooks_get_zero_and_crash_only_in_checks(self, graded):
        row = graded["rows"]["untouched"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["total"]) == ("0", "0", "0", "0")
        assert row["notes"] == "", "no cell other than the checks may fail"
        for name, checks in ((P2, {"check_todo1"}), (P3, {"check_todo2", "check_todo3"}),
                             (P4, {"check_todo4", "check_todo5"})):
            failed = _errors(_executed(graded, "untouched", name))
            assert set(failed) == checks, failed
            assert all("not implemented" in message for message in failed.values()), failed

    def test_one_solved_todo_gets_exactly_its_points(self, graded):
        row = graded["rows"]["one_todo"]
        assert (row["TODO 1"], row["TODO 2"], row["TODO 3"], row["total"]) == ("0", "0", "4", "4"), graded["stdout"]
        assert row["percent"] == "23.5"   # 4 of the 17 points of parts 2-4
        assert f"{P2}: not submitted" in row["notes"]
        # the tampered check cell was restored from the source notebook and failed honestly
        failed = _errors(_executed(graded, "one_todo", P3))
        assert "not implemented" in failed["check_todo2"]
        assert "check_todo3" not in failed
        # the learner's own crashing cell is reported, and did not stop the grading
        assert re.search(r"03_retrieval: cell \d+ \('ratio = 1 / 0'\) raised ZeroDivisionError", row["notes"])

    def test_a_dead_kernel_does_not_stop_the_run_and_the_clean_rerun_scores_the_todo_cells(self, graded):
        row = graded["rows"]["crasher"]
        # its TODO cells are the solutions: the clean re-run (TODO cells only) earns their points
        assert (row["TODO 2"], row["TODO 3"], row["total"]) == ("3", "4", "7"), graded["stdout"]
        assert "03_retrieval: autograding failed (" in row["notes"]
        assert "DeadKernelError" in row["notes"] or "died" in row["notes"].lower(), row["notes"]
        assert "the notebook run scored 0, the clean re-run of the TODO cell 3 (the clean score counts)" in row["notes"]
        assert graded["rows"]["solved"]["total"] == "17"  # graded after the crash

    def test_hidden_tests_run_in_the_autograder_only(self, graded):
        source = "\n".join(c.source for c in _executed(graded, "untouched", P3).cells)
        assert "BEGIN HIDDEN TESTS" in source, "autograde restores the hidden tests from the source notebook"
        assert "BEGIN HIDDEN TESTS" not in _student(P3).read_text(encoding="utf-8")

    def test_nbgrader_execution_turns_the_progress_bar_off(self, graded):
        nb = _executed(graded, "solved", P2)
        scan = next(c for c in nb.cells if "write_facts(memory_client" in c.source)
        text = "".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in scan.outputs)
        assert "stored" in text and "writing memories" not in text

    def test_exit_code_table_and_csv(self, graded):
        assert graded["code"] == 1, "learners are below 50 %"
        assert "below 50%: crasher, one_todo, untouched" in graded["stderr"]   # crasher: 7 of 17
        table = graded["stdout"]
        header = next(line for line in table.splitlines() if line.strip().startswith("learner"))
        assert all(f"TODO {t.number} (/{t.points})" in header for t in todos.TODOS)
        assert re.search(r"solved\s+3\s+3\s+4\s+3\s+4\s+17\s+17\s+100\.0", table)
        assert re.search(r"one_todo\s+-?0\s+0\s+4\s+0\s+0\s+4\s+17\s+23\.5", table)
        assert "untouched TODO 2: CheckFailure" in table  # why points were lost, for the instructor
        assert set(graded["rows"]) == {"solved", "untouched", "one_todo", "crasher"}

    def test_fail_under_thresholds_on_the_real_report(self, graded):
        report = grading.GradeReport(["TODO 1", "TODO 2", "TODO 3"], [
            _learner_from_row(name, row) for name, row in sorted(graded["rows"].items())])
        assert report.below(0) == []
        assert report.below(40) == ["untouched"]
        assert report.below(100.1) == ["crasher", "one_todo", "solved", "untouched"]

    def test_grading_leaves_the_callers_workshop_home_alone(self, graded):
        assert not graded["home"].exists()


def _learner_from_row(name: str, row: dict) -> grading.LearnerGrades:
    points = {"TODO 1": 3.0, "TODO 2": 3.0, "TODO 3": 4.0}
    return grading.LearnerGrades(name, {label: grading.TodoScore(float(row[label]), points[label])
                                        for label in points})


# --------------------------------------------------------------------------- finding submissions (fast)
def test_find_submissions_understands_the_three_layouts(tmp_path):
    (tmp_path / "carol" / P3).mkdir(parents=True)
    shutil.copy(_student(P3), tmp_path / "carol" / P3 / f"{P3}.ipynb")
    (tmp_path / "dave" / ".ipynb_checkpoints").mkdir(parents=True)
    shutil.copy(_student(P2), tmp_path / "dave" / "my work.ipynb")
    shutil.copy(_student(P2), tmp_path / "dave" / ".ipynb_checkpoints" / "my work-checkpoint.ipynb")
    shutil.copy(_student(P3), tmp_path / "erin.ipynb")
    # no nbgrader metadata at all (cells copied into a fresh notebook): the file name decides
    bare = nbformat.read(str(_student(P2)), as_version=4)
    for cell in bare.cells:
        cell.metadata = {}
    nbformat.write(bare, str(tmp_path / f"frank_{P2}.ipynb"))
    found = {(s.learner, s.assignment) for s in find_submissions(tmp_path)}
    assert found == {("carol", P3), ("dave", P2), ("erin", P3), ("frank", P2)}
    single = find_submissions(tmp_path / "erin.ipynb")
    assert [(s.learner, s.assignment) for s in single] == [("erin", P3)]


def test_find_submissions_explains_what_it_cannot_grade(tmp_path):
    with pytest.raises(GradingError, match="No submissions folder"):
        find_submissions(tmp_path / "missing")
    with pytest.raises(GradingError, match=r"No notebooks \(\*\.ipynb\)"):
        find_submissions(tmp_path)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")]), str(tmp_path / "zoe.ipynb"))
    with pytest.raises(GradingError, match="Cannot tell which assignment"):
        find_submissions(tmp_path)
    (tmp_path / "zoe.ipynb").unlink()
    (tmp_path / "amy").mkdir()
    shutil.copy(_student(P3), tmp_path / "amy" / "a.ipynb")
    shutil.copy(_solution(P3), tmp_path / "amy" / "b.ipynb")
    with pytest.raises(GradingError, match="two notebooks for 03_retrieval"):
        find_submissions(tmp_path)
    (tmp_path / "broken.ipynb").write_text("{not json", encoding="utf-8")
    with pytest.raises(GradingError, match="not a readable notebook"):
        find_submissions(tmp_path / "broken.ipynb")


def test_fail_under_must_be_a_percentage(tmp_path):
    with pytest.raises(GradingError, match="percentage between 0 and 100"):
        grading.grade_command(tmp_path, fail_under=150)


def test_the_cli_reports_grading_errors_with_exit_code_2(tmp_path, capsys):
    from workshop_lib.cli import main

    assert main(["grade", str(tmp_path / "nothing-here")]) == 2
    assert "No submissions folder" in capsys.readouterr().err


def test_ungraded_notebooks_are_listed_but_not_executed(tmp_path, capsys):
    (tmp_path / "class").mkdir()
    shutil.copy(ROOT / "notebooks" / "01_seed_and_explore" / "01_seed_and_explore.ipynb", tmp_path / "class" / "kim.ipynb")
    assert grading.grade_command(tmp_path / "class", fail_under=100, csv_path=tmp_path / "grades.csv") == 0
    out = capsys.readouterr().out
    assert "01_seed_and_explore has no graded cells" in out and "prepared a lite workshop" not in out
    assert (tmp_path / "grades.csv").read_text(encoding="utf-8").splitlines() == [
        "learner,total,max,percent,review,notes", "kim,0,0,100.0,,"]


def test_nbgrader_config_drops_only_warnings_and_progress_bars_from_stderr():
    from nbformat.v4 import new_code_cell, new_output
    from nbgrader.preprocessors import IgnorePattern

    from workshop_lib.release import load_nbgrader_config

    step = IgnorePattern(config=load_nbgrader_config())
    assert step.enabled
    cell = new_code_cell("checks.todo1(_scan_tables)", outputs=[
        new_output("stream", name="stderr", text="/x/pandas/core.py:12: FutureWarning: a thing changes\n"),
        new_output("stream", name="stderr", text="scanning: 40%|####      | 34/84\n"),
        new_output("stream", name="stderr", text="Traceback (most recent call last): something broke\n"),
        new_output("stream", name="stdout", text="TODO 1 passed\n")])
    kept, _ = step.preprocess_cell(cell, {}, 0)
    assert [o.text for o in kept.outputs] == ["Traceback (most recent call last): something broke\n",
                                              "TODO 1 passed\n"]
