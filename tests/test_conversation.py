"""Conversation managers: the adopted contract, validation errors, and tool calls never split from results."""

from __future__ import annotations

import asyncio
import copy

import pytest

from workshop_lib.agent.conversation import (NullManager, SlidingWindowManager, SummarizingManager,
                                             simple_summary)


def _conversation(turns: int = 12) -> list[dict]:
    messages = [{"role": "system", "content": "You are the supply-chain agent."}]
    for t in range(turns):
        messages.append({"role": "user", "content": f"question {t}"})
        calls = [{"id": f"c{t}_{i}", "type": "function", "function": {"name": "run_sql", "arguments": "{}"}}
                 for i in range(1 + t % 3)]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": f"rows {c['id']}"} for c in calls]
        messages.append({"role": "assistant", "content": f"answer {t}"})
    return messages


def _pairs_intact(messages: list[dict]) -> None:
    offered = set()
    for i, m in enumerate(messages):
        if m.get("tool_calls"):
            ids = {c["id"] for c in m["tool_calls"]}
            following = {x.get("tool_call_id") for x in messages[i + 1:i + 1 + len(ids)]}
            assert following == ids, f"assistant call at {i} lost its results"
            offered |= ids
        if m.get("role") == "tool":
            assert m["tool_call_id"] in offered, f"orphan tool result at {i}"


@pytest.mark.parametrize("make,message", [
    (lambda: SlidingWindowManager(window_size=0), "window_size must be at least 1"),
    (lambda: SummarizingManager(threshold=0), "threshold must be at least 1"),
    (lambda: SummarizingManager(keep_recent=0), "keep_recent must be at least 1"),
    (lambda: SummarizingManager(threshold=5, keep_recent=5), "keep_recent must be less than threshold"),
])
def test_validation_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_counts_must_be_ints():
    with pytest.raises(TypeError, match="window_size must be an int, got bool"):
        SlidingWindowManager(window_size=True)
    with pytest.raises(TypeError, match="threshold must be an int, got str"):
        SummarizingManager(threshold="30")


def test_defaults_are_the_documented_ones():
    window, summary = SlidingWindowManager(), SummarizingManager()
    assert (window.window_size, window.preserve_system) == (20, True)
    assert (summary.threshold, summary.keep_recent, summary.summarize_fn, summary.preserve_system) == \
        (30, 10, None, True)


def test_null_keeps_everything_as_a_copy():
    messages = _conversation(3)
    out = NullManager().apply(messages)
    assert out == messages and out is not messages
    assert asyncio.run(NullManager().async_apply(messages)) == messages


def test_sliding_window_keeps_system_and_the_last_messages():
    messages = [{"role": "system", "content": "s"}] + [{"role": "user", "content": str(i)} for i in range(30)]
    out = SlidingWindowManager(window_size=5).apply(messages)
    assert [m["content"] for m in out] == ["s", "25", "26", "27", "28", "29"]
    out = SlidingWindowManager(window_size=5, preserve_system=False).apply(messages)
    assert [m["content"] for m in out] == ["25", "26", "27", "28", "29"]


def test_summarizing_under_and_over_threshold():
    messages = [{"role": "system", "content": "s"}] + [{"role": "user", "content": f"m{i}"} for i in range(12)]
    manager = SummarizingManager(threshold=12, keep_recent=4)
    assert manager.apply(messages) == messages
    messages.append({"role": "user", "content": "m12"})
    out = manager.apply(messages)
    assert out[0]["content"] == "s"
    assert out[1]["role"] == "system" and out[1]["content"].startswith("[Summary of previous conversation (9 messages)]:\n")
    assert "user: m0" in out[1]["content"] and [m["content"] for m in out[2:]] == ["m9", "m10", "m11", "m12"]


def test_sync_and_async_summarize_functions():
    messages = [{"role": "user", "content": str(i)} for i in range(10)]
    sync = SummarizingManager(threshold=5, keep_recent=2, summarize_fn=lambda ms: f"{len(ms)} older")
    assert sync.apply(messages)[0]["content"].endswith("8 older")

    async def summarize(ms):
        return f"async {len(ms)}"

    manager = SummarizingManager(threshold=5, keep_recent=2, summarize_fn=summarize)
    assert asyncio.run(manager.async_apply(messages))[0]["content"].endswith("async 8")
    with pytest.raises(TypeError, match="async_apply"):
        manager.apply(messages)


def test_simple_summary_shows_tool_calls():
    text = simple_summary(_conversation(1)[1:])
    assert "assistant: called run_sql({})" in text and "tool: rows c0_0" in text


@pytest.mark.parametrize("size", range(1, 41))
def test_no_window_ever_splits_a_tool_call_from_its_results(size):
    messages = _conversation(12)
    before = copy.deepcopy(messages)
    _pairs_intact(SlidingWindowManager(window_size=size).apply(messages))
    if size < 40:
        _pairs_intact(SummarizingManager(threshold=40, keep_recent=size).apply(messages))
    assert messages == before   # inputs are never modified
