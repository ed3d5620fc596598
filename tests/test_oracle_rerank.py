"""rerank on Oracle without a database: the PREDICTION statement, its binds, and byte-safe cuts.

A recording connection stands in for python-oracledb: it says the reranker is
loaded, records each statement with its binds, and scores a passage by its
length so the reordering is visible.
"""

from __future__ import annotations

import pytest

from workshop_lib.config import RERANK_MODEL
from workshop_lib.retrieval import MAX_BIND_BYTES, clip_utf8, rerank


class RecordingConn:
    def __init__(self):
        self.log: list[tuple[str, dict]] = []

    def cursor(self):
        conn = self

        class Cur:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                pass

            def execute(self, sql, params=None, **kw):
                binds = dict(params or {}, **kw)
                conn.log.append((sql, binds))
                if "user_mining_models" in sql:
                    self.rows = [(1,)]
                else:
                    self.rows = [(float(len(binds["p"])),)]

            def fetchall(self):
                return self.rows

            def fetchone(self):
                return self.rows[0]

        return Cur()


def test_rerank_binds_at_most_4000_bytes_of_multibyte_text_and_never_splits_a_character():
    conn = RecordingConn()
    long_text = "船舶の容量はTEUで表す。" * 600            # 3 bytes a character: ~20,000 bytes
    candidates = [{"record_id": "a", "content": "short"}, {"record_id": "b", "content": long_text}]
    out = rerank("容量 " * 2000, candidates, top_k=2, conn=conn)
    predictions = [(sql, b) for sql, b in conn.log if "PREDICTION" in sql]
    assert len(predictions) == 2
    for sql, binds in predictions:
        assert sql == f"SELECT PREDICTION({RERANK_MODEL} USING :q AS query, :p AS passage) FROM dual"
        for value in binds.values():
            assert len(value.encode("utf-8")) <= MAX_BIND_BYTES
            value.encode("utf-8").decode("utf-8")              # whole characters only
    assert [c["record_id"] for c in out] == ["b", "a"]          # reordered by the (recorded) score


@pytest.mark.parametrize("text, limit, expected", [
    ("abc", 4000, "abc"), ("é" * 3000, 4000, "é" * 2000), ("aé", 2, "a"), ("€€", 5, "€"), ("", 10, "")])
def test_clip_utf8(text, limit, expected):
    assert clip_utf8(text, limit) == expected
