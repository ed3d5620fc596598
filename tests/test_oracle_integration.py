"""Oracle mode against a live database: bootstrap, seed, model, memory, retrieval, notebooks, provisioning.

Every test here is marked ``oracle`` and skipped (with the reason) when
ORACLE_DSN is not set - see tests/conftest.py. The GitHub workflow
.github/workflows/oracle.yml runs them against Oracle AI Database Free
started from .devcontainer/docker-compose.yml; in a Codespace run
``make test-oracle``. Settings come from the environment / .env like the
workshop itself; ORACLE_ADMIN_PASSWORD enables the provisioning test.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from workshop_lib.config import EMBED_DIM, MEMORY_TABLE, SCHEMA, USER_ID, load_settings
from workshop_lib.oracle.bootstrap import bootstrap, embedding_dimension, probe_text_sync, seed_state
from workshop_lib.oracle.connection import connect_admin, connect_as
from workshop_lib.oracle.diagnosis import diagnose
from workshop_lib.backends import get_backend

pytestmark = pytest.mark.oracle
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def settings():
    s = load_settings(backend="oracle")
    s.require_oracle(supplychain=True)
    return s


@pytest.fixture(scope="module")
def bootstrapped(settings):
    report = bootstrap(settings, echo=print)
    assert report.ok, report.summary()
    return report


@pytest.fixture()
def agent(settings, bootstrapped):
    conn = connect_as(settings, settings.oracle_user, settings.oracle_password)
    yield conn
    conn.close()


def _error_code(exc: BaseException) -> str | None:
    return diagnose(exc).code


def test_second_bootstrap_changes_nothing(settings, bootstrapped):
    again = bootstrap(settings, echo=print)
    status = {step.name: step.status for step in again.steps}
    assert again.ok
    assert status["seed SUPPLYCHAIN"] == "skipped"
    assert status["embedding model"] == "skipped"
    assert status["text index"] == "skipped"


def test_second_bootstrap_leaves_working_passwords_alone(settings, bootstrapped):
    """ADB refuses a reused password (ORA-28007): a re-run must not re-set one that logs in."""
    if not settings.admin_password:
        pytest.skip("needs ORACLE_ADMIN_PASSWORD to read DBA_USERS.PASSWORD_CHANGE_DATE")
    sql = ("SELECT username, password_change_date FROM dba_users "
           "WHERE username IN (:s, :a) ORDER BY username")
    admin = connect_admin(settings)
    try:
        with admin.cursor() as cur:
            cur.execute(sql, s=SCHEMA, a=settings.oracle_user.upper())
            before = cur.fetchall()
        assert bootstrap(settings, echo=print).ok
        with admin.cursor() as cur:
            cur.execute(sql, s=SCHEMA, a=settings.oracle_user.upper())
            assert cur.fetchall() == before
    finally:
        admin.close()


def test_vector_pool_is_read_before_setup_and_holds_the_index(settings, bootstrapped):
    from workshop_lib.oracle.doctor import check_vector_pool
    from workshop_lib.oracle.vector_pool import pool_problem, read_vector_memory_size

    assert {s.name: s.status for s in bootstrapped.steps}["vector pool"] in ("done", "skipped")
    conn = connect_admin(settings) if settings.admin_password else connect_as(
        settings, settings.oracle_user, settings.oracle_password)
    try:
        size = read_vector_memory_size(conn)
        assert size is None or (size > 0 and pool_problem(size) is None), size
        assert check_vector_pool(conn, settings).ok
    finally:
        conn.close()


def test_agent_holds_least_privileges(agent):
    with agent.cursor() as cur:
        cur.execute("SELECT privilege FROM session_privs")
        privileges = {row[0] for row in cur}
        cur.execute("SELECT role FROM session_roles")
        roles = {row[0] for row in cur}
    assert not [p for p in privileges if " ANY " in f" {p} "], sorted(privileges)
    assert {"CREATE MINING MODEL", "CREATE SESSION", "CREATE TABLE"} <= privileges
    assert {"DB_DEVELOPER_ROLE", "CTXAPP"} <= roles
    with agent.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {SCHEMA}.VESSELS")
        assert cur.fetchone()[0] > 0
        with pytest.raises(Exception) as info:
            cur.execute(f"DELETE FROM {SCHEMA}.VESSELS")
    assert _error_code(info.value) == "ORA-01031"


def test_index_internals_exist_but_are_neither_granted_nor_listed(settings, agent):
    from workshop_lib.oracle import privileges as P

    owner = connect_as(settings, SCHEMA, settings.supplychain_password)
    try:
        with owner.cursor() as cur:
            cur.execute("SELECT table_name FROM user_tables WHERE secondary = 'Y'")
            secondary = {r[0] for r in cur}
            cur.execute(P.OWNED_TABLES_SQL)
            real = [r[0] for r in cur]
    finally:
        owner.close()
    assert any(t.startswith("MDRT_") for t in secondary), secondary   # the spatial indexes' tables
    assert not secondary & set(real) and set(P.SEED_TABLES) <= set(real)
    with agent.cursor() as cur:
        cur.execute("SELECT DISTINCT table_name FROM user_tab_privs_recd WHERE owner = :o", o=SCHEMA)
        granted = {r[0] for r in cur}
    assert granted == set(P.SEED_TABLES), granted ^ set(P.SEED_TABLES)


def test_the_memory_text_index_keeps_dr_tables_that_are_secondary_as_lite_lists_them(agent):
    """What lite's DR$ mirror rests on (lite/catalog.py): the agent schema's CONTEXT index keeps DR$<index>$I, $K,
    $N and $R, and ALL_TABLES lists them with SECONDARY = 'Y', so CHECK 1's second scan meets them."""
    with agent.cursor() as cur:
        cur.execute("SELECT index_name FROM user_indexes WHERE ityp_owner = 'CTXSYS' AND ityp_name = 'CONTEXT'")
        indexes = [r[0] for r in cur]
        cur.execute("SELECT table_name, secondary FROM user_tables WHERE table_name LIKE 'DR$%'")
        tables = dict(cur.fetchall())
    assert indexes, "the memory table has an Oracle Text index"
    for index in indexes:
        for suffix in "IKNR":
            assert tables.get(f"DR${index}${suffix}") == "Y", (index, suffix, tables)


def test_supplychain_holds_only_what_its_seed_needs(settings, bootstrapped):
    owner = connect_as(settings, SCHEMA, settings.supplychain_password)
    try:
        with owner.cursor() as cur:
            cur.execute("SELECT privilege FROM session_privs")
            privileges = {row[0] for row in cur}
            cur.execute("SELECT role FROM session_roles")
            roles = {row[0] for row in cur}
    finally:
        owner.close()
    assert {"CREATE SESSION", "CREATE TABLE", "CREATE SEQUENCE"} <= privileges
    assert not [p for p in privileges if " ANY " in f" {p} "], sorted(privileges)
    assert not {"DB_DEVELOPER_ROLE", "CTXAPP"} & roles and "CREATE MINING MODEL" not in privileges


def test_ora_29855_is_diagnosed_from_the_oracle_text_error_under_it(agent):
    """A CONTEXT index naming a lexer that does not exist: ORA-29855 over DRG-10700, explained as such."""
    with agent.cursor() as cur:
        cur.execute("CREATE TABLE ws_ctx_probe (id NUMBER PRIMARY KEY, txt VARCHAR2(100))")
        try:
            with pytest.raises(Exception) as info:
                cur.execute("CREATE INDEX ws_ctx_probe_ix ON ws_ctx_probe(txt) INDEXTYPE IS CTXSYS.CONTEXT "
                            "PARAMETERS ('LEXER ws_no_such_lexer')")
        finally:
            try:
                cur.execute("DROP INDEX ws_ctx_probe_ix FORCE")   # a half-built domain index, if one was left
            except Exception:  # noqa: BLE001 - none was left
                pass
            cur.execute("DROP TABLE ws_ctx_probe PURGE")
    d = diagnose(info.value)
    assert d.code == "ORA-29855" and "DRG-10700" in d.cause and "CTXAPP" not in str(d), str(info.value)


def test_seed_is_complete(settings, bootstrapped):
    conn = connect_as(settings, SCHEMA, settings.supplychain_password)
    try:
        state = seed_state(conn)
    finally:
        conn.close()
    assert all(state.values()), state


def test_model_embeds_in_sql(agent):
    assert embedding_dimension(agent) == EMBED_DIM


def test_text_index_syncs_on_commit(agent):
    probe_text_sync(agent)


def test_doctor_is_all_green(settings, bootstrapped):
    report = get_backend(dataclasses.replace(settings, backend="oracle")).doctor()
    assert report.ok, report.render()
    assert {c.name for c in report.checks} >= {"connection", "database version", "privileges",
                                               "SUPPLYCHAIN seed", "embedding model", "vector pool",
                                               "memory tables", "text index", "workshop memories"}


def test_wrong_password_is_diagnosed(settings, bootstrapped):
    with pytest.raises(Exception) as info:
        connect_as(settings, settings.oracle_user, settings.oracle_password + "x")
    assert _error_code(info.value) == "ORA-01017"
    bad = dataclasses.replace(settings, oracle_password=settings.oracle_password + "x")
    check = {c.name: c for c in get_backend(dataclasses.replace(bad, backend="oracle")).doctor().checks}["connection"]
    assert not check.ok and "ORACLE_PASSWORD" in check.fix


def test_memory_round_trip(settings, bootstrapped):
    from workshop_lib.workshop import start

    ws = start(settings=settings, upto="memory")
    try:
        memory_id = ws.memory_client.add_memory(
            "Integration probe: reefer containers need a power plug on deck.",
            user_id=USER_ID, agent_id=ws.agent_id, memory_id="oracle-integration-probe")
        with ws.conn.cursor() as cur:
            cur.execute(f"SELECT COUNT(*) FROM {MEMORY_TABLE} WHERE record_id = :r "
                        "AND CONTAINS(content, 'reefer', 1) > 0", r=memory_id)
            assert cur.fetchone()[0] == 1
        assert ws.memory_client.delete_memory(memory_id) == 1
    finally:
        ws.close()


def test_both_retrieval_functions_pass_their_checks(settings, bootstrapped):
    from workshop_lib import checks, reference
    from workshop_lib.workshop import start

    ws = start(settings=settings, upto="scan")
    try:
        checks.todo2(reference.retrieve_knowledge)
        checks.todo3(reference.hybrid_rrf_search_memories)
    finally:
        ws.close()


def test_hybrid_statement_embeds_once_and_matches_the_inline_form(settings, bootstrapped):
    """The reference's CTE (embedding once) and the inline form return the same rows on Oracle."""
    from workshop_lib import config, reference
    from workshop_lib.oracle_text import text_query

    question = "TEU 20-foot equivalent capacity unit for vessels"
    inline = (reference.HYBRID_SQL
              .replace(f"WITH q AS (\n  SELECT VECTOR_EMBEDDING({config.EMBED_MODEL} USING :q AS DATA) AS v "
                       "FROM dual\n),\n", "WITH ")
              .replace("q.v", f"VECTOR_EMBEDDING({config.EMBED_MODEL} USING :q AS DATA)")
              .replace("\n  CROSS JOIN q", ""))
    assert inline != reference.HYBRID_SQL and "q.v" not in inline
    binds = {"q": question, "kw": text_query(question), "user_id": USER_ID, "agent_id": config.AGENT_ID,
             "per_list": 30, "rrf_k": 60, "k": 10}
    conn = connect_as(settings, settings.oracle_user, settings.oracle_password)
    try:
        results = []
        for sql in (reference.HYBRID_SQL, inline):
            with conn.cursor() as cur:
                cur.execute(sql, binds)
                results.append([(r[0], int(r[4]), int(r[5])) for r in cur.fetchall()])
    finally:
        conn.close()
    assert results[0] == results[1]


@pytest.mark.parametrize("name", ["01_seed_and_explore", "02_memory_and_scanner", "03_retrieval"])
def test_solution_notebooks_run_unchanged_on_oracle(name, settings, bootstrapped, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    path = REPO / "solutions" / name / f"{name}.ipynb"
    if not path.is_file():
        pytest.skip(f"{path.relative_to(REPO)} does not exist yet")
    nb = nbformat.read(path, as_version=4)
    monkeypatch.setenv("WORKSHOP_BACKEND", "oracle")  # the kernel inherits the environment
    NotebookClient(nb, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()


def test_provisioned_learners_are_isolated(settings, bootstrapped):
    from workshop_lib.oracle.provision import drop_learners_sql, provision_learners

    if not settings.admin_password:
        pytest.skip("provisioning needs ORACLE_ADMIN_PASSWORD")
    accounts = provision_learners(settings, 2, prefix="WSTEST", echo=print, reset_passwords=True)
    try:
        one, two = (connect_as(settings, a.username, a.password) for a in accounts)
        with one.cursor() as cur:
            cur.execute("CREATE TABLE private_notes (content VARCHAR2(100))")
            cur.execute("INSERT INTO private_notes VALUES ('only mine')")
            one.commit()
            cur.execute(f"SELECT COUNT(*) FROM {SCHEMA}.PORTS")
            assert cur.fetchone()[0] > 0
        with two.cursor() as cur, pytest.raises(Exception) as info:
            cur.execute(f"SELECT * FROM {accounts[0].username}.private_notes")
        assert _error_code(info.value) == "ORA-00942"
        for conn in (one, two):
            conn.close()
    finally:
        admin = connect_admin(settings)
        try:
            with admin.cursor() as cur:
                for sql in drop_learners_sql(a.username for a in accounts):
                    cur.execute(sql)
        finally:
            admin.close()


def test_memory_lifecycle_on_the_oracle_store(settings, bootstrapped):
    """Drafts and discards are invalid in OAMP's DB store and never searched; accepted memories are."""
    from workshop_lib.memory.lifecycle import (LifecycleError, Status, delete_by_source, propose_memory,
                                               read_lifecycle)
    from workshop_lib.reference import retrieve_knowledge, set_memory_status
    from workshop_lib.workshop import start

    ws = start(settings=settings, upto="memory")
    try:
        text = "Oracle lifecycle probe: CARGO_ITEMS.UNIT_VALUE_CENTS is in US cents."
        wrong = propose_memory(ws.memory_client, "Oracle lifecycle probe: UNIT_VALUE_CENTS is dollars.",
                               user_id=ws.user_id, agent_id=ws.agent_id, subject="probe")
        right = propose_memory(ws.memory_client, text, user_id=ws.user_id, agent_id=ws.agent_id, subject="probe",
                               contradicts=wrong)
        found = lambda: {h["metadata"].get("memory_id") for h in retrieve_knowledge(text, k=10, kinds=["correction"])}
        assert not found() & {wrong, right}
        assert set_memory_status(right, "accepted").oamp_status == "valid"
        set_memory_status(wrong, "discard")
        assert right in found() and wrong not in found()
        with pytest.raises(LifecycleError, match="from discard to accepted"):
            set_memory_status(wrong, "accepted")
        assert read_lifecycle(ws.conn, wrong).status is Status.DISCARD
        # Part 4's restart deletes by metadata source, with OAMP's delete_memory (links and chunks go too)
        demo = propose_memory(ws.memory_client, "Oracle lifecycle probe: a demo correction.", user_id=ws.user_id,
                              agent_id=ws.agent_id, subject="probe", source="oracle-probe", contradicts=right)
        gone = delete_by_source(ws.memory_client, ws.conn, ws.user_id, ws.agent_id, "oracle-probe")
        assert [s.memory_id for s in gone] == [demo]
        with pytest.raises(LifecycleError, match="no memory with id"):
            read_lifecycle(ws.conn, demo)
        assert read_lifecycle(ws.conn, right).status is Status.ACCEPTED
    finally:
        for memory_id in (locals().get("right"), locals().get("wrong")):
            if memory_id:
                ws.memory_client.delete_memory(memory_id)
        ws.close()


def test_agent_run_is_stored_as_an_oamp_thread(settings, bootstrapped):
    from workshop_lib.agent.loop import run_agent
    from workshop_lib.agent.runs import list_runs, load_run, save_run
    from workshop_lib.notebook import agent_toolbox
    from workshop_lib.workshop import start

    ws = start(settings=settings, upto="memory")
    try:
        run = run_agent([{"role": "user", "content": "What is the capacity of the vessel 'MAERSK HALDEN'?"}],
                        tools=agent_toolbox(ws), model="workshop-offline/rules")
        thread_id = save_run(ws.memory_client, run.messages, user_id=ws.user_id, agent_id=ws.agent_id, title="t")
        assert thread_id in {r["thread_id"] for r in list_runs(ws.memory_client, user_id=ws.user_id,
                                                                agent_id=ws.agent_id)}
        assert [m["role"] for m in load_run(ws.memory_client, thread_id)] == [m["role"] for m in run.messages]
        ws.memory_client.delete_thread(thread_id)
    finally:
        ws.close()


def test_an_instructor_supplied_reranker_loads_and_reorders(settings, bootstrapped):
    """Set WORKSHOP_RERANKER_FILE to an OML4Py reranking pipeline (.onnx) to run this; none ships."""
    import os

    from workshop_lib.oracle.reranker import load_reranker_file
    from workshop_lib.retrieval import rerank, reranker_available

    path = os.environ.get("WORKSHOP_RERANKER_FILE")
    if not path:
        pytest.skip("no reranker file: set WORKSHOP_RERANKER_FILE (docs/model.md, 'A reranker')")
    result = load_reranker_file(settings, path, echo=print)
    assert result.relevant_score > result.irrelevant_score
    conn = connect_as(settings, settings.oracle_user, settings.oracle_password)
    try:
        assert reranker_available(conn)
        candidates = [{"content": "The cafeteria serves soup on Fridays."},
                      {"content": "Vessel capacity is measured in TEU, twenty-foot equivalent units."}]
        out = rerank("What unit is vessel capacity measured in?", candidates, top_k=2, conn=conn)
    finally:
        conn.close()
    assert "TEU" in out[0]["content"] and out[0]["rerank_score"] > out[1]["rerank_score"]


# --- damage, then `workshop setup --backend oracle` repairs it (issue 10, section 4) --------------------------

ORACLE_FIX = "`workshop setup --backend oracle`"


def _oracle(settings):
    return get_backend(dataclasses.replace(settings, backend="oracle"))


def _doctor_checks(settings):
    return {c.name: c for c in _oracle(settings).doctor().checks}


def _setup(settings, **kw):
    said: list[str] = []
    _oracle(settings).setup(upto=kw.pop("upto", "scan"), reseed=False, echo=said.append, **kw)
    return said


def _run(settings, user, password, *statements, binds=None):
    conn = connect_as(settings, user, password)
    try:
        with conn.cursor() as cur:
            for sql in statements:
                cur.execute(sql, binds or {})
        conn.commit()
    finally:
        conn.close()


@pytest.fixture()
def learner_note(settings, bootstrapped):
    """A memory the learner wrote: every repair must keep it."""
    from workshop_lib.workshop import start

    ws = start(settings=settings, upto="memory")
    try:
        memory_id = ws.memory_client.add_memory("Learner note: ask the harbour master about berth 7 reefers.",
                                                user_id=ws.user_id, agent_id=ws.agent_id,
                                                memory_id="oracle-repair-learner-note", metadata={"kind": "note"})
    finally:
        ws.close()
    yield memory_id
    ws = start(settings=settings, upto="memory")
    try:
        ws.memory_client.delete_memory(memory_id)
    finally:
        ws.close()


def _note_is_searchable(settings, memory_id):
    from workshop_lib.workshop import start

    ws = start(settings=settings, upto="memory")
    try:
        found = {r.id for r in ws.memory_client.search("harbour master berth reefers", user_id=ws.user_id,
                                                         agent_id=ws.agent_id, max_results=5)}
    finally:
        ws.close()
    return memory_id in found


@pytest.mark.parametrize("damage", ["DELETE FROM vessel_positions", "DELETE FROM cargo_items WHERE ROWNUM <= 7",
                                    "DROP INDEX ports_location_sx"])
def test_setup_reseeds_supplychain_after_any_table_or_spatial_index_is_damaged(settings, learner_note, damage):
    from workshop_lib.seed import seed_manifest

    _run(settings, SCHEMA, settings.supplychain_password, damage)
    seed = _doctor_checks(settings)["SUPPLYCHAIN seed"]
    assert not seed.ok and ORACLE_FIX in seed.fix, seed
    said = _setup(settings)
    assert any("[   done] seed SUPPLYCHAIN" in line for line in said), said
    assert _doctor_checks(settings)["SUPPLYCHAIN seed"].ok
    conn = connect_as(settings, SCHEMA, settings.supplychain_password)
    try:
        state = seed_state(conn)
    finally:
        conn.close()
    assert state == {t: n for t, n in seed_manifest().items() if t in state}
    assert _note_is_searchable(settings, learner_note), "the learner's memory survives a reseed"


def test_setup_re_embeds_memories_whose_chunks_or_vectors_are_gone(settings, learner_note):
    from workshop_lib.config import CHUNKS_TABLE

    _run(settings, settings.oracle_user, settings.oracle_password,
         f"DELETE FROM {CHUNKS_TABLE} WHERE source_id = :id", binds={"id": learner_note})
    _run(settings, settings.oracle_user, settings.oracle_password,
         f"UPDATE {CHUNKS_TABLE} SET embedding = NULL WHERE source_id = 'fact-table-supplychain-vessels'")
    check = _doctor_checks(settings)["memory vectors"]
    assert not check.ok and ORACLE_FIX in check.fix, check
    said = _setup(settings)
    assert any("[   done] memory vectors" in line for line in said), said
    assert _doctor_checks(settings)["memory vectors"].ok
    assert _note_is_searchable(settings, learner_note)


def test_setup_removes_stale_fact_memories_and_keeps_the_learners_own(settings, learner_note):
    from workshop_lib.scanner import Fact, stored_memories, write_facts
    from workshop_lib.workshop import start

    _setup(settings)   # the reference scan is in place
    ws = start(settings=settings, upto="memory")
    try:
        write_facts(ws.memory_client, [Fact("table", "VESSELS", "Table VESSELS: ships (wrong subject).")],
                    progress=False)
    finally:
        ws.close()
    check = _doctor_checks(settings)["catalog memories"]
    assert not check.ok and ORACLE_FIX in check.fix, check
    _setup(settings)
    assert _doctor_checks(settings)["catalog memories"].ok
    conn = connect_as(settings, settings.oracle_user, settings.oracle_password)
    try:
        stored = stored_memories(conn)
    finally:
        conn.close()
    assert "fact-table-vessels" not in stored and learner_note in stored


@pytest.mark.parametrize("damage", ["dropped", "manual sync with rows pending"])
def test_setup_rebuilds_a_missing_or_unsynced_text_index(settings, learner_note, damage):
    from workshop_lib.config import TEXT_INDEX

    statements = [f"DROP INDEX {TEXT_INDEX} FORCE"]
    if damage != "dropped":   # a learner recreated it without SYNC (ON COMMIT), then wrote a memory
        statements += [f"CREATE INDEX {TEXT_INDEX} ON {MEMORY_TABLE}(content) INDEXTYPE IS CTXSYS.CONTEXT",
                       f"UPDATE {MEMORY_TABLE} SET content = content || ' ' WHERE record_id = '{learner_note}'"]
    _run(settings, settings.oracle_user, settings.oracle_password, *statements)
    check = _doctor_checks(settings)["text index"]
    assert not check.ok and ORACLE_FIX in check.fix, check
    _setup(settings)
    assert _doctor_checks(settings)["text index"].ok
    probe_text_sync_conn = connect_as(settings, settings.oracle_user, settings.oracle_password)
    try:
        probe_text_sync(probe_text_sync_conn)
    finally:
        probe_text_sync_conn.close()


def test_setup_reloads_a_dropped_embedding_model(settings, learner_note):
    from workshop_lib.config import EMBED_MODEL

    _run(settings, settings.oracle_user, settings.oracle_password,
         "BEGIN DBMS_VECTOR.DROP_ONNX_MODEL(model_name => :name, force => TRUE); END;", binds={"name": EMBED_MODEL})
    check = _doctor_checks(settings)["embedding model"]
    assert not check.ok and ORACLE_FIX in check.fix, check
    said = _setup(settings)
    assert any("[   done] embedding model" in line for line in said), said
    assert _doctor_checks(settings)["embedding model"].ok and _note_is_searchable(settings, learner_note)


def test_a_second_setup_after_the_repairs_skips_everything(settings, bootstrapped):
    _setup(settings)
    said = _setup(settings)
    for step in ("seed SUPPLYCHAIN", "embedding model", "memory tables", "text index", "catalog memories",
                 "memory vectors"):
        assert any(f"[skipped] {step}:" in line for line in said), (step, said)
    assert _oracle(settings).doctor().ok


def test_setup_with_a_wrong_admin_password_is_one_readable_line(settings, bootstrapped, monkeypatch, capsys):
    """ORA-01017 from the real database: `workshop setup` exits 2 with cause and fix, no traceback, no secret."""
    from workshop_lib.cli import main

    if not settings.admin_password:
        pytest.skip("needs ORACLE_ADMIN_PASSWORD (setup logs in as the admin first)")
    wrong = settings.admin_password + "x"
    monkeypatch.setenv("ORACLE_ADMIN_PASSWORD", wrong)
    assert main(["setup", "--backend", "oracle"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "ORA-01017" in err and "Fix:" in err, err
    assert "Traceback" not in captured.err + captured.out
    assert wrong not in captured.err + captured.out and settings.oracle_password not in captured.err + captured.out


def test_setup_reset_passwords_sets_them_and_they_still_log_in(settings, bootstrapped):
    if not settings.admin_password:
        pytest.skip("--reset-passwords needs ORACLE_ADMIN_PASSWORD")
    said = _setup(settings, upto="connect", reset_passwords=True)
    assert any("password reset from .env" in line for line in said), said
    connect_as(settings, settings.oracle_user, settings.oracle_password).close()
    connect_as(settings, SCHEMA, settings.supplychain_password).close()


def test_setup_recreates_a_dropped_chunk_table_and_re_embeds_every_memory(settings, learner_note):
    """Last on purpose: the damage is the widest (every vector gone). OAMP's CREATE_IF_NECESSARY recreates the
    table (and its vector index), then the memory-vectors step re-embeds every memory, the learner's included."""
    from workshop_lib.config import CHUNKS_TABLE

    try:
        _run(settings, settings.oracle_user, settings.oracle_password, f"DROP TABLE {CHUNKS_TABLE} CASCADE CONSTRAINTS PURGE")
    except Exception as exc:  # noqa: BLE001 - an OAMP object (its property graph) may hold on to the table
        pytest.skip(f"this OAMP schema does not let {CHUNKS_TABLE} be dropped alone: {diagnose(exc)}")
    check = _doctor_checks(settings)["memory tables"]
    assert not check.ok and ORACLE_FIX in check.fix, check
    said = _setup(settings)
    assert any("[   done] memory tables" in line for line in said), said
    assert any("[   done] memory vectors" in line for line in said), said
    checks = _doctor_checks(settings)
    assert checks["memory tables"].ok and checks["memory vectors"].ok, checks
    assert _note_is_searchable(settings, learner_note)
