"""Retrieval latency in lite: the workshop corpus, and 10,000 memories against a pure-numpy RRF.

Run: python benchmarks/bench_retrieval.py [--memories 10000] [--runs 15]

Prints name=value lines. The budget (docs/architecture.md, docs/benchmarks.md): the hybrid RRF SQL over
10,000 memories within 3x of a numpy computation of the same ranking on the
same data. Both sides embed the query (the SQL does it with VECTOR_EMBEDDING);
the numpy side starts from the stored vectors already in memory and the same
Oracle Text index, so the comparison isolates what the SQL engine adds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QUERY = "TEU 20-foot equivalent capacity unit for vessels"
SUBJECTS = ["vessel", "port", "voyage", "container", "cargo", "carrier", "route", "berth", "crane", "customs"]
ASPECTS = ["capacity in TEU", "arrival delay", "unit value in cents", "position report", "reefer temperature",
           "dangerous goods class", "draft limit", "fuel consumption", "schedule reliability", "HS code"]
DETAILS = ["recorded hourly", "per voyage", "in the nightly batch", "from the AIS feed", "by the terminal",
           "for the quarterly report", "in USD", "after the audit", "when the ship departs", "at gate-in"]


def median_ms(fn, runs: int, before=None) -> float:
    """Median wall time of ``fn`` in ms; ``before`` runs untimed ahead of each call."""
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def synthetic_texts(n: int) -> list[str]:
    out = []
    for i in range(n):
        a, b, c = SUBJECTS[i % 10], ASPECTS[(i // 10) % 10], DETAILS[(i // 100) % 10]
        out.append(f"Note {i}: the {a} {b} is {c}; reference {i * 7919 % 100003}.")
    return out


def add_synthetic_memories(ws, n: int) -> None:
    """Insert n memories (with real embeddings) straight into OAMP's tables, as the store would."""
    from workshop_lib.config import CHUNKS_TABLE, MEMORY_TABLE
    from workshop_lib.embedding.runtime import get_embedder

    texts = synthetic_texts(n)
    embedder = get_embedder(ws.conn.model_path(ws.embed_model))
    vectors = np.vstack([embedder.embed(texts[i:i + 256]) for i in range(0, n, 256)])
    kinds = ["column", "table", "guideline", "runbook", "tool_output"]
    memory_rows = [{"rid": f"bench-{i}", "u": ws.user_id, "a": ws.agent_id, "c": t,
                    "m": {"kind": kinds[i % 5], "subject": f"BENCH.{i}"}} for i, t in enumerate(texts)]
    chunk_rows = [{"rid": f"bench-{i}", "u": ws.user_id, "a": ws.agent_id, "c": t, "e": vectors[i]}
                  for i, t in enumerate(texts)]
    with ws.conn.cursor() as cur:
        cur.executemany(f"INSERT INTO {MEMORY_TABLE} (record_id, user_id, agent_id, memory_type, content, metadata) "
                        "VALUES (:rid, :u, :a, 'memory', :c, :m)", memory_rows)
        cur.executemany(f"INSERT INTO {CHUNKS_TABLE} (source_id, source_record_type, source_emb_column, chunk_text, "
                        "user_id, agent_id, embedding) VALUES (:rid, 'memory', 'content', :c, :u, :a, :e)",
                        chunk_rows)
    ws.conn.commit()


@dataclass
class Corpus:
    """The memories as numpy sees them: ids, kinds, unit vectors, and the same Oracle Text index."""

    record_ids: list[str]
    kinds: np.ndarray
    matrix: np.ndarray
    text_index: object


def numpy_hybrid(corpus: Corpus, embedder, k: int = 5, per_list: int = 30, rrf_k: int = 60):
    """The reference ranking computed directly: vector ranks + Oracle Text ranks, fused by RRF."""
    from workshop_lib.retrieval import text_query

    q = embedder.embed([QUERY])[0]
    dist = 1.0 - corpus.matrix @ q                      # vectors are unit length
    dist[corpus.kinds == "tool_output"] = np.inf
    top_vec = np.argsort(dist, kind="stable")[:per_list]
    r_vec = {corpus.record_ids[i]: rank + 1 for rank, i in enumerate(top_vec)}
    scores = corpus.text_index.search(text_query(QUERY))
    hits = sorted((-s, corpus.record_ids[i]) for i, s in scores.items() if corpus.kinds[i] != "tool_output")
    r_txt = {rid: rank + 1 for rank, (_, rid) in enumerate(hits[:per_list])}
    fused = {rid: 1 / (rrf_k + r_vec.get(rid, 999999)) + 1 / (rrf_k + r_txt.get(rid, 999999))
             for rid in set(r_vec) | set(r_txt)}
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("WORKSHOP_HOME", tempfile.mkdtemp(prefix="bench-retrieval-"))
    os.environ["WORKSHOP_BACKEND"] = "lite"
    import workshop_lib
    from workshop_lib.config import MEMORY_TABLE
    from workshop_lib.embedding.runtime import get_embedder
    from workshop_lib import oracle_text
    from workshop_lib.lite.text import TextIndex
    from workshop_lib.reference import hybrid_rrf_search_memories, retrieve_knowledge

    started = time.perf_counter()
    ws = workshop_lib.start(upto="scan")
    print(f"start_fresh_seconds={time.perf_counter() - started:.1f}")
    # The lite connection caches query embeddings by text; clear it so every run embeds, as on Oracle.
    fresh = ws.conn._embed_cache.clear
    print(f"workshop_retrieve_knowledge_ms="
          f"{median_ms(lambda: retrieve_knowledge(QUERY, k=5), args.runs, fresh):.1f}")
    print(f"workshop_hybrid_ms={median_ms(lambda: hybrid_rrf_search_memories(QUERY, k=5), args.runs, fresh):.1f}")

    with ws.conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {MEMORY_TABLE} WHERE record_id LIKE 'bench-%'")
        present = cur.fetchone()[0]
    if present != args.memories:  # a WORKSHOP_HOME from an earlier run is reused as it is
        started = time.perf_counter()
        with ws.conn.cursor() as cur:
            cur.execute(f"DELETE FROM {MEMORY_TABLE} WHERE record_id LIKE 'bench-%'")
            cur.execute("DELETE FROM eda_onnx_record_chunks WHERE source_id LIKE 'bench-%'")
        add_synthetic_memories(ws, args.memories)
        print(f"insert_{args.memories}_memories_seconds={time.perf_counter() - started:.1f}")
    started = time.perf_counter()
    hybrid_rrf_search_memories(QUERY, k=5)
    print(f"hybrid_cold_ms={(time.perf_counter() - started) * 1000:.1f}  # first query builds the vector and text caches")
    sql_ms = median_ms(lambda: hybrid_rrf_search_memories(QUERY, k=5), args.runs, fresh)
    rk_ms = median_ms(lambda: retrieve_knowledge(QUERY, k=5), args.runs, fresh)

    # The same data for numpy: unit vectors per memory, kinds, and the same text index.
    with ws.conn.cursor() as cur:
        cur.execute(f"SELECT m.record_id, JSON_VALUE(m.metadata, '$.kind'), m.content, c.embedding "
                    f"FROM {MEMORY_TABLE} m JOIN eda_onnx_record_chunks c ON c.source_id = m.record_id "
                    "WHERE m.user_id = :u AND m.agent_id = :a", u=ws.user_id, a=ws.agent_id)
        rows = cur.fetchall()
    index = TextIndex(oracle_text)
    index.rebuild((i, r[2]) for i, r in enumerate(rows))
    corpus = Corpus([r[0] for r in rows], np.array([r[1] or "none" for r in rows]),
                    np.vstack([np.asarray(r[3], dtype=np.float32) for r in rows]), index)
    embedder = get_embedder(ws.conn.model_path(ws.embed_model))
    np_ms = median_ms(lambda: numpy_hybrid(corpus, embedder), args.runs)
    embed_ms = median_ms(lambda: embedder.embed([QUERY]), args.runs)

    sql_top = [r["record_id"] for r in hybrid_rrf_search_memories(QUERY, k=5)]
    np_top = [rid for rid, _ in numpy_hybrid(corpus, embedder)]
    print(f"memories={len(rows)}")
    print(f"hybrid_sql_ms={sql_ms:.1f}")
    print(f"hybrid_numpy_ms={np_ms:.1f}")
    print(f"query_embedding_ms={embed_ms:.1f}  # included in both (the SQL's embedding cache is cleared per run)")
    print(f"hybrid_ratio_sql_over_numpy={sql_ms / np_ms:.2f}  # budget: <= 3.0")
    print(f"same_top5={sql_top == np_top}")
    print(f"retrieve_knowledge_ms={rk_ms:.1f}")
    ws.close()


if __name__ == "__main__":
    main()
