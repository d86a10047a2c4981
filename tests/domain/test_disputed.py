"""The one rule for disputed items (ndcg_studio.domain.agreement.disputed) against its users' old
copies:
item_spread's flag, the breakdown's per-document spread, the service's and the view's orders."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.agreement.disputed import (
    disputed_per_group,
    grade_range,
    is_disputed,
    most_disputed_first,
)
from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.agreement.spread import item_spread
from ndcg_studio.vocabulary import DEFAULT_DISPUTED_RANGE

grades_st = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(-1, 4)), max_size=40
)


def test_the_default_range_is_the_vocabulary_s() -> None:
    assert is_disputed([DEFAULT_DISPUTED_RANGE - 1, DEFAULT_DISPUTED_RANGE]).tolist() == [
        False,
        True,
    ]


def test_no_grade_is_never_disputed_and_bad_thresholds_raise() -> None:
    assert is_disputed([np.nan, 0.0], 0).tolist() == [False, True]
    for bad in (-1, np.inf, np.nan):
        with pytest.raises(ValueError):
            is_disputed([1.0], bad)


@given(grades_st, st.sampled_from([0, 1, 2, 3, 4]))
def test_grade_range_equals_a_loop_and_item_spread(
    rows: list[tuple[int, int, int]], threshold: int
) -> None:
    # one grade per (item, annotator), as the database's unique constraint keeps it
    unique = {(i, a): g for i, a, g in rows}
    n_items = 6
    item = np.array([i for i, _ in unique], dtype=np.int64)
    grade = np.array(list(unique.values()), dtype=np.float64)
    got = grade_range(item, grade, n_items)
    for i in range(n_items):
        mine = [max(g, 0) for (j, _), g in unique.items() if j == i]
        expected = max(mine) - min(mine) if mine else np.nan
        assert (np.isnan(got[i]) and np.isnan(expected)) or got[i] == expected
    ratings = Ratings.from_arrays(
        item, np.array([a for _, a in unique], dtype=np.int64), np.maximum(grade, 0), n_items, 4
    )
    spread = item_spread(ratings, disputed_range=threshold)
    assert np.array_equal(spread.disputed, is_disputed(got, threshold))
    loop = [
        bool(m) and max(m) - min(m) >= threshold
        for m in ([max(g, 0) for (j, _), g in unique.items() if j == i] for i in range(n_items))
    ]
    assert spread.disputed.tolist() == loop


def test_most_disputed_first_orders_by_range_std_then_ties() -> None:
    rng = np.array([2.0, 4.0, 2.0, 1.0, 4.0])
    std = np.array([1.0, 2.0, 1.0, 0.5, 1.5])
    flag = is_disputed(rng, 2)
    assert most_disputed_first(rng, std, flag).tolist() == [1, 4, 0, 2]
    tie = np.array([5, 0, 3, 0, 0])
    assert most_disputed_first(rng, std, flag, tie).tolist() == [1, 4, 2, 0]
    assert most_disputed_first(rng, std, np.zeros(5, dtype=bool)).tolist() == []


def test_disputed_per_group_counts() -> None:
    flag = np.array([True, False, True, True])
    group = np.array([0, 0, 2, 2], dtype=np.int64)
    assert disputed_per_group(flag, group, 3).tolist() == [1, 0, 2]
