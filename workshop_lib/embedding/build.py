"""Build the augmented embedding model once and cache it under ``WORKSHOP_HOME``.

The cache folder is ``<home>/model/<key>/`` where ``key`` hashes everything the
file is made from: the pinned sha256 of the transformer and of the tokenizer
and the graph recipe (:data:`RECIPE`). Same inputs, same folder, so a second
build is a cache hit that only re-checks the cached file's sha256 (~50 ms).
The folder holds ``model.onnx`` and ``metadata.json`` (the metadata
``DBMS_VECTOR.LOAD_ONNX_MODEL`` needs, plus where the file came from).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import onnx

from ..config import EMBED_DIM, Settings, load_settings
from ..errors import ModelError
from . import graph, source

MODEL_FILE = "model.onnx"
METADATA_FILE = "metadata.json"

# Everything about the graph that changes the bytes of model.onnx. Bump
# "version" when graph.py changes in a way these fields do not capture.
RECIPE: dict[str, Any] = {
    "version": 1,
    "input": graph.INPUT_NAME,
    "output": graph.OUTPUT_NAME,
    "max_length": graph.MAX_LENGTH,
    "opset": graph.OPSET,
    "ir_version": graph.IR_VERSION,
    "pooling": "mean",
    "normalize": "l2",
}


def oracle_metadata() -> dict[str, Any]:
    """The metadata JSON ``DBMS_VECTOR.LOAD_ONNX_MODEL`` needs for this graph."""
    return {
        "function": "embedding",
        "embeddingOutput": graph.OUTPUT_NAME,
        "input": {graph.INPUT_NAME: ["DATA"]},
    }


@dataclass(frozen=True)
class BuiltModel:
    """A built, verified model file and what is known about it."""

    path: Path
    sha256: str
    metadata: dict[str, Any]
    provenance: dict[str, Any] = field(default_factory=dict)
    cache_hit: bool = False

    @property
    def metadata_json(self) -> str:
        """``metadata`` as the compact JSON text passed to ``JSON(:meta)`` in Oracle."""
        return json.dumps(self.metadata, separators=(",", ":"))

    @property
    def dimension(self) -> int:
        """Length of the vectors the model returns."""
        return EMBED_DIM


def cache_key() -> str:
    """Hash of the build inputs (pinned source hashes + recipe): the cache folder name."""
    material = {
        "sources": {pinned.role: pinned.sha256 for pinned in source.SOURCES},
        "recipe": RECIPE,
    }
    text = json.dumps(material, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def model_dir(home: Path) -> Path:
    """The cache folder for the current inputs under ``home``."""
    return Path(home) / "model" / cache_key()


def _provenance() -> dict[str, Any]:
    return {
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)",
        "sources": [
            {
                "role": pinned.role,
                "package": pinned.distribution,
                "version": pinned.version,
                "file": pinned.path,
                "sha256": pinned.sha256,
            }
            for pinned in source.SOURCES
        ],
        "recipe": RECIPE,
        "cache_key": cache_key(),
        "onnx_version": onnx.__version__,
    }


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file, so readers never see half a file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_built(folder: Path) -> BuiltModel:
    """Read a cached build from ``folder`` and check model.onnx against its recorded sha256.

    Raises ModelError naming the file and both hashes when the file was
    changed or damaged after it was built.
    """
    folder = Path(folder)
    meta_path = folder / METADATA_FILE
    try:
        recorded = json.loads(meta_path.read_text(encoding="utf-8"))
        expected = recorded["model_sha256"]
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(
            f"{meta_path} is missing or unreadable ({exc}). Rebuild the model with "
            "workshop_lib.embedding.build_model(home, force=True)."
        ) from None
    model_path = folder / MODEL_FILE
    source.verify_file(
        model_path,
        expected,
        fix=f"Rebuild it with workshop_lib.embedding.build_model(home, force=True) "
        f"or delete the folder {folder}.",
    )
    return BuiltModel(
        path=model_path,
        sha256=expected,
        metadata=recorded["oracle_metadata"],
        provenance=recorded.get("provenance", {}),
        cache_hit=True,
    )


def build_model(home: Path, force: bool = False) -> BuiltModel:
    """Build the augmented model under ``<home>/model/<key>/`` unless it is already there.

    The transformer and tokenizer come from the pinned packages and are
    sha256-checked first (ModelError on any mismatch, no fallback). With
    ``force=True`` the file is rebuilt even when a cached copy exists. Returns
    the verified :class:`BuiltModel`; ``cache_hit`` says whether it was reused.
    """
    folder = model_dir(home)
    if not force and (folder / METADATA_FILE).is_file():
        return load_built(folder)
    transformer = source.resolve_verified(source.TRANSFORMER)
    tokenizer = source.resolve_verified(source.TOKENIZER)
    provenance = _provenance()
    doc = (
        "all-MiniLM-L6-v2 (int8 weights) with in-graph BertTokenizer, masked mean pooling "
        "and L2 normalisation; input 'input' string[1], output 'embedding' float32[384]. "
        "Built by workshop_lib.embedding from " + ", ".join(p.requirement for p in source.SOURCES)
    )
    model = graph.build_graph(transformer, tokenizer, doc=doc)
    data = model.SerializeToString()
    sha = hashlib.sha256(data).hexdigest()
    folder.mkdir(parents=True, exist_ok=True)
    _write_atomic(folder / MODEL_FILE, data)
    record = {
        "oracle_metadata": oracle_metadata(),
        "model_file": MODEL_FILE,
        "model_sha256": sha,
        "model_bytes": len(data),
        "embedding_dimension": EMBED_DIM,
        "max_tokens": graph.MAX_LENGTH,
        "provenance": provenance,
    }
    # metadata.json is written last: its presence marks a complete build.
    _write_atomic(folder / METADATA_FILE, (json.dumps(record, indent=2) + "\n").encode("utf-8"))
    return BuiltModel(
        path=folder / MODEL_FILE, sha256=sha, metadata=oracle_metadata(), provenance=provenance
    )


def ensure_model(settings: Settings | None = None, force: bool = False) -> BuiltModel:
    """Return the built model for ``settings.home`` (default: :func:`load_settings`), building it if needed.

    This is what setup, the lite engine and the Oracle loader call: cheap when
    the cache is warm, a few seconds on first use. ``force`` rebuilds anyway.
    """
    settings = settings or load_settings()
    return build_model(settings.home, force=force)
