"""Per-item spread against numpy per item, and the summary entry point on edge cases."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.agreement.spread import item_spread
from ndcg_studio.domain.agreement.summary import agreement_summary
from tests.domain.test_agreement_oracles import ratings_strategy


@settings(max_examples=150, deadline=None)
@given(
    ratings=ratings_strategy(max_items=10, grades=(0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 7.25)),
    disputed_range=st.sampled_from([0.0, 1.0, 2.0, 2.5]),
)
def test_spread_equals_numpy_per_item(ratings: Ratings, disputed_range: float) -> None:
    spread = item_spread(ratings, disputed_range=disputed_range)
    for u in range(ratings.n_items):
        grades = ratings.grade[ratings.item == u]
        assert spread.n_grades[u] == grades.size
        if grades.size == 0:
            for name in ("mean", "median", "min", "max", "range", "std"):
                assert math.isnan(getattr(spread, name)[u])
            assert not spread.disputed[u]
            continue
        assert spread.mean[u] == pytest.approx(np.mean(grades), abs=1e-12)
        assert spread.median[u] == pytest.approx(np.median(grades), abs=1e-12)
        assert spread.min[u] == grades.min()
        assert spread.max[u] == grades.max()
        assert spread.range[u] == np.ptp(grades)
        assert spread.std[u] == pytest.approx(np.std(grades, ddof=0), abs=1e-12)
        assert spread.disputed[u] == (np.ptp(grades) >= disputed_range)


def test_spread_small_example() -> None:
    # item 0: 0, 2, 4, 1 -> median 1.5, range 4, disputed; item 1: none; item 2: 3 -> not disputed
    ratings = Ratings.from_arrays([0, 0, 0, 0, 2], [0, 1, 2, 3, 0], [0, 2, 4, 1, 3], n_items=3)
    spread = item_spread(ratings)
    assert spread.n_grades.tolist() == [4, 0, 1]
    assert spread.median[0] == 1.5
    assert spread.mean[0] == 1.75
    assert spread.std[0] == pytest.approx(np.sqrt(((np.array([0, 2, 4, 1]) - 1.75) ** 2).mean()))
    assert spread.disputed.tolist() == [True, False, False]
    assert spread.range[2] == 0.0
    assert spread.std[2] == 0.0
    with pytest.raises(ValueError, match="disputed_range"):
        item_spread(ratings, disputed_range=-1)


def test_summary_of_empty_data_is_all_undefined_without_warnings() -> None:
    empty = Ratings.from_arrays([], [], [], n_items=4, n_annotators=3)
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        summary = agreement_summary(
            empty, "ordinal", np.array([0, 0, 1, 1]), 2, values=[0, 1, 2, 3, 4], n_resamples=10
        )
    assert math.isnan(summary.alpha.value)
    assert summary.alpha.coincidences.shape == (5, 5)
    assert math.isnan(summary.alpha_ci.low)
    assert math.isnan(summary.fleiss.value)
    assert len(summary.pairwise) == 3
    assert summary.pairwise.undefined_reason == ("no shared items",) * 3
    assert summary.per_query.reason_code.tolist() == [1, 1]
    assert summary.leave_one_out.reason_code.tolist() == [1, 1, 1]
    assert summary.spread.n_grades.tolist() == [0, 0, 0, 0]
