"""The hard-stop checks: correct solutions pass, every mutant fails, bad input fails cleanly.

One lite workshop (fresh WORKSHOP_HOME, seeded and scanned) serves the whole
module. Mutants live in tests/mutants/ and use notebook globals, which are
injected here with ``mutants.notebook_namespace`` exactly as a notebook's
setup cell defines them (the names of ``workshop_lib.notebook`` plus ``agent_conn``
and ``memory_client``).
"""

from __future__ import annotations

import importlib
import re
import textwrap
import threading
from typing import Any

import pytest
from mutants import mutants, notebook_namespace, todo1, todo2, todo3, todo4, todo5

import workshop_lib
from workshop_lib import checks, config

MODULES = {1: todo1, 2: todo2, 3: todo3, 4: todo4, 5: todo5}
NAMES = {1: "_scan_tables", 2: "retrieve_knowledge", 3: "hybrid_rrf_search_memories", 4: "set_memory_status",
         5: "grounded_answer"}
CHECKS = {1: checks.todo1, 2: checks.todo2, 3: checks.todo3, 4: checks.todo4, 5: checks.todo5}


@pytest.fixture(scope="module")
def ws(home_copy) -> Any:
    """A seeded, scanned lite workshop; mutant modules get its notebook globals."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKSHOP_HOME", str(home_copy("scan", "checks_home")))
        mp.setenv("WORKSHOP_BACKEND", "lite")
        mp.delenv(checks.TIMEOUT_ENV, raising=False)
        workshop = workshop_lib.start(upto="scan")
        for module in MODULES.values():
            vars(module).update(notebook_namespace(workshop))
        # what Part 4's setup cell adds
        vars(todo5).update(retrieve_knowledge=workshop_lib.notebook.library_retrieve_knowledge,
                           agent_tools=workshop_lib.notebook.agent_toolbox(workshop))
        yield workshop
        workshop.close()


def notebook(ws: Any, source: str) -> dict[str, Any]:
    """Run ``source`` like a notebook cell: a fresh namespace holding the notebook globals."""
    namespace = notebook_namespace(ws)
    exec(textwrap.dedent(source), namespace)  # noqa: S102 - test code written right here
    return namespace


def store_state(ws: Any) -> tuple[int, int, list[tuple[str, str]]]:
    """Memories, chunks and tables outside SUPPLYCHAIN: what a check must leave unchanged."""
    with ws.conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {config.MEMORY_TABLE}")
        memories = cur.fetchone()[0]
        cur.execute(f"SELECT COUNT(*) FROM {config.CHUNKS_TABLE}")
        chunks = cur.fetchone()[0]
        cur.execute("SELECT owner, table_name FROM all_tables WHERE owner <> :owner ORDER BY 1, 2",
                    owner=config.SCHEMA)
        tables = cur.fetchall()
    return memories, chunks, tables


# --------------------------------------------------------------------------- solutions pass


@pytest.mark.parametrize("todo", [1, 2, 3, 4, 5])
def test_solution_passes_with_one_stdout_line_and_no_stderr(ws: Any, todo: int,
                                                             capfd: pytest.CaptureFixture[str]) -> None:
    module = MODULES[todo]
    before = store_state(ws)
    memory_client = module.memory_client
    CHECKS[todo](module.solution)
    out, err = capfd.readouterr()
    assert out == f"TODO {todo} passed — {NAMES[todo]}\n"
    assert err == ""
    assert store_state(ws) == before, "the check must remove its probe memories and scratch tables"
    assert module.memory_client is memory_client, "notebook globals must be restored"


def test_grounded_answer_may_retrieve_through_the_setup_cells_other_name(ws: Any,
                                                                           capfd: pytest.CaptureFixture[str]) -> None:
    """Part 4's setup cell binds retrieve_knowledge = library_retrieve_knowledge: either name is the same call."""
    namespace = {**vars(todo5), "library_retrieve_knowledge": todo5.retrieve_knowledge}
    exec(textwrap.dedent("""
        def grounded_answer(question, k=3):
            hits = library_retrieve_knowledge(question, k=k, kinds=["correction"])
            memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
            run = run_agent(_messages(question, memories), tools=agent_tools)
            return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}
    """), namespace)  # noqa: S102 - test code written right here
    checks.todo5(namespace["grounded_answer"])
    assert capfd.readouterr().out == "TODO 5 passed — grounded_answer\n"
    assert namespace["library_retrieve_knowledge"] is todo5.retrieve_knowledge, "notebook globals must be restored"


def test_a_function_taking_keyword_arguments_for_the_defaults_is_graded_by_its_calls(
        ws: Any, capfd: pytest.CaptureFixture[str]) -> None:
    """The signature check reads defaults it can see; ``**kwargs`` in place of k and kinds is left to the calls."""
    namespace = vars(todo2)
    exec(textwrap.dedent("""
        def wrapped_retrieve_knowledge(query, **options):
            return solution(query, **options)
    """), namespace)  # noqa: S102 - test code written right here
    try:
        checks.todo2(namespace["wrapped_retrieve_knowledge"])
    finally:
        namespace.pop("wrapped_retrieve_knowledge")
    assert capfd.readouterr().out == "TODO 2 passed — retrieve_knowledge\n"


CAPTURED_DEFAULTS = {
    4: """
        def set_memory_status(memory_id, new_status, client=memory_client, conn=agent_conn):
            target = parse_status(new_status)
            state = read_lifecycle(conn, memory_id)
            if target not in ALLOWED_TRANSITIONS[state.status]:
                raise LifecycleError(f"memory {memory_id} cannot move from {state.status.value} to {target.value}")
            metadata = {**state.metadata, "lifecycle": target.value, "updated_at": now_iso()}
            client.update_memory(memory_id, metadata=metadata, status=OAMP_STATUS[target])
            return read_lifecycle(conn, memory_id)
    """,
    5: """
        def grounded_answer(question, k=3, *, retrieve=retrieve_knowledge, agent=run_agent):
            hits = retrieve(question, k=k, kinds=["correction"])
            memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
            run = agent(_messages(question, memories), tools=agent_tools)
            return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}
    """,
}


@pytest.mark.parametrize("todo", sorted(CAPTURED_DEFAULTS))
def test_notebook_globals_captured_as_default_arguments_are_observed_too(ws: Any, todo: int,
                                                                         capfd: pytest.CaptureFixture[str]) -> None:
    """Correct code that binds memory_client, agent_conn, retrieve_knowledge or run_agent as a default argument
    calls the same objects; the check lends its spies there too (it said '0 calls' or 'another client')."""
    namespace = dict(vars(MODULES[todo]))   # the module's notebook globals, in a namespace of the test's own
    exec(textwrap.dedent(CAPTURED_DEFAULTS[todo]), namespace)  # noqa: S102 - test code written right here
    fn = namespace[NAMES[todo]]
    defaults = fn.__defaults__, fn.__kwdefaults__
    CHECKS[todo](fn)
    assert capfd.readouterr().out == f"TODO {todo} passed — {NAMES[todo]}\n"
    assert (fn.__defaults__, fn.__kwdefaults__) == defaults, "the function's own defaults must be restored"


PARTIALS_MADE_IN_THE_CELL = """
    import functools

    find_corrections = functools.partial(retrieve_knowledge, kinds=["correction"])
    ask = functools.partial(run_agent, tools=agent_tools)

    def grounded_answer(question, k=3, *, agent=ask):
        hits = find_corrections(question, k=k)
        memories = [(hit["metadata"]["memory_id"], hit["body"]) for hit in hits]
        run = agent(_messages(question, memories))
        return {"answer": run.answer, "memory_ids": [m for m, _ in memories], "run": run}
"""


def test_partials_of_notebook_globals_made_in_the_cell_are_observed_too(ws: Any,
                                                                        capfd: pytest.CaptureFixture[str]) -> None:
    """functools.partial(retrieve_knowledge, ...) made at cell level, as a global or a default, calls the object
    the check spies on; the check lends its spies there too (it said 'called retrieve_knowledge 0 times')."""
    namespace = dict(vars(todo5))
    exec(textwrap.dedent(PARTIALS_MADE_IN_THE_CELL), namespace)  # noqa: S102 - test code written right here
    fn, before = namespace["grounded_answer"], namespace["find_corrections"]
    checks.todo5(fn)
    assert capfd.readouterr().out == "TODO 5 passed — grounded_answer\n"
    assert namespace["find_corrections"] is before and fn.__kwdefaults__["agent"] is namespace["ask"], \
        "the cell's partials must be restored"


@pytest.mark.parametrize("name", ["solution_embedding_inline", "solution_positional_order_by", "solution_rownum_top_n",
                                  "solution_cosine_shorthand"])
def test_other_correct_forms_of_the_hybrid_statement_pass(ws: Any, name: str,
                                                          capfd: pytest.CaptureFixture[str]) -> None:
    """The inline embedding, a positional ORDER BY, Oracle's ROWNUM top-N and COSINE_DISTANCE are correct too (the
    middle two were told 'rows tied on rrf_score must be ordered by record_id' and 'the final SELECT has no ORDER
    BY')."""
    checks.todo3(getattr(todo3, name))
    assert capfd.readouterr().out == "TODO 3 passed — hybrid_rrf_search_memories\n"


def test_calling_the_library_versions_fails_with_what_happened(ws: Any, capfd: pytest.CaptureFixture[str]) -> None:
    """A TODO that hands its work to workshop_lib.reference fails, under any import alias, and says so."""
    ns = notebook(ws, """
        from workshop_lib import reference
        from workshop_lib.reference import retrieve_knowledge as _library_search
        def _scan_tables(conn, owner):
            return reference.scan_tables(conn, owner)
        def retrieve_knowledge(query, k=5, kinds=None):
            return _library_search(query, k, kinds)
        def hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60):
            return reference.hybrid_rrf_search_memories(query, k, per_list, rrf_k, conn=agent_conn,
                                                        user_id=USER_ID, agent_id=AGENT_ID)
    """)
    for check, name, library in ((checks.todo1, "_scan_tables", "scan_tables"),
                                 (checks.todo2, "retrieve_knowledge", "retrieve_knowledge"),
                                 (checks.todo3, "hybrid_rrf_search_memories", "hybrid_rrf_search_memories")):
        with pytest.raises(AssertionError, match=rf"called the library's own {library} \(workshop_lib.reference\) "
                                                 "instead of doing the work itself"):
            check(ns[name])
    assert capfd.readouterr() == ("", "")


def test_a_copy_of_the_library_function_is_noticed_and_the_learners_code_runs_unhooked(ws: Any) -> None:
    """The library's version is noticed even as a new function object built from its code, without a profiler.

    The learner's function runs with no ``sys.setprofile``/``sys.settrace``
    hook: one of those slowed every call of the learner's code (and of what it
    imports) by half or more.
    """
    ns = notebook(ws, """
        import sys, types
        from workshop_lib import reference as _r
        hooks = []
        _copy = types.FunctionType(_r.retrieve_knowledge.__code__, _r.retrieve_knowledge.__globals__,
                                   "mine", _r.retrieve_knowledge.__defaults__)
        _copy.__kwdefaults__ = _r.retrieve_knowledge.__kwdefaults__
        def retrieve_knowledge(query, k=5, kinds=None):
            hooks.append((sys.getprofile(), sys.gettrace()))
            return _copy(query, k, kinds)
    """)
    with pytest.raises(AssertionError, match=r"called the library's own retrieve_knowledge"):
        checks.todo2(ns["retrieve_knowledge"])
    assert ns["hooks"] and set(ns["hooks"]) == {(None, None)}

# --------------------------------------------------------------------------- every mutant fails

ALL_MUTANTS = [(todo, name) for todo, module in MODULES.items() for name in mutants(module)]

# What the learner must read in the failure of each Part 4 mutant: the actual mistake.
REASONS = {
    (2, "mutant_hardcoded_answer"): "exact_agent_match=True",
    (1, "mutant_empty_string_for_missing_comment"): "is not in the required format",
    (1, "mutant_generator"): "returned a generator/iterator, not a list",
    (1, "mutant_index_internals_included"): "keep only real tables with AND t.secondary = 'N'",
    (1, "mutant_internals_left_out_by_name"): "DR$…$I (an Oracle Text index's)",
    (1, "mutant_internals_left_out_by_both_names"): "returned the right tables, but its SQL never reads SECONDARY",
    (1, "mutant_hardcoded_supplychain_tables"): "did not return exactly the tables of AGENT",
    (1, "mutant_inner_join"): "did not return exactly the tables of AGENT",
    (1, "mutant_join_on_table_name_only"): "returned the same table more than once",
    (1, "mutant_none_in_body"): "contains 'None'",
    (1, "mutant_other_owners_tables"): "did not return exactly the tables of SUPPLYCHAIN",
    (1, "mutant_owner_in_fstring"): "wrote the owner 'SUPPLYCHAIN' into the SQL text",
    (1, "mutant_subject_without_owner"): "the subject is OWNER.TABLE",
    (1, "mutant_user_tables"): "did not return exactly the tables of SUPPLYCHAIN",
    (1, "mutant_wrong_body_format"): "is not in the required format",
    (1, "mutant_wrong_kind"): "has kind 'TABLE'",
    (2, "mutant_agent_match_not_exact"): "exact_agent_match=True",
    (2, "mutant_content_as_body_key"): "returned a dict without body",
    (2, "mutant_empty_kinds_means_nothing"): "kinds=[] means no filter",
    (2, "mutant_filter_after_rerank"): "gave rerank a different candidate list",
    (2, "mutant_fixed_candidate_count"): "searched with max_results=20",
    (2, "mutant_kinds_split_not_stripped"): "split the string on commas and strip each part",
    (2, "mutant_kinds_string_not_split"): "split the string on commas and strip each part",
    (2, "mutant_missing_agent_scope"): "did not scope the search to the workshop's user and agent",
    (2, "mutant_no_oversampling"): "searched with max_results=5",
    (2, "mutant_no_rerank"): "called rerank 0 times",
    (2, "mutant_no_tool_output_filter"): "returned a tool_output memory",
    (2, "mutant_rerank_fixed_top_k"): "returned 5 results",
    (2, "mutant_worst_first"): "did not return rerank's result unchanged",
    (2, "mutant_wrong_record_types"): "searched record types ['memory', 'message']",
    (3, "mutant_ascending_sort"): "is not sorted by rrf_score, best first",
    (3, "mutant_distance_instead_of_rank"): "r_vec must be an int rank",
    (3, "mutant_full_content"): "content must be a str of at most 500 characters",
    (3, "mutant_hardcoded_rows"): "did not pass k=8 as a bind variable",
    (3, "mutant_ignores_per_list"): "did not pass per_list=30 as a bind variable",
    (3, "mutant_ignores_rrf_k"): "did not pass rrf_k=60 as a bind variable",
    (3, "mutant_inner_join"): "left out",
    (3, "mutant_keyword_helper_round_trip"): "keyword_search_memories call(s)",
    (3, "mutant_keyword_rank_ascending"): "r_txt of",
    (3, "mutant_row_per_chunk"): "a leg orders rows tied on distance or score arbitrarily",
    (3, "mutant_text_leg_unscoped"): "scope both legs",
    (3, "mutant_drafts_in_text_leg"): "keep only m.status = 'valid' memories in both legs",
    (3, "mutant_drafts_in_vector_leg"): "keep only m.status = 'valid' memories in both legs",
    (3, "mutant_tool_output_in_text_leg"): "r_txt of",
    (3, "mutant_two_round_trips"): "made 37 SQL execute call(s)",
    (3, "mutant_unescaped_keywords"): "did not bind the keyword query text_query(query)",
    (3, "mutant_vector_leg_unscoped"): "scope both legs",
    (3, "mutant_wrong_sentinel"): "r_txt of",
    (3, "mutant_zero_based_ranks"): "r_vec of",
    (3, "mutant_no_final_order_by"): "the final SELECT has no ORDER BY",
    (3, "mutant_leg_fetch_without_order"): "has no ORDER BY in the same SELECT",
    (3, "mutant_no_final_tiebreak"): "rows tied on rrf_score must be ordered by record_id",
    (3, "mutant_leg_ties_arbitrary"): "orders rows tied on distance or score arbitrarily",
    (3, "mutant_per_list_in_fstring"): "did not pass per_list=",
    (3, "mutant_rrf_k_in_fstring"): "did not pass rrf_k=",
    (3, "mutant_ids_in_fstring"): "wrote the user id",
    (3, "mutant_kind_filter_without_nvl"): "a memory whose metadata has no kind",
    (3, "mutant_keywords_in_fstring"): "wrote the keyword query",
    (3, "mutant_average_chunk_distance"): "ranks a memory by the average of its chunks' distances",
    (3, "mutant_largest_chunk_distance"): "ranks a memory by the largest of its chunks' distances",
    (3, "mutant_descending_tiebreak"): "out of record-id order",
    (3, "mutant_default_per_list_changed"): "has per_list=20; the TODO's signature is hybrid_rrf_search_memories(",
    (1, "mutant_namedtuple_of_its_own"): "returned a TableFact, not a Fact",
    (1, "mutant_metadata_with_a_subject"): "subject in it would replace the fact's own subject",
    (1, "mutant_comment_not_stripped"): "is not in the required format",
    (1, "mutant_column_comments"): "ALL_COL_COMMENTS has one row per column",
    (1, "mutant_user_tab_comments"): "says the table has no comment, but ALL_TAB_COMMENTS has one",
    (4, "mutant_refusal_names_the_states_the_wrong_way_round"): "it names the move the wrong way round",
    (4, "mutant_state_from_metadata_default_draft"): "on a memory without a lifecycle in its metadata",
    (4, "mutant_oamp_status_by_sql"): "a move goes through memory_client.update_memory only, never SQL",
    (4, "mutant_updated_at_hard_coded"): "which is not the time of the move",
    (4, "mutant_updated_at_in_tokyo_time"): "which is not in UTC (offset +09:00)",
    (4, "mutant_updated_at_str_of_datetime"): "updated_at must be ISO-8601 text as now_iso() writes it",
    (4, "mutant_returns_a_constructed_state"): "returned a state with a stale memory_id",
    (4, "mutant_metadata_passed_positionally"): "the second positional one is the content",
    (5, "mutant_drops_distant_hits"): "-accepted-far' as '[memory:<id>] text' in a system message",
    (5, "mutant_no_agent_without_hits"): "ran the agent loop 0 times",
    (5, "mutant_memories_listed_worst_first"): "listed the memories in the system message in another order",
    (5, "mutant_drafts_shown_for_context"): "gave the model a DRAFT memory",
    (5, "mutant_k_capped_at_three"): "asked retrieve_knowledge for k=3",
    (5, "mutant_model_named"): "ran the loop with model='workshop-offline/rules'",
    (2, "mutant_kinds_string_as_substring"): "kinds='guideline, table') raised TypeError",
    (2, "mutant_tool_output_when_asked_for"): "kinds='tool_output, column') returned a tool_output memory",
    (2, "mutant_oversampling_capped_at_twenty"): "expected: max_results=24 (k * 4 candidates for k=6)",
    (2, "mutant_includes_invalid_results"): "searched with include_invalid_results=True",
    (3, "mutant_content_from_offset_zero"): "content must be a str of at most 500 characters",
    (3, "mutant_ordered_by_the_sum_of_ranks"): "is not sorted by rrf_score, best first",
    (3, "mutant_fused_id_from_the_vector_leg"): "NVL(v.record_id, t.record_id)",
    (3, "mutant_fetch_k_in_the_fusion"): "FETCH FIRST :k cuts a list before the final SELECT",
    (3, "mutant_vector_leg_one_short"): "each leg keeps its top :per_list rows",
    (2, "mutant_default_k_changed"): "has k=3; the TODO's signature is retrieve_knowledge(query, k=5, kinds=None)",
    (3, "mutant_keyword_tiebreak_descending"): "the keyword leg ranks memories tied on score out of record-id order",
    (3, "mutant_vector_tiebreak_descending"): "the vector leg ranks memories tied on distance out of record-id order",
    (3, "mutant_euclidean_distance"): "measures vector distance with EUCLIDEAN, not COSINE",
    (3, "mutant_dot_distance_operator"): "measures vector distance with DOT, not COSINE",
    (3, "mutant_status_in_upper_case"): "compares m.status with 'VALID', a status no memory has",
    (5, "mutant_prompt_with_an_instruction_added"): "'s system message is not AGENT_PROMPT + '\\n\\n' + memory_block",
    (5, "mutant_memory_block_before_the_prompt"): "differs from character 0 on",
    (5, "mutant_memories_as_a_second_system_message"): "roles ['system', 'system', 'assistant', 'user']",
    (5, "mutant_ids_under_another_key"): "returned a dict without 'memory_ids'; its keys are ['answer', 'memories'",
    (5, "mutant_ids_as_a_tuple"): "returned 'memory_ids' as a tuple, not a list",
    (5, "mutant_window_without_the_system_message"): "run_agent was given manager=SlidingWindowManager(...)",
    (3, "mutant_union_of_the_legs_without_group_by"): "a UNION of the legs has a row from each leg",
    (2, "mutant_rerank_result_ignored"): "the first 3 candidates in search order, not rerank's",
    (2, "mutant_resorted_by_distance_after_rerank"): "rerank's results in another order (re-sorted after rerank)",
    (5, "mutant_hits_resorted_by_distance"): "on this call retrieve_knowledge's order is a reranker's",
    (4, "mutant_updated_at_taken_when_the_cell_ran"): "which is not the time of the move (the call ran from",
    (3, "mutant_no_keyword_fallback"): "for a question with no searchable word, text_query('?? -- !!') returns None",
    (2, "mutant_no_exact_match"): "without exact_user_match=True and exact_agent_match=True",
    (2, "mutant_drops_kindless_memories"): "a memory whose metadata has no kind",
    (1, "mutant_owner_not_upper_cased"): "owner = owner.upper() first",
    (1, "mutant_descending_order"): "returned the tables out of order",
    (1, "mutant_metadata_without_source"): "the metadata of SUPPLYCHAIN",
    (1, "mutant_query_df"): "ran no SQL through its conn argument, yet returned facts",
    (2, "mutant_candidates_reversed"): "in a different ORDER than the search returned them",
    (4, "mutant_no_refusal"): "the lifecycle does not allow it",
    (4, "mutant_value_error"): "raised ValueError",
    (4, "mutant_vague_message"): "does not name both states",
    (4, "mutant_writes_before_checking"): "changed the memory before refusing",
    (4, "mutant_discard_stays_valid"): "left OAMP's record status 'valid'",
    (4, "mutant_metadata_only"): "left OAMP's record status",
    (4, "mutant_drops_metadata"): "lost or changed other metadata keys",
    (4, "mutant_keeps_updated_at"): "did not set updated_at",
    (4, "mutant_returns_none"): "returned None",
    (4, "mutant_accepted_back_to_draft"): "accepted -> draft",
    (4, "mutant_two_updates"): "called memory_client.update_memory 2 times",
    (4, "mutant_calls_the_library"): "called the library's own set_memory_status",
    (4, "mutant_unknown_status_accepted"): "is not a status",
    (4, "mutant_status_name_in_metadata"): "stored 'ACCEPTED' in the metadata's 'lifecycle'",
    (4, "mutant_updated_at_epoch_seconds"): "updated_at must be ISO-8601 text as now_iso() writes it",
    (4, "mutant_with_agent_conn"): "your function closed the shared connection",
    (4, "mutant_updates_the_global_memory_id"): "called memory_client.update_memory('fact-table-supplychain-vessels'",
    (4, "mutant_writes_through_ws_client"): "use the notebook's memory_client",
    (4, "mutant_returns_the_old_state_restatused"): "returned a state with a stale oamp_status",
    (4, "mutant_one_message_for_every_refusal"): "the same message as for the refused move",
    (5, "mutant_no_retrieval"): "called retrieve_knowledge 0 times",
    (5, "mutant_every_kind"): "retrieved kinds=None",
    (5, "mutant_fixed_k"): "asked retrieve_knowledge for k=3",
    # the first call finds no correction, so the missing memory_block shows as its "No reviewed memories" line
    (5, "mutant_ids_not_in_prompt"): "No reviewed memories apply to this question.'",
    (5, "mutant_memories_after_question"): "did not end the messages with the question",
    (5, "mutant_rewritten_question"): "did not end the messages with the question",
    (5, "mutant_no_tools"): "without the notebook's tools",
    (5, "mutant_subjects_as_ids"): "reported memory_ids",
    (5, "mutant_canned_answer"): "an answer that is not the agent's",
    (5, "mutant_two_runs"): "ran the agent loop 2 times",
    (5, "mutant_includes_drafts"): "called retrieve_knowledge 0 times",
    (5, "mutant_calls_the_library"): "called the library's own grounded_answer",
    (5, "mutant_one_step"): "stopped before answering (step_limit after 1 step(s))",
    (5, "mutant_no_run_key"): 'returned no "run"',
    (5, "mutant_run_messages"): 'returned "run": [',
    (5, "mutant_no_prompt"): "did not put AGENT_PROMPT in the system message",
    (5, "mutant_only_the_best"): "(3 retrieved, every one goes in)",
    (5, "mutant_ids_reversed"): "reported memory_ids",
    (5, "mutant_tools_positional"): "called run_agent with arguments it does not take",
    (5, "mutant_k_without_default"): "has k without a default; the TODO's signature is grounded_answer(question, k=3)",
    (5, "mutant_k_default_five"): "has k=5; the TODO's signature is grounded_answer(question, k=3)",
    (5, "mutant_own_toolbox"): "with tools other than the notebook's agent_tools",
}


@pytest.mark.parametrize("todo", [1, 2, 3, 4, 5])
def test_each_todo_has_at_least_eight_mutants(todo: int) -> None:
    found = mutants(MODULES[todo])
    assert len(found) >= (12 if todo <= 3 else 8), sorted(found)
    assert {(todo, name) for name in found} <= set(REASONS), "every mutant names the message a learner must see"
    assert all((fn.__doc__ or "").strip() for fn in found.values()), "every mutant says what is wrong with it"


@pytest.mark.parametrize(("todo", "name"), ALL_MUTANTS, ids=[f"todo{t}-{n}" for t, n in ALL_MUTANTS])
def test_mutant_fails_its_check(ws: Any, todo: int, name: str, capfd: pytest.CaptureFixture[str]) -> None:
    before = store_state(ws)
    with pytest.raises(AssertionError) as failure:
        CHECKS[todo](getattr(MODULES[todo], name))
    message = str(failure.value)
    assert message.startswith(f"TODO {todo} ({NAMES[todo]}) failed: "), message
    assert "\n  hint: " in message or "\n  expected: " in message, f"no hint or expectation for the learner: {message}"
    if (todo, name) in REASONS:
        assert REASONS[(todo, name)] in message, message
    out, err = capfd.readouterr()
    assert out == "" and err == "", "a failing check prints nothing; the AssertionError says it all"
    assert store_state(ws) == before


# --------------------------------------------------------------------------- bad input

BAD_INPUT = """
    import time

    def raises(*args, **kwargs):
        raise ValueError("the learner's own bug")

    def not_implemented(*args, **kwargs):
        # YOUR CODE HERE
        raise NotImplementedError()

    def returns_none(*args, **kwargs):
        rows = []

    def generator(*args, **kwargs):
        yield {"kind": "table"}

    def endless(*args, **kwargs):
        while True:
            pass

    def stubborn(*args, **kwargs):
        while True:
            try:
                time.sleep(0.01)
            except Exception:
                pass

    def closes_argument(conn, owner):
        conn.close()
        return []

    def closes_global(query, k=5, per_list=30, rrf_k=60):
        with agent_conn:
            pass
        return []

    def leaves_transaction(conn, owner):
        cur = conn.cursor()
        cur.execute("INSERT INTO eda_onnx_thread (record_id) VALUES ('check-bad-input')")
        return []

    def uses_global_connection(conn, owner):
        with agent_conn.cursor() as cur:
            cur.execute("SELECT table_name FROM all_tables WHERE owner = :owner", owner=owner)
            return [Fact("table", f"{owner}.{t}", f"Table {owner}.{t}.") for (t,) in cur.fetchall()]

    def noisy(query, k=5, kinds=None):
        import logging, sys, warnings
        print("debugging output")
        print("oops", file=sys.stderr)
        warnings.warn("a warning")
        logging.getLogger("learner").error("a log record")
        return None
"""

CASES: list[tuple[int, str, str]] = [
    (1, "raises", r"raised ValueError: the learner's own bug"),
    (2, "raises", r"raised ValueError: the learner's own bug"),
    (3, "raises", r"raised ValueError: the learner's own bug"),
    (1, "not_implemented", r"TODO 1 is not implemented yet"),
    (2, "not_implemented", r"TODO 2 is not implemented yet"),
    (3, "not_implemented", r"TODO 3 is not implemented yet"),
    (1, "returns_none", r"(?s)returned None\..*return <your list>"),
    (2, "returns_none", r"returned None\."),
    (3, "generator", r"returned a generator/iterator, not a list"),
    (2, "generator", r"returned a generator/iterator, not a list"),
    (1, "closes_argument", r"closed the shared connection"),
    (3, "closes_global", r"closed the shared connection"),
    (1, "leaves_transaction", r"changed the database; it must only read"),
    (2, "noisy", r"returned None\.(.|\n)*debugging output(.|\n)*oops"),
    (1, "uses_global_connection", r"queried the notebook global agent_conn instead of its conn argument"),
]


@pytest.mark.parametrize(("todo", "fn", "pattern"), CASES, ids=[f"todo{t}-{f}" for t, f, _ in CASES])
def test_bad_input_fails_with_a_clear_message(ws: Any, todo: int, fn: str, pattern: str,
                                              capfd: pytest.CaptureFixture[str]) -> None:
    ns = notebook(ws, BAD_INPUT)
    globals_before = {name: ns[name] for name in ("agent_conn", "memory_client", "rerank")}
    with pytest.raises(AssertionError, match=pattern) as failure:
        CHECKS[todo](ns[fn])
    assert f"TODO {todo} ({NAMES[todo]}) failed" in str(failure.value)
    assert "hint:" in str(failure.value)
    assert {name: ns[name] for name in globals_before} == globals_before
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    with ws.conn.cursor() as cur:  # the shared connection is open, with nothing left uncommitted
        cur.execute("SELECT COUNT(*) FROM eda_onnx_thread WHERE record_id = 'check-bad-input'")
        assert cur.fetchone()[0] == 0


@pytest.mark.parametrize("fn", ["endless", "stubborn"])
def test_endless_function_times_out_and_is_stopped(ws: Any, fn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(checks.TIMEOUT_ENV, "0.5")
    ns = notebook(ws, BAD_INPUT)
    with pytest.raises(AssertionError, match=r"did not return within 0\.5 s\b"):
        checks.todo3(ns[fn])
    assert not [t for t in threading.enumerate() if t.name.startswith("workshop-check")], \
        "the runaway learner thread must be stopped"


def test_timeout_argument_overrides_environment(ws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(checks.TIMEOUT_ENV, "600")
    ns = notebook(ws, BAD_INPUT)
    with pytest.raises(AssertionError, match=r"within 0\.3 s\b"):
        checks.todo2(ns["endless"], timeout=0.3)


@pytest.mark.parametrize("todo", [1, 2, 3])
def test_correct_function_still_passes_after_bad_input(ws: Any, todo: int,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A broken TODO does not break the workshop: bad calls first, then the solution passes."""
    ns = notebook(ws, BAD_INPUT)
    bad = {1: ["closes_argument", "leaves_transaction", "raises"], 2: ["noisy", "generator"],
           3: ["closes_global", "raises"]}[todo]
    for name in bad:
        with pytest.raises(AssertionError):
            CHECKS[todo](ns[name], timeout=5)
    with pytest.raises(AssertionError):
        CHECKS[todo](ns["endless"], timeout=0.3)
    capsys.readouterr()
    CHECKS[todo](MODULES[todo].solution)
    assert capsys.readouterr().out == f"TODO {todo} passed — {NAMES[todo]}\n"


@pytest.mark.parametrize("value", [None, "retrieve_knowledge", 42])
def test_not_a_function(ws: Any, value: Any) -> None:
    with pytest.raises(AssertionError, match=r"the check needs your function"):
        checks.todo2(value)


def test_missing_notebook_global_is_named(ws: Any) -> None:
    ns = notebook(ws, """
        def retrieve_knowledge(query, k=5, kinds=None):
            return []
    """)
    del ns["memory_client"]
    with pytest.raises(AssertionError, match=r"memory_client .*not defined(.|\n)*setup cell"):
        checks.todo2(ns["retrieve_knowledge"])


def test_stale_probe_memories_are_removed(ws: Any) -> None:
    """Probes left by an interrupted check (kernel killed mid-check) are cleaned by the next check."""
    stale = f"{checks.PROBE_PREFIX}stale-test"
    ws.memory_client.add_memory("TEU 20-foot equivalent capacity unit for vessels", user_id=ws.user_id,
                                agent_id=ws.agent_id, memory_id=stale,
                                metadata={"kind": "column", "subject": "SUPPLYCHAIN.VESSELS.CAPACITY_TEU"})
    checks.todo3(todo3.solution)
    with ws.conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {config.MEMORY_TABLE} WHERE record_id = :rid", rid=stale)
        assert cur.fetchone()[0] == 0


def test_another_kernels_live_probes_survive_a_check(ws: Any) -> None:
    """Two kernels on one home: a check removes only stale probes, never another check's live ones."""
    from workshop_lib.checks.scratch import new_probe_run

    live = f"{checks.PROBE_PREFIX}{new_probe_run()}-other-kernel"
    ws.memory_client.add_memory("a probe of a check running in another kernel", user_id=ws.user_id,
                                agent_id=ws.agent_id, memory_id=live, metadata={"kind": "column"})
    try:
        checks.todo2(todo2.solution)
        with ws.conn.cursor() as cur:
            cur.execute(f"SELECT COUNT(*) FROM {config.MEMORY_TABLE} WHERE record_id = :rid", rid=live)
            assert cur.fetchone()[0] == 1
    finally:
        ws.memory_client.delete_memory(live)


def test_failure_message_says_expected_got_and_hint(ws: Any) -> None:
    with pytest.raises(AssertionError) as failure:
        checks.todo2(todo2.mutant_no_oversampling)
    lines = str(failure.value).splitlines()
    assert re.match(r"TODO 2 \(retrieve_knowledge\) failed: .*max_results=5", lines[0])
    assert any(line.strip().startswith("expected: max_results=20") for line in lines)
    assert any(line.strip().startswith("got:") for line in lines)
    assert any(line.strip().startswith("hint:") and "k * 4" in line for line in lines)
    assert failure.value.__cause__ is None and failure.value.__suppress_context__


def test_failure_of_the_check_itself_is_reported_as_environment_problem(
        ws: Any, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    def database_gone(_ws: Any) -> None:
        raise RuntimeError("database went away")

    # The package attribute todo3 is the check function; its module is where the name is looked up.
    monkeypatch.setattr(importlib.import_module("workshop_lib.checks.todo3"), "_remove_stale_probes", database_gone)
    with pytest.raises(AssertionError, match=r"(?s)could not be graded.*RuntimeError: database went away.*"
                                             r"not of your function"):
        checks.todo3(todo3.solution)
    assert capfd.readouterr() == ("", "")


def test_a_committed_write_is_not_claimed_to_be_rolled_back(ws: Any) -> None:
    """A TODO that writes and commits fails with an honest message: the change could not be rolled back."""
    ns = notebook(ws, """
        def hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60):
            with agent_conn.cursor() as cur:
                cur.execute("UPDATE eda_onnx_memory SET timestamp = timestamp WHERE 1 = 0")
            agent_conn.commit()
            return []
    """)
    with pytest.raises(AssertionError) as failure:
        checks.todo3(ns["hybrid_rrf_search_memories"])
    message = str(failure.value)
    assert "could not be rolled back" in message and "rolled your change back" not in message
    assert "found the seed, the memories' vectors and the text index intact" in message


def test_damage_committed_by_a_todo_is_repaired_and_named(ws: Any) -> None:
    """Vectors deleted and the text index dropped inside a TODO: the check restores both and says so."""
    ns = notebook(ws, """
        def hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60):
            with agent_conn.cursor() as cur:
                cur.execute("DELETE FROM eda_onnx_record_chunks WHERE source_id = (SELECT MIN(record_id) FROM eda_onnx_memory)")
                cur.execute("DROP INDEX eda_onnx_memory_ctx")
            return []
    """)
    with pytest.raises(AssertionError) as failure:
        checks.todo3(ns["hybrid_rrf_search_memories"])
    message = str(failure.value)
    assert "the Oracle Text index recreated" in message and "memories re-embedded" in message, message
    checks.todo3(todo3.solution)   # the next correct solution passes on the repaired data


def test_todo2_hints_name_every_search_argument_the_instructions_require() -> None:
    """The check's hints and the notebook's solution agree on memory_client.search's arguments."""
    import ast
    import inspect as _inspect
    import re as _re

    from workshop_lib.checks import todo2 as _todo2_module  # noqa: F401 - the function, see below
    from workshop_lib.release import REPO_ROOT, read_notebook

    nb = read_notebook(REPO_ROOT / "solutions" / "03_retrieval" / "03_retrieval.ipynb")
    cell = next(c.source for c in nb.cells if c.cell_type == "code" and c.source.startswith("# TODO 2"))
    call = next(n for n in ast.walk(ast.parse(cell)) if isinstance(n, ast.Call)
                and getattr(n.func, "attr", "") == "search")
    required = {kw.arg for kw in call.keywords}
    source = _inspect.getsource(__import__("importlib").import_module("workshop_lib.checks.todo2"))
    hints = " ".join(_re.findall(r'hint="([^"]*memory_client\.search[^"]*"(?:\s*"[^"]*")*)', source))
    assert required <= set(_re.findall(r"(\w+)=", hints)), (required, hints)


def test_long_lists_in_messages_say_how_many_more() -> None:
    from workshop_lib.checks.harness import _listed

    assert _listed(["a", "b"]) == "['a', 'b']"
    six = [f"T{i}" for i in range(6)]
    assert _listed(six, limit=5) == "['T0', 'T1', 'T2', 'T3', 'T4', ... and 1 more]"


def test_a_failed_check_shows_only_its_message_in_ipython(capsys: pytest.CaptureFixture[str]) -> None:
    """No traceback through contextlib/harness: IPython renders the message; the cell still fails."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        result = shell.run_cell(
            "from workshop_lib.checks.harness import CheckFailure\n"
            "def check():\n"
            "    raise CheckFailure('TODO 9 (f) failed: it returned None.\\n  hint: return the list.')\n"
            "check()\n")
    finally:
        InteractiveShell.clear_instance()
    out = capsys.readouterr()
    shown = out.out + out.err
    assert not result.success and isinstance(result.error_in_exec, AssertionError)
    assert "TODO 9 (f) failed: it returned None." in shown and "hint: return the list." in shown
    assert "Traceback" not in shown and "def check" not in shown and "harness.py" not in shown
