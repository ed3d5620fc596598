"""Grading figures: a class through ``workshop grade``, and a clean re-run forked from a warm parent vs a fresh process.

``python benchmarks/bench_grading.py [--learners 3] [--class-runs 2] [--jobs N] [--runs 5] [--no-write]``

* **A class** — ``--learners`` learners each hand in the solution notebooks of
  parts 2-4; ``grading.autograde`` grades them (lite, nbgrader kernels, clean
  re-runs), ``--class-runs`` paired times one submission at a time
  (``jobs=1``) and ``--jobs`` at a time (default: what ``workshop grade``
  uses on this machine). Reported: preparing the lite home, seconds per
  submission by assignment (median, one at a time), the whole run both ways
  and their paired ratio, and the whole run per learner.
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


def grade_once(learners: int, jobs: int) -> dict[str, Any]:
    """Grade ``learners`` learners who hand in the solutions, ``jobs`` at a time; the run's times."""
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
        report = grading.autograde(folder, echo=lines.append, jobs=jobs)
        total = time.perf_counter() - started
    if any(entry.total != entry.max_total or entry.notes for entry in report.learners):
        raise SystemExit("a solution lost points or has notes: fix that before measuring\n" + "\n".join(lines))
    graded = [m for m in map(_GRADED.match, lines) if m]
    prepared = [m for m in map(_PREPARED.match, lines) if m]
    if len(graded) != learners * len(ASSIGNMENTS) or len(prepared) != 1:
        raise SystemExit("workshop grade's progress lines changed; update bench_grading's patterns:\n"
                         + "\n".join(lines))
    return {"total_s": total, "prepare_s": float(prepared[0]["seconds"]),
            "submissions": [(m["assignment"], float(m["seconds"])) for m in graded]}


def grade_class(learners: int, runs: int, jobs: int) -> dict[str, Any]:
    """``runs`` paired grading runs of the class: one submission at a time against ``jobs`` at a time."""
    serial: list[dict[str, Any]] = []
    parallel: list[dict[str, Any]] = []
    for run in range(runs):   # alternating which goes first, as docsection.paired_ms does
        for side in ((serial, 1), (parallel, jobs))[:: 1 if run % 2 == 0 else -1]:
            side[0].append(grade_once(learners, side[1]))
            print(f"jobs={side[1]}: {side[0][-1]['total_s']:.1f} s", file=sys.stderr)
    spread = docsection.spread
    per = {name: spread(seconds for one in serial for assignment, seconds in one["submissions"]
                        if assignment == name) for name in ASSIGNMENTS}
    return {"learners": learners, "runs": runs, "jobs": jobs,
            "prepare_s": spread(one["prepare_s"] for one in serial + parallel),
            "per_submission_s": per,
            "serial_s": spread(one["total_s"] for one in serial),
            "parallel_s": spread(one["total_s"] for one in parallel),
            "ratio": spread(p["total_s"] / s["total_s"] for s, p in zip(serial, parallel)),
            "per_learner_s": spread(one["total_s"] / learners for one in parallel)}


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
    jobs = klass["jobs"]
    lines = [docsection.header(figures["env"]), "",
             f"A class of {klass['learners']} learners, each handing in the solution notebooks of parts 2–4, "
             f"graded by `workshop_lib.grading.autograde` (lite, one nbgrader kernel per notebook, then the "
             f"clean re-run of its TODO cells), {klass['runs']} paired runs: one submission at a time "
             f"(`--jobs 1`) and {jobs} at a time (`--jobs {jobs}`, what `workshop grade` uses on this "
             f"machine); median (min – max):", "",
             "| measure | seconds |", "|---|---|",
             f"| preparing the lite home (once per run) | {sp(klass['prepare_s'], 1)} |"]
    for name, spread in klass["per_submission_s"].items():
        lines.append(f"| one {name} submission, one at a time | {sp(spread, 1)} |")
    lines += [f"| the whole run, one submission at a time | {sp(klass['serial_s'], 1)} |",
              f"| the whole run, {jobs} at a time | {sp(klass['parallel_s'], 1)} |",
              f"| ratio {jobs} at a time / one at a time (paired) | {sp(klass['ratio'])} |",
              f"| the whole run per learner, {jobs} at a time | {sp(klass['per_learner_s'], 1)} |", "",
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
    parser.add_argument("--class-runs", type=int, default=2,
                        help="paired grading runs of the class, one at a time and --jobs at a time (default 2)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="submissions at a time in the parallel runs (default: workshop grade's default here)")
    parser.add_argument("--no-write", action="store_true", help="print the figures, leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    os.environ["WORKSHOP_BACKEND"] = "lite"
    env = docsection.environment(docsection.command_line("bench_grading.py", argv))
    from workshop_lib.grade_workers import default_jobs

    jobs = args.jobs or default_jobs()
    figures = {"env": env, "runs": args.runs, "clean": clean_reruns(args.runs),
               "class": grade_class(args.learners, args.class_runs, jobs)}
    body = render(figures)
    docsection.publish(NAME, TITLE, body, figures, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
