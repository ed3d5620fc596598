"""The agent loop: ask the model, run the tools it calls, repeat until it answers or the step limit.

One step is one model call. When the reply calls tools, each call is run
through the :class:`~workshop_lib.agent.tools.ToolBox` and its result is
appended as a ``tool`` message; when the reply is text, that is the answer.
``max_steps`` ends a model that keeps calling tools. A conversation manager
(:mod:`workshop_lib.agent.conversation`) may decide what part of the history
is sent on each step; the full history is kept in the run.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .llm import ModelChoice, choose_model, complete
from .tools import ToolBox

__all__ = ["AgentRun", "run_agent", "DEFAULT_MAX_STEPS"]

DEFAULT_MAX_STEPS = 6


@dataclass
class AgentRun:
    """What one run did: the answer, every message, the tool calls, the model, and why it stopped."""

    answer: str
    messages: list[dict[str, Any]]
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    steps: int = 0
    model: str = ""
    label: str = ""
    offline: bool = True
    stopped: str = "answer"           # "answer" or "step_limit"
    sent: list[int] = field(default_factory=list)   # how many messages each step sent to the model

    def __str__(self) -> str:
        return f"{self.answer}\n  — {self.label}; {self.steps} step(s), {len(self.tool_calls)} tool call(s)"


def run_agent(messages: list[dict[str, Any]], *, tools: ToolBox | None = None, model: str | None = None,
              max_steps: int = DEFAULT_MAX_STEPS, manager: Any = None, choice: ModelChoice | None = None,
              **options: Any) -> AgentRun:
    """Run the loop from ``messages`` (system/user dicts); returns the :class:`AgentRun`.

    ``tools`` is the ToolBox offered to the model (None: no tools). ``model``
    overrides WORKSHOP_LLM_MODEL for this run. ``manager`` trims what is sent
    each step (its ``apply(messages)``). Provider failures raise LLMError.
    """
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be an int of at least 1, got {max_steps!r}")
    if not messages or not any(m.get("role") == "user" for m in messages):
        raise ValueError("run_agent needs at least one user message (the question).")
    choice = choice or choose_model(model=model)
    history = copy.deepcopy(list(messages))
    calls: list[dict[str, Any]] = []
    sent_sizes: list[int] = []
    specs = tools.specs() if tools is not None else None
    for step in range(1, max_steps + 1):
        sent = manager.apply(history) if manager is not None else history
        sent_sizes.append(len(sent))
        reply = complete(sent, specs, choice, **options)
        history.append(reply)
        if not reply.get("tool_calls"):
            return AgentRun(str(reply.get("content") or ""), history, calls, step, choice.model, choice.label,
                            choice.offline, "answer", sent_sizes)
        for call in reply["tool_calls"]:
            name, arguments = call["function"]["name"], call["function"].get("arguments")
            result = tools.call(name, arguments) if tools is not None else \
                f"error: no tools are available in this run; answer without calling {name}."
            calls.append({"name": name, "arguments": arguments, "result": result})
            history.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return AgentRun(f"(stopped after {max_steps} steps without a final answer)", history, calls, max_steps,
                    choice.model, choice.label, choice.offline, "step_limit", sent_sizes)
