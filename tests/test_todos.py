"""The TODO registry (workshop_lib/todos.py) agrees with the notebooks, the checks, grading and the docs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workshop_lib import checks, todos
from workshop_lib.grading import graded_todos
from workshop_lib.release import ReleaseError, annotate, read_notebook

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _source(notebook: str):
    return read_notebook(ROOT / "solutions" / notebook / f"{notebook}.ipynb")


@pytest.mark.parametrize("todo", todos.TODOS, ids=lambda t: t.label)
def test_each_todo_has_its_cells_check_and_grade_id(todo):
    nb = _source(todo.notebook)
    sources = [c.source for c in nb.cells if c.cell_type == "code"]
    todo_cell = next(s for s in sources if re.match(rf"#\s*TODO\s+{todo.number}\b", s))
    assert f"def {todo.function}(" in todo_cell, f"{todo.label}'s cell does not define {todo.function}"
    check_cell = next(s for s in sources if re.match(rf"#\s*CHECK\s+{todo.number}\b", s))
    assert f"checks.{todo.check}({todo.function}" in check_cell
    assert callable(getattr(checks, todo.check)), f"workshop_lib.checks has no {todo.check}"
    graded = {gid: (label, points) for gid, label, points in graded_todos(annotate(nb, todo.notebook))}
    assert graded[todo.check_grade_id] == (todo.label, float(todo.points))


def test_every_graded_cell_in_the_solutions_is_registered():
    found = set()
    for folder in sorted((ROOT / "solutions").iterdir()):
        if (folder / f"{folder.name}.ipynb").is_file():
            found |= {gid for gid, _l, _p in graded_todos(annotate(_source(folder.name), folder.name))}
    assert found == {t.check_grade_id for t in todos.TODOS}


def test_a_check_marker_that_disagrees_with_the_registry_stops_the_release():
    first = todos.TODOS[0]
    nb = _source(first.notebook)
    for cell in nb.cells:
        if cell.cell_type == "code" and re.match(rf"#\s*CHECK\s+{first.number}\b", cell.source):
            cell.source = re.sub(r"\(\s*\d+\s*points?\s*\)", f"({first.points + 1} points)", cell.source, count=1)
    with pytest.raises(ReleaseError, match=rf"says TODO {first.number} is worth {first.points}"):
        annotate(nb, first.notebook)


def test_a_notebook_missing_a_registered_todo_stops_the_release():
    first = todos.TODOS[0]
    nb = _source(first.notebook)
    nb.cells = [c for c in nb.cells
                if not re.match(rf"#\s*(TODO|CHECK)\s+{first.number}\b", c.source if c.cell_type == "code" else "")]
    with pytest.raises(ReleaseError, match="registers TODO"):
        annotate(nb, first.notebook)


def test_lookup_helpers():
    assert todos.todo(2).function == "retrieve_knowledge"
    assert todos.by_grade_id("check_todo3") is todos.todo(3)
    assert todos.by_grade_id("todo3") is None and todos.by_grade_id("") is None
    with pytest.raises(KeyError, match="known: 1, 2, 3"):
        todos.todo(99)
    assert todos.total_points() == sum(t.points for t in todos.TODOS)


@pytest.mark.parametrize("todo", todos.TODOS, ids=lambda t: t.label)
def test_the_docs_state_the_registry(todo):
    checklist = (DOCS / "todo-checklist.md").read_text()
    assert f"## {todo.label} — `{todo.signature}` (Part {todo.part}, {todo.points} points)" in checklist
    part = (DOCS / f"part{todo.part}.md").read_text()
    assert f"**{todo.label}** ({todo.points} points)" in part
    row = next(line for line in (ROOT / "README.md").read_text().splitlines()
               if line.startswith(f"| {todo.part} | `notebooks/{todo.notebook}`"))
    assert f"{todo.label} `{todo.function}`" in row
    grading = (DOCS / "instructors-grading.md").read_text()
    assert f"| {todo.label} | `{todo.function}` | {todo.notebook} | {todo.points} |" in grading
