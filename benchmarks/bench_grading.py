"""Grading figures: a class through ``workshop grade``, and a clean re-run forked from a warm parent vs a fresh process.

``python benchmarks/bench_grading.py [--learners 3] [--runs 5] [--no-write]``

* **A class** — ``--learners`` learners each hand in the solution notebooks of
  parts 2-4; ``grading.autograde`` grades them (lite, nbgrader kernels, clean
  re-runs). Reported: preparing the lite home, seconds per submission by
  assignment (median), and the whole run per learner.
* **The clean re-run** — for each graded assignment, ``--runs`` paired runs of
  ``clean_grade`` on the solution: in a fresh ``python`` process, and in a
  child forked from a warm parent (``workshop_lib.clean_runner``) that served
  one re-run of the assignment before (its one-off imports are reported apart:
  the first re-run of an assignment).

Unless ``--no-write`` is given, the tables replace the ``bench_grading``
section of docs/benchmarks.md (``benchmarks/docsection.py``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import docsection  # noqa: E402

NAME = "bench_grading"
TITLE = "Grading — `benchmarks/bench_grading.py`"
ASSIGNMENTS = ("02_memory_and_scanner", "03_retrieval", "04_agent_and_corrections")
_GRADED = re.compile(r"^graded (?P<learner>.+) / (?P<assignment>\S+): .* \((?P<seconds>[\d.]+) s\)$")
_PREPARED = re.compile(r"^prepared a lite workshop for grading in (?P<seconds>[\d.]+) s$")


def solution(name: str) -> Path:
    return REPO / "solutions" / name / f"{name}.ipynb"


def grade_class(learners: int) -> dict[str, Any]:
    """Grade ``learners`` learners who hand in the solutions; the run's times from its progress lines."""
    from workshop_lib import grading

    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as base:
        folder = Path(base) / "class"
        for n in range(1, learners + 1):
            for name in ASSIGNMENTS:
                target = folder / f"learner{n}" / name / f"{name}.ipynb"
                target.parent.mkdir(parents=True)
                shutil.copy(solution(name), target)
        os.environ["WORKSHOP_HOME"] = str(Path(base) / "unused-home")
        started = time.perf_counter()
        report = grading.autograde(folder, echo=lines.append)
        total = time.perf_counter() - started
    if any(entry.total != entry.max_total for entry in report.learners):
        raise SystemExit("a solution lost points: fix that before measuring")
    graded = [m for m in map(_GRADED.match, lines) if m]
    prepared = [m for m in map(_PREPARED.match, lines) if m]
    if len(graded) != learners * len(ASSIGNMENTS) or len(prepared) != 1:
        raise SystemExit("workshop grade's progress lines changed; update bench_grading's patterns:\n"
                         + "\n".join(lines))
    per = {name: docsection.spread(float(m["seconds"]) for m in graded if m["assignment"] == name)
           for name in ASSIGNMENTS}
    return {"learners": learners, "prepare_s": float(prepared[0]["seconds"]), "total_s": total,
            "per_learner_s": total / learners, "per_submission_s": per}


def clean_reruns(runs: int) -> list[dict[str, Any]]:
    """Paired clean re-runs of each assignment's solution: forked child vs fresh process."""
    from workshop_lib import grading
    from workshop_lib.clean_grade import clean_grade, warm_parent
    from workshop_lib.release import annotate, read_notebook

    results = []
    with tempfile.TemporaryDirectory(prefix="bench-clean-") as base:
        template = grading.prepare_home(Path(base) / "template")
        counter = iter(range(10**6))

        def home() -> Path:
            return grading._copy_home(template, Path(base) / f"home{next(counter)}")

        with warm_parent(Path(base)) as parent:
            for name in ASSIGNMENTS:
                source = annotate(read_notebook(solution(name)), name)
                ready: list[Path] = []   # a home copy made before each timed re-run, outside its time

                def run(runner: Any) -> None:
                    result = clean_grade(source, source, name, ready.pop(), runner=runner)
                    if result.failure or any(score == 0 for score in result.scores.values()):
                        raise SystemExit(f"{name}: the clean re-run of the solution failed: "
                                         f"{result.failure or result.errors}")

                def copy_home() -> None:
                    ready.append(home())

                first = docsection.timed_ms(lambda: run(parent), before=copy_home)
                pairs = docsection.paired_ms(lambda: run(parent), lambda: run(None), runs,
                                             before_a=copy_home, before_b=copy_home)
                results.append({"assignment": name, "first_warm_s": first / 1000,
                                "warm_s": _seconds(pairs["a_ms"]), "fresh_s": _seconds(pairs["b_ms"]),
                                "ratio": pairs["ratio"]})
                print(results[-1], file=sys.stderr)
            if parent.fallbacks:
                raise SystemExit(f"{parent.fallbacks} re-runs fell back to a fresh process: not a fair measurement")
    return results


def _seconds(spread_ms: dict[str, float]) -> dict[str, float]:
    return {key: value / 1000 for key, value in spread_ms.items()}


def render(figures: dict[str, Any]) -> str:
    """The section's markdown from the figures (the docs test renders recorded figures with this too)."""
    sp = docsection.fmt_spread
    klass = figures["class"]
    lines = [docsection.header(figures["env"]), "",
             f"A class of {klass['learners']} learners, each handing in the solution notebooks of parts 2–4, "
             f"graded by `workshop_lib.grading.autograde` (lite, one nbgrader kernel per notebook, then the "
             f"clean re-run of its TODO cells):", "",
             "| measure | seconds |", "|---|---|",
             f"| preparing the lite home (once per run) | {klass['prepare_s']:.1f} |"]
    for name, spread in klass["per_submission_s"].items():
        lines.append(f"| one {name} submission, median (min – max) | {sp(spread, 1)} |")
    lines += [f"| the whole run | {klass['total_s']:.1f} |",
              f"| the whole run per learner | {klass['per_learner_s']:.1f} |", "",
              f"The clean re-run of one submission (the solution's TODO cells, setup cell and checks), "
              f"{figures['runs']} paired runs per row: a child forked from the warm parent against a fresh "
              f"`python` process; median (min – max). The warm parent's first re-run of an assignment also "
              f"pays that assignment's one-off imports (litellm for part 4):", "",
              "| assignment | forked child, s | fresh process, s | ratio child / fresh | first re-run in the warm "
              "parent, s |", "|---|---|---|---|---|"]
    for row in figures["clean"]:
        lines.append(f"| {row['assignment']} | {sp(row['warm_s'])} | {sp(row['fresh_s'])} | {sp(row['ratio'])} | "
                     f"{row['first_warm_s']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=3, help="learners in the graded class (default 3)")
    parser.add_argument("--runs", type=int, default=5, help="paired clean re-runs per assignment (default 5)")
    parser.add_argument("--no-write", action="store_true", help="print the figures, leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    os.environ["WORKSHOP_BACKEND"] = "lite"
    env = docsection.environment(docsection.command_line("bench_grading.py", argv))
    figures = {"env": env, "runs": args.runs, "clean": clean_reruns(args.runs), "class": grade_class(args.learners)}
    body = render(figures)
    docsection.publish(NAME, TITLE, body, figures, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
