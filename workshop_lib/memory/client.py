"""Build the OAMP ``OracleAgentMemory`` client for the configured backend.

Oracle: OAMP's own DB store over a connection pool, embedding in the database
with the workshop's ONNX model (``OracleDBEmbedder``), tables named with the
``eda_onnx_`` prefix and created when missing. Lite: the same client over
:class:`~workshop_lib.memory.store.LiteMemoryStore`, embedding with the same
ONNX file through onnxruntime. Memory extraction (an LLM reading thread
messages) is off unless ``WORKSHOP_LLM_MODEL`` names a litellm model.
"""

from __future__ import annotations

import functools
import os
import warnings
from typing import Any

from oracleagentmemory.apis.embedders.embedder import IEmbedder
from oracleagentmemory.core import MemoryExtractionConfig, OracleAgentMemory

from ..config import Settings


def extraction_config(settings: Settings) -> MemoryExtractionConfig:
    """Memory extraction on exactly when an LLM is configured (``settings.llm_model``)."""
    return MemoryExtractionConfig(extract_memories=bool(settings.llm_model))


def build_llm(settings: Settings) -> Any | None:
    """OAMP's litellm-backed ``Llm`` for ``settings.llm_model``, or None when no LLM is configured.

    Provider credentials are read by litellm from the environment (e.g.
    ``OPENAI_API_KEY``); nothing is passed in code.
    """
    if not settings.llm_model:
        return None
    # litellm downloads its model price list on import unless told not to; the
    # workshop never needs prices, and offline laptops would stall for seconds.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from oracleagentmemory.core.llms import Llm

    return Llm(model=settings.llm_model)


def client_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments every backend passes to ``OracleAgentMemory``: extraction config, and the LLM if any.

    Also silences OAMP's "calling an asynchronous method in a synchronous
    method" warning: Jupyter runs an event loop, so every synchronous OAMP call
    warns on stderr although it works, and nbgrader scores a cell with stderr
    output as failed.
    """
    warnings.filterwarnings("ignore", category=UserWarning,
                            message="You are calling an asynchronous method in a synchronous method")
    options: dict[str, Any] = {"memory_extraction_config": extraction_config(settings)}
    llm = build_llm(settings)
    if llm is not None:
        options["llm"] = llm
    return options


class WorkshopAgentMemory(OracleAgentMemory):
    """OAMP's ``OracleAgentMemory`` with one workshop default: searches skip invalid records.

    OAMP's ``search`` returns records whose status is ``invalid`` unless the
    caller passes ``include_invalid_results=False``. The workshop keeps draft
    and discarded memories invalid (see :mod:`workshop_lib.memory.lifecycle`),
    so every search — the learner's ``retrieve_knowledge`` included — leaves
    them out unless it asks for them explicitly. Everything else is OAMP's.
    """

    # functools.wraps keeps OAMP's signature visible (inspect.signature follows __wrapped__),
    # so code that binds arguments against it sees the real parameters.
    @functools.wraps(OracleAgentMemory.search)
    def search(self, query: str, **kwargs: Any) -> Any:
        kwargs.setdefault("include_invalid_results", False)
        return super().search(query, **kwargs)

    @functools.wraps(OracleAgentMemory.search_async)
    async def search_async(self, query: str, **kwargs: Any) -> Any:
        kwargs.setdefault("include_invalid_results", False)
        return await super().search_async(query, **kwargs)


def default_embedder(conn_or_pool: Any, settings: Settings) -> IEmbedder:
    """The workshop model as an OAMP embedder: in-database for Oracle, onnxruntime for lite.

    Lite builds the ONNX file under ``WORKSHOP_HOME/model`` on first use.
    """
    from ..backends import get_backend

    return get_backend(settings).embedder(conn_or_pool)


def build_memory_client(
    conn_or_pool: Any, settings: Settings, embedder: IEmbedder | None = None
) -> OracleAgentMemory:
    """Return ``OracleAgentMemory`` for ``settings.backend`` over ``conn_or_pool``.

    ``conn_or_pool`` is a python-oracledb pool (or connection) for Oracle and a
    lite connection for lite. ``embedder`` overrides the workshop model (tests
    use this). Both backends store into the ``eda_onnx_`` tables, so
    ``memory_client.search(query, user_id=..., agent_id=..., record_types=["memory"],
    max_results=k)`` returns results with ``.id``, ``.content``, ``.metadata`` and
    ``.distance`` either way.
    """
    from ..backends import get_backend

    return get_backend(settings).build_memory_client(conn_or_pool, embedder)


def put_memory(
    memory_client: OracleAgentMemory,
    content: str,
    *,
    memory_id: str,
    user_id: str | None = None,
    agent_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    memory_type: str = "memory",
) -> str:
    """Store ``content`` under a caller-chosen id: update it when it exists, add it otherwise.

    OAMP's stores reject a second ``add_memory`` with an existing id ("Duplicate
    record_ids are not allowed."), in Oracle and in lite alike, so writers that
    use deterministic ids (the catalog scanner) call this to re-scan without
    duplicates. The update replaces content and metadata and re-embeds; the
    scope of an existing memory is kept.
    """
    try:
        return memory_client.update_memory(memory_id, content=content, metadata=metadata)
    except KeyError:
        options: dict[str, Any] = {"memory_id": memory_id, "metadata": metadata, "memory_type": memory_type}
        if user_id is not None:
            options["user_id"] = user_id
        if agent_id is not None:
            options["agent_id"] = agent_id
        return memory_client.add_memory(content, **options)
