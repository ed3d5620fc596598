"""rerank on Oracle without a database: the PREDICTION statement, its binds, and byte-safe cuts.

A recording connection stands in for python-oracledb: it says the reranker is
loaded, records each statement with its binds, and scores a passage by its
length so the reordering is visible.
"""

from __future__ import annotations

import pytest

from workshop_lib.config import RERANK_MODEL
from workshop_lib.retrieval import MAX_BIND_BYTES, clip_utf8, rerank


class RecordingConn:
    def __init__(self):
        self.log: list[tuple[str, dict]] = []

    def cursor(self):
        conn = self

        class Cur:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                pass

            def execute(self, sql, params=None, **kw):
                binds = dict(params or {}, **kw)
                conn.log.append((sql, binds))
                if "user_mining_models" in sql:
                    self.rows = [(1,)]
                else:
                    self.rows = [(float(len(binds["p"])),)]

            def fetchall(self):
                return self.rows

            def fetchone(self):
                return self.rows[0]

        return Cur()


def test_rerank_binds_at_most_4000_bytes_of_multibyte_text_and_never_splits_a_character():
    conn = RecordingConn()
    long_text = "船舶の容量はTEUで表す。" * 600            # 3 bytes a character: ~20,000 bytes
    candidates = [{"record_id": "a", "content": "short"}, {"record_id": "b", "content": long_text}]
    out = rerank("容量 " * 2000, candidates, top_k=2, conn=conn)
    predictions = [(sql, b) for sql, b in conn.log if "PREDICTION" in sql]
    assert len(predictions) == 2
    for sql, binds in predictions:
        assert sql == f"SELECT PREDICTION({RERANK_MODEL} USING :q AS query, :p AS passage) FROM dual"
        for value in binds.values():
            assert len(value.encode("utf-8")) <= MAX_BIND_BYTES
            value.encode("utf-8").decode("utf-8")              # whole characters only
    assert [c["record_id"] for c in out] == ["b", "a"]          # reordered by the (recorded) score


@pytest.mark.parametrize("text, limit, expected", [
    ("abc", 4000, "abc"), ("é" * 3000, 4000, "é" * 2000), ("aé", 2, "a"), ("€€", 5, "€"), ("", 10, "")])
def test_clip_utf8(text, limit, expected):
    assert clip_utf8(text, limit) == expected


# --------------------------------------------------------------------------- an instructor-supplied reranker

import json as _json  # noqa: E402

import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

from workshop_lib.errors import ModelError  # noqa: E402
from workshop_lib.oracle import reranker as RR  # noqa: E402


def pipeline_file(tmp_path, inputs=(("first_input", TensorProto.STRING), ("second_input", TensorProto.STRING)),
                  output=("output", TensorProto.FLOAT)):
    """A graph shaped like OML4Py's reranking pipeline (two string inputs, one float score)."""
    graph = helper.make_graph(
        [helper.make_node("Constant", [], [output[0]],
                          value=helper.make_tensor("v", output[1], [1], [0.5]))],
        "reranker", [helper.make_tensor_value_info(n, t, [None]) for n, t in inputs],
        [helper.make_tensor_value_info(output[0], output[1], [None])])
    path = tmp_path / "reranker.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_reranker_metadata_maps_the_files_inputs_onto_reranks_attribute_names(tmp_path):
    meta = RR.reranker_metadata(pipeline_file(tmp_path))
    assert meta == {"function": "regression", "regressionOutput": "output",
                    "input": {"first_input": ["QUERY"], "second_input": ["PASSAGE"]}}
    other = RR.reranker_metadata(pipeline_file(tmp_path, inputs=(("q", TensorProto.STRING), ("d", TensorProto.STRING)),
                                               output=("logits", TensorProto.FLOAT)))
    assert other["input"] == {"q": ["QUERY"], "d": ["PASSAGE"]} and other["regressionOutput"] == "logits"


@pytest.mark.parametrize("inputs", [(("input", TensorProto.STRING),),
                                    (("input_ids", TensorProto.INT64), ("attention_mask", TensorProto.INT64))])
def test_a_file_that_is_not_a_reranking_pipeline_is_refused_with_what_is_missing(tmp_path, inputs):
    with pytest.raises(ModelError) as info:
        RR.reranker_metadata(pipeline_file(tmp_path, inputs=inputs))
    assert "two string inputs" in str(info.value) and "MiningFunction.REGRESSION" in str(info.value)


class LoaderConn:
    """Records the loader's statements; keeps the model registry; scores passages by word overlap."""

    def __init__(self):
        self.log: list[tuple[str, dict]] = []
        self.models: dict[str, str] = {}       # name -> sha256
        self.meta: dict[str, str] = {}
        self.commits = 0
        self.username = "AGENT"

    def commit(self):
        self.commits += 1

    def cursor(self):
        conn = self

        class Cur:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                pass

            def setinputsizes(self, **kw):
                pass

            def execute(self, sql, params=None, **kw):
                binds = dict(params or {}, **kw)
                conn.log.append((sql, binds))
                self.rows = []
                if "FROM user_mining_models" in sql:
                    self.rows = [(1 if binds["name"] in conn.models else 0,)]
                elif sql.startswith("SELECT sha256"):
                    self.rows = [(conn.models.get(binds["name"]),)]
                elif "LOAD_ONNX_MODEL" in sql:
                    conn.meta[binds["name"]] = binds["meta"]
                elif "DROP_ONNX_MODEL" in sql:
                    conn.models.pop(binds["name"], None)
                elif sql.startswith("MERGE INTO"):
                    conn.models[binds["name"]] = binds["sha"]
                elif "PREDICTION" in sql:
                    words = lambda t: set(t.lower().strip(".?").split())  # noqa: E731
                    self.rows = [(float(len(words(binds["q"]) & words(binds["p"]))),)]

            def fetchone(self):
                return self.rows[0] if self.rows else None

        return Cur()


def test_load_reranker_uploads_with_the_metadata_then_checks_it_ranks_by_relevance(tmp_path):
    path = pipeline_file(tmp_path)
    conn = LoaderConn()
    first = RR.load_reranker_oracle(conn, path)
    assert first.action == "loaded" and first.relevant_score > first.irrelevant_score
    load = [(sql, b) for sql, b in conn.log if "LOAD_ONNX_MODEL" in sql]
    assert load[0][0] == ("BEGIN DBMS_VECTOR.LOAD_ONNX_MODEL(model_name => :name, model_data => :data, "
                          "metadata => JSON(:meta)); END;")
    assert load[0][1]["name"] == "RERANKER_MINILM" and load[0][1]["data"] == path.read_bytes()
    assert _json.loads(load[0][1]["meta"])["input"] == {"first_input": ["QUERY"], "second_input": ["PASSAGE"]}
    predictions = [sql for sql, _ in conn.log if "PREDICTION" in sql]
    assert predictions == ["SELECT PREDICTION(RERANKER_MINILM USING :q AS query, :p AS passage) FROM dual"] * 2
    # the same file again: nothing uploaded; another file: refused unless --force
    before = len([s for s, _ in conn.log if "LOAD_ONNX_MODEL" in s])
    assert RR.load_reranker_oracle(conn, path).action == "skipped"
    assert len([s for s, _ in conn.log if "LOAD_ONNX_MODEL" in s]) == before
    (tmp_path / "other").mkdir()
    other = pipeline_file(tmp_path / "other", output=("score", TensorProto.FLOAT))
    with pytest.raises(ModelError, match="--force"):
        RR.load_reranker_oracle(conn, other)
    assert RR.load_reranker_oracle(conn, other, force=True).action == "reloaded"


def test_a_model_that_does_not_rank_by_relevance_is_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(RR, "CHECK_RELEVANT", "soup")       # no overlap with the question: score 0
    with pytest.raises(ModelError, match="not a reranker"):
        RR.load_reranker_oracle(LoaderConn(), pipeline_file(tmp_path))


def test_workshop_model_load_reranker_reaches_the_loader(tmp_path, monkeypatch):
    from workshop_lib import cli

    seen = {}
    monkeypatch.setattr(RR, "load_reranker_file",
                        lambda settings, path, force=False, echo=print: seen.update(path=path, force=force))
    assert cli.main(["model", "load", "--reranker", str(tmp_path / "r.onnx"), "--backend", "oracle"]) == 0
    assert seen == {"path": str(tmp_path / "r.onnx"), "force": False}
    with pytest.raises(SystemExit):
        cli.main(["model", "build", "--reranker", "r.onnx"])
