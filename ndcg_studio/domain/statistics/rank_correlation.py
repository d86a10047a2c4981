"""Correlation between two orderings of the same systems: Kendall's tau-b and tau_AP.

Used to ask whether two grade sets (two annotators, two judgment sources, two consensus rules)
rank the runs the same way: each grade set gives every run a mean nDCG@K, and the two vectors of
means are compared here. The inputs are the *scores* (higher is better), not ranks, so ties are
seen as ties.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["discordant_pairs", "kendall_tau_b", "tau_ap", "tau_ap_symmetric"]


def _pair(x: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(f"need two 1-D arrays of one length, got shapes {a.shape} and {b.shape}")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("scores must not be NaN")
    return a, b


def kendall_tau_b(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's tau-b between two score vectors over the same n items.

    ``tau_b = (C - D) / sqrt((n0 - n1) (n0 - n2))`` with C and D the concordant and discordant
    pairs, n0 = n(n-1)/2, n1 and n2 the pairs tied in x and in y (Kendall 1945, "The treatment
    of ties in ranking problems"); the same value as ``scipy.stats.kendalltau(x, y)`` (its default
    variant 'b').

    Args:
        x, y: float64[n], the same items in the same order (e.g. runs' mean nDCG@K under two grade
            sets). O(n^2) memory: meant for systems (tens to hundreds), not documents.

    Returns:
        A value in [-1, 1]; NaN when n < 2 or when either vector is constant (tau-b undefined).

    Raises:
        ValueError: shapes differ, not 1-D, or NaN values.
    """
    a, b = _pair(x, y)
    n = a.size
    if n < 2:
        return math.nan
    iu = np.triu_indices(n, k=1)
    da = np.sign(a[:, None] - a[None, :])[iu]
    db = np.sign(b[:, None] - b[None, :])[iu]
    s = float(np.sum(da * db))
    n0 = n * (n - 1) / 2
    n1 = float(np.count_nonzero(da == 0))
    n2 = float(np.count_nonzero(db == 0))
    denominator = math.sqrt((n0 - n1) * (n0 - n2))
    return s / denominator if denominator > 0 else math.nan


def tau_ap(reference: ArrayLike, other: ArrayLike) -> float:
    """AP rank correlation of ``other``'s order against ``reference``'s (top-weighted).

    ``tau_AP = 2 / (n - 1) * sum_{i=2..n} C(i) / (i - 1) - 1``, where the items are taken in
    ``other``'s order (score descending) and C(i) counts the items above position i there that
    ``reference`` also puts above the item at i (Yilmaz, Aslam & Robertson, SIGIR 2008, "A new
    rank correlation coefficient for information retrieval", eq. 3). Swaps near the top cost more
    than swaps near the bottom; not symmetric (see :func:`tau_ap_symmetric`).

    Ties (the paper assumes none): ``other``'s ties are ordered by ``reference`` descending, then
    by index — the order most favourable to agreement, so a tie never counts as a swap against
    the reference; an item tied with the item at i in ``reference`` does not count in C(i).

    Args:
        reference: float64[n], the scores of the "true" ordering.
        other: float64[n], the scores of the ordering evaluated, same items in the same order.

    Returns:
        A value in [-1, 1] (1 for the same order, -1 for the reversed order without ties); NaN
        when n < 2.

    Raises:
        ValueError: shapes differ, not 1-D, or NaN values.
    """
    ref, oth = _pair(reference, other)
    n = ref.size
    if n < 2:
        return math.nan
    order = np.lexsort((np.arange(n), -ref, -oth))
    r = ref[order]
    # above[i, j]: item at position j (< i) is above item at i in the reference
    above = np.tril(r[None, :] > r[:, None], k=-1)
    c = above.sum(axis=1)[1:].astype(np.float64)
    return float(2.0 / (n - 1) * np.sum(c / np.arange(1, n)) - 1.0)


def tau_ap_symmetric(x: ArrayLike, y: ArrayLike) -> float:
    """The mean of :func:`tau_ap` in both directions (Yilmaz et al. 2008, section 4).

    For two grade sets neither of which is the truth. Same shapes, range and errors as
    :func:`tau_ap`.
    """
    return (tau_ap(x, y) + tau_ap(y, x)) / 2.0


def discordant_pairs(x: ArrayLike, y: ArrayLike) -> list[tuple[int, int]]:
    """The item pairs (i, j) with i < j that x and y order strictly oppositely.

    ``x[i] > x[j]`` and ``y[i] < y[j]``, or the reverse; a pair tied in either is not
    discordant. Used to list the run pairs whose order flips between two grade sets.

    Raises:
        ValueError: shapes differ, not 1-D, or NaN values.
    """
    a, b = _pair(x, y)
    da = np.sign(a[:, None] - a[None, :])
    db = np.sign(b[:, None] - b[None, :])
    flips = np.triu(da * db < 0, k=1)
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(flips), strict=True)]
