"""The catalog scan writes its memories in one embedding run and one commit (lite's batched store writes)."""

from __future__ import annotations

import pytest

from workshop_lib.scanner import Fact, write_facts


def _facts(prefix: str, n: int) -> list[Fact]:
    return [Fact("column", f"BATCH.{prefix}.C{i}", f"Column C{i} of {prefix} holds the {i}th vessel position.")
            for i in range(n)]


def _count(conn, like: str) -> int:
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM eda_onnx_memory WHERE JSON_VALUE(metadata, '$.subject') LIKE :s", s=like)
        return cur.fetchone()[0]


def test_write_facts_embeds_once_and_commits_once(memory_ws, monkeypatch: pytest.MonkeyPatch) -> None:
    store = memory_ws.memory_client._store
    conn = memory_ws.conn
    embeds: list[int] = []
    commits: list[int] = []
    real_embed, real_commit = store._embedder.embed, conn.commit
    monkeypatch.setattr(store._embedder, "embed", lambda texts, **kw: embeds.append(len(texts)) or real_embed(texts, **kw))
    monkeypatch.setattr(conn, "commit", lambda: commits.append(1) or real_commit())
    ids = write_facts(memory_ws.memory_client, _facts("ONE", 12), user_id=memory_ws.user_id,
                      agent_id=memory_ws.agent_id, progress=False)
    assert len(ids) == 12 and embeds == [12] and len(commits) == 1
    assert _count(conn, "BATCH.ONE.%") == 12
    # a re-scan with changed bodies updates in place (put_memory), still one run and one commit
    embeds.clear(), commits.clear()
    changed = [Fact(f.kind, f.subject, f.body + " Updated.") for f in _facts("ONE", 12)]
    assert write_facts(memory_ws.memory_client, changed, user_id=memory_ws.user_id, agent_id=memory_ws.agent_id,
                       progress=False) == ids
    assert embeds == [12] and len(commits) == 1 and _count(conn, "BATCH.ONE.%") == 12
    hits = memory_ws.memory_client.search("C3 of ONE holds the 3th vessel position. Updated.",
                                          user_id=memory_ws.user_id, agent_id=memory_ws.agent_id, max_results=1)
    assert hits and hits[0].record.id == ids[3]   # the prepared vectors are the bodies' own


def test_a_failing_write_leaves_none_of_the_batch(memory_ws, monkeypatch: pytest.MonkeyPatch) -> None:
    from workshop_lib.memory import client as client_module

    real_put = client_module.put_memory
    calls = {"n": 0}

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("disk full")
        return real_put(*args, **kwargs)

    monkeypatch.setattr(client_module, "put_memory", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        write_facts(memory_ws.memory_client, _facts("TWO", 8), user_id=memory_ws.user_id,
                    agent_id=memory_ws.agent_id, progress=False)
    assert _count(memory_ws.conn, "BATCH.TWO.%") == 0
    assert not memory_ws.conn.transaction_in_progress and memory_ws.memory_client._store._batch_depth == 0


def test_a_re_scan_reads_the_facts_and_counts_the_learners_own_memories(memory_ws,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows a scan reads do not grow with the learner's own memories (reading 10^5 texts took 0.3 s)."""
    from workshop_lib.lite import LiteCursor
    from workshop_lib.scanner import reference_scan

    client, user, agent = memory_ws.memory_client, memory_ws.user_id, memory_ws.agent_id
    first = reference_scan(memory_ws)
    fetched: list[int] = []
    real_fetchall = LiteCursor.fetchall

    def counting(self):
        rows = real_fetchall(self)
        fetched.append(len(rows))
        return rows

    monkeypatch.setattr(LiteCursor, "fetchall", counting)
    idle = reference_scan(memory_ws)
    before = sum(fetched)
    for i in range(5):
        client.add_memory(f"My own note {i}: the harbour pilot boards at buoy {i}.", user_id=user, agent_id=agent)
    fetched.clear()
    again = reference_scan(memory_ws)
    assert idle.written == again.written == 0 and sum(fetched) == before
    assert again.others == idle.others + 5 and first.others == idle.others
