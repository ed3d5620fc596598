"""Short-lived data the checks create and always remove: TODO 1's scratch tables, TODO 2/3's probe memories."""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .. import config
from ..config import CHUNKS_TABLE, MEMORY_TABLE, SCHEMA
from .connection import _fetch, _run
from .harness import _Grader

PROBE_PREFIX = "workshop-check-"           # record ids of the short-lived memories the checks add
CHECK_SCHEMA = "WORKSHOP_CHECK"            # the subject prefix of the probe memories (no such schema exists)


@contextlib.contextmanager
def _scratch_schema(conn: Any) -> Iterator[str]:
    """A second schema for TODO 1: one commented table, one without a comment (dropped afterwards).

    The tables go in the connected user's own schema: the only one it may
    create tables in, on Oracle (no CREATE ANY TABLE) and on lite alike
    (lite/privileges.py). The uncommented table is named VESSELS, like a
    commented SUPPLYCHAIN table, so a comment join that forgets the owner picks
    up the wrong comment; when the user has a VESSELS table of its own, a
    unique name is used instead.
    """
    tag = uuid.uuid4().hex[:8].upper()
    owner = str(getattr(conn, "username", "") or "").upper()
    if not owner or owner == SCHEMA:
        raise RuntimeError(f"the check needs a connection as the agent user, not {owner or 'an unknown user'}")
    created: list[str] = []
    try:
        _run(conn, f"CREATE TABLE {owner}.CHK_{tag}_BERTHS (berth_id NUMBER PRIMARY KEY, berth_name VARCHAR2(40))")
        created.append(f"{owner}.CHK_{tag}_BERTHS")
        # spaces around the text, as a comment written by hand may have them: the body strips them
        _run(conn, f"COMMENT ON TABLE {created[0]} IS '  Check scratch table: berths of a port, one row per berth. '")
        for name in (f"{owner}.VESSELS", f"{owner}.CHK_{tag}_TUGS"):
            try:
                _run(conn, f"CREATE TABLE {name} (tug_id NUMBER PRIMARY KEY)")
            except Exception:  # noqa: BLE001 - a VESSELS table of the user's own exists: use a unique name
                continue
            created.append(name)
            break
        yield owner
    finally:
        for name in reversed(created):
            with contextlib.suppress(Exception):
                _run(conn, f"DROP TABLE {name} PURGE")


@dataclass
class _Probe:
    record_id: str
    text: str
    user_id: str
    agent_id: str
    kind: str
    why: str


STALE_AFTER = 15 * 60   # seconds: a probe older than this was left by an interrupted check
_PROBE_RUN = re.compile(re.escape(PROBE_PREFIX) + r"(\d{10})x")


def new_probe_run() -> str:
    """A fresh probe-run id: its creation time (epoch seconds) and a random part, e.g. ``1795392000x3f9a1c2b``."""
    return f"{int(time.time())}x{uuid.uuid4().hex[:8]}"


def _remove_stale_probes(ws: Any) -> None:
    """Delete probe memories an interrupted earlier check left behind — only old ones.

    Another kernel on the same home may be in the middle of its own check, so a
    probe is removed only when its id says it is older than STALE_AFTER (or it
    has no time in its id, as older versions wrote them).
    """
    rows = _fetch(ws.conn, f"SELECT record_id FROM {MEMORY_TABLE} WHERE record_id LIKE :prefix",
                  prefix=PROBE_PREFIX + "%")
    now = time.time()
    for (record_id,) in rows:
        match = _PROBE_RUN.match(record_id)
        if match is None or now - int(match.group(1)) > STALE_AFTER:
            _delete_probe(ws, record_id)


def _delete_probe(ws: Any, record_id: str) -> None:
    with contextlib.suppress(Exception):
        ws.memory_client.delete_memory(record_id)
    with contextlib.suppress(Exception):
        with ws.conn.cursor() as cur:
            cur.execute(f"DELETE FROM {CHUNKS_TABLE} WHERE source_id = :record_id", record_id=record_id)
        ws.conn.commit()


def _add_probes(grader: _Grader, ws: Any, text: str, specs: list[tuple[str, str, str, str]],
                *, invalid: tuple[str, ...] = ()) -> list[_Probe]:
    """Add short-lived memories with ``text`` as (suffix, user, agent, kind); removed at the end.

    The probes whose suffix is in ``invalid`` are stored with OAMP status
    ``invalid``, as a draft or a discarded correction is.
    """
    from oracleagentmemory.apis.records import RecordStatus

    probes = []
    run = new_probe_run()
    for suffix, user_id, agent_id, kind in specs:
        probe = _Probe(f"{PROBE_PREFIX}{run}-{suffix}", text, user_id, agent_id, kind, suffix)
        grader.stack.callback(_delete_probe, ws, probe.record_id)
        status = RecordStatus.INVALID if suffix in invalid else RecordStatus.VALID
        ws.memory_client.add_memory(text, user_id=user_id, agent_id=agent_id, memory_id=probe.record_id,
                                    metadata={"kind": kind, "subject": f"{CHECK_SCHEMA}.PROBE#{suffix}"},
                                    status=status)
        probes.append(probe)
    return probes


def _kindless_probe(grader: _Grader, ws: Any, text: str) -> str:
    """Add a short-lived memory with ``text`` whose metadata has no kind (as OAMP's own writes have none);
    returns its id. A tool_output filter without NVL drops it, although it is not tool output."""
    record_id = f"{PROBE_PREFIX}{new_probe_run()}-no-kind"
    grader.stack.callback(_delete_probe, ws, record_id)
    ws.memory_client.add_memory(text, user_id=ws.user_id, agent_id=ws.agent_id, memory_id=record_id,
                                metadata={"subject": f"{CHECK_SCHEMA}.PROBE#no-kind"})
    return record_id


def _probe_reason(probe: _Probe) -> str:
    return {
        "tool-output": "a tool_output memory (kind == 'tool_output' must be dropped)",
        "other-user": f"a memory of another user ({probe.user_id}); scope the search to USER_ID",
        "other-agent": f"a memory of another agent ({probe.agent_id}); scope the search to AGENT_ID",
        "draft": "a draft memory (OAMP status 'invalid'); only valid memories may come back",
    }.get(probe.why, probe.why)


def _scope_probes(grader: _Grader, ws: Any, text: str) -> list[_Probe]:
    """Memories a search must never return: tool output, another user's, another agent's, and a draft."""
    return _add_probes(grader, ws, text, [
        ("tool-output", ws.user_id, ws.agent_id, "tool_output"),
        ("other-user", config.OTHER_USER_ID, ws.agent_id, "guideline"),
        ("other-agent", ws.user_id, f"{ws.agent_id}_other", "guideline"),
        ("draft", ws.user_id, ws.agent_id, "guideline"),
    ], invalid=("draft",))


def _probe_hits(values: list[Any], probes: list[_Probe], key: Callable[[_Probe], str]) -> list[_Probe]:
    return [p for p in probes if key(p) in values]
