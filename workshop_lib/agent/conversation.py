"""Conversation managers: what part of a growing chat history each model call is sent.

Three strategies, with the contract the workshop adopts from a public agent
framework (parameters, defaults and validation errors as documented there,
the code our own):

* :class:`NullManager` sends every message, unchanged — fine for short runs.
* :class:`SlidingWindowManager` sends the system message(s) and the last
  ``window_size`` other messages; older ones are simply dropped.
* :class:`SummarizingManager` sends the history unchanged until more than
  ``threshold`` non-system messages have accumulated; then it sends the
  system message(s), ONE new system message summarising the older messages,
  and the last ``keep_recent`` messages.

Messages are OpenAI/litellm chat dicts. An assistant message that calls tools
carries ``tool_calls`` (each with an ``id``) and is followed by one ``tool``
message per call, whose ``tool_call_id`` names the call it answers. Chat APIs
validate that pairing: a ``tool`` message is only a valid turn as the answer
to a call made in the preceding assistant message, so a request holding a
tool result whose call was cut away is rejected (HTTP 400, "messages with
role 'tool' must be a response to a preceding message with 'tool_calls'"),
and so is an assistant message whose calls have no results after them. A
naive "last N messages" cut lands between a call and its results about as
often as not, so these managers never split them: the cut point moves
*later*, past any tool results at the start of the kept part (the sliding
window may then hold fewer than ``window_size`` messages; the summarising
manager summarises those results together with the call they belong to).
Moving later, not earlier, keeps the window-size promise an upper bound.
Every manager returns a new list of new dicts and never changes the list or
the messages it is given.
"""

from __future__ import annotations

import abc
import inspect
from typing import Any, Awaitable, Callable, Union

__all__ = ["ConversationManager", "NullManager", "SlidingWindowManager", "SummarizingManager",
           "simple_summary", "SUMMARY_PREFIX"]

Message = dict[str, Any]
SummarizeFn = Callable[[list[Message]], Union[str, Awaitable[str]]]

#: How the summary message's content starts; ``{count}`` is the number of messages summarised.
SUMMARY_PREFIX = "[Summary of previous conversation ({count} messages)]:\n"

_SUMMARY_LINE_CHARS = 80
_SUMMARY_ARGS_CHARS = 60


def _count(value: Any, name: str) -> int:
    """``value`` if it is a real int (not a bool), else a TypeError naming the type."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    return value


def _is_system(message: Message) -> bool:
    return message.get("role") == "system"


def _split(messages: list[Message], preserve_system: bool) -> tuple[list[Message], list[Message]]:
    """(system messages kept aside, everything else), both in their original order."""
    if not preserve_system:
        return [], list(messages)
    return [m for m in messages if _is_system(m)], [m for m in messages if not _is_system(m)]


def _safe_start(rest: list[Message], start: int) -> int:
    """The first index >= ``start`` where a kept part may begin without orphaning a tool result.

    A kept part that starts at a non-``tool`` message and runs to the end of
    the history holds every assistant call together with all its results.
    """
    while start < len(rest) and rest[start].get("role") == "tool":
        start += 1
    return start


def _copy(messages: list[Message]) -> list[Message]:
    return [dict(m) for m in messages]


class ConversationManager(abc.ABC):
    """Decides which messages one model call is sent, given the full history of the run.

    Subclasses implement :meth:`apply` (and :meth:`describe`); both ``apply``
    and ``async_apply`` return a new list of new dicts and leave the input
    list and its messages untouched, so the agent loop can keep the full
    history and send only what the manager returns.
    """

    @abc.abstractmethod
    def apply(self, messages: list[Message]) -> list[Message]:
        """The messages to send to the model for the full history ``messages`` (a new list)."""

    async def async_apply(self, messages: list[Message]) -> list[Message]:
        """Async version of :meth:`apply`; the default simply runs ``apply``."""
        return self.apply(messages)

    @abc.abstractmethod
    def describe(self) -> str:
        """One line saying what this manager sends, for logs and notebook output."""


class NullManager(ConversationManager):
    """Sends the whole history unchanged (as a copy): right for short runs and for debugging."""

    def apply(self, messages: list[Message]) -> list[Message]:
        """A new list holding a copy of every message in ``messages``."""
        return _copy(messages)

    def describe(self) -> str:
        """``"null: every message"``."""
        return "null: every message"


class SlidingWindowManager(ConversationManager):
    """Sends the system message(s) and the last ``window_size`` other messages.

    With ``preserve_system=True`` every system message is kept (in front, in
    its original order) and does not count against the window; with False,
    system messages are ordinary messages that can slide out. The window never
    starts on a ``tool`` message: if the last ``window_size`` messages would
    begin with tool results whose assistant call falls outside, the start
    moves later past them, so the window can hold FEWER than ``window_size``
    messages (never more). ``window_size`` must be an int of at least 1.
    """

    def __init__(self, window_size: int = 20, preserve_system: bool = True):
        if _count(window_size, "window_size") < 1:
            raise ValueError("window_size must be at least 1")
        self.window_size = window_size
        self.preserve_system = bool(preserve_system)

    def apply(self, messages: list[Message]) -> list[Message]:
        """System messages (if preserved) plus at most the last ``window_size`` others, tool pairs whole."""
        system, rest = _split(messages, self.preserve_system)
        start = _safe_start(rest, max(0, len(rest) - self.window_size))
        return _copy(system + rest[start:])

    def describe(self) -> str:
        """E.g. ``"sliding window: last 20 messages, system kept"``."""
        kept = ", system kept" if self.preserve_system else ""
        return f"sliding window: last {self.window_size} messages{kept}"


def simple_summary(messages: list[Message]) -> str:
    """The built-in, deterministic summary: one line per message, ``role: first 80 characters``.

    Whitespace in the content is collapsed before cutting. An assistant
    message with tool calls gives one line per call,
    ``assistant: called name(arguments)`` with the arguments cut to 60
    characters (followed by its text, if it also had some); an empty content
    gives ``role: `` with nothing after it.
    """
    lines: list[str] = []
    for m in messages:
        role = m.get("role")
        text = " ".join(str(m.get("content") or "").split())
        calls = m.get("tool_calls") or []
        for call in calls:
            fn = call.get("function") or {}
            args = str(fn.get("arguments") or "")
            if len(args) > _SUMMARY_ARGS_CHARS:
                args = args[:_SUMMARY_ARGS_CHARS] + "..."
            lines.append(f"{role}: called {fn.get('name')}({args})")
        if text or not calls:
            lines.append(f"{role}: {text[:_SUMMARY_LINE_CHARS]}")
    return "\n".join(lines)


class SummarizingManager(ConversationManager):
    """Past ``threshold`` messages, sends one summary of the older ones plus the last ``keep_recent``.

    Up to ``threshold`` non-system messages the history is sent unchanged.
    Beyond it, the system message(s) (if ``preserve_system``) come first, then
    ONE new system message whose content is
    ``"[Summary of previous conversation (N messages)]:\\n"`` plus the summary,
    then the last ``keep_recent`` messages. If those recent messages would
    begin with tool results whose call is older, the boundary moves later and
    the orphaned results are summarised with their call (N counts them), so
    fewer than ``keep_recent`` messages may stay verbatim.
    ``summarize_fn(messages) -> str`` writes the summary: a plain function
    works with :meth:`apply` and :meth:`async_apply`; an ``async def`` one only
    with :meth:`async_apply` (``apply`` raises TypeError). Without it,
    :func:`simple_summary` is used. Both counts must be ints of at least 1 and
    ``keep_recent`` less than ``threshold``.
    """

    def __init__(self, threshold: int = 30, keep_recent: int = 10,
                 summarize_fn: SummarizeFn | None = None, preserve_system: bool = True):
        if _count(threshold, "threshold") < 1:
            raise ValueError("threshold must be at least 1")
        if _count(keep_recent, "keep_recent") < 1:
            raise ValueError("keep_recent must be at least 1")
        if keep_recent >= threshold:
            raise ValueError("keep_recent must be less than threshold")
        if summarize_fn is not None and not callable(summarize_fn):
            raise TypeError(f"summarize_fn must be callable or None, got {type(summarize_fn).__name__}")
        self.threshold = threshold
        self.keep_recent = keep_recent
        self.summarize_fn = summarize_fn
        self.preserve_system = bool(preserve_system)

    def _is_async_fn(self) -> bool:
        fn = self.summarize_fn
        return fn is not None and (inspect.iscoroutinefunction(fn)
                                   or inspect.iscoroutinefunction(getattr(fn, "__call__", None)))

    def _parts(self, messages: list[Message]) -> tuple[list[Message], list[Message], list[Message]] | None:
        """(system, to summarise, recent), or None when the history is within the threshold."""
        system, rest = _split(messages, self.preserve_system)
        if len(rest) <= self.threshold:
            return None
        start = _safe_start(rest, len(rest) - self.keep_recent)
        return system, rest[:start], rest[start:]

    @staticmethod
    def _build(system: list[Message], old: list[Message], recent: list[Message], summary: Any) -> list[Message]:
        note = {"role": "system", "content": SUMMARY_PREFIX.format(count=len(old)) + str(summary)}
        return _copy(system) + [note] + _copy(recent)

    def apply(self, messages: list[Message]) -> list[Message]:
        """Messages unchanged up to the threshold; past it, system + summary + the recent messages.

        Raises TypeError when ``summarize_fn`` is async (whether or not a
        summary is needed yet, so the mistake shows on the first call).
        """
        if self._is_async_fn():
            raise TypeError("summarize_fn is an async function, which apply() cannot await; "
                            "call `await manager.async_apply(messages)` instead")
        parts = self._parts(messages)
        if parts is None:
            return _copy(messages)
        system, old, recent = parts
        if self.summarize_fn is None:
            return self._build(system, old, recent, simple_summary(old))
        summary = self.summarize_fn(old)
        if inspect.isawaitable(summary):
            if inspect.iscoroutine(summary):
                summary.close()   # never awaited: close it so Python does not warn later
            raise TypeError("summarize_fn returned an awaitable, which apply() cannot await; "
                            "call `await manager.async_apply(messages)` instead")
        return self._build(system, old, recent, summary)

    async def async_apply(self, messages: list[Message]) -> list[Message]:
        """Like :meth:`apply`, but awaits ``summarize_fn`` when it is async (a plain one is just called)."""
        parts = self._parts(messages)
        if parts is None:
            return _copy(messages)
        system, old, recent = parts
        if self.summarize_fn is None:
            return self._build(system, old, recent, simple_summary(old))
        summary = self.summarize_fn(old)
        if inspect.isawaitable(summary):
            summary = await summary
        return self._build(system, old, recent, summary)

    def describe(self) -> str:
        """E.g. ``"summarizing: past 30 messages, a summary + the last 10, system kept"``."""
        kept = ", system kept" if self.preserve_system else ""
        return f"summarizing: past {self.threshold} messages, a summary + the last {self.keep_recent}{kept}"
