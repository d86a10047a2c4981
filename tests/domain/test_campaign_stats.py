"""Campaign statistics against scikit-learn (weighted kappa) and by hand (median, gold)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from ndcg_studio.domain.campaign_stats import (
    gold_accuracy,
    lower_median,
    others_consensus,
    weighted_kappa,
)

LABELS = [0, 1, 2, 3, 4]
pairs = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=60)


@settings(max_examples=200, deadline=None)
@given(pairs, st.sampled_from(["none", "linear", "quadratic"]))
def test_weighted_kappa_equals_sklearn_with_labels(data: list[tuple[int, int]], w: str) -> None:
    a, b = [x for x, _ in data], [y for _, y in data]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cohen_kappa_score(a, b, labels=LABELS, weights=None if w == "none" else w)
    got = weighted_kappa(a, b, LABELS, w)  # type: ignore[arg-type]
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected, abs=1e-12)


def test_weighted_kappa_refuses_unknown_labels_and_lengths() -> None:
    with pytest.raises(ValueError, match="not one of"):
        weighted_kappa([5], [1], LABELS)
    with pytest.raises(ValueError, match="equal length"):
        weighted_kappa([1, 2], [1], LABELS)
    assert math.isnan(weighted_kappa([], [], LABELS))


def test_lower_median_and_gold_accuracy() -> None:
    assert lower_median([3, 1]) == 1 and lower_median([4, 0, 2]) == 2
    with pytest.raises(ValueError):
        lower_median([])
    acc = gold_accuracy([3, 2, 0, -1], [3, 3, 2, 0])
    assert (acc.n, acc.exact, acc.within_one) == (4, 0.5, 0.75)
    assert math.isnan(gold_accuracy([], []).exact)


def test_others_consensus_uses_only_items_shared_with_others() -> None:
    item = np.array([0, 0, 0, 1, 1, 2], dtype=np.int64)
    annotator = np.array([0, 1, 2, 0, 1, 0], dtype=np.int64)
    grade = [4, 1, 3, 2, -1, 0]
    own, cons = others_consensus(item, annotator, np.array(grade, dtype=np.int64), 0)
    assert own.tolist() == [4, 2] and cons.tolist() == [1, 0]
