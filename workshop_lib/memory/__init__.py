"""Agent memory on OAMP (``oracleagentmemory``) in both backends.

* :func:`build_memory_client` -- the ``OracleAgentMemory`` client for the
  configured backend (client.py); :func:`put_memory` -- add-or-update under a
  deterministic id;
* :class:`LiteMemoryStore` -- OAMP's ``OracleMemoryStore`` over the lite
  engine (store.py), writing the same ``eda_onnx_*`` tables as Oracle
  (schema.py).

See docs/memory.md.
"""

from __future__ import annotations

from .client import build_llm, build_memory_client, default_embedder, extraction_config, put_memory
from .schema import MemoryTables, ensure_schema
from .store import LiteMemoryStore

__all__ = [
    "LiteMemoryStore",
    "MemoryTables",
    "build_llm",
    "build_memory_client",
    "default_embedder",
    "ensure_schema",
    "extraction_config",
    "put_memory",
]
