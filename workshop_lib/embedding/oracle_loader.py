"""Load the built embedding model into Oracle AI Database with DBMS_VECTOR.

``load_model_oracle(conn, built)`` uploads the same ``model.onnx`` lite runs,
as a BLOB, with ``DBMS_VECTOR.LOAD_ONNX_MODEL``. The sha256 of the loaded file
is kept in a small table (:data:`REGISTRY_TABLE`), so a second run with the
same file is skipped; ``force=True`` drops the model with
``DBMS_VECTOR.DROP_ONNX_MODEL(force => TRUE)`` and loads it again. Afterwards
the model is checked through SQL: 384 dimensions, unit norm, and
cos(king, queen) > cos(king, banana).

Database errors are re-raised as :class:`ModelError` whose message says what
to do (the GRANT to run, what the metadata must say, ...), with the original
``oracledb.DatabaseError`` chained as the cause.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import oracledb

from ..config import EMBED_DIM, EMBED_MODEL
from ..errors import ModelError
from .build import BuiltModel, ensure_model, oracle_metadata
from .names import validate_model_name

REGISTRY_TABLE = "workshop_model_registry"

CREATE_REGISTRY_SQL = (
    f"CREATE TABLE IF NOT EXISTS {REGISTRY_TABLE} ("
    " model_name VARCHAR2(128) NOT NULL PRIMARY KEY,"
    " sha256 VARCHAR2(64) NOT NULL,"
    " loaded_at TIMESTAMP DEFAULT SYSTIMESTAMP NOT NULL)"
)
MODEL_EXISTS_SQL = "SELECT COUNT(*) FROM user_mining_models WHERE model_name = :name"
RECORDED_SHA_SQL = f"SELECT sha256 FROM {REGISTRY_TABLE} WHERE model_name = :name"
LOAD_SQL = (
    "BEGIN DBMS_VECTOR.LOAD_ONNX_MODEL("
    "model_name => :name, model_data => :data, metadata => JSON(:meta)); END;"
)
DROP_SQL = "BEGIN DBMS_VECTOR.DROP_ONNX_MODEL(model_name => :name, force => TRUE); END;"
RECORD_SQL = (
    f"MERGE INTO {REGISTRY_TABLE} r"
    " USING (SELECT :name AS model_name, :sha AS sha256 FROM dual) s"
    " ON (r.model_name = s.model_name)"
    " WHEN MATCHED THEN UPDATE SET r.sha256 = s.sha256, r.loaded_at = SYSTIMESTAMP"
    " WHEN NOT MATCHED THEN INSERT (model_name, sha256, loaded_at)"
    " VALUES (s.model_name, s.sha256, SYSTIMESTAMP)"
)
FORGET_SQL = f"DELETE FROM {REGISTRY_TABLE} WHERE model_name = :name"

VERIFY_WORDS = ("king", "queen", "banana")


def embed_sql(model_name: str) -> str:
    """``SELECT VECTOR_EMBEDDING(<model> USING :q AS DATA) FROM dual`` for a validated name."""
    return f"SELECT VECTOR_EMBEDDING({validate_model_name(model_name)} USING :q AS DATA) FROM dual"


@dataclass(frozen=True)
class LoadResult:
    """What :func:`load_model_oracle` did: ``action`` is 'loaded', 'reloaded' or 'skipped'."""

    model_name: str
    action: str
    sha256: str
    verified: bool


def _ora_code(exc: oracledb.DatabaseError) -> int:
    error = exc.args[0] if exc.args else None
    code = getattr(error, "code", 0) or 0
    if not code:
        match = re.search(r"ORA-(\d{5})", str(getattr(error, "message", error) or exc))
        code = int(match.group(1)) if match else 0
    return int(code)


def explain_error(exc: oracledb.DatabaseError, model_name: str, user: str | None = None) -> ModelError:
    """Turn a database error from loading/using the model into a ModelError that says how to fix it."""
    code = _ora_code(exc)
    original = str(exc).strip()
    who = user or "<your user>"
    metadata = json.dumps(oracle_metadata(), separators=(",", ":"))
    if code == 1031:
        hint = (
            f"The user {who} may not create mining models. As an administrator run:\n"
            f"  GRANT CREATE MINING MODEL TO {who};\n"
            f"  GRANT DB_DEVELOPER_ROLE TO {who};\n"
            "then load the model again."
        )
    elif code == 40284 or "invalid model name" in original.lower():
        hint = (
            f"Model {model_name} does not exist in this schema or its name is invalid. Load it "
            "first (workshop_lib.embedding.oracle_loader.load_model_oracle) and use an unquoted "
            "identifier such as ALL_MINILM_L6_V2."
        )
    elif code == 40289 or "already exists" in original.lower():
        hint = (
            f"A model named {model_name} already exists. Load again with force=True "
            "(CLI: --force) to drop and replace it."
        )
    elif code == 54408 or (code == 20000 and re.search(r"metadata|input", original, re.I)):
        hint = (
            "Oracle rejected the model's metadata: its input name must match the graph's input. "
            f"The workshop's model has one string input named 'input' and an output named "
            f"'embedding', so the metadata must be {metadata}. If the file was rebuilt or "
            "replaced, rebuild it with workshop_lib.embedding.build_model(home, force=True)."
        )
    elif code == 20000:
        hint = (
            "DBMS_VECTOR.LOAD_ONNX_MODEL rejected the file. Check that it is the workshop's "
            "build (sha256 in metadata.json) and that the database is 23ai or later."
        )
    else:
        hint = "See the Oracle error above."
    return ModelError(f"{original}\n{hint}")


def _fetch_one(cursor: Any, sql: str, **binds: Any) -> Any:
    cursor.execute(sql, binds)
    row = cursor.fetchone()
    return None if row is None else row[0]


def put_model(conn: Any, cursor: Any, name: str, data: bytes, metadata_json: str, sha256: str, *,
              force: bool) -> str:
    """Load ``data`` as the in-database model ``name`` unless the registry records the same sha256.

    Returns "skipped" (same file already loaded), "loaded" or "reloaded". A
    model of that name with another or unknown checksum is a ModelError unless
    ``force``, which drops it and loads this file, so the embedding and the
    reranker loaders never mix two models under one name silently.
    """
    cursor.execute(CREATE_REGISTRY_SQL)
    exists = bool(_fetch_one(cursor, MODEL_EXISTS_SQL, name=name))
    recorded = _fetch_one(cursor, RECORDED_SHA_SQL, name=name) if exists else None
    if exists and recorded == sha256 and not force:
        return "skipped"
    if exists and not force:
        raise ModelError(
            f"A model named {name} already exists in this schema but is not this file "
            f"(recorded sha256: {recorded or 'none'}, this file: {sha256}). "
            "Load with --force (force=True) to drop and replace it."
        )
    action = "loaded"
    if exists:
        cursor.execute(DROP_SQL, {"name": name})
        cursor.execute(FORGET_SQL, {"name": name})
        conn.commit()
        action = "reloaded"
    cursor.setinputsizes(data=oracledb.DB_TYPE_BLOB)
    cursor.execute(LOAD_SQL, {"name": name, "data": data, "meta": metadata_json})
    cursor.execute(RECORD_SQL, {"name": name, "sha": sha256})
    conn.commit()
    return action


def _as_vector(value: Any) -> np.ndarray:
    if value is None:
        raise ModelError("VECTOR_EMBEDDING returned NULL for a non-empty word.")
    if isinstance(value, str):  # VECTOR fetched as text by older clients
        value = json.loads(value)
    return np.asarray(value, dtype=np.float64).reshape(-1)


def verify_model(conn: Any, model_name: str = EMBED_MODEL) -> dict[str, float]:
    """Check the loaded model through SQL: 384 dims, unit norm, cos(king,queen) > cos(king,banana).

    Returns the measured values; raises ModelError describing the first failed check.
    """
    sql = embed_sql(model_name)
    vectors = {}
    with conn.cursor() as cursor:
        for word in VERIFY_WORDS:
            try:
                vectors[word] = _as_vector(_fetch_one(cursor, sql, q=word))
            except oracledb.DatabaseError as exc:
                raise explain_error(exc, model_name, getattr(conn, "username", None)) from exc
    for word, vector in vectors.items():
        if vector.shape != (EMBED_DIM,):
            raise ModelError(f"{model_name} returned {vector.shape[0]} dimensions for {word!r}; expected {EMBED_DIM}.")
        norm = float(np.linalg.norm(vector))
        if abs(norm - 1.0) > 1e-3:
            raise ModelError(f"{model_name} returned a vector of norm {norm:.6f} for {word!r}; expected 1.")
    king_queen = float(vectors["king"] @ vectors["queen"])
    king_banana = float(vectors["king"] @ vectors["banana"])
    if not king_queen > king_banana:
        raise ModelError(
            f"{model_name} ranks 'banana' ({king_banana:.3f}) at least as close to 'king' as "
            f"'queen' ({king_queen:.3f}); the model in the database is not the workshop's model."
        )
    return {"cos_king_queen": king_queen, "cos_king_banana": king_banana}


def load_model_oracle(
    conn: Any,
    model_name: str = EMBED_MODEL,
    built: BuiltModel | None = None,
    *,
    force: bool = False,
    verify: bool = True,
) -> LoadResult:
    """Load ``built`` (default: :func:`ensure_model`) into the connected schema as ``model_name``.

    Skips the upload when the model exists and the registry records the same
    sha256. A model of that name with another or unknown checksum is an error
    unless ``force`` is set, in which case it is dropped and reloaded (so
    vectors from a different model are never mixed in silently). With
    ``verify`` the model is checked through SQL afterwards (:func:`verify_model`).
    """
    name = validate_model_name(model_name)
    if built is None:
        built = ensure_model()
    user = getattr(conn, "username", None)
    data = built.path.read_bytes()
    if hashlib.sha256(data).hexdigest() != built.sha256:
        raise ModelError(
            f"Model file {built.path} changed since it was built: expected sha256 {built.sha256}. "
            "Rebuild it with workshop_lib.embedding.build_model(home, force=True)."
        )
    try:
        with conn.cursor() as cursor:
            action = put_model(conn, cursor, name, data, built.metadata_json, built.sha256, force=force)
    except oracledb.DatabaseError as exc:
        raise explain_error(exc, name, user) from exc
    verified = False
    if verify:
        verify_model(conn, name)
        verified = True
    return LoadResult(model_name=name, action=action, sha256=built.sha256, verified=verified)
