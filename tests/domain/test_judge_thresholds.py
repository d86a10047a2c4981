"""Isotonic regression (PAV) against scikit-learn as the oracle, and the ordinal thresholds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression

from ndcg_studio.domain.judges.thresholds import fit_thresholds, isotonic_fit, split_queries
from ndcg_studio.domain.judges.trust import precision_recall


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 30),  # x on a coarse grid: ties happen
            st.integers(0, 4),
            st.floats(0.1, 5.0),
        ),
        min_size=1,
        max_size=60,
    )
)
def test_pav_equals_sklearn(points: list[tuple[int, int, float]]) -> None:
    x = np.array([p[0] for p in points], dtype=float) / 7.0
    y = np.array([p[1] for p in points], dtype=float)
    w = np.array([p[2] for p in points])
    xs, fs = isotonic_fit(x, y, w)
    oracle = IsotonicRegression(increasing=True).fit(x, y, sample_weight=w)
    np.testing.assert_allclose(fs, oracle.predict(xs), rtol=1e-9, atol=1e-9)
    assert (np.diff(fs) >= -1e-12).all()


def test_pav_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="one length"):
        isotonic_fit([1, 2], [1])
    with pytest.raises(ValueError, match="finite"):
        isotonic_fit([1, np.nan], [1, 2])


def test_thresholds_are_ordinal_and_round_the_fit() -> None:
    scores = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    grades = np.array([0, 0, 1, 0, 2, 2, 3, 4])
    t = fit_thresholds(scores, grades)
    assert (np.diff(t.starts) >= 0).all()
    # the fit: 0, 0, 0.5, 0.5, 2, 2, 3, 4 -> grades 0 0 1 1 2 2 3 4 (halves round up)
    np.testing.assert_array_equal(t.grade(scores), [0, 0, 1, 1, 2, 2, 3, 4])
    assert t.grade([-5.0])[0] == 0 and t.grade([5.0])[0] == 4
    never = fit_thresholds([0.1, 0.9], [0, 1])
    assert np.isinf(never.starts[1:]).all() and never.grade([0.95])[0] == 1


def test_split_is_stable_and_about_half() -> None:
    ids = [f"q{i}" for i in range(400)]
    side = split_queries(ids)
    assert (side == split_queries(ids)).all()
    assert 150 < side.sum() < 250


def test_precision_recall() -> None:
    c = np.array([[3, 1, 0], [0, 2, 2], [0, 0, 0]])
    p, r = precision_recall(c)
    np.testing.assert_allclose(p[:2], [1.0, 2 / 3])
    assert np.isnan(r[2]) and p[2] == 0.0
    np.testing.assert_allclose(r[:2], [0.75, 0.5])
    with pytest.raises(ValueError, match="square"):
        precision_recall(np.zeros((2, 3)))
