"""After a write, lite catches its vector matrix and text index up row by row, and stays exact.

Every check compares a connection that has been catching up through many
writes with a fresh connection that reads everything from scratch: the
distances (bit for bit), the top-k rows and the Oracle Text scores must be the
same, and the caught-up connection must not have re-read the whole column.
"""

from __future__ import annotations

import array
import random
from pathlib import Path

import numpy as np
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import connection as connection_module
from workshop_lib.lite.caches import VectorColumn
from workshop_lib.lite.functions import rows_norms

WORDS = "vessel port cargo delay customs container berth crane storm reefer manifest tanker".split()
DIMS = 8
QUERY = "[0.5, -0.2, 0.1, 0.9, -0.7, 0.3, 0.0, 0.4]"
DISTANCES = "SELECT id, VECTOR_DISTANCE(emb, TO_VECTOR(:q), COSINE) FROM notes ORDER BY id"
TOP = ("SELECT id, VECTOR_DISTANCE(emb, TO_VECTOR(:q), COSINE) d FROM notes WHERE kind = 'keep' "
       "ORDER BY d, id FETCH FIRST 7 ROWS ONLY")
TEXT = "SELECT id, SCORE(1) FROM notes WHERE CONTAINS(body, :kw, 1) > 0 ORDER BY id"
TEXT_QUERIES = ["vessel", "port AND cargo", "storm OR crane", "cont%"]


def _vec(rng: random.Random) -> array.array:
    return array.array("f", [rng.uniform(-1, 1) for _ in range(DIMS)])


def _body(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 9)))


@pytest.fixture()
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many full matrix loads the connection made (each one reads the whole column)."""
    made: list[int] = []

    class Counting(VectorColumn):
        def __init__(self, *args: object) -> None:
            made.append(1)
            super().__init__(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(connection_module, "VectorColumn", Counting)
    return made


def _answers(conn) -> tuple:
    cur = conn.cursor()
    cur.execute(DISTANCES, q=QUERY)
    distances = cur.fetchall()
    cur.execute(TOP, q=QUERY)
    top = cur.fetchall()
    scores = []
    for kw in TEXT_QUERIES:
        cur.execute(TEXT, kw=kw)
        scores.append(cur.fetchall())
    return distances, top, scores


def _live_rows(view: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rowids, vectors and norms of the live slots of a VectorColumn view (deleted rows' slots dropped)."""
    rowids, matrix, norms, live = view
    return (rowids, matrix, norms) if live is None else (rowids[live], matrix[live], norms[live])


def _assert_same_as_fresh(conn, home: Path) -> None:
    fresh = connect(home, "AGENT")
    try:
        assert _answers(conn) == _answers(fresh)
        mine = _live_rows(conn._matrix("AGENT", "NOTES", "EMB"))
        theirs = _live_rows(fresh._matrix("AGENT", "NOTES", "EMB"))
        for a, b in zip(mine, theirs, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)   # bit for bit, in the same row order
    finally:
        fresh.close()


def test_writes_updates_and_deletes_are_caught_up_exactly_without_a_reload(tmp_path: Path, builds: list[int]) -> None:
    rng = random.Random(11)
    conn = connect(tmp_path, "AGENT")
    cur = conn.cursor()
    cur.execute("CREATE TABLE notes (id NUMBER PRIMARY KEY, kind VARCHAR2(10), body CLOB, emb VECTOR(8, FLOAT32))")
    cur.execute("CREATE INDEX notes_ctx ON notes (body) INDEXTYPE IS CTXSYS.CONTEXT")
    cur.executemany("INSERT INTO notes VALUES (:1, :2, :3, :4)",
                    [(i, "keep" if i % 4 else "drop", _body(rng), _vec(rng)) for i in range(300)])
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    assert len(builds) == 2                         # one load here, one for the fresh connection
    next_id = 300
    for step in range(60):
        op = step % 6
        if op == 0:
            cur.execute("INSERT INTO notes VALUES (:1, 'keep', :2, :3)", [next_id, _body(rng), _vec(rng)])
            next_id += 1
        elif op == 1:
            cur.execute("UPDATE notes SET emb = :1, body = :2 WHERE id = :3", [_vec(rng), _body(rng), rng.randrange(next_id)])
        elif op == 2:
            cur.execute("DELETE FROM notes WHERE id = :1", [rng.randrange(next_id)])
        elif op == 3:
            cur.execute("UPDATE notes SET emb = NULL WHERE id = :1", [rng.randrange(next_id)])
        elif op == 4:
            cur.execute("UPDATE notes SET kind = 'drop' WHERE id = :1", [rng.randrange(next_id)])  # no vector change
        else:
            cur.executemany("INSERT INTO notes VALUES (:1, 'keep', :2, :3)",
                            [(next_id + k, _body(rng), _vec(rng)) for k in range(3)])
            next_id += 3
        conn.commit()
        if step % 5 == 4:
            _assert_same_as_fresh(conn, tmp_path)
    # only the fresh connections loaded the column; the writer caught up row by row
    assert len(builds) == 2 + 12
    conn.close()


def test_a_rolled_back_or_failed_write_and_a_cascade_are_caught_up(tmp_path: Path, builds: list[int]) -> None:
    rng = random.Random(5)
    conn = connect(tmp_path, "AGENT")
    cur = conn.cursor()
    cur.execute("CREATE TABLE docs (doc_id NUMBER PRIMARY KEY)")
    cur.execute("CREATE TABLE notes (id NUMBER PRIMARY KEY, kind VARCHAR2(10), body CLOB, emb VECTOR(8, FLOAT32), "
                "doc_id NUMBER REFERENCES docs (doc_id) ON DELETE CASCADE)")
    cur.execute("CREATE INDEX notes_ctx ON notes (body) INDEXTYPE IS CTXSYS.CONTEXT")
    cur.executemany("INSERT INTO docs VALUES (:1)", [(d,) for d in range(10)])
    cur.executemany("INSERT INTO notes VALUES (:1, 'keep', :2, :3, :4)",
                    [(i, _body(rng), _vec(rng), i % 10) for i in range(100)])
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    cur.execute("DELETE FROM docs WHERE doc_id = 3")            # cascades to ten notes
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    cur.execute("INSERT INTO notes VALUES (500, 'keep', 'vessel vessel', :1, 1)", [_vec(rng)])
    with pytest.raises(Exception):                               # the whole statement fails: no trace
        cur.executemany("INSERT INTO notes VALUES (:1, 'keep', 'storm', :2, 1)", [(501, _vec(rng)), (500, _vec(rng))])
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    cur.execute("UPDATE notes SET body = 'crane crane', emb = :1 WHERE id = 1", [_vec(rng)])
    conn.rollback()                                              # the update never happened
    _assert_same_as_fresh(conn, tmp_path)
    cur.execute("INSERT INTO notes VALUES (2000, 'keep', 'tanker', :1, 2)", [_vec(rng)])
    cur.execute("INSERT INTO notes VALUES (1500, 'keep', 'reefer', :1, 2)", [_vec(rng)])
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    conn.close()


def test_vector_column_matches_a_fresh_load_after_any_changes() -> None:
    rng = np.random.default_rng(3)
    vectors = {int(r): rng.standard_normal(DIMS).astype(np.float32) for r in rng.choice(1000, 200, replace=False)}

    def fresh() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ids = np.array(sorted(vectors), dtype=np.int64)
        matrix = np.vstack([vectors[i] for i in ids]) if len(ids) else np.zeros((0, DIMS), dtype=np.float32)
        return ids, matrix, rows_norms(matrix)

    column = VectorColumn(*fresh()[:2])
    column.MIN_DEAD, column.DEAD_SHARE = 4, 64   # squeeze dead slots out often enough to be seen here
    dead_seen = squeezed = 0
    for _ in range(200):
        changed: dict[int, np.ndarray | None] = {}
        for rowid in rng.integers(0, 1300, size=int(rng.integers(1, 6))).tolist():
            if rng.random() < 0.3:
                vectors.pop(rowid, None)
                changed[rowid] = None
            else:
                vectors[rowid] = changed[rowid] = rng.standard_normal(DIMS).astype(np.float32)
        slots = column.rowids.size
        assert column.apply(changed)
        for mine, theirs in zip(_live_rows(column.view()), fresh(), strict=True):
            assert np.array_equal(mine, theirs)
        dead_seen += column.live is not None
        squeezed += column.rowids.size < slots
    assert dead_seen and squeezed   # both ways of holding a deleted row were exercised
    assert not column.apply({5: np.zeros(DIMS + 1, dtype=np.float32)})   # another width: the caller reloads


@pytest.mark.parametrize("metric", ["COSINE", "DOT", "EUCLIDEAN", "EUCLIDEAN_SQUARED", "MANHATTAN"])
def test_each_rows_distance_is_computed_from_that_row_alone(metric: str) -> None:
    """What lets a cached matrix keep deleted rows' slots: a row's distance has the same bits at any position.

    (A BLAS matrix-vector product does not have this property: moving a row by
    one changed the last bit of some rows' products on this project's machine.)
    """
    from workshop_lib.lite.functions import distances_to

    rng = np.random.default_rng(17)
    for rows in (1, 7, 33, 1000, 4099):
        matrix = rng.standard_normal((rows, 384)).astype(np.float32)
        query = rng.standard_normal(384).astype(np.float32)
        whole = distances_to(matrix, query, metric, np.linalg.norm(matrix, axis=1))
        alone = np.concatenate([distances_to(matrix[i:i + 1], query, metric, np.linalg.norm(matrix[i:i + 1], axis=1))
                                for i in range(rows)])
        assert whole.dtype == alone.dtype and np.array_equal(whole, alone)
        for gone in {0, rows // 2, rows - 1}:
            kept = np.delete(matrix, gone, axis=0)
            assert np.array_equal(distances_to(kept, query, metric, np.linalg.norm(kept, axis=1)),
                                  np.delete(whole, gone))


def test_a_delete_marks_its_slot_and_moves_no_row() -> None:
    rng = np.random.default_rng(5)
    matrix = rng.standard_normal((1000, DIMS)).astype(np.float32)
    column = VectorColumn(np.arange(1, 1001), matrix)
    storage = column.view()[1]
    assert column.apply({10: None, 500: None})
    rowids, vectors, _, live = column.view()
    assert np.shares_memory(vectors, storage) and np.array_equal(vectors, matrix)   # no row moved
    assert rowids.size == 1000 and np.flatnonzero(~live).tolist() == [9, 499]
    assert column.apply({10: matrix[0]})   # the rowid comes back (SQLite reuses the highest): its slot again
    assert np.flatnonzero(~column.live).tolist() == [499] and np.array_equal(column.view()[1][9], matrix[0])


def test_a_deleted_rows_slot_comes_back_for_the_rowid_sqlite_gives_again(tmp_path: Path, builds: list[int]) -> None:
    """SQLite gives a deleted highest rowid to the next INSERT, and a vector set back from NULL returns to its
    row: both reuse the dead slot, and the answers stay a fresh connection's, with no reload."""
    rng = random.Random(7)
    conn = connect(tmp_path, "AGENT")
    cur = conn.cursor()
    cur.execute("CREATE TABLE notes (id NUMBER PRIMARY KEY, kind VARCHAR2(10), body CLOB, emb VECTOR(8, FLOAT32))")
    cur.execute("CREATE INDEX notes_ctx ON notes (body) INDEXTYPE IS CTXSYS.CONTEXT")
    cur.executemany("INSERT INTO notes VALUES (:1, 'keep', :2, :3)", [(i, _body(rng), _vec(rng)) for i in range(50)])
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    last = conn._con.execute('SELECT MAX(rowid) FROM "NOTES"').fetchone()[0]
    cur.execute("DELETE FROM notes WHERE id = 49")
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    assert conn._matrix("AGENT", "NOTES", "EMB")[3] is not None   # the deleted row's slot is dead, still there
    cur.execute("INSERT INTO notes VALUES (77, 'keep', 'vessel reefer', :1)", [_vec(rng)])
    conn.commit()
    assert conn._con.execute("SELECT rowid FROM notes WHERE id = 77").fetchone()[0] == last   # the same rowid
    _assert_same_as_fresh(conn, tmp_path)
    assert conn._matrix("AGENT", "NOTES", "EMB")[3] is None        # ... and it took the slot back
    cur.execute("UPDATE notes SET emb = NULL WHERE id = 10")
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    cur.execute("UPDATE notes SET emb = :1 WHERE id = 10", [_vec(rng)])
    conn.commit()
    _assert_same_as_fresh(conn, tmp_path)
    assert conn._matrix("AGENT", "NOTES", "EMB")[3] is None
    assert len(builds) == 1 + 5   # the writer loaded once; each fresh connection once
    conn.close()
