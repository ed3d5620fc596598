"""Bring the workshop's memory store up to date: OAMP tables, the Oracle Text index, profiles.

Idempotent in both backends: each object is looked up before it is created,
so re-running after a half-finished setup completes it.
"""

from __future__ import annotations

from typing import Any

from ..config import CHUNKS_TABLE, MEMORY_TABLE, TABLE_PREFIX

#: Memories that no search can find: no chunk row with a vector (chunks deleted, embeddings set to NULL).
UNSEARCHABLE_SQL = (f"SELECT m.record_id FROM {MEMORY_TABLE} m WHERE NOT EXISTS ("
                    f"SELECT 1 FROM {CHUNKS_TABLE} c WHERE c.source_id = m.record_id "
                    "AND c.source_record_type = m.memory_type AND c.embedding IS NOT NULL) ORDER BY m.record_id")

USER_PROFILE = ("Workshop learner exploring the SUPPLYCHAIN schema; wants precise answers that respect "
                "units (TEU, USD cents) and documented column meanings.")
AGENT_PROFILE = ("Catalog agent for SUPPLYCHAIN: remembers table purposes, column meanings, guidelines "
                 "and runbooks, and retrieves them with vector and Oracle Text search.")


def profile_exists(conn: Any, actor_id: str) -> bool:
    """True when OAMP's actor-profile table holds ``actor_id``."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {TABLE_PREFIX}actor_profile WHERE actor_id = :actor_id",
                    actor_id=actor_id)
        return cur.fetchone()[0] > 0


def ensure_memory(ws: Any) -> None:
    """OAMP schema (through the client), text index, and the workshop's user and agent profiles."""
    client = ws.memory_client  # building the client creates OAMP's tables when missing
    ws.impl.ensure_text_index(ws.conn)
    if not profile_exists(ws.conn, ws.user_id):
        client.add_user(ws.user_id, USER_PROFILE)
    if not profile_exists(ws.conn, ws.agent_id):
        client.add_agent(ws.agent_id, AGENT_PROFILE)


def unsearchable_memories(conn: Any) -> list[str]:
    """Ids of memories without a chunk that carries a vector (search can never return them)."""
    with conn.cursor() as cur:
        cur.execute(UNSEARCHABLE_SQL)
        return [r[0] for r in cur.fetchall()]


def repair_memories(ws: Any) -> list[str]:
    """Re-embed every unsearchable memory through OAMP (content, metadata and status kept); returns their ids.

    ``update_memory`` with the memory's own content makes OAMP write its chunk
    rows and vectors again, so the learner's memories are repaired, not lost.
    """
    repaired = []
    for memory_id in unsearchable_memories(ws.conn):
        with ws.conn.cursor() as cur:
            cur.execute(f"SELECT content FROM {MEMORY_TABLE} WHERE record_id = :id", id=memory_id)
            row = cur.fetchone()
        content = row[0].read() if hasattr(row[0], "read") else row[0]
        if content:
            ws.memory_client.update_memory(memory_id, content=content)
            repaired.append(memory_id)
    return repaired
