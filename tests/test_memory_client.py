"""The real OAMP client (``OracleAgentMemory``) over LiteMemoryStore, built by build_memory_client.

The lite client embeds with the workshop's real ONNX model, built once per session.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from oracleagentmemory.core import OracleAgentMemory

from workshop_lib.config import AGENT_ID, EMBED_DIM, MEMORY_TABLE, OTHER_USER_ID, USER_ID, Settings, load_settings
from workshop_lib.embedding import build_model
from workshop_lib.embedding.oamp_embedder import LiteOnnxEmbedder
from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.memory import LiteMemoryStore, build_memory_client, extraction_config, put_memory


@pytest.fixture(scope="session")
def model_home(tmp_path_factory) -> Path:
    """A WORKSHOP_HOME holding the built embedding model (built once per session)."""
    home = tmp_path_factory.getbasetemp() / "memory_client_home"
    build_model(home)
    return home


@pytest.fixture()
def settings(model_home) -> Settings:
    return load_settings({"WORKSHOP_BACKEND": "lite", "WORKSHOP_HOME": str(model_home)})


@pytest.fixture(scope="session")
def schema_template(tmp_path_factory) -> Path:
    """A lite home whose memory tables exist (their DDL takes ~0.4 s; copying the files ~10 ms)."""
    home = tmp_path_factory.mktemp("memory_client_template")
    connection = connect(home)
    LiteMemoryStore(connection, None)
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
def client(conn, settings) -> OracleAgentMemory:
    memory = build_memory_client(conn, settings)  # default lite embedder: the workshop's ONNX model
    yield memory
    memory.close()


def test_lite_client_is_oamp_over_the_lite_store(client):
    assert isinstance(client, OracleAgentMemory)
    assert isinstance(client._store, LiteMemoryStore)  # noqa: SLF001 - the wiring is what is tested
    assert client._store.tables.memory == MEMORY_TABLE  # noqa: SLF001
    assert isinstance(client._store._embedder, LiteOnnxEmbedder)  # noqa: SLF001


def test_profiles_memories_scoped_search_and_delete(client, conn):
    assert client.add_user(USER_ID, "A learner exploring SUPPLYCHAIN.") == USER_ID
    assert client.add_agent(AGENT_ID, "Answers questions about the SUPPLYCHAIN catalog.") == AGENT_ID
    text = "Column SUPPLYCHAIN.VESSELS.CAPACITY_TEU of type NUMBER. Meaning: capacity in TEU."
    metadata = {"kind": "column", "subject": "SUPPLYCHAIN.VESSELS.CAPACITY_TEU"}
    added = client.add_memory(text, user_id=USER_ID, agent_id=AGENT_ID, memory_id="col-cap", metadata=metadata)
    assert added == "col-cap"
    client.add_memory(text, user_id=OTHER_USER_ID, agent_id=AGENT_ID, memory_id="other-cap", metadata=metadata)
    client.add_memory("Vessel positions are recorded hourly.", user_id=USER_ID, agent_id=AGENT_ID,
                      memory_id="positions", metadata={"kind": "table"})

    results = client.search("vessel capacity in TEU", user_id=USER_ID, agent_id=AGENT_ID,
                            record_types=["memory"], max_results=5)
    assert [r.id for r in results][:1] == ["col-cap"]
    assert "other-cap" not in {r.id for r in results}
    top = results[0]
    assert top.content == text and top.metadata == metadata
    assert 0.0 <= top.distance < results[-1].distance <= 2.0
    assert [r.distance for r in results] == sorted(r.distance for r in results)

    with conn.cursor() as cur:  # the client wrote the tables the workshop's SQL reads
        cur.execute(f"SELECT user_id, JSON_VALUE(metadata, '$.kind') FROM {MEMORY_TABLE} WHERE record_id = :r",
                    r="col-cap")
        assert cur.fetchone() == (USER_ID, "column")

    assert client.delete_memory("col-cap") == 1
    assert client.delete_memory("col-cap") == 0
    after = client.search("vessel capacity in TEU", user_id=USER_ID, agent_id=AGENT_ID,
                          record_types=["memory"], max_results=5)
    assert [r.id for r in after] == ["positions"]


def test_memory_types_and_update_through_the_client(client):
    client.add_memory("Divide unit_value_cents by 100 for dollars.", memory_type="guideline",
                      user_id=USER_ID, agent_id=AGENT_ID, memory_id="g1", metadata={"kind": "guideline"})
    found = client.search("unit value cents dollars", user_id=USER_ID, agent_id=AGENT_ID,
                          record_types=["guideline"], max_results=3)
    assert [r.id for r in found] == ["g1"]
    assert client.search("unit value cents dollars", user_id=USER_ID, agent_id=AGENT_ID,
                         record_types=["memory"], max_results=3) == []
    client.update_memory("g1", content="Divide unit_value_cents by 100 to get US dollars.",
                         metadata={"kind": "guideline", "v": 2})
    (updated,) = client.search("get US dollars", user_id=USER_ID, agent_id=AGENT_ID,
                               record_types=["guideline"], max_results=1)
    assert updated.content.endswith("to get US dollars.") and updated.metadata["v"] == 2


def test_put_memory_rescans_without_duplicates(client, conn):
    body = "Table SUPPLYCHAIN.VESSELS. Documented purpose: one row per vessel."
    meta = {"kind": "table", "subject": "SUPPLYCHAIN.VESSELS"}
    with pytest.raises(ValueError, match="Duplicate record_ids"):  # why put_memory exists
        client.add_memory(body, memory_id="fact:table:VESSELS", user_id=USER_ID)
        client.add_memory(body, memory_id="fact:table:VESSELS", user_id=USER_ID)
    for version in (1, 2):
        assert put_memory(client, f"{body} v{version}", memory_id="fact:table:VESSELS", user_id=USER_ID,
                          agent_id=AGENT_ID, metadata={**meta, "v": version}) == "fact:table:VESSELS"
    with conn.cursor() as cur:
        cur.execute(f"SELECT content FROM {MEMORY_TABLE} WHERE record_id = :r", r="fact:table:VESSELS")
        assert cur.fetchall() == [(f"{body} v2",)]
    (hit,) = client.search("one row per vessel", user_id=USER_ID, record_types=["memory"], max_results=1)
    assert hit.id == "fact:table:VESSELS" and hit.metadata["v"] == 2 and hit.content.endswith("v2")
    assert put_memory(client, "new guideline", memory_id="g-new", user_id=USER_ID, agent_id=AGENT_ID,
                      memory_type="guideline") == "g-new"
    assert {m.id: m.record_type for m in client.list_memories(user_id=USER_ID)} == {
        "fact:table:VESSELS": "memory", "g-new": "guideline"}


def test_threads_without_extraction(client):
    client.add_user(USER_ID, "learner")
    thread = client.create_thread(thread_id="t-1", user_id=USER_ID, agent_id=AGENT_ID)
    thread.add_messages([{"role": "user", "content": "Which table holds vessel positions?"},
                         {"role": "assistant", "content": "SUPPLYCHAIN.VESSEL_POSITIONS."}])
    reopened = client.get_thread("t-1")
    assert reopened.user_id == USER_ID
    assert [(m.role, m.content) for m in reopened.get_messages()] == [
        ("user", "Which table holds vessel positions?"), ("assistant", "SUPPLYCHAIN.VESSEL_POSITIONS.")]
    assert [t.id for t in client.list_threads(USER_ID)] == ["t-1"]
    assert client.delete_thread("t-1") == 1
    with pytest.raises(KeyError):
        client.get_thread("t-1")


def test_delete_user_cascades_through_the_client(client):
    client.add_user(USER_ID, "learner")
    client.add_memory("a fact about ports", user_id=USER_ID, memory_id="mine")
    client.add_memory("a fact about ports", user_id=OTHER_USER_ID, memory_id="theirs")
    assert client.delete_user(USER_ID) == 1
    assert {m.id for m in client.list_memories()} == {"theirs"}


def test_extraction_follows_the_llm_setting():
    assert extraction_config(load_settings({})).extract_memories is False
    assert extraction_config(load_settings({"WORKSHOP_LLM_MODEL": "openai/gpt-4o-mini"})).extract_memories is True


@pytest.mark.slow  # importing litellm alone takes several seconds
def test_configured_llm_turns_extraction_on(conn, model_home):
    settings = load_settings({"WORKSHOP_BACKEND": "lite", "WORKSHOP_HOME": str(model_home),
                              "WORKSHOP_LLM_MODEL": "openai/gpt-4o-mini"})
    memory = build_memory_client(conn, settings)
    try:
        # A thread needs an LLM only when extraction is on: with the configured
        # LLM attached, creating one succeeds (no model call is made here).
        thread = memory.create_thread(thread_id="t-llm", user_id=USER_ID)
        assert thread.thread_id == "t-llm"
        assert memory._llm is not None and memory._llm.model == "openai/gpt-4o-mini"  # noqa: SLF001
    finally:
        memory.close()


class _RecordingConnection:
    """Stands in for an Oracle pool (none runs here): records each statement, then fails it."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, object]] = []

    def cursor(self):
        outer = self

        class Cursor:
            def execute(self, sql, *args, **kwargs):
                outer.statements.append((" ".join(str(sql).split()), args[0] if args else kwargs))
                raise RuntimeError("no Oracle database in this test")

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def close(self):
                pass

        return Cursor()

    def commit(self):
        pass

    def rollback(self):
        pass


def test_oracle_client_uses_oamp_db_store_with_the_workshop_prefix(recwarn):
    from oracleagentmemory.core.embedders import OracleDBEmbedder

    from workshop_lib.memory import default_embedder

    settings = load_settings({"WORKSHOP_BACKEND": "oracle"})
    pool = _RecordingConnection()
    embedder = default_embedder(pool, settings)
    assert isinstance(embedder, OracleDBEmbedder) and embedder.embedding_dimension == EMBED_DIM
    with pytest.raises(RuntimeError, match="no Oracle database"):
        build_memory_client(pool, settings, embedder=embedder)
    # OAMP's DB store looked for its objects under the eda_onnx_ prefix ...
    bound = [str(v) for _, binds in pool.statements if isinstance(binds, dict) for v in binds.values()]
    assert any(value.startswith("EDA_ONNX_") for value in bound), pool.statements
    # ... and the deprecation of table_name_prefix does not leak into notebook output.
    assert not [w for w in recwarn if "table_name_prefix" in str(w.message)]


@pytest.mark.oracle
def test_live_oracle_client_round_trip():
    """Against a real database (ORACLE_DSN set): the OAMP DB store writes EDA_ONNX_MEMORY."""
    from workshop_lib.backends import get_backend

    settings = load_settings({**__import__("os").environ, "WORKSHOP_BACKEND": "oracle"})
    pool = get_backend(settings).memory_target(None)
    memory = build_memory_client(pool, settings)
    try:
        memory_id = "test-live-oamp-round-trip"
        memory.delete_memory(memory_id)
        memory.add_memory("Live round trip memory about TEU capacity", user_id=OTHER_USER_ID,
                          agent_id=AGENT_ID, memory_id=memory_id, metadata={"kind": "test"})
        results = memory.search("TEU capacity", user_id=OTHER_USER_ID, agent_id=AGENT_ID,
                                record_types=["memory"], max_results=3)
        assert results and results[0].id == memory_id and results[0].metadata == {"kind": "test"}
        assert memory.delete_memory(memory_id) == 1
    finally:
        memory.close()
        pool.close()
