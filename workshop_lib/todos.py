"""The graded TODOs, declared once: number, learner function, notebook, part, points, check.

Everything that needs to know about a TODO reads it from :data:`TODOS`: the
checks (the function name in their messages), the release (a ``# CHECK n``
marker's points must agree), ``workshop grade`` (which grade ids are TODOs and
what they are worth) and the docs (a test compares the README, the TODO
checklist and the part guides with this table). Adding a TODO means adding an
entry here and its check module in ``workshop_lib/checks/``.

This module imports nothing of the workshop's, so any layer may read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Todo", "TODOS", "todo", "by_grade_id", "for_notebook", "total_points", "todo_grade_id",
           "check_grade_id"]


@dataclass(frozen=True)
class Todo:
    """One graded TODO: what the learner writes, where, and what it is worth."""

    number: int
    function: str        # the name of the learner's function (and of the check's argument)
    signature: str       # how the notebook and the checklist show it
    notebook: str        # the assignment (folder and notebook name under solutions/ and notebooks/)
    part: int
    points: int
    check: str           # the check's name on workshop_lib.checks (called as checks.<check>(fn))

    @property
    def label(self) -> str:
        """``TODO n``, as messages, grade tables and ``grades.csv`` name it."""
        return f"TODO {self.number}"

    @property
    def todo_grade_id(self) -> str:
        """nbgrader grade_id of the learner's solution cell."""
        return todo_grade_id(self.number)

    @property
    def check_grade_id(self) -> str:
        """nbgrader grade_id of the locked, graded check cell."""
        return check_grade_id(self.number)


def todo_grade_id(number: int) -> str:
    """grade_id of TODO n's solution cell (registered or not: the release names new TODOs the same way)."""
    return f"todo{number}"


def check_grade_id(number: int) -> str:
    """grade_id of TODO n's check cell, the graded one."""
    return f"check_todo{number}"


TODOS: tuple[Todo, ...] = (
    Todo(1, "_scan_tables", "_scan_tables(conn, owner)", "02_memory_and_scanner", 2, 3, "todo1"),
    Todo(2, "retrieve_knowledge", "retrieve_knowledge(query, k=5, kinds=None)", "03_retrieval", 3, 3, "todo2"),
    Todo(3, "hybrid_rrf_search_memories", "hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60)",
         "03_retrieval", 3, 4, "todo3"),
    Todo(4, "set_memory_status", "set_memory_status(memory_id, new_status)", "04_agent_and_corrections", 4, 3,
         "todo4"),
    Todo(5, "grounded_answer", "grounded_answer(question, k=3)", "04_agent_and_corrections", 4, 4, "todo5"),
)

_BY_NUMBER = {t.number: t for t in TODOS}
_CHECK_ID = re.compile(r"^check_todo(\d+)$")


def todo(number: int) -> Todo:
    """The registered TODO ``number``; a KeyError that lists the known numbers otherwise."""
    try:
        return _BY_NUMBER[number]
    except KeyError:
        raise KeyError(f"no TODO {number} is registered in workshop_lib/todos.py "
                       f"(known: {', '.join(str(n) for n in _BY_NUMBER)})") from None


def by_grade_id(grade_id: str) -> Todo | None:
    """The TODO whose graded check cell has nbgrader ``grade_id`` (None for any other cell)."""
    match = _CHECK_ID.match(grade_id or "")
    return _BY_NUMBER.get(int(match.group(1))) if match else None


def for_notebook(notebook: str) -> tuple[Todo, ...]:
    """The TODOs of one assignment, in order (empty for an ungraded notebook)."""
    return tuple(t for t in TODOS if t.notebook == notebook)


def total_points() -> int:
    """Points available over the whole workshop."""
    return sum(t.points for t in TODOS)
