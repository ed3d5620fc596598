"""OAMP embedders: the lite IEmbedder over the ONNX file, and OAMP's OracleDBEmbedder for Oracle."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from oracleagentmemory.apis.embedders.embedder import IEmbedder
from oracleagentmemory.core.embedders import OracleDBEmbedder

from workshop_lib.config import load_settings
from workshop_lib.embedding import build_model, get_embedder
from workshop_lib.embedding.oamp_embedder import LiteOnnxEmbedder, oracle_embedder
from workshop_lib.errors import ModelError


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One build shared by the embedding tests (a cache hit after the first module)."""
    return build_model(tmp_path_factory.getbasetemp() / "embedding_home")


def test_lite_embedder_is_an_oamp_iembedder_sharing_the_session(built):
    embedder = LiteOnnxEmbedder(built.path)
    assert isinstance(embedder, IEmbedder)
    assert embedder.embedding_dimension == 384
    assert embedder.max_input_tokens == 256
    assert embedder._embedder is get_embedder(built.path)


def test_lite_embed_and_embed_async_agree(built):
    embedder = LiteOnnxEmbedder(built.path)
    texts = ["Where do we record vessel current positions?", "cargo value"]
    sync = embedder.embed(texts)
    query = embedder.embed(texts, is_query=True)
    async_ = asyncio.run(embedder.embed_async(texts))
    assert sync.dtype == np.float32 and sync.shape == (2, 384)
    assert np.allclose(sync, query) and np.allclose(sync, async_)
    assert np.allclose(np.linalg.norm(sync, axis=1), 1.0, atol=1e-5)


def test_lite_embedder_builds_the_model_for_settings(tmp_path):
    embedder = LiteOnnxEmbedder(settings=load_settings({"WORKSHOP_HOME": str(tmp_path)}))
    assert embedder.path.is_relative_to(tmp_path / "model")
    assert embedder.embed(["hello"]).shape == (1, 384)


class _Cursor:
    def execute(self, *args, **kwargs):
        raise AssertionError("constructing the embedder must not run SQL")

    def close(self):
        pass


class _Connection:
    """Stand-in for a python-oracledb connection (no database here); it only has to look like one."""

    def cursor(self):
        return _Cursor()


def test_oracle_embedder_is_oamps_own_for_the_loaded_model():
    embedder = oracle_embedder(_Connection(), "all_minilm_l6_v2")
    assert isinstance(embedder, OracleDBEmbedder)
    assert embedder.model == "ALL_MINILM_L6_V2"
    assert embedder.input_name == "DATA"
    assert embedder.embedding_dimension == 384
    assert embedder.max_input_tokens == 256


def test_oracle_embedder_validates_the_model_name():
    with pytest.raises(ModelError, match="Invalid model name"):
        oracle_embedder(_Connection(), "x) FROM dual --")
