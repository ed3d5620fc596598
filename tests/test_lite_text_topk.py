"""The keyword leg's top-k runs on the best-scored rows only, and gives exactly the full answer."""

from __future__ import annotations

import random

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.reference import HYBRID_SQL

WORDS = "vessel port cargo delay customs container berth crane storm reefer".split()


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory):
    c = connect(tmp_path_factory.mktemp("text_topk"), "AGENT")
    cur = c.cursor()
    cur.execute("CREATE TABLE docs (id NUMBER PRIMARY KEY, owner VARCHAR2(10), kind VARCHAR2(10), body CLOB)")
    cur.execute("CREATE INDEX docs_ctx ON docs (body) INDEXTYPE IS CTXSYS.CONTEXT")
    rng = random.Random(4)
    rows = []
    for i in range(1, 3001):
        # term frequencies 1-24 spread the scores; every 7th row is the same text: exact ties at the threshold
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 24))) if i % 7 else "vessel cargo"
        rows.append((i, "u" if i % 3 else "v", "keep" if i % 11 else "drop", body))
    cur.executemany("INSERT INTO docs VALUES (:1, :2, :3, :4)", rows)
    c.commit()
    yield c
    c.close()


RANKED = """SELECT d.id, ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, d.id) AS r
FROM docs d
WHERE CONTAINS(d.body, :kw, 1) > 0 AND d.owner = :owner AND d.kind = :kind
ORDER BY r
FETCH FIRST :n ROWS ONLY{tail}"""

PLAIN = """SELECT d.id, SCORE(1) AS s FROM docs d
WHERE d.kind = :kind AND (CONTAINS(d.body, :kw, 1) > 0) AND d.owner = :owner
ORDER BY SCORE(1) DESC, d.id
FETCH FIRST :n ROWS ONLY{tail}"""


def _run(conn, sql: str, **binds):
    with conn.cursor() as cur:
        cur.execute(sql, **binds)
        return cur.fetchall()


def _members(conn, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records how many rowids each pruned execution gave its block (fewer than the hits: pruning ran)."""
    seen: list[int] = []
    real = type(conn)._best_scored_rows

    def spy(self, slot, rowids, scores, binds) -> None:
        real(self, slot, rowids, scores, binds)
        handed = self.sqlite.execute("SELECT COUNT(*) FROM temp.lite_slot_rows WHERE slot = ?", (slot.slot,))
        seen.append(handed.fetchone()[0] - len(rowids))

    monkeypatch.setattr(type(conn), "_best_scored_rows", spy)
    return seen


def _pruned(conn, sql: str) -> bool:
    return any(slot.prune_sql for slot in conn._plan(sql).text_slots)


@pytest.mark.parametrize("template", [RANKED, PLAIN])
@pytest.mark.parametrize("kw, owner, kind, n, prunes", [
    ("vessel", "u", "keep", 5, True), ("vessel", "v", "keep", 30, True), ("cargo OR storm", "u", "drop", 10, True),
    ("crane, reefer, port", "v", "keep", 7, True),
    ("vessel", "v", "drop", 10, True), ("cargo OR storm", "v", "drop", 40, True),   # widen: few rows pass the filter
    ("vessel", "u", "keep", 900, False), ("berth AND delay", "v", "drop", 3000, False),   # n near the hits
    ("vessel", "nobody", "keep", 5, False)])   # nothing passes: widens to every hit
def test_pruned_keyword_block_equals_the_full_block(conn, monkeypatch: pytest.MonkeyPatch, template: str, kw: str,
                                                    owner: str, kind: str, n: int, prunes: bool) -> None:
    pruned, full = template.format(tail=""), template.format(tail=" OFFSET 0 ROWS")   # OFFSET: not pruned
    assert _pruned(conn, pruned) and not _pruned(conn, full)
    left_out = _members(conn, monkeypatch)
    got = _run(conn, pruned, kw=kw, owner=owner, kind=kind, n=n)
    assert (left_out[0] < 0) == prunes     # the block ran on fewer rows than CONTAINS matched
    want = _run(conn, full, kw=kw, owner=owner, kind=kind, n=n)
    assert got == want
    everything = _run(conn, full.replace(":n ROWS", "100000 ROWS"), kw=kw, owner=owner, kind=kind)
    assert got == everything[:n]


@pytest.mark.parametrize("sql", [
    # ascending score, an OR around CONTAINS, no FETCH, grouping: the full set is needed
    "SELECT d.id FROM docs d WHERE CONTAINS(d.body, :kw, 1) > 0 ORDER BY SCORE(1), d.id FETCH FIRST 5 ROWS ONLY",
    "SELECT d.id FROM docs d WHERE CONTAINS(d.body, :kw, 1) > 0 OR d.id = 1 ORDER BY SCORE(1) DESC, d.id "
    "FETCH FIRST 5 ROWS ONLY",
    "SELECT d.id FROM docs d WHERE CONTAINS(d.body, :kw, 1) > 0 ORDER BY SCORE(1) DESC, d.id",
    "SELECT d.owner, MAX(SCORE(1)) m FROM docs d WHERE CONTAINS(d.body, :kw, 1) > 0 GROUP BY d.owner "
    "ORDER BY m DESC FETCH FIRST 1 ROWS ONLY",
])
def test_blocks_that_need_every_hit_are_not_pruned(conn, sql: str) -> None:
    assert not _pruned(conn, sql)
    assert _run(conn, sql, kw="vessel")


def test_the_workshop_hybrid_statement_prunes_both_legs(memory_ws) -> None:
    plan = memory_ws.conn._plan(HYBRID_SQL)
    assert [bool(s.prune_sql) for s in plan.text_slots] == [True]
    assert [bool(s.prune_sql) for s in plan.vector_slots] == [True]


@pytest.fixture(scope="module")
def ties(tmp_path_factory: pytest.TempPathFactory):
    """2000 rows of one text (one score, the highest) and 500 others; codes as text, a few NULL in 'mixed'."""
    c = connect(tmp_path_factory.mktemp("text_ties"), "AGENT")
    cur = c.cursor()
    cur.execute("CREATE TABLE notes (id NUMBER PRIMARY KEY, code VARCHAR2(20), mixed VARCHAR2(20), "
                "owner VARCHAR2(10), body CLOB)")
    cur.execute("CREATE INDEX notes_ctx ON notes (body) INDEXTYPE IS CTXSYS.CONTEXT")
    rng = random.Random(9)
    rows = []
    for i in range(1, 2501):
        # the tied rows say "vessel" ten times: no other row (at most nine words) reaches their score
        body = "vessel " * 10 + "port pilotage" if i <= 2000 else \
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))
        code = f"C{rng.randrange(100000):05d}"   # shuffled against id, with repeats
        mixed = None if i % 97 == 0 else code
        rows.append((i, code, mixed, "u" if i % 5 else "v", body))
    cur.executemany("INSERT INTO notes VALUES (:1, :2, :3, :4, :5)", rows)
    c.commit()
    yield c
    c.close()


TIED = """SELECT n.id, ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, n.{key}, n.id) AS r
FROM notes n WHERE CONTAINS(n.body, :kw, 1) > 0 AND n.owner = :owner
ORDER BY r FETCH FIRST :n ROWS ONLY{tail}"""


@pytest.mark.parametrize("key, readable", [("code", True), ("mixed", False)])   # a NULL key: every tie stays
@pytest.mark.parametrize("owner, n, many_ties", [("u", 5, True), ("v", 30, True), ("u", 500, False)])
def test_ties_are_cut_by_the_blocks_next_key_exactly(ties, monkeypatch: pytest.MonkeyPatch, key: str,
                                                      readable: bool, owner: str, n: int, many_ties: bool) -> None:
    sql = TIED.format(key=key, tail="")
    assert ties._plan(sql).text_slots[0].tie_key == key.upper()
    left_out = _members(ties, monkeypatch)
    got = _run(ties, sql, kw="vessel", owner=owner, n=n)
    assert got == _run(ties, TIED.format(key=key, tail=" OFFSET 0 ROWS"), kw="vessel", owner=owner, n=n)
    assert len(got) == n
    # 2000 rows tie at the threshold: cut to a prefix by code, or (a NULL among them) all kept;
    # with n = 500 the candidate budget (2n) already holds half of them, so they all stay
    assert (-left_out[0] > 1000) == (readable and many_ties)


def test_a_descending_or_foreign_next_key_is_not_a_tie_key(ties) -> None:
    desc = TIED.format(key="code DESC", tail="").replace("n.code DESC, n.id", "n.code DESC, n.id")
    assert ties._plan(desc).text_slots[0].tie_key is None
    plain = "SELECT n.id FROM notes n WHERE CONTAINS(n.body, :kw, 1) > 0 ORDER BY SCORE(1) DESC, n.id FETCH FIRST 3 ROWS ONLY"
    assert ties._plan(plain).text_slots[0].tie_key == "ID"
    assert _run(ties, plain, kw="vessel") == _run(ties, plain.replace("3 ROWS ONLY", "3 ROWS ONLY OFFSET 0 ROWS")
                                                  .replace("FETCH FIRST 3 ROWS ONLY OFFSET 0 ROWS",
                                                           "OFFSET 0 ROWS FETCH FIRST 3 ROWS ONLY"), kw="vessel")


def test_tie_keys_kept_between_queries_follow_writes(ties) -> None:
    sql, full = TIED.format(key="code", tail=""), TIED.format(key="code", tail=" OFFSET 0 ROWS")
    first = _run(ties, sql, kw="pilotage", owner="u", n=5)   # only the 2000 tied rows match
    assert ties.caches.column_values.stale(("AGENT", "NOTES", "CODE"))   # keys read once, kept
    try:
        with ties.cursor() as cur:   # a tied row far down the code order jumps to the front, the first leaves
            cur.execute("UPDATE notes SET code = 'A' WHERE id = (SELECT MAX(id) FROM notes "
                        "WHERE owner = 'u' AND id <= 2000)")
            cur.execute("DELETE FROM notes WHERE id = :1", [first[0][0]])
        again = _run(ties, sql, kw="pilotage", owner="u", n=5)
        assert again == _run(ties, full, kw="pilotage", owner="u", n=5) \
            and [r[0] for r in again[1:]] == [r[0] for r in first[1:]]   # the new first, then the old ones
    finally:
        ties.rollback()
    assert _run(ties, sql, kw="pilotage", owner="u", n=5) == first


def test_search_arrays_are_the_search_dict(ties) -> None:
    """TextIndex.search_arrays gives the same rows and scores, in the same order, as TextIndex.search."""
    index = ties._text_index("AGENT", "NOTES", "BODY", "vessel")
    for query in ("vessel", "cargo OR storm", "berth AND delay", "vessel NOT pilotage", "nothingatall"):
        rowids, scores = index.search_arrays(query)
        assert dict(zip(rowids.tolist(), scores.tolist())) == index.search(query)
        assert rowids.tolist() == list(index.search(query))


def test_rows_added_after_searches_give_the_answers_of_a_fresh_index() -> None:
    """TextIndex.add extends the arrays earlier searches built (new documents number highest) instead of
    dropping them; every query must still answer exactly as an index built from the final rows."""
    import random

    from workshop_lib import oracle_text
    from workshop_lib.lite.text import TextIndex

    rng = random.Random(3)
    words = ["vessel", "port", "crane", "berth", "delay", "cargo", "reefer", "storm"]
    rows = {i: " ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) for i in range(1, 300)}
    index = TextIndex(oracle_text)
    index.rebuild(rows.items())
    queries = ["vessel", "cargo OR storm", "berth AND delay", "{vessel port}", "crane NOT reefer", "vess%",
               "{port crane berth}"]
    for step in range(40):
        for query in queries:
            index.search_arrays(query)   # builds (and keeps) the per-token arrays
        rowid = rng.choice([max(rows) + 1, rng.randrange(1, max(rows))])   # a new row, or a row written again
        rows[rowid] = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        index.add(rowid, rows[rowid])
        fresh = TextIndex(oracle_text)
        fresh.rebuild(sorted(rows.items()))
        for query in queries:
            assert index.search(query) == fresh.search(query), (step, query)


def test_rows_removed_or_rewritten_after_searches_give_the_answers_of_a_fresh_index() -> None:
    """TextIndex.remove filters the arrays earlier searches built instead of dropping them (a rewritten
    memory removes its row); rows added and removed between two searches, and a word's last row removed,
    must still answer exactly as an index built from the final rows."""
    import random

    from workshop_lib import oracle_text
    from workshop_lib.lite.text import TextIndex

    rng = random.Random(9)
    words = ["vessel", "port", "crane", "berth", "delay", "cargo", "reefer", "storm"]
    rows = {i: " ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) for i in range(1, 300)}
    rows[300] = "pilotage vessel"   # the only row with "pilotage": removing it empties the word
    index = TextIndex(oracle_text)
    index.rebuild(rows.items())
    queries = ["vessel", "cargo OR storm", "berth AND delay", "{vessel port}", "crane NOT reefer", "vess%",
               "pilotage", "{port crane berth}"]
    filtered = 0
    for step in range(60):
        for query in queries:
            index.search_arrays(query)   # builds (and keeps) the per-token arrays
        for _ in range(rng.randint(1, 4)):
            move = rng.random()
            if move < 0.3 and rows:   # a delete
                rowid = 300 if step == 5 and 300 in rows else rng.choice(sorted(rows))
                del rows[rowid]
                index.remove(rowid)
            elif move < 0.6 and rows:   # a rewrite: the row's old text removed, its new text added last
                rowid = rng.choice(sorted(rows))
                rows[rowid] = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
                index.add(rowid, rows[rowid])
            else:   # a new row, sometimes removed again before the next search (it is only in a tail)
                rowid = max(rows, default=0) + 1
                rows[rowid] = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
                index.add(rowid, rows[rowid])
                if rng.random() < 0.3:
                    del rows[rowid]
                    index.remove(rowid)
        filtered += bool(index._gone)
        fresh = TextIndex(oracle_text)
        fresh.rebuild(sorted(rows.items()))
        for query in queries:
            assert index.search(query) == fresh.search(query), (step, query)
    assert filtered and "pilotage" not in index._arrays   # arrays were filtered, and the emptied word dropped
