"""Bring the workshop's memory store up to date: OAMP tables, the Oracle Text index, profiles.

Idempotent in both backends: each object is looked up before it is created,
so re-running after a half-finished setup completes it.
"""

from __future__ import annotations

from typing import Any

from ..config import MEMORY_TABLE, TABLE_PREFIX, TEXT_INDEX

TEXT_INDEX_DDL = (f"CREATE INDEX {TEXT_INDEX} ON {MEMORY_TABLE}(content) "
                  "INDEXTYPE IS CTXSYS.CONTEXT PARAMETERS ('SYNC (ON COMMIT)')")

USER_PROFILE = ("Workshop learner exploring the SUPPLYCHAIN schema; wants precise answers that respect "
                "units (TEU, USD cents) and documented column meanings.")
AGENT_PROFILE = ("Catalog agent for SUPPLYCHAIN: remembers table purposes, column meanings, guidelines "
                 "and runbooks, and retrieves them with vector and Oracle Text search.")


def text_index_exists(conn: Any) -> bool:
    """True when the CONTEXT index on the memory table's content exists."""
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM user_indexes WHERE index_name = :name", name=TEXT_INDEX.upper())
        return cur.fetchone()[0] > 0


def ensure_text_index(conn: Any) -> bool:
    """Create the Oracle Text index when missing; returns True when it was created now.

    On Oracle the bootstrap's version is used: it also rebuilds an index a
    half-finished run left FAILED.
    """
    from ..lite import LiteConnection

    if not isinstance(conn, LiteConnection):
        from ..oracle.bootstrap import ensure_text_index as ensure_oracle_text_index

        return ensure_oracle_text_index(conn) != "already present"
    if text_index_exists(conn):
        return False
    with conn.cursor() as cur:
        cur.execute(TEXT_INDEX_DDL)
    return True


def profile_exists(conn: Any, actor_id: str) -> bool:
    """True when OAMP's actor-profile table holds ``actor_id``."""
    with conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {TABLE_PREFIX}actor_profile WHERE actor_id = :actor_id",
                    actor_id=actor_id)
        return cur.fetchone()[0] > 0


def ensure_memory(ws: Any) -> None:
    """OAMP schema (through the client), text index, and the workshop's user and agent profiles."""
    client = ws.memory_client  # building the client creates OAMP's tables when missing
    ensure_text_index(ws.conn)
    if not profile_exists(ws.conn, ws.user_id):
        client.add_user(ws.user_id, USER_PROFILE)
    if not profile_exists(ws.conn, ws.agent_id):
        client.add_agent(ws.agent_id, AGENT_PROFILE)
