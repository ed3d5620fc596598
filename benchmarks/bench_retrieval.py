"""Retrieval in lite at 10^4-10^5 memories: hybrid RRF SQL against an independent numpy baseline.

Run: ``python benchmarks/bench_retrieval.py [--sizes 10000,50000,100000] [--runs 11] [--no-write]``

For each size the memory table is filled (real embeddings of synthetic notes,
cached on disk between runs) and these are measured as *paired* runs (each
pair back to back, ratio per pair, min / median / max):

* **warm query** — the workshop's hybrid RRF statement
  (``reference.hybrid_rrf_search_memories``, one SQL statement, the
  connection's embedding cache and the model's remembered texts cleared so
  it embeds the query) against an
  **independent numpy baseline**: cosine over the unit vectors and BM25 over a
  prebuilt inverted index (its own tokenizer), both legs filtered like the
  SQL, fused by RRF, embedding the query too (after the same clearing). The baseline ranks with BM25,
  not Oracle Text scores, so its top 5 may differ; exactness is checked
  separately against the *same* ranking computed in numpy from lite's own
  Oracle Text index (``same top 5``).
* **write then query** — one write through the memory client, then the
  hybrid query; paired with a warm query. Three writes: ``add_memory`` (embeds,
  inserts, commits), ``update_memory`` of an early memory's content (its
  vector and text are replaced) and ``delete_memory`` of an early memory
  (early: the workshop's own memories are the first rows, and a correction
  rewrites them). After a write nothing O(N) should run before the next query.
* **first query of a session** — the hybrid query on a new connection, whose
  vector matrix and Oracle Text index are built by that query (the model is
  loaded already, as the setup cell leaves it); ``COLD_RUNS`` runs.
* **Oracle Text index full build** — ``TextIndex.rebuild`` over the rows.
* **CHECK 3** — the check of TODO 3 on the solution notebook's function,
  paired with the same check reading every row of each leg for its own
  rankings (what it did before it read the legs' heads); ``CHECK_RUNS`` pairs.
  Then CHECKs 2, 4 and 5 on the solution notebooks' functions, and opening a
  connection through the backend (its files checked first), timed alone.

A second corpus at the smallest size has the query's words in most rows
("shared words"), where the keyword leg matches almost everything.
Unless ``--no-write`` is given, the tables replace the ``bench_retrieval``
section of docs/benchmarks.md (see ``benchmarks/docsection.py``).
Budget (issue 14): SQL / baseline ≤ 1.5, write-then-query / warm ≤ 1.2,
the text index build linear in N.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import io
import math
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import docsection  # noqa: E402

NAME = "bench_retrieval"
TITLE = "Retrieval — `benchmarks/bench_retrieval.py`"
QUERY = "TEU 20-foot equivalent capacity unit for vessels"
SUBJECTS = ["vessel", "port", "voyage", "container", "cargo", "carrier", "route", "berth", "crane", "customs"]
ASPECTS = ["capacity in TEU", "arrival delay", "unit value in cents", "position report", "reefer temperature",
           "dangerous goods class", "draft limit", "fuel consumption", "schedule reliability", "HS code"]
DETAILS = ["recorded hourly", "per voyage", "in the nightly batch", "from the AIS feed", "by the terminal",
           "for the quarterly report", "in USD", "after the audit", "when the ship departs", "at gate-in"]
KINDS = ["column", "table", "guideline", "runbook", "tool_output"]
PER_LIST, RRF_K, K = 30, 60, 5
COLD_RUNS = 3
CHECK_RUNS = 3
WRITES = ("add", "rewrite", "delete", "flush")   # what runs before a "first query after a write"
EARLY_IDS = range(1, 10_000, 7)   # bench memories a rewrite or delete may take (the first rows of the table)
CACHE = Path(os.environ.get("WORKSHOP_BENCH_CACHE", Path(tempfile.gettempdir()) / "workshop-bench-cache"))


def short_notes(start: int, stop: int) -> list[str]:
    """Short synthetic notes; about a fifth share a word with the query."""
    out = []
    for i in range(start, stop):
        a, b, c = SUBJECTS[i % 10], ASPECTS[(i // 10) % 10], DETAILS[(i // 100) % 10]
        out.append(f"Note {i}: the {a} {b} is {c}; reference {i * 7919 % 100003}.")
    return out


def shared_words(start: int, stop: int) -> list[str]:
    """Notes where nine in ten rows carry the query's words (the keyword leg matches nearly every row)."""
    out = []
    for i in range(start, stop):
        a, c = SUBJECTS[i % 10], DETAILS[(i // 100) % 10]
        words = "TEU capacity unit for vessels" if i % 10 else "arrival delay"
        out.append(f"Note {i}: the {a} {words} is {c}; equivalent reference {i * 7919 % 100003}.")
    return out


CORPORA = {"short notes": short_notes, "shared words": shared_words}


def embed_cached(embedder: Any, texts: list[str]) -> np.ndarray:
    """Embeddings of ``texts`` (batches of 256), kept on disk by content so a re-run skips the model."""
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:24]
    path = CACHE / f"vectors-{len(texts)}-{digest}.npy"
    if path.exists():
        return np.load(path)
    vectors = np.vstack([embedder.embed(texts[i:i + 256]) for i in range(0, len(texts), 256)]).astype(np.float32)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def add_memories(ws: Any, texts: list[str], first: int, prefix: str) -> None:
    """Insert memories with real embeddings straight into OAMP's tables (as the store writes them), one commit."""
    from workshop_lib.config import CHUNKS_TABLE, MEMORY_TABLE
    from workshop_lib.embedding.runtime import get_embedder

    embedder = get_embedder(ws.conn.model_path(ws.embed_model))
    vectors = embed_cached(embedder, texts)
    ids = [f"{prefix}-{first + i}" for i in range(len(texts))]
    memory_rows = [{"rid": rid, "u": ws.user_id, "a": ws.agent_id, "c": t,
                    "m": {"kind": KINDS[(first + i) % 5], "subject": f"BENCH.{first + i}"}}
                   for i, (rid, t) in enumerate(zip(ids, texts))]
    chunk_rows = [{"rid": rid, "u": ws.user_id, "a": ws.agent_id, "c": t, "e": vectors[i]}
                  for i, (rid, t) in enumerate(zip(ids, texts))]
    with ws.conn.cursor() as cur:
        cur.executemany(f"INSERT INTO {MEMORY_TABLE} (record_id, user_id, agent_id, memory_type, content, metadata) "
                        "VALUES (:rid, :u, :a, 'memory', :c, :m)", memory_rows)
        cur.executemany(f"INSERT INTO {CHUNKS_TABLE} (source_id, source_record_type, source_emb_column, chunk_text, "
                        "user_id, agent_id, embedding) VALUES (:rid, 'memory', 'content', :c, :u, :a, :e)",
                        chunk_rows)
    ws.conn.commit()


@dataclass
class Corpus:
    """The searchable memories as numpy sees them (read once, outside every timing)."""

    record_ids: list[str]
    excluded: np.ndarray      # kind is tool_output
    matrix: np.ndarray        # unit vectors, one row per memory
    texts: list[str]


def read_corpus(ws: Any) -> Corpus:
    from workshop_lib.config import CHUNKS_TABLE, MEMORY_TABLE

    with ws.conn.cursor() as cur:
        cur.execute(f"SELECT m.record_id, JSON_VALUE(m.metadata, '$.kind'), m.content, c.embedding "
                    f"FROM {MEMORY_TABLE} m JOIN {CHUNKS_TABLE} c ON c.source_id = m.record_id "
                    "WHERE m.user_id = :u AND m.agent_id = :a AND m.status = 'valid' AND c.status = 'valid' "
                    "ORDER BY m.record_id", u=ws.user_id, a=ws.agent_id)
        rows = cur.fetchall()
    matrix = np.vstack([np.asarray(r[3], dtype=np.float32) for r in rows])
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return Corpus([r[0] for r in rows], np.array([r[1] == "tool_output" for r in rows]), matrix,
                  [r[2] for r in rows])


_WORD = re.compile(r"\w+")


class NumpyBaseline:
    """Cosine + BM25 (k1=1.2, b=0.75) over a prebuilt inverted index, fused by RRF: independent of lite."""

    def __init__(self, corpus: Corpus, embedder: Any):
        self.corpus, self.embedder = corpus, embedder
        postings: dict[str, dict[int, int]] = defaultdict(dict)
        lengths = np.zeros(len(corpus.texts), dtype=np.float32)
        for doc, text in enumerate(corpus.texts):
            tokens = _WORD.findall(text.lower())
            lengths[doc] = len(tokens)
            for token in tokens:
                postings[token][doc] = postings[token].get(doc, 0) + 1
        self.index = {t: (np.fromiter(p.keys(), np.int64, len(p)), np.fromiter(p.values(), np.float32, len(p)))
                      for t, p in postings.items()}
        self.lengths, self.avgdl = lengths, float(lengths.mean())

    def top(self, scores: np.ndarray, n: int) -> np.ndarray:
        """Indices of the ``n`` best scores (higher is better), best first, ties by record id."""
        n = min(n, int(np.isfinite(scores).sum()))
        part = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
        return part[np.lexsort((np.array([self.corpus.record_ids[i] for i in part]), -scores[part]))][:n]

    def search(self, query: str, k: int = K) -> list[str]:
        q = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
        cosine = self.corpus.matrix @ (q / np.linalg.norm(q))
        cosine[self.corpus.excluded] = -np.inf
        vec = self.top(cosine, PER_LIST)
        bm25 = np.zeros(len(self.corpus.texts), dtype=np.float32)
        n_docs = len(self.corpus.texts)
        for token in set(_WORD.findall(query.lower())):
            hit = self.index.get(token)
            if hit is None:
                continue
            docs, tf = hit
            idf = math.log(1 + (n_docs - len(docs) + 0.5) / (len(docs) + 0.5))
            bm25[docs] += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * self.lengths[docs] / self.avgdl))
        bm25[(bm25 <= 0) | self.corpus.excluded] = -np.inf
        txt = self.top(bm25, PER_LIST) if np.isfinite(bm25).any() else np.zeros(0, dtype=np.int64)
        fused: dict[int, float] = defaultdict(float)
        for ranked in (vec, txt):
            for rank, doc in enumerate(ranked.tolist(), 1):
                fused[doc] += 1 / (RRF_K + rank)
        best = sorted(fused.items(), key=lambda kv: (-kv[1], self.corpus.record_ids[kv[0]]))[:k]
        return [self.corpus.record_ids[d] for d, _ in best]


def same_ranking(ws: Any, corpus: Corpus, embedder: Any) -> list[str]:
    """The SQL's own ranking computed in numpy from lite's Oracle Text index: the exactness check."""
    from workshop_lib import oracle_text
    from workshop_lib.lite.text import TextIndex
    from workshop_lib.retrieval import text_query

    index = TextIndex(oracle_text)
    index.rebuild(enumerate(corpus.texts))
    q = np.asarray(embedder.embed([QUERY])[0], dtype=np.float32)
    dist = 1.0 - corpus.matrix @ (q / np.linalg.norm(q))
    dist[corpus.excluded] = np.inf
    order = sorted(range(len(dist)), key=lambda i: (dist[i], corpus.record_ids[i]))[:PER_LIST]
    r_vec = {corpus.record_ids[i]: rank for rank, i in enumerate(order, 1)}
    hits = sorted((-s, corpus.record_ids[i]) for i, s in index.search(text_query(QUERY)).items()
                  if not corpus.excluded[i])
    r_txt = {rid: rank for rank, (_, rid) in enumerate(hits[:PER_LIST], 1)}
    fused = {rid: 1 / (RRF_K + r_vec.get(rid, 999999)) + 1 / (RRF_K + r_txt.get(rid, 999999))
             for rid in set(r_vec) | set(r_txt)}
    return [rid for rid, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:K]]


def text_build_ms(texts: list[str]) -> float:
    from workshop_lib import oracle_text
    from workshop_lib.lite.text import TextIndex

    index = TextIndex(oracle_text)
    return docsection.timed_ms(lambda: index.rebuild(enumerate(texts)))


def solution_checks(ws: Any) -> dict[int, Callable[[], None]]:
    """TODO number -> its check on the solution notebook's own function, for TODOs 2-5, each TODO cell run in
    the globals its notebook's setup cell defines, on ``ws`` (a setup cell would start a second workshop, whose
    connection would then catch up with this one's writes as another session does, and become the current one);
    the checks' pass lines muted."""
    import nbformat

    import workshop_lib.notebook as facade
    from workshop_lib import checks, todos
    from workshop_lib.clean_grade import todo_sources

    found: dict[int, Callable[[], None]] = {}
    for notebook in ("03_retrieval", "04_agent_and_corrections"):
        nb = nbformat.read(str(REPO / "solutions" / notebook / f"{notebook}.ipynb"), as_version=4)
        namespace = {name: getattr(facade, name) for name in facade.__all__}
        namespace.update(ws=ws, agent_conn=ws.conn, memory_client=ws.memory_client,
                         agent_tools=facade.agent_toolbox(ws), retrieve_knowledge=facade.library_retrieve_knowledge)
        for source in todo_sources(nb).values():
            exec(source, namespace)  # noqa: S102 - the workshop's own solution notebook
        for number in todo_sources(nb):
            todo = todos.todo(number)

            def check(fn: Callable[..., Any] = namespace[todo.function],
                      run: Callable[..., None] = getattr(checks, todo.check)) -> None:
                with contextlib.redirect_stdout(io.StringIO()):
                    run(fn)
            found[number] = check
    return found


def with_whole_legs(check: Callable[[], None]) -> Callable[[], None]:
    """``check`` with its rankings read from every row of each leg instead of the legs' heads."""
    from workshop_lib.checks import rankings

    todo3 = importlib.import_module("workshop_lib.checks.todo3")   # the package's todo3 is the check function

    def whole() -> None:
        saved = rankings._leg_head, todo3._leg_head
        rankings._leg_head = todo3._leg_head = rankings._leg_whole
        try:
            check()
        finally:
            rankings._leg_head, todo3._leg_head = saved
    return whole


def measure(ws: Any, corpus_name: str, runs: int) -> dict[str, Any]:
    """Every figure of one (corpus, size): warm pairs, write-then-query pairs, exactness, index build."""
    from workshop_lib.embedding.runtime import get_embedder
    from workshop_lib.reference import hybrid_rrf_search_memories

    embedder = get_embedder(ws.conn.model_path(ws.embed_model))
    corpus = read_corpus(ws)
    baseline = NumpyBaseline(corpus, embedder)
    def fresh() -> None:   # every run embeds the query, on both sides: the connection and the model forget it
        ws.conn._embed_cache.clear()
        embedder.forget_recent()
    hybrid = lambda: hybrid_rrf_search_memories(QUERY, k=K, per_list=PER_LIST, rrf_k=RRF_K)  # noqa: E731
    hybrid()   # the first query after filling builds the caches: not a warm query
    same_top5 = [r["record_id"] for r in hybrid()] == same_ranking(ws, corpus, embedder)
    warm = docsection.paired_ms(hybrid, lambda: baseline.search(QUERY), runs, before_a=fresh, before_b=fresh)
    client, added = ws.memory_client, iter(range(runs))
    early = iter(EARLY_IDS)   # a memory of the first rows per write, never the same one twice in a home

    def add() -> None:
        i = next(added)
        client.add_memory(f"Bench write {i}: the vessel capacity in TEU was re-measured at berth {i}.",
                          user_id=ws.user_id, agent_id=ws.agent_id,
                          metadata={"kind": "guideline", "subject": f"BENCH.WRITE.{i}"})

    def rewrite() -> None:
        i = next(early)
        client.update_memory(f"bench-{i}", content=f"Bench rewrite {i}: the berth {i} draft limit was corrected.")

    def delete() -> None:
        client.delete_memory(f"bench-{next(early)}")

    def flush() -> None:   # the control: a commit's disk flush without any write lite must catch up with
        with tempfile.TemporaryFile() as handle:
            handle.write(b"\0" * 4096)
            handle.flush()
            os.fsync(handle.fileno())

    writes = {}
    for name, write in zip(WRITES, (add, rewrite, delete, flush), strict=True):
        pairs = docsection.paired_ms(hybrid, hybrid, runs, before_a=lambda w=write: (w(), fresh()), before_b=fresh)
        writes[name] = {"query_ms": pairs["a_ms"], "warm_ms": pairs["b_ms"], "ratio": pairs["ratio"]}
    graded = solution_checks(ws)
    for check in graded.values():
        check()   # a check's first run on a home embeds its probes' texts and questions: not a warm run
    checked = docsection.paired_ms(graded[3], with_whole_legs(graded[3]), CHECK_RUNS)
    others = {str(n): docsection.spread(docsection.timed_ms(graded[n]) for _ in range(CHECK_RUNS)) for n in (2, 4, 5)}
    connect = docsection.spread(docsection.timed_ms(lambda: ws.impl.connect().close()) for _ in range(CHECK_RUNS))
    return {"corpus": corpus_name, "memories": len(corpus.record_ids),
            "sql_ms": warm["a_ms"], "numpy_ms": warm["b_ms"], "ratio": warm["ratio"],
            "writes": writes, "same_top5": same_top5, "cold_ms": cold_ms(ws, fresh),
            "text_build_ms": text_build_ms(corpus.texts),
            "check": {"heads_ms": checked["a_ms"], "whole_ms": checked["b_ms"], "ratio": checked["ratio"]},
            "checks_ms": others, "connect_ms": connect}


def cold_ms(ws: Any, fresh: Callable[[], None]) -> dict[str, float]:
    """The hybrid query on new connections to the same files: the first query of a session builds the
    connection's vector matrix and Oracle Text index (spread of ``COLD_RUNS`` runs); ``fresh`` makes the model
    forget the query, so it is embedded as in a new session."""
    from workshop_lib.backends.lite import connect_lite
    from workshop_lib.reference import hybrid_rrf_search_memories

    times = []
    for _ in range(COLD_RUNS):
        conn = connect_lite(ws.settings.home, ws.conn.username)
        try:
            times.append(docsection.timed_ms(lambda c=conn: hybrid_rrf_search_memories(
                QUERY, k=K, per_list=PER_LIST, rrf_k=RRF_K, conn=c), before=fresh))
        finally:
            conn.close()
    return docsection.spread(times)


def fill(ws: Any, corpus: str, size: int, prefix: str) -> None:
    """Bring the bench memories of ``prefix`` up to ``size`` (earlier rows stay: sizes grow in one home)."""
    from workshop_lib.config import MEMORY_TABLE

    with ws.conn.cursor() as cur:   # the next index to write: deleted memories keep theirs
        cur.execute(f"SELECT NVL(MAX(TO_NUMBER(SUBSTR(record_id, :n))) + 1, 0) FROM {MEMORY_TABLE} "
                    "WHERE record_id LIKE :p", n=len(prefix) + 2, p=f"{prefix}-%")
        present = cur.fetchone()[0]
    started = time.perf_counter()
    for start in range(present, size, 10_000):
        stop = min(size, start + 10_000)
        add_memories(ws, CORPORA[corpus](start, stop), start, prefix)
    if size > present:
        print(f"filled {corpus} to {size} in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def run_corpus(corpus: str, sizes: list[int], runs: int) -> list[dict[str, Any]]:
    """Measure ``corpus`` at each size in a fresh WORKSHOP_HOME (the workshop's own ~84 memories included)."""
    import workshop_lib

    results = []
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as home:
        os.environ["WORKSHOP_HOME"] = home
        ws = workshop_lib.start(upto="scan")
        try:
            for size in sizes:
                fill(ws, corpus, size, "bench")
                results.append(measure(ws, corpus, runs))
                print(results[-1], file=sys.stderr)
        finally:
            ws.close()
    return results


def render(figures: dict[str, Any]) -> str:
    """The section's markdown from the figures (the docs test renders recorded figures with this too)."""
    sp = docsection.fmt_spread
    lines = [docsection.header(figures["env"]), "",
             f"Hybrid RRF SQL (one statement, query embedded) against the independent numpy baseline "
             f"(cosine + BM25 over a prebuilt inverted index, query embedded), paired runs, "
             f"{figures['runs']} pairs per row; median (min – max):", "",
             "| corpus | memories | SQL ms | numpy ms | ratio SQL / numpy (budget ≤ 1.5) | same top 5 as exact numpy |",
             "|---|---|---|---|---|---|"]
    for r in figures["results"]:
        lines.append(f"| {r['corpus']} | {r['memories']:,} | {sp(r['sql_ms'], 1)} | {sp(r['numpy_ms'], 1)} | "
                     f"{sp(r['ratio'])} | {'yes' if r['same_top5'] else 'NO'} |")
    lines += ["", "First hybrid query right after one write through the memory client against a warm query, "
              "paired: `add_memory` (embed + insert + commit), `update_memory` of an early memory's content "
              "(new vector and text), `delete_memory` of an early memory:", "",
              "| corpus | memories | write | after the write, ms | warm, ms | ratio (budget ≤ 1.2) |",
              "|---|---|---|---|---|---|"]
    for r in figures["results"]:
        for name in WRITES:   # the recorded JSON has its keys sorted: the table keeps this order
            w = r["writes"][name]
            lines.append(f"| {r['corpus']} | {r['memories']:,} | {name} | {sp(w['query_ms'], 1)} | "
                         f"{sp(w['warm_ms'], 1)} | {sp(w['ratio'])} |")
    lines += ["", "The first query of a session (the hybrid query on a new connection, which builds its vector "
              f"matrix and Oracle Text index; the model already loaded), {COLD_RUNS} runs, median (min – max), "
              "and the Oracle Text index full build alone (`TextIndex.rebuild`, one run):", "",
              "| corpus | memories | first query, ms | text index build, ms | build, µs per row |",
              "|---|---|---|---|---|"]
    for r in figures["results"]:
        lines.append(f"| {r['corpus']} | {r['memories']:,} | {sp(r['cold_ms'], 0)} | {r['text_build_ms']:.0f} | "
                     f"{r['text_build_ms'] * 1000 / r['memories']:.1f} |")
    lines += ["", "CHECK 3, the check of TODO 3, on the solution notebook's function (7 graded calls, each against "
              "the check's own vector and keyword rankings), reading each leg's head (the rows that can rank "
              "within the top `per_list`) against the same check reading every row of each leg, paired, "
              f"{CHECK_RUNS} pairs; median (min – max):", "",
              "| corpus | memories | check, s | reading whole legs, s | ratio heads / whole legs |",
              "|---|---|---|---|---|"]
    for r in figures["results"]:
        c = r["check"]
        lines.append(f"| {r['corpus']} | {r['memories']:,} | {sp(_seconds(c['heads_ms']))} | "
                     f"{sp(_seconds(c['whole_ms']))} | {sp(c['ratio'])} |")
    lines += ["", "What else a learner waits for in a store of that size: the other checks on the solution notebooks' "
              "functions, and opening a connection (each notebook's setup cell opens one with `start`; the "
              f"database files are checked first, `PRAGMA quick_check`), {CHECK_RUNS} runs each; median "
              "(min – max):", "",
              "| corpus | memories | CHECK 2, s | CHECK 4, s | CHECK 5, s | opening a connection, s |",
              "|---|---|---|---|---|---|"]
    for r in figures["results"]:
        c = r["checks_ms"]
        lines.append(f"| {r['corpus']} | {r['memories']:,} | {sp(_seconds(c['2']))} | {sp(_seconds(c['4']))} | "
                     f"{sp(_seconds(c['5']))} | {sp(_seconds(r['connect_ms']))} |")
    return "\n".join(lines)


def _seconds(spread_ms: dict[str, float]) -> dict[str, float]:
    return {key: value / 1000 for key, value in spread_ms.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000,100000",
                        help="memory counts, comma-separated (default 10000,50000,100000; 10000 alone is quick)")
    parser.add_argument("--runs", type=int, default=11, help="paired runs per measure (default 11)")
    parser.add_argument("--no-write", action="store_true", help="print the figures, leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    os.environ["WORKSHOP_BACKEND"] = "lite"
    sizes = sorted(int(s) for s in args.sizes.split(","))
    env = docsection.environment(docsection.command_line("bench_retrieval.py", argv))
    results = run_corpus("short notes", sizes, args.runs) + run_corpus("shared words", sizes[:1], args.runs)
    figures = {"env": env, "runs": args.runs, "results": results}
    body = render(figures)
    docsection.publish(NAME, TITLE, body, figures, write=not args.no_write)
    return 0 if all(r["same_top5"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
