"""Kendall's tau-b against scipy, tau_AP against a loop written from the paper's definition."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import kendalltau

from ndcg_studio.domain.statistics.rank_correlation import (
    discordant_pairs,
    kendall_tau_b,
    tau_ap,
    tau_ap_symmetric,
)

score = st.integers(0, 6).map(lambda v: v / 6)
scores = st.lists(score, min_size=2, max_size=12)


@given(st.data())
def test_tau_b_equals_scipy_with_ties(data: st.DataObject) -> None:
    x = data.draw(scores)
    y = data.draw(st.lists(score, min_size=len(x), max_size=len(x)))
    expected = kendalltau(x, y).statistic
    got = kendall_tau_b(x, y)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(expected, abs=1e-12)


def _tau_ap_loop(reference: list[float], other: list[float]) -> float:
    """Yilmaz, Aslam & Robertson (2008), eq. 3, for orderings without ties."""
    n = len(reference)
    ranked = sorted(range(n), key=lambda i: -other[i])
    total = 0.0
    for i in range(1, n):
        item = ranked[i]
        c = sum(1 for j in ranked[:i] if reference[j] > reference[item])
        total += c / i
    return 2.0 / (n - 1) * total - 1.0


@given(st.permutations(list(range(9))), st.permutations(list(range(9))))
def test_tau_ap_equals_the_paper_loop_without_ties(a: list[int], b: list[int]) -> None:
    x = [float(v) for v in a]
    y = [float(v) for v in b]
    assert tau_ap(x, y) == pytest.approx(_tau_ap_loop(x, y), abs=1e-12)
    assert tau_ap_symmetric(x, y) == pytest.approx(
        (_tau_ap_loop(x, y) + _tau_ap_loop(y, x)) / 2, abs=1e-12
    )


def test_tau_ap_is_top_weighted_and_bounded() -> None:
    truth = [5.0, 4.0, 3.0, 2.0, 1.0]
    assert tau_ap(truth, truth) == 1.0
    assert tau_ap(truth, truth[::-1]) == -1.0
    swap_top = [4.0, 5.0, 3.0, 2.0, 1.0]
    swap_bottom = [5.0, 4.0, 3.0, 1.0, 2.0]
    # Kendall's tau cannot tell the two apart; tau_AP punishes the swap at the top more
    assert kendall_tau_b(truth, swap_top) == kendall_tau_b(truth, swap_bottom) == pytest.approx(0.8)
    assert tau_ap(truth, swap_top) < tau_ap(truth, swap_bottom) < 1.0
    # the paper's formula by hand: swap at the top, C = (0, 2, 3, 4) -> 2/4 * (0 + 1 + 1 + 1) - 1
    assert tau_ap(truth, swap_top) == pytest.approx(0.5)


def test_ties_in_the_evaluated_order_never_count_against_it() -> None:
    truth = [3.0, 2.0, 1.0]
    assert tau_ap(truth, [1.0, 1.0, 1.0]) == 1.0
    assert tau_ap(truth, [1.0, 1.0, 0.0]) == 1.0


def test_degenerate_inputs() -> None:
    assert math.isnan(kendall_tau_b([1.0], [2.0]))
    assert math.isnan(tau_ap([1.0], [2.0]))
    assert math.isnan(kendall_tau_b([1.0, 1.0], [1.0, 2.0]))
    with pytest.raises(ValueError, match="one length"):
        kendall_tau_b([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="NaN"):
        tau_ap([1.0, np.nan], [1.0, 2.0])


def test_discordant_pairs_lists_the_flips_only() -> None:
    x = [0.5, 0.4, 0.3, 0.3]
    y = [0.4, 0.5, 0.2, 0.1]
    assert discordant_pairs(x, y) == [(0, 1)]
    assert discordant_pairs(x, x) == []
