"""The grounded answer of Part 4 (TODO 5): accepted memories in the prompt, the agent loop, cited ids.

The library's version is :func:`workshop_lib.reference.grounded_answer`; this
module holds what it and the learner's version share: the system prompt and
how memories are written into it (see :func:`~workshop_lib.agent.longterm.memory_block`).
"""

from __future__ import annotations

import re

__all__ = ["AGENT_PROMPT", "CITATION", "cited_ids"]

AGENT_PROMPT = (
    "You are the supply-chain data agent. Answer questions about the SUPPLYCHAIN schema by running "
    "read-only SQL with run_sql, and use the reviewed memories below: they record units and meanings "
    "that the data alone does not show. Cite every memory you rely on as [memory:<id>]. Give amounts "
    "in US dollars and capacities with their unit."
)

CITATION = re.compile(r"\[memory:([^\]]+)\]")


def cited_ids(answer: str) -> list[str]:
    """The memory ids an answer cites (``[memory:<id>]``), in order, without repeats."""
    return list(dict.fromkeys(CITATION.findall(answer or "")))
