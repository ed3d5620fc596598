"""The check of TODO 5 ``grounded_answer``: one retrieval of accepted corrections, one loop, ids reported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .harness import _Grader, _short
from .scratch import PROBE_PREFIX, _delete_probe, _remove_stale_probes, new_probe_run

#: What this check's run imports on first use (run_agent's model call: litellm, seconds). A warm grading
#: parent (workshop_lib.clean_runner) imports it once instead of once per learner.
RUN_IMPORTS = ("workshop_lib.agent.offline",)

_QUESTION = "Check probe {run}: what unit does CHECK_SCHEMA.PROBE_COLUMN use?"
_ACCEPTED = "Check probe {run} correction: CHECK_SCHEMA.PROBE_COLUMN holds kilograms, never pounds."
_DRAFT = "Check probe {run} correction: what unit does CHECK_SCHEMA.PROBE_COLUMN use? It holds pounds."


def _kinds(value: Any) -> list[str] | None:
    if value is None:
        return None
    parts = value.split(",") if isinstance(value, str) else list(value)
    return sorted({str(p).strip() for p in parts if str(p).strip()})


def todo5(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 5 ``grounded_answer(question, k=3) -> {"answer", "memory_ids", ...}``.

    With an accepted probe correction and a draft one of its own, spies on
    the notebook's ``retrieve_knowledge`` (exactly one call: the question,
    ``kinds=["correction"]``, the given ``k``) and ``run_agent`` (exactly one
    call: each retrieved memory written as ``[memory:<id>] text`` in a system
    message before the user message, which is the question unchanged, and
    the notebook's ``agent_tools``); the result must report the loop's own
    answer and the retrieved ids in order — which includes the accepted probe
    and never the draft. Calling the library's ``grounded_answer`` does not count.
    """
    from .. import reference
    from ..memory.lifecycle import propose_memory

    grader = _Grader(5, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("retrieve_knowledge", "run_agent", "agent_tools"))
        _remove_stale_probes(ws)
        run = new_probe_run()
        question = _QUESTION.format(run=run)
        ids = {}
        for name, text in (("accepted", _ACCEPTED), ("draft", _DRAFT)):
            ids[name] = f"{PROBE_PREFIX}{run}-{name}"
            grader.stack.callback(_delete_probe, ws, ids[name])
            propose_memory(ws.memory_client, text.format(run=run), user_id=ws.user_id, agent_id=ws.agent_id,
                           subject="CHECK_SCHEMA.PROBE_COLUMN", memory_id=ids[name])
        reference.set_memory_status(ids["accepted"], "accepted", memory_client=ws.memory_client, conn=ws.conn)

        for k in (3, 1):
            _grade_once(grader, scope, reference, question, k, ids)


def _grade_once(grader: _Grader, scope: dict[str, Any], reference: Any, question: str, k: int,
                ids: dict[str, str]) -> None:
    retrievals: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    library_calls: list[str] = []
    real_retrieve, real_run = scope["retrieve_knowledge"], scope["run_agent"]

    def retrieve_spy(*args: Any, **kwargs: Any) -> Any:
        hits = real_retrieve(*args, **kwargs)
        retrievals.append({"args": args, "kwargs": kwargs, "hits": hits})
        return hits

    def run_spy(messages: Any, *args: Any, **kwargs: Any) -> Any:
        result = real_run(messages, *args, **kwargs)
        runs.append({"messages": [dict(m) for m in messages], "args": args, "kwargs": kwargs, "run": result})
        return result

    real_reference = reference.grounded_answer

    def reference_spy(*args: Any, **kwargs: Any) -> Any:
        library_calls.append("grounded_answer")
        return real_reference(*args, **kwargs)

    described = f"{grader.name}({question!r}, k={k})"
    reference.grounded_answer = reference_spy
    try:
        with grader.lent({"retrieve_knowledge": retrieve_spy, "run_agent": run_spy}):
            value, error = grader.run(described, question, k=k)
    finally:
        reference.grounded_answer = real_reference
    if library_calls:
        grader.fail("your function called the library's own grounded_answer instead of doing the steps.",
                    hint="call retrieve_knowledge, build the two messages, call run_agent, return the dict.")
    if error is not None:
        grader.raised(described, error)
    if not isinstance(value, dict) or not isinstance(value.get("answer"), str) or \
            not isinstance(value.get("memory_ids"), list):
        grader.fail(f"{described} returned {_short(value)}.",
                    expected='a dict with "answer" (text) and "memory_ids" (a list)',
                    hint='return {"answer": run.answer, "memory_ids": [...], "run": run}.')
    if len(retrievals) != 1:
        grader.fail(f"{described} called retrieve_knowledge {len(retrievals)} times; it retrieves once per question.",
                    hint="hits = retrieve_knowledge(question, k=k, kinds=['correction']) — once, before the loop.")
    call = retrievals[0]
    asked = call["args"][0] if call["args"] else call["kwargs"].get("query")
    got_k = call["args"][1] if len(call["args"]) > 1 else call["kwargs"].get("k", 5)
    got_kinds = call["args"][2] if len(call["args"]) > 2 else call["kwargs"].get("kinds")
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
    tools = runs[0]["kwargs"].get("tools", runs[0]["args"][0] if runs[0]["args"] else None)
    if tools is not scope["agent_tools"]:
        grader.fail(f"{described} ran the loop without the notebook's tools (tools={_short(tools, 80)}).",
                    hint="pass tools=agent_tools: the agent needs run_sql to read the data.")
    if not sent or sent[-1].get("role") != "user" or sent[-1].get("content") != question:
        grader.fail(f"{described} did not end the messages with the question as the user message.",
                    expected=repr({"role": "user", "content": question}), got=_short(sent[-1] if sent else sent),
                    hint="messages = [{'role': 'system', ...}, {'role': 'user', 'content': question}].")
    system = "\n".join(str(m.get("content")) for m in sent[:-1] if m.get("role") == "system")
    missing = [h for h in hits if f"[memory:{h['metadata'].get('memory_id')}]" not in system
               or " ".join(str(h["body"]).split()) not in " ".join(system.split())]
    if missing:
        grader.fail(f"{described} did not give the model memory {missing[0]['metadata'].get('memory_id')!r} as "
                    "'[memory:<id>] text' in a system message.",
                    hint="put AGENT_PROMPT + memory_block([(id, body), ...]) in the system message; "
                         "the id is hit['metadata']['memory_id'].")
    if value["memory_ids"] != hit_ids:
        grader.fail(f"{described} reported memory_ids {_short(value['memory_ids'])}.",
                    expected=f"the retrieved memories' ids, best first: {hit_ids}",
                    hint="[h['metadata']['memory_id'] for h in hits].")
    if value["answer"] != runs[0]["run"].answer:
        grader.fail(f"{described} returned an answer that is not the agent's.",
                    expected=_short(runs[0]["run"].answer, 120), got=_short(value["answer"], 120),
                    hint="return run.answer as it is.")
    if ids["draft"] in value["memory_ids"]:
        grader.fail(f"{described} used a DRAFT memory; drafts must never ground an answer.",
                    hint="use retrieve_knowledge (it never returns drafts); do not search with "
                         "include_invalid_results=True.")
    if ids["accepted"] not in value["memory_ids"]:
        grader.fail(f"{described} did not use the accepted correction written for this question "
                    f"({ids['accepted']}).", got=f"memory_ids={value['memory_ids']}",
                    hint="retrieve_knowledge(question, k=k, kinds=['correction']) finds it.")
