"""The offline teaching model: a deterministic stand-in for an LLM, registered with litellm.

When ``WORKSHOP_LLM_MODEL`` is not set (lite, CI, a laptop without keys) the
agent loop calls ``litellm.completion(model="workshop-offline/rules", ...)``
exactly as it would call a real provider; litellm hands the request to
:class:`OfflineRulesModel`, a ``litellm.CustomLLM``. It is **not** a language
model and never pretends to be one: every run it takes part in is labelled
"offline teaching model". It exists so that Part 4, its checks and the
before/after table run offline and give the same result every time.

Its rules, applied to the conversation it is sent:

1. A user message starting ``Correction:`` or ``Remember:`` → call
   ``propose_memory`` with the rest of the message (the subject is the first
   ``TABLE.COLUMN`` written in capitals, else ``general``), then confirm the
   draft's id.
2. "declared value … voyage XXXX-00000E" → call ``run_sql`` with a SUM of
   ``quantity * unit_value_cents`` over that voyage's cargo; "capacity …
   'VESSEL NAME'" → call ``run_sql`` for that vessel's ``capacity_teu``.
3. Anything else → call ``retrieve_knowledge`` with the question and answer
   from the best memory, citing its id.
4. Answers use only tool results and the memories given in system messages
   (lines ``[memory:<id>] <text>``). Without a memory that states the unit,
   it reads numbers the way language models commonly misread these columns —
   an amount column as dollars, a capacity as tons: the mistake the
   correction demo is about. A memory about ``UNIT_VALUE_CENTS`` that says
   "cents", or about ``CAPACITY_TEU`` that says "TEU" (the word itself, not
   inside the column's name), makes it convert and cite that memory:
   ``[memory:<id>]``.
5. A tool result starting ``error:`` is reported in the answer, not retried.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import litellm
from litellm import CustomLLM
from litellm.types.utils import ModelResponse

from .models import OFFLINE_LABEL, OFFLINE_MODEL, OFFLINE_PROVIDER

__all__ = ["PROVIDER", "MODEL", "LABEL", "OfflineRulesModel", "register", "MEMORY_LINE"]

PROVIDER, MODEL, LABEL = OFFLINE_PROVIDER, OFFLINE_MODEL, OFFLINE_LABEL

MEMORY_LINE = re.compile(r"^\[memory:(?P<id>[^\]]+)\]\s*(?P<text>.+)$", re.M)
_VALUE_Q = re.compile(r"declared\s+value.*?voyage\s+(?P<voyage>[A-Z]{4}-\d{5}[EW])", re.I | re.S)
_CAPACITY_Q = re.compile(r"capacity\b.*?'(?P<vessel>[^']+)'", re.I | re.S)
_PROPOSE_Q = re.compile(r"^\s*(correction|remember)\s*:\s*(?P<fact>.+)$", re.I | re.S)
_SUBJECT = re.compile(r"\b([A-Z][A-Z0-9_]+\.[A-Z][A-Z0-9_]+)\b")


def _value_sql(voyage: str) -> str:
    return ("SELECT SUM(ci.quantity * ci.unit_value_cents) AS total_unit_value_cents "
            "FROM supplychain.cargo_items ci "
            "JOIN supplychain.containers c ON c.container_id = ci.container_id "
            "JOIN supplychain.voyages v ON v.voyage_id = c.voyage_id "
            f"WHERE v.voyage_number = '{voyage}'")


def _capacity_sql(vessel: str) -> str:
    name = vessel.replace("'", "''")
    return f"SELECT vessel_name, capacity_teu FROM supplychain.vessels WHERE vessel_name = '{name}'"


def _memories(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    found = []
    for m in messages:
        if m.get("role") == "system" and isinstance(m.get("content"), str):
            found += [(x.group("id"), x.group("text")) for x in MEMORY_LINE.finditer(m["content"])]
    return found


def _memory_about(memories: list[tuple[str, str]], column: str, word: str) -> str | None:
    """The first memory naming ``column`` that also uses ``word`` on its own (not inside the column's name)."""
    for memory_id, text in memories:
        lowered = text.lower()
        if column.lower() in lowered and re.search(rf"\b{word}s?\b", lowered.replace(column.lower(), " ")):
            return memory_id
    return None


class _Turn:
    """What the conversation since the last user message holds: the question, the calls, their results."""

    def __init__(self, messages: list[dict[str, Any]]):
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=None)
        self.question = "" if last_user is None else str(messages[last_user].get("content") or "")
        self.results: dict[str, tuple[str, str]] = {}  # tool name -> (arguments, result) of its latest call
        pending: dict[str, tuple[str, str]] = {}
        for m in messages[(last_user or 0) + 1:]:
            for call in m.get("tool_calls") or []:
                fn = call.get("function") or {}
                pending[call.get("id")] = (fn.get("name"), fn.get("arguments"))
            if m.get("role") == "tool" and m.get("tool_call_id") in pending:
                name, args = pending[m["tool_call_id"]]
                self.results[name] = (args, str(m.get("content") or ""))


def _rows(result: str) -> list[list[Any]] | None:
    try:
        return json.loads(result)["rows"]
    except (ValueError, KeyError, TypeError):
        return None


def decide(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The model's next message for ``messages``: ``{"content": ...}`` or ``{"tool_call": (name, args)}``."""
    turn = _Turn(messages)
    memories = _memories(messages)
    question = turn.question
    if (match := _PROPOSE_Q.match(question)):
        if "propose_memory" not in turn.results:
            subject = _SUBJECT.search(match.group("fact"))
            return {"tool_call": ("propose_memory", {"content": match.group("fact").strip(),
                                                     "subject": subject.group(1) if subject else "general"})}
        result = turn.results["propose_memory"][1]
        if result.startswith("error:"):
            return {"content": f"I could not save that: {result}"}
        return {"content": f"Saved as draft {json.loads(result).get('draft_id')}; "
                           "a reviewer must accept it before I use it."}
    if (match := _VALUE_Q.search(question)):
        voyage = match.group("voyage").upper()
        if "run_sql" not in turn.results:
            return {"tool_call": ("run_sql", {"sql": _value_sql(voyage)})}
        result = turn.results["run_sql"][1]
        rows = _rows(result)
        if not rows or rows[0][0] is None:
            return {"content": f"I could not compute the declared value of voyage {voyage}: {result}"}
        raw = float(rows[0][0])
        cited = _memory_about(memories, "unit_value_cents", "cent")
        if cited:
            return {"content": f"The declared value of voyage {voyage} is ${raw / 100:,.2f} (US dollars): "
                               f"unit_value_cents holds US cents, so the sum is divided by 100 [memory:{cited}]."}
        return {"content": f"The declared value of voyage {voyage} is ${raw:,.2f}."}
    if (match := _CAPACITY_Q.search(question)):
        vessel = match.group("vessel").upper()
        if "run_sql" not in turn.results:
            return {"tool_call": ("run_sql", {"sql": _capacity_sql(vessel)})}
        result = turn.results["run_sql"][1]
        rows = _rows(result)
        if not rows:
            return {"content": f"I could not find the capacity of {vessel}: {result}"}
        raw = int(rows[0][1])
        cited = _memory_about(memories, "capacity_teu", "teu")
        if cited:
            return {"content": f"{vessel} can carry {raw:,} TEU (twenty-foot equivalent units) [memory:{cited}]."}
        return {"content": f"{vessel} has a capacity of {raw:,} tons."}
    if "retrieve_knowledge" not in turn.results:
        return {"tool_call": ("retrieve_knowledge", {"query": question, "k": 3})}
    result = turn.results["retrieve_knowledge"][1]
    try:
        hits = json.loads(result)
    except ValueError:
        hits = None
    if not hits:
        return {"content": f"I found nothing in memory about that ({result[:200]})."}
    best = hits[0]
    cite = f" [memory:{best['memory_id']}]" if best.get("memory_id") else ""
    return {"content": f"From the workshop's memory ({best.get('kind')}: {best.get('subject')}): "
                       f"{best.get('body')}{cite}"}


class OfflineRulesModel(CustomLLM):
    """litellm custom provider ``workshop-offline``: answers with :func:`decide` (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> ModelResponse:  # type: ignore[override]
        self.calls += 1
        step = decide([dict(m) for m in messages])
        if "tool_call" in step:
            name, arguments = step["tool_call"]
            message = {"role": "assistant", "content": None,
                       "tool_calls": [{"id": f"call_{self.calls}", "type": "function",
                                       "function": {"name": name, "arguments": json.dumps(arguments)}}]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": step["content"]}
            finish = "stop"
        return ModelResponse(id=f"offline-{self.calls}", created=int(time.time()), model=MODEL,
                             choices=[{"index": 0, "message": message, "finish_reason": finish}])

    async def acompletion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> ModelResponse:  # type: ignore[override]
        return self.completion(model, messages, *args, **kwargs)


_HANDLER = OfflineRulesModel()


def register() -> None:
    """Make ``workshop-offline/rules`` a litellm model (idempotent)."""
    providers = list(getattr(litellm, "custom_provider_map", None) or [])
    if not any(p.get("provider") == PROVIDER for p in providers):
        providers.append({"provider": PROVIDER, "custom_handler": _HANDLER})
        litellm.custom_provider_map = providers
        from litellm.utils import custom_llm_setup

        custom_llm_setup()
