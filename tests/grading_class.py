"""A class of submissions for the grading round-trip tests, and readers of what nbgrader wrote.

Learners (each built by its own function, so each test module grades only the
learners it asserts on and pytest-xdist can run the two modules side by side):

* ``solved``    — the solution notebooks of parts 2-4 (nbgrader class layout);
* ``untouched`` — the student notebooks of parts 2-4 as released (a learner folder);
* ``one_todo``  — the part 3 student notebook with only TODO 3's solution pasted
  into its cell (after lines that kill the warm parent of its clean re-run, so
  the notebook run's score counts), CHECK 2 tampered with, a cell printing what
  the kernel sees of the instructor's settings and a crashing cell appended
  (one notebook file in the class folder); no part 2 submission; graded first;
* ``crasher``   — the part 3 solution notebook with a cell that kills the kernel
  (graded before ``solved``, which must still be graded);
* ``worker_killer`` — the part 2 student notebook as released, with a first cell
  that kills the kernel's parent when that is a grading worker (graded with
  workers: the run must grade what that worker and the others left).
"""

from __future__ import annotations

import contextlib
import csv
import io
import shutil
from pathlib import Path

import nbformat
import pytest

from workshop_lib import grading, release

ROOT = release.REPO_ROOT
P2, P3, P4 = "02_memory_and_scanner", "03_retrieval", "04_agent_and_corrections"


def solution_path(name: str) -> Path:
    """The source (solution) notebook of assignment ``name``."""
    return ROOT / "solutions" / name / f"{name}.ipynb"


def student_path(name: str) -> Path:
    """The released student notebook of assignment ``name``."""
    return ROOT / "notebooks" / name / f"{name}.ipynb"


def grade_id_of(cell) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def paste_solution(student: nbformat.NotebookNode, solution: nbformat.NotebookNode, grade_id: str) -> None:
    """Replace the learner's cell ``grade_id`` with the solution's source, as a learner would type it."""
    source = {grade_id_of(c): c.source for c in solution.cells}[grade_id]
    cell = next(c for c in student.cells if grade_id_of(c) == grade_id)
    cell.source = source


def add_solved(folder: Path) -> None:
    for name in (P2, P3, P4):
        target = folder / "solved" / name / f"{name}.ipynb"
        target.parent.mkdir(parents=True)
        shutil.copy(solution_path(name), target)


def add_untouched(folder: Path) -> None:
    (folder / "untouched").mkdir(parents=True)
    shutil.copy(student_path(P2), folder / "untouched" / "part2.ipynb")
    shutil.copy(student_path(P3), folder / "untouched" / "part3.ipynb")
    shutil.copy(student_path(P4), folder / "untouched" / "part4.ipynb")


#: A cell that shows what a kernel sees of the instructor's settings (grade_class sets a secret).
ENV_PROBE = ('import os\nprint("kernel env:", os.environ.get("ORACLE_ADMIN_PASSWORD"), os.environ.get("LITELLM_MODE"), '
             'os.environ.get("WORKSHOP_NO_DOTENV"))')


#: Ends the warm parent of the clean re-runs from inside one (never a kernel's parent, never the grader).
KILL_THE_WARM_PARENT = (
    "import os, signal\n"
    "try:\n"
    "    warm = b'--warm' in open(f'/proc/{os.getppid()}/cmdline', 'rb').read()\n"
    "except OSError:\n"
    "    warm = False\n"
    "if warm:\n"
    "    os.kill(os.getppid(), signal.SIGKILL)\n")


def add_one_todo(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(str(student_path(P3)), as_version=4)
    paste_solution(nb, nbformat.read(str(solution_path(P3)), as_version=4), "todo3")
    todo3 = next(c for c in nb.cells if grade_id_of(c) == "todo3")
    todo3.source = KILL_THE_WARM_PARENT + todo3.source
    check2 = next(c for c in nb.cells if grade_id_of(c) == "check_todo2")
    check2.source = 'print("TODO 2 passed — retrieve_knowledge")'  # tampering must not earn points
    nb.cells.append(nbformat.v4.new_code_cell(ENV_PROBE))
    nb.cells.append(nbformat.v4.new_code_cell("ratio = 1 / 0"))
    nbformat.write(nb, str(folder / f"one_todo_{P3}.ipynb"))


def add_crasher(folder: Path) -> None:
    crash = nbformat.read(str(solution_path(P3)), as_version=4)
    crash.cells.insert(3, nbformat.v4.new_code_cell("import os\nos._exit(3)  # the kernel dies"))
    (folder / "crasher").mkdir(parents=True)
    nbformat.write(crash, str(folder / "crasher" / "retrieval.ipynb"))


#: Ends the kernel's parent when that is a grading worker (multiprocessing's spawn), never the grader itself.
KILL_THE_GRADING_WORKER = (
    "import os, signal\n"
    "try:\n"
    "    worker = b'spawn_main' in open(f'/proc/{os.getppid()}/cmdline', 'rb').read()\n"
    "except OSError:\n"
    "    worker = False\n"
    "if worker:\n"
    "    os.kill(os.getppid(), signal.SIGKILL)\n")


def add_worker_killer(folder: Path) -> None:
    nb = nbformat.read(str(student_path(P2)), as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(KILL_THE_GRADING_WORKER))
    (folder / "worker_killer").mkdir(parents=True)
    nbformat.write(nb, str(folder / "worker_killer" / f"{P2}.ipynb"))


def grade_class(base: Path, *builders, jobs: int = 1, feedback: bool = False) -> dict:
    """Build a class folder from ``builders`` and grade it once with grade_command (fail-under 50 %);
    with ``feedback``, the learners' feedback pages go to ``base / "feedback"``."""
    folder = base / "class"
    for build in builders:
        build(folder)
    return grade_folder(base, jobs=jobs, feedback=feedback)


def grade_folder(base: Path, *, jobs: int = 1, feedback: bool = False, regrade: bool = False,
                 csv_name: str = "grades.csv") -> dict:
    """Grade ``base / "class"`` with grade_command, nbgrader's course kept in ``base / "course"``."""
    out, err = io.StringIO(), io.StringIO()
    mp = pytest.MonkeyPatch()
    mp.setenv("WORKSHOP_HOME", str(base / "unused-home"))  # grading must not touch the caller's home
    mp.setenv("WORKSHOP_BACKEND", "lite")
    mp.setenv("ORACLE_ADMIN_PASSWORD", "the-instructors-secret")   # learners' kernels must not see it
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = grading.grade_command(base / "class", fail_under=50, csv_path=base / "out" / csv_name,
                                         workdir=base / "course", jobs=jobs, regrade=regrade,
                                         feedback=base / "feedback" if feedback else None)
    finally:
        mp.undo()
    with open(base / "out" / csv_name, newline="", encoding="utf-8") as handle:
        rows = {row["learner"]: row for row in csv.DictReader(handle)}
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue(), "rows": rows,
            "course": base / "course", "home": base / "unused-home", "feedback": base / "feedback",
            "base": base}


def executed(graded: dict, learner: str, name: str) -> nbformat.NotebookNode:
    """The notebook nbgrader executed for ``learner``."""
    return nbformat.read(str(graded["course"] / "autograded" / learner / name / f"{name}.ipynb"), as_version=4)


def outputs_text(cell) -> str:
    """What a cell printed or displayed (streams and text/plain), joined."""
    return "\n".join(o.text if o.output_type == "stream" else str(o.get("data", {}).get("text/plain", ""))
                     for o in cell.get("outputs", []))


def errors(nb) -> dict[str | None, str]:
    """grade id (or "cell i") -> "Ename: value" for every cell that raised."""
    return {(grade_id_of(c) or f"cell {i}"): f"{o.ename}: {o.evalue}" for i, c in enumerate(nb.cells)
            for o in c.get("outputs", []) if o.output_type == "error"}




def gradebook_scores(graded: dict) -> dict[tuple[str, str], float]:
    """(learner, grade id) -> the score nbgrader's gradebook holds (what formgrader and `nbgrader export` show)."""
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{graded['course'] / 'gradebook.db'}") as gb:
        for student in gb.students:
            for submission in student.submissions:
                for notebook in submission.notebooks:
                    for grade in notebook.grades:
                        scores[(student.id, grade.name)] = grade.score
    return scores


def assert_gradebook_agrees_with_the_csv(graded: dict) -> None:
    """Every submitted TODO's score in the gradebook is the one in grades.csv (the clean re-run's, which counts)."""
    from workshop_lib import todos

    held = gradebook_scores(graded)
    compared = 0
    for learner, row in graded["rows"].items():
        for todo in todos.TODOS:
            key = (learner, f"check_todo{todo.number}")
            if key in held:
                assert float(row[f"TODO {todo.number}"]) == held[key], (key, row, held[key])
                compared += 1
    assert compared, held
