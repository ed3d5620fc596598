"""What lite's Oracle-SQL layer costs per statement, against plain sqlite3.

Times a simple parameterised SELECT (one row by primary key, fetched) three ways:

* ``lite_first_us``  - lite, first execution of a statement text: guard, parse
  with the Oracle dialect, rewrite, then run (each timed text is new, so
  nothing is cached);
* ``lite_cached_us`` - lite, the same text again: the translation comes from
  the per-connection cache, then binds are checked and values converted;
* ``sqlite_us``      - the equivalent SQLite statement on a plain ``sqlite3``
  connection to a table with the same rows (no translation, no conversion).

Prints ``name=value`` lines (microseconds per execute, fetch included) and,
unless ``--no-write``, replaces the ``bench_lite`` section of
docs/benchmarks.md (``benchmarks/docsection.py``). The cached-vs-sqlite3 ratio
is paired: each repeat times a lite loop and a sqlite3 loop back to back.
Run: ``python benchmarks/bench_lite.py [--n 2000] [--no-write]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import docsection  # noqa: E402
from workshop_lib.backends.lite import connect_lite as connect  # noqa: E402

NAME = "bench_lite"
TITLE = "Lite engine — `benchmarks/bench_lite.py`"

ROWS = 1000
ORACLE_SQL = "SELECT name, capacity_teu FROM supplychain.vessels WHERE vessel_id = :id"
SQLITE_SQL = "SELECT name, capacity_teu FROM vessels WHERE vessel_id = :id"


def _setup(folder: Path) -> tuple[object, sqlite3.Connection]:
    owner = connect(folder / "lite_home", "SUPPLYCHAIN")   # the owner fills its table; AGENT reads it
    cur = owner.cursor()
    cur.execute("CREATE TABLE supplychain.vessels (vessel_id NUMBER(10) PRIMARY KEY, "
                "name VARCHAR2(100) NOT NULL, capacity_teu NUMBER(8))")
    rows = [(i, f"Vessel {i}", 1000 + 17 * i) for i in range(1, ROWS + 1)]
    cur.executemany("INSERT INTO supplychain.vessels (vessel_id, name, capacity_teu) VALUES (:1, :2, :3)", rows)
    owner.commit()
    owner.close()
    lite = connect(folder / "lite_home", "AGENT")
    raw = sqlite3.connect(folder / "plain.db", isolation_level=None)
    raw.execute("CREATE TABLE vessels (vessel_id INTEGER PRIMARY KEY, name TEXT NOT NULL, capacity_teu INTEGER)")
    raw.executemany("INSERT INTO vessels VALUES (?, ?, ?)", rows)
    return lite, raw


def _per_call_us(run, count: int) -> float:
    """Mean time per call of ``run(i)`` for i in range(count), in microseconds."""
    start = time.perf_counter()
    for i in range(count):
        run(i)
    return (time.perf_counter() - start) / count * 1e6


def render(figures: dict) -> str:
    """The section's markdown from the figures (the docs test renders recorded figures with this too)."""
    sp = docsection.fmt_spread
    return "\n".join([
        docsection.header(figures["env"]), "",
        f"A one-row primary-key `SELECT` with a named bind, fetch included, {figures['n']} executions per "
        f"loop, {figures['repeats']} loops; median (min – max):", "",
        "| path | µs per execute |", "|---|---|",
        f"| lite, first execution of a new statement text (guard + parse + translate + run) | "
        f"{sp(figures['first_us'], 0)} |",
        f"| lite, cached translation | {sp(figures['cached_us'], 1)} |",
        f"| plain `sqlite3`, the equivalent SQLite statement | {sp(figures['sqlite_us'], 1)} |",
        f"| ratio lite cached / `sqlite3`, paired per loop | {sp(figures['ratio'])} |"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="executions per timed loop (default 2000)")
    parser.add_argument("--first", type=int, default=200, help="distinct texts for the first-execution timing")
    parser.add_argument("--repeats", type=int, default=5, help="timed loops of each kind (default 5)")
    parser.add_argument("--no-write", action="store_true", help="leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    env = docsection.environment(docsection.command_line("bench_lite.py", argv))

    with tempfile.TemporaryDirectory() as tmp:
        lite, raw = _setup(Path(tmp))
        cur = lite.cursor()

        # Each repeat uses texts never executed before, so every execute pays guard + parse + translate.
        texts = [f"{ORACLE_SQL} AND {k} = {k}" for k in range(args.first * args.repeats)]
        first_samples = []
        for repeat in range(args.repeats):
            batch = texts[repeat * args.first:(repeat + 1) * args.first]
            start = time.perf_counter()
            for i, text in enumerate(batch):
                cur.execute(text, id=1 + i % ROWS)
                cur.fetchall()
            first_samples.append((time.perf_counter() - start) / len(batch) * 1e6)

        def cached(i: int) -> None:
            cur.execute(ORACLE_SQL, id=1 + i % ROWS)
            cur.fetchall()

        raw_cur = raw.cursor()

        def plain(i: int) -> None:
            raw_cur.execute(SQLITE_SQL, {"id": 1 + i % ROWS})
            raw_cur.fetchall()

        cached(0)  # translate once
        pairs = [(_per_call_us(cached, args.n), _per_call_us(plain, args.n)) for _ in range(args.repeats)]

        # Same answers both ways (so the comparison is fair).
        cur.execute(ORACLE_SQL, id=42)
        assert cur.fetchall() == raw.execute(SQLITE_SQL, {"id": 42}).fetchall()
        lite.close()
        raw.close()

    figures = {"env": env, "n": args.n, "repeats": args.repeats,
               "first_us": docsection.spread(first_samples),
               "cached_us": docsection.spread(p[0] for p in pairs),
               "sqlite_us": docsection.spread(p[1] for p in pairs),
               "ratio": docsection.spread(p[0] / p[1] for p in pairs)}
    print(f"n={args.n}")
    print(f"lite_first_us={figures['first_us']['median']:.1f}")
    print(f"lite_cached_us={figures['cached_us']['median']:.1f}")
    print(f"sqlite_us={figures['sqlite_us']['median']:.1f}")
    print(f"cached_vs_sqlite_ratio={figures['ratio']['median']:.2f}")
    if not args.no_write:
        docsection.write_section(NAME, TITLE, render(figures), figures)


if __name__ == "__main__":
    main()
