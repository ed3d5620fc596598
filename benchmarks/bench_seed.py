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
import contextlib
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
            forced, embedded = [], []
            with embedding_calls() as calls:   # the forced re-scans' embedding runs give the floor's figures
                for _ in range(max(1, runs)):
                    calls.clear()
                    forced.append(timed(force=True)[0])
                    embedded.append(sum(seconds for _, seconds in calls))
                texts = [text for batch, _ in calls for text in batch]
            idle, again = timed()
            work = embedding_work(texts, embedded)
        finally:
            ws.close()
    if again.written or report.written != report.total:
        raise SystemExit(f"unexpected scan reports: first {report}, then {again.written} written")
    return {"memories": report.total, "first_s": first, "forced_s": docsection.spread(forced), "idle_s": idle,
            "embedding": work}


def weight_macs_per_token(model_path: Path) -> int:
    """Multiply-adds per token in the encoder's products with its weight matrices (attention's own, which grow
    with the text's length, left out): the least arithmetic a token costs, read from the model file's graph.

    A MatMul's second input counts when it is an initializer, or one reached through the Cast / Mul /
    Transpose steps that dequantise the file's int8 weights.
    """
    import onnx

    graph = onnx.load(str(model_path)).graph
    shapes = {i.name: tuple(i.dims) for i in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}

    def matrix(name: str) -> tuple[int, ...] | None:
        if name in shapes:
            return shapes[name] if len(shapes[name]) == 2 else None
        node = made_by.get(name)
        if node is None or node.op_type not in ("Cast", "Mul", "Transpose"):
            return None
        found = [m for m in map(matrix, node.input) if m]
        return found[0] if found else None

    weights = [matrix(node.input[1]) for node in graph.node if node.op_type == "MatMul"]
    return sum(rows * cols for rows, cols in filter(None, weights))


def matmul_rate(rows: int, inner: int, cols: int, repeats: int = 30) -> float:
    """GFLOP/s of numpy's float32 matrix product (BLAS, every core) for one shape, median of ``repeats``."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.standard_normal((rows, inner), dtype=np.float32)
    b = rng.standard_normal((inner, cols), dtype=np.float32)
    a @ b   # warm the BLAS threads
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        a @ b
        times.append(time.perf_counter() - started)
    return 2 * rows * inner * cols / statistics.median(times) / 1e9


@contextlib.contextmanager
def embedding_calls():
    """Record the texts and seconds of every call of the workshop's embedder while the block runs: a list of
    ``(texts, seconds)``, filled as the calls happen (the embedder is this process's one, wrapped in place)."""
    from workshop_lib.embedding.build import ensure_model
    from workshop_lib.embedding.runtime import get_embedder

    embedder = get_embedder(ensure_model().path)
    real_embed = embedder.embed
    calls: list[tuple[list[str], float]] = []

    def recorded(texts):
        started = time.perf_counter()
        vectors = real_embed(texts)
        calls.append((list(texts), time.perf_counter() - started))
        return vectors

    embedder.embed = recorded   # an instance attribute: this embedder only, for this block
    try:
        yield calls
    finally:
        del embedder.embed


def embedding_work(texts: list[str], seconds: list[float]) -> dict[str, Any]:
    """What one scan asks of the model (``texts``; ``seconds`` its embedding time in each run), and the least
    time this machine needs for it: the tokens, times the encoder's weight products per token, divided by
    numpy's float32 product rate for the encoder's widest product over 16 texts of the median length
    (384 x 1536; the embedder's batches are 8 texts, and a taller product runs at least as fast).
    No batching or engine work goes under that floor while the arithmetic stays the model file's float32."""
    from workshop_lib.embedding.build import ensure_model
    from workshop_lib.embedding.runtime import get_embedder

    path = ensure_model().path
    tokens = get_embedder(path).token_counts(texts)
    gflop = 2 * weight_macs_per_token(path) * sum(tokens) / 1e9
    rate = matmul_rate(16 * int(statistics.median(tokens)), 384, 1536)
    return {"texts": len(texts), "tokens": sum(tokens), "gflop": gflop, "embed_s": docsection.spread(seconds),
            "machine_gflops": rate, "floor_s": gflop / rate}


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
        "| goal | ≤ 0.3 |",
        *(_embedding_rows(scan["embedding"], figures["runs"]) if "embedding" in scan else [])])


def _embedding_rows(work: dict, runs: int) -> list[str]:
    """The scan's embedding run against the least time this machine needs for its arithmetic."""
    achieved = work["gflop"] / work["embed_s"]["median"]
    return [
        "", f"What the scan asks of the model: {work['texts']} texts, {work['tokens']:,} tokens, "
        f"{work['gflop']:.1f} GFLOP in the encoder's products with its weight matrices alone:", "",
        "| embedding | value |", "|---|---|",
        f"| the scan's embedding calls, {runs} forced re-scans, median (min – max) | "
        f"{docsection.fmt_spread(work['embed_s'], 3, ' s')}, {achieved:.0f} GFLOP/s |",
        f"| float32 matrix product on this machine (numpy, all cores) | {work['machine_gflops']:.0f} GFLOP/s |",
        f"| least time for the weight products at that rate | {work['floor_s']:.3f} s |"]


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
    work = scan["embedding"]
    print(f"scan embedding: {work['texts']} texts, {work['tokens']} tokens, {work['gflop']:.1f} GFLOP, "
          f"{work['embed_s']['median']:.3f} s; numpy float32 {work['machine_gflops']:.0f} GFLOP/s, "
          f"floor {work['floor_s']:.3f} s")
    figures = {"env": env, "runs": len(times), "seconds": docsection.spread(times), "kinds": kinds, "paths": paths,
               "statements": report.statements, "rows": sum(report.row_counts.values()), "scan": scan}
    if not args.no_write:
        docsection.write_section(NAME, TITLE, render(figures), figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
