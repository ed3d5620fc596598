"""Loading the model into Oracle with DBMS_VECTOR.

No Oracle database runs here, so the unit tests use a recording double of a
python-oracledb connection: it records every statement and bind, keeps the
little state the loader reads (which models exist, the checksum registry), and
answers ``VECTOR_EMBEDDING`` queries by running the uploaded bytes' model with
onnxruntime. Integration tests against a real database are marked ``oracle``
and run only when ORACLE_DSN is set.
"""

from __future__ import annotations

import array
import hashlib
import json
import re

import numpy as np
import oracledb
import pytest
import sqlglot
from sqlglot import exp

from workshop_lib.config import load_settings
from workshop_lib.embedding import build_model, get_embedder, oracle_loader
from workshop_lib.embedding.names import validate_model_name
from workshop_lib.embedding.oracle_loader import (
    LoadResult,
    explain_error,
    load_model_oracle,
    verify_model,
)
from workshop_lib.errors import ModelError
from workshop_lib.lite.dialect import Oracle as OracleDialect

MODEL = "ALL_MINILM_L6_V2"


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One build shared by the embedding tests (a cache hit after the first module)."""
    return build_model(tmp_path_factory.getbasetemp() / "embedding_home")


def ora_error(code: int, text: str) -> oracledb.DatabaseError:
    """A python-oracledb DatabaseError as the driver raises it (args[0] is an _Error)."""
    return oracledb.DatabaseError(oracledb._Error(f"ORA-{code:05d}: {text}", code=code))


class RecordingConnection:
    """Records statements/binds; holds the models and checksum registry a schema would."""

    username = "AGENT"

    def __init__(self, built, *, models=(), registry=None, fail=None, vector_fn=None):
        self.built = built
        self.statements: list[tuple[str, dict]] = []
        self.inputsizes: list[dict] = []
        self.models = set(models)
        self.registry = dict(registry or {})
        self.uploads: list[tuple[str, bytes, dict]] = []
        self.fail = dict(fail or {})
        self.vector_fn = vector_fn or (lambda text: get_embedder(built.path).embed([text])[0])
        self.commits = 0

    def cursor(self):
        return RecordingCursor(self)

    def commit(self):
        self.commits += 1

    def sql(self) -> list[str]:
        return [s for s, _ in self.statements]


class RecordingCursor:
    def __init__(self, conn: RecordingConnection):
        self.conn = conn
        self.row = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def setinputsizes(self, **sizes):
        self.conn.inputsizes.append(sizes)

    def execute(self, sql, binds=None, **kwargs):
        binds = {**(binds or {}), **kwargs}
        conn = self.conn
        conn.statements.append((sql, binds))
        for marker, exc in conn.fail.items():
            if marker in sql:
                raise exc
        self.row = None
        if sql.startswith("CREATE TABLE IF NOT EXISTS workshop_model_registry"):
            return
        if sql.startswith("SELECT COUNT(*) FROM user_mining_models"):
            self.row = (int(binds["name"] in conn.models),)
        elif sql.startswith("SELECT sha256 FROM workshop_model_registry"):
            sha = conn.registry.get(binds["name"])
            self.row = None if sha is None else (sha,)
        elif "DBMS_VECTOR.LOAD_ONNX_MODEL" in sql:
            if binds["name"] in conn.models:
                raise ora_error(40289, f"duplicate model name {binds['name']}")
            conn.models.add(binds["name"])
            conn.uploads.append((binds["name"], binds["data"], json.loads(binds["meta"])))
        elif "DBMS_VECTOR.DROP_ONNX_MODEL" in sql:
            conn.models.discard(binds["name"])
        elif sql.startswith("MERGE INTO workshop_model_registry"):
            conn.registry[binds["name"]] = binds["sha"]
        elif sql.startswith("DELETE FROM workshop_model_registry"):
            conn.registry.pop(binds["name"], None)
        elif sql.startswith("SELECT VECTOR_EMBEDDING("):
            model = re.match(r"SELECT VECTOR_EMBEDDING\((\w+) USING :q AS DATA\) FROM dual$", sql).group(1)
            if model not in conn.models:
                raise ora_error(40284, "model does not exist")
            self.row = (array.array("f", conn.vector_fn(binds["q"])),)
        else:
            raise AssertionError(f"unexpected SQL: {sql}")

    def fetchone(self):
        return self.row


# --------------------------------------------------------------------------- SQL text


def test_plain_sql_statements_parse_as_oracle():
    """sqlglot's Oracle dialect (plus VECTOR_EMBEDDING) models each statement, not as an opaque Command."""
    expected = {
        oracle_loader.CREATE_REGISTRY_SQL: exp.Create,
        oracle_loader.MODEL_EXISTS_SQL: exp.Select,
        oracle_loader.RECORDED_SHA_SQL: exp.Select,
        oracle_loader.RECORD_SQL: exp.Merge,
        oracle_loader.FORGET_SQL: exp.Delete,
        oracle_loader.embed_sql(MODEL): exp.Select,
    }
    for sql, kind in expected.items():
        assert isinstance(sqlglot.parse_one(sql, read=OracleDialect), kind), sql


def test_plsql_calls_use_named_parameters_and_binds():
    assert oracle_loader.LOAD_SQL == (
        "BEGIN DBMS_VECTOR.LOAD_ONNX_MODEL("
        "model_name => :name, model_data => :data, metadata => JSON(:meta)); END;"
    )
    assert oracle_loader.DROP_SQL == (
        "BEGIN DBMS_VECTOR.DROP_ONNX_MODEL(model_name => :name, force => TRUE); END;"
    )


def test_embed_sql_validates_the_name_it_inlines():
    assert oracle_loader.embed_sql("all_minilm_l6_v2") == (
        "SELECT VECTOR_EMBEDDING(ALL_MINILM_L6_V2 USING :q AS DATA) FROM dual"
    )
    with pytest.raises(ModelError, match="Invalid model name"):
        oracle_loader.embed_sql("x USING 1 AS DATA) FROM dual; DROP TABLE t --")


@pytest.mark.parametrize("bad", ["", "1MODEL", "MY-MODEL", "my model", "A" * 124, "SELECT", "x;y", None])
def test_invalid_model_names(bad):
    with pytest.raises(ModelError, match="Invalid model name"):
        validate_model_name(bad)


@pytest.mark.parametrize("good", ["ALL_MINILM_L6_V2", "doc_model", "M$1", "A#B", "A" * 123])
def test_valid_model_names_are_upper_cased(good):
    assert validate_model_name(good) == good.upper()


# --------------------------------------------------------------------------- load / skip / force


def test_first_load_uploads_blob_with_metadata_records_sha_and_verifies(built):
    conn = RecordingConnection(built)
    result = load_model_oracle(conn, "all_minilm_l6_v2", built)
    assert result == LoadResult(model_name=MODEL, action="loaded", sha256=built.sha256, verified=True)
    (name, data, meta), = conn.uploads
    assert name == MODEL
    assert hashlib.sha256(data).hexdigest() == built.sha256
    assert meta == {"function": "embedding", "embeddingOutput": "embedding", "input": {"input": ["DATA"]}}
    assert conn.inputsizes == [{"data": oracledb.DB_TYPE_BLOB}]
    assert conn.registry == {MODEL: built.sha256}
    sql = conn.sql()
    assert sql[0] == oracle_loader.CREATE_REGISTRY_SQL
    assert oracle_loader.LOAD_SQL in sql and oracle_loader.DROP_SQL not in sql
    assert sql.index(oracle_loader.LOAD_SQL) < sql.index(oracle_loader.RECORD_SQL)
    words = [b["q"] for s, b in conn.statements if s.startswith("SELECT VECTOR_EMBEDDING")]
    assert words == ["king", "queen", "banana"]
    assert conn.commits >= 1


def test_same_checksum_is_skipped(built):
    conn = RecordingConnection(built, models={MODEL}, registry={MODEL: built.sha256})
    result = load_model_oracle(conn, MODEL, built)
    assert result.action == "skipped" and result.verified
    assert not conn.uploads
    assert not any("DBMS_VECTOR" in s for s in conn.sql())


def test_force_drops_then_reloads(built):
    conn = RecordingConnection(built, models={MODEL}, registry={MODEL: built.sha256})
    result = load_model_oracle(conn, MODEL, built, force=True)
    assert result.action == "reloaded"
    sql = conn.sql()
    drop = sql.index(oracle_loader.DROP_SQL)
    assert conn.statements[drop][1] == {"name": MODEL}
    assert drop < sql.index(oracle_loader.LOAD_SQL)
    assert len(conn.uploads) == 1 and conn.registry == {MODEL: built.sha256}


def test_existing_model_with_other_checksum_needs_force(built):
    conn = RecordingConnection(built, models={MODEL}, registry={MODEL: "a" * 64})
    with pytest.raises(ModelError, match=r"force=True") as err:
        load_model_oracle(conn, MODEL, built, verify=False)
    assert "a" * 64 in str(err.value) and built.sha256 in str(err.value)
    assert not conn.uploads and oracle_loader.DROP_SQL not in conn.sql()


def test_model_without_registry_entry_is_not_trusted(built):
    conn = RecordingConnection(built, models={MODEL})
    with pytest.raises(ModelError, match="recorded sha256: none"):
        load_model_oracle(conn, MODEL, built, verify=False)


def test_registry_entry_without_model_reloads(built):
    conn = RecordingConnection(built, registry={MODEL: built.sha256})
    assert load_model_oracle(conn, MODEL, built).action == "loaded"
    assert len(conn.uploads) == 1


def test_changed_file_is_refused_before_upload(built, tmp_path):
    import dataclasses
    import shutil

    copy = tmp_path / "model.onnx"
    shutil.copyfile(built.path, copy)
    with open(copy, "ab") as handle:
        handle.write(b"x")
    conn = RecordingConnection(built)
    with pytest.raises(ModelError, match=built.sha256):
        load_model_oracle(conn, MODEL, dataclasses.replace(built, path=copy))
    assert conn.statements == []


# --------------------------------------------------------------------------- verification


def test_verification_rejects_a_model_that_ranks_nonsense(built):
    rng = np.random.default_rng(0)
    fixed = {w: v / np.linalg.norm(v) for w, v in zip(("king", "queen", "banana"), rng.normal(size=(3, 384)), strict=True)}
    fixed["banana"] = fixed["king"]  # banana identical to king: wrong model
    conn = RecordingConnection(built, vector_fn=fixed.__getitem__)
    with pytest.raises(ModelError, match="not the workshop's model"):
        load_model_oracle(conn, MODEL, built)


def test_verification_rejects_wrong_dimensions_and_norms(built):
    conn = RecordingConnection(built, models={MODEL}, vector_fn=lambda t: np.ones(128) / np.sqrt(128))
    with pytest.raises(ModelError, match="128 dimensions"):
        verify_model(conn, MODEL)
    conn = RecordingConnection(built, models={MODEL}, vector_fn=lambda t: np.ones(384))
    with pytest.raises(ModelError, match="norm"):
        verify_model(conn, MODEL)


def test_verification_reports_real_model_values(built):
    conn = RecordingConnection(built, models={MODEL})
    values = verify_model(conn, MODEL)
    assert values["cos_king_queen"] > values["cos_king_banana"]


# --------------------------------------------------------------------------- error mapping


def test_missing_privilege_gives_the_grant_to_run(built):
    conn = RecordingConnection(built, fail={"LOAD_ONNX_MODEL": ora_error(1031, "insufficient privileges")})
    with pytest.raises(ModelError) as err:
        load_model_oracle(conn, MODEL, built)
    text = str(err.value)
    assert "ORA-01031" in text and "GRANT CREATE MINING MODEL TO AGENT;" in text
    assert isinstance(err.value.__cause__, oracledb.DatabaseError)


def test_metadata_input_mismatch_says_what_metadata_must_be(built):
    failure = ora_error(20000, 'The "input.pre_text" field in the JSON metadata is not a model input.')
    conn = RecordingConnection(built, fail={"LOAD_ONNX_MODEL": failure})
    with pytest.raises(ModelError) as err:
        load_model_oracle(conn, MODEL, built)
    assert '{"function":"embedding","embeddingOutput":"embedding","input":{"input":["DATA"]}}' in str(err.value)


def test_ora_54408_is_the_same_metadata_hint():
    err = explain_error(ora_error(54408, 'The "input.input_text" field in the JSON metadata is not a model input.'), MODEL)
    assert "input named 'input'" in str(err)


def test_unknown_model_in_verification(built):
    conn = RecordingConnection(built)  # nothing loaded
    with pytest.raises(ModelError, match="does not exist in this schema"):
        verify_model(conn, MODEL)


def test_already_exists_suggests_force():
    err = explain_error(ora_error(40289, "duplicate model name ALL_MINILM_L6_V2"), MODEL)
    assert "force=True" in str(err) and "ORA-40289" in str(err)


def test_code_is_read_from_the_message_when_the_driver_leaves_it_zero():
    exc = oracledb.DatabaseError(oracledb._Error("ORA-01031: insufficient privileges"))
    assert "GRANT CREATE MINING MODEL" in str(explain_error(exc, MODEL, "SCOTT"))


def test_other_errors_keep_the_original_text():
    err = explain_error(ora_error(12541, "TNS:no listener"), MODEL)
    assert str(err).startswith("ORA-12541: TNS:no listener")


# --------------------------------------------------------------------------- live Oracle


@pytest.fixture()
def oracle_conn():
    settings = load_settings(backend="oracle")
    settings.require_oracle()
    conn = oracledb.connect(user=settings.oracle_user, password=settings.oracle_password, dsn=settings.oracle_dsn)
    yield conn
    conn.close()


TEST_MODEL = "WORKSHOP_TEST_MINILM"


@pytest.mark.oracle
def test_live_load_skip_force_and_verify(oracle_conn, built):
    try:
        first = load_model_oracle(oracle_conn, TEST_MODEL, built, force=True)
        assert first.action in ("loaded", "reloaded") and first.verified
        again = load_model_oracle(oracle_conn, TEST_MODEL, built)
        assert again.action == "skipped"
        with oracle_conn.cursor() as cur:
            cur.execute(oracle_loader.embed_sql(TEST_MODEL), q="hello")
            (vector,) = cur.fetchone()
        in_db = np.asarray(vector, dtype=np.float32)
        assert in_db.shape == (384,)
        lite = get_embedder(built.path).embed(["hello"])[0]
        assert float(in_db @ lite) > 0.9999, "Oracle and lite must produce the same vector"
    finally:
        with oracle_conn.cursor() as cur:
            cur.execute(oracle_loader.DROP_SQL, name=TEST_MODEL)
            cur.execute(oracle_loader.FORGET_SQL, name=TEST_MODEL)
        oracle_conn.commit()


@pytest.mark.oracle
def test_live_unknown_model_error_is_explained(oracle_conn):
    with pytest.raises(ModelError, match="does not exist in this schema"):
        verify_model(oracle_conn, "WORKSHOP_NO_SUCH_MODEL")

