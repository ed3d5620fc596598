"""Grading that cannot be gamed: the clean re-run of TODO cells, with genuine checks, flags what it cannot decide.

The re-runs here are children forked by one warm parent, as ``workshop grade``
runs them; the solution is also graded in a fresh process (the way without a
warm parent), and both must agree.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from workshop_lib.clean_grade import clean_grade, flags_for, todo_sources, warm_parent
from workshop_lib.clean_runner import fork_available
from workshop_lib.release import REPO_ROOT, annotate, read_notebook

P3 = "03_retrieval"
SOURCE = annotate(read_notebook(REPO_ROOT / "solutions" / P3 / f"{P3}.ipynb"), P3)
STUDENT = REPO_ROOT / "notebooks" / P3 / f"{P3}.ipynb"

# Ways around the in-notebook checks that once scored full marks (issue: grading integrity).
BLANK_THE_CHECK = '''
def retrieve_knowledge(query, k=5, kinds=None):
    return []
ip = get_ipython()
ip.input_transformers_cleanup.append(lambda lines: ["pass\\n"] if "checks.todo2" in "".join(lines) else lines)
'''
REBIND_THE_CHECK = '''
import workshop_lib.checks
workshop_lib.checks.todo2 = lambda fn, **kw: print("TODO 2 passed — retrieve_knowledge")
def retrieve_knowledge(query, k=5, kinds=None):
    return []
'''
CALL_THE_LIBRARY = '''
from workshop_lib import reference
def retrieve_knowledge(query, k=5, kinds=None):
    return reference.retrieve_knowledge(query, k, kinds)
'''


@pytest.fixture(scope="module")
def prepared_home(home_copy) -> Path:
    """A home up to the scan, as grading prepares one (prepare_home itself runs in the grading round trips)."""
    return home_copy("scan", "clean")


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """One warm parent for the module's re-runs (as one grading run has)."""
    with warm_parent(tmp_path_factory.mktemp("warm")) as parent:
        yield parent


def _submission(todo2_source: str) -> nbformat.NotebookNode:
    nb = read_notebook(STUDENT)
    solved = {c.metadata["nbgrader"]["grade_id"]: c.source for c in SOURCE.cells if "nbgrader" in c.metadata}
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id == "todo3":
            cell.source = solved["todo3"]
        if grade_id == "todo2":
            cell.source = "# TODO 2\n" + todo2_source
    return nb


def _grade(nb, prepared_home, tmp_path, runner=None, **options):
    home = tmp_path / "home"
    shutil.copytree(prepared_home, home)
    return clean_grade(nb, SOURCE, P3, home, runner=runner, **options)


@pytest.mark.parametrize("source,flag,reason", [
    (BLANK_THE_CHECK, "uses the IPython shell", "get_ipython"),   # no IPython in the clean run
    (REBIND_THE_CHECK, "refers to the checks", "TODO 2 (retrieve_knowledge) failed"),
    (CALL_THE_LIBRARY, "refers to the library's reference code", "called the library's own retrieve_knowledge"),
], ids=["input-transformer", "rebound-check", "calls-reference"])
def test_gaming_the_checks_scores_nothing_and_is_flagged(source, flag, reason, prepared_home, tmp_path, warm):
    result = _grade(_submission(source), prepared_home, tmp_path, warm)
    assert warm.fallbacks == 0 or not fork_available()
    assert result.failure is None, result.failure
    assert result.scores == {2: 0.0, 3: 4.0}, result.errors
    assert reason in result.errors[2]
    assert flag in result.flags[2] and result.flags[3] == []


def test_the_solutions_todo_cells_earn_every_point_without_flags(prepared_home, tmp_path, warm):
    forked = warm.forked
    fresh = _grade(SOURCE, prepared_home, tmp_path / "fresh")
    child = _grade(SOURCE, prepared_home, tmp_path / "warm", warm)
    for result in (fresh, child):
        assert result.failure is None and result.errors == {}, (result.failure, result.errors)
        assert result.scores == {2: 3.0, 3: 4.0} and result.flags == {2: [], 3: []}
    assert warm.forked == forked + int(fork_available())   # the second one was a forked child


def test_todo_cells_are_found_by_grade_id_or_marker():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("# TODO 4 — x\ndef f(): pass"),
                                         nbformat.v4.new_code_cell("print(1)")])
    assert todo_sources(nb) == {4: "# TODO 4 — x\ndef f(): pass"}
    assert todo_sources(SOURCE).keys() == {2, 3}


def test_flags_name_what_the_instructor_should_look_at():
    assert flags_for("def f():\n    return 1") == []
    assert flags_for("import sys\nsys.modules['x'] = None") == ["manipulates imported modules"]
    for steering in ("import atexit", "os.kill(os.getppid(), 9)", "import signal", "os.abort()"):
        assert "inspects or steers the grading process" in flags_for(steering), steering
    for caches in ("from workshop_lib.embedding.runtime import get_embedder", "get_embedder(p)._recent['q'] = v",
                   "agent_conn._embed_cache.clear()"):
        assert flags_for(caches) == ["reaches into the embedding model's caches"], caches


def test_learner_code_sees_no_instructor_secrets(prepared_home, tmp_path, monkeypatch):
    """Not in its environment, nor in its parent's (the warm parent starts after the secret is set)."""
    monkeypatch.setenv("ORACLE_ADMIN_PASSWORD", "s3cret-admin-pw")
    leak = ('import os\ndef retrieve_knowledge(query, k=5, kinds=None):\n'
            '    parent = open(f"/proc/{os.getppid()}/environ", "rb").read()\n'
            '    raise ValueError(repr(os.environ.get("ORACLE_ADMIN_PASSWORD")) + repr(os.getcwd())\n'
            '                     + repr(b"s3cret" in parent))\n')
    with warm_parent(tmp_path) as parent:
        result = _grade(_submission(leak), prepared_home, tmp_path, parent)
    assert parent.forked == int(fork_available()) and parent.fallbacks == 1 - int(fork_available())
    assert result.scores[2] == 0.0
    assert "s3cret-admin-pw" not in result.errors[2] and "None" in result.errors[2], result.errors
    assert str(REPO_ROOT) + "'" not in result.errors[2]   # the learner's code does not run in the repository
    if fork_available():
        assert result.errors[2].endswith("False"), result.errors[2]


def test_no_env_file_reaches_a_graded_process_through_litellm(tmp_path, monkeypatch):
    """litellm loads the first .env it finds on import unless told not to; grading processes tell it not to.

    The process imports the agent (and so litellm) with the environment a
    clean re-run gets, from a folder holding an instructor's .env, as a
    kernel does (``python -c`` looks for .env from its working directory).
    """
    import subprocess
    import sys

    from workshop_lib.clean_grade import _environment

    (tmp_path / ".env").write_text("ORACLE_ADMIN_PASSWORD=from-the-instructors-env-file\n", encoding="utf-8")
    monkeypatch.setenv("LITELLM_MODE", "DEV")   # even an instructor's explicit DEV mode is overridden
    script = ("import os\nimport workshop_lib.agent.offline\n"
              "print(os.environ.get('ORACLE_ADMIN_PASSWORD'))\n"
              "from litellm._process_defaults import apply_process_defaults\n"
              "os.environ['LITELLM_MODE'] = 'DEV'\napply_process_defaults()\n"
              "print(os.environ.get('ORACLE_ADMIN_PASSWORD'))\n")
    done = subprocess.run([sys.executable, "-c", script], env=_environment(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    graded, control = done.stdout.split()
    assert graded == "None", done.stderr
    assert control == "from-the-instructors-env-file", "litellm no longer reads .env on import: the guard is moot"


def test_grading_homes_are_copies_not_links(tmp_path):
    from workshop_lib.grading import _copy_home

    template = tmp_path / "template"
    (template / "model").mkdir(parents=True)
    (template / "model" / "model.onnx").write_bytes(b"weights")
    copy = _copy_home(template, tmp_path / "learner")
    (copy / "model" / "model.onnx").write_bytes(b"damaged by a learner")
    assert (template / "model" / "model.onnx").read_bytes() == b"weights"
