"""`workshop grade` without a full grading run: finding submissions, bad input, nbgrader's config.

The end-to-end round trips are test_grading_full_marks.py and
test_grading_partial.py (one graded class each, run side by side by xdist).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from grading_class import P2, P3, ROOT, solution_path, student_path
from workshop_lib import grading
from workshop_lib.grading import GradingError, find_submissions


# --------------------------------------------------------------------------- finding submissions (fast)
def test_find_submissions_understands_the_three_layouts(tmp_path):
    (tmp_path / "carol" / P3).mkdir(parents=True)
    shutil.copy(student_path(P3), tmp_path / "carol" / P3 / f"{P3}.ipynb")
    (tmp_path / "dave" / ".ipynb_checkpoints").mkdir(parents=True)
    shutil.copy(student_path(P2), tmp_path / "dave" / "my work.ipynb")
    shutil.copy(student_path(P2), tmp_path / "dave" / ".ipynb_checkpoints" / "my work-checkpoint.ipynb")
    shutil.copy(student_path(P3), tmp_path / "erin.ipynb")
    # no nbgrader metadata at all (cells copied into a fresh notebook): the file name decides
    bare = nbformat.read(str(student_path(P2)), as_version=4)
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
    shutil.copy(student_path(P3), tmp_path / "amy" / "a.ipynb")
    shutil.copy(solution_path(P3), tmp_path / "amy" / "b.ipynb")
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


# --------------------------------------------------------------------------- the gradebook
def test_create_gradebook_writes_what_nbgrader_writes_and_nbgrader_opens_it_as_is(tmp_path, monkeypatch):
    """Same tables and alembic stamp as nbgrader's own first use, which then runs no `alembic` process."""
    import os
    import sqlite3
    import sys

    from nbgrader import api

    monkeypatch.setenv("PATH", os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    with api.Gradebook(f"sqlite:///{tmp_path / 'nbgrader.db'}"):   # nbgrader's way: runs `alembic heads`
        pass
    grading.create_gradebook(f"sqlite:///{tmp_path / 'ours.db'}")

    def contents(name: str) -> tuple[list, list]:
        with sqlite3.connect(tmp_path / name) as db:
            schema = db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").fetchall()
            return schema, db.execute("SELECT version_num FROM alembic_version").fetchall()

    ours = contents("ours.db")
    assert ours == contents("nbgrader.db")
    assert len(ours[1]) == 1 and ours[1][0][0]

    def no_alembic() -> str:
        raise AssertionError("nbgrader ran `alembic heads` on a gradebook create_gradebook made")

    monkeypatch.setattr(api, "get_alembic_version", no_alembic)
    with api.Gradebook(f"sqlite:///{tmp_path / 'ours.db'}") as gb:
        gb.add_student("ada")
    grading.create_gradebook(f"sqlite:///{tmp_path / 'ours.db'}")   # idempotent: an existing gradebook is kept
    with api.Gradebook(f"sqlite:///{tmp_path / 'ours.db'}") as gb:
        assert [s.id for s in gb.students] == ["ada"]


@pytest.mark.parametrize("jobs", [0, -2])
def test_jobs_must_be_one_or_more(tmp_path, jobs, capsys):
    with pytest.raises(GradingError, match=f"--jobs is how many submissions are graded at once: 1 or more, got {jobs}"):
        grading.grade_command(tmp_path, jobs=jobs)
    from workshop_lib.cli import main

    assert main(["grade", str(tmp_path), "--jobs", str(jobs)]) == 2
    assert "--jobs is how many submissions" in capsys.readouterr().err


def test_a_relative_workdir_holds_the_course(tmp_path, monkeypatch):
    """`autograde(folder, workdir="graded/")`, as the docs write it: nbgrader changes directory while it
    converts, so a relative gradebook URL pointed nowhere ("unable to open database file")."""
    monkeypatch.chdir(tmp_path)
    with grading.Grader(workdir=Path("graded")) as grader:
        grader.register([P3])
    assert (tmp_path / "graded" / "gradebook.db").is_file()
    assert (tmp_path / "graded" / "source" / P3 / f"{P3}.ipynb").is_file()
