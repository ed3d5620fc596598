"""The arithmetic bench_seed.py uses to put a floor under the catalog scan's embedding time."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from workshop_lib.embedding import build_model

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def bench_seed():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("_bench_seed_under_test", BENCH / "bench_seed.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_weight_products_per_token_are_all_minilm_l6_v2s(bench_seed, tmp_path_factory):
    """6 layers of Q, K, V and output projections (384 x 384) and a 384 -> 1536 -> 384 feed-forward."""
    built = build_model(tmp_path_factory.getbasetemp() / "embedding_home")
    assert bench_seed.weight_macs_per_token(built.path) == 6 * (4 * 384 * 384 + 2 * 384 * 1536)


def test_a_graph_without_weight_products_counts_nothing(bench_seed, tmp_path):
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["c"])], "g",
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 2]) for n in "ab"],
                              [helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 2])])
    path = tmp_path / "two_inputs.onnx"
    onnx.save(helper.make_model(graph), str(path))
    assert bench_seed.weight_macs_per_token(path) == 0


def test_matmul_rate_is_a_plausible_rate(bench_seed):
    rate = bench_seed.matmul_rate(64, 64, 64, repeats=3)
    assert 0.01 < rate < 100_000
