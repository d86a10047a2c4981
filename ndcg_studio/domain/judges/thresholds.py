"""From a local model's raw scores to grades: isotonic regression and ordinal thresholds.

A relevance model gives each (query, document) a raw score (a cosine similarity, a
cross-encoder's logit) on no grade scale. The human grades the database already has say where
the grades lie on that score: the isotonic (non-decreasing) regression of the human grade on the
raw score, by the pool-adjacent-violators algorithm (Barlow, Bartholomew, Bremner & Brunk 1972;
the same fit as ``sklearn.isotonic.IsotonicRegression``, which is only a test oracle here), gives
a fitted grade ``f(s)`` at every raw score; grade ``k`` starts at the smallest score where
``f(s) >= k - 1/2``. So the grade of a score is ``sum_k [s >= t_k]``, ordinal by construction.

Fitted and checked on different items: the queries are split in two by a hash of their external
id (:func:`split_queries`); the thresholds are fitted on the items of one half and checked on the
other's (Cohen's kappa there), so the check never sees the items it was fitted on, and items of
one query (which share the query's score scale) never straddle the two sides.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["Thresholds", "fit_thresholds", "isotonic_fit", "split_queries"]


def isotonic_fit(
    x: ArrayLike, y: ArrayLike, weight: ArrayLike | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The non-decreasing least-squares fit of ``y`` on ``x`` (pool adjacent violators).

    Args:
        x, y: ``(n,)`` finite numbers, n >= 1.
        weight: ``(n,)`` positive weights (default 1).

    Returns:
        ``(xs, fs)``: the distinct ``x`` ascending (``(m,) float64``) and the fitted value at
        each (``(m,) float64``, non-decreasing). Tied ``x`` are one point whose ``y`` is their
        weighted mean (as scikit-learn does).

    Raises:
        ValueError: shapes that differ, no points, a non-finite value, a weight <= 0.

    SOURCE: Barlow et al. (1972), *Statistical inference under order restrictions*, the PAV
    algorithm; checked against ``sklearn.isotonic.IsotonicRegression`` in the tests.
    """
    xa = np.asarray(x, dtype=np.float64).ravel()
    ya = np.asarray(y, dtype=np.float64).ravel()
    wa = np.ones_like(xa) if weight is None else np.asarray(weight, dtype=np.float64).ravel()
    if not (xa.shape == ya.shape == wa.shape) or xa.size == 0:
        raise ValueError("x, y and weight must be non-empty and of one length")
    if not (np.isfinite(xa).all() and np.isfinite(ya).all() and (wa > 0).all()):
        raise ValueError("x and y must be finite and weights > 0")
    xs, inverse = np.unique(xa, return_inverse=True)
    w = np.bincount(inverse, weights=wa)
    mean = np.bincount(inverse, weights=wa * ya) / w
    # blocks as a stack: (value, weight, number of points)
    values: list[float] = []
    weights: list[float] = []
    counts: list[int] = []
    for v, wt in zip(mean.tolist(), w.tolist(), strict=True):
        values.append(v)
        weights.append(wt)
        counts.append(1)
        while len(values) > 1 and values[-2] > values[-1]:
            v2, w2, c2 = values.pop(), weights.pop(), counts.pop()
            total = weights[-1] + w2
            values[-1] = (values[-1] * weights[-1] + v2 * w2) / total
            weights[-1] = total
            counts[-1] += c2
    fitted = np.repeat(np.array(values), np.array(counts))
    return xs, fitted


@dataclass(frozen=True)
class Thresholds:
    """Ordinal thresholds on a raw score.

    Attributes:
        grades: ``(G,) int64`` the grades, ascending (the lowest is given below every threshold).
        starts: ``(G-1,) float64``: grade ``grades[k]`` from ``starts[k-1]`` on (non-decreasing;
            ``inf`` for a grade no score reaches).
    """

    grades: NDArray[np.int64]
    starts: NDArray[np.float64]

    def grade(self, scores: ArrayLike) -> NDArray[np.int64]:
        """``(n,) int64`` grades of ``(n,)`` raw scores: ``grades[sum_k [s >= starts[k]]]``."""
        s = np.asarray(scores, dtype=np.float64)
        steps = (s[..., None] >= self.starts).sum(axis=-1)
        out: NDArray[np.int64] = self.grades[steps]
        return out


def fit_thresholds(
    scores: ArrayLike, grades: ArrayLike, levels: Sequence[int] = (0, 1, 2, 3, 4)
) -> Thresholds:
    """Thresholds on ``scores`` from the isotonic fit of ``grades`` (see the module docstring).

    Args:
        scores: ``(n,)`` raw scores, finite.
        grades: ``(n,)`` human grades (integers or a consensus's fractions) in ``levels``' range.
        levels: the grades that may be given, ascending.

    Returns:
        :class:`Thresholds`; grade ``levels[k]`` starts at the smallest fitted score whose
        fitted grade is at least ``(levels[k-1] + levels[k]) / 2``.

    Raises:
        ValueError: as :func:`isotonic_fit`.
    """
    xs, fitted = isotonic_fit(scores, grades)
    lv = np.asarray(levels, dtype=np.int64)
    starts = np.full(lv.size - 1, np.inf)
    for k in range(1, lv.size):
        reach = np.flatnonzero(fitted >= (lv[k - 1] + lv[k]) / 2.0)
        if reach.size:
            starts[k - 1] = xs[reach[0]]
    return Thresholds(lv, starts)


def split_queries(external_ids: Sequence[str]) -> NDArray[np.bool_]:
    """``(n,) bool``: True for the queries of the fitting half, False for the checking half.

    The side of a query is the parity of the first byte of SHA-256 of its external id: stable
    across runs and databases, about half each; a query always falls on the same side.
    """
    return np.array(
        [hashlib.sha256(q.encode("utf-8")).digest()[0] % 2 == 0 for q in external_ids], dtype=bool
    )
