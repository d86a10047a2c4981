"""Active inference: the human-judged queries chosen by the product with known probabilities.

SOURCE: Zrnic & Candès (2024), "Active Statistical Inference", ICML, arXiv:2403.03208, the mean
estimate with inverse-probability weighting and power tuning. Each of the N queries i is judged
by the humans with a known inclusion probability π_i in (0, 1], independently (ξ_i ~
Bernoulli(π_i)); with ``yhat`` the machine values and ``y`` the human values (read only where
ξ_i = 1)::

    t_i(λ)  = λ · yhat_i + (y_i − λ · yhat_i) · ξ_i / π_i
    theta   = mean_i t_i(λ)              unbiased for mean_i y_i for every fixed λ
    se      = std(t(λ), ddof=0) / sqrt(N)
    λ       = clip(−cov(a, b) / var(a), 0, 1),  a_i = yhat_i · (1 − ξ_i / π_i), b_i = y_i ξ_i / π_i
              (the λ minimising var(t(λ)) = var(λ a + b); ddof 0)
    interval = theta ± z_{1−α/2} · se

λ = 0 is the human-only (Horvitz–Thompson) estimate under the same design. The variance of the
N terms includes the spread of the human values across queries, so for the target mean_i y_i
over these N queries the interval is conservative.

Queries worth a human look more often get a larger π (:func:`inclusion_probabilities`), mixed
with a uniform share so no π is tiny (a tiny π makes a huge weight; Zrnic & Candès section 4).
The draw ξ is :func:`draw_queries` (seeded); :func:`estimate_active_mean` gives the estimate
with the human-only (λ = 0) and machine-only numbers beside it, as
:func:`ndcg_studio.domain.estimation.ppi.estimate_mean` does for a uniform sample.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.estimation.ppi import MeanEstimate

__all__ = ["active_mean", "draw_queries", "estimate_active_mean", "inclusion_probabilities"]


def inclusion_probabilities(
    weight: ArrayLike, n_expected: float, uniform_share: float = 0.2
) -> NDArray[np.float64]:
    """Inclusion probabilities proportional to ``weight`` mixed with a uniform share, scaled so
    they sum to ``n_expected``, none above 1 (the excess spread over the others).

    Args:
        weight: (N,) float >= 0, how much a human grade of each query is worth (e.g. the
            machine's uncertainty about the query's score difference); all zero: uniform.
        n_expected: the expected number of human-judged queries, in (0, N].
        uniform_share: the share of ``n_expected`` spread uniformly, in [0, 1].

    Returns:
        (N,) float64 in (0, 1], summing to ``n_expected``.

    Raises:
        ValueError: ``weight`` not 1-D, empty, negative or not finite; ``n_expected`` or
            ``uniform_share`` out of range.
    """
    w = np.asarray(weight, dtype=np.float64)
    if w.ndim != 1 or len(w) == 0:
        raise ValueError(f"weight must be a non-empty 1-D array, got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("weight must be finite and >= 0")
    n = len(w)
    if not 0 < n_expected <= n:
        raise ValueError(f"n_expected must lie in (0, {n}], got {n_expected}")
    if not 0 <= uniform_share <= 1:
        raise ValueError(f"uniform_share must lie in [0, 1], got {uniform_share}")
    total = w.sum()
    share = w / total if total > 0 else np.full(n, 1.0 / n)
    mix = (1 - uniform_share) * share + uniform_share / n
    pi = np.zeros(n)
    capped = np.zeros(n, dtype=bool)
    for _ in range(n):  # each pass caps at least one more query, or stops
        left = n_expected - capped.sum()
        free = ~capped
        pi[free] = left * mix[free] / mix[free].sum()
        over = free & (pi >= 1)
        if not over.any():
            break
        capped |= over
        pi[capped] = 1.0
    return pi


def active_mean(
    y: ArrayLike,
    yhat: ArrayLike,
    labeled: ArrayLike,
    pi: ArrayLike,
    lam: ArrayLike | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The inverse-probability-weighted PPI++ mean and its standard error (module docstring).

    Args:
        y: (..., N) float, the human values; read only where ``labeled`` (elsewhere any value,
            NaN included).
        yhat: (..., N) float, the machine values on every query.
        labeled: (..., N) bool, which queries the humans judged (drawn with ``pi``).
        pi: (..., N) float in (0, 1], each query's inclusion probability.
        lam: a fixed λ, broadcastable to (...); None: tuned.

    Returns:
        (estimate, se, lam): three (...) float64 arrays.

    Raises:
        ValueError: an inclusion probability outside (0, 1].
    """
    p = np.asarray(pi, dtype=np.float64)
    if np.any(~(p > 0) | (p > 1)):
        raise ValueError("inclusion probabilities must lie in (0, 1]")
    xi = np.asarray(labeled, dtype=bool)
    f = np.asarray(yhat, dtype=np.float64)
    weight = np.where(xi, 1.0 / p, 0.0)
    human = np.where(xi, np.asarray(y, dtype=np.float64), 0.0)
    a = f * (1 - weight)
    b = human * weight
    if lam is None:
        ac = a - a.mean(axis=-1, keepdims=True)
        cov = (ac * (b - b.mean(axis=-1, keepdims=True))).mean(axis=-1)
        var = (ac * ac).mean(axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            tuned = np.where(var > 0, -cov / np.where(var > 0, var, 1.0), 0.0)
        lam_ = np.clip(tuned, 0.0, 1.0)
    else:
        lam_ = np.broadcast_to(np.asarray(lam, dtype=np.float64), a.shape[:-1])
    terms = lam_[..., None] * a + b
    n = terms.shape[-1]
    return terms.mean(axis=-1), terms.std(axis=-1) / math.sqrt(n), np.asarray(lam_, np.float64)


def draw_queries(pi: ArrayLike, seed: int) -> NDArray[np.bool_]:
    """ξ_i ~ Bernoulli(π_i), independently, from a generator seeded by ``seed`` (the same
    ``pi`` and ``seed`` draw the same queries).

    Raises:
        ValueError: ``pi`` not 1-D or a probability outside (0, 1].
    """
    p = np.asarray(pi, dtype=np.float64)
    if p.ndim != 1 or np.any(~(p > 0) | (p > 1)):
        raise ValueError("pi must be a 1-D array of probabilities in (0, 1]")
    return np.asarray(np.random.default_rng(seed).random(len(p)) < p, dtype=bool)


def estimate_active_mean(
    y: ArrayLike,
    yhat: ArrayLike,
    labeled: ArrayLike,
    pi: ArrayLike,
    confidence: float = 0.95,
) -> MeanEstimate:
    """The active estimate of one mean (:func:`active_mean`, λ tuned) as a
    :class:`~ndcg_studio.domain.estimation.ppi.MeanEstimate`: ``human_only`` is the
    Horvitz–Thompson estimate (λ = 0) under the same design, ``machine_only`` the mean of
    ``yhat`` (biased), ``n_human`` the drawn queries; below
    :data:`~ndcg_studio.domain.estimation.ppi.MIN_HUMAN_QUERIES` drawn queries no interval.

    Args:
        y, yhat, labeled, pi: (N,) as for :func:`active_mean` (``y`` read only where
            ``labeled``; there it must be finite).
        confidence: two-sided level in (0, 1).

    Raises:
        ValueError: arrays not 1-D of one length, no drawn query, a non-finite value read, a
            probability outside (0, 1] or ``confidence`` outside (0, 1).
    """
    xi = np.asarray(labeled, dtype=bool)
    f = np.asarray(yhat, dtype=np.float64)
    yv = np.asarray(y, dtype=np.float64)
    p = np.asarray(pi, dtype=np.float64)
    if not (xi.ndim == f.ndim == yv.ndim == p.ndim == 1) or not (
        len(xi) == len(f) == len(yv) == len(p)
    ):
        raise ValueError("y, yhat, labeled and pi must be 1-D arrays of one length")
    if not xi.any():
        raise ValueError("no human-judged query")
    if not np.all(np.isfinite(f)) or not np.all(np.isfinite(yv[xi])):
        raise ValueError("the machine values and the drawn human values must be finite")
    tuned = active_mean(yv, f, xi, p)
    human, human_se, _ = active_mean(yv, f, xi, p, lam=0.0)
    return MeanEstimate.of(
        tuned, (human, human_se), float(f.mean()), int(xi.sum()), len(f), confidence
    )
