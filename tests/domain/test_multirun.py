"""Statistics for N runs against reference implementations and straightforward loops.

Oracles: statsmodels ``anova_lm`` (two-way ANOVA), ``multipletests(method='holm')``, the
existing per-pair functions of domain.stats (bootstrap interval, randomization test), and a
slow Python loop for the randomised Tukey HSD that draws the same keys.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.multitest import multipletests

from ndcg_studio.domain.statistics.anova import two_way_anova
from ndcg_studio.domain.statistics.multirun import (
    bootstrap_pair_intervals,
    compare_many,
    holm_adjust,
    pair_indices,
    permuted_run_ranges,
    randomised_tukey_hsd,
    randomization_p_values,
)
from ndcg_studio.domain.statistics.resampling import bootstrap_mean_ci, paired_randomization_test


def scores_with_query_difficulty(n_runs: int, n_queries: int, seed: int) -> np.ndarray:
    """Runs with small true differences on queries of very different difficulty."""
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 2, size=n_queries)
    effect = np.linspace(0.0, 0.05, n_runs)[:, None]
    noise = rng.normal(0.0, 0.05, size=(n_runs, n_queries))
    return np.clip(difficulty + effect + noise, 0.0, 1.0)


# --- ANOVA ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("n_runs", "n_queries", "seed"), [(2, 5, 0), (5, 50, 1), (8, 120, 2)])
def test_two_way_anova_equals_statsmodels(n_runs: int, n_queries: int, seed: int) -> None:
    x = scores_with_query_difficulty(n_runs, n_queries, seed)
    frame = pd.DataFrame(
        {
            "y": x.ravel(),
            "run": np.repeat(np.arange(n_runs), n_queries),
            "query": np.tile(np.arange(n_queries), n_runs),
        }
    )
    table = anova_lm(ols("y ~ C(run) + C(query)", data=frame).fit())
    got = two_way_anova(x)
    for ours, row in (("run", "C(run)"), ("query", "C(query)")):
        assert getattr(got, f"ss_{ours}") == pytest.approx(table.loc[row, "sum_sq"], rel=1e-9)
        assert getattr(got, f"df_{ours}") == table.loc[row, "df"]
        assert getattr(got, f"ms_{ours}") == pytest.approx(table.loc[row, "mean_sq"], rel=1e-9)
        assert getattr(got, f"f_{ours}") == pytest.approx(table.loc[row, "F"], rel=1e-9)
        assert getattr(got, f"p_{ours}") == pytest.approx(table.loc[row, "PR(>F)"], rel=1e-6)
    assert got.ss_residual == pytest.approx(table.loc["Residual", "sum_sq"], rel=1e-9)
    assert got.df_residual == table.loc["Residual", "df"]
    assert got.ms_residual == pytest.approx(table.loc["Residual", "mean_sq"], rel=1e-9)
    assert got.ss_total == pytest.approx(got.ss_run + got.ss_query + got.ss_residual, rel=1e-12)


def test_anova_degenerate_and_bad_input() -> None:
    additive = np.add.outer([0.1, 0.3, 0.2], [0.0, 0.5, 0.2, 0.4])  # no residual at all
    table = two_way_anova(additive)
    assert table.ss_residual == pytest.approx(0.0, abs=1e-20)
    same = np.ones((3, 4))
    assert math.isnan(two_way_anova(same).f_run)
    with pytest.raises(ValueError, match="NaN"):
        two_way_anova([[0.1, math.nan], [0.2, 0.3]])
    with pytest.raises(ValueError, match="2-D"):
        two_way_anova([0.1, 0.2])
    with pytest.raises(ValueError, match="at least 2 runs"):
        two_way_anova([[0.1, 0.2]])


# --- bootstrap and randomization against the two-run functions -------------------------------


@pytest.mark.parametrize("n_runs", [2, 3, 4])
def test_pair_intervals_equal_the_two_run_bootstrap_of_the_deltas(n_runs: int) -> None:
    """Up to three pairs, each pair's interval is that bootstrap's; with more, one matrix
    product of the same picks gives it up to float rounding."""
    x = scores_with_query_difficulty(n_runs, 37, 3)
    low, high = bootstrap_pair_intervals(x, n_resamples=3000, confidence=0.9, seed=11)
    for index, (a, b) in enumerate(zip(*pair_indices(n_runs), strict=True)):
        expected = bootstrap_mean_ci(x[a] - x[b], n_resamples=3000, confidence=0.9, seed=11)
        if n_runs <= 3:
            assert (low[index], high[index]) == (expected.low, expected.high)
        assert low[index] == pytest.approx(expected.low, abs=1e-12)
        assert high[index] == pytest.approx(expected.high, abs=1e-12)


def test_pair_intervals_against_a_plain_loop() -> None:
    x = scores_with_query_difficulty(3, 15, 4)
    low, high = bootstrap_pair_intervals(x, n_resamples=500, seed=5)
    rng = np.random.default_rng(5)
    resamples = [rng.integers(0, 15, size=15) for _ in range(500)]
    for index, (a, b) in enumerate(zip(*pair_indices(3), strict=True)):
        deltas = [float(np.mean(x[a][pick]) - np.mean(x[b][pick])) for pick in resamples]
        lo, hi = np.quantile(deltas, [0.025, 0.975])
        assert low[index] == pytest.approx(lo, abs=1e-12)
        assert high[index] == pytest.approx(hi, abs=1e-12)


@pytest.mark.parametrize(("n_queries", "n_resamples"), [(8, 1000), (40, 2000)])
def test_randomization_p_equal_the_two_run_test(n_queries: int, n_resamples: int) -> None:
    # 2**8 <= 1000: exact enumeration; 40 queries: random sign patterns
    x = scores_with_query_difficulty(5, n_queries, 6)
    got = randomization_p_values(x, n_resamples=n_resamples, seed=9)
    for index, (a, b) in enumerate(zip(*pair_indices(5), strict=True)):
        assert got[index] == paired_randomization_test(x[a], x[b], n_resamples, seed=9)


# --- randomised Tukey HSD ---------------------------------------------------------------------


def slow_tukey(x: np.ndarray, n_permutations: int, seed: int, chunk: int) -> list[float]:
    """Carterette (2012) Algorithm 1 as a plain loop over permutations and queries.

    The keys are drawn as permuted_run_ranges documents (same generator calls per chunk of
    ``chunk`` permutations); everything else is computed independently.
    """
    r, n = x.shape
    bits = max(1, (r - 1).bit_length())
    width = 32 if bits <= 4 else 64
    dtype = np.uint32 if width == 32 else np.uint64
    rng = np.random.default_rng(seed)
    ranges: list[float] = []
    done = 0
    while done < n_permutations:
        size = min(chunk, n_permutations - done)
        per_raw = 64 // width
        words = -(-(n * r) // per_raw)
        raw = rng.bit_generator.random_raw(size * words)
        keys = raw.view(dtype).reshape(size, words * per_raw)[:, : n * r].reshape(size, n, r)
        for p in range(size):
            sums = [0.0] * r
            for j in range(n):
                high = [int(k) >> bits for k in keys[p, j]]
                order = sorted(range(r), key=lambda i, h=high: (h[i], i))  # type: ignore[misc]
                for i in range(r):
                    sums[i] += float(x[order[i], j])
            means = [s / n for s in sums]
            ranges.append(max(means) - min(means))
        done += size
    out = []
    for a, b in zip(*pair_indices(r), strict=True):
        observed = abs(float(np.mean(x[a])) - float(np.mean(x[b])))
        hits = sum(1 for value in ranges if value >= observed - 1e-9)
        out.append((hits + 1) / (n_permutations + 1))
    return out


@pytest.mark.parametrize(
    ("n_runs", "n_queries"), [(2, 12), (2, 25), (3, 12), (5, 30), (18, 6), (3, 25)]
)
def test_tukey_hsd_equals_a_slow_loop(n_runs: int, n_queries: int) -> None:
    x = scores_with_query_difficulty(n_runs, n_queries, 7)
    n_permutations = 300
    from ndcg_studio.domain.statistics import multirun

    chunk = max(1, multirun._TUKEY_CHUNK_ELEMENTS // (n_runs * n_queries))
    got = randomised_tukey_hsd(x, n_permutations, seed=3)
    expected = slow_tukey(x, n_permutations, 3, chunk)
    np.testing.assert_allclose(got, expected, rtol=0, atol=0)
    if n_runs > 2:
        assert len(set(got.tolist())) > 1  # the data separate some pairs from others


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 6), n=st.integers(1, 30))
def test_two_runs_are_permuted_as_the_sort_of_their_keys_permutes_them(
    seed: int, size: int, n: int
) -> None:
    """Two runs' permuted scores by one comparison of their keys equal those of the sort of
    the keys with the run in the low bit (the path of three runs or more), to the bit; equal
    high bits (forced on some queries) put run 0 first."""
    from ndcg_studio.domain.statistics import multirun

    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 2**32, size=(size, n, 2), dtype=np.uint64).astype(np.uint32)
    tied = rng.random((size, n)) < 0.3
    keys[:, :, 1][tied] = keys[:, :, 0][tied] ^ rng.integers(
        0, 2, size=int(tied.sum()), dtype=np.uint32
    )
    x = rng.random((2, n))
    sorted_keys = (keys & ~np.uint32(1)) | np.arange(2, dtype=np.uint32)
    sorted_keys.sort(axis=2)
    source = (sorted_keys & np.uint32(1)).astype(np.intp) + (np.arange(n) * 2)[:, None]
    want = np.take(np.ascontiguousarray(x.T).ravel(), source)
    got = multirun._two_runs_permuted(keys.copy(), x)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("n_runs", [2, 3, 4, 20])  # 3 x 25 keys: odd, half a raw word left over
def test_tukey_hsd_chunking_does_not_change_the_draws(
    monkeypatch: pytest.MonkeyPatch, n_runs: int
) -> None:
    from ndcg_studio.domain.statistics import multirun

    x = scores_with_query_difficulty(n_runs, 25, 8)
    monkeypatch.setattr(multirun, "_TUKEY_CHUNK_ELEMENTS", 1 << 30)  # one chunk
    whole = permuted_run_ranges(x, 200, seed=1)
    monkeypatch.setattr(multirun, "_TUKEY_CHUNK_ELEMENTS", n_runs * 25 * 7)  # 7 per chunk
    # the raw stream is consumed in the same order whatever the chunk size
    np.testing.assert_allclose(permuted_run_ranges(x, 200, seed=1), whole, rtol=0, atol=1e-15)


def test_permutations_are_uniform_over_the_run_orders() -> None:
    # 3 runs, one query with scores 0, 1, 2 (plus a constant query): the permuted means of
    # run 0 take each value with probability 1/3, the range each of its 3 values 1/3 ...
    x = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0]])
    ranges = permuted_run_ranges(x, 30_000, seed=2)
    assert np.allclose(ranges, 1.0)  # any permutation of 0, 1, 2 has range 2, mean range 1
    y = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    values, counts = np.unique(permuted_run_ranges(y, 30_000, seed=2), return_counts=True)
    # P(both 1s land on the same run) = 1/3 -> range 1; else range 0.5
    assert values.tolist() == [0.5, 1.0]
    assert counts[1] / 30_000 == pytest.approx(1 / 3, abs=0.01)


def test_tukey_is_at_least_the_uncorrected_p_and_finds_real_differences() -> None:
    x = scores_with_query_difficulty(5, 200, 12)
    x[4] += 0.1  # one clearly better run
    tukey = randomised_tukey_hsd(x, 2000, seed=0)
    raw = randomization_p_values(x, 2000, seed=0)
    a, b = pair_indices(5)
    better = (b == 4) | (a == 4)
    assert np.all(tukey[better] < 0.01)
    assert np.all(tukey >= raw - 0.02)  # a family-wise correction is never much smaller


# --- Holm -------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)  # multipletests costs ~50 ms a call here
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30))
def test_holm_equals_statsmodels(p: list[float]) -> None:
    expected = multipletests(p, method="holm")[1]
    np.testing.assert_allclose(holm_adjust(p), expected, rtol=1e-12, atol=1e-15)


def test_holm_leaves_nan_out_of_the_family() -> None:
    got = holm_adjust([0.01, math.nan, 0.04, 0.03])
    assert math.isnan(got[1])
    np.testing.assert_allclose(got[[0, 2, 3]], multipletests([0.01, 0.04, 0.03], method="holm")[1])
    with pytest.raises(ValueError):
        holm_adjust([1.5])


# --- everything at once -----------------------------------------------------------------------


def test_compare_many_assembles_the_components() -> None:
    x = scores_with_query_difficulty(4, 60, 13)
    result = compare_many(
        x, baselines=[0], n_resamples=1000, n_permutations=500, confidence=0.95, seed=4
    )
    a, b = pair_indices(4)
    np.testing.assert_array_equal(result.run_a, a)
    np.testing.assert_array_equal(result.run_b, b)
    np.testing.assert_allclose(result.delta, x[a].mean(axis=1) - x[b].mean(axis=1))
    anova = two_way_anova(x)
    np.testing.assert_allclose(result.effect_size, result.delta / math.sqrt(anova.ms_residual))
    np.testing.assert_array_equal(result.p, randomization_p_values(x, 1000, seed=4))
    np.testing.assert_array_equal(result.p_tukey, randomised_tukey_hsd(x, 500, seed=4))
    low, high = bootstrap_pair_intervals(x, 1000, 0.95, seed=4)
    np.testing.assert_array_equal(result.ci_low, low)
    np.testing.assert_array_equal(result.ci_high, high)
    baseline_pairs = a == 0
    np.testing.assert_allclose(
        result.p_holm[baseline_pairs], multipletests(result.p[baseline_pairs], method="holm")[1]
    )
    assert np.isnan(result.p_holm[~baseline_pairs]).all()
    assert result.baselines == (0,)
    assert np.all(result.ci_low <= result.delta) and np.all(result.delta <= result.ci_high)
    with pytest.raises(ValueError, match="baseline"):
        compare_many(x, baselines=[4])


def test_two_baselines_form_one_family() -> None:
    x = scores_with_query_difficulty(4, 30, 14)
    result = compare_many(x, baselines=[0, 1], n_resamples=500, n_permutations=100)
    a, b = pair_indices(4)
    family = (a == 0) | (a == 1) | (b == 0) | (b == 1)
    assert family.sum() == 5
    np.testing.assert_allclose(
        result.p_holm[family], multipletests(result.p[family], method="holm")[1]
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000), scale=st.floats(0.0, 10.0))
def test_query_effects_change_nothing_but_the_query_sum_of_squares(seed: int, scale: float) -> None:
    # The blocked tests look at runs within queries: adding any per-query constant (query
    # difficulty) leaves the run part of the ANOVA, the residual and every p-value unchanged.
    x = scores_with_query_difficulty(4, 20, seed)
    shifted = x + scale * np.random.default_rng(seed).normal(size=20)[None, :]
    before, after = two_way_anova(x), two_way_anova(shifted)
    assert after.ss_run == pytest.approx(before.ss_run, rel=1e-6, abs=1e-12)
    assert after.ms_residual == pytest.approx(before.ms_residual, rel=1e-6, abs=1e-12)
    np.testing.assert_array_equal(
        randomised_tukey_hsd(shifted, 200, seed=1), randomised_tukey_hsd(x, 200, seed=1)
    )
    np.testing.assert_array_equal(
        randomization_p_values(shifted, 200, seed=1), randomization_p_values(x, 200, seed=1)
    )
