"""Pairwise kappa with thousands of annotators: only pairs sharing an item are formed, with
the same values as the dense path (and as scikit-learn) for those pairs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from ndcg_studio.domain.agreement import kappa as agreement_kappa
from ndcg_studio.domain.agreement.kappa import pairwise_cohen_kappa
from ndcg_studio.domain.agreement.ratings import Ratings

GRADES = [0.0, 1.0, 2.0, 3.0, 4.0]


def _random_ratings(seed: int, n_annotators: int, n_items: int, per_annotator: int) -> Ratings:
    rng = np.random.default_rng(seed)
    item = np.concatenate(
        [rng.choice(n_items, per_annotator, replace=False) for _ in range(n_annotators)]
    )
    annotator = np.repeat(np.arange(n_annotators), per_annotator)
    grade = rng.integers(0, 5, item.size).astype(np.float64)
    return Ratings(item, annotator, grade, n_items, n_annotators)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 12), st.integers(1, 15))
def test_sparse_pairs_equal_the_dense_ones(seed: int, n_annotators: int, n_items: int) -> None:
    ratings = _random_ratings(seed, n_annotators, n_items, min(n_items, 4))
    dense = pairwise_cohen_kappa(ratings, values=GRADES)
    original = agreement_kappa.DENSE_PAIR_LIMIT
    agreement_kappa.DENSE_PAIR_LIMIT = 0
    try:
        sparse = pairwise_cohen_kappa(ratings, values=GRADES)
    finally:
        agreement_kappa.DENSE_PAIR_LIMIT = original
    shared = dense.n_shared > 0
    np.testing.assert_array_equal(sparse.annotator_a, dense.annotator_a[shared])
    np.testing.assert_array_equal(sparse.annotator_b, dense.annotator_b[shared])
    np.testing.assert_array_equal(sparse.n_shared, dense.n_shared[shared])
    for name in ("kappa", "kappa_linear", "kappa_quadratic", "percent_agreement"):
        np.testing.assert_allclose(getattr(sparse, name), getattr(dense, name)[shared])
    np.testing.assert_array_equal(sparse.reason_code, dense.reason_code[shared])


def test_nine_thousand_annotators_pairs_against_sklearn() -> None:
    ratings = _random_ratings(3, 9_000, 300, 4)
    result = pairwise_cohen_kappa(ratings, values=GRADES)
    assert len(result) < 9_000 * 8_999 // 2  # only pairs that share an item
    by_annotator: dict[int, dict[int, float]] = {}
    columns = (ratings.item.tolist(), ratings.annotator.tolist(), ratings.grade.tolist())
    for i, a, g in zip(*columns, strict=True):
        by_annotator.setdefault(a, {})[i] = g
    rng = np.random.default_rng(0)
    for p in rng.choice(np.flatnonzero(result.n_shared >= 2), 20, replace=False).tolist():
        a, b = int(result.annotator_a[p]), int(result.annotator_b[p])
        shared = sorted(set(by_annotator[a]) & set(by_annotator[b]))
        x = [by_annotator[a][i] for i in shared]
        y = [by_annotator[b][i] for i in shared]
        assert result.n_shared[p] == len(shared)
        if result.reason_code[p] == 0:
            reference = cohen_kappa_score(x, y, labels=GRADES, weights="quadratic")
            assert result.kappa_quadratic[p] == pytest.approx(reference, abs=1e-12)
