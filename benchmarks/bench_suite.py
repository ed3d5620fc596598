"""The test suite's own cost: wall and CPU time of ``make test``'s pytest run, and where the time goes.

Run: ``python benchmarks/bench_suite.py [--no-write]`` (one full suite run,
about as long as ``make test``; run it on an otherwise idle machine).

It runs the command ``make test`` runs (``python -m pytest -q``, pytest-xdist
with one worker per core, see pyproject.toml) in a child process with
``--durations`` and records the wall time, the CPU time of every process the
suite started (workers, notebook kernels, grading and CLI subprocesses: the
children's resource usage once they have exited), the pass/skip counts and the
slowest setups and calls. The suite is CPU-bound, so wall time is about the
CPU time divided by the cores; the goal of issue 14 is ≤ 45 s. The one test
left out is the docs check of this section, whose text the run replaces. A
failing suite writes nothing and exits 1. Unless ``--no-write`` is given, the section
``bench_suite`` of docs/benchmarks.md is replaced (``benchmarks/docsection.py``).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import docsection  # noqa: E402

NAME = "bench_suite"
TITLE = "Test suite — `benchmarks/bench_suite.py`"
GOAL_SECONDS = 45
SLOWEST = 8
# the docs test of this very section checks the text this run replaces (and fails while it is still empty)
OWN_CHECK = ("tests/test_benchmarks_doc.py::"
             "test_the_section_is_exactly_what_the_script_renders_from_its_figures[bench_suite]")
_DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(.+?)\s*$")
_COUNT = re.compile(r"(\d+) (passed|skipped)\b")


def run_suite() -> dict[str, Any]:
    """Run the suite once as ``make test`` does; its times, counts and slowest items (raises when it fails)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", f"--durations={SLOWEST}", "--deselect", OWN_CHECK],
                          cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = done.stdout.splitlines()
    if done.returncode != 0:   # pytest exits non-zero on any failure or error
        tail = "\n".join(lines[-30:])
        raise SystemExit(f"the suite failed (exit {done.returncode}); nothing written.\n{tail}\n{done.stderr[-2000:]}")
    counts = {kind: int(n) for n, kind in _COUNT.findall(lines[-1] if lines else "")}
    slowest = [{"seconds": float(m.group(1)), "when": m.group(2), "test": m.group(3)}
               for m in map(_DURATION.match, lines) if m][:SLOWEST]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "passed": counts.get("passed", 0), "skipped": counts.get("skipped", 0),
            "slowest": slowest}


def render(figures: dict[str, Any]) -> str:
    """The section's markdown from the figures (the docs test renders recorded figures with this too)."""
    s = figures["suite"]
    lines = [docsection.header(figures["env"]), "",
             f"One run of `make test` (pytest-xdist, {figures['workers']} workers), {s['passed']} passed, "
             f"{s['skipped']} skipped:", "",
             "| measure | value |", "|---|---|",
             f"| wall time | {s['wall_s']:.0f} s (goal ≤ {figures['goal_s']} s) |",
             f"| CPU time of the processes it started (workers, kernels, graders, CLI runs) | {s['cpu_s']:.0f} s |",
             f"| CPU time / wall time | {s['cpu_s'] / s['wall_s']:.2f} |",
             "", f"The {len(s['slowest'])} slowest setups and calls:", "",
             "| seconds | phase | test |", "|---|---|---|"]
    lines += [f"| {t['seconds']:.1f} | {t['when']} | `{t['test']}` |" for t in s["slowest"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print the figures, leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    env = docsection.environment(docsection.command_line("bench_suite.py", argv))
    figures = {"env": env, "workers": os.cpu_count(), "goal_s": GOAL_SECONDS, "suite": run_suite()}
    body = render(figures)
    docsection.publish(NAME, TITLE, body, figures, write=not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
