"""Top-k vector blocks run on the nearest rows only, and still give exactly the full-scan answer."""

from __future__ import annotations

import array
import random
from pathlib import Path

import pytest

from workshop_lib.backends.lite import connect_lite as connect


@pytest.fixture()
def conn(tmp_path: Path):
    c = connect(tmp_path, "AGENT")
    cur = c.cursor()
    cur.execute("CREATE TABLE docs (doc_id NUMBER PRIMARY KEY, owner VARCHAR2(10), kind VARCHAR2(10))")
    cur.execute("CREATE TABLE chunks (chunk_id NUMBER PRIMARY KEY, doc_id NUMBER, emb VECTOR(8, FLOAT32))")
    rng = random.Random(7)
    cur.executemany("INSERT INTO docs VALUES (:1, :2, :3)",
                    [(d, "u" if d % 3 else "v", "keep" if d % 17 else "drop") for d in range(1, 1201)])
    rows = []
    for chunk in range(1, 3001):
        vec = [rng.uniform(-1, 1) for _ in range(8)]
        if chunk % 500 == 0:
            vec = rows[-1][2].tolist()  # exact ties
        rows.append((chunk, rng.randint(1, 1200), array.array("f", vec)))
    rows.append((3001, 5, None))  # a chunk without a vector
    cur.executemany("INSERT INTO chunks VALUES (:1, :2, :3)", rows)
    c.commit()
    yield c
    c.close()


QUERY = "[0.5, -0.2, 0.1, 0.9, -0.7, 0.3, 0.0, 0.4]"

GROUPED = """SELECT c.doc_id, ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.emb, TO_VECTOR(:q), COSINE)){extra},
       c.doc_id) AS r
FROM chunks c JOIN docs d ON d.doc_id = c.doc_id
WHERE d.owner = :owner AND d.kind = :kind
GROUP BY c.doc_id
ORDER BY r
FETCH FIRST :n ROWS ONLY"""

PLAIN = """SELECT c.chunk_id, VECTOR_DISTANCE(c.emb, TO_VECTOR(:q), EUCLIDEAN){extra} AS d
FROM chunks c JOIN docs x ON x.doc_id = c.doc_id
WHERE x.owner = :owner AND x.kind = :kind
ORDER BY d, c.chunk_id
FETCH FIRST :n ROWS ONLY"""


def _run(conn, sql: str, **binds):
    with conn.cursor() as cur:
        cur.execute(sql, **binds)
        return cur.fetchall()


@pytest.mark.parametrize("template", [GROUPED, PLAIN])
@pytest.mark.parametrize("owner, kind, n", [("u", "keep", 5), ("v", "keep", 40), ("u", "keep", 700),
                                           ("v", "keep", 5000), ("u", "drop", 20), ("v", "drop", 30)])
def test_pruned_answer_equals_full_scan(conn, template: str, owner: str, kind: str, n: int) -> None:
    """Selective filters ('drop' is 1 doc in 17) force the candidate set to widen."""
    pruned = template.format(extra="")
    full = template.format(extra=" + 0")  # an expression of the distance is not pruned
    sql_plans = conn.caches.plans
    got = _run(conn, pruned, q=QUERY, owner=owner, kind=kind, n=n)
    expected = _run(conn, full, q=QUERY, owner=owner, kind=kind, n=n)
    assert got == expected
    assert sql_plans[pruned].vector_slots[0].prune_sql is not None
    assert sql_plans[full].vector_slots[0].prune_sql is None


def test_pruning_reads_few_rows_for_a_small_k(conn) -> None:
    _run(conn, GROUPED.format(extra=""), q=QUERY, owner="u", kind="keep", n=5)
    slot = conn.caches.plans[GROUPED.format(extra="")].vector_slots[0]
    handed = conn.sqlite.execute("SELECT COUNT(*) FROM temp.lite_slot_rows WHERE slot = ?", (slot.slot,)).fetchone()[0]
    assert 0 < handed < 1000  # of 3000 vectors
    sql = conn.caches.plans[GROUPED.format(extra="")].sql[0]
    assert "ora_vd_lookup" not in sql.lower() and "lite_slot_rows" in sql   # no Python call per candidate row


@pytest.mark.parametrize("sql", [
    # another aggregate would change if rows were dropped
    "SELECT c.doc_id, MIN(VECTOR_DISTANCE(c.emb, TO_VECTOR(:q), COSINE)) m, COUNT(*) k FROM chunks c "
    "GROUP BY c.doc_id ORDER BY m FETCH FIRST 3 ROWS ONLY",
    # descending: the farthest rows
    "SELECT c.chunk_id FROM chunks c ORDER BY VECTOR_DISTANCE(c.emb, TO_VECTOR(:q), COSINE) DESC "
    "FETCH FIRST 3 ROWS ONLY",
    # no FETCH FIRST
    "SELECT c.chunk_id FROM chunks c ORDER BY VECTOR_DISTANCE(c.emb, TO_VECTOR(:q), COSINE)",
])
def test_blocks_that_need_every_row_are_not_pruned(conn, sql: str) -> None:
    _run(conn, sql, q=QUERY)
    assert conn.caches.plans[sql].vector_slots[0].prune_sql is None


def test_null_vectors_still_appear_when_every_row_is_needed(conn) -> None:
    sql = ("SELECT c.chunk_id FROM chunks c WHERE c.doc_id = 5 "
           "ORDER BY VECTOR_DISTANCE(c.emb, TO_VECTOR(:q), COSINE), c.chunk_id FETCH FIRST 50 ROWS ONLY")
    rows = [r[0] for r in _run(conn, sql, q=QUERY)]
    assert rows[-1] == 3001  # NULL distance sorts last, as in Oracle


CTE_FORM = """WITH q AS (SELECT TO_VECTOR(:q) AS v FROM dual)
SELECT c.doc_id, ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.emb, q.v, COSINE)), c.doc_id) AS r
FROM chunks c CROSS JOIN q JOIN docs d ON d.doc_id = c.doc_id
WHERE d.owner = :owner AND d.kind = :kind
GROUP BY c.doc_id
ORDER BY r
FETCH FIRST :n ROWS ONLY"""


@pytest.mark.parametrize("owner, kind, n", [("u", "keep", 5), ("v", "drop", 30), ("u", "keep", 5000)])
def test_a_one_row_constant_cte_vector_is_a_pruned_slot_like_the_inline_form(conn, owner: str, kind: str,
                                                                               n: int) -> None:
    """WITH q AS (SELECT <constant> AS v FROM dual) ... VECTOR_DISTANCE(c.emb, q.v) is the inline statement."""
    got = _run(conn, CTE_FORM, q=QUERY, owner=owner, kind=kind, n=n)
    assert got == _run(conn, GROUPED.format(extra=""), q=QUERY, owner=owner, kind=kind, n=n)
    assert conn.caches.plans[CTE_FORM].vector_slots[0].prune_sql is not None


def test_a_cte_that_reads_a_table_is_not_a_constant(conn) -> None:
    sql = ("WITH q AS (SELECT emb AS v FROM chunks WHERE chunk_id = 7) "
           "SELECT c.chunk_id FROM chunks c CROSS JOIN q ORDER BY VECTOR_DISTANCE(c.emb, q.v, COSINE), c.chunk_id "
           "FETCH FIRST 3 ROWS ONLY")
    rows = _run(conn, sql)
    assert rows[0] == (7,) and not conn.caches.plans[sql].vector_slots


NESTED_FORM = """WITH q AS (SELECT TO_VECTOR(:q) AS v FROM dual),
best AS (
  SELECT c.doc_id, ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.emb, q.v, COSINE)), c.doc_id) AS r
  FROM chunks c CROSS JOIN q JOIN docs d ON d.doc_id = c.doc_id
  WHERE d.owner = :owner AND d.kind = :kind
  GROUP BY c.doc_id
  ORDER BY r
  FETCH FIRST :n ROWS ONLY)
SELECT doc_id, r FROM best ORDER BY r"""


@pytest.mark.parametrize("owner, kind, n", [("u", "keep", 5), ("v", "drop", 30)])
def test_the_constant_cte_may_be_defined_above_the_pruned_block(conn, owner: str, kind: str, n: int) -> None:
    """The hybrid statement's shape: q in the statement's WITH, the pruned block another CTE (widening runs it alone)."""
    got = _run(conn, NESTED_FORM, q=QUERY, owner=owner, kind=kind, n=n)
    assert got == _run(conn, GROUPED.format(extra=""), q=QUERY, owner=owner, kind=kind, n=n)
    assert conn.caches.plans[NESTED_FORM].vector_slots[0].prune_sql is not None


@pytest.mark.parametrize("template", [GROUPED, PLAIN])
def test_a_null_query_vector_after_a_real_one_reads_like_the_full_scan(conn, template: str) -> None:
    """The candidates handed to SQLite belong to one execution: a NULL query vector (every distance NULL)
    neither reuses the previous execution's candidates nor loses rows: it answers as the unpruned block."""
    pruned, full = template.format(extra=""), template.format(extra=" + 0")
    assert _run(conn, pruned, q=QUERY, owner="u", kind="keep", n=5) == \
        _run(conn, full, q=QUERY, owner="u", kind="keep", n=5)
    got = _run(conn, pruned, q=None, owner="u", kind="keep", n=5)
    assert len(got) == 5 and got == _run(conn, full, q=None, owner="u", kind="keep", n=5)


def _probe_rows(sql: str) -> int:
    import sqlite3
    db = sqlite3.connect(":memory:")
    rng = random.Random(3)
    db.execute("CREATE TABLE t (a, b, c)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?)",
                   [(rng.choice([1, 2, 3, None]), rng.choice(["x", "y", None]), rng.random()) for _ in range(300)])
    return len(db.execute(sql).fetchall())


@pytest.mark.parametrize("n", [1, 3, 7, 12, 50])
@pytest.mark.parametrize("group", ["t.a", "t.a, t.b", "t.b || 'k'"])
def test_a_grouped_probe_is_a_distinct_with_the_group_by_count(group: str, n: int) -> None:
    """The probe of a grouped block counts its groups (NULL keys one group, as GROUP BY) and stops at n."""
    from sqlglot import parse_one

    from workshop_lib.lite import vector_topk
    from workshop_lib.lite.dialect import Oracle

    block = parse_one(f"SELECT t.a, MIN(t.c) AS m FROM t WHERE t.c < 0.9 GROUP BY {group} ORDER BY m "
                      f"FETCH FIRST {n} ROWS ONLY", read=Oracle)
    probe = vector_topk.row_probe(block).sql("sqlite")
    assert probe.startswith("SELECT DISTINCT") and "GROUP BY" not in probe
    grouped = f"SELECT 1 FROM t WHERE t.c < 0.9 GROUP BY {group} LIMIT {n}"
    assert _probe_rows(probe) == _probe_rows(grouped)


def test_widening_follows_the_share_of_candidates_the_filters_keep() -> None:
    from workshop_lib.lite.vector_topk import first_size, widen

    assert first_size(30) == 60 and first_size(1) == 32
    assert widen(120, 30, 0) == 480          # nothing passed: no share to go by
    assert widen(120, 30, 25) == 240         # at least twice as many
    assert widen(120, 30, 20) == 270         # 1 in 6 passes: 180 needed, half as many again
    assert widen(1000, 40, 10) == 6000       # 1 in 100 passes: 4000 needed, half as many again
    assert all(widen(s, w, f) > s for s in (1, 64, 999) for w in (1, 30) for f in range(w))


def test_nth_highest_matches_a_sort_for_scores_floats_and_wide_integers() -> None:
    """Counted (small non-negative integers) or partitioned (anything else): the sort's answer."""
    import numpy as np

    from workshop_lib.lite.vector_topk import SMALL_SCORES, nth_highest

    rng = np.random.default_rng(3)
    cases = [rng.integers(1, 101, 5000), np.repeat(np.array([58, 73, 59]), [9000, 1, 25]),   # scores, ties
             np.array([0, 0, 0]), rng.random(3000), rng.integers(1, 5, 800).astype(np.float32),
             rng.integers(-10**12, 10**12, 2000), np.array([SMALL_SCORES, 5, 5, 2 ** 40], dtype=np.uint64)]
    for values in cases:
        ordered = np.sort(values)[::-1]
        for n in sorted({1, 2, len(values) // 3, len(values) - 1, len(values)}):
            got = nth_highest(values, n)
            assert got == ordered[n - 1] and np.asarray(got).dtype == values.dtype, (values.dtype, n)
