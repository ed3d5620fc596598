"""docs/benchmarks.md holds only what the benchmark scripts write, in the format they write it.

Each ``benchmarks/bench_*.py`` renders its section from a dict of figures and
stores that dict in the section (``benchmarks/docsection.py``). Rendering the
stored figures again must give the section's text exactly: a hand-edited
number, or a table whose format no longer matches the script, fails here. The
numbers themselves are whatever the last run measured.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "benchmarks"
DOC = REPO / "docs" / "benchmarks.md"
SCRIPTS = sorted(BENCH.glob("bench_*.py"))


def _module(path: Path):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"_doc_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module   # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _docsection():
    return _module(BENCH / "docsection.py")


def test_every_benchmark_script_owns_a_section() -> None:
    assert [p.stem for p in SCRIPTS] == ["bench_agent", "bench_embedding", "bench_grading", "bench_lite",
                                         "bench_retrieval", "bench_seed", "bench_suite"]
    for path in SCRIPTS:
        module = _module(path)
        assert module.NAME == path.stem and callable(module.render)


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_the_section_is_exactly_what_the_script_renders_from_its_figures(path: Path) -> None:
    module = _module(path)
    found = _docsection().read_section(module.NAME, DOC.read_text(encoding="utf-8"))
    assert found is not None, f"docs/benchmarks.md has no {module.NAME} section: run python benchmarks/{path.name}"
    body, figures = found
    assert figures, f"the {module.NAME} section holds no figures: run python benchmarks/{path.name}"
    assert body == module.render(figures)
    assert re.match(r"Measured \d{4}-\d\d-\d\d at commit `[0-9a-f]{7,}(\+dirty)?` on .+, by `python benchmarks/"
                    + re.escape(path.name), body)


def test_no_table_outside_the_written_sections() -> None:
    text = DOC.read_text(encoding="utf-8")
    outside = re.sub(r"<!-- (bench_\w+):begin -->.*?<!-- \1:end -->", "", text, flags=re.S)
    assert not [line for line in outside.splitlines() if line.lstrip().startswith("|")], \
        "a table outside the scripts' sections is a hand-typed figure"


def test_a_hand_edited_figure_is_caught(tmp_path: Path) -> None:
    docsection = _docsection()
    module = _module(BENCH / "bench_seed.py")
    figures = {"env": {"date": "2026-01-01", "commit": "abcdef0", "machine": "m", "command": "python benchmarks/x"},
               "runs": 3, "seconds": {"min": 0.2, "median": 0.25, "max": 0.3}, "kinds": {"INSERT": 0.2},
               "statements": 709, "rows": 608,
               "scan": {"memories": 84, "first_s": 0.7, "forced_s": {"min": 0.6, "median": 0.65, "max": 0.7},
                        "idle_s": 0.001}}
    text = docsection.section(module.NAME, module.render(figures), figures)
    body, kept = docsection.read_section(module.NAME, text)
    assert kept == figures and body == module.render(kept)
    edited = text.replace("0.250 s", "0.150 s")
    body, kept = docsection.read_section(module.NAME, edited)
    assert body != module.render(kept)


def test_write_section_replaces_only_its_own_section(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docsection = _docsection()
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# B\n\nintro\n\n<!-- a:begin -->\nold a\n<!-- a:end -->\n\nmiddle\n\n"
                   "<!-- b:begin -->\nold b\n<!-- b:end -->\n", encoding="utf-8")
    monkeypatch.setattr(docsection, "DOC", doc)
    monkeypatch.setattr(docsection, "REPO", tmp_path)
    docsection.write_section("a", "A", "new a", {"x": 1})
    docsection.write_section("c", "C", "new c", {"y": 2})
    text = doc.read_text(encoding="utf-8")
    assert "old a" not in text and "old b" in text and "intro" in text and "middle" in text
    assert docsection.read_section("a", text) == ("new a", {"x": 1})
    assert text.rstrip().endswith("<!-- c:end -->") and "## C" in text
    assert docsection.spread([3, 1, 2]) == {"min": 1, "median": 2, "max": 3}
