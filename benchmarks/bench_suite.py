"""The test suite's own cost: wall and CPU time of ``make test``'s pytest run, and where the time goes.

Run: ``python benchmarks/bench_suite.py [--no-write]`` (one full suite run,
about as long as ``make test``; run it on an otherwise idle machine).

It runs the command ``make test`` runs (``python -m pytest -q``, pytest-xdist
with one worker per core, see pyproject.toml) in a child process with
every test's duration and records the wall time, the CPU time of every process
the suite started (workers, notebook kernels, grading and CLI subprocesses: the
children's resource usage once they have exited), the pass/skip counts, the
slowest setups and calls, and the workers' time by module. The suite is
CPU-bound, so wall time is about the CPU time divided by the cores; the goal of
issue 14 is ≤ 45 s. The workers' time (every setup, call and teardown) divided
by the workers is the least wall time those tests can take; the share of the
modules holding a test marked ``slow`` (real notebook kernels, nbgrader's round
trips, litellm's import) says how much of it no other module's speed-up can
reach. The one test
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
MODULES = 8
# the docs test of this very section checks the text this run replaces (and fails while it is still empty)
OWN_CHECK = ("tests/test_benchmarks_doc.py::"
             "test_the_section_is_exactly_what_the_script_renders_from_its_figures[bench_suite]")
_DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(.+?)\s*$")
_COUNT = re.compile(r"(\d+) (passed|skipped)\b")


def slow_modules() -> list[str]:
    """The test modules holding a test marked ``slow`` (collected in this process's pytest, no test run)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow", "-n", "0"],
                          cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"collecting the slow tests failed (exit {done.returncode}):\n{done.stdout[-2000:]}")
    return sorted({line.split("::")[0] for line in done.stdout.splitlines() if "::" in line})


def by_module(durations: list[dict[str, Any]]) -> dict[str, float]:
    """Seconds of every setup, call and teardown summed per test module, largest first."""
    sums: dict[str, float] = {}
    for item in durations:
        module = item["test"].split("::")[0]
        sums[module] = sums.get(module, 0.0) + item["seconds"]
    return dict(sorted(sums.items(), key=lambda kv: -kv[1]))


def run_suite(slow: list[str]) -> dict[str, Any]:
    """Run the suite once as ``make test`` does; its times, counts, slowest items and time per module, with
    the total of the ``slow`` modules (raises when it fails)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--durations=0", "--durations-min=0",
                           "--deselect", OWN_CHECK],
                          cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = done.stdout.splitlines()
    if done.returncode != 0:   # pytest exits non-zero on any failure or error
        tail = "\n".join(lines[-30:])
        raise SystemExit(f"the suite failed (exit {done.returncode}); nothing written.\n{tail}\n{done.stderr[-2000:]}")
    counts = {kind: int(n) for n, kind in _COUNT.findall(lines[-1] if lines else "")}
    durations = [{"seconds": float(m.group(1)), "when": m.group(2), "test": m.group(3)}
                 for m in map(_DURATION.match, lines) if m]   # pytest lists them longest first
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    modules = by_module(durations)
    return {"wall_s": wall, "cpu_s": cpu, "passed": counts.get("passed", 0), "skipped": counts.get("skipped", 0),
            "slowest": durations[:SLOWEST], "worker_s": sum(modules.values()),
            "slow_s": sum(seconds for name, seconds in modules.items() if name in slow),
            "modules": [{"module": name, "seconds": seconds} for name, seconds in modules.items()][:MODULES]}


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
    return "\n".join(lines + _floor_rows(figures))


def _floor_rows(figures: dict[str, Any]) -> list[str]:
    """What the tests' own time allows: the workers' time, its least wall time, and the slow modules' share."""
    s, workers = figures["suite"], figures["workers"]
    lines = ["", f"Where the workers' time goes: {s['worker_s']:.0f} s of setups, calls and teardowns, so at least "
             f"{s['worker_s'] / workers:.0f} s of wall time on {workers} workers, against the goal's "
             f"{figures['goal_s']} s (at most {figures['goal_s'] * workers} s of workers' time). The "
             f"{len(figures['slow_modules'])} modules holding a test marked `slow` (real notebook kernels, "
             f"nbgrader's round trips, litellm's import) take {s['slow_s']:.0f} s of it. "
             f"The {len(s['modules'])} largest modules:", "",
             "| seconds | module | marked `slow` |", "|---|---|---|"]
    lines += [f"| {m['seconds']:.1f} | `{m['module']}` | {'yes' if m['module'] in figures['slow_modules'] else ''} |"
              for m in s["modules"]]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print the figures, leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    env = docsection.environment(docsection.command_line("bench_suite.py", argv))
    slow = slow_modules()
    figures = {"env": env, "workers": os.cpu_count(), "goal_s": GOAL_SECONDS, "slow_modules": slow,
               "suite": run_suite(slow)}
    body = render(figures)
    docsection.publish(NAME, TITLE, body, figures, write=not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
