"""ACCUM's score combination counts matches into an array when doc numbers are dense, and sorts them when sparse."""

from __future__ import annotations

import numpy as np
import pytest

from workshop_lib.lite import text as text_module


def _accum_by_sorting(results: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The formula written out with np.unique: the reference both paths must match."""
    k = len(results)
    docs, inverse, matched = np.unique(np.concatenate([r[0] for r in results]), return_inverse=True,
                                       return_counts=True)
    totals = np.bincount(inverse, weights=np.concatenate([r[1] for r in results]), minlength=len(docs))
    low, high = (matched - 1) * 100 // k + 1, matched * 100 // k
    within = ((high - low) * (totals / matched) / 100).astype(np.int64)
    return docs, np.where(high > low, low + within, np.minimum(100, low)).astype(np.int64)


def _operand(rng: np.random.Generator, n_docs: int, hits: int) -> tuple[np.ndarray, np.ndarray]:
    docs = np.sort(rng.choice(n_docs, size=min(hits, n_docs), replace=False)).astype(np.int64)
    return docs, rng.integers(1, 101, size=len(docs)).astype(np.int64)


@pytest.mark.parametrize("n_docs, hits", [(50, 30), (5000, 4000), (100_000, 3), (100_000, 20_000), (3, 0)])
@pytest.mark.parametrize("operands", [1, 2, 7, 150])
def test_accum_equals_the_sorting_formula(n_docs: int, hits: int, operands: int) -> None:
    rng = np.random.default_rng(n_docs + hits + operands)
    results = [_operand(rng, n_docs, int(rng.integers(0, hits + 1))) for _ in range(operands)]
    docs, scores = text_module._accum(results)
    want_docs, want_scores = _accum_by_sorting(results)
    assert docs.dtype == np.int64 and scores.dtype == np.int64
    assert np.array_equal(docs, want_docs) and np.array_equal(scores, want_scores)
