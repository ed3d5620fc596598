"""TODO 5 — ``grounded_answer(question, k=3)``: the solution and wrong variants.

Module globals injected by the test (as in the notebook): ``retrieve_knowledge``,
``run_agent``, ``agent_tools``, ``AGENT_PROMPT``, ``memory_block``, ``memory_client``,
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
