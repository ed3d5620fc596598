"""The check of TODO 2 ``retrieve_knowledge``: one oversampled scoped search, filter, rerank, reference results."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from .connection import _transaction_open
from .harness import _Grader, _listed, _short
from .scratch import (
    CHECK_SCHEMA,
    _kindless_probe,
    _probe_hits,
    _probe_reason,
    _remove_stale_probes,
    _scope_probes,
)
from .spies import _ClientSpy, _ConnectionSpy, _Log, _rerank_spy

# The TODO's specified value, deliberately not imported from workshop_lib.reference:
# a change to the reference must not silently change what the checks demand.
OVERSAMPLE = 4                             # retrieve_knowledge searches k * OVERSAMPLE candidates


_RK_KEYS = ("kind", "subject", "body", "metadata", "distance")


def todo2(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 2 ``retrieve_knowledge(query, k=5, kinds=None) -> list[dict]``.

    Spies on ``memory_client.search`` (one call, ``max_results == 4*k`` for
    several k, scoped to USER_ID/AGENT_ID, record_types ['memory']) and on
    ``rerank`` (called once with the filtered candidates, ``top_k=k``,
    ``content_key='body'``); compares the results with the reference
    retrieval computed with explicit arguments (order, kind, subject, body,
    metadata, distance) on the same store; checks the kinds filter in its
    string, list and empty-list forms, ``len <= k``, and — with short-lived
    probe memories whose text equals the query — that tool output, other
    users' or agents' memories and drafts never come back.
    """
    from .. import reference

    grader = _Grader(2, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        scope = grader.globals_of(("memory_client", "rerank", "USER_ID", "AGENT_ID"))
        grader.check_signature()
        _remove_stale_probes(ws)

        def grade(query: str, k: int | None = None, kinds: Any = None, *, pass_kinds: bool = False,
                  cross_encoder: bool = False) -> list[dict[str, Any]]:
            args: dict[str, Any] = {}
            if k is not None:
                args["k"] = k
            if pass_kinds:
                args["kinds"] = kinds
            k_eff = 5 if k is None else k
            described = f"{grader.name}({query!r}" + "".join(f", {n}={v!r}" for n, v in args.items()) + ")"
            log = _Log()
            conn_spy = _ConnectionSpy(scope.get("agent_conn", ws.conn), log)
            lent = {"memory_client": _ClientSpy(scope["memory_client"], log),
                    "rerank": _rerank_spy(scope["rerank"], log, reorder=cross_encoder)}
            if "agent_conn" in scope:
                lent["agent_conn"] = conn_spy
            was_open = _transaction_open(ws.conn)
            try:
                with grader.lent(lent):
                    got = grader.call(described, query, **args)
            finally:
                log.live = False
                conn_spy.restore()
            grader.after_call(log, ws.conn, was_open)
            _check_search_call(grader, described, log, query, k_eff, ws)
            _check_items(grader, described, got, k_eff)
            wanted = reference.normalise_kinds(kinds)
            candidates = _expected_candidates(ws, query, k_eff, wanted)
            _check_rerank_call(grader, described, log, query, k_eff, candidates, got, kinds, cross_encoder)
            if cross_encoder:   # rerank's own order was the expectation, checked with the call
                return got
            expected = reference.retrieve_knowledge(query, k_eff, kinds, memory_client=ws.memory_client,
                                                    user_id=ws.user_id, agent_id=ws.agent_id)
            _compare_knowledge(grader, described, got, expected, wanted)
            return got

        # What each query must return comes from the reference on the same store: the learner's own
        # memories (Part 3 experiments, Part 4's corrections) may outrank the catalog's facts, and a correct
        # function must pass all the same. That the facts come first on the scan's store alone is the
        # library's promise, tested in tests/test_retrieval.py.
        grade("Where do we record vessel current positions?")
        grade("What unit is vessel capacity measured in?", 3)
        grade("Is the cargo unit value stored in dollars or cents?", 2)
        grade("Which columns describe vessel capacity and cargo value?", 1)
        grade("What unit is vessel capacity measured in?", 4, "table, column", pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 3, "column,guideline", pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 3, ["guideline"], pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 3, [], pass_kinds=True)
        grade("What unit is vessel capacity measured in?", 6)   # past 5: k * 4 with no cap
        # rerank as a cross-encoder that disagrees with the distances: its order, not the search's, is the answer
        grade("Is the cargo unit value stored in dollars or cents?", 3, cross_encoder=True)
        # asking for tool output does not bring it back: it is never knowledge
        grade("Which rows did the last query about vessel capacity return?", 3, "tool_output, column",
              pass_kinds=True)

        probe_text = "Workshop check probe: which berth log records the tug assignments of arriving vessels?"
        probes = _scope_probes(grader, ws, probe_text)
        _kindless_probe(grader, ws, probe_text)
        got = grade(probe_text, 5)
        grade(probe_text, 5, "guideline, table", pass_kinds=True)   # a kinds string meets a memory without a kind
        leaked = _probe_hits([r.get("subject") for r in got], probes, lambda p: f"{CHECK_SCHEMA}.PROBE#{p.why}")
        if leaked:
            grader.fail(f"{grader.name}({probe_text!r}, k=5) returned {_probe_reason(leaked[0])}.",
                        got=[r.get("subject") for r in got],
                        hint="memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, exact_user_match=True, "
                             "exact_agent_match=True, "
                             "record_types=['memory'], max_results=k * 4), then skip kind == 'tool_output'.")


def _check_search_call(grader: _Grader, described: str, log: _Log, query: str, k: int, ws: Any) -> None:
    if not log.searches:
        grader.fail(f"{described} did not call memory_client.search(...).",
                    hint="candidates = memory_client.search(query, user_id=USER_ID, agent_id=AGENT_ID, "
                         "exact_user_match=True, exact_agent_match=True, "
                         "record_types=['memory'], max_results=k * 4).")
    if len(log.searches) > 1:
        grader.fail(f"{described} called memory_client.search {len(log.searches)} times.", expected="once",
                    hint="one search for k * 4 candidates, then filter and rerank them in Python.")
    call = log.searches[0]
    max_results = call.get("max_results")
    if max_results != OVERSAMPLE * k:
        grader.fail(f"{described} searched with max_results={max_results!r}.",
                    expected=f"max_results={OVERSAMPLE * k} (k * 4 candidates for k={k})", got=max_results,
                    hint="oversample: ask for k * 4 candidates, because filtering and reranking need spares.")
    # A prebuilt OAMP SearchScope is a valid alternative; the probe memories then prove the scoping.
    scoped_by_object = call.get("scope") is not None
    if not scoped_by_object and (call.get("user_id") != ws.user_id or call.get("agent_id") != ws.agent_id):
        grader.fail(f"{described} did not scope the search to the workshop's user and agent.",
                    expected=f"user_id={ws.user_id!r}, agent_id={ws.agent_id!r}",
                    got=f"user_id={call.get('user_id')!r}, agent_id={call.get('agent_id')!r}",
                    hint="pass user_id=USER_ID and agent_id=AGENT_ID to memory_client.search.")
    if not scoped_by_object and (call.get("exact_user_match") is not True or call.get("exact_agent_match") is not True):
        grader.fail(f"{described} searched without exact_user_match=True and exact_agent_match=True.",
                    got=f"exact_user_match={call.get('exact_user_match')!r}, "
                        f"exact_agent_match={call.get('exact_agent_match')!r}",
                    hint="without them OAMP also returns memories that have no user or agent scope; pass "
                         "exact_user_match=True, exact_agent_match=True.")
    types = call.get("record_types")
    if not isinstance(types, (list, tuple, set, frozenset)) or set(types) != {"memory"}:
        grader.fail(f"{described} searched record types {types!r}.", expected="record_types=['memory']",
                    got=repr(types), hint="only long-term memories: record_types=['memory'].")
    if call.get("include_invalid_results"):
        grader.fail(f"{described} searched with include_invalid_results={call['include_invalid_results']!r}.",
                    hint="drafts and discarded memories must never come back: leave include_invalid_results out.")
    if call.get("metadata_filter"):
        grader.fail(f"{described} searched with metadata_filter={_short(call['metadata_filter'], 60)}.",
                    hint="search the k * 4 nearest memories of every kind, then keep the wanted kinds in Python "
                         "(the instructions' order: oversample, filter, rerank).")
    if call.get("query") not in (None, query):
        grader.fail(f"{described} searched for a different text.", expected=repr(query),
                    got=_short(call.get("query")), hint="search for the query you were given.")


def _check_items(grader: _Grader, described: str, got: list[Any], k: int) -> None:
    if len(got) > k:
        grader.fail(f"{described} returned {len(got)} results.", expected=f"at most k={k}",
                    hint="rerank(query, candidates, top_k=k, content_key='body') keeps the best k.")
    for item in got:
        if not isinstance(item, Mapping):
            grader.fail(f"{described} returned an item that is not a dict.", got=_short(item, 200),
                        hint="build a dict per candidate: kind, subject, body, metadata, distance.")
        missing = [key for key in _RK_KEYS if key not in item]
        if missing:
            grader.fail(f"{described} returned a dict without {', '.join(missing)}.",
                        expected=f"keys {list(_RK_KEYS)}", got=sorted(item),
                        hint="kind/subject from result.metadata, body = result.content, "
                             "metadata = result.metadata, distance = result.distance.")
        if item.get("kind") == "tool_output":
            grader.fail(f"{described} returned a tool_output memory ({item.get('subject')}).",
                        hint="skip candidates whose metadata kind is 'tool_output' before reranking.")


def _expected_candidates(ws: Any, query: str, k: int, wanted: list[str] | None) -> list[dict[str, Any]]:
    """The rerank input the function should build: the scoped 4k search, filtered (check's own code)."""
    results = ws.memory_client.search(query, user_id=ws.user_id, agent_id=ws.agent_id, exact_user_match=True,
                                      exact_agent_match=True, record_types=["memory"],
                                      max_results=k * OVERSAMPLE)
    candidates = []
    for result in results:
        metadata = dict(result.metadata or {})
        if metadata.get("kind") == "tool_output":
            continue
        if wanted is not None and metadata.get("kind") not in wanted:
            continue
        candidates.append({"kind": metadata.get("kind"), "subject": metadata.get("subject"),
                           "body": result.content})
    return candidates


def _check_rerank_call(grader: _Grader, described: str, log: _Log, query: str, k: int,
                       candidates: list[dict[str, Any]], got: list[Any], kinds: Any, cross_encoder: bool = False
                       ) -> None:
    hint = "finish with: return rerank(query, candidates, top_k=k, content_key='body')."
    if len(log.reranks) != 1:
        grader.fail(f"{described} called rerank {len(log.reranks)} times.", expected="once", hint=hint)
    call = log.reranks[0]
    if call.get("query") != query or call.get("top_k") != k or call.get("content_key") != "body":
        grader.fail(f"{described} called rerank with the wrong arguments.",
                    expected=f"rerank({query!r}, candidates, top_k={k}, content_key='body')",
                    got=f"query={_short(call.get('query'), 80)}, top_k={call.get('top_k')!r}, "
                        f"content_key={call.get('content_key')!r}", hint=hint)
    given = call.get("candidates")
    if not isinstance(given, list):
        grader.fail(f"{described} passed {type(given).__name__} candidates to rerank.", expected="a list",
                    hint=hint)
    shown = [(c.get("kind"), c.get("subject")) if isinstance(c, Mapping) else c for c in given]
    wanted = [(c["kind"], c["subject"]) for c in candidates]
    if shown != wanted and sorted(map(str, shown)) == sorted(map(str, wanted)):
        first = next(i for i, (a, b) in enumerate(zip(shown, wanted)) if a != b)
        grader.fail(f"{described} gave rerank the right candidates in a different ORDER than the search "
                    f"returned them (first difference at position {first + 1}).",
                    expected=f"{wanted[first]} at position {first + 1} (search order, nearest first)",
                    got=f"{shown[first]} at position {first + 1}",
                    hint="build the candidate list in the order memory_client.search returned the results; "
                         "do not sort or reverse it before rerank.")
    if shown != wanted:
        extra = [s for s in shown if s not in wanted]
        lost = [s for s in wanted if s not in shown]
        why = "filter the search results before reranking: drop tool_output and keep only the requested kinds."
        if len(shown) < len(wanted) and not extra:
            why = "keep every candidate that passes the filters, in the search order (k * 4 were searched)."
        leaked = [str(subject) for _, subject in extra if str(subject).startswith(f"{CHECK_SCHEMA}.PROBE#")]
        if leaked:
            why = {"other-user": "a memory of another user came back: pass user_id=USER_ID (exact match).",
                   "other-agent": "a memory of another agent came back: pass agent_id=AGENT_ID and keep the "
                                  "agent match exact (do not pass exact_agent_match=False).",
                   "tool-output": "drop candidates whose kind is 'tool_output'.",
                   "draft": "a draft (status 'invalid') came back: memory_client.search never returns one, so "
                            "search with it rather than with SQL of your own."}.get(leaked[0].split("#")[-1], why)
        elif isinstance(kinds, str) and lost:
            why = (f"kinds={kinds!r} means the kinds {[p.strip() for p in kinds.split(',')]}: split the string "
                   "on commas and strip each part.")
        elif lost and not extra and all(kind is None for kind, _ in lost) and not kinds:
            why = (f"{lost[0][1]} is a memory whose metadata has no kind: with no kinds filter keep it too "
                   "(metadata.get('kind') is None; Part 3 shows it as '?').")
        elif isinstance(kinds, (list, tuple)) and not kinds and lost:
            why = "kinds=[] means no filter (like None): keep every kind except tool_output."
        grader.fail(f"{described} gave rerank a different candidate list than the filtered search results.",
                    expected=f"{len(wanted)} candidates {_listed(wanted)}",
                    got=f"{len(shown)} candidates; unexpected {_listed(extra)}, missing {_listed(lost)}", hint=why)
    bodies = [c.get("body") for c in given]
    if bodies != [c["body"] for c in candidates]:
        grader.fail(f"{described}: the candidates' body is not the memory text.",
                    hint="body = result.content for each search result.")
    result = call.get("result") or []
    if got != result:
        def subjects(items: list[Any]) -> list[Any]:
            return [r.get("subject") if isinstance(r, Mapping) else r for r in items]

        what = f"{len(got)} results"
        if cross_encoder:   # name what came back instead: the search's own order, or rerank's items re-sorted
            if subjects(got) == subjects(candidates[:k]):
                what = f"the first {len(got)} candidates in search order, not rerank's"
            elif sorted(map(str, subjects(got))) == sorted(map(str, subjects(result))):
                what = "rerank's results in another order (re-sorted after rerank)"
            hint = ("on this call the check's rerank acts as a cross-encoder loaded in the database does (on "
                    "Oracle): it reorders the candidates and sets rerank_score, and its order is the answer. " + hint)
        grader.fail(f"{described} did not return rerank's result unchanged.",
                    expected=f"the {len(result)} results rerank returned, in its order: {_listed(subjects(result))}",
                    got=what, hint=hint)


def _compare_knowledge(grader: _Grader, described: str, got: list[dict[str, Any]], expected: list[dict[str, Any]],
                       wanted: list[str] | None) -> None:
    got_subjects = [r.get("subject") for r in got]
    expected_subjects = [r["subject"] for r in expected]
    if wanted is not None:
        off = [r.get("kind") for r in got if r.get("kind") not in wanted]
        if off:
            grader.fail(f"{described} returned kinds {sorted(set(map(str, off)))} that were not asked for.",
                        expected=f"only {wanted}", hint="split a comma-separated kinds string and strip each part; "
                                                        "an empty list means no filter.")
    kindless = [r["subject"] for r in expected if r.get("kind") is None and r["subject"] not in got_subjects]
    if wanted is None and kindless:
        grader.fail(f"{described} dropped {kindless[0]}, a memory whose metadata has no kind.",
                    hint="with kinds=None keep every memory except tool output, including those without a "
                         "kind (metadata.get('kind') is None; Part 3 shows them as '?').")
    if got_subjects != expected_subjects:
        grader.fail(f"{described} returned different memories (or a different order) than expected.",
                    expected=expected_subjects, got=got_subjects,
                    hint="best first as rerank returns them; a kinds string like 'table, column' is split on "
                         "commas and stripped, and an empty list means no filter.")
    for mine, theirs in zip(got, expected):
        for key in ("kind", "body", "metadata"):
            if mine.get(key) != theirs[key]:
                grader.fail(f"{described}: {key} of {theirs['subject']} is wrong.",
                            expected=_short(theirs[key], 150), got=_short(mine.get(key), 150),
                            hint="kind = metadata['kind'], body = result.content, metadata = result.metadata.")
        distance = mine.get("distance")
        if isinstance(distance, bool) or not isinstance(distance, (int, float)) or \
                not math.isclose(float(distance), theirs["distance"], abs_tol=1e-5):
            grader.fail(f"{described}: distance of {theirs['subject']} is wrong.",
                        expected=round(theirs["distance"], 6), got=_short(distance, 60),
                        hint="distance = float(result.distance).")
