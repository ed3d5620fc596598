"""Agent runs kept as OAMP threads, so a run can be listed and resumed (in both backends).

A run's messages are stored with OAMP's ``thread.add_messages``: tool calls
and tool-call ids travel in each message's metadata, so a stored run reads
back as the same chat messages the model saw. OAMP's own memory extraction is
off for these threads: what the workshop remembers from a run goes through
review (:mod:`workshop_lib.agent.longterm`).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["save_run", "list_runs", "load_run"]

RUN_KIND = "agent_run"


def save_run(memory_client: Any, messages: list[dict[str, Any]], *, user_id: str, agent_id: str,
             title: str, model: str = "") -> str:
    """Store ``messages`` as a new OAMP thread tagged as an agent run; returns the thread id."""
    from oracleagentmemory.core import MemoryExtractionConfig

    thread = memory_client.create_thread(
        user_id=user_id, agent_id=agent_id, metadata={"kind": RUN_KIND, "title": title, "model": model},
        memory_extraction_config=MemoryExtractionConfig(extract_memories=False))
    stored, metadata = [], []
    for m in messages:
        stored.append({"role": m["role"], "content": m.get("content") or ""})
        extra = {}
        if m.get("tool_calls"):
            extra["tool_calls"] = json.dumps(m["tool_calls"])
        if m.get("tool_call_id"):
            extra["tool_call_id"] = m["tool_call_id"]
        metadata.append(extra)
    if stored:
        thread.add_messages(stored, metadata=metadata)
    return thread.thread_id


def list_runs(memory_client: Any, *, user_id: str, agent_id: str) -> list[dict[str, Any]]:
    """Stored runs of this user and agent, oldest first: thread id, title, model, started."""
    threads = memory_client.list_threads(user_id=user_id, agent_id=agent_id, metadata_filter={"kind": RUN_KIND})
    return [{"thread_id": t.id, "title": (t.metadata or {}).get("title"), "model": (t.metadata or {}).get("model"),
             "started": t.timestamp} for t in threads]


def load_run(memory_client: Any, thread_id: str) -> list[dict[str, Any]]:
    """The chat messages of stored run ``thread_id``, ready to pass back to ``run_agent`` to resume it."""
    thread = memory_client.get_thread(thread_id)
    out = []
    for m in thread.get_messages():
        content = m.content if isinstance(m.content, str) else str(m.content)
        message: dict[str, Any] = {"role": m.role, "content": content or None}
        meta = getattr(m, "metadata", None) or {}
        if meta.get("tool_calls"):
            message["tool_calls"] = json.loads(meta["tool_calls"])
        if meta.get("tool_call_id"):
            message["tool_call_id"] = meta["tool_call_id"]
        out.append(message)
    return out
