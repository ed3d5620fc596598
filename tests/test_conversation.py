"""Conversation managers: the adopted contract, validation errors, and tool calls never split from results."""

from __future__ import annotations

import asyncio
import copy
import warnings

import pytest

from workshop_lib.agent.conversation import (SUMMARY_PREFIX, ConversationManager, NullManager,
                                             SlidingWindowManager, SummarizingManager, simple_summary)


def _conversation(turns: int = 12) -> list[dict]:
    """System prompt, then per turn: user, assistant with 1-3 tool calls, their results, assistant answer."""
    messages = [{"role": "system", "content": "You are the supply-chain agent."}]
    for t in range(turns):
        messages.append({"role": "user", "content": f"question {t}"})
        calls = [{"id": f"c{t}_{i}", "type": "function",
                  "function": {"name": "run_sql", "arguments": f'{{"sql": "select {t}{i}"}}'}}
                 for i in range(1 + t % 3)]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": f"rows {c['id']}"} for c in calls]
        messages.append({"role": "assistant", "content": f"answer {t}"})
    return messages


def _assert_pairs_intact(messages: list[dict]) -> None:
    """No orphan tool message, and every assistant tool call directly followed by all of its results."""
    offered: set[str] = set()
    for i, m in enumerate(messages):
        if m.get("tool_calls"):
            ids = {c["id"] for c in m["tool_calls"]}
            following = messages[i + 1:i + 1 + len(ids)]
            assert all(x.get("role") == "tool" for x in following), f"assistant call at {i} lost its results"
            assert {x.get("tool_call_id") for x in following} == ids, f"assistant call at {i} lost its results"
            offered |= ids
        if m.get("role") == "tool":
            assert m["tool_call_id"] in offered, f"orphan tool result at {i}"


def _non_system(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["role"] != "system"]


# -- validation -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("make,message", [
    (lambda: SlidingWindowManager(window_size=0), "window_size must be at least 1"),
    (lambda: SlidingWindowManager(window_size=-3), "window_size must be at least 1"),
    (lambda: SummarizingManager(threshold=0), "threshold must be at least 1"),
    (lambda: SummarizingManager(keep_recent=0), "keep_recent must be at least 1"),
    (lambda: SummarizingManager(threshold=5, keep_recent=5), "keep_recent must be less than threshold"),
    (lambda: SummarizingManager(threshold=5, keep_recent=9), "keep_recent must be less than threshold"),
])
def test_validation_errors(make, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        make()


@pytest.mark.parametrize("make,message", [
    (lambda: SlidingWindowManager(window_size=True), "window_size must be an int, got bool"),
    (lambda: SlidingWindowManager(window_size=2.0), "window_size must be an int, got float"),
    (lambda: SummarizingManager(threshold="30"), "threshold must be an int, got str"),
    (lambda: SummarizingManager(keep_recent=None), "keep_recent must be an int, got NoneType"),
    (lambda: SummarizingManager(keep_recent=False), "keep_recent must be an int, got bool"),
    (lambda: SummarizingManager(summarize_fn="summary"), "summarize_fn must be callable or None, got str"),
])
def test_counts_must_be_ints(make, message):
    with pytest.raises(TypeError, match=f"^{message}$"):
        make()


def test_defaults_are_the_documented_ones():
    window, summary = SlidingWindowManager(), SummarizingManager()
    assert (window.window_size, window.preserve_system) == (20, True)
    assert (summary.threshold, summary.keep_recent, summary.summarize_fn, summary.preserve_system) == \
        (30, 10, None, True)


def test_base_class_is_abstract_and_describe_is_one_line():
    with pytest.raises(TypeError):
        ConversationManager()
    assert NullManager().describe() == "null: every message"
    assert SlidingWindowManager().describe() == "sliding window: last 20 messages, system kept"
    assert SlidingWindowManager(5, preserve_system=False).describe() == "sliding window: last 5 messages"
    assert SummarizingManager().describe() == "summarizing: past 30 messages, a summary + the last 10, system kept"


# -- null and sliding window -----------------------------------------------------------------------------

def test_null_keeps_everything_as_a_copy():
    messages = _conversation(3)
    out = NullManager().apply(messages)
    assert out == messages and out is not messages
    assert all(a is not b for a, b in zip(out, messages))
    assert asyncio.run(NullManager().async_apply(messages)) == messages
    assert NullManager().apply([]) == []


def test_sliding_window_keeps_system_and_the_last_messages():
    messages = [{"role": "system", "content": "s"}] + [{"role": "user", "content": str(i)} for i in range(30)]
    out = SlidingWindowManager(window_size=5).apply(messages)
    assert [m["content"] for m in out] == ["s", "25", "26", "27", "28", "29"]
    assert asyncio.run(SlidingWindowManager(window_size=5).async_apply(messages)) == out
    assert SlidingWindowManager(window_size=50).apply(messages) == messages
    assert SlidingWindowManager().apply([]) == []


def test_sliding_window_without_preserving_system():
    messages = [{"role": "system", "content": "s"}] + [{"role": "user", "content": str(i)} for i in range(30)]
    out = SlidingWindowManager(window_size=5, preserve_system=False).apply(messages)
    assert [m["content"] for m in out] == ["25", "26", "27", "28", "29"]
    # with preserve_system=False a system message is an ordinary message inside the window
    assert SlidingWindowManager(window_size=31, preserve_system=False).apply(messages) == messages


def test_sliding_window_keeps_every_system_message_in_order():
    messages = [{"role": "system", "content": "s1"}, {"role": "user", "content": "u1"},
                {"role": "system", "content": "s2"}, {"role": "user", "content": "u2"},
                {"role": "user", "content": "u3"}]
    out = SlidingWindowManager(window_size=1).apply(messages)
    assert [m["content"] for m in out] == ["s1", "s2", "u3"]


def test_sliding_window_moves_its_start_later_past_orphan_tool_results():
    messages = [{"role": "user", "content": "q"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                    {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "a", "content": "ra"},
                {"role": "tool", "tool_call_id": "b", "content": "rb"},
                {"role": "assistant", "content": "done"}]
    # the last 3 would start at tool "a": both results are orphaned, so the window is just "done"
    assert SlidingWindowManager(window_size=3).apply(messages) == [messages[4]]
    assert SlidingWindowManager(window_size=2).apply(messages) == [messages[4]]
    assert SlidingWindowManager(window_size=4).apply(messages) == messages[1:]
    # a history that ends on a tool result with its call cut leaves an empty window rather than an orphan
    assert SlidingWindowManager(window_size=1).apply(messages[:4]) == []


# -- summarizing -----------------------------------------------------------------------------------------

def test_summarizing_under_and_over_threshold():
    messages = [{"role": "system", "content": "s"}] + [{"role": "user", "content": f"m{i}"} for i in range(12)]
    manager = SummarizingManager(threshold=12, keep_recent=4)
    under = manager.apply(messages)
    assert under == messages and under is not messages
    messages.append({"role": "user", "content": "m12"})
    out = manager.apply(messages)
    assert len(out) == 1 + 1 + 4
    assert out[0] == {"role": "system", "content": "s"}
    assert out[1]["role"] == "system"
    assert out[1]["content"].startswith("[Summary of previous conversation (9 messages)]:\n")
    assert out[1]["content"] == SUMMARY_PREFIX.format(count=9) + "\n".join(f"user: m{i}" for i in range(9))
    assert [m["content"] for m in out[2:]] == ["m9", "m10", "m11", "m12"]


def test_summarizing_without_preserving_system_summarizes_the_system_prompt_too():
    messages = [{"role": "system", "content": "s"}] + [{"role": "user", "content": f"m{i}"} for i in range(6)]
    out = SummarizingManager(threshold=5, keep_recent=2, preserve_system=False).apply(messages)
    assert out[0]["content"].startswith("[Summary of previous conversation (5 messages)]:\nsystem: s\n")
    assert [m["content"] for m in out[1:]] == ["m4", "m5"]


def test_summarizing_moves_orphan_tool_results_into_the_summary():
    messages = _conversation(2)[1:]   # user, asst(1 call), tool, asst, user, asst(2 calls), tool, tool, asst
    out = SummarizingManager(threshold=5, keep_recent=2).apply(messages)
    # the last 2 would start at the second tool result of turn 1: it goes into the summary instead
    assert out[0]["content"].startswith("[Summary of previous conversation (8 messages)]:\n")
    assert "tool: rows c1_1" in out[0]["content"]
    assert out[1:] == [messages[-1]]
    _assert_pairs_intact(out)


def test_sync_and_async_summarize_functions():
    messages = [{"role": "user", "content": str(i)} for i in range(10)]
    seen = []

    def sync_fn(ms):
        seen.append(len(ms))
        return f"{len(ms)} older"

    sync = SummarizingManager(threshold=5, keep_recent=2, summarize_fn=sync_fn)
    assert sync.apply(messages)[0]["content"] == SUMMARY_PREFIX.format(count=8) + "8 older"
    assert asyncio.run(sync.async_apply(messages))[0]["content"].endswith("8 older")   # a sync fn in async_apply
    assert seen == [8, 8]

    async def summarize(ms):
        await asyncio.sleep(0)
        return f"async {len(ms)}"

    manager = SummarizingManager(threshold=5, keep_recent=2, summarize_fn=summarize)
    out = asyncio.run(manager.async_apply(messages))
    assert out[0]["content"] == SUMMARY_PREFIX.format(count=8) + "async 8"
    assert [m["content"] for m in out[1:]] == ["8", "9"]
    assert asyncio.run(manager.async_apply(messages[:5])) == messages[:5]   # under threshold: no call


def test_apply_refuses_an_async_summarize_fn_and_points_to_async_apply():
    async def summarize(ms):
        return "never"

    manager = SummarizingManager(threshold=5, keep_recent=2, summarize_fn=summarize)
    messages = [{"role": "user", "content": str(i)} for i in range(10)]
    with pytest.raises(TypeError, match=r"summarize_fn is an async function.*async_apply"):
        manager.apply(messages)
    with pytest.raises(TypeError, match="async_apply"):   # even before a summary is due: fail on the first call
        manager.apply(messages[:3])

    class AsyncCallable:
        async def __call__(self, ms):
            return "never"

    with pytest.raises(TypeError, match="async_apply"):
        SummarizingManager(threshold=5, keep_recent=2, summarize_fn=AsyncCallable()).apply(messages)

    # a plain function that hands back a coroutine is refused too, without an "never awaited" warning
    plain = SummarizingManager(threshold=5, keep_recent=2, summarize_fn=lambda ms: summarize(ms))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match=r"returned an awaitable.*async_apply"):
            plain.apply(messages)
    assert asyncio.run(plain.async_apply(messages))[0]["content"].endswith("never")


def test_simple_summary_is_one_line_per_message_and_shows_tool_calls():
    long_args = '{"sql": "' + "x" * 100 + '"}'
    messages = [
        {"role": "user", "content": "  how   many\nsuppliers?  " + "y" * 100},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "1", "type": "function", "function": {"name": "run_sql", "arguments": long_args}}]},
        {"role": "tool", "tool_call_id": "1", "content": "42"},
        {"role": "assistant", "content": "42 suppliers"},
    ]
    text = simple_summary(messages)
    lines = text.split("\n")
    assert len(lines) == 4
    assert lines[0] == "user: " + ("how many suppliers? " + "y" * 100)[:80]
    assert lines[1] == f"assistant: called run_sql({long_args[:60]}...)"
    assert lines[2:] == ["tool: 42", "assistant: 42 suppliers"]
    assert simple_summary(messages) == text   # deterministic
    assert "assistant: called run_sql(" in simple_summary(_conversation(1)[1:])


# -- tool-pair integrity and immutability over many sizes ------------------------------------------------

@pytest.mark.parametrize("size", range(1, 41))
def test_no_window_ever_splits_a_tool_call_from_its_results(size):
    messages = _conversation(12)
    before = copy.deepcopy(messages)
    rest = _non_system(messages)

    window = SlidingWindowManager(window_size=size).apply(messages)
    _assert_pairs_intact(window)
    assert window[0] == messages[0]
    kept = window[1:]
    assert len(kept) <= size and kept == rest[len(rest) - len(kept):]   # a suffix, at most size long
    assert len(kept) >= min(size, len(rest)) - 3   # only orphaned results (at most 3 per call here) are dropped
    assert not kept or kept[0]["role"] != "tool"
    _assert_pairs_intact(SlidingWindowManager(window_size=size, preserve_system=False).apply(messages))

    for threshold in (size + 1, 41, 2 * size + 1):
        manager = SummarizingManager(threshold=threshold, keep_recent=size)
        out = manager.apply(messages)
        assert out == asyncio.run(manager.async_apply(messages))
        _assert_pairs_intact(out)
        if len(rest) > threshold:
            recent = out[2:]
            summarized = len(rest) - len(recent)
            assert out[1]["content"].startswith(f"[Summary of previous conversation ({summarized} messages)]:\n")
            assert recent == rest[summarized:] and len(recent) <= size
        else:
            assert out == messages

    assert messages == before   # inputs are never modified


def test_outputs_are_independent_of_inputs():
    messages = _conversation(6)
    before = copy.deepcopy(messages)
    for manager in (NullManager(), SlidingWindowManager(window_size=7), SummarizingManager(threshold=8, keep_recent=3)):
        out = manager.apply(messages)
        for m in out:
            m["content"] = "changed"
        out.append({"role": "user", "content": "extra"})
        assert messages == before
