"""Conversation managers: what part of a growing chat history each model call is sent.

Three strategies, with the contract the workshop adopts from a public agent
framework (parameters, defaults and validation errors as documented there):

* :class:`NullManager` sends everything — fine for short runs.
* :class:`SlidingWindowManager` sends the system message(s) and the last
  ``window_size`` other messages.
* :class:`SummarizingManager` replaces everything but the last ``keep_recent``
  messages with one system message summarising them, once more than
  ``threshold`` messages have accumulated.

Messages are OpenAI/litellm chat dicts. An assistant message that calls
tools is followed by one ``tool`` message per call; providers reject a
``tool`` message whose call is not in the request, and an assistant tool call
without its results. So a cut never separates them: the window's start moves
*later*, past any tool results whose call was cut (the window may then hold
fewer messages than asked), and the summarising manager summarises those
results with the call they belong to. Every manager returns a new list and
never changes the messages it is given.
"""

from __future__ import annotations

import abc
import asyncio
import inspect
from typing import Any, Callable

__all__ = ["ConversationManager", "NullManager", "SlidingWindowManager", "SummarizingManager",
           "simple_summary"]

Message = dict[str, Any]


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return value


def _split(messages: list[Message], preserve_system: bool) -> tuple[list[Message], list[Message]]:
    system = [m for m in messages if preserve_system and m.get("role") == "system"]
    rest = [m for m in messages if not (preserve_system and m.get("role") == "system")]
    return system, rest


def _safe_start(rest: list[Message], start: int) -> int:
    """The first index >= start where a window may begin without orphaning a tool result."""
    while start < len(rest) and rest[start].get("role") == "tool":
        start += 1
    return start


class ConversationManager(abc.ABC):
    """Decides which messages one model call is sent; ``apply`` and ``async_apply`` return new lists."""

    @abc.abstractmethod
    def apply(self, messages: list[Message]) -> list[Message]:
        """The messages to send for the full history ``messages``."""

    async def async_apply(self, messages: list[Message]) -> list[Message]:
        """Async version of :meth:`apply` (the default runs ``apply``)."""
        return self.apply(messages)

    @abc.abstractmethod
    def describe(self) -> str:
        """One line saying what this manager sends."""


class NullManager(ConversationManager):
    """Sends the whole history, unchanged."""

    def apply(self, messages: list[Message]) -> list[Message]:
        """A copy of ``messages``."""
        return [dict(m) for m in messages]

    def describe(self) -> str:
        return "null: every message"


class SlidingWindowManager(ConversationManager):
    """Sends the system message(s) and the last ``window_size`` other messages (tool pairs kept whole)."""

    def __init__(self, window_size: int = 20, preserve_system: bool = True):
        if _count(window_size, "window_size") < 1:
            raise ValueError("window_size must be at least 1")
        self.window_size = window_size
        self.preserve_system = preserve_system

    def apply(self, messages: list[Message]) -> list[Message]:
        """System messages (if preserved) plus the last ``window_size`` others, never starting on a tool result."""
        system, rest = _split(messages, self.preserve_system)
        start = _safe_start(rest, max(0, len(rest) - self.window_size))
        return [dict(m) for m in system + rest[start:]]

    def describe(self) -> str:
        kept = ", system kept" if self.preserve_system else ""
        return f"sliding window: last {self.window_size} messages{kept}"


def simple_summary(messages: list[Message]) -> str:
    """One line per message, ``role: first 80 characters`` (a tool call shows as ``called name(args)``)."""
    lines = []
    for m in messages:
        calls = m.get("tool_calls") or []
        if calls:
            for call in calls:
                fn = call.get("function") or {}
                lines.append(f"{m.get('role')}: called {fn.get('name')}({str(fn.get('arguments') or '')[:60]})")
        else:
            text = " ".join(str(m.get("content") or "").split())
            lines.append(f"{m.get('role')}: {text[:80]}")
    return "\n".join(lines)


class SummarizingManager(ConversationManager):
    """Past ``threshold`` messages, sends one summary of the older ones plus the last ``keep_recent``.

    ``summarize_fn(messages) -> str`` writes the summary (sync or async);
    without it, :func:`simple_summary` is used.
    """

    def __init__(self, threshold: int = 30, keep_recent: int = 10,
                 summarize_fn: Callable[[list[Message]], Any] | None = None, preserve_system: bool = True):
        if _count(threshold, "threshold") < 1:
            raise ValueError("threshold must be at least 1")
        if _count(keep_recent, "keep_recent") < 1:
            raise ValueError("keep_recent must be at least 1")
        if keep_recent >= threshold:
            raise ValueError("keep_recent must be less than threshold")
        self.threshold = threshold
        self.keep_recent = keep_recent
        self.summarize_fn = summarize_fn
        self.preserve_system = preserve_system

    def _parts(self, messages: list[Message]) -> tuple[list[Message], list[Message], list[Message]] | None:
        system, rest = _split(messages, self.preserve_system)
        if len(rest) <= self.threshold:
            return None
        start = _safe_start(rest, len(rest) - self.keep_recent)
        return system, rest[:start], rest[start:]

    @staticmethod
    def _build(system: list[Message], old: list[Message], recent: list[Message], summary: str) -> list[Message]:
        note = {"role": "system",
                "content": f"[Summary of previous conversation ({len(old)} messages)]:\n{summary}"}
        return [dict(m) for m in system] + [note] + [dict(m) for m in recent]

    def apply(self, messages: list[Message]) -> list[Message]:
        """Messages unchanged up to the threshold; past it, system + summary + the recent messages."""
        parts = self._parts(messages)
        if parts is None:
            return [dict(m) for m in messages]
        if self.summarize_fn is not None and inspect.iscoroutinefunction(self.summarize_fn):
            raise TypeError("summarize_fn is async; call `await manager.async_apply(messages)` instead of apply().")
        system, old, recent = parts
        summary = self.summarize_fn(old) if self.summarize_fn is not None else simple_summary(old)
        return self._build(system, old, recent, str(summary))

    async def async_apply(self, messages: list[Message]) -> list[Message]:
        """Like :meth:`apply`, awaiting an async ``summarize_fn``."""
        parts = self._parts(messages)
        if parts is None:
            return [dict(m) for m in messages]
        system, old, recent = parts
        if self.summarize_fn is None:
            summary = simple_summary(old)
        else:
            summary = self.summarize_fn(old)
            if asyncio.iscoroutine(summary):
                summary = await summary
        return self._build(system, old, recent, str(summary))

    def describe(self) -> str:
        return f"summarizing: past {self.threshold} messages, a summary + the last {self.keep_recent}"
