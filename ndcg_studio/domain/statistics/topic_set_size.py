"""How many queries a comparison needs, and what the current number of queries can detect.

SOURCE: Sakai (2016), "Topic set size design", Information Retrieval Journal 19(3): 256-283,
paired t-test and one-way ANOVA versions. Sakai's Excel tools start from a normal
approximation and search n with the noncentral t / F distributions; here the power is computed
exactly with scipy's noncentral t (``scipy.special.nctdtr``) and noncentral F
(``scipy.special.ncfdtr``) and n is searched from that start.

Variance: the input is the residual variance sigma^2 of the two-way ANOVA run x query
(:attr:`ndcg_studio.domain.statistics.multirun.AnovaTable.ms_residual`, V_E). Under that additive
model
the per-query difference of two runs has variance sigma_t^2 = 2 sigma^2, which is what the
paired t-test needs (Sakai 2016 uses the same relation to estimate sigma_t^2).

* Paired t-test: power(n) = P(|T'| >= t_{1-alpha/2, n-1}), T' noncentral t with n - 1
  degrees of freedom and noncentrality sqrt(n) * delta / sigma_t.
* One-way ANOVA over m runs, delta = the smallest range (best minus worst run mean) worth
  detecting: power(n) = P(F' >= F_{1-alpha; m-1, m(n-1)}), F' noncentral F with
  noncentrality n * delta^2 / (2 sigma^2) (Sakai 2016: the least favourable configuration,
  two runs delta apart and the others at their mean).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "TopicSetSize",
    "min_detectable_delta",
    "power",
    "topic_set_size",
]

Design = Literal["paired_t", "anova"]
_MAX_QUERIES = 10_000_000


@dataclass(frozen=True)
class TopicSetSize:
    """The smallest number of queries with power >= the target.

    Attributes:
        n_queries: that number (>= 2).
        achieved_power: the power at n_queries.
        normal_approximation: Sakai's starting value from the normal approximation (paired
            t-test: ((z_{alpha/2} + z_beta) sigma_t / delta)^2 + z_{alpha/2}^2 / 2), rounded up;
            for the ANOVA the same with sigma_t^2 = 2 sigma^2 (a start only).
    """

    n_queries: int
    achieved_power: float
    normal_approximation: int


def _check(alpha: float, target: float | None, variance: float, n_runs: int) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    if target is not None and not 0.0 < target < 1.0:
        raise ValueError(f"power must lie in (0, 1), got {target}")
    if not (variance > 0.0 and math.isfinite(variance)):
        raise ValueError(f"the residual variance must be > 0 and finite, got {variance}")
    if n_runs < 2:
        raise ValueError(f"n_runs must be >= 2, got {n_runs}")


def _nct_cdf(df: int, noncentrality: float, x: float) -> float:
    """CDF of the noncentral t; scipy returns NaN far in a tail (e.g. x = -2, nc = 15), where
    the true value is below 1e-30: 0 left of the noncentrality, 1 right of it."""
    # scipy is imported where it is used: the GUI's start-up imports this module through
    # services.multirun (benchmarks/bench_startup.py, window shown)
    from scipy.special import nctdtr

    value = float(nctdtr(df, noncentrality, x))
    if math.isnan(value):
        return 0.0 if x < noncentrality else 1.0
    return value


def power(
    n_queries: int,
    delta: float,
    variance: float,
    *,
    alpha: float = 0.05,
    design: Design = "paired_t",
    n_runs: int = 2,
) -> float:
    """Power of the two-sided paired t-test (or the one-way ANOVA) with ``n_queries`` queries.

    Args:
        n_queries: number of queries n >= 2.
        delta: the true difference (paired t) or range of run means (ANOVA), >= 0.
        variance: residual variance sigma^2 of the run x query ANOVA (> 0).
        alpha: significance level in (0, 1).
        design: ``"paired_t"`` or ``"anova"`` (see the module docstring).
        n_runs: m, runs in the ANOVA (ignored for the paired t-test).

    Returns:
        The power in [alpha, 1).

    Raises:
        ValueError: a parameter out of range.
    """
    _check(alpha, None, variance, n_runs if design == "anova" else 2)
    if n_queries < 2:
        raise ValueError(f"n_queries must be >= 2, got {n_queries}")
    if delta < 0:
        raise ValueError(f"delta must be >= 0, got {delta}")
    from scipy.special import fdtri, ncfdtr, stdtrit

    if design == "paired_t":
        df = n_queries - 1
        noncentrality = math.sqrt(n_queries) * delta / math.sqrt(2.0 * variance)
        critical = float(stdtrit(df, 1.0 - alpha / 2.0))
        upper = 1.0 - _nct_cdf(df, noncentrality, critical)
        lower = _nct_cdf(df, noncentrality, -critical)
        return upper + lower
    if design == "anova":
        df1, df2 = n_runs - 1, n_runs * (n_queries - 1)
        noncentrality = n_queries * delta**2 / (2.0 * variance)
        critical = float(fdtri(df1, df2, 1.0 - alpha))
        return 1.0 - float(ncfdtr(df1, df2, noncentrality, critical))
    raise ValueError(f"design must be 'paired_t' or 'anova', got {design!r}")


def topic_set_size(
    delta: float,
    variance: float,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    design: Design = "paired_t",
    n_runs: int = 2,
) -> TopicSetSize:
    """The smallest number of queries n >= 2 whose power to detect ``delta`` is >= the target.

    SOURCE: Sakai (2016), IRJ 19(3), "Topic set size design" (see the module docstring).

    Args:
        delta: the smallest difference (paired t) or range (ANOVA) worth detecting, > 0.
        variance: residual variance sigma^2 of the run x query ANOVA (> 0).
        alpha: significance level in (0, 1).
        target_power: 1 - beta in (0, 1).
        design: ``"paired_t"`` or ``"anova"``.
        n_runs: m for the ANOVA (>= 2).

    Returns:
        A :class:`TopicSetSize`.

    Raises:
        ValueError: a parameter out of range, or more than 10,000,000 queries needed.
    """
    _check(alpha, target_power, variance, n_runs)
    if not delta > 0:
        raise ValueError(f"delta must be > 0, got {delta}")
    from scipy.special import ndtri

    z_alpha = float(ndtri(1.0 - alpha / 2.0))
    z_beta = float(ndtri(target_power))
    sigma_t = math.sqrt(2.0 * variance)
    approx = ((z_alpha + z_beta) * sigma_t / delta) ** 2 + z_alpha**2 / 2.0
    start = max(2, math.ceil(approx)) if math.isfinite(approx) else _MAX_QUERIES

    def enough(n: int) -> bool:
        return power(n, delta, variance, alpha=alpha, design=design, n_runs=n_runs) >= target_power

    if start > _MAX_QUERIES:
        raise ValueError(f"more than {_MAX_QUERIES} queries needed")
    high = _smallest_enough(min(start, _MAX_QUERIES), enough)
    high = max(high, 2)
    achieved = power(high, delta, variance, alpha=alpha, design=design, n_runs=n_runs)
    return TopicSetSize(n_queries=high, achieved_power=achieved, normal_approximation=start)


def _smallest_enough(n: int, enough: Callable[[int], bool]) -> int:
    """The smallest n' >= 1 with ``enough(n')``, for ``enough`` monotone in n (power grows with
    n): walk down from ``n`` while still enough, else double up; then bisect.

    Raises:
        ValueError: not enough even at :data:`_MAX_QUERIES`.
    """
    if enough(n):
        high = n
        low = max(1, n // 2)
        while low > 1 and enough(low):
            high, low = low, max(1, low // 2)
    else:
        low = n
        high = min(2 * n, _MAX_QUERIES)
        while not enough(high):
            if high >= _MAX_QUERIES:
                raise ValueError(f"more than {_MAX_QUERIES} queries needed")
            low, high = high, min(2 * high, _MAX_QUERIES)
    # invariant: enough(high), not enough(low) or low == 1
    while high - low > 1:
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def min_detectable_delta(
    n_queries: int,
    variance: float,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    design: Design = "paired_t",
    n_runs: int = 2,
) -> float:
    """The smallest difference (or range) that ``n_queries`` queries detect with the target power.

    The inverse of :func:`topic_set_size` for the current comparison ("with 225 queries you can
    detect delta >= 0.031 at 80% power"): the root of power(delta) = target_power
    (``scipy.optimize.brentq``, absolute tolerance 1e-12).

    Args:
        n_queries: n >= 2.
        variance, alpha, target_power, design, n_runs: as for :func:`topic_set_size`.

    Returns:
        delta > 0 in the units of the scores.

    Raises:
        ValueError: a parameter out of range.
    """
    _check(alpha, target_power, variance, n_runs)
    if n_queries < 2:
        raise ValueError(f"n_queries must be >= 2, got {n_queries}")
    if target_power <= alpha:
        raise ValueError("target_power must exceed alpha (delta = 0 already has power alpha)")

    def gap(delta: float) -> float:
        p = power(n_queries, delta, variance, alpha=alpha, design=design, n_runs=n_runs)
        return p - target_power

    from scipy.optimize import brentq

    high = math.sqrt(2.0 * variance)
    while gap(high) < 0:
        high *= 2.0
    return float(brentq(gap, 0.0, high, xtol=1e-12))  # type: ignore[no-untyped-call]
