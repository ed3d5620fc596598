"""Embedders for OAMP (``oracleagentmemory``) backed by the workshop's model.

* lite: :class:`LiteOnnxEmbedder`, an ``IEmbedder`` that runs the built ONNX
  file with onnxruntime -- the same session the lite SQL engine uses for
  ``VECTOR_EMBEDDING``, so memories and SQL queries share one vector space;
* Oracle: :func:`oracle_embedder` returns OAMP's own ``OracleDBEmbedder``,
  which calls ``VECTOR_EMBEDDING`` on the model loaded in the database.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
from oracleagentmemory.apis.embedders.embedder import IEmbedder
from oracleagentmemory.core.embedders import OracleDBEmbedder

from ..config import EMBED_DIM, EMBED_MODEL, Settings
from .graph import MAX_LENGTH
from .names import validate_model_name
from .runtime import OnnxEmbedder, get_embedder


class LiteOnnxEmbedder(IEmbedder):
    """OAMP embedder over the workshop's ONNX file (lite backend).

    ``path`` defaults to the model built for ``settings`` (see
    :func:`workshop_lib.embedding.ensure_model`). The model is symmetric, so
    ``is_query`` does not change the vectors.
    """

    def __init__(self, path: Path | str | None = None, *, settings: Settings | None = None) -> None:
        super().__init__()
        if path is None:
            from .build import ensure_model

            path = ensure_model(settings).path
        self.path = Path(path)
        self._embedder: OnnxEmbedder = get_embedder(self.path)

    @property
    def embedding_dimension(self) -> int:
        """384: the model's output width (no probe call needed)."""
        return EMBED_DIM

    @property
    def max_input_tokens(self) -> int:
        """256: the in-graph tokenizer truncates longer inputs."""
        return MAX_LENGTH

    def embed(self, texts: list[str], *, is_query: bool = False) -> np.ndarray:
        """Embed ``texts`` into a float32 ``(len(texts), 384)`` array of unit vectors."""
        return self._embedder.embed(texts)

    async def embed_async(self, texts: list[str], *, is_query: bool = False) -> np.ndarray:
        """Async :meth:`embed`; onnxruntime releases the GIL, so a worker thread keeps the loop free."""
        return await asyncio.to_thread(self._embedder.embed, texts)


def oracle_embedder(connection: Any, model_name: str = EMBED_MODEL) -> OracleDBEmbedder:
    """OAMP's ``OracleDBEmbedder`` for the in-database model ``model_name`` (Oracle backend)."""
    return OracleDBEmbedder(
        connection,
        model=validate_model_name(model_name),
        embedding_dimension=EMBED_DIM,
        max_input_tokens=MAX_LENGTH,
    )
