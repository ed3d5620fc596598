"""Bring the workshop's memory store up to date: OAMP tables, the Oracle Text index, profiles.

Idempotent in both backends: each object is looked up before it is created,
so re-running after a half-finished setup completes it.
"""

from __future__ import annotations

from typing import Any

from ..config import TABLE_PREFIX

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
