"""What lite's Oracle-SQL layer costs per statement, against plain sqlite3.

Times a simple parameterised SELECT (one row by primary key, fetched) three ways:

* ``lite_first_us``  - lite, first execution of a statement text: guard, parse
  with the Oracle dialect, rewrite, then run (each timed text is new, so
  nothing is cached);
* ``lite_cached_us`` - lite, the same text again: the translation comes from
  the per-connection cache, then binds are checked and values converted;
* ``sqlite_us``      - the equivalent SQLite statement on a plain ``sqlite3``
  connection to a table with the same rows (no translation, no conversion).

Prints ``name=value`` lines (microseconds per execute, fetch included).
Run: ``python benchmarks/bench_lite.py [--n 2000]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workshop_lib.backends.lite import connect_lite as connect  # noqa: E402

ROWS = 1000
ORACLE_SQL = "SELECT name, capacity_teu FROM supplychain.vessels WHERE vessel_id = :id"
SQLITE_SQL = "SELECT name, capacity_teu FROM vessels WHERE vessel_id = :id"


def _setup(folder: Path) -> tuple[object, sqlite3.Connection]:
    lite = connect(folder / "lite_home", "AGENT")
    cur = lite.cursor()
    cur.execute("CREATE TABLE supplychain.vessels (vessel_id NUMBER(10) PRIMARY KEY, "
                "name VARCHAR2(100) NOT NULL, capacity_teu NUMBER(8))")
    rows = [(i, f"Vessel {i}", 1000 + 17 * i) for i in range(1, ROWS + 1)]
    cur.executemany("INSERT INTO supplychain.vessels (vessel_id, name, capacity_teu) VALUES (:1, :2, :3)", rows)
    lite.commit()
    raw = sqlite3.connect(folder / "plain.db", isolation_level=None)
    raw.execute("CREATE TABLE vessels (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL, capacity_teu INTEGER)")
    raw.executemany("INSERT INTO vessels VALUES (?, ?, ?)", rows)
    return lite, raw


def _per_call_us(run, count: int, repeats: int = 5) -> float:
    """Median over ``repeats`` of the mean time per call of ``run(i)`` for i in range(count)."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(count):
            run(i)
        samples.append((time.perf_counter() - start) / count * 1e6)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="executions per timed loop (default 2000)")
    parser.add_argument("--first", type=int, default=200, help="distinct texts for the first-execution timing")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        lite, raw = _setup(Path(tmp))
        cur = lite.cursor()

        # Each repeat uses texts never executed before, so every execute pays guard + parse + translate.
        texts = [f"{ORACLE_SQL} AND {k} = {k}" for k in range(args.first * 5)]
        first_samples = []
        for repeat in range(5):
            batch = texts[repeat * args.first:(repeat + 1) * args.first]
            start = time.perf_counter()
            for i, text in enumerate(batch):
                cur.execute(text, id=1 + i % ROWS)
                cur.fetchall()
            first_samples.append((time.perf_counter() - start) / len(batch) * 1e6)
        lite_first = statistics.median(first_samples)

        def cached(i: int) -> None:
            cur.execute(ORACLE_SQL, id=1 + i % ROWS)
            cur.fetchall()

        cached(0)  # translate once
        lite_cached = _per_call_us(cached, args.n)

        raw_cur = raw.cursor()

        def plain(i: int) -> None:
            raw_cur.execute(SQLITE_SQL, {"id": 1 + i % ROWS})
            raw_cur.fetchall()

        sqlite_us = _per_call_us(plain, args.n)

        # Same answers both ways (so the comparison is fair).
        cur.execute(ORACLE_SQL, id=42)
        assert cur.fetchall() == raw.execute(SQLITE_SQL, {"id": 42}).fetchall()
        lite.close()
        raw.close()

    print(f"n={args.n}")
    print(f"lite_first_us={lite_first:.1f}")
    print(f"lite_cached_us={lite_cached:.1f}")
    print(f"sqlite_us={sqlite_us:.1f}")
    print(f"cached_overhead_us={lite_cached - sqlite_us:.1f}")
    print(f"cached_vs_sqlite_ratio={lite_cached / sqlite_us:.2f}")
    print(f"first_vs_cached_ratio={lite_first / lite_cached:.1f}")


if __name__ == "__main__":
    main()
