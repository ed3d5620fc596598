"""Execute the workshop notebooks headless, as CI and learners do (lite backend).

Solution notebooks run in a fresh WORKSHOP_HOME each (proving every part
catches up on the earlier ones by itself) and must not raise or write to
stderr. The run time of each solution notebook is printed (pytest -s).

The student notebooks of parts 2-4 are executed once, by nbgrader, as the
``untouched`` learner of tests/test_grading_partial.py, which asserts that they
fail exactly in their check cells and nowhere else (nbgrader runs the same
cells; only the progress bars differ).
"""

from __future__ import annotations

import copy
import shutil
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from workshop_lib import release

ROOT = release.REPO_ROOT
KERNEL_ARGS = ["--IPKernelApp.log_level=ERROR"]
BUDGET_SECONDS = 240  # one notebook, fresh home, slow CI machine

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def execute(path: Path, cwd: Path, passes: int = 1) -> tuple[list[nbformat.NotebookNode], float]:
    """Run every cell of the notebook at ``path`` in one python3 kernel, ``passes`` times over (Run All again).

    Returns the notebook as each pass left it and the seconds of the first
    pass (kernel start included); errors are kept in the outputs.
    """
    nb = nbformat.read(str(path), as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                            extra_arguments=KERNEL_ARGS, resources={"metadata": {"path": str(cwd)}})
    started = time.perf_counter()
    runs, seconds = [], 0.0
    with client.setup_kernel():
        for _ in range(passes):
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
            runs.append(copy.deepcopy(nb))
            seconds = seconds or time.perf_counter() - started
    return runs, seconds


def errors(nb: nbformat.NotebookNode) -> dict[int, str]:
    """Cell index -> 'Ename: message' of every cell that raised."""
    found = {}
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                found[index] = f"{output.ename}: {output.evalue}"
    return found


def stderr_text(nb: nbformat.NotebookNode) -> dict[int, str]:
    """Cell index -> what the cell wrote to stderr."""
    return {index: "".join(o.text for o in cell.get("outputs", [])
                           if o.output_type == "stream" and o.name == "stderr")
            for index, cell in enumerate(nb.cells)
            if any(o.output_type == "stream" and o.name == "stderr" for o in cell.get("outputs", []))}


def cells_with(nb: nbformat.NotebookNode, flag: str) -> dict[int, str]:
    """Cell index -> grade_id of the cells whose nbgrader metadata has ``flag`` set."""
    return {i: c.metadata["nbgrader"]["grade_id"] for i, c in enumerate(nb.cells)
            if c.metadata.get("nbgrader", {}).get(flag)}


def outputs_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            parts.append(output.text)
        elif "data" in output:
            parts.append(str(output.data.get("text/plain", "")))
    return "\n".join(parts)


def verdict_table(nb: nbformat.NotebookNode) -> str:
    """Part 4's before/after verdicts as displayed (the cell's result, not its printed lines)."""
    cell = nb.cells[find_cell(nb, "for stage, answer in")]
    return "".join(o.data["text/plain"] for o in cell.outputs if o.output_type == "execute_result")


def find_cell(nb: nbformat.NotebookNode, needle: str) -> int:
    matches = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and needle in c.source]
    assert len(matches) == 1, f"expected one code cell containing {needle!r}, found {len(matches)}"
    return matches[0]


@pytest.mark.parametrize("name", ["01_seed_and_explore", "02_memory_and_scanner", "03_retrieval",
                                  "04_agent_and_corrections"])
def test_solution_notebook_executes_without_error(name, home, tmp_path, monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    # Part 4 runs twice in one kernel: a learner's Run All again must tell the demo's story again
    runs, seconds = execute(ROOT / "solutions" / name / f"{name}.ipynb", tmp_path,
                            passes=2 if name == "04_agent_and_corrections" else 1)
    nb = runs[0]
    print(f"\n{name}: solution notebook executed in {seconds:.1f} s (fresh WORKSHOP_HOME)")
    assert errors(nb) == {}
    assert stderr_text(nb) == {}
    assert seconds < BUDGET_SECONDS
    for index in cells_with(nb, "grade"):
        assert "passed" in outputs_text(nb.cells[index]), f"{name}: check cell {index} printed no pass line"
    if name == "01_seed_and_explore":
        assert "model ALL_MINILM_L6_V2: loaded" in outputs_text(nb.cells[find_cell(nb, "# SETUP")])
        naive = outputs_text(nb.cells[find_cell(nb, "naive_total")])
        assert "100x too big" in naive
        near = outputs_text(nb.cells[find_cell(nb, "SDO_WITHIN_DISTANCE")])
        assert "KM_FROM_SINGAPORE" in near
    if name == "02_memory_and_scanner":
        scan = outputs_text(nb.cells[find_cell(nb, "write_facts(memory_client")])
        assert "table facts: 7" in scan and "library's version" not in scan  # the solution's own scan ran
        profiles = outputs_text(nb.cells[find_cell(nb, "register(actor_id, information)")])
        assert profiles.count(": registered") == 2, "on a fresh home the learner's cell registers both profiles"
        index = outputs_text(nb.cells[find_cell(nb, "print(TEXT_INDEX_DDL)")])
        assert "CTXSYS.CONTEXT" in index and "eda_onnx_memory_ctx: created" in index
        assert "writing memories" in scan, "the scan cell should show a progress bar outside nbgrader"
        bar = [line for line in scan.replace("\r", "\n").splitlines() if "writing memories" in line][-1]
        assert "100%" in bar and "84/84" in bar, f"a saved notebook should keep the finished bar, got {bar!r}"
    if name == "03_retrieval":
        probe = nb.cells[find_cell(nb, "side_by_side = ")]
        table = outputs_text(probe)
        for column in ("vector only", "keyword only", "hybrid (RRF)"):
            assert column in table
        phrase = outputs_text(nb.cells[find_cell(nb, "the whole question as one phrase")])
        assert "not written yet" not in "".join(outputs_text(c) for c in nb.cells)
        assert phrase  # the counts themselves are checked below, from the same notebook run
        rows = [line.split() for line in phrase.splitlines() if line.strip().startswith(("0", "1"))]
        # the last block of the printed table holds "memories matched": phrase first, then text_query
        assert rows[-2][-1] == "0" and int(rows[-1][-1]) > 0, phrase
    if name == "04_agent_and_corrections":
        assert "offline teaching model" in outputs_text(nb.cells[find_cell(nb, "# SETUP")])
        table = outputs_text(nb.cells[find_cell(nb, "for stage, answer in")])
        verdicts = {line.split()[0]: line.split()[1:] for line in table.splitlines()
                    if line.startswith(("value", "capacity"))}
        # columns: no memory, draft only, accepted
        assert verdicts == {"value": ["False", "False", "True"], "capacity": ["False", "False", "True"]}, table
        assert "refused, as it should be" in outputs_text(nb.cells[find_cell(nb, "refused, as it should be")])
        assert "not written yet" not in "".join(outputs_text(c) for c in nb.cells)
        filed = outputs_text(nb.cells[find_cell(nb, "restart_correction_demo()")])
        assert "No corrections from an earlier run" in filed and "while all are drafts: 0" in filed, filed
        again = runs[1]
        assert errors(again) == {} and stderr_text(again) == {}
        refiled = outputs_text(again.cells[find_cell(again, "restart_correction_demo()")])
        # the first pass filed 3 corrections and CHECK 4's hidden test one probe
        assert "Deleted 4 corrections an earlier run of this notebook filed (2 accepted, 2 discard)" in refiled, \
            refiled
        assert "while all are drafts: 0" in refiled, refiled
        # the verdict table itself (how stdout is cut into stream outputs varies from run to run)
        assert verdict_table(again) == verdict_table(nb) != ""
        # the long-term memory example files its fact once, however often the notebook runs
        assert "drafts filed for review: 1" in outputs_text(nb.cells[find_cell(nb, "ltm.on_session_end(")])
        assert "drafts filed for review: 0" in outputs_text(again.cells[find_cell(again, "ltm.on_session_end(")])


def test_student_notebook_01_is_the_solution_notebook():
    """Part 1 has no TODO, so its student version runs exactly the solution's code (executed above)."""
    source = release.annotate(release.read_notebook(ROOT / "solutions/01_seed_and_explore/01_seed_and_explore.ipynb"),
                              "01_seed_and_explore")
    student = release.read_notebook(ROOT / "notebooks/01_seed_and_explore/01_seed_and_explore.ipynb")
    assert [c.source for c in student.cells] == [c.source for c in source.cells]
    assert not cells_with(student, "grade") and not cells_with(student, "solution")


@pytest.fixture(scope="module")
def prepared_home(home_copy) -> Path:
    """A lite home brought up to the scan level once; each test gets a copy."""
    return home_copy("scan", "prepared")


def test_the_check_cell_fails_a_scanner_that_does_not_upper_case_the_owner(prepared_home, tmp_path, monkeypatch,
                                                                            capsys):
    """CHECK 1 (visible check and hidden tests) fails a scanner that does not upper-case the owner."""
    home = tmp_path / "home"
    shutil.copytree(prepared_home, home)
    monkeypatch.setenv("WORKSHOP_HOME", str(home))
    monkeypatch.setenv("WORKSHOP_BACKEND", "lite")
    name = "02_memory_and_scanner"
    nb = release.read_notebook(ROOT / "solutions" / name / f"{name}.ipynb")
    check = find_cell(nb, "# CHECK 1")
    assert "### BEGIN HIDDEN TESTS" in nb.cells[check].source
    todo = find_cell(nb, "# TODO 1")
    prefix = [c.source for c in nb.cells[:check] if c.cell_type == "code"]

    def run(todo_source: str) -> None:
        namespace = {"display": lambda *args, **kwargs: None}
        for source in prefix:
            exec(compile(todo_source if source == nb.cells[todo].source else source, name, "exec"), namespace)
        exec(compile(nb.cells[check].source, name, "exec"), namespace)

    run(nb.cells[todo].source)
    assert "TODO 1 passed" in capsys.readouterr().out
    mutant = nb.cells[todo].source.replace("    owner = owner.upper()\n", "")
    assert mutant != nb.cells[todo].source
    with pytest.raises(AssertionError, match=r"owner = owner\.upper\(\) first"):
        run(mutant)   # the check states the rule itself now; the hidden test stays as a second line
    assert "TODO 1 passed" not in capsys.readouterr().out
