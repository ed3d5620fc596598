"""RECORD_CHUNKS payloads: which texts a record is indexed under, and their vectors.

OAMP lets callers pass ``index_texts`` (a string, or a list of caller-owned
chunks) and precomputed ``embeddings`` (one vector, or one per chunk). Lite
indexes a plain string as a single chunk -- the ONNX model truncates at its
token limit -- where Oracle would split it with ``DBMS_VECTOR_CHAIN``.
"""

from __future__ import annotations

import array
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._oamp import is_set


@dataclass
class Chunk:
    """One RECORD_CHUNKS row to write: 1-based sequence, text, and vector (None until embedded)."""

    seq: int
    text: str | None
    vector: array.array | None


def chunk_texts(index_text: Any, text: str | None) -> list[str]:
    """The chunk texts for a record: ``index_text`` when given (list = caller's chunks), else ``text``."""
    source = index_text if is_set(index_text) and index_text is not None else text
    if isinstance(source, (list, tuple)):
        if not all(isinstance(part, str) and part for part in source):
            raise ValueError("A chunk list in index_texts/index_text must hold non-empty strings.")
        return list(source)
    if source is None or source == "":
        return []
    if not isinstance(source, str):
        raise ValueError(f"index text must be a string or a list of strings, got {type(source).__name__}.")
    return [source]


def to_vector(values: Any, dim: int) -> array.array:
    """A float32 ``array.array`` of width ``dim`` (what a VECTOR bind takes), or a clear ValueError."""
    vec = np.asarray(values, dtype=np.float32)
    if vec.ndim != 1 or vec.shape[0] != dim:
        raise ValueError(
            f"Embedding has shape {tuple(vec.shape)}, but this store's VECTOR column holds {dim} "
            f"dimensions. Use the workshop's embedding model (EMBED_DIM={dim})."
        )
    return array.array("f", vec.tobytes())


def vectors_from(embedding: Any, dim: int) -> list[array.array]:
    """One vector or a list of chunk vectors, as OAMP accepts them, as a list of vectors."""
    arr = np.asarray(embedding, dtype=np.float32)
    if arr.ndim == 1:
        return [to_vector(arr, dim)]
    if arr.ndim == 2:
        return [to_vector(row, dim) for row in arr]
    raise ValueError("An embedding must be one vector or a list of chunk vectors.")


def pair_chunks(texts: list[str], embedding: Any, dim: int) -> list[Chunk]:
    """Chunks for ``texts``, carrying the caller's vectors when ``embedding`` is given (one per chunk)."""
    if is_set(embedding) and embedding is not None:
        vectors = vectors_from(embedding, dim)
        if len(vectors) != len(texts):
            raise ValueError(
                f"Got {len(vectors)} embedding vector(s) for {len(texts)} chunk text(s); pass one "
                "vector per chunk (a list in index_texts marks the chunks) and non-empty text."
            )
        return [Chunk(i + 1, t, v) for i, (t, v) in enumerate(zip(texts, vectors, strict=True))]
    return [Chunk(i + 1, t, None) for i, t in enumerate(texts)]
