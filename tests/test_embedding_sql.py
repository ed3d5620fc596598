"""VECTOR_EMBEDDING through lite SQL, backed by the built ONNX file."""

from __future__ import annotations

import array

import numpy as np
import oracledb
import pytest

from workshop_lib.embedding import build_model, get_embedder
from workshop_lib.embedding.lite_loader import load_model_lite
from workshop_lib.errors import ModelError
from workshop_lib.backends.lite import connect_lite as connect

MODEL = "ALL_MINILM_L6_V2"
FACT = "Vessel positions are recorded in VESSEL_POSITIONS with latitude, longitude and timestamp"
CARGO = "The declared cargo value of each shipment is stored in USD in SHIPMENTS.CARGO_VALUE"
QUESTION = "Where do we record vessel current positions?"


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One build shared by the embedding tests (a cache hit after the first module)."""
    return build_model(tmp_path_factory.getbasetemp() / "embedding_home")


@pytest.fixture()
def conn(built, tmp_path):
    connection = connect(tmp_path, "AGENT")
    load_model_lite(connection, MODEL, built.path)
    yield connection
    connection.close()


def test_hello_is_a_384_float_unit_array(conn, built):
    with conn.cursor() as cur:
        cur.execute(f"SELECT VECTOR_EMBEDDING({MODEL} USING 'hello' AS DATA) FROM dual")
        (vector,) = cur.fetchone()
    assert isinstance(vector, array.array) and vector.typecode == "f"
    assert len(vector) == 384
    assert abs(float(np.linalg.norm(np.asarray(vector))) - 1.0) <= 1e-5
    direct = get_embedder(built.path).embed(["hello"])[0]
    assert np.allclose(np.asarray(vector), direct, atol=1e-6)


def test_model_is_listed_in_user_mining_models(conn):
    with conn.cursor() as cur:
        cur.execute(
            "SELECT model_name, mining_function, algorithm FROM user_mining_models WHERE model_name = :n",
            n=MODEL,
        )
        assert cur.fetchall() == [(MODEL, "EMBEDDING", "ONNX")]


def test_ranking_through_sql(conn):
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE facts (id NUMBER PRIMARY KEY, text VARCHAR2(400), embedding VECTOR(384, FLOAT32))")
        cur.executemany("INSERT INTO facts (id, text) VALUES (:id, :text)", [{"id": 1, "text": CARGO}, {"id": 2, "text": FACT}])
        cur.execute(f"UPDATE facts SET embedding = VECTOR_EMBEDDING({MODEL} USING text AS DATA)")
        cur.execute(
            f"""WITH q AS (SELECT VECTOR_EMBEDDING({MODEL} USING :question AS DATA) AS v FROM dual)
                SELECT f.id FROM facts f, q
                ORDER BY VECTOR_DISTANCE(f.embedding, q.v, COSINE)
                FETCH FIRST 1 ROWS ONLY""",
            question=QUESTION,
        )
        assert cur.fetchone() == (2,)


def test_bind_and_null_inputs(conn):
    with conn.cursor() as cur:
        cur.execute(f"SELECT VECTOR_EMBEDDING({MODEL} USING :t AS DATA) FROM dual", t="ORA-00904")
        (vector,) = cur.fetchone()
        assert abs(float(np.linalg.norm(np.asarray(vector))) - 1.0) <= 1e-5
        # NULL in, NULL out -- and in Oracle '' is NULL, so it gives NULL too.
        for value in (None, ""):
            cur.execute(f"SELECT VECTOR_EMBEDDING({MODEL} USING :t AS DATA) FROM dual", t=value)
            assert cur.fetchone() == (None,)


def test_unknown_model_is_an_oracle_error(conn):
    with conn.cursor() as cur, pytest.raises(oracledb.DatabaseError) as err:
        cur.execute("SELECT VECTOR_EMBEDDING(NO_SUCH_MODEL USING 'x' AS DATA) FROM dual")
    assert err.value.args[0].code == 40284


def test_lite_loader_rejects_a_broken_file_before_registering(tmp_path):
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(b"not an onnx file")
    connection = connect(tmp_path, "AGENT")
    try:
        with pytest.raises(ModelError, match="not a readable ONNX model"):
            load_model_lite(connection, "BROKEN_MODEL", bad)
        with connection.cursor() as cur:
            cur.execute("SELECT COUNT(*) FROM user_mining_models WHERE model_name = 'BROKEN_MODEL'")
            assert cur.fetchone() == (0,)
        with pytest.raises(ModelError, match="Invalid model name"):
            load_model_lite(connection, "bad name", bad)
    finally:
        connection.close()


def test_lite_loader_needs_a_lite_connection(built):
    with pytest.raises(ModelError, match="lite connection"):
        load_model_lite(object(), MODEL, built.path)
