"""Topic set size design (Sakai 2016) against statsmodels' power solvers and a worked example.

Worked example (stated here, computed by hand with the normal approximation and checked with
statsmodels): alpha = 0.05, power 0.80, smallest difference worth detecting 0.05 nDCG, residual
variance sigma^2 = 0.01 (so the per-query difference has sigma_t^2 = 0.02, sigma_t = 0.1414).
Sakai's normal approximation: ((1.95996 + 0.84162) * 0.1414 / 0.05)^2 + 1.95996^2 / 2
= 62.79 + 1.92 = 64.71 -> 65 queries; statsmodels TTestPower solves nobs = 64.74 -> 65.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.power import FTestAnovaPower, TTestPower

from ndcg_studio.domain.statistics.topic_set_size import min_detectable_delta, power, topic_set_size


def test_worked_example() -> None:
    result = topic_set_size(0.05, 0.01, alpha=0.05, target_power=0.8)
    assert result.n_queries == 65
    assert result.normal_approximation == 65
    assert 0.8 <= result.achieved_power < 0.81
    assert power(64, 0.05, 0.01) < 0.8
    # and back: 65 queries detect about 0.05 at 80% power
    assert min_detectable_delta(65, 0.01) == pytest.approx(0.05, abs=5e-4)


@settings(max_examples=40, deadline=None)
@given(  # effect sizes up to 1: statsmodels' solver fails (NaN) below about 4 queries
    delta=st.floats(0.01, 0.1),
    variance=st.floats(0.005, 0.1),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
    target=st.sampled_from([0.5, 0.8, 0.9]),
)
def test_paired_t_equals_statsmodels(
    delta: float, variance: float, alpha: float, target: float
) -> None:
    effect = delta / math.sqrt(2 * variance)
    expected = TTestPower().solve_power(
        effect_size=effect, alpha=alpha, power=target, alternative="two-sided"
    )
    result = topic_set_size(delta, variance, alpha=alpha, target_power=target)
    assert result.n_queries == max(2, math.ceil(expected - 1e-6))
    got_power = TTestPower().power(
        effect_size=effect, nobs=result.n_queries, alpha=alpha, alternative="two-sided"
    )
    assert result.achieved_power == pytest.approx(got_power, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(
    delta=st.floats(0.02, 0.2),
    variance=st.floats(0.005, 0.05),
    runs=st.integers(2, 10),
    target=st.sampled_from([0.8, 0.9]),
)
def test_anova_equals_statsmodels(delta: float, variance: float, runs: int, target: float) -> None:
    # lambda = n delta^2 / (2 sigma^2) = N f^2 with N = m n: f = delta / (sigma sqrt(2 m))
    f = delta / math.sqrt(2 * variance * runs)
    total = FTestAnovaPower().solve_power(effect_size=f, alpha=0.05, power=target, k_groups=runs)
    result = topic_set_size(delta, variance, target_power=target, design="anova", n_runs=runs)
    assert result.n_queries == max(2, math.ceil(total / runs - 1e-6))
    got = FTestAnovaPower().power(
        effect_size=f, nobs=runs * result.n_queries, alpha=0.05, k_groups=runs
    )
    assert result.achieved_power == pytest.approx(got, abs=1e-6)


@pytest.mark.parametrize("design", ["paired_t", "anova"])
def test_min_detectable_delta_inverts_topic_set_size(design: str) -> None:
    for n in (10, 50, 225, 1000):
        delta = min_detectable_delta(n, 0.0125, design=design, n_runs=4)  # type: ignore[arg-type]
        assert power(n, delta, 0.0125, design=design, n_runs=4) == pytest.approx(0.8, abs=1e-9)  # type: ignore[arg-type]
        needed = topic_set_size(delta * 1.001, 0.0125, design=design, n_runs=4)  # type: ignore[arg-type]
        assert needed.n_queries <= n
    assert min_detectable_delta(1000, 0.0125) < min_detectable_delta(100, 0.0125)


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="alpha"):
        topic_set_size(0.05, 0.01, alpha=1.5)
    with pytest.raises(ValueError, match="variance"):
        topic_set_size(0.05, 0.0)
    with pytest.raises(ValueError, match="delta"):
        topic_set_size(0.0, 0.01)
    with pytest.raises(ValueError, match="n_queries"):
        min_detectable_delta(1, 0.01)
    with pytest.raises(ValueError, match="design"):
        power(10, 0.1, 0.01, design="wilcoxon")  # type: ignore[arg-type]
