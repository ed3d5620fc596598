"""The Part 4 agent: tools, the loop, litellm over real HTTP, readable failures, runs and long-term memory."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from workshop_lib.agent.llm import LLMError
from workshop_lib.agent.models import OFFLINE_MODEL, choose_model  # not offline.py: it imports litellm (3 s)
from workshop_lib.agent.longterm import LongTermMemory, memory_block, rule_extract
from workshop_lib.agent.loop import run_agent
from workshop_lib.agent.runs import list_runs, load_run, save_run
from workshop_lib.agent.tools import ReadOnlySQLError, Tool, ToolBox, check_read_only, run_sql, workshop_tools
from workshop_lib.memory.lifecycle import Status, read_lifecycle, review_queue
from workshop_lib.reference import hybrid_rrf_search_memories, retrieve_knowledge

VALUE_Q = "What is the total declared value of the cargo on voyage CMDU-25001E, in US dollars?"
CAPACITY_Q = "What is the capacity of the vessel 'MAERSK HALDEN', with its unit?"


@pytest.fixture(scope="module")
def ws(memory_ws):
    return memory_ws


def _tools(ws):
    return workshop_tools(ws, retrieve=retrieve_knowledge, hybrid=hybrid_rrf_search_memories)


def _ask(question, memories=(), **kw):
    return [{"role": "system", "content": "You are the supply-chain agent.\n" + memory_block(list(memories))},
            {"role": "user", "content": question}]


# -- run_sql is read-only -------------------------------------------------------------------------

@pytest.mark.parametrize("sql,message", [
    ("DELETE FROM supplychain.vessels", "got DELETE"),
    ("UPDATE supplychain.vessels SET capacity_teu = 0", "got UPDATE"),
    ("DROP TABLE supplychain.vessels", "got DROP"),
    ("TRUNCATE TABLE supplychain.vessels", "got TRUNCATE"),
    ("SELECT 1 FROM dual; DELETE FROM supplychain.vessels", "exactly one statement, got 2"),
    ("SELECT * FROM supplychain.vessels FOR UPDATE", "FOR UPDATE"),
    ("BEGIN DELETE FROM supplychain.vessels; END;", "could not read"),
    ("", "needs the text"),
])
def test_run_sql_refuses_everything_but_one_query(ws, sql, message):
    with pytest.raises(ReadOnlySQLError, match=message):
        run_sql(ws.conn, sql)
    with ws.conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM supplychain.vessels")
        assert cur.fetchone()[0] == 30


def test_run_sql_caps_rows_and_reads_with():
    assert check_read_only("WITH v AS (SELECT 1 x FROM dual) SELECT x FROM v;") == \
        "WITH v AS (SELECT 1 x FROM dual) SELECT x FROM v"


def test_run_sql_returns_capped_rows(ws):
    out = run_sql(ws.conn, "SELECT cargo_item_id FROM supplychain.cargo_items ORDER BY cargo_item_id", max_rows=7)
    assert out["row_count"] == 7 and out["truncated"] and out["rows"][0] == [1]


# -- the toolbox answers every mistake ------------------------------------------------------------

def test_toolbox_answers_unknown_tools_bad_json_and_errors():
    box = ToolBox([Tool("add", "adds", {"type": "object", "properties": {"a": {"type": "integer"}},
                                        "required": ["a"]}, lambda a: a + 1)])
    assert box.call("add", '{"a": 1}') == "2"
    assert box.call("nope", "{}").startswith("error: there is no tool named 'nope'; the tools are: add")
    assert "not valid JSON" in box.call("add", "{a: 1")
    assert "wrong arguments for add" in box.call("add", '{"b": 1}')
    assert box.call("add", '{"a": "x"}').startswith("error: TypeError")
    assert "must be a JSON object" in box.call("add", "[1]")
    assert len(box.calls) == 6


def test_a_sql_error_goes_back_to_the_model_as_text(ws):
    box = _tools(ws)
    result = box.call("run_sql", json.dumps({"sql": "SELECT no_such_column FROM supplychain.vessels"}))
    assert result.startswith("error:") and "ORA-00904" in result


# -- the loop with the offline model --------------------------------------------------------------

def _truth(ws):
    with ws.conn.cursor() as cur:
        cur.execute("SELECT SUM(ci.quantity * ci.unit_value_cents) FROM supplychain.cargo_items ci "
                    "JOIN supplychain.containers c ON c.container_id = ci.container_id "
                    "JOIN supplychain.voyages v ON v.voyage_id = c.voyage_id WHERE v.voyage_number = 'CMDU-25001E'")
        cents = int(cur.fetchone()[0])
        cur.execute("SELECT capacity_teu FROM supplychain.vessels WHERE vessel_name = 'MAERSK HALDEN'")
        return cents, int(cur.fetchone()[0])


def test_offline_model_misreads_units_without_memory_and_cites_with_it(ws):
    cents, teu = _truth(ws)
    tools = _tools(ws)
    before = run_agent(_ask(VALUE_Q), tools=tools)
    assert before.offline and "offline teaching model" in before.label and before.stopped == "answer"
    assert f"${cents:,.2f}" in before.answer              # cents read as dollars: 100x too much
    after = run_agent(_ask(VALUE_Q, [("m-1", "CARGO_ITEMS.UNIT_VALUE_CENTS is USD cents; divide by 100.")]),
                      tools=tools)
    assert f"${cents / 100:,.2f}" in after.answer and "[memory:m-1]" in after.answer
    tons = run_agent(_ask(CAPACITY_Q), tools=tools)
    assert f"{teu:,} tons" in tons.answer
    teu_run = run_agent(_ask(CAPACITY_Q, [("m-2", "VESSELS.CAPACITY_TEU is in TEU, never tons.")]), tools=tools)
    assert f"{teu:,} TEU" in teu_run.answer and "[memory:m-2]" in teu_run.answer
    assert [c["name"] for c in teu_run.tool_calls] == ["run_sql"] and teu_run.steps == 2
    assert run_agent(_ask(VALUE_Q), tools=tools).answer == before.answer   # deterministic


def test_step_limit_and_input_validation(ws):
    run = run_agent(_ask(VALUE_Q), tools=_tools(ws), max_steps=1)
    assert run.stopped == "step_limit" and "stopped after 1 steps" in run.answer
    with pytest.raises(ValueError, match="max_steps"):
        run_agent(_ask(VALUE_Q), max_steps=0)
    with pytest.raises(ValueError, match="user message"):
        run_agent([{"role": "system", "content": "x"}])


def test_without_tools_the_model_is_told_so():
    run = run_agent(_ask(VALUE_Q), tools=None, max_steps=2)
    assert run.tool_calls[0]["result"].startswith("error: no tools are available")


# -- a real provider path: litellm over HTTP to a scripted OpenAI-compatible server ----------------

class _Scripted(BaseHTTPRequestHandler):
    script: list = []
    seen: list = []
    status = 200

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(body)
        if type(self).status != 200:
            payload = {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error",
                                 "code": "invalid_api_key"}}
            self.send_response(type(self).status)
        else:
            message = type(self).script.pop(0)
            payload = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                       "choices": [{"index": 0, "message": message,
                                    "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
                       "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
            self.send_response(200)
        data = json.dumps(payload).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    _Scripted.script, _Scripted.seen, _Scripted.status = [], [], 200
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_a_real_provider_over_http_runs_tool_calls(ws, server):
    _Scripted.script = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "run_sql", "arguments": json.dumps(
                {"sql": "SELECT capacity_teu FROM supplychain.vessels WHERE vessel_name = 'MAERSK HALDEN'"})}},
            {"id": "call_b", "type": "function", "function": {"name": "no_such_tool", "arguments": "{}"}}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_c", "type": "function", "function": {"name": "run_sql", "arguments": "{not json"}}]},
        {"role": "assistant", "content": "MAERSK HALDEN carries 17,480 TEU."},
    ]
    run = run_agent(_ask(CAPACITY_Q), tools=_tools(ws), model="openai/scripted-model",
                    api_base=server, api_key="sk-test")
    assert run.answer == "MAERSK HALDEN carries 17,480 TEU." and not run.offline and run.steps == 3
    assert json.loads(run.tool_calls[0]["result"])["rows"] == [[17480]]
    assert run.tool_calls[1]["result"].startswith("error: there is no tool named 'no_such_tool'")
    assert "not valid JSON" in run.tool_calls[2]["result"]
    first, last = _Scripted.seen[0], _Scripted.seen[-1]
    assert {t["function"]["name"] for t in first["tools"]} == {"retrieve_knowledge", "hybrid_search", "run_sql",
                                                              "propose_memory"}
    assert [m["role"] for m in last["messages"]][-3:] == ["tool", "assistant", "tool"]


def test_an_auth_failure_is_one_readable_message(server):
    _Scripted.status = 401
    with pytest.raises(LLMError, match="refused the credentials.*Unset WORKSHOP_LLM_MODEL") as info:
        run_agent(_ask(CAPACITY_Q), model="openai/scripted-model", api_base=server, api_key="sk-bad",
                  num_retries=0)
    assert "Traceback" not in str(info.value)


def test_an_unreachable_endpoint_is_one_readable_message():
    with pytest.raises(LLMError, match="Unset WORKSHOP_LLM_MODEL"):
        run_agent(_ask(CAPACITY_Q), model="openai/scripted-model", api_base="http://127.0.0.1:9/v1",
                  api_key="sk-x", num_retries=0, timeout=5)


def test_model_choice():
    assert choose_model(model=None).offline or os.environ.get("WORKSHOP_LLM_MODEL")
    assert choose_model(model="ollama/llama3.1").label == "ollama/llama3.1"
    assert choose_model(model=OFFLINE_MODEL).offline


# -- runs and long-term memory ---------------------------------------------------------------------

def test_runs_are_stored_listed_and_resumed(ws):
    run = run_agent(_ask(CAPACITY_Q), tools=_tools(ws))
    thread_id = save_run(ws.memory_client, run.messages, user_id=ws.user_id, agent_id=ws.agent_id,
                         title="capacity", model=run.model)
    assert thread_id in {r["thread_id"] for r in list_runs(ws.memory_client, user_id=ws.user_id,
                                                            agent_id=ws.agent_id)}
    restored = load_run(ws.memory_client, thread_id)
    assert [m["role"] for m in restored] == [m["role"] for m in run.messages]
    assert restored[2]["tool_calls"] == run.messages[2]["tool_calls"]
    assert restored[3]["tool_call_id"] == run.messages[3]["tool_call_id"]
    resumed = run_agent(restored + [{"role": "user", "content": VALUE_Q}], tools=_tools(ws))
    assert resumed.answer.startswith("The declared value of voyage CMDU-25001E")


def test_long_term_memory_retrieves_accepted_and_extracts_drafts(ws):
    from workshop_lib.reference import set_memory_status

    ltm = LongTermMemory(ws, retrieve=retrieve_knowledge)
    messages = [{"role": "user", "content": "Remember: VESSELS.CAPACITY_TEU is measured in TEU, not tons."}]
    assert rule_extract(messages) == [("VESSELS.CAPACITY_TEU is measured in TEU, not tons.", "VESSELS.CAPACITY_TEU")]
    draft, = ltm.on_session_end(messages)
    assert read_lifecycle(ws.conn, draft).status is Status.DRAFT
    assert "No reviewed memories" in ltm.on_session_start(_ask(CAPACITY_Q)[1:])[0]["content"]
    set_memory_status(draft, "accepted")
    started = ltm.on_session_start(_ask(CAPACITY_Q)[1:])
    assert started[0]["role"] == "system" and f"[memory:{draft}]" in started[0]["content"]
    answer = run_agent(started, tools=_tools(ws)).answer
    assert "TEU" in answer and f"[memory:{draft}]" in answer


def test_a_grounded_answer_without_its_run_falls_back_to_the_librarys(ws, capsys):
    """The before/after cells read ``["run"]`` (its label, messages, model): a result without it is not used."""
    from workshop_lib.agent.loop import AgentRun
    from workshop_lib.notebook import yours_or_reference

    def grounded_answer(question, k=3):
        return {"answer": "I do not know", "memory_ids": []}

    result = yours_or_reference(grounded_answer, CAPACITY_Q)
    assert '"answer", "memory_ids" and "run"' in capsys.readouterr().out
    assert isinstance(result["run"], AgentRun) and result["answer"] == result["run"].answer


def test_long_term_memory_files_a_candidate_once(ws):
    """A session run again (a notebook re-run) does not queue the same fact twice; a discarded one may come back."""
    from workshop_lib.reference import set_memory_status

    ltm = LongTermMemory(ws, retrieve=retrieve_knowledge)
    fact = "Remember: VESSELS.DEADWEIGHT_TONNES is in metric tonnes."

    def queued() -> list[str]:
        return [s.memory_id for s in review_queue(ws.conn, ws.user_id, ws.agent_id)]

    before = queued()
    first = ltm.on_session_end([{"role": "user", "content": fact}, {"role": "user", "content": fact.upper()}])
    assert len(first) == 1 and queued() == before + first
    assert ltm.on_session_end([{"role": "user", "content": "Remember:  vessels.deadweight_tonnes is in metric "
                                                           "tonnes."}]) == []
    set_memory_status(first[0], "accepted")
    assert ltm.on_session_end([{"role": "user", "content": fact}]) == [], "already accepted"
    set_memory_status(first[0], "discard")
    again, = ltm.on_session_end([{"role": "user", "content": fact}])
    assert queued() == before + [again]
