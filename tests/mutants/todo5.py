"""TODO 5 — ``grounded_answer(question, k=3)``: the solution and wrong variants.

Module globals injected by the test (as in the notebook): ``retrieve_knowledge``,
``run_agent``, ``agent_tools``, ``AGENT_PROMPT``, ``memory_block``, ``SlidingWindowManager``, ``memory_client``,
``USER_ID``, ``AGENT_ID``.
"""

# ruff: noqa: F821  (notebook globals are injected by the test)


def _messages(question, memories):
    return [{"role": "system", "content": AGENT_PROMPT + "\n\n" + memory_block(memories)},
            {"role": "user", "content": question}]


def solution(question, k=3):
    """Correct: one retrieval of corrections, the ids and texts in the system message, one run."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_no_retrieval(question, k=3):
    """Never retrieves: the agent answers from the data alone."""
    run = run_agent(_messages(question, []), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [], "run": run}


def mutant_every_kind(question, k=3):
    """Retrieves every kind of memory, not only reviewed corrections."""
    hits = retrieve_knowledge(question, k=k)
    memories = [(hit["metadata"].get("memory_id") or hit["subject"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_fixed_k(question, k=3):
    """Always asks for 3 memories, whatever k is."""
    return solution(question, 3)


def mutant_ids_not_in_prompt(question, k=3):
    """Gives the model the texts without their ids, so it cannot cite them."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    text = AGENT_PROMPT + "\n\n" + "\n".join(hit["body"] for hit in hits)
    run = run_agent([{"role": "system", "content": text}, {"role": "user", "content": question}], tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [hit["metadata"]["memory_id"] for hit in hits], "run": run}


def mutant_memories_after_question(question, k=3):
    """Puts the memories in a user message after the question."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    messages = [{"role": "system", "content": AGENT_PROMPT}, {"role": "user", "content": question},
                {"role": "user", "content": memory_block(memories)}]
    run = run_agent(messages, tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_rewritten_question(question, k=3):
    """Sends a reworded question instead of the learner's question."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages("Please answer: " + question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_no_tools(question, k=3):
    """Runs the loop without tools: the agent cannot read the data."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=None)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_subjects_as_ids(question, k=3):
    """Reports the memories' subjects instead of their ids."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [hit["subject"] for hit in hits], "run": run}


def mutant_canned_answer(question, k=3):
    """Returns a fixed answer instead of the agent's."""
    result = solution(question, k)
    return {**result, "answer": "The value is in US cents [memory:unknown]."}


def mutant_two_runs(question, k=3):
    """Runs the loop twice and keeps the second answer."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run_agent(_messages(question, memories), tools=agent_tools)
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_includes_drafts(question, k=3):
    """Searches OAMP directly with include_invalid_results=True: drafts ground the answer."""
    results = memory_client.search(question, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"], max_results=k,
                                   include_invalid_results=True)
    memories = [(r.id, r.content) for r in results if (r.metadata or {}).get("kind") == "correction"]
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_calls_the_library(question, k=3):
    """Hands the whole job to the library's grounded_answer."""
    from workshop_lib import reference

    return reference.grounded_answer(question, k)


def mutant_one_step(question, k=3):
    """Reads "run the loop once" as max_steps=1: the run stops before the model can answer."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools, max_steps=1)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_no_run_key(question, k=3):
    """Leaves "run" out of the result: the cells after the TODO cannot show the run."""
    result = solution(question, k)
    return {"answer": result["answer"], "memory_ids": result["memory_ids"]}


def mutant_run_messages(question, k=3):
    """Returns the run's messages as "run" instead of the run."""
    result = solution(question, k)
    return {**result, "run": result["run"].messages}


def mutant_no_prompt(question, k=3):
    """Leaves AGENT_PROMPT out of the system message: only the memory block."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    messages = [{"role": "system", "content": memory_block(memories)}, {"role": "user", "content": question}]
    run = run_agent(messages, tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_only_the_best(question, k=3):
    """Keeps only the best hit: the model never sees the other retrieved corrections."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])[:1]
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_ids_reversed(question, k=3):
    """Reports the ids worst first instead of best first."""
    result = solution(question, k)
    return {**result, "memory_ids": result["memory_ids"][::-1]}


def mutant_tools_positional(question, k=3):
    """Passes the tools positionally: run_agent takes them as a keyword argument only."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_k_without_default(question, k):
    """Drops k's default: the cells after the TODO call grounded_answer(question) and fail."""
    return solution(question, k)


def mutant_k_default_five(question, k=5):
    """Changes k's default to 5: the demo's answers then rest on more memories than the TODO asks."""
    return solution(question, k)


def mutant_own_toolbox(question, k=3):
    """Builds a ToolBox of its own instead of passing the notebook's agent_tools."""
    from workshop_lib.agent.tools import ToolBox

    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=ToolBox([]))
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def _answered(question, memories, *, shown=None, **options):
    run = run_agent(_messages(question, memories if shown is None else shown), tools=agent_tools, **options)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def _corrections(question, k):
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    return [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]


def mutant_drops_distant_hits(question, k=3):
    """Keeps only hits with distance < 0.5 ('relevant enough'): every retrieved correction must go in."""
    hits = [h for h in retrieve_knowledge(question, k=k, kinds=["correction"]) if h["distance"] < 0.5]
    return _answered(question, [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits])


def mutant_no_agent_without_hits(question, k=3):
    """Skips the agent when no correction is retrieved: a canned answer and run=None."""
    memories = _corrections(question, k)
    if not memories:
        return {"answer": "No reviewed corrections apply to this question.", "memory_ids": [], "run": None}
    return _answered(question, memories)


def mutant_memories_listed_worst_first(question, k=3):
    """Writes the memories into the system message worst first; reports the ids best first."""
    memories = _corrections(question, k)
    return _answered(question, memories, shown=memories[::-1])


def mutant_drafts_shown_for_context(question, k=3):
    """Also gives the model the drafts waiting for review ('for context'); reports only the retrieved ids."""
    memories = _corrections(question, k)
    return _answered(question, memories, shown=memories + [(s.memory_id, s.content) for s in review_queue()])


def mutant_k_capped_at_three(question, k=3):
    """Caps k at 3 to keep the prompt short: grounded_answer(q, k=5) still retrieves 3."""
    return _answered(question, _corrections(question, min(k, 3)))


def mutant_model_named(question, k=3):
    """Names the model itself: the workshop's choice (WORKSHOP_LLM_MODEL) is ignored."""
    return _answered(question, _corrections(question, k), model="workshop-offline/rules")


def _answer(question, k, build):
    """The solution with the messages made by ``build(memories)`` instead of the instructions' two."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(build(memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_prompt_with_an_instruction_added(question, k=3):
    """Appends an instruction of its own to AGENT_PROMPT ('do not cite memory ids')."""
    return _answer(question, k, lambda memories: [
        {"role": "system", "content": AGENT_PROMPT + " Do not cite memory ids.\n\n" + memory_block(memories)},
        {"role": "user", "content": question}])


def mutant_memory_block_before_the_prompt(question, k=3):
    """Puts the memory block before AGENT_PROMPT in the system message."""
    return _answer(question, k, lambda memories: [
        {"role": "system", "content": memory_block(memories) + "\n\n" + AGENT_PROMPT},
        {"role": "user", "content": question}])


def mutant_memories_as_a_second_system_message(question, k=3):
    """Sends the memory block as a second system message and an assistant 'OK' before the question."""
    return _answer(question, k, lambda memories: [
        {"role": "system", "content": AGENT_PROMPT}, {"role": "system", "content": memory_block(memories)},
        {"role": "assistant", "content": "OK"}, {"role": "user", "content": question}])


def mutant_ids_under_another_key(question, k=3):
    """Returns the ids under 'memories' instead of 'memory_ids'."""
    result = solution(question, k)
    return {"answer": result["answer"], "memories": result["memory_ids"], "run": result["run"]}


def mutant_ids_as_a_tuple(question, k=3):
    """Returns memory_ids as a tuple."""
    result = solution(question, k)
    return {**result, "memory_ids": tuple(result["memory_ids"])}


def mutant_window_without_the_system_message(question, k=3):
    """Runs with a one-message window that drops the system message: the model never sees the memories."""
    hits = retrieve_knowledge(question, k=k, kinds=["correction"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools,
                    manager=SlidingWindowManager(window_size=1, preserve_system=False))
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}


def mutant_hits_resorted_by_distance(question, k=3):
    """Re-sorts the hits by distance before using them: undoes a reranker's order."""
    hits = sorted(retrieve_knowledge(question, k=k, kinds=["correction"]), key=lambda hit: hit["distance"])
    memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
    run = run_agent(_messages(question, memories), tools=agent_tools)
    return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}
