"""The authoritative score of a submission: its TODO cells, graded in a fresh process by genuine checks.

nbgrader runs a learner's whole notebook in one kernel, so a cell could
disarm the checks before they run (an input transformer that blanks the
check cell, rebinding ``checks.todo2``, patching ``sys.modules``). This module
grades from the submitted **TODO cells' source** instead:

1. a fresh Python process starts, imports the checks and keeps the genuine
   check functions **before any learner code runs** (during ``workshop grade``
   the process is a child forked from a warm parent that imported them and
   ran no learner code: :mod:`workshop_lib.clean_runner`);
2. it runs the assignment's locked setup cell (from ``solutions/``, never the
   learner's copy) against its own copy of the prepared lite home;
3. it runs each TODO cell's source and calls the kept check with the function
   the cell defined. A check that passes earns the TODO's points.

What cannot be decided this way is **flagged** for the instructor: a TODO cell
that mentions the IPython shell, ``sys.modules``, builtins, ``importlib``, the
checks or the library's reference code, or sets attributes on modules. The
notebook run still gives learners their feedback; this score is the one
``workshop grade`` reports.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .clean_runner import WarmParent, run_fresh
from .todos import Todo, for_notebook

if TYPE_CHECKING:  # the fresh grading process never needs nbformat: importing it costs ~2 s (jsonschema)
    import nbformat

__all__ = ["CleanResult", "todo_sources", "flags_for", "clean_grade", "warm_parent", "SUSPICIOUS",
           "SECRET_VARIABLES", "NO_DOTENV", "WARM_IMPORTS"]

#: (pattern, what the instructor is told) for TODO-cell source that may tamper with grading.
SUSPICIOUS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"get_ipython|input_transformers|IPython"), "uses the IPython shell"),
    (re.compile(r"sys\s*\.\s*modules|importlib|__import__"), "manipulates imported modules"),
    (re.compile(r"\bbuiltins\b|__builtins__"), "touches Python's builtins"),
    (re.compile(r"\bchecks\b|workshop_lib\s*\.\s*checks|CheckFailure"), "refers to the checks"),
    (re.compile(r"\breference\b|workshop_lib\s*\.\s*reference"), "refers to the library's reference code"),
    (re.compile(r"\bsetattr\s*\(|\.__dict__|monkeypatch|__code__|__globals__"), "rewrites objects at run time"),
    # the vectors the model remembers and the connection's embedding cache serve the checks' searches too
    (re.compile(r"embedding\s*\.\s*runtime|\bget_embedder\b|\bforget_recent\b|\._recent\b|_embed_cache"),
     "reaches into the embedding model's caches"),
    # ending a process (its own, or the parent that forked it) makes the clean re-run fail, and then the notebook
    # run's score is used
    (re.compile(r"_getframe|\binspect\b|\bgc\b|\batexit\b|os\s*\.\s*_exit|sys\s*\.\s*__stdout__|"
                r"\bos\s*\.\s*(kill|killpg|getppid|abort)\b|\bsignal\b"),
     "inspects or steers the grading process"),
)
_MARKER = "@@workshop-clean-grade@@"
#: Settings a learner's code never needs while it is graded (and must not be able to print).
SECRET_VARIABLES = ("ORACLE_PASSWORD", "ORACLE_ADMIN_PASSWORD", "ORACLE_ADMIN_USER", "SUPPLYCHAIN_PASSWORD",
                    "ORACLE_DSN", "ORACLE_USER", "ORACLE_WALLET_DIR", "ORACLE_WALLET_PASSWORD")
#: Settings every process that runs learner code during grading gets: no .env is read, neither by the
#: workshop nor by litellm, which in its default mode ("DEV") loads the first .env it finds, from the
#: working directory or above its own install folder (a .venv inside the repository: the repository's
#: .env), into os.environ on import, instructor's secrets included.
NO_DOTENV = {"WORKSHOP_NO_DOTENV": "1", "LITELLM_MODE": "PRODUCTION"}
#: What a warm parent imports before its first fork: the checks and what every setup cell imports. A check
#: module's ``RUN_IMPORTS`` adds what that check's run imports (the agent's model path for TODO 5).
WARM_IMPORTS = ("workshop_lib.checks", "workshop_lib.notebook")
_MODULE = "workshop_lib.clean_grade"
_TODO_MARKER = re.compile(r"^\s*#\s*TODO\s+(\d+)\b")


@dataclass
class CleanResult:
    """Per TODO number: points earned, the reason when none, and the flags raised by its source."""

    scores: dict[int, float] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)
    flags: dict[int, list[str]] = field(default_factory=dict)
    failure: str | None = None   # the whole clean run failed (environment), with why


def todo_sources(nb: nbformat.NotebookNode) -> dict[int, str]:
    """TODO number -> the source of the submitted TODO cell (by nbgrader grade id, else by ``# TODO n``)."""
    found: dict[int, str] = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        grade_id = (cell.metadata.get("nbgrader") or {}).get("grade_id", "")
        match = re.fullmatch(r"todo(\d+)", grade_id or "") or _TODO_MARKER.match(cell.source)
        if match and int(match.group(1)) not in found:
            found[int(match.group(1))] = cell.source
    return found


def flags_for(source: str) -> list[str]:
    """What in a TODO cell's source the instructor should look at (empty when nothing)."""
    return [reason for pattern, reason in SUSPICIOUS if pattern.search(source)]


def _setup_sources(source_nb: nbformat.NotebookNode) -> list[str]:
    return [c.source for c in source_nb.cells if c.cell_type == "code"
            and str((c.metadata.get("nbgrader") or {}).get("grade_id", "")).startswith("setup_")]


def _environment(home: Path | None = None) -> dict[str, str]:
    """This process's environment without the secrets, set up for a lite re-run (over ``home`` when given)."""
    env = {key: value for key, value in os.environ.items() if key not in SECRET_VARIABLES}
    env.update(NO_DOTENV, WORKSHOP_BACKEND="lite", NBGRADER_EXECUTION="autograde",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    if home is not None:
        env["WORKSHOP_HOME"] = str(home)
    return env


def warm_parent(cwd: Path) -> WarmParent:
    """A warm parent for clean re-runs (started on first use; close it when grading ends)."""
    return WarmParent(_MODULE, _environment(), cwd)


def _run_imports(todos: list[Todo]) -> list[str]:
    """What the checks of ``todos`` import when they run (their modules' ``RUN_IMPORTS``)."""
    return [name for t in todos
            for name in getattr(importlib.import_module(f"{__package__}.checks.{t.check}"), "RUN_IMPORTS", ())]


def clean_grade(submission: nbformat.NotebookNode, source_nb: nbformat.NotebookNode, assignment: str,
                home: Path, *, timeout: float = 600, runner: WarmParent | None = None) -> CleanResult:
    """Grade ``submission``'s TODO cells of ``assignment`` over lite home ``home``.

    In a fresh process, or with ``runner`` in a child it forks (same result,
    without paying the imports again).
    """
    todos = for_notebook(assignment)
    sources = todo_sources(submission)
    result = CleanResult(flags={t.number: flags_for(sources.get(t.number, "")) for t in todos})
    nonce = secrets.token_hex(16)   # only the genuine result line carries it
    payload = json.dumps({"assignment": assignment, "nonce": nonce, "setup": _setup_sources(source_nb),
                          "todos": [{"number": t.number, "source": sources.get(t.number)} for t in todos]})
    env = _environment(home)
    if runner is not None:
        done = runner.run(payload, env, home, timeout, imports=_run_imports(todos))
    else:
        done = run_fresh(_MODULE, payload, env, home, timeout)
    if done.timed_out:
        result.failure = f"the clean re-run did not finish within {timeout:.0f} s"
        return result
    lines = [line for line in done.stdout.splitlines() if line.startswith(_MARKER + nonce)]
    if not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        result.failure = f"the clean re-run failed ({tail[:200]})"
        return result
    answer = json.loads(lines[-1][len(_MARKER + nonce):])
    result.scores = {int(k): float(v) for k, v in answer["scores"].items()}
    result.errors = {int(k): v for k, v in answer["errors"].items()}
    result.failure = answer.get("failure")
    return result


def _child(text: str) -> int:
    """The re-run's process: keep the genuine checks, run setup and each TODO cell, call the kept checks."""
    from . import checks, todos   # imported before any learner code: these objects are the genuine ones

    payload = json.loads(text)
    nonce = payload.pop("nonce")
    kept: dict[int, Any] = {t.number: getattr(checks, t.check) for t in todos.for_notebook(payload["assignment"])}
    registered: dict[int, Todo] = {t.number: t for t in todos.for_notebook(payload["assignment"])}
    scores: dict[str, float] = {}
    errors: dict[str, str] = {}
    namespace: dict[str, Any] = {"__name__": "__main__"}
    failure = None
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink):
            for source in payload["setup"]:
                exec(compile(source, "<setup cell>", "exec"), namespace)  # noqa: S102 - the locked setup cell
    except Exception as exc:  # noqa: BLE001 - an environment failure: report it, grade nothing
        failure = f"the setup cell failed: {type(exc).__name__}: {exc}"
    for item in payload["todos"]:
        number, source = item["number"], item["source"]
        todo = registered[number]
        if failure:
            errors[str(number)], scores[str(number)] = failure, 0.0
            continue
        if not source:
            errors[str(number)], scores[str(number)] = "no TODO cell found in the submission", 0.0
            continue
        try:
            with contextlib.redirect_stdout(sink):
                exec(compile(source, f"<TODO {number} cell>", "exec"), namespace)  # noqa: S102 - graded code
                kept[number](namespace.get(todo.function))
            scores[str(number)] = float(todo.points)
        except BaseException as exc:  # noqa: BLE001 - every failure is a lost TODO, with its reason
            scores[str(number)] = 0.0
            errors[str(number)] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    print(_MARKER + nonce + json.dumps({"scores": scores, "errors": errors, "failure": failure}), flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--warm"]:
        from .clean_runner import serve

        sys.exit(serve(_child, WARM_IMPORTS))
    sys.exit(_child(sys.stdin.read()))
