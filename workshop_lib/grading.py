"""Autograde submitted workshop notebooks with nbgrader: ``workshop grade <folder>``.

A submissions folder may hold one notebook per learner (``alice.ipynb``,
``bob_03_retrieval.ipynb``), a folder per learner (``alice/*.ipynb``) or an
nbgrader class folder (``alice/03_retrieval/03_retrieval.ipynb``). Each
notebook's assignment is recognised from its nbgrader cell ids (or its name).

Grading runs nbgrader's own converters in a throw-away course directory:
``GenerateAssignment`` registers the source notebooks (solutions/, with their
hidden tests) in a fresh gradebook, then ``Autograde`` restores the locked
cells, executes each submission and records the scores, which are read back
from the gradebook. Every submission runs against its own copy of a prepared
lite ``WORKSHOP_HOME``, so one learner's code cannot change what another's is
graded against. ``nbgrader validate`` is not used: it exits 0 even when tests
fail.

The notebook run gives the feedback; the **score** comes from
:mod:`workshop_lib.clean_grade`: each submission's TODO cells re-run in a fresh
process by check functions kept before any learner code ran, so nothing a
notebook cell does to its kernel changes the points. A TODO cell that could
still tamper (IPython, ``sys.modules``, the checks, the reference code, ...) is
flagged for review in the table's ``review`` column, and a difference between
the two runs is noted.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import nbformat

from .errors import WorkshopError
from .release import (REPO_ROOT, SOURCE_DIR, annotate, assignments, dumps, load_nbgrader_config,
                      read_notebook)
from .clean_grade import NO_DOTENV as _NO_DOTENV
from .clean_grade import SECRET_VARIABLES as _SECRET_VARIABLES
from . import grade_results
from .clean_grade import CleanResult, clean_grade, warm_parent
from .todos import by_grade_id, todo_grade_id

_SAFE_ID = re.compile(r"[^A-Za-z0-9_.@-]+")


class GradingError(WorkshopError):
    """The submissions cannot be graded as given (unknown notebook, duplicate, empty folder...)."""


@dataclass(frozen=True)
class Submission:
    """One submitted notebook: whose it is, which assignment it answers, where it is."""

    learner: str
    assignment: str
    path: Path


@dataclass
class TodoScore:
    """The autograder's score for one TODO's check cell, and why it lost points."""

    score: float
    max_score: float
    error: str | None = None
    flags: list[str] = field(default_factory=list)   # why the instructor should look at the TODO cell


@dataclass
class LearnerGrades:
    """One learner's scores per TODO label (e.g. 'TODO 2'), plus notes for the instructor."""

    learner: str
    todos: dict[str, TodoScore] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        """Points earned over all TODOs."""
        return sum(t.score for t in self.todos.values())

    @property
    def max_total(self) -> float:
        """Points available over all TODOs graded in this run."""
        return sum(t.max_score for t in self.todos.values())

    @property
    def percent(self) -> float:
        """total / max_total in percent (100 when nothing was graded)."""
        return 100.0 * self.total / self.max_total if self.max_total else 100.0


@dataclass
class GradeReport:
    """The result of a grading run: TODO labels in order and one entry per learner."""

    todo_labels: list[str]
    learners: list[LearnerGrades]

    def table_rows(self) -> list[dict[str, object]]:
        """One dict per learner: learner, each TODO's score, total, max, percent, notes."""
        rows = []
        for grades in self.learners:
            row: dict[str, object] = {"learner": grades.learner}
            for label in self.todo_labels:
                todo = grades.todos.get(label)
                row[label] = None if todo is None else _num(todo.score)
            flagged = [label for label, todo in grades.todos.items() if todo.flags]
            row.update(total=_num(grades.total), max=_num(grades.max_total),
                       percent=round(grades.percent, 1), review=", ".join(flagged), notes="; ".join(grades.notes))
            rows.append(row)
        return rows

    def below(self, percent: float) -> list[str]:
        """Learners whose total is below ``percent`` of the points available."""
        return [entry.learner for entry in self.learners if entry.percent < percent]

    def to_text(self) -> str:
        """The per-learner, per-TODO table as fixed-width text (with points available in the headers)."""
        import pandas as pd

        maxima = self._maxima()
        frame = pd.DataFrame(self.table_rows())
        frame = frame.drop(columns=["notes"]).rename(
            columns={label: f"{label} (/{_num(maxima[label])})" for label in self.todo_labels})
        frame = frame.fillna("-")
        return frame.to_string(index=False)

    def write_csv(self, path: Path | str) -> Path:
        """Write grades.csv: learner, one column per TODO, total, max, percent, notes."""
        import pandas as pd

        path = Path(path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True)
        pd.DataFrame(self.table_rows()).to_csv(path, index=False)
        return path

    def _maxima(self) -> dict[str, float]:
        maxima: dict[str, float] = {}
        for grades in self.learners:
            for label, todo in grades.todos.items():
                maxima[label] = todo.max_score
        return maxima


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


# ----------------------------------------------------------------------------- the course
def _load_sources(root: Path) -> dict[str, nbformat.NotebookNode]:
    """Annotated source notebook of every assignment under ``root``/solutions."""
    return {name: annotate(read_notebook(Path(root) / SOURCE_DIR / name / f"{name}.ipynb"), name)
            for name in assignments(root)}


def graded_todos(source: nbformat.NotebookNode) -> list[tuple[str, str, float]]:
    """(grade_id, label, points) of each graded check cell in an annotated source notebook."""
    found = []
    for cell in source.cells:
        meta = cell.metadata.get("nbgrader", {})
        registered = by_grade_id(meta.get("grade_id", ""))
        if meta.get("grade") and registered is not None:
            found.append((meta["grade_id"], registered.label, float(meta.get("points", 0))))
    return found


def _cell_ids(nb: nbformat.NotebookNode) -> set[str]:
    return {c.metadata["nbgrader"]["grade_id"] for c in nb.cells
            if isinstance(c.metadata.get("nbgrader"), dict) and c.metadata["nbgrader"].get("grade_id")}


def identify_assignment(path: Path, sources: dict[str, nbformat.NotebookNode]) -> str:
    """Which assignment a submitted notebook answers: by its nbgrader cell ids, else by its file name.

    Raises GradingError naming the file and the known assignments when
    neither tells.
    """
    try:
        ids = _cell_ids(read_notebook(path))
    except WorkshopError as exc:
        raise GradingError(f"{path} is not a readable notebook: {exc}") from None
    overlap = {name: len(ids & _cell_ids(nb)) for name, nb in sources.items()}
    best = max(overlap.values(), default=0)
    if best > 0:
        winners = [name for name, n in overlap.items() if n == best]
        if len(winners) == 1:
            return winners[0]
    hints = " ".join([path.stem, path.parent.name])
    named = [name for name in sources if name in hints]
    if len(named) == 1:
        return named[0]
    raise GradingError(
        f"Cannot tell which assignment {path} answers: it has none of the workshop's nbgrader cells and its "
        f"name mentions none of {', '.join(sources)}. Rename it to include the assignment, e.g. "
        f"alice_{next(iter(sources), '02_memory_and_scanner')}.ipynb.")


def _learner_from_file(path: Path, assignment: str) -> str:
    stem = path.stem.replace(assignment, "")
    stem = stem.strip(" _-.")
    if not stem:
        raise GradingError(f"{path}: the file name is just the assignment name; put each learner's notebooks "
                           "in a folder named after the learner, or name the file <learner>.ipynb.")
    return stem


def _notebooks_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts and not p.name.startswith("."))


def find_submissions(folder: Path | str, root: Path = REPO_ROOT) -> list[Submission]:
    """Every submitted notebook under ``folder`` with its learner and assignment.

    ``folder`` may also be a single notebook. A learner is the first folder
    level under ``folder`` or, for notebooks lying directly in it, the file
    name (minus the assignment name, if present). Two notebooks of one
    learner for one assignment are an error.
    """
    folder = Path(folder)
    sources = _load_sources(root)
    if folder.is_file():
        assignment = identify_assignment(folder, sources)
        return [Submission(_learner_from_file(folder, assignment), assignment, folder)]
    if not folder.is_dir():
        raise GradingError(f"No submissions folder {folder}: pass a folder of submitted notebooks "
                           "(one per learner, or <learner>/<assignment>/<assignment>.ipynb).")
    found: dict[tuple[str, str], Submission] = {}
    for path in _notebooks_under(folder):
        relative = path.relative_to(folder)
        assignment = identify_assignment(path, sources)
        learner = relative.parts[0] if len(relative.parts) > 1 else _learner_from_file(path, assignment)
        key = (learner, assignment)
        if key in found:
            raise GradingError(f"Learner {learner!r} has two notebooks for {assignment}: {found[key].path} and "
                               f"{path}. Keep one of them.")
        found[key] = Submission(learner, assignment, path)
    if not found:
        raise GradingError(f"No notebooks (*.ipynb) found under {folder}.")
    return sorted(found.values(), key=lambda s: (s.learner, s.assignment))


# ----------------------------------------------------------------------------- environment
@contextlib.contextmanager
def _environ(**values: str | None) -> Iterator[None]:
    """Set (or with None, remove) environment variables for the duration of a block (kernels inherit them)."""
    saved = {key: os.environ.get(key) for key in values}
    for key, value in values.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def prepare_home(home: Path) -> Path:
    """Bring a lite WORKSHOP_HOME fully up to date (model, seed, memory, scan) with ``workshop setup``.

    It runs in a child process, exactly as a learner's first cell would, so
    this process keeps no connection, model session or current workshop.
    Raises GradingError with the command's last output lines when it fails.
    """
    home = Path(home)
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "WORKSHOP_HOME": str(home), "WORKSHOP_BACKEND": "lite"}
    command = [sys.executable, "-m", "workshop_lib.cli", "setup", "--backend", "lite", "--upto", "scan"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise GradingError(f"Could not prepare a lite workshop in {home} for grading "
                           f"(`workshop setup --upto scan` exited {done.returncode}):\n{tail}")
    return home


def _copy_home(template: Path, target: Path) -> Path:
    """A private copy of a prepared home: every file copied, so one learner's code can reach no one else's."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(template, target)
    return target


class _Collect(logging.Handler):
    """Keeps nbgrader's warnings and errors for the instructor's report instead of printing them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


# ----------------------------------------------------------------------------- grading
def _first_error_line(cell: nbformat.NotebookNode) -> str | None:
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            text = f"{output.get('ename')}: {output.get('evalue', '')}".strip()
            return text.splitlines()[0][:200]
        if output.get("output_type") == "stream" and output.get("name") == "stderr":
            return "wrote to stderr: " + output.get("text", "").strip().splitlines()[0][:180]
    return None


def _notes_for(executed: nbformat.NotebookNode) -> tuple[dict[str, str], list[str]]:
    """Errors of the graded cells by grade_id, and notes on other cells that raised."""
    check_errors: dict[str, str] = {}
    notes: list[str] = []
    for number, cell in enumerate(executed.cells, 1):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade"):
            error = _first_error_line(cell)
            if error:
                check_errors[meta["grade_id"]] = error
        elif meta.get("solution"):
            continue  # a TODO cell that raises is reported through its check
        else:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    first = next((line.strip() for line in cell.source.splitlines() if line.strip()), "")
                    notes.append(f"cell {number} ({first[:40]!r}) raised {output.get('ename')}")
                    break
    return check_errors, notes


def _failure_reason(records: list[str], exc: Exception) -> str:
    """The most telling line of nbgrader's log for a failed autograde: the traceback's last line."""
    for record in reversed(records):
        if "Traceback" in record:
            lines = [line for line in record.strip().splitlines() if line.strip()]
            if lines:
                return lines[-1].strip()[:200]
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def create_gradebook(db_url: str) -> None:
    """Create nbgrader's gradebook tables and alembic version stamp at ``db_url`` unless they exist.

    nbgrader's ``Gradebook`` does this itself on first use, but it learns the
    schema's alembic head by running the ``alembic`` command in a new process,
    which imports nbgrader (and nbformat, jsonschema...) again: 2.2 s per
    grading run. Here alembic's own API answers in this process, where
    nbgrader is already imported; the tables and stamp are the ones nbgrader
    would write, so it opens the database as an existing gradebook.
    """
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.api import Base
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(db_url, future=True)
    try:
        if inspect(engine).get_table_names():
            return
        config = Config()
        config.set_main_option("script_location", "nbgrader:alembic")
        head = ScriptDirectory.from_config(config).get_current_head()
        with engine.begin() as db:   # one transaction: a half-made gradebook is never left behind
            Base.metadata.create_all(bind=db)
            db.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)"))
            db.execute(text("INSERT INTO alembic_version (version_num) VALUES (:head)"), {"head": head})
    finally:
        engine.dispose()


def _comment_on_todo_cell(gb, number: int, name: str, learner_id: str, label: str, score: float, points: float,
                          error: str | None) -> None:
    """Say on the TODO cell (nbgrader's auto comment: formgrader and the feedback page show it) where its
    points came from, when the check cell's own output tells another story."""
    from nbgrader.api import MissingEntry

    try:
        comment = gb.find_comment(todo_grade_id(number), name, name, learner_id)
    except MissingEntry:
        return
    text = (f"{label}: the points come from a clean re-run of this cell with the genuine check, not from the "
            f"check cell's output in this notebook: {_num(score)} of {_num(points)}.")
    if error and score < points:
        text += f" {error.strip().splitlines()[0]}"
    comment.auto_comment = text


def _check_jobs(jobs: object) -> None:
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise GradingError(f"--jobs is how many submissions are graded at once: 1 or more, got {jobs!r}.")


class Grader:
    """One grading run: a temporary nbgrader course, a gradebook, and a prepared lite home.

    Use as a context manager; ``grade(submissions)`` returns a GradeReport.
    """

    def __init__(self, root: Path = REPO_ROOT, workdir: Path | None = None,
                 echo: Callable[[str], None] = print, *, jobs: int = 1, regrade: bool = False) -> None:
        _check_jobs(jobs)
        self.root = Path(root)
        self.echo = echo
        self.jobs = jobs
        self.regrade = regrade   # grade every submission again, even one a kept result covers (grade_results)
        self._tmp = None if workdir else tempfile.TemporaryDirectory(prefix="workshop-grade-")
        # absolute: nbgrader changes directory while converting, and the gradebook URL must still hold
        self.course = Path(workdir).resolve() if workdir else Path(self._tmp.name)
        self.course.mkdir(parents=True, exist_ok=True)
        # grading workers write to the gradebook at once: each waits up to a minute for SQLite's lock
        self.db_url = f"sqlite:///{self.course / 'gradebook.db'}?timeout=60"
        self.sources = _load_sources(self.root)
        self.config = load_nbgrader_config(self.root)
        self.log = logging.getLogger(f"workshop_lib.grading.nbgrader.{id(self)}")
        self.log.propagate = False
        self.log.setLevel(logging.INFO)
        self._collector = _Collect()
        self.log.addHandler(self._collector)
        self._template: Path | None = None
        self.graded: list[tuple[str, str]] = []   # (learner id, assignment) of each submission grade() ran
        self._runner = warm_parent(self.course)   # clean re-runs fork from it (started on first use)

    @classmethod
    def for_worker(cls, root: Path, course: Path, template: Path) -> "Grader":
        """A grader for one worker process of a parallel run: the same course folder, gradebook and lite home."""
        grader = cls(root, course)
        grader._template = template
        return grader

    def __enter__(self) -> "Grader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the temporary course directory (when this grader created it)."""
        self.log.removeHandler(self._collector)
        self._runner.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def coursedir(self, **ids: str):
        """nbgrader's CourseDirectory of this run, with ``ids`` (assignment_id, student_id) set."""
        from nbgrader.coursedir import CourseDirectory

        course = CourseDirectory(config=self.config, root=str(self.course), source_directory="source",
                                 release_directory="release", submitted_directory="submitted",
                                 autograded_directory="autograded", db_url=self.db_url)
        for key, value in ids.items():
            setattr(course, key, value)
        return course

    def register(self, names: list[str]) -> None:
        """Write the source notebooks and register them in the gradebook (nbgrader generate_assignment)."""
        from nbgrader.converters import GenerateAssignment

        create_gradebook(self.db_url)
        for name in names:
            target = self.course / "source" / name / f"{name}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(dumps(self.sources[name]), encoding="utf-8")
            course = self.coursedir(assignment_id=name)
            converter = GenerateAssignment(coursedir=course, config=self.config, log=self.log)
            converter.force = True
            self._collector.records.clear()
            try:
                converter.start()
            except Exception as exc:
                details = "\n".join(self._collector.records[-5:])
                raise GradingError(f"nbgrader could not register {name}: {exc}\n{details}") from exc

    def template_home(self) -> Path:
        """The prepared lite home every submission gets a copy of (built on first use)."""
        if self._template is None:
            started = time.perf_counter()
            self._template = prepare_home(self.course / "homes" / "_template")
            self.echo(f"prepared a lite workshop for grading in {time.perf_counter() - started:.1f} s")
        return self._template

    def autograde_one(self, submission: Submission, learner_id: str) -> tuple[dict[str, TodoScore], list[str]]:
        """Autograde one notebook; returns scores by grade_id and notes (never raises for learner errors)."""
        from nbgrader.api import Gradebook, MissingEntry
        from nbgrader.converters import Autograde

        name = submission.assignment
        target = self.course / "submitted" / learner_id / name / f"{name}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(submission.path, target)
        home = _copy_home(self.template_home(), self.course / "homes" / f"{learner_id}__{name}")
        course = self.coursedir(assignment_id=name, student_id=learner_id)
        converter = Autograde(coursedir=course, config=self.config, log=self.log)
        converter.force = True
        notes: list[str] = []
        failed = False
        self._collector.records.clear()
        try:
            with _environ(WORKSHOP_HOME=str(home), WORKSHOP_BACKEND="lite"):
                converter.start()
        except Exception as exc:  # nbgrader raises after logging; keep grading the others
            failed = True
            notes.append(f"{name}: autograding failed ({_failure_reason(self._collector.records, exc)})")
        finally:
            shutil.rmtree(home, ignore_errors=True)
        clean = self._clean(submission, learner_id)
        executed_path = self.course / "autograded" / learner_id / name / f"{name}.ipynb"
        check_errors: dict[str, str] = {}
        if executed_path.is_file():
            check_errors, cell_notes = _notes_for(read_notebook(executed_path))
            notes.extend(f"{name}: {note}" for note in cell_notes)
        if clean.failure:
            notes.append(f"{name}: {clean.failure}; the notebook run's score is used")
        scores: dict[str, TodoScore] = {}
        with Gradebook(self.db_url) as gb:
            for grade_id, label, points in graded_todos(self.sources[name]):
                try:
                    grade = gb.find_grade(grade_id, name, name, learner_id)
                except MissingEntry:   # nbgrader did not get as far as registering the submission
                    grade = None
                # a failed run may leave an older grade of this learner in a reused workdir
                notebook_score = 0.0 if failed or grade is None else float(grade.score or 0.0)
                number = by_grade_id(grade_id).number
                if clean.failure:
                    score, error = notebook_score, check_errors.get(grade_id)
                else:
                    score = clean.scores.get(number, 0.0)
                    error = clean.errors.get(number) or check_errors.get(grade_id)
                    if score != notebook_score:
                        notes.append(f"{label}: the notebook run scored {_num(notebook_score)}, the clean "
                                     f"re-run of the TODO cell {_num(score)} (the clean score counts)")
                        _comment_on_todo_cell(gb, number, name, learner_id, label, score, points, error)
                flags = clean.flags.get(number) or []
                if flags:
                    notes.append(f"{label}: REVIEW — the TODO cell {', '.join(flags)}")
                scores[grade_id] = TodoScore(score, points, error, flags)
                if grade is not None and grade.auto_score != score:
                    # the gradebook holds the score that counts, so formgrader, `nbgrader export` and
                    # feedback agree with grades.csv (an instructor's manual score still overrides it)
                    grade.auto_score = score
            gb.db.commit()
        return scores, notes

    def _clean(self, submission: Submission, learner_id: str) -> CleanResult:
        """The authoritative re-run of the submission's TODO cells (a warm parent's child, own home copy)."""
        name = submission.assignment
        home = _copy_home(self.template_home(), self.course / "homes" / f"{learner_id}__{name}__clean")
        try:
            return clean_grade(read_notebook(submission.path), self.sources[name], name, home,
                               runner=self._runner)
        except Exception as exc:  # noqa: BLE001 - an unreadable submission: fall back to the notebook run
            return CleanResult(failure=f"the clean re-run could not start ({type(exc).__name__}: {exc})")
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def _kept(self, items: list[tuple[Submission, str]],
              fingerprints: list[str]) -> dict[int, tuple[dict[str, TodoScore], list[str]]]:
        """The results an earlier run in this workdir kept for ``items`` that still hold, by index (grade_results).

        A kept result holds while its fingerprint matches and the gradebook still
        has the submission (formgrader, export and feedback read it there).
        """
        from nbgrader.api import Gradebook, MissingEntry

        kept = {index: result for index, ((submission, learner_id), key) in enumerate(zip(items, fingerprints))
                if (result := grade_results.load(self.course, learner_id, submission.assignment, key,
                                                 TodoScore)) is not None}
        if kept:
            with Gradebook(self.db_url) as gb:   # one session for them all
                for index in list(kept):
                    submission, learner_id = items[index]
                    try:
                        gb.find_submission(submission.assignment, learner_id)
                    except MissingEntry:
                        del kept[index]
        return kept

    def _grade_at_once(self, items: list[tuple[Submission, str]],
                       finished: Callable[..., None]) -> tuple[list[int], str]:
        """Grade ``items`` in ``self.jobs`` worker processes (:mod:`workshop_lib.grade_workers`)."""
        from functools import partial

        from nbgrader.api import Gradebook

        from .grade_workers import grade_at_once

        # made here, once: two workers grading one learner's notebooks would both try to add the learner
        with Gradebook(self.db_url, self.coursedir().course_id) as gb:
            for learner_id in sorted({learner_id for _s, learner_id in items}):
                gb.update_or_create_student(learner_id)
        make = partial(Grader.for_worker, self.root, self.course, self.template_home())
        self.echo(f"grading {len(items)} submissions, {min(self.jobs, len(items))} at a time")
        return grade_at_once(items, self.jobs, make, finished)

    def grade(self, submissions: list[Submission]) -> GradeReport:
        """Autograde every submission and collect a per-learner, per-TODO report."""
        graded = [name for name in self.sources if graded_todos(self.sources[name])]
        present = sorted({s.assignment for s in submissions})
        for name in present:
            if name not in graded:
                self.echo(f"{name} has no graded cells: its submissions are not executed")
        present = [name for name in present if name in graded]
        labels: list[tuple[str, str, str, float]] = [
            (name, grade_id, label, points) for name in present for grade_id, label, points in
            graded_todos(self.sources[name])]
        self.register(present)
        learners: dict[str, LearnerGrades] = {}
        ids: dict[str, str] = {}
        for submission in submissions:
            learners.setdefault(submission.learner, LearnerGrades(submission.learner))
            if submission.learner not in ids:
                base = _SAFE_ID.sub("_", submission.learner).strip("_.") or "learner"
                candidate, n = base, 1
                while candidate in ids.values():
                    n += 1
                    candidate = f"{base}_{n}"
                ids[submission.learner] = candidate
        items = [(s, ids[s.learner]) for s in submissions if s.assignment in present]
        self.graded = [(learner_id, s.assignment) for s, learner_id in items]
        library = grade_results.library_digest(self.root)
        fingerprints = [grade_results.fingerprint(s.path, dumps(self.sources[s.assignment]), library)
                        for s, _ in items]
        results: dict[int, tuple[dict[str, TodoScore], list[str]]] = {}

        def score_line(index: int, scores: dict[str, TodoScore]) -> str:
            submission = items[index][0]
            got = sum(s.score for s in scores.values())
            out_of = sum(s.max_score for s in scores.values())
            return f"{submission.learner} / {submission.assignment}: {_num(got)}/{_num(out_of)}"

        def finished(index: int, scores: dict[str, TodoScore], notes: list[str], seconds: float) -> None:
            results[index] = scores, notes
            submission, learner_id = items[index]
            grade_results.save(self.course, learner_id, submission.assignment, fingerprints[index], scores, notes)
            self.echo(f"graded {score_line(index, scores)} ({seconds:.1f} s)")

        kept = {} if self.regrade else self._kept(items, fingerprints)
        for index, result in sorted(kept.items()):
            results[index] = result
            self.echo(f"unchanged since the last run: {score_line(index, result[0])}")
        todo = [index for index in range(len(items)) if index not in kept]
        if self.jobs > 1 and len(todo) > 1:
            left_of_todo, broken = self._grade_at_once([items[i] for i in todo],
                                                       lambda i, *result: finished(todo[i], *result))
            left = [todo[i] for i in left_of_todo]
        else:
            left, broken = todo, ""
        for index in left:
            started = time.perf_counter()
            scores, notes = self.autograde_one(*items[index])
            if broken:
                notes.insert(0, f"{items[index][0].assignment}: graded without workers, as a grading worker "
                                f"ended before this submission was done ({broken})")
            finished(index, scores, notes, time.perf_counter() - started)
        done: set[tuple[str, str]] = set()
        for index, (submission, _learner_id) in enumerate(items):   # in submission order, whatever finished first
            scores, notes = results[index]
            entry = learners[submission.learner]
            entry.notes.extend(notes)
            for name, grade_id, label, _points in labels:
                if name == submission.assignment:
                    entry.todos[label] = scores[grade_id]
            done.add((submission.learner, submission.assignment))
        for learner, entry in learners.items():
            for name, _grade_id, label, points in labels:
                if (learner, name) not in done:
                    entry.todos[label] = TodoScore(0.0, points, "not submitted")
                    note = f"{name}: not submitted"
                    if note not in entry.notes:
                        entry.notes.append(note)
        ordered = [label for _n, _g, label, _p in labels]
        return GradeReport(ordered, [learners[k] for k in sorted(learners)])


def autograde(folder: Path | str, root: Path = REPO_ROOT, echo: Callable[[str], None] = print, *,
              workdir: Path | str | None = None, jobs: int = 1,
              feedback: Path | str | None = None, regrade: bool = False) -> GradeReport:
    """Find and autograde every submission under ``folder``; returns the GradeReport.

    With ``workdir`` the nbgrader course (gradebook.db, and the executed
    notebooks under autograded/<learner>/<assignment>/) is kept there;
    otherwise it is a temporary folder removed afterwards, and a later run
    with the same ``workdir`` reuses the result of every submission that has
    not changed (:mod:`workshop_lib.grade_results`; ``regrade`` grades all
    again). ``jobs`` > 1
    grades that many submissions at once in worker processes
    (:mod:`workshop_lib.grade_workers`); the grades are the same. With
    ``feedback`` each learner's HTML feedback is written there
    (:mod:`workshop_lib.feedback`: ``<learner id>/<assignment>.html``).
    """
    submissions = find_submissions(folder, root)
    # create_gradebook spares nbgrader its `alembic` command; should nbgrader still run it, it is next to Python.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    workdir = Path(workdir) if workdir is not None else None
    # learners' code runs without the instructor's database credentials (environment or .env)
    hidden = {key: None for key in _SECRET_VARIABLES}
    with _environ(PATH=path, **_NO_DOTENV, **hidden), \
            Grader(root, workdir, echo=echo, jobs=jobs, regrade=regrade) as grader, warnings.catch_warnings():
        # nbgrader's gradebook trips SQLAlchemy's autoflush warnings on every new submission; harmless.
        from sqlalchemy.exc import SAWarning

        warnings.simplefilter("ignore", SAWarning)
        report = grader.grade(submissions)
        if feedback is not None:
            from .feedback import write_feedback

            pages = write_feedback(grader, grader.graded, feedback, echo=echo)
            echo(f"feedback: {len(pages)} page{'s' if len(pages) != 1 else ''} written to {feedback}")
        return report


def grade_command(submissions: str | Path, fail_under: float | None = None, csv_path: str | Path = "grades.csv",
                  *, workdir: Path | str | None = None, jobs: int | None = None,
                  feedback: Path | str | None = None, regrade: bool = False) -> int:
    """``workshop grade``: autograde a folder, print the table, write ``csv_path``; returns the exit code.

    ``fail_under`` is a percentage (0–100) of the points available: the exit
    code is 1 when any learner's total is below it, else 0. Learner code that
    raises, loops or breaks its notebook costs that learner points but never
    stops the run; folders that cannot be graded at all raise GradingError.
    ``workdir`` keeps nbgrader's course folder, and the results a later run
    reuses unless ``regrade`` (see :func:`autograde`);
    ``jobs`` is how many submissions are graded at once (default: the usable
    cores, at most 4); ``feedback`` a folder for the learners' HTML feedback.
    """
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise GradingError(f"--fail-under is a percentage between 0 and 100, got {fail_under}.")
    if jobs is None:
        from .grade_workers import default_jobs

        jobs = default_jobs()
    _check_jobs(jobs)
    report = autograde(submissions, workdir=workdir, jobs=jobs, feedback=feedback, regrade=regrade)
    print()
    print(report.to_text())
    for entry in report.learners:
        for label in report.todo_labels:
            todo = entry.todos.get(label)
            if todo is not None and todo.score < todo.max_score and todo.error:
                print(f"  {entry.learner} {label}: {todo.error}")
        for note in entry.notes:
            if "not submitted" not in note:
                print(f"  {entry.learner}: {note}")
    path = report.write_csv(csv_path)
    print(f"grades written to {path}")
    if fail_under is not None:
        below = report.below(fail_under)
        if below:
            print(f"below {fail_under:g}%: {', '.join(below)}", file=sys.stderr)
            return 1
    return 0
