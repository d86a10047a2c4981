"""Bootstrap confidence interval, paired randomization test, run comparison."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.statistics import resampling as stats
from ndcg_studio.domain.statistics.resampling import (
    MeanCI,
    bootstrap_mean_ci,
    bootstrap_mean_cis,
    compare_runs,
    paired_randomization_test,
)


def test_bootstrap_interval_contains_the_mean_and_is_deterministic() -> None:
    values = np.random.default_rng(1).beta(2, 3, size=50)
    ci = bootstrap_mean_ci(values)
    assert isinstance(ci, MeanCI)
    assert ci.n == 50
    assert ci.mean == pytest.approx(values.mean())
    assert ci.low < ci.mean < ci.high
    assert bootstrap_mean_ci(values, seed=0) == ci
    assert bootstrap_mean_ci(values, seed=1) != ci
    # the percentile interval is close to the normal one for a mean of 50 values
    se = values.std(ddof=1) / math.sqrt(values.size)
    assert ci.high - ci.low == pytest.approx(2 * 1.96 * se, rel=0.1)
    wider = bootstrap_mean_ci(values, confidence=0.99)
    assert wider.low < ci.low and wider.high > ci.high


def test_bootstrap_against_a_plain_loop() -> None:
    values = np.random.default_rng(2).random(20)
    got = bootstrap_mean_ci(values, n_resamples=2000, seed=7)
    rng = np.random.default_rng(7)
    means = [values[rng.integers(0, 20, size=20)].mean() for _ in range(2000)]
    low, high = np.quantile(means, [0.025, 0.975])
    assert got.low == pytest.approx(low, rel=1e-12)
    assert got.high == pytest.approx(high, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 300),
    n_resamples=st.integers(1, 700),
    chunk=st.sampled_from([7, 64, 1001, 1 << 19]),
)
def test_bootstrap_intervals_do_not_depend_on_the_chunks(
    seed: int, n: int, n_resamples: int, chunk: int
) -> None:
    """Bounded draws take 32-bit halves the generator keeps across calls: chunks of any size
    (odd ones leave half a raw output over) give the interval of one draw per resample."""
    values = np.random.default_rng(seed ^ 1).random(n)
    rng = np.random.default_rng(seed)
    means = [values[rng.integers(0, n, size=(1, n))].mean(axis=1)[0] for _ in range(n_resamples)]
    alpha = 1.0 - 0.95  # as the function computes it (not 0.05 to the bit)
    low, high = np.quantile(means, [alpha / 2.0, 1.0 - alpha / 2.0])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats, "_BOOTSTRAP_CHUNK_ELEMENTS", chunk)
        got = bootstrap_mean_ci(values, n_resamples=n_resamples, seed=seed)
    assert (got.low, got.high) == (low, high)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sizes=st.lists(st.integers(0, 40), min_size=1, max_size=5),
    nan_rate=st.sampled_from([0.0, 0.3]),
    n_resamples=st.integers(1, 300),
    chunk=st.sampled_from([7, 1 << 19]),
)
def test_bootstrap_of_several_samples_equals_each_alone(
    seed: int, sizes: list[int], nan_rate: float, n_resamples: int, chunk: int
) -> None:
    """Samples of as many non-NaN values share their picks; each interval is the one the
    sample gets alone, to the bit (samples of other counts, 0 and 1 value among them)."""
    rng = np.random.default_rng(seed)
    samples = [np.where(rng.random(n) < nan_rate, np.nan, rng.random(n)) for n in sizes]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats, "_BOOTSTRAP_CHUNK_ELEMENTS", chunk)
        together = bootstrap_mean_cis(samples, n_resamples=n_resamples, seed=seed)
        alone = [bootstrap_mean_ci(v, n_resamples=n_resamples, seed=seed) for v in samples]
    assert len(together) == len(samples)
    for got, want in zip(together, alone, strict=True):
        assert got.n == want.n
        assert np.array_equal([*got], [*want], equal_nan=True)


def test_bootstrap_of_several_samples_names_the_bad_one() -> None:
    with pytest.raises(ValueError, match=r"samples\[1\] must be 1-D"):
        bootstrap_mean_cis([[0.1, 0.2], [[0.3]]])
    assert bootstrap_mean_cis([]) == []


def test_bootstrap_ignores_nan_and_small_inputs() -> None:
    ci = bootstrap_mean_ci([0.5, math.nan, 0.7, math.nan])
    assert ci.n == 2
    assert ci.mean == pytest.approx(0.6)
    assert 0.5 <= ci.low <= ci.high <= 0.7
    assert bootstrap_mean_ci([0.3, math.nan]) == MeanCI(0.3, 0.3, 0.3, 1)
    empty = bootstrap_mean_ci([math.nan])
    assert empty.n == 0 and math.isnan(empty.mean) and math.isnan(empty.low)
    with pytest.raises(ValueError):
        bootstrap_mean_ci([1.0, 2.0], confidence=1.0)
    with pytest.raises(ValueError):
        bootstrap_mean_ci([1.0, 2.0], n_resamples=0)


def test_randomization_identical_runs_give_p_one() -> None:
    a = np.random.default_rng(3).random(30)
    assert paired_randomization_test(a, a.copy()) == 1.0
    assert paired_randomization_test(a[:8], a[:8].copy()) == 1.0  # exact enumeration


def test_randomization_run_winning_everywhere_is_significant() -> None:
    rng = np.random.default_rng(4)
    b = rng.random(30) * 0.5
    a = b + 0.05 + rng.random(30) * 0.1
    p = paired_randomization_test(a, b)
    assert p == pytest.approx(1 / 10_001)  # no sign pattern reaches the observed mean
    assert paired_randomization_test(b, a) == p  # two-sided


def test_randomization_exact_enumeration_small_n() -> None:
    # deltas 1, 2, 3: |mean| >= 2 for sign patterns (+,+,+) and (-,-,-) only -> p = 2/8
    a = np.array([1.0, 2.0, 3.0])
    assert paired_randomization_test(a, np.zeros(3)) == pytest.approx(2 / 8)
    # deltas 1, -1, 0.5, 0.5: observed 0.25; patterns with |sum| >= 1: count by brute force
    d = np.array([1.0, -1.0, 0.5, 0.5])
    count = 0
    for mask in range(16):
        signs = np.array([1 if mask >> i & 1 else -1 for i in range(4)])
        count += abs((signs * d).sum()) >= 1.0 - 1e-12
    assert paired_randomization_test(d, np.zeros(4)) == pytest.approx(count / 16)


def test_randomization_matches_normal_approximation_for_large_n() -> None:
    rng = np.random.default_rng(5)
    d = rng.normal(0.02, 0.1, size=200)
    p = paired_randomization_test(d, np.zeros(200), n_resamples=20_000)
    # under the sign-flip null, mean delta has sd sqrt(sum d^2)/n
    z = abs(d.mean()) / (math.sqrt((d**2).sum()) / d.size)
    expected = math.erfc(z / math.sqrt(2))
    assert p == pytest.approx(expected, abs=0.01)
    assert paired_randomization_test(d, np.zeros(200), n_resamples=20_000) == p


def test_compare_runs_counts_and_pairs() -> None:
    a = np.array([0.5, 0.7, math.nan, 0.2, 0.4, 0.9])
    b = np.array([0.4, 0.7, 0.3, math.nan, 0.6, 0.9 + 1e-13])
    result = compare_runs(a, b)
    assert result.paired.tolist() == [True, True, False, False, True, True]
    assert result.n == 4
    np.testing.assert_allclose(result.deltas, [0.1, 0.0, -0.2, -1e-13], atol=1e-15)
    assert (result.wins, result.losses, result.ties) == (1, 1, 2)
    assert result.mean_a == pytest.approx(0.625)
    assert result.mean_delta == pytest.approx((0.1 - 0.2 - 1e-13) / 4)
    assert result.p_value == pytest.approx(paired_randomization_test(a, b))
    none = compare_runs([math.nan], [0.3])
    assert none.n == 0 and math.isnan(none.p_value) and math.isnan(none.mean_delta)
    with pytest.raises(ValueError):
        compare_runs([1.0, 2.0], [1.0])
