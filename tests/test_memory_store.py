"""LiteMemoryStore against the behaviour OAMP documents for its stores.

Every example of OAMP's "Stores and Schema" API page (and of the installed
package's docstrings) runs here as a test, followed by the edge
cases the pages spell out: metadata filters, exact scope matching, k
validation, update/delete semantics, cascades and deterministic ids.
Expected rankings are recomputed independently with numpy from the same
embedder, never taken from the store.
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
from oracleagentmemory.apis.memorystore import PendingRecordBatch
from oracleagentmemory.apis.message import TextContent
from oracleagentmemory.apis.records import MemoryRecord, RecordStatus, UserProfileRecord

from workshop_lib.config import CHUNKS_TABLE, EMBED_DIM, MEMORY_TABLE
from workshop_lib.embedding import build_model
from workshop_lib.embedding.oamp_embedder import LiteOnnxEmbedder
from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.memory import LiteMemoryStore, _oamp


@pytest.fixture(scope="session")
def embedder(tmp_path_factory) -> LiteOnnxEmbedder:
    """The workshop's real embedding model (built once per session from the pinned package)."""
    return LiteOnnxEmbedder(build_model(tmp_path_factory.getbasetemp() / "memory_model_home").path)


def cosine_distance(embedder: LiteOnnxEmbedder, a: str, b: str) -> float:
    """Independent numpy recomputation of the distance the store ranks by."""
    va, vb = embedder.embed([a, b]).astype(np.float64)
    return float(1.0 - np.dot(va, vb) / (np.linalg.norm(va) * np.linalg.norm(vb)))


@pytest.fixture(scope="session")
def schema_template(tmp_path_factory, embedder) -> Path:
    """A lite home whose memory tables exist (their DDL takes ~0.4 s; copying the files ~10 ms)."""
    home = tmp_path_factory.mktemp("memory_schema_template")
    connection = connect(home)
    LiteMemoryStore(connection, embedder)
    connection.close()
    return home


@pytest.fixture()
def conn(tmp_path: Path, schema_template: Path):
    home = tmp_path / "home"
    shutil.copytree(schema_template, home)
    connection = connect(home)
    yield connection
    connection.close()


@pytest.fixture()
def store(conn, embedder) -> LiteMemoryStore:
    return LiteMemoryStore(conn, embedder)


def ids(results) -> list[str]:
    return [record.id for record, _ in results]


def count(conn, sql: str, **binds) -> int:
    with conn.cursor() as cur:
        cur.execute(sql, binds)
        return cur.fetchone()[0]


# --------------------------------------------------------------------------- reference-page examples


def test_page_search_example(store):
    assert store.add(["Searchable abstract memory"], record_type="memory",
                     record_ids="mem-search-abstract-docs") == ["mem-search-abstract-docs"]
    assert store.search("Searchable", 1, record_types={"memory"})[0][0].id == "mem-search-abstract-docs"


def test_page_scalar_metadata_example(store):
    assert store.add(["pizza release"], record_type="memory", record_ids="mem-search-meta-source-docs",
                     metadata={"source": "slack"}) == ["mem-search-meta-source-docs"]
    assert any(r.id == "mem-search-meta-source-docs"
               for r, _ in store.search("pizza", k=3, metadata_filter={"source": "slack"}))


def test_page_nested_metadata_example(store):
    assert store.add(["pizza review"], record_type="memory", record_ids="mem-search-meta-review-docs",
                     metadata={"review": {"status": "open"}}) == ["mem-search-meta-review-docs"]
    assert any(r.id == "mem-search-meta-review-docs"
               for r, _ in store.search("pizza", k=3, metadata_filter={"review": {"status": "open"}}))


def test_page_exact_list_metadata_example(store):
    assert store.add(["pizza tags"], record_type="memory", record_ids="mem-search-meta-tags-docs",
                     metadata={"tags": ["prod", "urgent"]}) == ["mem-search-meta-tags-docs"]
    assert any(r.id == "mem-search-meta-tags-docs"
               for r, _ in store.search("pizza", k=3, metadata_filter={"tags": ["prod", "urgent"]}))


def test_docstring_array_contains_and_combined_examples(store):
    store.add(["pizza rollout"], record_type="memory", record_ids="mem-search-meta-combined-docs2",
              metadata={"source": "slack", "review": {"status": "open"}, "tags": ["prod", "urgent"]})
    assert ids(store.search("pizza", k=5, metadata_filter={"tags": {"$array_contains": "prod"}})) == [
        "mem-search-meta-combined-docs2"]
    combined = {"source": "slack", "review": {"status": "open"}, "tags": ["prod", "urgent"]}
    assert ids(store.search("pizza", k=5, metadata_filter=combined)) == ["mem-search-meta-combined-docs2"]


def test_page_thread_scoped_search_example(store):
    # The DB store rejects writes to an unknown thread, so the thread exists first.
    store._create_thread_record("c-search-docs", None, None, None, None)
    assert store.add(["pizza preference"], record_type="memory", record_ids="mem-search-docs",
                     thread_ids="c-search-docs") == ["mem-search-docs"]
    store.add(["pizza preference"], record_type="memory", record_ids="mem-elsewhere")
    results = store.search("pizza", 1, thread_id="c-search-docs", exact_thread_match=True,
                           record_types={"memory"})
    assert results[0][0].id == "mem-search-docs"


def test_page_add_agent_and_add_user_examples(store):
    assert store.add_agent("a-docs-agent", "Support assistant") == "a-docs-agent"
    assert store.add_user("u-docs-profile", "Prefers concise answers.") == "u-docs-profile"
    agent = store.get("agent_profile", "a-docs-agent")
    user = store.get("user_profile", "u-docs-profile")
    assert (agent.content, user.content) == ("Support assistant", "Prefers concise answers.")
    assert isinstance(user, UserProfileRecord)


def test_page_delete_example(store):
    assert store.add(["Delete me"], record_type="memory", record_ids="mem-delete-docs") == ["mem-delete-docs"]
    assert store.delete("memory", "mem-delete-docs") == 1
    assert store.get("memory", "mem-delete-docs") is None
    assert store.delete("memory", "mem-delete-docs") == 0


def test_page_delete_thread_and_list_thread_messages_examples(store):
    assert store.delete_thread("c1") == 0
    assert store.list_thread_messages("c1") == []


def test_page_get_example(store):
    assert store.add(["Remember this"], record_type="memory", record_ids="mem-get-docs") == ["mem-get-docs"]
    record = store.get("memory", "mem-get-docs")
    assert record.id == "mem-get-docs" and record.content == "Remember this"
    assert isinstance(record, MemoryRecord) and record.status is RecordStatus.VALID
    assert record.timestamp  # creation time when no caller timestamp was given


def test_page_list_examples(store):
    assert store.add(["First listed", "Second listed"], record_type="memory",
                     record_ids=["mem-list-docs-1", "mem-list-docs-2"]) == ["mem-list-docs-1", "mem-list-docs-2"]
    assert [r.id for r in store.list("memory", limit=2)] == ["mem-list-docs-1", "mem-list-docs-2"]
    assert store.add_user("u-list-docs", "Prefers concise answers.") == "u-list-docs"
    assert any(r.id == "u-list-docs" for r in store.list("user_profile", user_id=None, limit=10))


def test_page_update_example(store):
    assert store.add(["Original note"], record_type="memory", record_ids="mem-update-docs") == ["mem-update-docs"]
    with pytest.warns(DeprecationWarning):  # the page uses text=, deprecated in 26.8 for content=
        assert store.update("memory", "mem-update-docs", text="Updated note") == 1
    assert store.get("memory", "mem-update-docs").content == "Updated note"
    assert store.update("memory", "mem-update-docs", content="Updated twice") == 1
    assert store.get("memory", "mem-update-docs").content == "Updated twice"


def test_docstring_add_batches_example(store):
    assert store.add_batches([PendingRecordBatch(contents=["pizza batch"], record_type="memory",
                                                 record_ids="mem-batch-docs")]) == ["mem-batch-docs"]
    assert store.get("memory", "mem-batch-docs").content == "pizza batch"


# --------------------------------------------------------------------------- metadata filters


@pytest.fixture()
def tagged(store):
    store.add(
        ["pizza one", "pizza two", "pizza three", "pizza four", "pizza five"],
        record_type="memory",
        record_ids=["m-exact", "m-reversed", "m-longer", "m-nested", "m-none"],
        metadata=[
            {"tags": ["prod", "urgent"], "n": 1},
            {"tags": ["urgent", "prod"], "n": "1"},
            {"tags": ["prod", "urgent", "extra"]},
            {"review": {"status": "open", "by": "ana"}, "tags": ["prod"]},
            None,
        ],
    )
    return store


@pytest.mark.parametrize(
    ("metadata_filter", "expected"),
    [
        ({"tags": ["prod", "urgent"]}, {"m-exact"}),           # list: order and length must match
        ({"tags": ["urgent", "prod"]}, {"m-reversed"}),
        ({"tags": ["prod"]}, {"m-nested"}),                     # no subset matching for lists
        ({"n": 1}, {"m-exact"}),                                # JSON number is not the string "1"
        ({"n": "1"}, {"m-reversed"}),
        ({"review": {"status": "open"}}, {"m-nested"}),         # nested dicts match recursively
        ({"review": {"status": "closed"}}, set()),
        ({"review": {"status": "open", "by": "bo"}}, set()),
        ({"missing": "x"}, set()),                               # a requested key must exist
        ({"tags": {"$array_contains": "extra"}}, {"m-longer"}),
        ({"tags": ["prod", "urgent"], "n": 1}, {"m-exact"}),  # entries combine with AND
        ({}, {"m-exact", "m-reversed", "m-longer", "m-nested", "m-none"}),
    ],
)
def test_metadata_filter_in_search_and_list(tagged, metadata_filter, expected):
    found = {r.id for r, _ in tagged.search("pizza", k=10, metadata_filter=metadata_filter)}
    assert found == expected
    assert {r.id for r in tagged.list("memory", metadata_filter=metadata_filter)} == expected


def test_list_metadata_filter_none_means_no_metadata(tagged):
    assert [r.id for r in tagged.list("memory", metadata_filter=None)] == ["m-none"]
    assert len(tagged.list("memory")) == 5  # omitted: no filtering


def test_metadata_filter_search_walks_past_the_first_window(store, embedder):
    # 60 near matches without the tag, then one far match with it: the filter must not stop at k*4.
    store.add([f"pizza oven note {i}" for i in range(60)], record_type="memory")
    store.add(["pizza"], record_type="memory", record_ids="far-tagged", metadata={"team": "red"})
    store.add(["unrelated words entirely"], record_type="memory", record_ids="farther-tagged",
              metadata={"team": "red"})
    results = store.search("pizza oven note", k=2, metadata_filter={"team": "red"})
    expected = sorted(["far-tagged", "farther-tagged"], key=lambda rid: cosine_distance(
        embedder, "pizza oven note", {"far-tagged": "pizza", "farther-tagged": "unrelated words entirely"}[rid]))
    assert ids(results) == expected
    nearest = store.search("pizza oven note", k=1)[0][1]
    assert all(distance > nearest for _, distance in results)  # both lie beyond the untagged near matches


def test_invalid_metadata_filter_is_a_value_error(store):
    with pytest.raises(ValueError):
        store.search("pizza", k=1, metadata_filter="source=slack")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- scope


@pytest.fixture()
def scoped(store):
    same = "Vessel capacity is measured in TEU"
    store.add([same, same, same, same], record_type="memory",
              record_ids=["mine", "other-user", "unscoped", "other-agent"],
              user_ids=["u1", "u2", None, "u1"], agent_ids=["a1", "a1", None, "a2"])
    return store


def test_other_users_identical_memory_never_appears_in_exact_search(scoped):
    results = scoped.search("Vessel capacity TEU", k=10, user_id="u1", agent_id="a1",
                            exact_user_match=True, exact_agent_match=True, record_types={"memory"})
    assert ids(results) == ["mine"]


def test_scope_flags_off_leave_the_dimension_unconstrained(scoped):
    results = scoped.search("Vessel capacity TEU", k=10, user_id="u1", agent_id="a1")
    assert set(ids(results)) == {"mine", "other-user", "unscoped", "other-agent"}


def test_exact_match_on_one_dimension_only(scoped):
    assert set(ids(scoped.search("TEU", k=10, user_id="u1", exact_user_match=True))) == {"mine", "other-agent"}
    assert set(ids(scoped.search("TEU", k=10, agent_id="a1", exact_agent_match=True))) == {"mine", "other-user"}


def test_exact_match_with_none_means_unscoped_on_that_dimension(scoped):
    assert ids(scoped.search("TEU", k=10, user_id=None, exact_user_match=True)) == ["unscoped"]
    assert ids(scoped.search("TEU", k=10, user_id=None, agent_id=None, thread_id=None,
                             exact_user_match=True, exact_agent_match=True, exact_thread_match=True)) == ["unscoped"]


def test_profiles_are_scoped_to_their_own_actor_id_in_search(store):
    store.add_user("u1", "Loves container vessels")
    store.add_user("u2", "Loves container vessels")
    store.add_agent("a1", "Loves container vessels")
    found = ids(store.search("container vessels", k=10, user_id="u1", exact_user_match=True))
    assert "u1" in found and "u2" not in found
    assert "a1" not in found  # an agent profile is unscoped on the user dimension
    found = ids(store.search("container vessels", k=10, agent_id="a1", exact_agent_match=True))
    assert found == ["a1"]


def test_list_scope_filters_are_exact_and_none_means_null(scoped):
    assert {r.id for r in scoped.list("memory", user_id="u1")} == {"mine", "other-agent"}
    assert [r.id for r in scoped.list("memory", user_id=None)] == ["unscoped"]
    assert [r.id for r in scoped.list("memory", user_id="u1", agent_id="a2")] == ["other-agent"]
    assert len(scoped.list("memory")) == 4


def test_list_limit_keeps_most_recent_in_insertion_order(store):
    store.add([f"note {i}" for i in range(5)], record_type="memory", record_ids=[f"n{i}" for i in range(5)])
    assert [r.id for r in store.list("memory", limit=2)] == ["n3", "n4"]
    assert [r.id for r in store.list("memory", limit=None)] == [f"n{i}" for i in range(5)]
    with pytest.raises(ValueError):
        store.list("memory", limit=0)


# --------------------------------------------------------------------------- search contract


@pytest.mark.parametrize("k", [0, -1, -100])
def test_k_below_one_raises_value_error(store, k):
    store.add(["anything"], record_type="memory")
    with pytest.raises(ValueError, match="k must be at least 1"):
        store.search("anything", k)


def test_exactly_one_of_query_and_query_vector(store, embedder):
    vector = embedder.embed(["x"])[0].tolist()
    with pytest.raises(ValueError, match="exactly one"):
        store.search("x", 1, query_vector=vector)
    with pytest.raises(ValueError, match="exactly one"):
        store.search(None, 1)


def test_results_are_sorted_by_cosine_distance_computed_in_sql(store, embedder):
    texts = ["container ship capacity", "vessel positions by day", "port calls and berths",
             "capacity of a vessel in TEU", "crew lists", "ship capacity"]
    store.add(texts, record_type="memory", record_ids=[f"t{i}" for i in range(len(texts))])
    query = "vessel capacity"
    expected = sorted((cosine_distance(embedder, query, t), f"t{i}") for i, t in enumerate(texts))
    results = store.search(query, 4)
    assert ids(results) == [rid for _, rid in expected[:4]]
    for (_, distance), (want, _) in zip(results, expected[:4], strict=True):
        assert distance == pytest.approx(want, abs=1e-5)
    assert [d for _, d in results] == sorted(d for _, d in results)


def test_query_vector_search_and_best_chunk_per_record(store, embedder):
    store.add(["alpha text"], record_type="memory", record_ids="chunked",
              index_texts=[["first chunk about ports", "second chunk about vessels"]])
    store.add(["vessels"], record_type="memory", record_ids="plain")
    vector = embedder.embed(["second chunk about vessels"])[0]
    results = store.search(None, 5, query_vector=vector.tolist())
    assert results[0][0].id == "chunked" and results[0][1] == pytest.approx(0.0, abs=1e-5)
    assert ids(results).count("chunked") == 1  # ranked once, by its best chunk


def test_record_types_and_invalid_status(store):
    store.add(["shared words here"], record_type="memory", record_ids="a-memory")
    store.add(["shared words here"], record_type="fact", record_ids="a-fact", statuses="invalid")
    assert ids(store.search("shared words", 5, record_types={"fact"})) == ["a-fact"]
    assert set(ids(store.search("shared words", 5))) == {"a-memory", "a-fact"}
    assert ids(store.search("shared words", 5, include_invalid_results=False)) == ["a-memory"]
    with pytest.raises(ValueError):
        store.search("shared", 5, record_types={"bogus"})
    with pytest.raises(NotImplementedError, match="lite"):
        store.search("shared", 5, record_types={"image"})


def test_search_runs_from_worker_threads(store):
    # OracleAgentMemory calls search on AnyIO worker threads.
    store.add(["threaded search"], record_type="memory", record_ids="th")
    found: list[str] = []
    worker = threading.Thread(target=lambda: found.extend(ids(store.search("threaded", 1))))
    worker.start()
    worker.join()
    assert found == ["th"]


# --------------------------------------------------------------------------- ids and transactions


def test_readding_an_existing_id_raises_and_leaves_one_row(store, conn):
    store.add(["first version"], record_type="memory", record_ids="fact-1")
    with pytest.raises(ValueError, match="Duplicate record_ids"):
        store.add(["second version"], record_type="memory", record_ids="fact-1")
    with pytest.raises(ValueError, match="Duplicate record_ids"):  # same table for every memory-like type
        store.add(["second version"], record_type="fact", record_ids="fact-1")
    assert count(conn, f"SELECT COUNT(*) FROM {MEMORY_TABLE} WHERE record_id = :r", r="fact-1") == 1
    assert count(conn, f"SELECT COUNT(*) FROM {CHUNKS_TABLE} WHERE source_id = :r", r="fact-1") == 1
    assert store.get("memory", "fact-1").content == "first version"


def test_failed_batch_is_rolled_back_entirely(store, conn):
    store.add(["existing"], record_type="memory", record_ids="existing")
    with pytest.raises(ValueError):
        store.add(["new one", "clash"], record_type="memory", record_ids=["brand-new", "existing"])
    assert store.get("memory", "brand-new") is None
    assert count(conn, f"SELECT COUNT(*) FROM {CHUNKS_TABLE}") == 1


def test_duplicate_ids_within_a_batch_and_generated_ids(store):
    with pytest.raises(ValueError, match="Duplicate"):
        store.add(["a", "b"], record_type="memory", record_ids=["same", "same"])
    generated = store.add(["a", "b", "c"], record_type="memory")
    assert len(set(generated)) == 3 and all(store.get("memory", g) for g in generated)


def test_duplicate_profile_raises(store):
    store.add_user("u1", "first")
    with pytest.raises(ValueError, match="User profile already exists"):
        store.add_user("u1", "again")
    with pytest.raises(ValueError, match="different type"):
        store.add_agent("u1", "an agent with a user's id")


def test_unknown_thread_is_rejected(store):
    with pytest.raises(ValueError, match="Unknown thread_id"):
        store.add(["x"], record_type="memory", thread_ids="no-such-thread")


# --------------------------------------------------------------------------- update semantics


def test_update_content_reembeds(store):
    store.add(["cargo manifest"], record_type="memory", record_ids="u")
    store.update("memory", "u", content="berth schedule")
    (record, distance), = store.search("berth schedule", 1)
    assert record.id == "u" and distance == pytest.approx(0.0, abs=1e-5)


def test_update_index_text_keeps_content(store):
    store.add(["cargo manifest"], record_type="memory", record_ids="u")
    store.update("memory", "u", index_text="berth schedule")
    (record, distance), = store.search("berth schedule", 1)
    assert record.content == "cargo manifest" and distance == pytest.approx(0.0, abs=1e-5)


def test_update_with_explicit_embedding_and_clearing_it(store, embedder):
    store.add(["cargo manifest"], record_type="memory", record_ids="u")
    vector = embedder.embed(["totally different words"])[0]
    assert store.update("memory", "u", embedding=vector.tolist()) == 1
    (record, distance), = store.search(None, 1, query_vector=vector.tolist())
    assert record.id == "u" and distance == pytest.approx(0.0, abs=1e-5)
    assert store.update("memory", "u", embedding=None) == 1
    assert store.search("cargo manifest", 5) == []
    assert store.get("memory", "u").content == "cargo manifest"


def test_update_content_none_clears_text_and_embedding(store, conn):
    store.add(["cargo manifest"], record_type="memory", record_ids="u")
    with pytest.raises(ValueError):
        store.update("memory", "u", content=None, embedding=[0.1] * EMBED_DIM)
    assert store.update("memory", "u", content=None) == 1
    assert store.get("memory", "u").content is None
    assert count(conn, f"SELECT COUNT(*) FROM {CHUNKS_TABLE} WHERE source_id = :r", r="u") == 0


def test_update_metadata_replaces_and_none_clears(store):
    store.add(["note"], record_type="memory", record_ids="u", metadata={"kind": "table", "x": 1})
    store.update("memory", "u", metadata={"kind": "guideline"})
    assert store.get("memory", "u").metadata == {"kind": "guideline"}
    store.update("memory", "u", metadata=None)
    assert store.get("memory", "u").metadata is None


def test_update_status_timestamp_and_errors(store):
    store.add(["note"], record_type="memory", record_ids="u")
    assert store.update("memory", "u", status=RecordStatus.INVALID, timestamp="2024-05-01T00:00:00") == 1
    record = store.get("memory", "u")
    assert record.status is RecordStatus.INVALID and record.timestamp == "2024-05-01T00:00:00"
    assert store.search("note", 1, include_invalid_results=False) == []
    assert store.update("memory", "missing", content="x") == 0
    assert store.update("fact", "u", content="x") == 0  # id exists, but as a memory
    with pytest.raises(ValueError, match="at least one"):
        store.update("memory", "u")
    with pytest.raises(ValueError):
        store.update("memory", "u", content="a", text="b")
    with pytest.raises(ValueError):
        store.update("bogus", "u", content="x")


def test_update_profile_information(store):
    store.add_user("u1", "Prefers concise answers")
    assert store.update("user_profile", "u1", content="Prefers long explanations") == 1
    assert store.get("user_profile", "u1").content == "Prefers long explanations"
    assert ids(store.search("long explanations", 1)) == ["u1"]


# --------------------------------------------------------------------------- delete semantics


def test_delete_removes_chunks_and_respects_type(store, conn):
    store.add(["a fact"], record_type="fact", record_ids="f1")
    assert store.delete("memory", "f1") == 0
    assert store.delete("fact", "f1") == 1
    assert count(conn, f"SELECT COUNT(*) FROM {CHUNKS_TABLE}") == 0


@pytest.fixture()
def actor_world(store):
    store.add_user("u1", "the learner")
    store._create_thread_record("t-u1", "u1", "a1", None, None)
    store._create_thread_record("t-u2", "u2", "a1", None, None)
    store.add(["hi"], record_type="message", roles="user", thread_ids="t-u1", user_ids="u1", record_ids="msg-1")
    store.add(["in thread"], record_type="memory", thread_ids="t-u1", record_ids="thread-mem")
    store.add(["direct"], record_type="guideline", user_ids="u1", record_ids="direct-mem")
    store.add(["other user"], record_type="memory", user_ids="u2", thread_ids="t-u2", record_ids="keep-mem")
    return store


def test_delete_user_profile_with_cascade(actor_world, conn):
    assert actor_world.delete("user_profile", "u1", cascade=True) == 1
    for record_type, record_id in [("user_profile", "u1"), ("message", "msg-1"), ("memory", "thread-mem"),
                                   ("guideline", "direct-mem")]:
        assert actor_world.get(record_type, record_id) is None
    assert actor_world.get("thread", "t-u1") is None
    assert actor_world.get("memory", "keep-mem") is not None and actor_world.get("thread", "t-u2") is not None
    assert count(conn, f"SELECT COUNT(*) FROM {CHUNKS_TABLE}") == 1  # only keep-mem's chunk is left


def test_cascade_runs_even_when_the_profile_is_absent(actor_world):
    actor_world.delete("user_profile", "u1")  # plain delete: children stay
    assert actor_world.get("guideline", "direct-mem") is not None
    assert actor_world.delete("user_profile", "u1", cascade=True) == 0
    assert actor_world.get("guideline", "direct-mem") is None


def test_delete_thread_removes_messages_memories_and_chunks(actor_world, conn):
    assert actor_world.delete_thread("t-u1") == 1
    assert actor_world.list_thread_messages("t-u1") == []
    assert actor_world.get("memory", "thread-mem") is None
    assert actor_world.get("guideline", "direct-mem") is not None
    assert count(conn, f"SELECT COUNT(*) FROM {CHUNKS_TABLE} WHERE thread_id = :t", t="t-u1") == 0


# --------------------------------------------------------------------------- messages, schema, limits


def test_messages_round_trip_with_sequence_numbers(store):
    store._create_thread_record("t", "u1", None, None, None)
    store.add(["one", "two", "three"], record_type="message", roles=["user", "assistant", "user"],
              thread_ids="t", record_ids=["m1", "m2", "m3"])
    messages = store.list_thread_messages("t")
    assert [(m.id, m.role) for m in messages] == [("m1", "user"), ("m2", "assistant"), ("m3", "user")]
    assert [m.seq_no for m in messages] == sorted(m.seq_no for m in messages)
    assert [m.id for m in store.list_thread_messages("t", last_n=2)] == ["m2", "m3"]
    assert [m.id for m in store.list_thread_messages("t", range_start_seq_no=messages[1].seq_no)] == ["m2", "m3"]
    assert store.get("message", "m2").content[0].text == "two"
    with pytest.raises(ValueError, match="role"):
        store.add(["no role"], record_type="message", thread_ids="t")


def test_message_storage_helpers_round_trip():
    parts, text, stored = _oamp.message_storage([TextContent("hello", id="p1"), TextContent(" world", id="p2")])
    assert text == "hello\n world"  # OAMP's search text joins text parts with newlines
    rebuilt = _oamp.message_content_from_storage(stored, "msg")
    assert [(p.id, p.text) for p in rebuilt] == [("p1", "hello"), ("p2", " world")]
    assert _oamp.message_content_from_storage([], "msg")[0].text == ""  # decoded JSON works too


def test_tables_have_oamp_columns_and_vector_type(store, conn):
    with conn.cursor() as cur:
        cur.execute("SELECT column_name, data_type FROM all_tab_columns WHERE table_name = :t", t=MEMORY_TABLE.upper())
        memory_cols = dict(cur.fetchall())
        cur.execute("SELECT column_name, data_type FROM all_tab_columns WHERE table_name = :t", t=CHUNKS_TABLE.upper())
        chunk_cols = dict(cur.fetchall())
    for name in ["RECORD_ID", "USER_ID", "AGENT_ID", "THREAD_ID", "MEMORY_TYPE", "CONTENT", "METADATA",
                 "STATUS", "CREATED_AT", "ORDER_SEQ", "EXPIRES_AT", "TIMESTAMP"]:
        assert name in memory_cols
    assert memory_cols["METADATA"] == "JSON"
    for name in ["CHUNK_ID", "SOURCE_ID", "SOURCE_RECORD_TYPE", "CHUNK_TEXT", "EMBEDDING", "USER_ID",
                 "AGENT_ID", "STATUS", "CHUNK_SEQ", "SOURCE_EMB_COLUMN"]:
        assert name in chunk_cols
    assert chunk_cols["EMBEDDING"] == "VECTOR"


def test_rows_are_readable_with_plain_sql(store, conn, embedder):
    """The hybrid SQL joins the two tables directly; values come back as python-oracledb returns them."""
    store.add(["Column CAPACITY_TEU"], record_type="memory", record_ids="cap", user_ids="u1", agent_ids="a1",
              metadata={"kind": "column", "subject": "SUPPLYCHAIN.VESSELS.CAPACITY_TEU"})
    with conn.cursor() as cur:
        cur.execute(
            f"SELECT m.record_id, m.content, m.metadata, JSON_VALUE(m.metadata, '$.kind'), c.embedding, "
            f"c.source_record_type FROM {MEMORY_TABLE} m JOIN {CHUNKS_TABLE} c ON c.source_id = m.record_id "
            "WHERE m.user_id = :u AND m.agent_id = :a", u="u1", a="a1")
        (record_id, content, metadata, kind, embedding, source_type), = cur.fetchall()
    assert (record_id, content, kind, source_type) == ("cap", "Column CAPACITY_TEU", "column", "memory")
    assert metadata["subject"] == "SUPPLYCHAIN.VESSELS.CAPACITY_TEU"
    assert len(embedding) == EMBED_DIM
    np.testing.assert_allclose(np.asarray(embedding), embedder.embed(["Column CAPACITY_TEU"])[0], atol=1e-6)


def test_fresh_home_gets_the_oamp_tables(tmp_path, embedder):
    connection = connect(tmp_path)
    try:
        store = LiteMemoryStore(connection, embedder)
        with connection.cursor() as cur:
            cur.execute("SELECT table_name FROM user_tables")
            tables = {row[0] for row in cur.fetchall()}
        expected = {store.tables.thread, store.tables.actor_profile, store.tables.message, store.tables.memory,
                    store.tables.record_chunks}
        assert {name.upper() for name in expected} <= tables
    finally:
        connection.close()


def test_schema_creation_is_idempotent(store, conn, embedder):
    store.add(["kept"], record_type="memory", record_ids="kept")
    again = LiteMemoryStore(conn, embedder)
    assert again.get("memory", "kept").content == "kept"


def test_wrong_embedding_width_is_a_clear_error(store):
    with pytest.raises(ValueError, match=f"{EMBED_DIM} dimensions"):
        store.add(["x"], record_type="memory", embeddings=[[0.1, 0.2, 0.3]])


def test_images_are_not_supported_in_lite(store):
    with pytest.raises(NotImplementedError, match="lite backend"):
        store.get("image", "x")


def test_relations_are_stored_listed_updated_and_deleted(store):
    store.add(["old fact", "new fact", "third"], record_type="memory", record_ids=["a", "b", "c"])
    assert store.list_relations() == [] and store.get_relation(relation_id="r") is None
    rid, = store.add_relations("b", "memory", "a", "memory", "supersedes", metadata={"why": "review"})
    link = store.get_relation(relation_id=rid)
    assert (link.source_record_id, link.target_record_id, link.relation_type, link.opposite_relation_type,
            link.metadata) == ("b", "a", "supersedes", "is_superseded_by", {"why": "review"})
    assert store.get_relation(source_record_id="b", source_record_type="memory", target_record_id="a",
                              target_record_type="memory").id == rid
    with pytest.raises(ValueError, match="already linked"):
        store.add_relations("a", "memory", "b", "memory", "contradicts")   # one orientation per pair
    with pytest.raises(ValueError, match="no such record"):
        store.add_relations("b", "memory", "zz", "memory", "supports")
    with pytest.raises(ValueError, match="custom label"):
        store.add_relations("c", "memory", "a", "memory", "inspired")
    assert store.add_relations("c", "memory", "a", "memory", "inspired", opposite_relation_types="inspired_by")
    store.update_relations(rid, relation_types="refines")
    assert store.get_relation(relation_id=rid).opposite_relation_type == "is_refined_by"
    assert [r.relation_type for r in store.list_relations(target_record_id="a")] == ["refines", "inspired"]
    assert store.delete_relations([rid]) == 1
    assert [r.relation_type for r in store.list_relations()] == ["inspired"]


def test_message_update_reindexes_message_text(store):
    store._create_thread_record("t", None, None, None, None)
    store.add(["where is the vessel"], record_type="message", roles="user", thread_ids="t", record_ids="m1")
    assert ids(store.search("where is the vessel", 1, record_types={"message"})) == ["m1"]
    assert store.update("message", "m1", content="berth schedule please") == 1
    assert store.get("message", "m1").content[0].text == "berth schedule please"
    (record, distance), = store.search("berth schedule please", 1, record_types={"message"})
    assert record.id == "m1" and distance == pytest.approx(0.0, abs=1e-5)
    with pytest.raises(ValueError):
        store.update("message", "m1", content=None)


def test_expired_records_are_hidden(store):
    store.add(["short lived"], record_type="memory", record_ids="gone", ttl_days=0)
    store.add(["long lived"], record_type="memory", record_ids="kept", ttl_days=30)
    assert store.get("memory", "gone") is None
    assert ids(store.search("lived", 5)) == ["kept"]
    assert store._get_record_expiration("memory", "kept") is not None
    assert store._get_record_expiration("memory", "kept") > store._get_record_expiration("memory", "gone")
