"""Column lists LiteMemoryStore selects, and the conversion of fetched rows into OAMP records.

Values arrive as python-oracledb returns them (JSON as dict/list, TIMESTAMP as
datetime); records carry the caller's event timestamp, or the creation time
when none was given, as OAMP's DB store does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from oracleagentmemory.apis.records import MessageRecord, Record, RecordStatus, ThreadRecord, build_record

from . import _oamp

MEMORY_COLUMNS = ("record_id, memory_type, content, created_at, timestamp, metadata, "
                  "thread_id, user_id, agent_id, status, order_seq")
MESSAGE_COLUMNS = ("record_id, message_role, content, created_at, timestamp, metadata, "
                   "thread_id, user_id, agent_id, status, order_seq")
PROFILE_COLUMNS = "actor_id, actor_type, information, created_at, metadata, status, order_seq"
THREAD_COLUMNS = "record_id, user_id, agent_id, metadata, runtime_config, runtime_state, created_at"


def iso(value: Any) -> str | None:
    """ISO-8601 text of a fetched timestamp (None stays None)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def memory_record(row: Sequence[Any]) -> Record:
    """A MemoryRecord / GuidelineRecord / FactRecord / PreferenceRecord from a MEMORY_COLUMNS row."""
    record_id, memory_type, content, created_at, timestamp, metadata, thread_id, user_id, agent_id, status, _ = row
    return build_record(
        memory_type, record_id, content=content, thread_id=thread_id, user_id=user_id, agent_id=agent_id,
        timestamp=timestamp or iso(created_at), metadata=metadata, status=RecordStatus(status),
    )


def message_record(row: Sequence[Any]) -> MessageRecord:
    """A MessageRecord (content parts, role, seq_no) from a MESSAGE_COLUMNS row."""
    record_id, role, content, created_at, timestamp, metadata, thread_id, user_id, agent_id, status, seq = row
    return build_record(  # type: ignore[return-value]
        "message", record_id, content=_oamp.message_content_from_storage(content, record_id),
        thread_id=thread_id, user_id=user_id, agent_id=agent_id, role=role, seq_no=int(seq),
        timestamp=timestamp or iso(created_at), metadata=metadata, status=RecordStatus(status),
    )


def profile_record(row: Sequence[Any]) -> Record:
    """A UserProfileRecord or AgentProfileRecord from a PROFILE_COLUMNS row."""
    actor_id, actor_type, information, created_at, metadata, status, _ = row
    return build_record(
        f"{actor_type}_profile", actor_id, content=information, timestamp=iso(created_at),
        metadata=metadata, status=RecordStatus(status),
    )


def thread_record(row: Sequence[Any]) -> ThreadRecord:
    """A ThreadRecord (id and thread_id both the thread's id) from a THREAD_COLUMNS row."""
    record_id, user_id, agent_id, metadata, runtime_config, runtime_state, created_at = row
    return ThreadRecord(
        id=record_id, thread_id=record_id, user_id=user_id, agent_id=agent_id, metadata=metadata,
        runtime_config=runtime_config, runtime_state=runtime_state, timestamp=iso(created_at),
    )
