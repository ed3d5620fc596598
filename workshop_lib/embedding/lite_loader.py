"""Register the built embedding model in the lite backend's catalog.

In Oracle, loading a model makes it a schema object listed in
``USER_MINING_MODELS``; the lite engine keeps the same catalog and resolves
``VECTOR_EMBEDDING(<name> USING ... AS DATA)`` through it to the model file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..config import EMBED_MODEL
from ..errors import ModelError
from .names import validate_model_name
from .runtime import get_embedder


def load_model_lite(conn: Any, model_name: str = EMBED_MODEL, path: Path | str | None = None) -> str:
    """Register the model file at ``path`` (default: the built model) as ``model_name`` in lite.

    The file is opened with onnxruntime first, so a broken or unverifiable
    file fails here with a ModelError rather than at the first query. The
    connection must be a lite connection (it provides ``register_mining_model``).
    Returns the upper-cased model name, as ``USER_MINING_MODELS`` lists it.
    """
    name = validate_model_name(model_name)
    if path is None:
        from .build import ensure_model

        path = ensure_model().path
    path = Path(path)
    register = getattr(conn, "register_mining_model", None)
    if register is None:
        raise ModelError(
            "load_model_lite needs a lite connection (workshop_lib.lite.connect); for Oracle "
            "use workshop_lib.embedding.oracle_loader.load_model_oracle."
        )
    get_embedder(path)
    register(name=name, path=str(path), mining_function="EMBEDDING", algorithm="ONNX")
    return name
