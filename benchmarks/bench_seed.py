"""Time a lite seed run and the catalog scan: ``python benchmarks/bench_seed.py [--runs N]``.

Seeds SUPPLYCHAIN into a fresh temporary WORKSHOP_HOME (first run: empty
schema) and then re-seeds it (drop and recreate) ``--runs`` times. Prints one
``seed_lite_seconds=<x>`` line with the median of all runs, plus the split
between the script's statement kinds so a slow path is easy to spot. Then
times the catalog scan (``reference_scan``) in a workshop brought up to its
memory tables: the first scan (every fact memory written), ``--runs`` forced
re-scans (every fact rewritten) and a re-scan with nothing to do. Unless
``--no-write``, replaces the ``bench_seed`` section of docs/benchmarks.md
(``benchmarks/docsection.py``). Goals (issue 14): seed ≤ 0.3 s, scan ≤ 0.3 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
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

from workshop_lib.backends.lite import connect_lite as connect  # noqa: E402
from workshop_lib.seed import DEFAULT_SQL_PATH, run_seed, split_statements  # noqa: E402

NAME = "bench_seed"
TITLE = "Seeding SUPPLYCHAIN in lite, and the catalog scan — `benchmarks/bench_seed.py`"


def time_statement_kinds(conn, statements: list[str]) -> tuple[dict[str, float], dict[str, int]]:
    """Seconds spent per statement kind (first keyword) in one seed run, inside one transaction, and how
    many INSERTs were translated in full and how many came from a statement-shape template (lite/shapes.py)."""
    spent: dict[str, float] = {}
    paths = {"full": 0, "template": 0}
    real_plan = conn._plan

    def counted_plan(sql: str):
        known = sql in conn.caches.plans
        before = len(conn.caches.plans)
        plan = real_plan(sql)
        if sql.lstrip()[:6].upper() == "INSERT" and not known:
            paths["full" if len(conn.caches.plans) != before or sql in conn.caches.plans else "template"] += 1
        return plan

    conn._plan = counted_plan   # an instance attribute: this connection only, for this one run
    cur = conn.cursor()
    try:
        with conn.atomic():
            for stmt in statements:
                kind = stmt.split(None, 1)[0].upper()
                started = time.perf_counter()
                cur.execute(stmt)
                spent[kind] = spent.get(kind, 0.0) + time.perf_counter() - started
    finally:
        del conn._plan
    return spent, paths


def time_scans(runs: int) -> dict[str, Any]:
    """Seconds of the catalog scan: first (all facts written), forced re-scans, and one with nothing to do."""
    import workshop_lib

    with tempfile.TemporaryDirectory(prefix="bench-scan-") as home:
        os.environ["WORKSHOP_HOME"], os.environ["WORKSHOP_BACKEND"] = home, "lite"
        ws = workshop_lib.start(upto="memory")
        try:
            from workshop_lib.scanner import reference_scan

            def timed(**options: Any) -> tuple[float, Any]:
                started = time.perf_counter()
                report = reference_scan(ws, **options)
                return time.perf_counter() - started, report

            first, report = timed()
            forced = [timed(force=True)[0] for _ in range(max(1, runs))]
            idle, again = timed()
        finally:
            ws.close()
    if again.written or report.written != report.total:
        raise SystemExit(f"unexpected scan reports: first {report}, then {again.written} written")
    return {"memories": report.total, "first_s": first, "forced_s": docsection.spread(forced), "idle_s": idle}


def render(figures: dict) -> str:
    """The section's markdown from the figures (the docs test renders recorded figures with this too)."""
    kinds = ", ".join(f"{k} {v:.3f} s" for k, v in sorted(figures["kinds"].items()))
    scan = figures["scan"]
    paths = figures.get("paths")   # recorded since statement shapes (lite/shapes.py)
    return "\n".join([
        docsection.header(figures["env"]), "",
        "| | value |", "|---|---|",
        f"| whole seed ({figures['statements']} statements, {figures['rows']} rows), {figures['runs']} runs, "
        f"median (min – max) | {docsection.fmt_spread(figures['seconds'], 3, ' s')} |",
        "| goal | ≤ 0.3 s |",
        f"| one run split by statement kind | {kinds} |",
        *([f"| INSERTs translated in full / from a statement-shape template | {paths['full']} / "
           f"{paths['template']} |"] if paths else []),
        "", f"The catalog scan (`reference_scan`: read the catalog, write its {scan['memories']} fact memories in "
        "one embedding run and one commit), in a workshop brought up to its memory tables:", "",
        "| scan | seconds |", "|---|---|",
        f"| first (every fact written) | {scan['first_s']:.3f} |",
        f"| forced re-scan (every fact rewritten), {figures['runs']} runs, median (min – max) | "
        f"{docsection.fmt_spread(scan['forced_s'], 3)} |",
        f"| re-scan with nothing to write | {scan['idle_s']:.3f} |",
        "| goal | ≤ 0.3 |"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="seed runs to time (default 3)")
    parser.add_argument("--no-write", action="store_true", help="leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    env = docsection.environment(docsection.command_line("bench_seed.py", argv))
    statements = split_statements(DEFAULT_SQL_PATH.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="bench-seed-") as home:
        conn = connect(Path(home), "SUPPLYCHAIN")   # the seed runs as SUPPLYCHAIN, as `workshop setup` runs it
        try:
            times = []
            for run in range(max(1, args.runs)):
                report = run_seed(conn, atomic=True, label="lite")
                times.append(report.elapsed_seconds)
                print(f"run {run + 1}: {report.elapsed_seconds:.3f} s ({report.statements} statements, "
                      f"{sum(report.row_counts.values())} rows)")
            kinds, paths = time_statement_kinds(conn, statements)
        finally:
            conn.close()
    print("by statement kind: " + ", ".join(f"{k}={v:.3f}s" for k, v in sorted(kinds.items())))
    print(f"INSERTs translated in full: {paths['full']}, from a template: {paths['template']}")
    print(f"seed_lite_seconds={statistics.median(times):.3f}")
    scan = time_scans(args.runs)
    print(f"scan_lite_seconds={scan['first_s']:.3f} (forced re-scan median {scan['forced_s']['median']:.3f})")
    figures = {"env": env, "runs": len(times), "seconds": docsection.spread(times), "kinds": kinds, "paths": paths,
               "statements": report.statements, "rows": sum(report.row_counts.values()), "scan": scan}
    if not args.no_write:
        docsection.write_section(NAME, TITLE, render(figures), figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
