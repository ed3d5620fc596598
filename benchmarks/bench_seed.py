"""Time a lite seed run: ``python benchmarks/bench_seed.py [--runs N]``.

Seeds SUPPLYCHAIN into a fresh temporary WORKSHOP_HOME (first run: empty
schema) and then re-seeds it (drop and recreate) ``--runs`` times. Prints one
``seed_lite_seconds=<x>`` line with the median of all runs, plus the split
between the script's statement kinds so a slow path is easy to spot.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from workshop_lib.backends.lite import connect_lite as connect  # noqa: E402
from workshop_lib.seed import DEFAULT_SQL_PATH, run_seed, split_statements  # noqa: E402


def time_statement_kinds(conn, statements: list[str]) -> dict[str, float]:
    """Seconds spent per statement kind (first keyword) in one seed run, inside one transaction."""
    spent: dict[str, float] = {}
    cur = conn.cursor()
    with conn.atomic():
        for stmt in statements:
            kind = stmt.split(None, 1)[0].upper()
            started = time.perf_counter()
            cur.execute(stmt)
            spent[kind] = spent.get(kind, 0.0) + time.perf_counter() - started
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="seed runs to time (default 3)")
    args = parser.parse_args(argv)
    statements = split_statements(DEFAULT_SQL_PATH.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="bench-seed-") as home:
        conn = connect(Path(home))
        try:
            times = []
            for run in range(max(1, args.runs)):
                report = run_seed(conn, atomic=True, label="lite")
                times.append(report.elapsed_seconds)
                print(f"run {run + 1}: {report.elapsed_seconds:.3f} s ({report.statements} statements, "
                      f"{sum(report.row_counts.values())} rows)")
            kinds = time_statement_kinds(conn, statements)
        finally:
            conn.close()
    print("by statement kind: " + ", ".join(f"{k}={v:.3f}s" for k, v in sorted(kinds.items())))
    print(f"seed_lite_seconds={statistics.median(times):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
