"""Feedback for learners after ``workshop grade --feedback DIR``: nbgrader's HTML report, without the hidden tests.

nbgrader's ``GenerateFeedback`` turns each executed (autograded) notebook into
an HTML page with every graded cell's score, read from the gradebook, which
holds the score that counts (the clean re-run's; see ``grading``). Unlike
nbgrader's default, the pages leave the hidden tests out: nbgrader's own
``ClearHiddenTests`` removes them from the check cells' source, and an error in
such a cell keeps only its last line (``CheckFailure: ...``, the message the
check wrote for the learner), since a traceback would quote the hidden line
that failed. Each learner's pages go to ``DIR/<learner>/<assignment>.html``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

from nbconvert.preprocessors import Preprocessor

__all__ = ["HIDDEN_BEGIN", "ShortHiddenTracebacks", "write_feedback"]

HIDDEN_BEGIN = "BEGIN HIDDEN TESTS"


class ShortHiddenTracebacks(Preprocessor):
    """An error in a cell holding hidden tests keeps only ``ename: evalue`` (its traceback quotes them)."""

    def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
        if cell.cell_type == "code" and HIDDEN_BEGIN in cell.source:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"]
        return cell, resources


def write_feedback(grader: Any, graded: list[tuple[str, str]], folder: Path | str,
                   echo: Callable[[str], None] = print) -> list[Path]:
    """Write ``folder/<learner id>/<assignment>.html`` for each (learner id, assignment) in ``graded``.

    ``grader`` is the open :class:`workshop_lib.grading.Grader` of the run (its
    course folder holds the executed notebooks and the gradebook). A
    submission whose notebook could not be run at all has no page; ``echo``
    says so. One nbgrader converter writes all of an assignment's pages, so
    its HTML templates are compiled once per assignment, not once per page;
    learners the course folder holds from earlier runs but this run did not
    grade are excluded from it. Returns the pages written.
    """
    folder = Path(folder).resolve()   # nbgrader changes directory while it converts
    learners: dict[str, list[str]] = {}
    for learner_id, name in graded:
        executed = grader.course / "autograded" / learner_id / name / f"{name}.ipynb"
        if executed.is_file():
            learners.setdefault(name, []).append(learner_id)
        else:
            echo(f"no feedback for {learner_id} / {name}: nbgrader could not run the notebook")
    written = []
    for name, ids in learners.items():
        _convert(grader, name, ids)
        for learner_id in ids:
            page = folder / learner_id / f"{name}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(grader.course / "feedback" / learner_id / name / f"{name}.html", page)
            written.append(page)
    return sorted(written)


def _convert(grader: Any, name: str, learner_ids: list[str]) -> None:
    """nbgrader's GenerateFeedback over assignment ``name`` for exactly ``learner_ids`` (ids have no commas:
    grading makes them of letters, digits and ``_.@-``)."""
    from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor
    from nbgrader.converters import GenerateFeedback
    from nbgrader.preprocessors import ClearHiddenTests, GetGrades

    graded = set(learner_ids)
    others = sorted(path.parent.name for path in (grader.course / "autograded").glob(f"*/{name}")
                    if path.parent.name not in graded)
    coursedir = grader.coursedir(assignment_id=name, student_id="*", student_id_exclude=",".join(others))
    converter = GenerateFeedback(coursedir=coursedir, config=grader.config, log=grader.log)
    converter.preprocessors = [GetGrades, ShortHiddenTracebacks, ClearHiddenTests, CSSHTMLHeaderPreprocessor]
    converter.force = True
    converter.start()
