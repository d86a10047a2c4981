"""The stopping rule: "A better than B" once the interval of the pair's difference excludes 0.

For one pair the rule is the interval of :func:`~ndcg_studio.domain.estimation.ppi.estimate_mean`
at the chosen level: it excludes 0 exactly when the normal two-sided p-value of "no difference"
is below 1 − confidence. When more than two runs are compared, the pairs form one family and the
p-values are adjusted by Holm (1979), the correction the project's multi-run comparison uses
(:func:`ndcg_studio.domain.statistics.multirun.holm_adjust`): a pair is decided when its
adjusted p-value is below 1 − confidence, so the chance of any wrong "better" among the pairs
stays below 1 − confidence (asymptotically, as the intervals it rests on).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.statistics.multirun import holm_adjust

__all__ = ["decide_pairs"]


def decide_pairs(
    estimate: ArrayLike,
    p_value: ArrayLike,
    confidence: float,
    n_runs: int,
) -> tuple[NDArray[np.float64], NDArray[np.int8]]:
    """Which pairs are decided, and which way.

    Args:
        estimate: (m,) float, each pair's estimated difference (A − B).
        p_value: (m,) float in [0, 1], each pair's two-sided p-value; NaN for a pair that
            cannot be decided yet (too few human-judged queries): left out of the family.
        confidence: the two-sided level in (0, 1) (the error rate 1 − confidence).
        n_runs: the distinct runs among the pairs; more than two: Holm's adjustment.

    Returns:
        (p_adjusted, verdict): (m,) float64 (NaN where ``p_value`` is) and (m,) int8: 1 "A
        better than B", -1 "B better than A", 0 not yet decided.

    Raises:
        ValueError: shapes differ, a p-value outside [0, 1] or ``confidence`` outside (0, 1).
    """
    est = np.asarray(estimate, dtype=np.float64)
    p = np.asarray(p_value, dtype=np.float64)
    if est.shape != p.shape or est.ndim != 1:
        raise ValueError(f"estimate and p_value must be 1-D of one shape: {est.shape}, {p.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    adjusted = holm_adjust(p) if n_runs > 2 else p.copy()
    if np.any((adjusted[~np.isnan(adjusted)] < 0) | (adjusted[~np.isnan(adjusted)] > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    decided = ~np.isnan(adjusted) & (adjusted < 1 - confidence)
    verdict = np.where(decided, np.sign(est), 0).astype(np.int8)
    return adjusted, verdict
