"""Run orders under several grade sets: tau against scipy, tau_AP against a plain loop of the
paper's formula, flips against brute force, significance against the randomization test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from ndcg_studio.domain.stability import GradeSet, ndcg_spread, run_means, stability
from ndcg_studio.domain.statistics.resampling import paired_randomization_test


def _tau_ap_reference(reference: list[float], other: list[float]) -> float:
    """Yilmaz et al. 2008 eq. 3 written as loops, no ties: items in ``other``'s order; C(i)
    counts the items above i there that ``reference`` also ranks above i."""
    n = len(reference)
    order = sorted(range(n), key=lambda t: -other[t])
    total = 0.0
    for i in range(1, n):
        c = sum(1 for j in range(i) if reference[order[j]] > reference[order[i]])
        total += c / i
    return 2.0 / (n - 1) * total - 1.0


def _sets(n: int) -> list[GradeSet]:
    return [GradeSet(f"s{i}", f"s{i}'s grades") for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda n_sets: st.integers(2, 7).flatmap(
            lambda n_runs: st.lists(
                st.lists(
                    st.lists(
                        st.one_of(st.none(), st.sampled_from([0.0, 0.25, 0.5, 1.0])),
                        min_size=4,
                        max_size=4,
                    ),
                    min_size=n_runs,
                    max_size=n_runs,
                ),
                min_size=n_sets,
                max_size=n_sets,
            )
        )
    )
)
def test_pairs_equal_scipy_and_brute_force(raw: list[list[list[float | None]]]) -> None:
    values = np.array(raw, dtype=np.float64)  # None -> NaN
    n_sets, n_runs, _ = values.shape
    runs = [f"r{i}" for i in range(n_runs)]
    result = stability(_sets(n_sets), runs, values, test=False)
    for p in result.pairs:
        a, b = result.means[p.set_a], result.means[p.set_b]
        both = ~(np.isnan(a) | np.isnan(b))
        assert p.n_runs == int(both.sum())
        if p.n_runs >= 2:
            expected = kendalltau(a[both], b[both]).statistic  # tau-b, scipy's default variant
            assert (math.isnan(p.kendall_tau) and math.isnan(expected)) or p.kendall_tau == (
                pytest.approx(expected, abs=1e-12)
            )
        brute = {
            (i, j)
            for i in range(n_runs)
            for j in range(i + 1, n_runs)
            if both[i] and both[j] and (a[i] - a[j]) * (b[i] - b[j]) < 0
        }
        assert set(p.flipped) == brute
        for i, j in p.flipped:
            label = result.order_label(p.set_a, i, j)
            assert label.split(">")[0] == (runs[i] if a[i] > a[j] else runs[j])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(st.permutations(range(n)), st.permutations(range(n)))
    )
)
def test_tau_ap_equals_the_reference_loop(orders: tuple[list[int], list[int]]) -> None:
    x, y = (np.array(o, dtype=np.float64) for o in orders)
    ndcg = np.stack([x[:, None], y[:, None]])  # two sets, one query: the means are x and y
    (pair,) = stability(_sets(2), [f"r{i}" for i in range(len(x))], ndcg, test=False).pairs
    expected = (_tau_ap_reference(list(x), list(y)) + _tau_ap_reference(list(y), list(x))) / 2
    assert pair.tau_ap == pytest.approx(expected, abs=1e-12)


def test_run_means_leave_out_queries_without_judgments() -> None:
    m = np.array([[1.0, np.nan, 0.0], [np.nan, np.nan, np.nan]])
    means = run_means(m)
    assert means[0] == 0.5 and math.isnan(means[1])
    low, high = ndcg_spread(np.array([[0.2, np.nan, np.nan], [0.7, 0.4, np.nan]]))
    assert low[:2].tolist() == [0.2, 0.4] and high[:2].tolist() == [0.7, 0.4]
    assert math.isnan(low[2]) and math.isnan(high[2])


def _two_runs(deltas_per_set: list[list[float]]) -> np.ndarray:
    """(n_sets, 2 runs, n_queries): run B = 0.5, run A = 0.5 + delta."""
    d = np.array(deltas_per_set)
    return np.stack([0.5 + d, np.full_like(d, 0.5)], axis=1)


def test_the_sentence_of_the_issue() -> None:
    sets = [GradeSet(n, f"{n}'s grades") for n in ("bob", "cy", "di", "ed", "fay")]
    sets.append(GradeSet("ada", "ada's grades"))
    deltas = [[0.1, 0.2, 0.05]] * 5 + [[-0.1, -0.2, 0.05]]
    result = stability(sets, ["A", "B"], _two_runs(deltas), n_resamples=1000)
    assert result.sentence("A", "B") == (
        "A better than B under 5 of 6 grade sets; flips under ada's grades"
    )
    # asked the other way round: the run better under more sets comes first
    assert result.sentence("B", "A") == result.sentence("A", "B")
    v = result.verdict("A", "B")
    assert v.order_flips


def test_sentence_without_flip_and_with_ties() -> None:
    sets = _sets(3)
    result = stability(sets, ["A", "B"], _two_runs([[0.1], [0.2], [0.0]]), test=False)
    assert result.sentence("A", "B") == (
        "A better than B under 2 of 3 grade sets; never flips; tied under s2's grades"
    )


def test_significance_flips_use_the_paired_randomization_test() -> None:
    rng = np.random.default_rng(3)
    n = 30
    clear = rng.normal(0.1, 0.02, n)  # A clearly better
    noisy = rng.normal(0.0, 0.3, n)
    noisy += 0.01 - noisy.mean()  # A better on average by 0.01, not significantly
    values = _two_runs([list(clear), list(noisy)])
    result = stability(_sets(2), ["A", "B"], values, n_resamples=2000, seed=7)
    v = result.verdict("A", "B")
    for s in range(2):
        expected = paired_randomization_test(values[s, 0], values[s, 1], n_resamples=2000, seed=7)
        assert v.p_value[s] == expected
    assert v.p_value[0] < 0.05 < v.p_value[1]
    assert v.significant.tolist() == [1, 0]
    assert v.significance_flips and not v.order_flips
    same = stability(_sets(2), ["A", "B"], _two_runs([list(clear), list(clear)]), n_resamples=500)
    assert not same.verdicts[0].significance_flips


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=6, unique=True))
def test_identical_sets_agree_perfectly(means: list[float]) -> None:
    one = np.array(means)[:, None]
    result = stability(
        _sets(2), [f"r{i}" for i in range(len(means))], np.stack([one, one]), test=False
    )
    (pair,) = result.pairs
    assert pair.kendall_tau == pytest.approx(1.0) and pair.tau_ap == pytest.approx(1.0)
    assert pair.flipped == ()
    assert np.allclose(result.tau_matrix(), 1.0)


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="shape"):
        stability(_sets(2), ["A"], np.zeros((2, 2, 3)))
    with pytest.raises(ValueError, match="alpha"):
        stability(_sets(1), ["A"], np.zeros((1, 1, 3)), alpha=1.5)
    with pytest.raises(LookupError, match="unknown run"):
        stability(_sets(1), ["A", "B"], np.zeros((1, 2, 3)), test=False).verdict("A", "C")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.floats(0, 1), min_size=n, max_size=n), min_size=6, max_size=6),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    ),
    st.sampled_from([64, 1000, 3000]),
    st.integers(0, 5),
)
def test_p_values_equal_the_randomization_test_exactly(
    data: tuple[list[list[float]], list[bool]], n_resamples: int, seed: int
) -> None:
    """Sign patterns are drawn once per query count and reused: every p-value must still be
    bit for bit the one paired_randomization_test returns (exact enumeration for few queries,
    random patterns otherwise, queries without a value left out)."""
    rows, missing = data
    values = np.array(rows).reshape(2, 3, -1)  # 2 sets, 3 runs
    values[1][:, np.array(missing)] = np.nan  # set 1 lacks some queries
    result = stability(_sets(2), ["A", "B", "C"], values, n_resamples=n_resamples, seed=seed)
    for v in result.verdicts:
        for s in range(2):
            a, b = values[s, v.run_a], values[s, v.run_b]
            paired = ~(np.isnan(a) | np.isnan(b))
            if not paired.any():
                assert math.isnan(v.p_value[s])
                continue
            expected = paired_randomization_test(
                a[paired], b[paired], n_resamples=n_resamples, seed=seed
            )
            assert v.p_value[s] == expected
