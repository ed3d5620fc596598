"""The release pipeline: markers -> nbgrader metadata -> student notebooks, and what may be shipped.

No notebook is executed here (see test_notebooks.py and test_grading.py).
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from workshop_lib import release
from workshop_lib.release import ReleaseError, annotate, parse_marker

ROOT = release.REPO_ROOT
ASSIGNMENTS = release.assignments(ROOT)
EXPECTED = ["01_seed_and_explore", "02_memory_and_scanner", "03_retrieval", "04_agent_and_corrections"]


def _source(name: str) -> nbformat.NotebookNode:
    return nbformat.read(str(ROOT / "solutions" / name / f"{name}.ipynb"), as_version=4)


def _student(name: str) -> nbformat.NotebookNode:
    return nbformat.read(str(ROOT / "notebooks" / name / f"{name}.ipynb"), as_version=4)


def _all_notebooks() -> list[tuple[str, nbformat.NotebookNode]]:
    return [(f"solutions/{n}", _source(n)) for n in ASSIGNMENTS] + [(f"notebooks/{n}", _student(n)) for n in ASSIGNMENTS]


def _nbg(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


# --------------------------------------------------------------------------- the repository's release
def test_the_four_workshop_assignments_exist():
    assert ASSIGNMENTS == EXPECTED


def test_release_check_passes_on_the_repository(capsys):
    """notebooks/ and the solutions' metadata are exactly what `make release` produces."""
    assert release.release(ROOT, check=True) == 0, capsys.readouterr().out
    assert release.main(["--check"]) == 0


@pytest.mark.parametrize("name", EXPECTED)
def test_student_notebook_has_no_outputs_solutions_or_hidden_tests(name):
    student = _student(name)
    assert student.metadata.kernelspec.name == "python3"
    for cell in student.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
            assert marker not in cell.source, f"{name}: student cell still contains {marker!r}"


@pytest.mark.parametrize("name", EXPECTED)
def test_metadata_is_schema_v3_and_follows_the_markers(name):
    student = _student(name)
    source = _source(name)
    for nb in (source, student):
        assert nb.metadata.kernelspec.name == "python3"
        for cell in nb.cells:
            marker = parse_marker(cell.source) if cell.cell_type == "code" else None
            meta = _nbg(cell)
            if marker is None:
                assert not meta, f"{name}: unmarked cell has nbgrader metadata: {cell.source[:60]!r}"
                continue
            assert meta["schema_version"] == 3
            if marker.kind == "todo":
                assert (meta["solution"], meta["grade"], meta["locked"]) == (True, False, False)
                assert meta["grade_id"] == f"todo{marker.number}"
            elif marker.kind == "check":
                assert (meta["solution"], meta["grade"], meta["locked"]) == (False, True, True)
                assert meta["grade_id"] == f"check_todo{marker.number}"
                assert meta["points"] == marker.points > 0
            else:
                assert (meta["solution"], meta["grade"], meta["locked"]) == (False, False, True)
    # the student version carries what the autograder needs: checksums, and locks on graded cells
    for cell in student.cells:
        meta = _nbg(cell)
        if meta:
            assert meta.get("checksum"), f"{name}: no checksum on {meta['grade_id']}"
        if meta.get("grade") or meta.get("locked"):
            assert cell.metadata.get("editable") is False and cell.metadata.get("deletable") is False


def test_todos_and_checks_are_where_the_workshop_says():
    graded = {name: [(_nbg(c)["grade_id"], _nbg(c).get("points")) for c in _source(name).cells if _nbg(c).get("grade")]
              for name in EXPECTED}
    assert graded == {
        "01_seed_and_explore": [],
        "02_memory_and_scanner": [("check_todo1", 3)],
        "03_retrieval": [("check_todo2", 3), ("check_todo3", 4)],
        "04_agent_and_corrections": [("check_todo4", 3), ("check_todo5", 4)],
    }
    # each check sits right after its TODO (markdown and a try-it cell may sit between them)
    for name in EXPECTED:
        cells = _source(name).cells
        for index, cell in enumerate(cells):
            if _nbg(cell).get("grade"):
                number = _nbg(cell)["grade_id"].removeprefix("check_todo")
                earlier = [_nbg(c).get("grade_id") for c in cells[:index]]
                assert f"todo{number}" in earlier
                assert f"checks.todo{number}(" in cell.source


@pytest.mark.parametrize("name", ["02_memory_and_scanner", "03_retrieval", "04_agent_and_corrections"])
def test_stubs_raise_and_everything_else_is_the_solution_notebook(name):
    """Student code equals solution code except inside solution regions and hidden tests."""
    source, student = annotate(_source(name), name), _student(name)
    assert [c.cell_type for c in source.cells] == [c.cell_type for c in student.cells]
    for src, stu in zip(source.cells, student.cells):
        meta = _nbg(src)
        if meta.get("solution"):
            assert "raise NotImplementedError" in stu.source
            outside = re.sub(r"### BEGIN SOLUTION.*?### END SOLUTION\n?", "", src.source, flags=re.S)
            for line in outside.splitlines():
                if line.strip():
                    assert line in stu.source.splitlines()
        elif meta.get("grade"):
            visible = re.sub(r"\n*### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS\n?", "", src.source, flags=re.S)
            assert stu.source.strip() == visible.strip()
        else:
            assert stu.source == src.source


@pytest.mark.parametrize("label,nb", _all_notebooks(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_code_cell_parses(label, nb):
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in cell.source.splitlines())
        try:
            ast.parse(code)
        except SyntaxError as exc:
            pytest.fail(f"{label} cell {index + 1} does not parse: {exc}")


# --------------------------------------------------------------------------- secrets
_SECRET_PATTERNS = [
    re.compile(r"""(?i)\b\w*passw(or)?d\w*\s*[:=]\s*["'][^"'\s]{3,}["']"""),   # password = "..."
    re.compile(r"""(?i)\b(api[_-]?key|secret|token)\s*[:=]\s*["'][^"'\s]{8,}["']"""),
    re.compile(r"\b[A-Za-z]\w*/[^\s/@'\"]{3,}@[\w.-]+(:\d+)?/\w+"),                 # user/password@host:1521/service
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bsk-[A-Za-z0-9_-]{20,}\b"),
]


def find_secrets(text: str) -> list[str]:
    """Password-looking strings in ``text``."""
    return [m.group(0) for pattern in _SECRET_PATTERNS for m in pattern.finditer(text)]


@pytest.mark.parametrize("planted", [
    'ORACLE_PASSWORD = "Welcome_123"',
    "conn = oracledb.connect(dsn='agent/Secret#1@localhost:1521/FREEPDB1')",
    "api_key = 'abcd1234efgh5678'",
    "-----BEGIN RSA PRIVATE KEY-----",
])
def test_the_secret_scanner_finds_planted_secrets(planted):
    assert find_secrets(planted)


@pytest.mark.parametrize("label,nb", _all_notebooks(), ids=lambda v: v if isinstance(v, str) else "")
def test_notebooks_carry_no_secrets(label, nb):
    found = find_secrets(nbformat.writes(nb))
    assert not found, f"{label} contains password-looking text: {found}"


# --------------------------------------------------------------------------- markers and --check
def _nb(*sources: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    return nb


GOOD = ("# SETUP\nx = 1",
        "# TODO 1 — write f\ndef f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION",
        "# CHECK 1 (2.5 points)\nassert f() == 1\n### BEGIN HIDDEN TESTS\nassert f() + 1 == 2\n### END HIDDEN TESTS")


def test_annotate_writes_metadata_from_markers():
    nb = _nb(*GOOD)
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="old output")]
    nb.cells[0].metadata["nbgrader"] = {"grade": True, "points": 99}  # stale hand-written metadata is replaced
    out = annotate(nb, "demo")
    metas = [c.metadata["nbgrader"] for c in out.cells]
    assert [m["grade_id"] for m in metas] == ["setup_demo", "todo1", "check_todo1"]
    assert metas[2]["points"] == 2.5 and "points" not in metas[0]
    assert out.cells[0].outputs == []
    assert out.metadata.kernelspec.name == "python3"
    assert nb.cells[0].outputs, "annotate must not modify its input"


@pytest.mark.parametrize("sources,message", [
    (("# TODO 1\ndef f():\n    return 1", "# CHECK 1 (1 point)\nf()"), "BEGIN SOLUTION"),
    ((GOOD[1], "# CHECK 1\nf()"), "must state its points"),
    (("# CHECK 2 (1 point)\nf()",), "no '# TODO 2'"),
    ((GOOD[1],), "has no '# CHECK 1"),
    ((GOOD[1], GOOD[1], GOOD[2]), "appears twice"),
    (("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION",), "no '# TODO n'"),
])
def test_annotate_rejects_inconsistent_markers(sources, message):
    with pytest.raises(ReleaseError, match=re.escape(message)):
        annotate(_nb(*sources), "demo")


def test_generate_student_clears_solutions_and_hidden_tests():
    student = release.generate_student(annotate(_nb(*GOOD), "demo"), "demo")
    todo, check = student.cells[1].source, student.cells[2].source
    assert "return 1" not in todo and "raise NotImplementedError" in todo
    assert "HIDDEN" not in check and "f() + 1" not in check and "assert f() == 1" in check


@pytest.fixture()
def course_copy(tmp_path: Path) -> Path:
    """A copy of the repository's course files (solutions/, notebooks/, nbgrader_config.py)."""
    for folder in ("solutions", "notebooks"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    return tmp_path


def test_check_fails_when_a_solution_changes_and_release_fixes_it(course_copy, capsys):
    path = course_copy / "solutions" / "03_retrieval" / "03_retrieval.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell("A new closing remark."))
    nbformat.write(nb, str(path))
    assert release.release(course_copy, check=True) == 1
    out = capsys.readouterr().out
    assert "out of date: notebooks/03_retrieval/03_retrieval.ipynb" in out
    assert "02_memory_and_scanner" not in out and "01_seed_and_explore" not in out
    assert "make release" in out
    assert release.release(course_copy) == 0
    assert release.release(course_copy, check=True) == 0
    assert _student_text(course_copy, "03_retrieval").count("A new closing remark.") == 1


def _student_text(root: Path, name: str) -> str:
    return (root / "notebooks" / name / f"{name}.ipynb").read_text(encoding="utf-8")


def test_check_fails_on_hand_edited_student_notebook_or_metadata(course_copy, capsys):
    student = course_copy / "notebooks" / "02_memory_and_scanner" / "02_memory_and_scanner.ipynb"
    student.write_text(student.read_text(encoding="utf-8").replace('"points": 3', '"points": 30'), encoding="utf-8")
    source = course_copy / "solutions" / "03_retrieval" / "03_retrieval.ipynb"
    source.write_text(source.read_text(encoding="utf-8").replace('"points": 4', '"points": 40'), encoding="utf-8")
    assert release.release(course_copy, check=True) == 1
    out = capsys.readouterr().out
    assert "notebooks/02_memory_and_scanner" in out and "solutions/03_retrieval" in out
    release.release(course_copy)
    assert '"points": 4' in source.read_text(encoding="utf-8")
    assert '"points": 3' in student.read_text(encoding="utf-8")


def test_check_reports_a_released_notebook_without_source(course_copy, capsys):
    orphan = course_copy / "notebooks" / "04_old_part" / "04_old_part.ipynb"
    orphan.parent.mkdir()
    shutil.copy(course_copy / "notebooks" / "01_seed_and_explore" / "01_seed_and_explore.ipynb", orphan)
    assert release.release(course_copy, check=True) == 1
    assert "no source notebook for: notebooks/04_old_part" in capsys.readouterr().out
    assert release.release(course_copy) == 0 and not orphan.exists()
