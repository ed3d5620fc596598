"""The few OAMP internals LiteMemoryStore reuses, gathered in one place.

``oracleagentmemory`` ships compiled code and documents only its public API.
For two behaviours the lite store must match the Oracle DB store byte for
byte, and OAMP's own helpers are the only faithful source:

* metadata filters (validation, the ``$array_contains``/``$not`` operators,
  recursive dict matching, exact list equality, JSON scalar equality);
* the JSON shape of stored message content (ordered text parts with ids).

Re-implementing them would drift from the SDK. The package is pinned to an
exact version in pyproject.toml, and tests/test_memory_store.py exercises
every helper imported here, so an upgrade that moves them fails loudly in
the tests rather than silently in a notebook.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from oracleagentmemory._notset import NOT_SET_MARKER, _NotSetMarker
from oracleagentmemory.core._metadata_filter import (
    _matches_normalized_metadata_filter,
    normalize_metadata_filter,
    validate_metadata_filter_value,
)
from oracleagentmemory.core.oracledbmemorystore import (
    _build_message_content_from_stored_parts,
    _parse_stored_message_content,
    _prepare_message_content_for_persistence,
)

__all__ = [
    "NOT_SET",
    "NotSet",
    "is_set",
    "matches_metadata",
    "normalize_filter",
    "message_storage",
    "message_content_from_storage",
]

NOT_SET = NOT_SET_MARKER
NotSet = _NotSetMarker


def is_set(value: Any) -> bool:
    """True unless ``value`` is OAMP's "argument omitted" marker."""
    return not isinstance(value, _NotSetMarker)


def normalize_filter(metadata_filter: Any) -> dict[str, Any] | None:
    """Validate a search/list metadata filter the way OAMP does and return its normal form."""
    validate_metadata_filter_value(metadata_filter)
    return normalize_metadata_filter(metadata_filter)


def matches_metadata(metadata: dict[str, Any] | None, normalized_filter: dict[str, Any] | None) -> bool:
    """Whether stored ``metadata`` satisfies a filter returned by :func:`normalize_filter`."""
    if normalized_filter is None:
        return True
    return _matches_normalized_metadata_filter(metadata, normalized_filter)


def message_storage(content: Any) -> tuple[list[Any], str, str]:
    """Split message content into (parts, search text, JSON text) exactly as the DB store stores it."""
    return _prepare_message_content_for_persistence(content)


def message_content_from_storage(raw: Any, message_id: str) -> tuple[Any, ...]:
    """Rebuild message content parts from the stored JSON (text or the decoded list)."""
    text = raw if isinstance(raw, str) else json.dumps(raw, separators=(",", ":"), ensure_ascii=False)
    parts: Sequence[Any] = _parse_stored_message_content(text)
    return _build_message_content_from_stored_parts(parts, message_id, {})
