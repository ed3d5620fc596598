"""Release the student notebooks: ``python -m workshop_lib.release`` (``make release``).

The source of truth is ``solutions/<assignment>/<assignment>.ipynb``. Authors
never write nbgrader metadata by hand; they start a code cell with a marker
comment and this module derives the metadata (nbgrader schema v3) from it:

``# TODO n``                 the learner's answer: a solution cell; the code between
                             ``### BEGIN SOLUTION`` and ``### END SOLUTION`` is
                             replaced by a stub that raises NotImplementedError.
``# CHECK n (p points)``     the locked, autograded check of TODO n, worth p points;
                             ``### BEGIN HIDDEN TESTS`` blocks are removed for learners.
``# SETUP``                  a locked, read-only cell (the connect-and-catch-up cell);
                             the autograder restores its source before running.

``release()`` rewrites the source notebooks with that metadata (outputs
cleared, kernelspec ``python3``) and runs nbgrader's ``GenerateAssignment``
converter without a database to write ``notebooks/<assignment>/<assignment>.ipynb``.
``release(check=True)`` (``--check``) writes nothing and fails when either
folder differs from what a release would produce.
"""

from __future__ import annotations

import argparse
import copy
import logging
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import nbformat
from nbformat import NotebookNode
from nbconvert.preprocessors import Preprocessor
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from .errors import WorkshopError
from .todos import Todo, check_grade_id, for_notebook, todo_grade_id

REPO_ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIR = "solutions"
RELEASE_DIR = "notebooks"
CONFIG_FILE = "nbgrader_config.py"

KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
SCHEMA_VERSION = 3

_TODO = re.compile(r"^#\s*TODO\s+(\d+)\b")
_CHECK = re.compile(r"^#\s*CHECK\s+(\d+)\b")
_CHECK_POINTS = re.compile(r"^#\s*CHECK\s+\d+\s*\(\s*(\d+(?:\.\d+)?)\s*points?\s*\)", re.IGNORECASE)
_SETUP = re.compile(r"^#\s*SETUP\b")
_CELL_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class ReleaseError(WorkshopError):
    """A source notebook's markers are inconsistent, or the release cannot be written."""


@dataclass(frozen=True)
class Marker:
    """What a cell's first line declares: kind ('todo', 'check', 'setup'), TODO number, points."""

    kind: str
    number: int | None = None
    points: float | None = None


def parse_marker(source: str, registered: dict[int, Todo] | None = None) -> Marker | None:
    """The marker on the first line of a code cell's source, or None for an ordinary cell.

    A check's points come from the marker (``# CHECK 1 (3 points)``) or, for
    a TODO in ``registered`` (number -> :class:`~workshop_lib.todos.Todo`),
    from the registry; when both are given they must agree. A check of an
    unregistered TODO must state its points.
    """
    registered = registered or {}
    first = source.lstrip("\n").split("\n", 1)[0].strip()
    if match := _TODO.match(first):
        return Marker("todo", int(match.group(1)))
    if match := _CHECK.match(first):
        number = int(match.group(1))
        stated = _CHECK_POINTS.match(first)
        known = registered.get(number)
        if known is None:
            if stated is None:
                raise ReleaseError(f"{first!r}: a check marker must state its points, e.g. '# CHECK 1 (3 points)'.")
            return Marker("check", number, float(stated.group(1)))
        if stated is not None and float(stated.group(1)) != known.points:
            raise ReleaseError(f"{first!r}: the marker says {stated.group(1)} points, workshop_lib/todos.py "
                               f"says TODO {number} is worth {known.points}; change one so they agree.")
        return Marker("check", number, float(known.points))
    if _SETUP.match(first):
        return Marker("setup")
    return None


def _nbgrader_meta(grade: bool, solution: bool, locked: bool, grade_id: str,
                   points: float | None = None) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": SCHEMA_VERSION,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = int(points) if float(points).is_integer() else points
    return meta


class ResetMetadata(Preprocessor):
    """Notebook metadata becomes the ``python3`` kernelspec; per-cell UI state and old nbgrader metadata go."""

    def preprocess(self, nb: NotebookNode, resources: dict) -> tuple[NotebookNode, dict]:
        nb.metadata = nbformat.from_dict({"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}})
        nb.nbformat, nb.nbformat_minor = 4, 5
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        cell.metadata.pop("nbgrader", None)
        for key in ("deletable", "editable", "collapsed", "scrolled", "execution", "ExecuteTime"):
            cell.metadata.pop(key, None)
        return cell, resources


class AssignCellIds(Preprocessor):
    """Missing, invalid or duplicate cell ids become stable ``<assignment>-NNN`` ids."""

    def preprocess(self, nb: NotebookNode, resources: dict) -> tuple[NotebookNode, dict]:
        resources["seen_ids"] = set()
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        seen = resources["seen_ids"]
        cell_id = cell.get("id")
        if not cell_id or not _CELL_ID.match(cell_id) or cell_id in seen:
            cell["id"] = f"{resources['slug']}-{index:03d}"
        seen.add(cell["id"])
        return cell, resources


class ClearOutputs(Preprocessor):
    """Code cells lose their outputs and execution counts (notebooks ship without outputs)."""

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        return cell, resources


class MarkGradedCells(Preprocessor):
    """Marker comments become nbgrader metadata, checked against the TODO registry.

    For an assignment registered in :mod:`workshop_lib.todos`, its cells must
    declare exactly the registered TODOs, and a ``# CHECK n (p points)``
    marker's points must agree with the registry (``# CHECK n`` alone takes
    the registry's points). An unregistered assignment (a notebook being
    written) must state its points on every check marker.
    """

    def preprocess(self, nb: NotebookNode, resources: dict) -> tuple[NotebookNode, dict]:
        assignment = resources["assignment"]
        registered = {t.number: t for t in for_notebook(assignment)}
        todos: set[int] = set()
        checks: set[int] = set()
        setups = 0
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            where = f"{assignment}, cell {index + 1}"
            marker = parse_marker(cell.source, registered)
            if marker is None:
                if "BEGIN SOLUTION" in cell.source or "BEGIN HIDDEN TESTS" in cell.source:
                    raise ReleaseError(f"{where}: has a BEGIN SOLUTION/HIDDEN TESTS block but no '# TODO n' or "
                                       "'# CHECK n (p points)' marker on its first line.")
                continue
            if marker.kind == "todo":
                if marker.number in todos:
                    raise ReleaseError(f"{where}: TODO {marker.number} appears twice.")
                if "### BEGIN SOLUTION" not in cell.source or "### END SOLUTION" not in cell.source:
                    raise ReleaseError(f"{where}: TODO {marker.number} needs a ### BEGIN SOLUTION ... "
                                       "### END SOLUTION block (the part learners write).")
                todos.add(marker.number)
                cell.metadata["nbgrader"] = _nbgrader_meta(False, True, False, todo_grade_id(marker.number))
            elif marker.kind == "check":
                if marker.number not in todos:
                    raise ReleaseError(f"{where}: CHECK {marker.number} has no '# TODO {marker.number}' cell "
                                       "before it.")
                if marker.number in checks:
                    raise ReleaseError(f"{where}: CHECK {marker.number} appears twice.")
                checks.add(marker.number)
                cell.metadata["nbgrader"] = _nbgrader_meta(True, False, True, check_grade_id(marker.number),
                                                           marker.points)
            else:
                setups += 1
                grade_id = f"setup_{resources['slug']}" + (f"_{setups}" if setups > 1 else "")
                cell.metadata["nbgrader"] = _nbgrader_meta(False, False, True, grade_id)
        missing = sorted(todos - checks)
        if missing:
            raise ReleaseError(f"{assignment}: TODO {missing[0]} has no '# CHECK {missing[0]} (p points)' cell.")
        if registered and todos != set(registered):
            raise ReleaseError(
                f"{assignment}: workshop_lib/todos.py registers TODO(s) {sorted(registered)} for this notebook, "
                f"its cells declare {sorted(todos)}; make them agree (add the cells or change the registry).")
        return nb, resources


#: The steps of :func:`annotate`, in order (nbconvert preprocessors, as nbgrader's own converters use).
ANNOTATE_STEPS: tuple[type[Preprocessor], ...] = (ResetMetadata, AssignCellIds, ClearOutputs, MarkGradedCells)


def annotate(nb: NotebookNode, assignment: str,
             steps: Sequence[type[Preprocessor]] = ANNOTATE_STEPS) -> NotebookNode:
    """A copy of source notebook ``nb`` with nbgrader metadata derived from its markers.

    Runs ``steps`` (by default :data:`ANNOTATE_STEPS`): existing nbgrader
    metadata is discarded and recomputed, outputs and execution counts are
    cleared, notebook metadata is reduced to the ``python3`` kernelspec, and
    missing or duplicate cell ids are replaced with stable ones. Raises
    ReleaseError when a TODO has no solution region, a check has no TODO
    before it, a marker is repeated, or the markers disagree with the TODO
    registry.
    """
    nb = copy.deepcopy(nb)
    slug = re.sub(r"[^a-zA-Z0-9]+", "-", assignment).strip("-")[:40] or "nb"
    resources: dict = {"assignment": assignment, "slug": slug}
    for step in steps:
        nb, resources = step().preprocess(nb, resources)
    return nb


def load_nbgrader_config(root: Path = REPO_ROOT) -> Config:
    """The settings in ``<root>/nbgrader_config.py`` (an empty Config when the file is absent)."""
    path = Path(root) / CONFIG_FILE
    if not path.is_file():
        return Config()
    return PyFileConfigLoader(CONFIG_FILE, path=str(root)).load_config()


def assignments(root: Path = REPO_ROOT) -> list[str]:
    """Assignment names: folders ``solutions/<name>/`` holding ``<name>.ipynb``, sorted."""
    source = Path(root) / SOURCE_DIR
    if not source.is_dir():
        raise ReleaseError(f"No {SOURCE_DIR}/ folder under {root}: run this from a source checkout.")
    return sorted(p.name for p in source.iterdir() if (p / f"{p.name}.ipynb").is_file())


def read_notebook(path: Path) -> NotebookNode:
    """Read a notebook as nbformat v4 (a clear ReleaseError when it is not valid JSON)."""
    try:
        return nbformat.read(str(path), as_version=4)
    except Exception as exc:  # nbformat raises several unrelated types for bad files
        raise ReleaseError(f"Cannot read notebook {path}: {exc}") from exc


def dumps(nb: NotebookNode) -> str:
    """The exact text written for ``nb`` (nbformat's layout plus a final newline)."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def _quiet_logger() -> logging.Logger:
    log = logging.getLogger("workshop_lib.release.nbgrader")
    log.setLevel(logging.WARNING)
    return log


def generate_student(annotated: NotebookNode, assignment: str, root: Path = REPO_ROOT) -> NotebookNode:
    """The student version of an annotated source notebook, made by nbgrader's GenerateAssignment.

    Runs in a throw-away course directory with no gradebook (as
    ``nbgrader generate_assignment --no-db``): solutions become stubs, hidden
    tests and outputs are removed, graded and read-only cells are locked, and
    checksums are recorded for the autograder.
    """
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory

    config = load_nbgrader_config(root)
    config.GenerateAssignment.no_database = True
    config.SaveCells.enabled = False
    with tempfile.TemporaryDirectory(prefix="workshop-release-") as tmp:
        src = Path(tmp) / "source" / assignment
        src.mkdir(parents=True)
        (src / f"{assignment}.ipynb").write_text(dumps(annotated), encoding="utf-8")
        course = CourseDirectory(config=config, root=tmp, source_directory="source",
                                 release_directory="release")
        course.assignment_id = assignment
        converter = GenerateAssignment(coursedir=course, config=config, log=_quiet_logger())
        try:
            converter.start()
        except Exception as exc:
            raise ReleaseError(f"nbgrader could not generate the student version of {assignment}: {exc}") from exc
        student = read_notebook(Path(tmp) / "release" / assignment / f"{assignment}.ipynb")
    student.metadata = nbformat.from_dict({"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}})
    return student


def build(root: Path = REPO_ROOT) -> dict[Path, str]:
    """Every file a release writes (annotated sources and student notebooks) mapped to its text."""
    root = Path(root)
    files: dict[Path, str] = {}
    names = assignments(root)
    if not names:
        raise ReleaseError(f"No notebooks found under {root / SOURCE_DIR}/<assignment>/<assignment>.ipynb.")
    for name in names:
        source_path = root / SOURCE_DIR / name / f"{name}.ipynb"
        annotated = annotate(read_notebook(source_path), name)
        files[source_path] = dumps(annotated)
        files[root / RELEASE_DIR / name / f"{name}.ipynb"] = dumps(generate_student(annotated, name, root))
    return files


def stale_releases(root: Path = REPO_ROOT) -> list[Path]:
    """Released notebooks whose assignment no longer exists in solutions/."""
    root = Path(root)
    release = root / RELEASE_DIR
    known = set(assignments(root))
    if not release.is_dir():
        return []
    return sorted(p / f"{p.name}.ipynb" for p in release.iterdir()
                  if (p / f"{p.name}.ipynb").is_file() and p.name not in known)


def release(root: Path = REPO_ROOT, *, check: bool = False, echo=print) -> int:
    """Regenerate (or with ``check=True`` only verify) solutions' metadata and notebooks/; returns an exit code.

    In check mode nothing is written: each out-of-date file is listed and the
    result is 1, telling the author to run ``make release``.
    """
    root = Path(root)
    files = build(root)
    changed = [p for p, text in files.items()
               if not p.is_file() or p.read_text(encoding="utf-8") != text]
    orphans = stale_releases(root)
    if check:
        if not changed and not orphans:
            echo(f"release is up to date ({len(files) // 2} notebooks)")
            return 0
        for path in changed:
            echo(f"out of date: {path.relative_to(root)}")
        for path in orphans:
            echo(f"no source notebook for: {path.relative_to(root)}")
        echo("Run `make release` (python -m workshop_lib.release) and commit the result.")
        return 1
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
        echo(f"wrote {path.relative_to(root)}")
    for path in orphans:
        shutil.rmtree(path.parent)
        echo(f"removed {path.parent.relative_to(root)} (no source notebook)")
    if not changed and not orphans:
        echo("release is up to date; nothing written")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m workshop_lib.release [--check] [--root DIR]``."""
    parser = argparse.ArgumentParser(prog="python -m workshop_lib.release",
                                     description="Generate notebooks/ (student versions) from solutions/.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when notebooks/ or the solutions' metadata are out of date")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the course directory (default: the repo)")
    args = parser.parse_args(argv)
    try:
        return release(args.root, check=args.check)
    except ReleaseError as exc:
        print(f"release: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
