"""Long-term memory around a session: accepted memories in at the start, candidate facts out as drafts.

``on_session_start`` retrieves the *accepted* memories relevant to the
question (drafts and discards are never retrieved) and puts them in a system
message as ``[memory:<id>] <text>`` lines, so the model can cite what it
used. ``on_session_end`` extracts candidate facts from the finished run and
stores each as a **draft** for a human to review — nothing the agent learns
is used until someone accepts it. A candidate already waiting for review, or
already accepted, with the same text is not stored again: a conversation run
twice (or a notebook re-run) does not fill the review queue with copies.

The default extractor is a documented rule, not an LLM: user messages that
start with ``Correction:`` or ``Remember:`` are candidates. Pass
``extract_fn(messages) -> list[(content, subject)]`` to use a model instead.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..memory.lifecycle import Status, lifecycle_rows, propose_memory

__all__ = ["LongTermMemory", "memory_block", "rule_extract"]

_CANDIDATE = re.compile(r"^\s*(?:correction|remember)\s*:\s*(?P<fact>.+)$", re.I | re.S)
_SUBJECT = re.compile(r"\b([A-Z][A-Z0-9_]+\.[A-Z][A-Z0-9_]+)\b")


def memory_block(memories: list[tuple[str, str]]) -> str:
    """The system-message text listing ``(memory_id, text)`` pairs, one ``[memory:<id>] text`` line each."""
    if not memories:
        return "No reviewed memories apply to this question."
    lines = ["Reviewed memories (cite the id of any you use, as [memory:<id>]):"]
    lines += [f"[memory:{memory_id}] {' '.join(str(text).split())}" for memory_id, text in memories]
    return "\n".join(lines)


def rule_extract(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(content, subject)`` for every user message starting ``Correction:`` / ``Remember:``."""
    found = []
    for m in messages:
        match = _CANDIDATE.match(str(m.get("content") or "")) if m.get("role") == "user" else None
        if match:
            subject = _SUBJECT.search(match.group("fact"))
            found.append((match.group("fact").strip(), subject.group(1) if subject else "general"))
    return found


class LongTermMemory:
    """Session hooks over the workshop's OAMP memory: retrieve accepted memories, extract drafts.

    ``retrieve(question, k=, kinds=)`` is the Part 3 search (the notebook passes it).
    """

    def __init__(self, ws: Any, *, retrieve: Callable[..., Any], kinds: tuple[str, ...] = ("correction",),
                 k: int = 3, extract_fn: Callable[[list[dict[str, Any]]], list[tuple[str, str]]] = rule_extract):
        self.ws = ws
        self.retrieve = retrieve
        self.kinds = list(kinds)
        self.k = k
        self.extract_fn = extract_fn

    def retrieve_memories(self, question: str) -> list[tuple[str, str]]:
        """``(memory_id, text)`` of the accepted memories most relevant to ``question``."""
        hits = self.retrieve(question, k=self.k, kinds=self.kinds)
        return [(h["metadata"].get("memory_id") or h["subject"], h["body"]) for h in hits]

    def on_session_start(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``messages`` with a system message of relevant accepted memories inserted before the first user turn."""
        question = next((str(m["content"]) for m in reversed(messages) if m.get("role") == "user"), "")
        block = {"role": "system", "content": memory_block(self.retrieve_memories(question))}
        first_user = next(i for i, m in enumerate(messages) if m.get("role") == "user")
        return [*messages[:first_user], block, *messages[first_user:]]

    def on_session_end(self, messages: list[dict[str, Any]]) -> list[str]:
        """Store each extracted candidate fact as a draft memory; returns the ids of the drafts stored.

        A candidate whose text (ignoring case and spacing) is already a draft or
        an accepted correction of this user and agent is not stored again, nor
        is one the session repeats; a discarded one may be proposed again.
        """
        # candidates are filed as corrections: those are the memories a copy would sit among
        known = {_same_text(state.content) for state in lifecycle_rows(self.ws.conn, self.ws.user_id,
                                                                         self.ws.agent_id, kind="correction")
                 if state.status is not Status.DISCARD}
        stored = []
        for content, subject in self.extract_fn(messages):
            if _same_text(content) in known:
                continue
            known.add(_same_text(content))
            stored.append(propose_memory(self.ws.memory_client, content, user_id=self.ws.user_id,
                                         agent_id=self.ws.agent_id, subject=subject, source="session"))
        return stored


def _same_text(text: str) -> str:
    return " ".join(str(text).split()).casefold()
