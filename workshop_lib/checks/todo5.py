"""The check of TODO 5 ``grounded_answer``: one retrieval of accepted corrections, one loop, ids reported."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..agent.grounded import AGENT_PROMPT
from .harness import _Grader, _short
from .spies import _bound_arguments, _cross_encoder_order, _signature_of
from .scratch import PROBE_PREFIX, _delete_probe, _remove_stale_probes, new_probe_run

#: What this check's run imports on first use (run_agent's model call: litellm, seconds). A warm grading
#: parent (workshop_lib.clean_runner) imports it once instead of once per learner.
RUN_IMPORTS = ("workshop_lib.agent.offline",)

_QUESTION = "Check probe {run}: what unit does CHECK_SCHEMA.PROBE_COLUMN use?"
# Three accepted corrections close to the question, so that k=3 retrieves them all (their order and every id
# are graded) and k=1 one. The fourth is far from it (cosine distance 0.54-0.58 whatever the run id, which its
# text leaves out), yet among the k=5 search's 20 candidates in the scan's store: a function that drops
# distant hits drops it.
_ACCEPTED = (("accepted", "Check probe {run} correction: CHECK_SCHEMA.PROBE_COLUMN holds kilograms, never pounds."),
             ("accepted-2", "Check probe {run} correction: the unit of CHECK_SCHEMA.PROBE_COLUMN is the kilogram, "
                            "per container."),
             ("accepted-3", "Check probe {run} correction: CHECK_SCHEMA.PROBE_COLUMN values are kilograms; convert "
                            "pounds before loading."),
             ("accepted-far", "Check probe correction: the unit column of the tug rota is hours."))
_DRAFT = "Check probe {run} correction: what unit does CHECK_SCHEMA.PROBE_COLUMN use? It holds pounds."


def _check_result_shape(grader: _Grader, described: str, value: Any) -> None:
    """The result is a dict with "answer" (text), "memory_ids" (a list) and "run"; the message names what is off."""
    shape = 'a dict with "answer" (text), "memory_ids" (a list) and "run"'
    hint = 'return {"answer": run.answer, "memory_ids": [...], "run": run}.'
    if not isinstance(value, dict):
        grader.fail(f"{described} returned a {type(value).__name__}, not a dict: {_short(value)}.", expected=shape,
                    hint=hint)
    # "run" is checked with the run itself (checks after the calls), where the message says what it is for
    missing = [key for key in ("answer", "memory_ids") if key not in value]
    if missing:
        grader.fail(f"{described} returned a dict without {' and '.join(repr(k) for k in missing)}; its keys are "
                    f"{sorted(map(str, value))}.", expected=shape, hint=hint)
    for key, kind in (("answer", str), ("memory_ids", list)):
        if not isinstance(value[key], kind):
            grader.fail(f"{described} returned {key!r} as a {type(value[key]).__name__}, not a {kind.__name__}: "
                        f"{_short(value[key])}.", expected=shape, hint=hint)


def _check_composition(grader: _Grader, described: str, sent: list[dict[str, Any]],
                       hits: list[dict[str, Any]]) -> None:
    """The messages exactly as the instructions build them: two, the system message ``AGENT_PROMPT + "\\n\\n" +
    memory_block(memories)`` (whitespace aside) and the question. Run after the checks that name a specific
    mistake (a memory missing, the order, a draft), so what is left is text added, changed or moved."""
    from ..agent.longterm import memory_block

    roles = [m.get("role") for m in sent]
    if roles != ["system", "user"]:
        grader.fail(f"{described} sent the model {len(sent)} messages with roles {roles}.",
                    expected="['system', 'user']: one system message, then the question",
                    hint="messages = [{'role': 'system', 'content': AGENT_PROMPT + '\\n\\n' + memory_block(memories)}, "
                         "{'role': 'user', 'content': question}] — nothing else.")
    wanted = " ".join((AGENT_PROMPT + "\n\n" + memory_block(
        [(h["metadata"].get("memory_id"), h["body"]) for h in hits])).split())
    got = " ".join(str(sent[0].get("content")).split())
    if got != wanted:
        at = len(os.path.commonprefix([wanted, got]))
        start = max(0, at - 40)
        grader.fail(f"{described}'s system message is not AGENT_PROMPT + '\\n\\n' + memory_block(memories): it "
                    f"differs from character {at} on.",
                    expected=repr(("…" if start else "") + wanted[start:at + 60]),
                    got=repr(("…" if start else "") + got[start:at + 60]),
                    hint="build it exactly so, with memories = [(hit['metadata']['memory_id'], hit['body']) for hit "
                         "in hits]: AGENT_PROMPT as given (its rules, cite and state units, are what is graded), "
                         "then the block; no text added, changed or moved.")


def _kinds(value: Any) -> list[str] | None:
    if value is None:
        return None
    parts = value.split(",") if isinstance(value, str) else list(value)
    return sorted({str(p).strip() for p in parts if str(p).strip()})


def todo5(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 5 ``grounded_answer(question, k=3) -> {"answer", "memory_ids", ...}``.

    With four accepted probe corrections and a draft one of its own, spies on
    the notebook's ``retrieve_knowledge`` (exactly one call: the question,
    ``kinds=["correction"]``, the given ``k``) and ``run_agent`` (exactly one
    call: ``AGENT_PROMPT`` and each retrieved memory written as
    ``[memory:<id>] text`` in a system message before the user message, which
    is the question unchanged, and the notebook's ``agent_tools``; the run
    must end with an answer); the result must report the loop's own answer,
    the retrieved ids in order — which includes the accepted probes and never
    the draft — and the run itself. The memories go in the system message in
    the order retrieved, the draft never, and the run uses the workshop's
    model (no ``model=``). Three close accepted probes make the order count;
    a fourth, far from the question, is retrieved at k=5 and must be given
    too. In a store without any accepted correction, a first call with
    nothing to retrieve must still run the agent. ``k`` defaults to 3, as the
    TODO's signature says. Calling the library's ``grounded_answer`` does not
    count.
    """
    from .. import reference
    from ..memory.lifecycle import propose_memory

    grader = _Grader(5, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("retrieve_knowledge", "run_agent", "agent_tools"))
        grader.check_signature()
        _remove_stale_probes(ws)
        run = new_probe_run()
        question = _QUESTION.format(run=run)
        if not reference.retrieve_knowledge(question, k=3, kinds=["correction"], memory_client=ws.memory_client,
                                            user_id=ws.user_id, agent_id=ws.agent_id):
            # a store without accepted corrections yet (Part 4 before its review): the agent still answers
            _grade_once(grader, scope, reference, question, 3, {}, probes=False)
        ids = {}
        for name, text in (*_ACCEPTED, ("draft", _DRAFT)):
            ids[name] = f"{PROBE_PREFIX}{run}-{name}"
            grader.stack.callback(_delete_probe, ws, ids[name])
            propose_memory(ws.memory_client, text.format(run=run), user_id=ws.user_id, agent_id=ws.agent_id,
                           subject="CHECK_SCHEMA.PROBE_COLUMN", memory_id=ids[name])
            if name != "draft":
                reference.set_memory_status(ids[name], "accepted", memory_client=ws.memory_client, conn=ws.conn)

        for k in (3, 1):
            _grade_once(grader, scope, reference, question, k, ids)
        # retrieve_knowledge's order as a loaded cross-encoder may give it (not by distance): it must be kept
        _grade_once(grader, scope, reference, question, 5, ids, reranked=True)


_RERANKED = ("; on this call retrieve_knowledge's order is a reranker's, as a cross-encoder loaded in the database "
             "gives it on Oracle, not the distance order: keep it, never re-sort the hits.")


def _spied_names(scope: dict[str, Any], name: str) -> list[str]:
    """``name`` and every other notebook global bound to the same function (Part 4's setup cell makes
    ``retrieve_knowledge`` the library's ``library_retrieve_knowledge``: calling either is the same call)."""
    target = scope[name]
    return [name] + [other for other, value in scope.items() if other != name and value is target
                     and not other.startswith("_") and callable(value)]


def _grade_once(grader: _Grader, scope: dict[str, Any], reference: Any, question: str, k: int,
                ids: dict[str, str], *, probes: bool = True, reranked: bool = False) -> None:
    """One call of the learner's function, graded; ``probes`` False: a store with no correction to retrieve.

    ``reranked``: ``retrieve_knowledge`` returns its hits farthest first with a ``rerank_score``, as a
    cross-encoder loaded in the database may order them (lite's rerank keeps the distance order, which would
    hide a function that re-sorts the hits by distance).
    """
    retrievals: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    library_calls: list[str] = []
    bad_calls: list[tuple[str, TypeError]] = []
    real_retrieve, real_run = scope["retrieve_knowledge"], scope["run_agent"]
    signatures = {"retrieve_knowledge": _signature_of(real_retrieve), "run_agent": _signature_of(real_run)}

    def arguments(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        try:
            return _bound_arguments(signatures[name], args, kwargs)
        except TypeError as exc:   # the learner's call, not the learner's function: say so after the run
            bad_calls.append((name, exc))
            raise

    def retrieve_spy(*args: Any, **kwargs: Any) -> Any:
        call = arguments("retrieve_knowledge", args, kwargs)
        hits = real_retrieve(*args, **kwargs)
        if reranked:
            hits = _cross_encoder_order(hits)
        retrievals.append({**call, "hits": hits})
        return hits

    def run_spy(*args: Any, **kwargs: Any) -> Any:
        call = arguments("run_agent", args, kwargs)
        result = real_run(*args, **kwargs)
        runs.append({**call, "messages": [dict(m) for m in call.get("messages") or []], "run": result})
        return result

    real_reference = reference.grounded_answer

    def reference_spy(*args: Any, **kwargs: Any) -> Any:
        library_calls.append("grounded_answer")
        return real_reference(*args, **kwargs)

    described = f"{grader.name}({question!r}, k={k})"
    lent = {**{name: retrieve_spy for name in _spied_names(scope, "retrieve_knowledge")},
            **{name: run_spy for name in _spied_names(scope, "run_agent")}}
    reference.grounded_answer = reference_spy
    try:
        with grader.lent(lent):
            value, error = grader.run(described, question, k=k)
    finally:
        reference.grounded_answer = real_reference
    if library_calls:
        grader.fail("your function called the library's own grounded_answer instead of doing the steps.",
                    hint="call retrieve_knowledge, build the two messages, call run_agent, return the dict.")
    if bad_calls:
        name, exc = bad_calls[0]
        grader.fail(f"{described} called {name} with arguments it does not take: {exc}.",
                    hint="hits = retrieve_knowledge(question, k=k, kinds=['correction']); "
                         "run = run_agent(messages, tools=agent_tools) — tools is a keyword argument.")
    if error is not None:
        grader.raised(described, error)
    _check_result_shape(grader, described, value)
    if len(retrievals) != 1:
        grader.fail(f"{described} called retrieve_knowledge {len(retrievals)} times; it retrieves once per question.",
                    hint="hits = retrieve_knowledge(question, k=k, kinds=['correction']) — once, before the loop.")
    call = retrievals[0]
    asked, got_k, got_kinds = call.get("query"), call.get("k"), call.get("kinds")
    if asked != question:
        grader.fail(f"{described} searched for {asked!r} instead of the question.",
                    hint="pass the question itself to retrieve_knowledge.")
    if _kinds(got_kinds) != ["correction"]:
        grader.fail(f"{described} retrieved kinds={got_kinds!r}; only reviewed corrections ground the answer.",
                    expected="kinds=['correction']",
                    hint="retrieve_knowledge(question, k=k, kinds=['correction']).")
    if got_k != k:
        grader.fail(f"{described} asked retrieve_knowledge for k={got_k!r}.", expected=f"k={k} (the k it was given)",
                    hint="pass the function's own k through: retrieve_knowledge(question, k=k, kinds=['correction']).")
    hits = call["hits"]
    hit_ids = [h["metadata"].get("memory_id") for h in hits]
    if len(runs) != 1:
        grader.fail(f"{described} ran the agent loop {len(runs)} times; one run answers one question.",
                    hint="run = run_agent(messages, tools=agent_tools) — once.")
    sent = runs[0]["messages"]
    tools = runs[0].get("tools")
    if tools is not scope["agent_tools"]:
        which = "without the notebook's tools" if tools is None else \
            f"with tools other than the notebook's agent_tools ({_short(tools, 80)})"
        grader.fail(f"{described} ran the loop {which}.",
                    hint="pass tools=agent_tools, the ToolBox the setup cell made: the agent needs its run_sql "
                         "to read the data, and the cells after the TODO read what it ran.")
    if not sent or sent[-1].get("role") != "user" or sent[-1].get("content") != question:
        grader.fail(f"{described} did not end the messages with the question as the user message.",
                    expected=repr({"role": "user", "content": question}), got=_short(sent[-1] if sent else sent),
                    hint="messages = [{'role': 'system', ...}, {'role': 'user', 'content': question}].")
    system = "\n".join(str(m.get("content")) for m in sent[:-1] if m.get("role") == "system")
    if " ".join(AGENT_PROMPT.split()) not in " ".join(system.split()):
        grader.fail(f"{described} did not put AGENT_PROMPT in the system message: it tells the model to cite "
                    "the memories it uses and to state units.",
                    hint="the system message is AGENT_PROMPT + '\\n\\n' + memory_block(memories).")
    missing = [h for h in hits if f"[memory:{h['metadata'].get('memory_id')}]" not in system
               or " ".join(str(h["body"]).split()) not in " ".join(system.split())]
    if missing:
        grader.fail(f"{described} did not give the model retrieved memory {missing[0]['metadata'].get('memory_id')!r} "
                    f"as '[memory:<id>] text' in a system message ({len(hits)} retrieved, every one goes in).",
                    hint="put AGENT_PROMPT + memory_block([(id, body), ...]) in the system message, one pair per "
                         "hit; the id is hit['metadata']['memory_id'].")
    placed = [system.find(f"[memory:{h['metadata'].get('memory_id')}]") for h in hits]
    if placed != sorted(placed):
        grader.fail(f"{described} listed the memories in the system message in another order than retrieved.",
                    expected=f"best first: {hit_ids}",
                    hint="memory_block(memories) with the pairs in the order retrieve_knowledge returned them" +
                         (_RERANKED if reranked else "."))
    if probes and ids["draft"] in system:
        grader.fail(f"{described} gave the model a DRAFT memory ({ids['draft']}) in the system message; drafts "
                    "must never ground an answer, even when its id is not reported.",
                    hint="give the model exactly the memories retrieve_knowledge(question, k=k, "
                         "kinds=['correction']) returned, nothing from the review queue.")
    _check_composition(grader, described, sent, hits)
    if runs[0].get("model") is not None:
        grader.fail(f"{described} ran the loop with model={runs[0]['model']!r}; the workshop's model choice "
                    "(WORKSHOP_LLM_MODEL, or the offline teaching model) decides which model answers.",
                    hint="run_agent(messages, tools=agent_tools) without model=.")
    agent_run = runs[0]["run"]
    if getattr(agent_run, "stopped", "answer") != "answer":
        manager = runs[0].get("manager")
        hint = ("run = run_agent(messages, tools=agent_tools) with its default max_steps: the model needs a step "
                "for the SQL tool and one to answer.")
        if manager is not None:
            hint = (f"run_agent was given manager={type(manager).__name__}(...), which decides what the model is "
                    "sent each step (a window without the system message loses the memories); the instructions "
                    "run run_agent(messages, tools=agent_tools) without one.")
        grader.fail(f"{described}'s agent run stopped before answering ({agent_run.stopped} after "
                    f"{agent_run.steps} step(s)): its answer is {agent_run.answer!r}.", hint=hint)
    if value["memory_ids"] != hit_ids:
        grader.fail(f"{described} reported memory_ids {_short(value['memory_ids'])}.",
                    expected=f"the retrieved memories' ids, best first: {hit_ids}",
                    hint="[h['metadata']['memory_id'] for h in hits]" + (_RERANKED if reranked else "."))
    if value["answer"] != agent_run.answer:
        grader.fail(f"{described} returned an answer that is not the agent's.",
                    expected=_short(agent_run.answer, 120), got=_short(value["answer"], 120),
                    hint="return run.answer as it is.")
    if value.get("run") is not agent_run:
        got = "no \"run\"" if "run" not in value else f'"run": {_short(value["run"], 80)}'
        grader.fail(f"{described} returned {got}; the cells after the TODO read the run itself (its messages, "
                    "model and label).", expected='"run": the AgentRun that run_agent returned',
                    hint='return {"answer": run.answer, "memory_ids": [...], "run": run}.')
    if not probes:
        return
    if ids["draft"] in value["memory_ids"]:
        grader.fail(f"{described} used a DRAFT memory; drafts must never ground an answer.",
                    hint="use retrieve_knowledge (it never returns drafts); do not search with "
                         "include_invalid_results=True.")
    close = [ids[name] for name in ("accepted", "accepted-2", "accepted-3")]
    if not set(close) & set(value["memory_ids"]):
        grader.fail(f"{described} did not use the accepted corrections written for this question "
                    f"({', '.join(close)}).", got=f"memory_ids={value['memory_ids']}",
                    hint="retrieve_knowledge(question, k=k, kinds=['correction']) finds them.")
