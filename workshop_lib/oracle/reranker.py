"""An instructor-supplied cross-encoder, loaded into Oracle as the model ``rerank`` scores with.

No package on the package index ships a cross-encoder's weights (see
docs/model.md, "A reranker"), so the workshop builds none: ``rerank`` passes
candidates through unless a reranker is loaded. An instructor who has one —
Oracle's ONNX **reranking pipeline** (OML4Py's ``ONNXPipeline(...,
function=MiningFunction.REGRESSION)``: two string inputs, ``first_input`` and
``second_input``, one float score per pair) — loads it with
``workshop model load --reranker FILE``.

:func:`reranker_metadata` reads the file's graph and writes the regression
metadata whose attribute names are the ones ``rerank`` binds
(``PREDICTION(RERANKER_MINILM USING :q AS query, :p AS passage)``), so a file
whose inputs are named differently still loads correctly.
:func:`load_reranker_oracle` uploads it with ``DBMS_VECTOR.LOAD_ONNX_MODEL``
(skipped when the same file is loaded already, as for the embedding model) and
checks through SQL that it scores a relevant passage above an irrelevant one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import RERANK_MODEL
from ..errors import ModelError

# The attribute names rerank's PREDICTION ... USING :q AS query, :p AS passage binds (upper case,
# as Oracle stores unquoted names); the metadata maps the file's two inputs onto them, in order.
RERANK_ATTRIBUTES = ("QUERY", "PASSAGE")
PREDICT_SQL = "SELECT PREDICTION({name} USING :q AS query, :p AS passage) FROM dual"
# A pair any reranker must order: the first passage answers the question, the second does not.
CHECK_QUERY = "What unit is vessel capacity measured in?"
CHECK_RELEVANT = "Vessel capacity is measured in TEU, twenty-foot equivalent units."
CHECK_IRRELEVANT = "The cafeteria serves soup on Fridays."
_STRING, _FLOAT_TYPES = 8, (1, 10, 11)   # onnx.TensorProto: STRING; FLOAT, FLOAT16, DOUBLE


@dataclass(frozen=True)
class RerankerLoad:
    """What :func:`load_reranker_oracle` did: ``action`` is 'loaded', 'reloaded' or 'skipped'."""

    model_name: str
    action: str
    sha256: str
    relevant_score: float
    irrelevant_score: float


def reranker_metadata(path: str | Path) -> dict[str, Any]:
    """Oracle's regression metadata for the reranking pipeline in ``path``, read from its graph.

    The file must have exactly two string inputs (the query, then the passage:
    ``first_input``, ``second_input`` in Oracle's pipeline) and a float output
    (the score). Raises :class:`ModelError` saying what is missing.
    """
    import onnx

    try:
        model = onnx.load(str(path), load_external_data=False)
    except Exception as exc:  # noqa: BLE001 - any unreadable file gets one message
        raise ModelError(f"{path} is not an ONNX model ({type(exc).__name__}: {exc}).") from exc
    graph = model.graph
    initializers = {i.name for i in graph.initializer}
    inputs = [i for i in graph.input if i.name not in initializers]
    strings = [i.name for i in inputs if i.type.tensor_type.elem_type == _STRING]
    if len(inputs) != 2 or len(strings) != 2:
        found = ", ".join(f"{i.name} ({onnx.TensorProto.DataType.Name(i.type.tensor_type.elem_type)})"
                          for i in inputs) or "none"
        raise ModelError(
            f"{path} is not a reranking pipeline: it needs exactly two string inputs (query and passage, "
            f"named first_input and second_input by OML4Py), found {found}. Export the cross-encoder with "
            "OML4Py's ONNXPipeline(..., function=MiningFunction.REGRESSION); see docs/model.md.")
    scores = [o.name for o in graph.output if o.type.tensor_type.elem_type in _FLOAT_TYPES]
    if not scores:
        raise ModelError(f"{path} has no float output to use as the relevance score.")
    return {"function": "regression", "regressionOutput": scores[0],
            "input": {strings[0]: [RERANK_ATTRIBUTES[0]], strings[1]: [RERANK_ATTRIBUTES[1]]}}


def load_reranker_oracle(conn: Any, path: str | Path, model_name: str = RERANK_MODEL, *,
                         force: bool = False) -> RerankerLoad:
    """Load the reranking pipeline in ``path`` as ``model_name`` and check it ranks by relevance.

    Same registry and statements as the embedding model
    (:mod:`workshop_lib.embedding.oracle_loader`): skipped when the model
    exists with this file's sha256, an error for another file unless
    ``force`` (which drops and reloads it).
    """
    import oracledb

    from ..embedding.names import validate_model_name
    from ..embedding.oracle_loader import explain_error, put_model

    name = validate_model_name(model_name)
    file = Path(path)
    if not file.is_file():
        raise ModelError(f"No reranker file at {file}.")
    meta = json.dumps(reranker_metadata(file), separators=(",", ":"))
    data = file.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    try:
        with conn.cursor() as cur:
            action = put_model(conn, cur, name, data, meta, sha, force=force)
            good, bad = (_score(cur, name, CHECK_QUERY, passage) for passage in (CHECK_RELEVANT, CHECK_IRRELEVANT))
    except oracledb.DatabaseError as exc:
        raise explain_error(exc, name, getattr(conn, "username", None)) from exc
    if not good > bad:
        raise ModelError(
            f"{name} scores an irrelevant passage ({bad:.3f}) at least as high as a relevant one ({good:.3f}): "
            "it is not a reranker (or its inputs are swapped). Drop it with "
            f"`EXEC DBMS_VECTOR.DROP_ONNX_MODEL('{name}', TRUE)` and load a reranking pipeline.")
    return RerankerLoad(name, action, sha, good, bad)


def _score(cur: Any, name: str, query: str, passage: str) -> float:
    cur.execute(PREDICT_SQL.format(name=name), {"q": query, "p": passage})
    row = cur.fetchone()
    if row is None or row[0] is None:
        raise ModelError(f"PREDICTION({name} ...) returned no score.")
    return float(row[0])


def load_reranker_file(settings: Any, path: str | Path, *, force: bool = False,
                       echo: Callable[[str], Any] = print) -> RerankerLoad:
    """``workshop model load --reranker FILE``: load the file into the workshop user's schema on Oracle."""
    from .connection import connect_as

    settings.require_oracle()
    conn = connect_as(settings, settings.oracle_user, settings.oracle_password)
    try:
        result = load_reranker_oracle(conn, path, force=force)
    finally:
        conn.close()
    echo(f"reranker {result.model_name}: {result.action} (sha256 {result.sha256[:12]}…); "
         f"relevant pair {result.relevant_score:.3f} > irrelevant pair {result.irrelevant_score:.3f}")
    return result
