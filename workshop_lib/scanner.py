"""The catalog scanner: SUPPLYCHAIN's documented meaning, turned into long-term memories.

A :class:`Fact` is one thing a senior engineer would tell a new colleague
("capacity_teu is in TEU, never tons"). The scanners read the Oracle data
dictionary with bind variables (never string-built owner names); ``write_facts``
stores facts through the OAMP client with deterministic ids, so a re-scan
updates memories instead of duplicating them. ``EXTRA_MEMORIES`` are the
non-catalog notes (guidelines, runbooks, look-alike tool output) that make
retrieval interesting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from . import graded_calls
from .config import AGENT_ID, SCHEMA, USER_ID

# secondary = 'N': only real tables, never the ones Oracle's domain indexes keep in the schema
# (a spatial index's MDRT_…$, Oracle Text's DR$…), which both backends list in ALL_TABLES.
TABLES_SQL = """SELECT t.table_name, c.comments
FROM all_tables t
LEFT JOIN all_tab_comments c ON c.owner = t.owner AND c.table_name = t.table_name
WHERE t.owner = :owner AND t.secondary = 'N'
ORDER BY t.table_name"""

COLUMNS_SQL = """SELECT c.table_name, c.column_name, c.data_type, c.nullable, m.comments
FROM all_tab_columns c
JOIN all_tables t ON t.owner = c.owner AND t.table_name = c.table_name AND t.secondary = 'N'
LEFT JOIN all_col_comments m
  ON m.owner = c.owner AND m.table_name = c.table_name AND m.column_name = c.column_name
WHERE c.owner = :owner
ORDER BY c.table_name, c.column_id"""


@dataclass(frozen=True)
class Fact:
    """One piece of knowledge to remember: its kind, what it is about, and the text itself."""

    kind: str                       # table | column | guideline | runbook | tool_output
    subject: str                    # e.g. SUPPLYCHAIN.VESSELS or SUPPLYCHAIN.VESSELS.CAPACITY_TEU
    body: str                       # the memory text
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def memory_id(self) -> str:
        """Deterministic memory id: the same fact always lands on the same record."""
        slug = re.sub(r"[^a-z0-9]+", "-", f"{self.kind}:{self.subject}".lower()).strip("-")
        return f"fact-{slug}"[:128]

    def memory_metadata(self) -> dict[str, Any]:
        """Metadata stored with the memory: kind and subject first, then the rest."""
        return {"kind": self.kind, "subject": self.subject, **self.metadata}


def table_body(owner: str, table: str, comment: str | None) -> str:
    """The memory text for a table fact (never contains 'None')."""
    if comment and comment.strip():
        return f"Table {owner}.{table}. Documented purpose: {comment.strip()}"
    return f"Table {owner}.{table}. Documented purpose: not documented (the table has no comment)."


def column_body(owner: str, table: str, column: str, data_type: str, nullable: str, comment: str | None) -> str:
    """The memory text for a column fact (never contains 'None')."""
    null_text = "nullable" if nullable == "Y" else "not null"
    meaning = comment.strip() if comment and comment.strip() else "not documented (the column has no comment)."
    return f"Column {owner}.{table}.{column} of type {data_type} ({null_text}). Meaning: {meaning}"


def scan_tables(conn: Any, owner: str = SCHEMA) -> list[Fact]:
    """One Fact per table of ``owner`` (the reference solution of TODO 1)."""
    graded_calls.note("scan_tables")   # the checks refuse this as a learner's answer
    owner = owner.upper()
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [
        Fact("table", f"{owner}.{table}", table_body(owner, table, comment),
             {"owner": owner, "table": table, "source": "catalog_scanner"})
        for table, comment in rows
    ]


def scan_columns(conn: Any, owner: str = SCHEMA) -> list[Fact]:
    """One Fact per column of ``owner``'s tables, with type, nullability and comment."""
    owner = owner.upper()
    with conn.cursor() as cur:
        cur.execute(COLUMNS_SQL, owner=owner)
        rows = cur.fetchall()
    return [
        Fact("column", f"{owner}.{table}.{column}", column_body(owner, table, column, dtype, nullable, comment),
             {"owner": owner, "table": table, "column": column, "data_type": dtype, "source": "catalog_scanner"})
        for table, column, dtype, nullable, comment in rows
    ]


def _progress(items: list[Fact], enabled: bool, desc: str) -> Iterable[Fact]:
    if not enabled:
        return items
    import sys

    from tqdm import tqdm

    # A text bar on stdout rather than tqdm.auto's widget: a saved notebook and a CI log keep the
    # text, whose last state is the finished bar (a widget's state is not saved: it shows 0 %).
    return tqdm(items, desc=desc, unit="fact", file=sys.stdout)


def write_facts(memory_client: Any, facts: Iterable[Fact], *, user_id: str = USER_ID, agent_id: str = AGENT_ID,
                progress: bool = True, desc: str = "writing memories", replace: bool = False) -> list[str]:
    """Store ``facts`` as OAMP memories with deterministic ids; a re-run replaces, never duplicates.

    Returns the memory ids in input order. Facts with the same id in one call
    are an error (two facts about one subject would overwrite each other).
    With ``replace=True`` (a full scan) fact memories of the same kinds that an
    earlier scan wrote and this one did not — e.g. from a wrong first attempt
    at TODO 1 — are deleted, so a fixed scan leaves no stale facts behind.
    On lite the bodies are embedded in one batch and the writes commit once,
    together (a failure leaves none of them).
    """
    facts = list(facts)
    seen: dict[str, Fact] = {}
    for fact in facts:
        if not isinstance(fact, Fact):
            raise TypeError(f"write_facts expects Fact objects, got {type(fact).__name__}")
        if not fact.body or not fact.body.strip():
            raise ValueError(f"fact {fact.subject!r} has an empty body")
        if fact.memory_id in seen:
            raise ValueError(f"two facts share the id {fact.memory_id!r} ({fact.subject!r}); subjects must be unique")
        seen[fact.memory_id] = fact
    import contextlib

    from .memory.client import put_memory

    # A store that can batch (lite's) embeds every body in one run and commits once at the end
    # (all or nothing); any other store gets one call per fact, as OAMP does it.
    batched = getattr(getattr(memory_client, "_store", None), "batched_writes", None)
    batch = batched([f.body for f in facts]) if callable(batched) and facts else contextlib.nullcontext()
    ids = []
    with batch:
        for fact in _progress(facts, progress, desc):
            # OAMP refuses a duplicate id on add; put_memory updates (re-embedding) or adds.
            ids.append(put_memory(memory_client, fact.body, memory_id=fact.memory_id, user_id=user_id,
                                  agent_id=agent_id, metadata=fact.memory_metadata()))
        if replace:
            _remove_stale_facts(memory_client, {f.kind for f in facts}, set(ids), user_id, agent_id)
    return ids


def _remove_stale_facts(memory_client: Any, kinds: set[str], keep: set[str], user_id: str, agent_id: str) -> list[str]:
    """Delete fact memories of ``kinds`` an earlier scan wrote that this scan did not write again."""
    stale = [m.id for m in memory_client.list_memories(user_id=user_id, agent_id=agent_id, limit=None)
             if str(m.id).startswith("fact-") and (m.metadata or {}).get("kind") in kinds and m.id not in keep]
    for memory_id in stale:
        memory_client.delete_memory(memory_id)
    return stale


EXTRA_MEMORIES: tuple[Fact, ...] = (
    Fact("guideline", "SUPPLYCHAIN.CARGO_ITEMS.UNIT_VALUE_CENTS",
         "Guideline: CARGO_ITEMS.UNIT_VALUE_CENTS is stored in US dollar cents. Divide by 100 to report dollars; "
         "total cargo value in USD is SUM(quantity * unit_value_cents) / 100."),
    Fact("guideline", "SUPPLYCHAIN.VESSELS.CAPACITY_TEU",
         "Guideline: vessel capacity is measured in TEU (twenty-foot equivalent units), a count of standard "
         "20-foot containers, not a weight. Never convert TEU to tons or tonnes."),
    Fact("guideline", "SUPPLYCHAIN.VOYAGES.STATUS",
         "Guideline: a voyage is in progress when its status is ACTIVE or DELAYED; SCHEDULED voyages have not "
         "departed and COMPLETED voyages have arrived."),
    Fact("runbook", "ORA-00904",
         "Runbook: ORA-00904 invalid identifier usually means a misspelt column or an unquoted alias used in "
         "WHERE. Check ALL_TAB_COLUMNS for the real column name, e.g. CAPACITY_TEU rather than CAPACITY."),
    Fact("runbook", "ORA-29855",
         "Runbook: ORA-29855 while creating the Oracle Text CONTEXT index means the user lacks the CTXAPP role. "
         "Fix: GRANT CTXAPP TO the agent user, then create the index again."),
    Fact("runbook", "ORA-51962",
         "Runbook: ORA-51962 means the vector memory pool is exhausted. Fix: raise vector_memory_size "
         "(ALTER SYSTEM SET vector_memory_size = 512M SCOPE=SPFILE) and restart the database."),
    Fact("tool_output", "SUPPLYCHAIN.VESSELS.CAPACITY_TEU#sample",
         "Tool output: SELECT capacity_teu FROM supplychain.vessels returned 24346, 23992, 20568 for vessel "
         "capacity in TEU (twenty-foot equivalent units) — raw query output, not documentation."),
    Fact("tool_output", "SUPPLYCHAIN.VESSEL_POSITIONS#sample",
         "Tool output: query of SUPPLYCHAIN.VESSEL_POSITIONS where we record vessel current positions returned "
         "30 rows of latitude, longitude and recorded_at — raw query output, not documentation."),
    Fact("tool_output", "SUPPLYCHAIN.CARGO_ITEMS.UNIT_VALUE_CENTS#sample",
         "Tool output: SUM(unit_value_cents) over cargo items returned 912345678 — raw query output in cents, "
         "not documentation."),
)


@dataclass
class ScanReport:
    """What a reference scan wrote."""

    tables: int
    columns: int
    extras: int
    written: int = 0    # fact memories this scan (re)wrote: missing, or their text changed
    removed: int = 0    # stale fact memories an earlier scan wrote that the catalog no longer yields
    others: int = 0     # memories a scan does not write (the learner's own), left untouched

    @property
    def total(self) -> int:
        """All memories written."""
        return self.tables + self.columns + self.extras

    def __str__(self) -> str:
        return f"{self.tables} table facts, {self.columns} column facts, {self.extras} extra memories"


def stored_memories(conn: Any, *, user_id: str = USER_ID, agent_id: str = AGENT_ID) -> dict[str, str]:
    """record_id -> content (first 4000 characters) of the memories stored for one user and agent."""
    from .config import MEMORY_TABLE

    with conn.cursor() as cur:
        cur.execute(f"SELECT record_id, DBMS_LOB.SUBSTR(content, 4000, 1) FROM {MEMORY_TABLE} "
                    "WHERE user_id = :user_id AND agent_id = :agent_id", user_id=user_id, agent_id=agent_id)
        return {rid: content for rid, content in cur.fetchall()}


def _stored_facts(conn: Any, user_id: str, agent_id: str) -> dict[str, tuple[str | None, str]]:
    """record_id -> (kind, first 4000 characters) of the ``fact-`` memories stored for one user and agent:
    what a scan compares with and the doctor checks, one statement whatever the learner's own memories."""
    from .config import MEMORY_TABLE

    with conn.cursor() as cur:
        cur.execute(f"SELECT record_id, JSON_VALUE(metadata, '$.kind'), DBMS_LOB.SUBSTR(content, 4000, 1) "
                    f"FROM {MEMORY_TABLE} WHERE user_id = :user_id AND agent_id = :agent_id "
                    "AND record_id LIKE 'fact-%'", user_id=user_id, agent_id=agent_id)
        return {rid: (kind, text) for rid, kind, text in cur.fetchall()}


def _other_memories(conn: Any, user_id: str, agent_id: str) -> int:
    """How many memories of one user and agent are not ``fact-`` memories (counted, not read: 10^5 texts
    took a scan 0.3 s to read)."""
    from .config import MEMORY_TABLE

    with conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM {MEMORY_TABLE} "
                    "WHERE user_id = :user_id AND agent_id = :agent_id AND record_id NOT LIKE 'fact-%'",
                    user_id=user_id, agent_id=agent_id)
        return int(cur.fetchone()[0])


def reference_scan(ws: Any, *, progress: bool = False, owner: str = SCHEMA, force: bool = False) -> ScanReport:
    """Scan ``owner`` with the reference scanners and store the facts plus EXTRA_MEMORIES.

    Idempotent and cheap to repeat: only facts whose memory is missing or
    whose text changed are written (``force=True`` rewrites all of them), and
    the fact memories :func:`stale_facts` would report are deleted, so the
    doctor's "catalog memories" check and this scan always agree.
    """
    tables = scan_tables(ws.conn, owner)
    columns = scan_columns(ws.conn, owner)
    everything = [*tables, *columns, *EXTRA_MEMORIES]
    stored = _stored_facts(ws.conn, ws.user_id, ws.agent_id)
    facts = everything if force else [f for f in everything if stored.get(f.memory_id, (None, None))[1] != f.body]
    if facts:
        write_facts(ws.memory_client, facts, user_id=ws.user_id, agent_id=ws.agent_id, progress=progress)
    stale = _stale_among(stored, {f.memory_id for f in everything})   # the writes only wrote those ids
    for memory_id in stale:
        ws.memory_client.delete_memory(memory_id)
    return ScanReport(len(tables), len(columns), len(EXTRA_MEMORIES), written=len(facts), removed=len(stale),
                      others=_other_memories(ws.conn, ws.user_id, ws.agent_id))


#: The kinds a catalog scan writes: a ``fact-`` memory of another kind was written by someone else and is kept.
SCANNED_KINDS = frozenset({"table", "column", *(f.kind for f in EXTRA_MEMORIES)})


def stale_facts(conn: Any, *, owner: str = SCHEMA, user_id: str = USER_ID, agent_id: str = AGENT_ID) -> dict[str, str]:
    """Fact memories stored for ``user_id``/``agent_id`` that a scan of ``owner`` would not write now.

    Returns record_id -> content. A fact memory's id is derived from its
    subject, so one of a kind the scan writes (SCANNED_KINDS) that the current
    catalog (plus EXTRA_MEMORIES) does not yield was written by an earlier,
    different scan — typically a wrong first attempt at TODO 1 — and would
    surface in search results as if it were documentation. The learner's own
    memories (other ids, or other kinds) are never listed.
    """
    expected = {f.memory_id for f in (*scan_tables(conn, owner), *scan_columns(conn, owner), *EXTRA_MEMORIES)}
    return _stale_among(_stored_facts(conn, user_id, agent_id), expected)


def _stale_among(stored: dict[str, tuple[str | None, str]], expected: set[str]) -> dict[str, str]:
    """record_id -> content of the ``stored`` fact memories of a scanned kind whose id is not in ``expected``."""
    return {rid: text for rid, (kind, text) in stored.items() if kind in SCANNED_KINDS and rid not in expected}
