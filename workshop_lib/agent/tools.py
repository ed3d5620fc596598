"""The agent's tools: retrieval, hybrid search, read-only SQL, and proposing a memory for review.

Each tool is a Python function plus the JSON schema the model sees
(OpenAI's function-calling format, which litellm translates for every
provider). :class:`ToolBox` runs a tool call from the model and always
returns text: an unknown tool name, arguments that are not JSON or do not
fit the function, and any error inside the tool come back to the model as
``error: ...`` so it can correct itself — a model's mistake never crashes
the loop.

``run_sql`` is read-only by construction: sqlglot parses the text with the
Oracle dialect and only one SELECT (WITH ... SELECT, set operations) without
``FOR UPDATE`` is run; anything else is refused before it reaches the
database, so nothing can change. Rows are capped and the call is timed out
where the driver supports it (python-oracledb's ``call_timeout``).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import inspect
import json
from dataclasses import dataclass
from typing import Any, Callable

import sqlglot
from sqlglot import exp

from ..errors import WorkshopError

__all__ = ["Tool", "ToolBox", "ReadOnlySQLError", "check_read_only", "run_sql", "workshop_tools",
           "MAX_ROWS", "SQL_TIMEOUT_MS"]

MAX_ROWS = 50            # rows run_sql returns to the model (more are counted, not sent)
SQL_TIMEOUT_MS = 10_000  # python-oracledb call_timeout for one run_sql statement

_WRITES = (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Drop, exp.Alter, exp.Command,
           exp.TruncateTable, exp.Grant, exp.Lock)


class ReadOnlySQLError(WorkshopError):
    """run_sql was given something other than one read-only SELECT; nothing was run."""


@dataclass(frozen=True)
class Tool:
    """One tool: its name, what the model is told about it, its JSON-schema parameters, and the function."""

    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., Any]

    def spec(self) -> dict[str, Any]:
        """The tool as OpenAI's function-calling format describes it (litellm's ``tools=`` entry)."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}


def _jsonable(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "read"):
        return value.read()
    return value


class ToolBox:
    """The tools offered to the model, and the dispatcher that answers every tool call with text."""

    def __init__(self, tools: list[Tool]):
        names = [t.name for t in tools]
        if len(set(names)) != len(names):
            raise ValueError(f"tool names must be unique, got {names}")
        self.tools = {t.name: t for t in tools}
        self.calls: list[dict[str, Any]] = []   # every call made through this toolbox: name, arguments, result

    def specs(self) -> list[dict[str, Any]]:
        """The ``tools=`` list for litellm."""
        return [t.spec() for t in self.tools.values()]

    def call(self, name: str, arguments: str | dict | None) -> str:
        """Run tool ``name`` with the model's ``arguments`` (JSON text); the result or the error, as text."""
        result = self._call(name, arguments)
        self.calls.append({"name": name, "arguments": arguments, "result": result})
        return result

    def _call(self, name: str, arguments: str | dict | None) -> str:
        tool = self.tools.get(name)
        if tool is None:
            return f"error: there is no tool named {name!r}; the tools are: {', '.join(self.tools)}."
        if isinstance(arguments, dict):
            args = arguments
        else:
            try:
                args = json.loads(arguments or "{}")
            except json.JSONDecodeError as exc:
                return f"error: the arguments for {name} are not valid JSON ({exc.msg} at position {exc.pos}); " \
                       f"send a JSON object such as {json.dumps(_example(tool))}."
        if not isinstance(args, dict):
            return f"error: the arguments for {name} must be a JSON object, got {type(args).__name__}."
        try:
            inspect.signature(tool.fn).bind(**args)
        except TypeError as exc:
            return f"error: wrong arguments for {name}: {exc}; expected {json.dumps(_example(tool))}."
        try:
            value = tool.fn(**args)
        except Exception as exc:  # a tool's failure is the model's information, not a crash
            return f"error: {type(exc).__name__}: {exc}"
        return value if isinstance(value, str) else json.dumps(_jsonable(value), ensure_ascii=False)


def _example(tool: Tool) -> dict[str, Any]:
    props = tool.parameters.get("properties", {})
    return {k: f"<{v.get('type', 'value')}>" for k, v in props.items() if k in tool.parameters.get("required", [])}


def check_read_only(sql: str) -> str:
    """``sql`` without a trailing semicolon if it is exactly one read-only query; ReadOnlySQLError otherwise."""
    if not isinstance(sql, str) or not sql.strip():
        raise ReadOnlySQLError("run_sql needs the text of one SELECT statement.")
    text = sql.strip().rstrip(";").strip()
    try:
        statements = [s for s in sqlglot.parse(text, read="oracle") if s is not None]
    except sqlglot.errors.ParseError as exc:
        first = str(exc).splitlines()[0]
        raise ReadOnlySQLError(f"run_sql could not read the statement as Oracle SQL: {first}") from None
    if len(statements) != 1:
        raise ReadOnlySQLError(f"run_sql runs exactly one statement, got {len(statements)}; send one SELECT.")
    tree = statements[0]
    if not isinstance(tree, exp.Query):
        verb = {"truncatetable": "TRUNCATE"}.get(tree.key, tree.key.upper())
        raise ReadOnlySQLError(f"run_sql only runs queries (SELECT or WITH ... SELECT); got {verb}. "
                               "Nothing was changed.")
    if tree.args.get("locks"):
        raise ReadOnlySQLError("run_sql refuses SELECT ... FOR UPDATE (it locks rows); drop FOR UPDATE.")
    write = next(tree.find_all(*_WRITES), None)
    if write is not None:
        raise ReadOnlySQLError(f"run_sql refuses {write.key.upper()} inside a query; it is read-only. "
                               "Nothing was changed.")
    return text


def run_sql(conn: Any, sql: str, *, max_rows: int = MAX_ROWS, timeout_ms: int = SQL_TIMEOUT_MS) -> dict[str, Any]:
    """Run one read-only query on ``conn``; ``{"columns", "rows", "row_count", "truncated"}``.

    Refused statements raise :class:`ReadOnlySQLError` before anything runs;
    database errors propagate (the ToolBox turns them into text for the model).
    """
    text = check_read_only(sql)
    previous = getattr(conn, "call_timeout", None)
    if previous is not None:
        conn.call_timeout = timeout_ms
    try:
        with conn.cursor() as cur:
            cur.execute(text)
            columns = [d[0] for d in cur.description]
            rows = cur.fetchmany(max_rows + 1)
    finally:
        if previous is not None:
            conn.call_timeout = previous
    return {"columns": columns, "rows": [list(r) for r in rows[:max_rows]],
            "row_count": min(len(rows), max_rows), "truncated": len(rows) > max_rows}


def workshop_tools(ws: Any, *, retrieve: Callable[..., Any], hybrid: Callable[..., Any],
                   propose: Callable[..., Any] | None = None) -> ToolBox:
    """The four tools of the Part 4 agent over workshop ``ws``.

    ``retrieve`` and ``hybrid`` are the Part 3 searches (``retrieve(query, k=,
    kinds=)`` and ``hybrid(query, k=)``, e.g. the library's versions);
    ``propose`` stores a draft memory for review (never an accepted one) and
    defaults to :func:`~workshop_lib.memory.lifecycle.propose_memory`.
    """
    from ..memory.lifecycle import propose_memory

    def _retrieve(query: str, k: int = 5, kinds: list[str] | None = None) -> Any:
        return [{"memory_id": h["metadata"].get("memory_id"), "kind": h["kind"], "subject": h["subject"],
                 "body": h["body"]} for h in retrieve(query, k=k, kinds=kinds)]

    def _hybrid(query: str, k: int = 5) -> Any:
        return [{k2: v for k2, v in h.items() if k2 in ("kind", "subject", "body", "rrf_score")}
                for h in hybrid(query, k=k)]

    def _sql(sql: str) -> Any:
        return run_sql(ws.conn, sql)

    def _propose(content: str, subject: str, contradicts: str | None = None) -> Any:
        if propose is not None:
            return propose(content=content, subject=subject, contradicts=contradicts)
        memory_id = propose_memory(ws.memory_client, content, user_id=ws.user_id, agent_id=ws.agent_id,
                                   subject=subject, contradicts=contradicts, source="agent")
        return {"draft_id": memory_id, "status": "draft", "note": "a reviewer must accept it before it is used"}

    text = {"type": "string"}
    return ToolBox([
        Tool("retrieve_knowledge", "Search the workshop's long-term memory (vector search + rerank). Returns "
             "memories with their memory_id, kind, subject and body.",
             {"type": "object", "properties": {"query": text, "k": {"type": "integer"},
                                               "kinds": {"type": "array", "items": text}},
              "required": ["query"]}, _retrieve),
        Tool("hybrid_search", "Search memory by meaning and exact words together (vector + Oracle Text, RRF).",
             {"type": "object", "properties": {"query": text, "k": {"type": "integer"}}, "required": ["query"]},
             _hybrid),
        Tool("run_sql", "Run ONE read-only Oracle SQL query (SELECT or WITH) as the agent user on the "
             "SUPPLYCHAIN schema; at most 50 rows come back. DML and DDL are refused.",
             {"type": "object", "properties": {"sql": text}, "required": ["sql"]}, _sql),
        Tool("propose_memory", "Propose a fact to remember, as a DRAFT that a human reviews before it is used.",
             {"type": "object", "properties": {"content": text, "subject": text, "contradicts": text},
              "required": ["content", "subject"]}, _propose),
    ])
