"""Lite's Oracle Text index catches up with writes incrementally and stays exact.

After every kind of write (same connection, another connection's commit,
rollback, bulk change) the CONTAINS/SCORE rows lite returns must equal those of
a TextIndex freshly built from the table's current rows; and a one-row update
must re-tokenize that one row only, not the whole table.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection
from workshop_lib.lite import text as text_module
from workshop_lib import oracle_text
from workshop_lib.lite.text import TextIndex

WORDS = ("vessel port cargo delay customs container berth crane storm reefer "
         "manifest tanker draft pilot tug anchor harbour freight").split()
QUERIES = ["vessel", "vessel AND port", "cargo OR storm", "port delay", "cont%", "crane, tug, pilot",
           "freight - harbour", "berth NOT anchor", "the vessel"]
SEARCH = "SELECT id, SCORE(1) FROM docs WHERE CONTAINS(body, :kw, 1) > 0"
N_DOCS = 40


def _doc(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))


def _create(home: Path, rng: random.Random) -> LiteConnection:
    conn = connect(home, "AGENT")
    cur = conn.cursor()
    cur.execute("CREATE TABLE docs (id NUMBER PRIMARY KEY, body CLOB)")
    cur.execute("CREATE INDEX docs_ctx ON docs (body) INDEXTYPE IS CTXSYS.CONTEXT")
    cur.executemany("INSERT INTO docs (id, body) VALUES (:1, :2)", [(i, _doc(rng)) for i in range(N_DOCS)])
    conn.commit()
    return conn


def _assert_matches_fresh_index(conn: LiteConnection) -> None:
    """Every query's {id: score} from lite equals a TextIndex rebuilt over the current rows."""
    cur = conn.cursor()
    cur.execute("SELECT id, body FROM docs")
    fresh = TextIndex(oracle_text)
    fresh.rebuild(cur.fetchall())
    for query in QUERIES:
        cur.execute(SEARCH, kw=query)
        assert dict(cur.fetchall()) == fresh.search(query), query


def test_same_connection_writes_give_rebuild_results(tmp_path: Path) -> None:
    rng = random.Random(1)
    conn = _create(tmp_path, rng)
    cur = conn.cursor()
    _assert_matches_fresh_index(conn)
    cur.execute("INSERT INTO docs (id, body) VALUES (:1, :2)", (100, "vessel port vessel delay"))
    _assert_matches_fresh_index(conn)          # uncommitted DML is visible to its own connection
    cur.execute("UPDATE docs SET body = :1 WHERE id = :2", ("storm over the harbour", 3))
    _assert_matches_fresh_index(conn)
    cur.execute("DELETE FROM docs WHERE id IN (5, 6, 7)")
    _assert_matches_fresh_index(conn)
    cur.execute("UPDATE docs SET body = NULL WHERE id = 8")
    cur.execute("UPDATE docs SET body = '' WHERE id = 9")
    _assert_matches_fresh_index(conn)
    cur.execute("UPDATE docs SET body = :1 WHERE id = 8", ("tanker draft pilot vessel",))
    conn.commit()
    _assert_matches_fresh_index(conn)
    cur.execute("DELETE FROM docs WHERE id = 100")
    conn.rollback()                            # the deleted row comes back
    _assert_matches_fresh_index(conn)
    cur.execute("UPDATE docs SET body = body || ' reefer cargo'")  # every row: the rebuild path
    _assert_matches_fresh_index(conn)
    cur.execute("DELETE FROM docs")
    _assert_matches_fresh_index(conn)
    cur.execute("INSERT INTO docs (id, body) VALUES (1, 'vessel in port')")
    _assert_matches_fresh_index(conn)
    conn.close()


def test_another_connections_commits_give_rebuild_results(tmp_path: Path) -> None:
    rng = random.Random(2)
    reader = _create(tmp_path, rng)
    writer = connect(tmp_path, "AGENT")
    cur = writer.cursor()
    _assert_matches_fresh_index(reader)
    cur.execute("INSERT INTO docs (id, body) VALUES (:1, :2)", (200, "crane crane crane port"))
    cur.execute("UPDATE docs SET body = :1 WHERE id = 11", ("customs delay at the berth",))
    _assert_matches_fresh_index(reader)        # not committed yet: the reader still sees the old rows
    writer.commit()
    _assert_matches_fresh_index(reader)
    cur.execute("DELETE FROM docs WHERE id < 10")
    writer.commit()
    _assert_matches_fresh_index(reader)
    writer.close()
    reader.close()


class _CountingIndex(TextIndex):
    """The real TextIndex, counting how many rows it tokenizes."""

    adds = 0

    def add(self, rowid: int, text: str | None) -> None:
        type(self).adds += 1
        super().add(rowid, text)


def _adds_for(conn: LiteConnection, write: str, *binds: object, committer: LiteConnection | None = None) -> int:
    _CountingIndex.adds = 0
    writer = committer or conn
    writer.cursor().execute(write, binds)
    writer.commit()
    conn.cursor().execute(SEARCH, kw="vessel").fetchall()
    return _CountingIndex.adds


def test_one_row_write_retokenizes_only_that_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_module, "TextIndex", _CountingIndex)
    conn = _create(tmp_path, random.Random(3))
    other = connect(tmp_path, "AGENT")
    _CountingIndex.adds = 0
    conn.cursor().execute(SEARCH, kw="vessel").fetchall()
    assert _CountingIndex.adds == N_DOCS                      # first query builds the whole index
    assert _adds_for(conn, "UPDATE docs SET body = :1 WHERE id = 4", "pilot tug vessel") == 1
    assert _adds_for(conn, "INSERT INTO docs (id, body) VALUES (:1, :2)", 300, "anchor vessel") == 1
    assert _adds_for(conn, "DELETE FROM docs WHERE id = 12") == 0
    assert _adds_for(conn, "UPDATE docs SET body = body WHERE id = 13") == 0  # same text: nothing to redo
    assert _adds_for(conn, "UPDATE docs SET body = :1 WHERE id = 14", "storm vessel", committer=other) == 1
    rows = N_DOCS                                             # 40 - 1 deleted + 1 inserted
    assert _adds_for(conn, "UPDATE docs SET body = body || ' x'") == rows   # most rows changed: rebuild
    _assert_matches_fresh_index(conn)
    other.close()
    conn.close()
