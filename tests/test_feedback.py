"""The feedback pages' preprocessing (the pages themselves are tested end to end in test_grading_full_marks.py)."""

from __future__ import annotations

import nbformat
from nbgrader.preprocessors import ClearHiddenTests

from workshop_lib.feedback import ShortHiddenTracebacks

HIDDEN_CHECK = ("checks.todo2(retrieve_knowledge)\n### BEGIN HIDDEN TESTS\n"
                "assert _secret_probe() == 3, 'the hidden probe'\n### END HIDDEN TESTS")
TRACEBACK = ["AssertionError                Traceback (most recent call last)",
             "Cell In[7], line 5\n----> 5 assert _secret_probe() == 3, 'the hidden probe'",
             "AssertionError: the hidden probe"]


def _cell(source: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source, metadata={"nbgrader": {"grade": True, "grade_id": "check_todo2",
                                                                    "points": 3, "solution": False,
                                                                    "locked": True, "schema_version": 3}})
    cell.outputs = [nbformat.v4.new_output("error", ename="AssertionError", evalue="the hidden probe",
                                           traceback=list(TRACEBACK))]
    return cell


def test_an_error_in_a_cell_with_hidden_tests_keeps_only_its_last_line_and_the_tests_go():
    nb = nbformat.v4.new_notebook(cells=[_cell(HIDDEN_CHECK), _cell("raise AssertionError('the hidden probe')")])
    nb, _ = ShortHiddenTracebacks().preprocess(nb, {})
    nb, _ = ClearHiddenTests().preprocess(nb, {})
    hidden, plain = nb.cells
    assert hidden.outputs[0].traceback == ["AssertionError: the hidden probe"]
    assert "_secret_probe" not in hidden.source and "checks.todo2(retrieve_knowledge)" in hidden.source
    assert plain.outputs[0].traceback == TRACEBACK   # a cell without hidden tests keeps its traceback
