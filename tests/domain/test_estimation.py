"""Prediction-powered estimates against the authors' implementation, and their coverage.

Oracle: ``ppi_py`` (package ``ppi-python``, Angelopoulos, Duchi & Zrnic's reference
implementation) — ``ppi_mean_pointestimate``, ``ppi_mean_ci`` and ``classical_mean_ci`` on the
same inputs, to 1e-9. ``ppi_py`` sets ``warnings.simplefilter("ignore")`` when imported: it is
imported inside each test (pytest restores the warning filters after a test), never at
collection, so the suite's warnings-as-errors still hold elsewhere.

Coverage: synthetic finite populations where the all-human value is known, thousands of seeded
uniform samples per setting, numpy over the samples; the coverage is asserted >= 93 % and its
Clopper-Pearson interval printed in the message.
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np
import pytest
from scipy.stats import binomtest

from ndcg_studio.domain.estimation.active import active_mean, inclusion_probabilities
from ndcg_studio.domain.estimation.decision import decide_pairs
from ndcg_studio.domain.estimation.ppi import (
    MIN_HUMAN_QUERIES,
    classical_mean,
    estimate_mean,
    ppi_mean,
    z_interval,
)

SAMPLES = 2_000


def _ppi_py() -> ModuleType:
    return pytest.importorskip("ppi_py")


def _case(n: int, n_all: int, noise: float, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    f_all = rng.random(n_all)
    idx = rng.choice(n_all, n, replace=False)
    y = np.clip(f_all[idx] + rng.normal(0.1, noise, n), 0, 1)
    return y, f_all[idx], f_all


@pytest.mark.parametrize(
    ("n", "n_all", "noise", "confidence"),
    [(12, 40, 0.1, 0.95), (13, 25, 0.3, 0.9), (30, 500, 0.05, 0.99), (15, 43, 2.0, 0.95)],
)
def test_mean_and_interval_equal_ppi_py(
    n: int, n_all: int, noise: float, confidence: float
) -> None:
    ppi_py = _ppi_py()
    y, f, f_all = _case(n, n_all, noise, seed=n + n_all)
    got = estimate_mean(y, f, f_all, confidence)
    alpha = 1 - confidence
    point = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, f, f_all)))
    low, high = (float(np.squeeze(v)) for v in ppi_py.ppi_mean_ci(y, f, f_all, alpha=alpha))
    h_low, h_high = ppi_py.classical_mean_ci(y, alpha=alpha)
    assert got.estimate == pytest.approx(point, abs=1e-9)
    assert (got.low, got.high) == pytest.approx((low, high), abs=1e-9)
    assert (got.human_only_low, got.human_only_high) == pytest.approx((h_low, h_high), abs=1e-9)
    assert got.human_only == pytest.approx(y.mean(), abs=1e-12)
    assert got.machine_only == pytest.approx(f_all.mean(), abs=1e-12)


@pytest.mark.parametrize("lam", [0.0, 0.4, 1.0])
def test_fixed_lambda_equals_ppi_py(lam: float) -> None:
    ppi_py = _ppi_py()
    y, f, f_all = _case(20, 60, 0.2, seed=7)
    got = estimate_mean(y, f, f_all, 0.95, lam=lam)
    low, high = (float(np.squeeze(v)) for v in ppi_py.ppi_mean_ci(y, f, f_all, 0.05, lam=lam))
    assert (got.low, got.high) == pytest.approx((low, high), abs=1e-9)
    assert got.lam == lam


def test_vectorised_equals_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    y, f = rng.random((5, 12)), rng.random((5, 12))
    f_all = rng.random(40)
    est, se, lam = ppi_mean(y, f, f_all)
    for i in range(5):
        one = estimate_mean(y[i], f[i], f_all)
        assert (est[i], se[i], lam[i]) == pytest.approx((one.estimate, one.se, one.lam), abs=1e-12)


def test_too_few_queries_gives_no_interval() -> None:
    y, f, f_all = _case(MIN_HUMAN_QUERIES - 1, 30, 0.1, seed=1)
    got = estimate_mean(y, f, f_all)
    assert math.isnan(got.low) and math.isnan(got.high) and math.isnan(got.human_only_low)
    assert not got.enough and "too few" in got.note and math.isnan(got.p_value)
    assert math.isfinite(got.estimate)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1.0, 2.0], [1.0], [1.0, 2.0]), "differ in length"),
        (([], [], [1.0]), "no human-judged"),
        (([1.0, 2.0], [1.0, 2.0], [1.0]), "only 1 queries"),
        (([1.0, math.nan], [1.0, 2.0], [1.0, 2.0]), "finite"),
    ],
)
def test_bad_input_is_refused(args: tuple[list[float], ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        estimate_mean(*args)


def test_a_useless_machine_costs_nothing() -> None:
    """λ → 0 for a machine unrelated to the humans: the interval is the human-only one."""
    rng = np.random.default_rng(5)
    y, f, f_all = rng.random(40), np.full(40, 0.3), np.full(400, 0.3)
    got = estimate_mean(y, f, f_all)
    assert got.lam == 0.0
    assert (got.low, got.high) == pytest.approx((got.human_only_low, got.human_only_high))


def _population(setting: str, n_all: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """All-human values and machine values of ``n_all`` queries: a good machine (small noise, a
    bias), a fair one, a poor one (unrelated to the humans)."""
    y = rng.beta(2, 3, n_all)
    machine = {
        "good": np.clip(y + rng.normal(0.1, 0.05, n_all), 0, 1),
        "fair": np.clip(y + rng.normal(0.0, 0.2, n_all), 0, 1),
        "poor": rng.beta(2, 3, n_all),
    }[setting]
    return y, machine


def _covered(low: np.ndarray, high: np.ndarray, truth: float) -> tuple[float, str]:
    hits = int(((low <= truth) & (truth <= high)).sum())
    ci = binomtest(hits, len(low)).proportion_ci(0.95, method="exact")
    return hits / len(
        low
    ), f"{hits}/{len(low)} = {hits / len(low):.3f} [{ci.low:.3f}, {ci.high:.3f}]"


@pytest.mark.parametrize("setting", ["good", "fair", "poor"])
@pytest.mark.parametrize("n", [15, 20])
def test_uniform_sample_covers_the_all_human_mean(setting: str, n: int) -> None:
    rng = np.random.default_rng(2024 + n)
    y, f = _population(setting, 50, rng)
    idx = np.argsort(rng.random((SAMPLES, len(y))), axis=1)[:, :n]
    est, se, _ = ppi_mean(y[idx], f[idx], f)
    coverage, said = _covered(*z_interval(est, se, 0.95), float(y.mean()))
    assert coverage >= 0.93, said
    mean, h_se = classical_mean(y[idx])
    human_coverage, human_said = _covered(*z_interval(mean, h_se, 0.95), float(y.mean()))
    assert human_coverage >= 0.93, human_said
    if setting == "good":
        assert np.median(se / h_se) < 0.75  # the machine narrows the interval
    if setting == "poor":
        assert np.median(se / h_se) <= 1.0 + 1e-9  # and never widens it much (λ ≈ 0)


@pytest.mark.parametrize("setting", ["good", "poor"])
def test_active_sample_covers_the_all_human_mean(setting: str) -> None:
    rng = np.random.default_rng(31)
    y, f = _population(setting, 200, rng)
    # worth a look where the machine is far from 0.4 (a stand-in for its uncertainty)
    pi = inclusion_probabilities(np.abs(f - 0.4) + 0.05, n_expected=40)
    labeled = rng.random((SAMPLES, len(y))) < pi
    est, se, _ = active_mean(y, f, labeled, pi)
    coverage, said = _covered(*z_interval(est, se, 0.95), float(y.mean()))
    assert coverage >= 0.93, said
    assert abs(est.mean() - y.mean()) < 3 * se.mean() / math.sqrt(SAMPLES)  # unbiased


def test_inclusion_probabilities_sum_and_cap() -> None:
    pi = inclusion_probabilities([0.0, 0.0, 1.0, 100.0], n_expected=2.0)
    assert pi.sum() == pytest.approx(2.0)
    assert pi.max() == 1.0 and pi.min() > 0
    uniform = inclusion_probabilities(np.zeros(5), n_expected=1.0)
    assert uniform == pytest.approx(np.full(5, 0.2))


def test_active_with_every_query_labeled_is_the_human_mean() -> None:
    rng = np.random.default_rng(2)
    y, f = rng.random(30), rng.random(30)
    est, se, _ = active_mean(y, f, np.ones(30, bool), np.ones(30))
    assert est == pytest.approx(y.mean()) and se == pytest.approx(y.std() / math.sqrt(30))


def test_decision_uses_holm_beyond_two_runs() -> None:
    est, p = np.array([0.02, -0.03, 0.01]), np.array([0.02, 0.01, 0.2])
    adjusted, verdict = decide_pairs(est, p, 0.95, n_runs=3)
    assert adjusted == pytest.approx([0.04, 0.03, 0.2])
    assert verdict.tolist() == [1, -1, 0]
    adjusted, verdict = decide_pairs(est[:1], np.array([0.04]), 0.95, n_runs=2)
    assert adjusted.tolist() == [0.04] and verdict.tolist() == [1]
    _, verdict = decide_pairs(est[:1], np.array([math.nan]), 0.95, n_runs=2)
    assert verdict.tolist() == [0]
