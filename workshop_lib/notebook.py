"""The learners' surface: everything the notebooks use, in one module with an explicit ``__all__``.

Each notebook's setup cell imports what it needs from here by name, so a
reader sees where every name comes from::

    from workshop_lib.notebook import start, query_df, USER_ID, AGENT_ID

The reference implementations of the graded TODOs are not exported:
:func:`yours_or_reference` runs a learner's function and, when it is not
written yet or fails, falls back to the library's version with a note, so a
learner never needs to hold the reference code.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pandas as pd
from oracleagentmemory.apis.records import RecordStatus

from .agent.conversation import NullManager, SlidingWindowManager, SummarizingManager
from .agent.grounded import AGENT_PROMPT, cited_ids
from .agent.llm import LLMError
from .agent.models import choose_model
from .agent.longterm import LongTermMemory, memory_block
from .agent.loop import AgentRun, run_agent
from .agent.runs import list_runs, load_run, save_run
from .agent.tools import workshop_tools
from .config import AGENT_ID, CHUNKS_TABLE, EMBED_MODEL, MEMORY_TABLE, TEXT_INDEX, USER_ID
from .dictionary import index_exists, text_index_sql
from .errors import ConfigError
from .memory import review as _review
from .memory.lifecycle import (ALLOWED_TRANSITIONS, OAMP_STATUS, LifecycleError, LifecycleState, Status, now_iso,
                               parse_status, read_lifecycle)
from .memory.setup import AGENT_PROFILE, USER_PROFILE, profile_exists
from .oracle_text import text_query
from .retrieval import keyword_search_memories, rerank, reranker_available
from .scanner import EXTRA_MEMORIES, Fact, column_body, scan_columns, table_body
from .session import current
from .workshop import Workshop, start

__all__ = [
    # start and look
    "start", "Workshop", "query_df", "hits_df", "ConfigError",
    # the names Oracle's own material uses
    "USER_ID", "AGENT_ID", "ONNX_EMBED_MODEL", "MEMORY_TABLE", "CHUNKS_TABLE", "TEXT_INDEX",
    # Part 2: profiles, the text index, facts and the scanner
    "USER_PROFILE", "AGENT_PROFILE", "profile_exists", "TEXT_INDEX_DDL", "index_exists",
    "Fact", "table_body", "column_body", "scan_columns", "EXTRA_MEMORIES", "write_facts",
    # Part 3: retrieval helpers
    "text_query", "keyword_search_memories", "rerank", "reranker_available",
    # Part 4: the memory lifecycle and its review
    "Status", "ALLOWED_TRANSITIONS", "OAMP_STATUS", "LifecycleError", "LifecycleState", "parse_status",
    "read_lifecycle", "now_iso", "propose_correction", "restart_correction_demo", "review_queue", "review_widget",
    "lifecycle_table",
    # Part 4: the agent
    "library_retrieve_knowledge", "agent_toolbox", "run_agent", "AgentRun", "AGENT_PROMPT", "memory_block", "cited_ids",
    "choose_model", "LLMError", "NullManager", "SlidingWindowManager", "SummarizingManager",
    "LongTermMemory", "save_run", "list_runs", "load_run",
    # running your code, or the library's when yours is not ready
    "yours_or_reference",
]

ONNX_EMBED_MODEL = EMBED_MODEL
TEXT_INDEX_DDL = text_index_sql()


def query_df(sql: str, **binds: Any) -> pd.DataFrame:
    """Run one query on the running workshop's connection, with named binds, and return a DataFrame.

    Values always travel as bind variables (``query_df("... WHERE owner = :owner", owner="SUPPLYCHAIN")``),
    never pasted into the SQL text. Column names are as the database reports them (upper case).
    """
    with current().conn.cursor() as cur:
        cur.execute(sql, binds)
        return pd.DataFrame(cur.fetchall(), columns=[d[0] for d in cur.description])


def hits_df(hits: Iterable[dict[str, Any]], columns: Sequence[str] = ("kind", "subject")) -> pd.DataFrame:
    """A result list (dicts) as a DataFrame with the given columns, ranked from 1 (missing keys show as None)."""
    frame = pd.DataFrame([{c: h.get(c) for c in columns} for h in hits], columns=list(columns))
    frame.index = range(1, len(frame) + 1)
    frame.index.name = "rank"
    return frame


def write_facts(memory_client: Any, facts: Iterable[Fact], *, user_id: str = USER_ID, agent_id: str = AGENT_ID,
                progress: bool | None = None) -> list[str]:
    """Store facts as memories (a re-run replaces, never duplicates); returns their ids.

    Fact memories of the same kinds that an earlier scan wrote and this one
    did not (a wrong first attempt at TODO 1) are removed, so the memory holds
    exactly this scan. ``progress=None`` shows a progress bar for people and
    none under the autograder (which sets ``NBGRADER_EXECUTION``).
    """
    from .scanner import write_facts as _write_facts

    if progress is None:
        progress = not os.environ.get("NBGRADER_EXECUTION")
    return _write_facts(memory_client, facts, user_id=user_id, agent_id=agent_id, progress=progress, replace=True)


def library_retrieve_knowledge(query: str, k: int = 5, kinds: Any = None) -> list[dict[str, Any]]:
    """The library's Part 3 search (TODO 2's contract: vector search, 4x oversampling, rerank), for Part 4.

    Each notebook runs in its own kernel, so Part 4 cannot call the function
    you wrote in Part 3; this is the library's version of it. Drafts and
    discarded memories are never returned.
    """
    from . import reference

    return reference.retrieve_knowledge(query, k, kinds)


def agent_toolbox(ws: Workshop | None = None, **options: Any) -> Any:
    """The Part 4 agent's ToolBox (retrieve_knowledge, hybrid_search, run_sql, propose_memory) for ``ws``.

    The searches are the library's Part 3 functions unless ``retrieve=`` / ``hybrid=`` are given.
    """
    from . import reference

    options.setdefault("retrieve", reference.retrieve_knowledge)
    options.setdefault("hybrid", reference.hybrid_rrf_search_memories)
    return workshop_tools(ws or current(), **options)


#: The metadata ``source`` of what propose_correction files, so restart_correction_demo can find it again.
NOTEBOOK_SOURCE = "notebook"


def propose_correction(text: str, *, subject: str, contradicts: str | None = None,
                       supersedes: str | None = None) -> str:
    """File ``text`` as a draft correction about ``subject`` for review; returns its id (drafts are never retrieved)."""
    from .memory.lifecycle import propose_memory

    ws = current()
    return propose_memory(ws.memory_client, text, user_id=ws.user_id, agent_id=ws.agent_id, subject=subject,
                          contradicts=contradicts, supersedes=supersedes, source=NOTEBOOK_SOURCE)


def restart_correction_demo() -> str:
    """Delete the corrections an earlier run filed with propose_correction, so Part 4's demo starts from drafts.

    Re-running Part 4 (Restart Kernel and Run All) used to leave the first
    run's accepted corrections in the store, so the "draft only" stage already
    answered correctly and the before/after table told the wrong story. Only
    what ``propose_correction`` filed goes (whatever its status); the catalog's
    facts, the agent's and the session's drafts stay. Returns one sentence
    saying what was deleted.
    """
    from collections import Counter

    from .memory.lifecycle import delete_by_source

    ws = current()
    gone = delete_by_source(ws.memory_client, ws.conn, ws.user_id, ws.agent_id, NOTEBOOK_SOURCE)
    if not gone:
        return "No corrections from an earlier run of this notebook to delete."
    counts = Counter(state.status.value for state in gone)
    detail = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    return (f"Deleted {len(gone)} correction{'s' if len(gone) != 1 else ''} an earlier run of this notebook filed "
            f"({detail}): the demo starts from drafts again.")


def review_queue() -> list[LifecycleState]:
    """The drafts waiting for review in the running workshop, oldest first."""
    from .memory.lifecycle import review_queue as queue

    ws = current()
    return queue(ws.conn, ws.user_id, ws.agent_id)


def review_widget(transition: Callable[[str, str], Any]) -> Any:
    """Accept / Discard buttons for every draft; each click calls ``transition(memory_id, status)``."""
    ws = current()
    return _review.review_widget(ws.conn, ws.user_id, ws.agent_id, transition)


def lifecycle_table(kind: str | None = "correction") -> pd.DataFrame:
    """The memories of ``kind`` with their lifecycle status (all kinds when None)."""
    ws = current()
    return _review.lifecycle_table(ws.conn, ws.user_id, ws.agent_id, kind)


def _reference(name: str) -> Callable[..., Any]:
    from . import reference

    known = {"_scan_tables": reference.scan_tables, "scan_tables": reference.scan_tables,
             "retrieve_knowledge": reference.retrieve_knowledge,
             "hybrid_rrf_search_memories": reference.hybrid_rrf_search_memories,
             "set_memory_status": reference.set_memory_status, "grounded_answer": reference.grounded_answer}
    try:
        return known[name]
    except KeyError:
        raise ValueError(f"there is no library version of {name!r}; yours_or_reference knows "
                         f"{', '.join(sorted(known))}") from None


def _facts_problem(result: Any) -> str | None:
    if not isinstance(result, list) or not result:
        return "it should return a non-empty list"
    wrong = [type(f).__name__ for f in result if not isinstance(f, Fact)]
    return f"it returned {wrong[0]} items, not Fact objects" if wrong else None


def _rows_problem(result: Any, keys: Sequence[str] = ("kind", "subject")) -> str | None:
    """Why ``result`` is not a list of dicts with ``keys`` (None when it is)."""
    if not isinstance(result, list):
        return f"it returned a {type(result).__name__}, not a list"
    for position, item in enumerate(result, 1):
        if not isinstance(item, dict):
            return f"item {position} is a {type(item).__name__}, not a dict"
        missing = [k for k in keys if k not in item]
        if missing:
            return f"item {position} has no {', '.join(repr(k) for k in missing)} key"
    return None


def _fused_rows_problem(result: Any) -> str | None:
    """Why ``result`` is not hybrid rows the side-by-side cell can show: each names the leg ranks that found it."""
    from .reference import SENTINEL_RANK

    problem = _rows_problem(result, ("kind", "subject", "r_vec", "r_txt"))
    if problem is None:
        both = next((n for n, row in enumerate(result, 1) if row["r_vec"] == row["r_txt"] == SENTINEL_RANK), None)
        if both is not None:
            return f"item {both} has the rank {SENTINEL_RANK} in both legs: no leg found it"
    return problem


def _state_problem(result: Any) -> str | None:
    return None if isinstance(getattr(result, "status", None), Status) else \
        f"it returned {type(result).__name__}, not the new LifecycleState"


def _answer_problem(result: Any) -> str | None:
    # the before/after cells read the run too: its label, its messages (saved as a thread), its model
    if not isinstance(result, dict) or not isinstance(result.get("answer"), str) \
            or not isinstance(result.get("memory_ids"), list) or not isinstance(result.get("run"), AgentRun):
        return 'it should return a dict with "answer", "memory_ids" and "run" (the AgentRun of run_agent)'
    return None


# what the demo cells need from each graded function's result
_SHAPES: dict[str, Callable[[Any], str | None]] = {
    "_scan_tables": _facts_problem,
    "retrieve_knowledge": _rows_problem,
    "hybrid_rrf_search_memories": _fused_rows_problem,
    "set_memory_status": _state_problem,
    "grounded_answer": _answer_problem,
}


def yours_or_reference(mine: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run your function; if it is not written yet, fails, or returns something unusable, use the library's.

    A line says which one ran and why, so a demo cell always shows something
    and never hides that your version was not used. Works for the graded
    functions ``_scan_tables``, ``retrieve_knowledge``,
    ``hybrid_rrf_search_memories``, ``set_memory_status`` and
    ``grounded_answer`` (the library's version is found by name). A
    LifecycleError from ``set_memory_status`` is passed on: refusing a move
    is what that function must do.
    """
    name = getattr(mine, "__name__", "your function")
    reference = _reference(name)
    before = _memory_before(args, kwargs) if name == "set_memory_status" else None
    try:
        result = mine(*args, **kwargs)
    except NotImplementedError:
        print(f"{name} is not written yet; using the library's version.")
    except LifecycleError:
        _undo(name, before, "refused the move")
        raise   # a refused move is the lifecycle's answer, not a broken function
    except Exception as exc:  # noqa: BLE001 - any failure of the learner's code falls back, with its reason
        print(f"your {name} raised {type(exc).__name__}: {exc}; using the library's version.")
    else:
        problem = _SHAPES[name](result)
        if problem is None:
            return result
        print(f"your {name} returned something this cell cannot use ({problem}); using the library's version.")
    _undo(name, before, "did not give a usable result")
    return reference(*args, **kwargs)


def _memory_before(args: tuple[Any, ...], kwargs: dict[str, Any]) -> LifecycleState | None:
    """The stored state of the memory a ``set_memory_status`` call is about (None when there is none)."""
    memory_id = args[0] if args else kwargs.get("memory_id")
    try:
        return read_lifecycle(current().conn, memory_id)
    except Exception:  # noqa: BLE001 - no such memory: the functions themselves say so
        return None


def _undo(name: str, before: LifecycleState | None, why: str) -> None:
    """Put back the memory a failed ``set_memory_status`` changed, so the library's version starts from it.

    Without this the library's move was refused (the learner's code had
    already stored it, then returned nothing usable), or a refused move left
    its write behind, and the demo went on from a memory its review never set.
    """
    if before is None:
        return
    ws = current()
    now = read_lifecycle(ws.conn, before.memory_id)
    if (now.status, now.oamp_status, now.metadata) == (before.status, before.oamp_status, before.metadata):
        return
    ws.memory_client.update_memory(before.memory_id, metadata=before.metadata,
                                   status=RecordStatus(before.oamp_status))
    print(f"your {name} changed memory {before.memory_id} but {why}; the change was undone "
          f"(it is {before.status.value} again).")
