"""A statement checks each table's change-log triggers and each schema's data_version once, and still sees writes.

The hybrid shape reads three derived values of one table (its Oracle Text
index, the tie-breaking column, its vector matrix); each used to check the
triggers and read ``PRAGMA data_version`` itself. Results after every kind of
write between two statements must equal a fresh connection's.
"""

from __future__ import annotations

import array
import random
from pathlib import Path

from workshop_lib.backends.lite import connect_lite as connect

WORDS = "vessel port cargo delay customs container berth crane storm reefer".split()
QUERY = "[0.5, -0.2, 0.1, 0.9, -0.7, 0.3, 0.0, 0.4]"
HYBRID = """WITH vec AS (
  SELECT n.id, ROW_NUMBER() OVER (ORDER BY VECTOR_DISTANCE(n.emb, TO_VECTOR(:q), COSINE), n.id) AS r
  FROM notes n WHERE n.kind = 'keep' ORDER BY r FETCH FIRST 5 ROWS ONLY
), txt AS (
  SELECT n.id, ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, n.id) AS r
  FROM notes n WHERE CONTAINS(n.body, :kw, 1) > 0 AND n.kind = 'keep' ORDER BY r FETCH FIRST 5 ROWS ONLY
)
SELECT NVL(v.id, t.id) AS id, v.r AS r_vec, t.r AS r_txt
FROM vec v FULL OUTER JOIN txt t ON t.id = v.id
ORDER BY 1"""


def _vec(rng: random.Random) -> array.array:
    return array.array("f", [rng.uniform(-1, 1) for _ in range(8)])


def _create(home: Path, rng: random.Random):
    conn = connect(home, "AGENT")
    cur = conn.cursor()
    cur.execute("CREATE TABLE notes (id NUMBER PRIMARY KEY, kind VARCHAR2(10), body CLOB, emb VECTOR(8, FLOAT32))")
    cur.execute("CREATE INDEX notes_ctx ON notes (body) INDEXTYPE IS CTXSYS.CONTEXT")
    # one word in every body: the keyword leg's hits tie, so the tie-breaking column is read too
    cur.executemany("INSERT INTO notes VALUES (:1, :2, :3, :4)",
                    [(i, "keep" if i % 4 else "drop", "vessel " + rng.choice(WORDS), _vec(rng)) for i in range(2000)])
    conn.commit()
    return conn


def _hybrid(conn, kw: str = "vessel") -> list[tuple]:
    with conn.cursor() as cur:
        cur.execute(HYBRID, q=QUERY, kw=kw)
        return cur.fetchall()


def _fresh(home: Path, kw: str = "vessel") -> list[tuple]:
    other = connect(home, "AGENT")
    try:
        return _hybrid(other, kw)
    finally:
        other.close()


def test_the_hybrid_shape_checks_triggers_and_data_version_once(tmp_path: Path) -> None:
    conn = _create(tmp_path, random.Random(1))
    plan = conn._plan(HYBRID)
    assert [bool(s.prune_sql) for s in plan.vector_slots + plan.text_slots] == [True, True]
    assert plan.text_slots[0].tie_key == "ID"
    _hybrid(conn)
    seen: list[str] = []
    conn.sqlite.set_trace_callback(seen.append)
    _hybrid(conn)
    conn.sqlite.set_trace_callback(None)
    assert sum('"main".data_version' in s for s in seen) == 1     # the table's, for the derived values
    # the catalog's (for the plan: views, DDL) only when its file's change counter moved, which it has not
    assert sum("LITECAT.data_version" in s for s in seen) == 0
    assert sum("data_version" in s for s in seen) == 1
    assert sum("sqlite_temp_master" in s for s in seen) == 1
    assert not any(s.startswith("SELECT :") or s.startswith("SELECT 'vessel'") for s in seen)   # binds read directly
    conn.close()


def test_the_catalog_is_asked_again_only_after_its_file_changed(tmp_path: Path) -> None:
    """A plan lookup reads the catalog file's change counter; a move sends it to PRAGMA data_version, which
    tells another connection's DDL (the plans go) from this connection's own catalog writes (they stay)."""
    conn = _create(tmp_path, random.Random(3))
    cur = conn.cursor()
    cur.execute("CREATE SEQUENCE note_seq")
    cur.execute("SELECT COUNT(*) FROM notes").fetchall()
    seen: list[str] = []
    conn.sqlite.set_trace_callback(seen.append)
    cur.execute("SELECT note_seq.NEXTVAL FROM dual").fetchall()   # writes the catalog (the sequence's next number)
    conn.commit()
    cur.execute("SELECT COUNT(*) FROM notes").fetchall()
    assert sum("LITECAT.data_version" in s for s in seen) == 1 and conn.caches.plan("SELECT COUNT(*) FROM notes")
    other = connect(tmp_path, "AGENT")
    other.cursor().execute("CREATE VIEW few_notes AS SELECT id FROM notes WHERE id < 10")
    other.close()
    cur.execute("SELECT COUNT(*) FROM notes").fetchall()
    conn.sqlite.set_trace_callback(None)
    assert sum("LITECAT.data_version" in s for s in seen) == 2
    assert set(conn.caches.plans) == {"SELECT COUNT(*) FROM notes"}   # the others' DDL dropped every plan
    conn.close()


def test_writes_between_statements_are_seen(tmp_path: Path) -> None:
    rng = random.Random(2)
    conn = _create(tmp_path, rng)
    cur = conn.cursor()
    assert _hybrid(conn) == _fresh(tmp_path)
    # this connection's writes: an insert that enters both legs, an update, a delete
    cur.execute("INSERT INTO notes VALUES (5000, 'keep', 'vessel vessel vessel', :1)", [QUERY])
    conn.commit()
    assert (5000, 1, 1) in _hybrid(conn)
    assert _hybrid(conn) == _fresh(tmp_path)
    cur.execute("UPDATE notes SET kind = 'drop' WHERE id = 5000")
    conn.commit()
    assert _hybrid(conn) == _fresh(tmp_path) and all(r[0] != 5000 for r in _hybrid(conn))
    cur.execute("DELETE FROM notes WHERE id < 200")
    assert _hybrid(conn) and all(r[0] >= 200 for r in _hybrid(conn))   # uncommitted: seen by this connection
    conn.commit()
    assert _hybrid(conn) == _fresh(tmp_path)
    # another connection's commit
    other = connect(tmp_path, "AGENT")
    other.cursor().execute("INSERT INTO notes VALUES (6000, 'keep', 'vessel vessel vessel vessel', :1)", [QUERY])
    other.commit()
    other.close()
    assert (6000, 1, 1) in _hybrid(conn) or (6000, 2, 1) in _hybrid(conn)
    assert _hybrid(conn) == _fresh(tmp_path)
    conn.close()


def test_a_rollback_of_the_transaction_that_created_the_triggers_is_caught(tmp_path: Path) -> None:
    rng = random.Random(3)
    _create(tmp_path, rng).close()
    conn = connect(tmp_path, "AGENT")   # no triggers yet on this connection
    cur = conn.cursor()
    cur.execute("UPDATE notes SET body = 'storm' WHERE id = 1")   # opens a transaction
    _hybrid(conn)                                                # creates the triggers inside it
    conn.rollback()                                              # ... and undoes them
    _hybrid(conn)
    cur.execute("INSERT INTO notes VALUES (7000, 'keep', 'vessel vessel vessel', :1)", [QUERY])
    conn.commit()
    assert (7000, 1, 1) in _hybrid(conn)
    assert _hybrid(conn) == _fresh(tmp_path)
    conn.close()
