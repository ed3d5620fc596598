"""OAMP's client over Oracle: its own DB store on a pool, embedding in the database."""

from __future__ import annotations

import warnings
from typing import Any

from ..config import EMBED_MODEL, TABLE_PREFIX, Settings


def build_oracle_memory_client(pool: Any, settings: Settings, embedder: Any = None) -> Any:
    """``OracleAgentMemory`` over ``pool`` with the ``eda_onnx_`` tables, created when missing.

    ``embedder`` defaults to OAMP's ``OracleDBEmbedder`` over the in-database
    model ``EMBED_MODEL``.
    """
    from oracleagentmemory.core import SchemaPolicy

    from ..embedding.oamp_embedder import oracle_embedder
    from ..memory.client import WorkshopAgentMemory, client_options

    embedder = embedder if embedder is not None else oracle_embedder(pool, EMBED_MODEL)
    with warnings.catch_warnings():
        # OAMP 26.6+ prefers memory_store_id, which provisions a PL/SQL package; the
        # workshop keeps the documented table prefix so the hybrid SQL can name its tables.
        warnings.filterwarnings("ignore", message="table_name_prefix is deprecated", category=DeprecationWarning)
        return WorkshopAgentMemory(connection=pool, embedder=embedder, table_name_prefix=TABLE_PREFIX,
                                 schema_policy=SchemaPolicy.CREATE_IF_NECESSARY, **client_options(settings))
