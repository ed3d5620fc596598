"""TODO 2 — ``retrieve_knowledge(query, k=5, kinds=None) -> list[dict]``: the solution and wrong variants.

Module globals injected by the test (as in the notebook): ``memory_client``,
``USER_ID``, ``AGENT_ID``, ``rerank``.
"""

# ruff: noqa: F821  (notebook globals are injected by the test)


def _kinds(kinds):
    if isinstance(kinds, str):
        kinds = [part.strip() for part in kinds.split(",")]
    kinds = [k for k in (kinds or []) if k]
    return kinds or None


def _candidate(result):
    metadata = dict(result.metadata or {})
    return {"kind": metadata.get("kind"), "subject": metadata.get("subject"), "body": result.content,
            "metadata": metadata, "distance": float(result.distance)}


def solution(query, k=5, kinds=None):
    """Correct: 4k scoped memory search, tool_output dropped, kinds kept, reranked to k."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"],
                                   max_results=k * 4)
    candidates = []
    for result in results:
        item = _candidate(result)
        if item["kind"] == "tool_output":
            continue
        if wanted is not None and item["kind"] not in wanted:
            continue
        candidates.append(item)
    return rerank(query, candidates, top_k=k, content_key="body")


def _search_filter_rerank(query, k, kinds, *, max_results=None, drop_tool_output=True, wanted=None,
                          search_kwargs=None, rerank_kwargs=None):
    wanted = _kinds(kinds) if wanted is None else wanted
    kwargs = {"user_id": USER_ID, "agent_id": AGENT_ID, "exact_user_match": True, "exact_agent_match": True,
              "record_types": ["memory"],
              "max_results": k * 4 if max_results is None else max_results}
    kwargs.update(search_kwargs or {})
    candidates = []
    for result in memory_client.search(query, **kwargs):
        item = _candidate(result)
        if drop_tool_output and item["kind"] == "tool_output":
            continue
        if wanted is not None and item["kind"] not in wanted:
            continue
        candidates.append(item)
    return rerank(query, candidates, **({"top_k": k, "content_key": "body"} | (rerank_kwargs or {})))


def mutant_no_tool_output_filter(query, k=5, kinds=None):
    """Forgets to drop kind == 'tool_output' (the raw query output look-alikes win)."""
    return _search_filter_rerank(query, k, kinds, drop_tool_output=False)


def mutant_no_oversampling(query, k=5, kinds=None):
    """Searches exactly k candidates, so filtering leaves fewer than k."""
    return _search_filter_rerank(query, k, kinds, max_results=k)


def mutant_fixed_candidate_count(query, k=5, kinds=None):
    """Always 20 candidates: right for k=5 only."""
    return _search_filter_rerank(query, k, kinds, max_results=20)


def mutant_kinds_string_not_split(query, k=5, kinds=None):
    """Wraps a kinds string in a list instead of splitting it: 'table, column' matches nothing."""
    if isinstance(kinds, str):
        kinds = [kinds]
    return _search_filter_rerank(query, k, None, wanted=kinds or None)


def mutant_kinds_split_not_stripped(query, k=5, kinds=None):
    """Splits 'table, column' on ',' without strip(): ' column' never matches."""
    if isinstance(kinds, str):
        kinds = kinds.split(",")
    return _search_filter_rerank(query, k, None, wanted=kinds or None)


def mutant_empty_kinds_means_nothing(query, k=5, kinds=None):
    """Treats kinds=[] as 'no kind allowed' instead of 'no filter'."""
    wanted = kinds.split(",") if isinstance(kinds, str) else kinds
    if wanted is not None:
        wanted = [w.strip() for w in wanted]
        results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"],
                                       max_results=k * 4)
        candidates = [c for c in map(_candidate, results) if c["kind"] != "tool_output" and c["kind"] in wanted]
        return rerank(query, candidates, top_k=k, content_key="body")
    return solution(query, k)


def mutant_missing_agent_scope(query, k=5, kinds=None):
    """Scopes the search to the user only: other agents' memories leak in."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, record_types=["memory"], max_results=k * 4)
    candidates = [c for c in map(_candidate, results)
                  if c["kind"] != "tool_output" and (wanted is None or c["kind"] in wanted)]
    return rerank(query, candidates, top_k=k, content_key="body")


def mutant_wrong_record_types(query, k=5, kinds=None):
    """Searches every record type (messages and profiles too)."""
    return _search_filter_rerank(query, k, kinds, search_kwargs={"record_types": ["memory", "message"]})


def mutant_no_rerank(query, k=5, kinds=None):
    """Slices the candidates instead of reranking them."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"],
                                   max_results=k * 4)
    candidates = [c for c in map(_candidate, results)
                  if c["kind"] != "tool_output" and (wanted is None or c["kind"] in wanted)]
    return candidates[:k]


def mutant_rerank_fixed_top_k(query, k=5, kinds=None):
    """Reranks to top_k=5 whatever k is."""
    return _search_filter_rerank(query, k, kinds, rerank_kwargs={"top_k": 5})


def mutant_filter_after_rerank(query, k=5, kinds=None):
    """Reranks first and filters afterwards, so fewer than k (or tool output) come back."""
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"],
                                   max_results=k * 4)
    ranked = rerank(query, [_candidate(r) for r in results], top_k=k, content_key="body")
    wanted = _kinds(kinds)
    return [c for c in ranked if c["kind"] != "tool_output" and (wanted is None or c["kind"] in wanted)]


def mutant_worst_first(query, k=5, kinds=None):
    """Returns the reranked list reversed (largest distance first)."""
    return list(reversed(solution(query, k, kinds)))


def mutant_content_as_body_key(query, k=5, kinds=None):
    """Names the text 'content' instead of 'body' (and reranks on it)."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"],
                                   max_results=k * 4)
    candidates = []
    for result in results:
        item = _candidate(result)
        item["content"] = item.pop("body")
        if item["kind"] != "tool_output" and (wanted is None or item["kind"] in wanted):
            candidates.append(item)
    return rerank(query, candidates, top_k=k, content_key="content")


def mutant_hardcoded_answer(query, k=5, kinds=None):
    """Returns a fixed answer that looks right for the first probe question."""
    results = memory_client.search("Where do we record vessel current positions?", user_id=USER_ID,
                                   agent_id=AGENT_ID, record_types=["memory"], max_results=20)
    candidates = [c for c in map(_candidate, results) if c["kind"] != "tool_output"]
    return rerank(query, candidates, top_k=k, content_key="body")


def mutant_agent_match_not_exact(query, k=5, kinds=None):
    """Passes agent_id but exact_agent_match=False, which leaves the agent dimension unfiltered."""
    return _search_filter_rerank(query, k, kinds, search_kwargs={"exact_agent_match": False})


def mutant_candidates_reversed(query, k=5, kinds=None):
    """Builds the candidate list farthest first before reranking (the right set, the wrong order)."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"],
                                   max_results=k * 4)
    candidates = [_candidate(r) for r in results if _candidate(r)["kind"] != "tool_output"
                  and (wanted is None or _candidate(r)["kind"] in wanted)]
    return rerank(query, list(reversed(candidates)), top_k=k, content_key="body")


def mutant_no_exact_match(query, k=5, kinds=None):
    """Scopes by user and agent but leaves out the exact-match flags the instructions require."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, record_types=["memory"],
                                   max_results=k * 4)
    candidates = [c for c in map(_candidate, results)
                  if c["kind"] != "tool_output" and (wanted is None or c["kind"] in wanted)]
    return rerank(query, candidates, top_k=k, content_key="body")


def mutant_drops_kindless_memories(query, k=5, kinds=None):
    """Keeps only memories that have a kind, even when no kinds filter was asked for."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"], max_results=k * 4)
    candidates = [c for c in map(_candidate, results) if c["kind"] not in ("tool_output", None)
                  and (wanted is None or c["kind"] in wanted)]
    return rerank(query, candidates, top_k=k, content_key="body")


def mutant_default_k_changed(query, k=3, kinds=None):
    """Changes the signature's default k from 5 to 3: a call without k returns 3 memories."""
    return solution(query, k, kinds)


def mutant_kinds_string_as_substring(query, k=5, kinds=None):
    """Never splits a kinds string: `kind not in kinds` is a substring test, and raises for a kindless memory."""
    candidates = []
    for result in memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                       exact_agent_match=True, record_types=["memory"], max_results=k * 4):
        item = _candidate(result)
        if item["kind"] == "tool_output":
            continue
        if kinds and item["kind"] not in kinds:
            continue
        candidates.append(item)
    return rerank(query, candidates, top_k=k, content_key="body")


def mutant_tool_output_when_asked_for(query, k=5, kinds=None):
    """Drops tool output only when the kinds do not name it: kinds='tool_output, column' returns raw output."""
    wanted = _kinds(kinds)
    return _search_filter_rerank(query, k, kinds, drop_tool_output=not wanted or "tool_output" not in wanted)


def mutant_oversampling_capped_at_twenty(query, k=5, kinds=None):
    """Caps the candidates at 20: max_results=min(k * 4, 20), so k=6 searches 20, not 24."""
    return _search_filter_rerank(query, k, kinds, max_results=min(k * 4, 20))


def mutant_includes_invalid_results(query, k=5, kinds=None):
    """Searches with include_invalid_results=True ("lose nothing"): drafts and discarded memories come back."""
    return _search_filter_rerank(query, k, kinds, search_kwargs={"include_invalid_results": True})


def _candidates(query, k, kinds):
    """The solution's filtered candidates, nearest first."""
    wanted = _kinds(kinds)
    results = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True,
                                   exact_agent_match=True, record_types=["memory"], max_results=k * 4)
    return [item for item in map(_candidate, results)
            if item["kind"] != "tool_output" and (wanted is None or item["kind"] in wanted)]


def mutant_rerank_result_ignored(query, k=5, kinds=None):
    """Calls rerank but returns its own first k candidates: a cross-encoder's order is lost."""
    candidates = _candidates(query, k, kinds)
    rerank(query, candidates, top_k=k, content_key="body")
    return candidates[:k]


def mutant_resorted_by_distance_after_rerank(query, k=5, kinds=None):
    """Re-sorts rerank's result by distance: undoes the cross-encoder's order."""
    candidates = _candidates(query, k, kinds)
    return sorted(rerank(query, candidates, top_k=k, content_key="body"), key=lambda c: c["distance"])
