"""PPI++: a mean from machine values on every query, corrected on a uniform sample of human ones.

SOURCE: Angelopoulos, Duchi & Zrnic (2023), "PPI++: Efficient Prediction-Powered Inference",
arXiv:2311.01453, the mean estimate (their example 1) with power tuning; prediction-powered
inference itself: Angelopoulos, Bates, Fannjiang, Jordan & Zrnic (2023), Science 382(6671).
The arithmetic is that of the authors' ``ppi_py.ppi_mean_pointestimate`` / ``ppi_mean_ci`` and
``classical_mean_ci`` (package ``ppi-python`` 0.2; the tests check it to 1e-9 on the same inputs).

With ``y`` (n,) the human values on the n human-judged queries, ``yhat`` (n,) the machine values
on the same queries and ``yhat_all`` (N,) the machine values on every query::

    theta(λ)  = mean(λ · yhat_all) + mean(y − λ · yhat)
    se(λ)²    = var(λ · yhat_all) / N + var(y − λ · yhat) / n          (var: ddof 0)
    λ         = clip(cov(y, yhat) / ((1 + n/N) · var(yhat ⧺ yhat_all)), 0, 1)
                (cov: ddof 0, over the n pairs; var: ddof 1, over the n + N machine values)
    interval  = theta ± z_{1−α/2} · se

λ = 0 is the human-only mean, λ = 1 plain PPI. Here ``yhat_all`` holds every query, the human-
judged ones included, and the target is the mean human value over those N queries (a finite
population): for that target the variance above is larger than the estimator's own,
(1/n − 1/N) · var(y − λ · yhat), so the interval is conservative rather than anti-conservative.

Below :data:`MIN_HUMAN_QUERIES` human-judged queries the normal approximation is not trusted and
no interval is given (``bench_ppi.py``: coverage per sample size, in ``benchmarks/README.md``).

Every numeric function works over the last axis and broadcasts over the others, so ``y`` of
shape (samples, n) computes ``samples`` estimates at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "MIN_HUMAN_QUERIES",
    "MeanEstimate",
    "classical_mean",
    "estimate_mean",
    "power_tuning",
    "ppi_mean",
    "z_interval",
]

#: The fewest human-judged queries for which an interval is given. Below it the normal
#: approximation misses the all-human value too often (``bench_ppi.py``, synthetic data, 2,000
#: to 4,000 samples each: at 10 queries PPI++ covers 91.5-96 % of the time, at 12 queries
#: 94-98 %; at 5 queries 82-87 %, with the human-only interval alike).
MIN_HUMAN_QUERIES = 12


@dataclass(frozen=True)
class MeanEstimate:
    """One mean (a run's, or two runs' difference) with its intervals.

    Attributes:
        estimate: the PPI++ estimate (float).
        low, high: its interval at ``confidence``; NaN when ``enough`` is False.
        se: its standard error.
        lam: the power-tuning λ in [0, 1] (0: the machine was no help).
        human_only, human_only_low, human_only_high: the mean of the human values on the same
            queries and its CLT interval (bounds NaN when ``enough`` is False).
        human_only_se: the standard error of ``human_only``.
        machine_only: the mean of the machine values over every query — biased by the machine's
            errors, with no interval.
        n_human: human-judged queries (n); n_queries: every query (N).
        confidence: the two-sided level in (0, 1).
        enough: n >= :data:`MIN_HUMAN_QUERIES` (else no interval, see :attr:`note`).
    """

    estimate: float
    low: float
    high: float
    se: float
    lam: float
    human_only: float
    human_only_low: float
    human_only_high: float
    human_only_se: float
    machine_only: float
    n_human: int
    n_queries: int
    confidence: float
    enough: bool

    @classmethod
    def of(
        cls,
        tuned: tuple[Any, Any, Any],
        human: tuple[Any, Any],
        machine_only: float,
        n_human: int,
        n_queries: int,
        confidence: float,
    ) -> MeanEstimate:
        """The estimate from ``tuned`` = (estimate, se, λ) and ``human`` = (mean, se) (floats
        or 0-d arrays): the normal intervals at ``confidence``, NaN bounds below
        :data:`MIN_HUMAN_QUERIES`."""
        est, se, lam = tuned
        human_mean, human_se = human
        enough = n_human >= MIN_HUMAN_QUERIES
        low, high = z_interval(est, se, confidence)
        h_low, h_high = z_interval(human_mean, human_se, confidence)
        nan = math.nan
        return cls(
            estimate=float(est),
            low=float(low) if enough else nan,
            high=float(high) if enough else nan,
            se=float(se),
            lam=float(lam),
            human_only=float(human_mean),
            human_only_low=float(h_low) if enough else nan,
            human_only_high=float(h_high) if enough else nan,
            human_only_se=float(human_se),
            machine_only=float(machine_only),
            n_human=n_human,
            n_queries=n_queries,
            confidence=confidence,
            enough=enough,
        )

    @property
    def note(self) -> str:
        """Why there is no interval ('' when there is one)."""
        if self.enough:
            return ""
        return (
            f"too few human-judged queries for the normal approximation "
            f"({self.n_human} < {MIN_HUMAN_QUERIES})"
        )

    @property
    def p_value(self) -> float:
        """Two-sided p-value of "the mean is 0" from the normal approximation (NaN without
        ``enough`` queries); 0 or 1 for a zero standard error."""
        if not self.enough:
            return math.nan
        if self.se == 0:
            return 0.0 if self.estimate != 0 else 1.0
        from scipy.special import ndtr  # not at import: campaigns import this module at start-up

        return float(2 * ndtr(-abs(self.estimate) / self.se))

    @property
    def extra_human_queries(self) -> float:
        """About how many more human-judged queries the human-only interval would need to be
        as narrow as this one: max(0, n · (se_human / se)² − n) (the effective sample size
        gain; 0 when the machine was no help; NaN for se = 0)."""
        if self.se == 0:
            return math.nan
        return max(0.0, self.n_human * (self.human_only_se / self.se) ** 2 - self.n_human)


def z_interval(
    estimate: ArrayLike, se: ArrayLike, confidence: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The two-sided normal interval ``estimate ± z_{(1+confidence)/2} · se`` (same shapes)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    from scipy.special import ndtri  # not at import: campaigns import this module at start-up

    z = float(ndtri(0.5 + confidence / 2))
    est, s = np.asarray(estimate, dtype=np.float64), np.asarray(se, dtype=np.float64)
    return est - z * s, est + z * s


def classical_mean(y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The human-only mean and its CLT standard error ``std(y, ddof=0) / sqrt(n)``.

    Args:
        y: (..., n) float, n >= 1.

    Returns:
        (mean, se): two (...) float64 arrays.
    """
    v = np.asarray(y, dtype=np.float64)
    n = v.shape[-1]
    return v.mean(axis=-1), v.std(axis=-1) / math.sqrt(n)


def power_tuning(y: ArrayLike, yhat: ArrayLike, yhat_all: ArrayLike) -> NDArray[np.float64]:
    """The PPI++ power-tuning λ of the mean (formula in the module docstring), clipped to [0, 1];
    0 where the machine values do not vary.

    Args:
        y, yhat: (..., n) float, the human and machine values on the human-judged queries.
        yhat_all: (..., N) float, the machine values on every query.

    Returns:
        (...) float64 in [0, 1].
    """
    yv, fv = np.asarray(y, dtype=np.float64), np.asarray(yhat, dtype=np.float64)
    fa = np.asarray(yhat_all, dtype=np.float64)
    n, n_all = yv.shape[-1], fa.shape[-1]
    cov = ((yv - yv.mean(axis=-1, keepdims=True)) * (fv - fv.mean(axis=-1, keepdims=True))).mean(
        axis=-1
    )
    fa = np.broadcast_to(fa, (*fv.shape[:-1], n_all))
    var = np.concatenate([fv, fa], axis=-1).var(axis=-1, ddof=1)
    denom = (1 + n / n_all) * var
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(denom > 0, cov / np.where(denom > 0, denom, 1.0), 0.0)
    return np.asarray(np.clip(lam, 0.0, 1.0), dtype=np.float64)


def ppi_mean(
    y: ArrayLike, yhat: ArrayLike, yhat_all: ArrayLike, lam: ArrayLike | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The PPI++ mean and its standard error (module docstring), λ tuned unless given.

    Args:
        y, yhat: (..., n) float, the human and machine values on the human-judged queries
            (n >= 1).
        yhat_all: (..., N) float, the machine values on every query (N >= 1).
        lam: a fixed λ (0: human-only, 1: plain PPI), broadcastable to (...); None: tuned by
            :func:`power_tuning`.

    Returns:
        (estimate, se, lam): three (...) float64 arrays.
    """
    yv, fv = np.asarray(y, dtype=np.float64), np.asarray(yhat, dtype=np.float64)
    fa = np.asarray(yhat_all, dtype=np.float64)
    tuned = power_tuning(yv, fv, fa) if lam is None else np.asarray(lam, dtype=np.float64)
    lam_ = tuned[..., None]
    n, n_all = yv.shape[-1], fa.shape[-1]
    rectifier = yv - lam_ * fv
    imputed = lam_ * fa
    estimate = imputed.mean(axis=-1) + rectifier.mean(axis=-1)
    se = np.sqrt(imputed.var(axis=-1) / n_all + rectifier.var(axis=-1) / n)
    return estimate, se, np.broadcast_to(tuned, estimate.shape).astype(np.float64)


def _vector(values: ArrayLike, name: str) -> NDArray[np.float64]:
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be finite")
    return v


def estimate_mean(
    y: ArrayLike,
    yhat: ArrayLike,
    yhat_all: ArrayLike,
    confidence: float = 0.95,
    lam: float | None = None,
) -> MeanEstimate:
    """The PPI++ estimate of one mean with the human-only and machine-only numbers beside it.

    For two runs' difference pass the per-query differences (run A − run B) of the human and
    of the machine values: the paired estimate of the mean difference.

    Args:
        y: (n,) float, the human values on the human-judged queries (a uniform sample).
        yhat: (n,) float, the machine values on the same queries, in the same order.
        yhat_all: (N,) float, the machine values on every query (the human-judged included).
        confidence: two-sided level in (0, 1).
        lam: a fixed λ in [0, 1]; None: tuned (PPI++).

    Returns:
        A :class:`MeanEstimate`; without :data:`MIN_HUMAN_QUERIES` queries its bounds are NaN.

    Raises:
        ValueError: arrays not 1-D or not finite, ``y`` and ``yhat`` of different lengths, no
            human-judged query, more human-judged queries than queries, ``lam`` outside [0, 1]
            or ``confidence`` outside (0, 1).
    """
    yv, fv, fa = _vector(y, "y"), _vector(yhat, "yhat"), _vector(yhat_all, "yhat_all")
    if yv.shape != fv.shape:
        raise ValueError(f"y and yhat differ in length ({len(yv)} and {len(fv)})")
    if len(yv) == 0:
        raise ValueError("no human-judged query")
    if len(fa) < len(yv):
        raise ValueError(f"{len(yv)} human-judged queries but only {len(fa)} queries in all")
    if lam is not None and not 0 <= lam <= 1:
        raise ValueError(f"lam must lie in [0, 1], got {lam}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    tuned = ppi_mean(yv, fv, fa, lam)
    return MeanEstimate.of(
        tuned, classical_mean(yv), float(fa.mean()), len(yv), len(fa), confidence
    )
