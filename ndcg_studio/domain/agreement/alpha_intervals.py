"""Krippendorff's alpha: item-bootstrap confidence interval and alpha without each annotator.

SOURCE: the coincidences and disagreements of K. Krippendorff (2011), "Computing Krippendorff's
Alpha-Reliability" (formulas in :mod:`ndcg_studio.domain.agreement.alpha`, whose internals both
functions reuse), recomputed per resample or per reduced data set; both are tested against
``alpha`` on explicitly resampled / reduced ratings.

**Bootstrap** (:func:`alpha_bootstrap`). Every resample draws the P pairable items with
replacement and recomputes alpha from the weighted sum of per-item coincidence contributions:
``O_b = M_b @ C`` with ``M`` the ``(n_resamples, P)`` count matrix and ``C`` the ``(P, V*V+V)``
contributions [o_u | n_u]; marginals and (ordinal) metric differences are recomputed per
resample. Items with the same value counts (a "kind") have the same contribution, so only how many
items of each of the K kinds a resample holds matters. Those counts are drawn directly, one
``rng.multinomial(P, share of each kind)`` per resample — exactly their law under P uniform draws
with replacement — when the items are at least 8 times more than their kinds (3 annotators, 5
grades: K <= 35); otherwise P uniform item draws per resample (``rng.integers(0, P)``) are counted
per kind. The interval is the ``(1-confidence)/2`` and ``(1+confidence)/2`` quantiles (numpy's
default linear interpolation) of the defined resampled alphas.

Resampling items keeps each item's grades together (the judgments of one item are dependent), the
common choice for agreement studies. Krippendorff's own bootstrap (Hayes & Krippendorff 2007,
"Answering the call for a standard reliability measure for coding data", Communication Methods and
Measures 1(1)) instead resamples pairable values from the coincidence matrix; it gives somewhat
different intervals and is not what :func:`alpha_bootstrap` does.

**Leave one annotator out** (:func:`alpha_leave_one_out`), vectorised over annotators. Removing
the judgment (item u, grade g) changes item u's coincidence contribution ``w(m) P(f)``
(``f = n_u``, ``m = m_u``, ``P(f) = f f^T - diag(f)``, ``w(m) = 1/(m-1)`` for ``m >= 2`` else 0)
to ``w(m-1) P(f - e_g)``; the difference is::

    (w(m) - w(m-1)) P(f)  +  w(m-1) (f e_g^T + e_g f^T - 2 e_g e_g^T)

The first term depends on the item only, the second on the item and the grade. Both are summed
per annotator with dense 0/1 incidence matrices (annotator x item, and (annotator, grade) x item)
times per-item features -- BLAS matrix products, in blocks of annotators so that a block holds at
most ~4M cells; with more than ~4M / V items, one bincount per feature instead -- and subtracted
from the full coincidence matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.agreement.alpha import (
    GroupAlphaResult,
    alpha,
    alpha_from_sums,
    group_result,
    item_counts,
    outer_rows,
    pair_weight,
    pairable_contributions,
    prepare,
)
from ndcg_studio.domain.agreement.ratings import Ratings, encode_grades
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.vocabulary import Level

__all__ = ["AlphaInterval", "alpha_bootstrap", "alpha_leave_one_out"]

# Work arrays of the vectorised paths are processed in chunks of about this many float64 cells.
_CHUNK_CELLS = 1 << 22
#: draw kind counts (multinomial) when the items are at least this many times more than their kinds
_KINDS_PER_ITEM_DRAW = 8


@dataclass(frozen=True, eq=False)
class AlphaInterval:
    """Percentile bootstrap confidence interval of Krippendorff's alpha, resampling items.

    Attributes:
        value: the point estimate (alpha of the data), NaN when undefined.
        low, high: interval bounds (NaN when no resample had a defined alpha).
        confidence: confidence level in (0, 1), e.g. 0.95.
        n_resamples: number of bootstrap resamples drawn.
        n_defined: resamples whose alpha was defined (a resample can draw items that all carry
            one and the same grade); the interval uses only these.
        seed: seed of ``numpy.random.default_rng`` (same seed and data -> same interval).
        samples: ``(n_resamples,) float64`` alpha of every resample, NaN where undefined.
        undefined_reason: None, or why there is no interval.
        method: how resamples were drawn (always items, see :func:`alpha_bootstrap`).
    """

    value: float
    low: float
    high: float
    confidence: float
    n_resamples: int
    n_defined: int
    seed: int
    samples: NDArray[np.float64] = field(repr=False)
    undefined_reason: str | None
    method: str = "percentile bootstrap over pairable items, with replacement"


_NO_DEFINED_RESAMPLE = QT_TRANSLATE_NOOP("Agreement", "no resample had a defined alpha")


def _count_kinds(counts: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Group items by their value counts.

    Args:
        counts: ``(V, P)`` value counts of P items (whole numbers as float64).

    Returns:
        ``(kind_of, first)``: ``(P,)`` kind of each item (0 .. K-1) and ``(K,)`` one item of each
        kind. Items of one kind have the same coincidence contribution, so a resample's sum over
        items is a sum over the K kinds weighted by how often each kind was drawn: with a few
        annotators and grades K is small (3 annotators, 5 grades: at most 35 pairable kinds)
        and the resamples cost a (B, K) instead of a (B, P) matrix product.
    """
    n_values, n_items = counts.shape
    if n_items == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    whole = counts.astype(np.int64)
    base = int(whole.max()) + 1
    if n_values * np.log2(base) < 62:  # one integer key per item
        key = np.zeros(n_items, dtype=np.int64)
        for row in whole:
            key *= base
            key += row
        _, first, kind_of = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, kind_of = np.unique(whole.T, axis=0, return_index=True, return_inverse=True)
    return kind_of.reshape(-1).astype(np.intp), first.astype(np.intp)


def _kind_draws(
    rng: np.random.Generator, kind_of: NDArray[np.intp], share: NDArray[np.float64], size: int
) -> NDArray[np.float64]:
    """``(size, K)`` how many items of each kind ``size`` resamples of P items drew: one
    multinomial(P, share) draw per resample — the law of the kind counts of P uniform draws with
    replacement, at the cost of K instead of P draws."""
    counts = rng.multinomial(kind_of.size, share, size=size)
    return np.asarray(counts, dtype=np.float64)


def _item_draws(
    rng: np.random.Generator, kind_of: NDArray[np.intp], n_kinds: int, size: int
) -> NDArray[np.float64]:
    """``(size, K)`` the same counts from P uniform item draws per resample (when the items are
    of so many kinds that K binomial draws would cost more than P integer draws)."""
    n_items = kind_of.size
    drawn = kind_of[rng.integers(0, n_items, size=(size, n_items))]
    drawn += (np.arange(size) * n_kinds)[:, None]
    counts = np.bincount(drawn.ravel(), minlength=size * n_kinds)
    return counts.reshape(size, n_kinds).astype(np.float64)


def alpha_bootstrap(
    ratings: Ratings,
    level: Level,
    *,
    values: ArrayLike | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> AlphaInterval:
    """Percentile bootstrap confidence interval of Krippendorff's alpha, resampling ITEMS.

    The method (draws per kind of item, percentile interval) is in the module docstring.

    Args:
        ratings: the judgments.
        level: level of measurement.
        values: optional value domain.
        n_resamples: number of resamples B (>= 1), default 1000.
        confidence: in (0, 1), default 0.95.
        seed: seed of ``numpy.random.default_rng``; the result is a deterministic function of
            (data, level, n_resamples, seed).

    Returns:
        :class:`AlphaInterval`; NaN bounds with a reason when alpha itself is undefined.

    Raises:
        ValueError: ``n_resamples < 1``, ``confidence`` outside (0, 1), or as for ``alpha``.

    Cost: B * K binomial draws (or B * P integer draws), O(B * K * V^2) flops in chunks of ~4M
    cells; measured by ``benchmarks/bench_agreement.py``, ``bench_gui_scale.py`` (Agreement).
    """
    if n_resamples < 1:
        raise ValueError("n_resamples must be >= 1")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must lie in (0, 1)")
    point = alpha(ratings, level, values=values)
    samples = np.full(n_resamples, np.nan)

    def interval(low: float, high: float, n_defined: int, reason: str | None) -> AlphaInterval:
        return AlphaInterval(
            value=point.value,
            low=low,
            high=high,
            confidence=confidence,
            n_resamples=n_resamples,
            n_defined=n_defined,
            seed=seed,
            samples=samples,
            undefined_reason=reason,
        )

    if point.undefined_reason is not None:
        return interval(np.nan, np.nan, 0, point.undefined_reason)
    _bootstrap_samples(ratings, point.level, values, np.random.default_rng(seed), samples)
    defined = samples[~np.isnan(samples)]
    if defined.size == 0:
        return interval(np.nan, np.nan, 0, _NO_DEFINED_RESAMPLE)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(defined, [tail, 1.0 - tail])
    return interval(float(low), float(high), int(defined.size), None)


def _bootstrap_samples(
    ratings: Ratings,
    level: Level,
    values: ArrayLike | None,
    rng: np.random.Generator,
    samples: NDArray[np.float64],
) -> None:
    """Fill ``samples`` (``(B,) float64``) with the alpha of B item resamples (NaN if undefined)."""
    codes, domain = encode_grades(ratings.grade, values)
    n_values = domain.size
    counts = item_counts(ratings.item, codes, ratings.n_items, n_values)
    rows = np.flatnonzero(counts.sum(axis=0) >= 2)
    kind_of, kinds = _count_kinds(counts[:, rows])
    # (K, V*V + V): one contribution per kind of item (same value counts, same contribution),
    # computed for one item of each kind only, not for all P (column by column, so the same
    # values; bench_gui_scale.py Agreement)
    _, table = pairable_contributions(counts[:, rows[kinds]])
    contributions = np.ascontiguousarray(table[:-1].T)
    n_pairable, n_kinds = rows.size, kinds.size
    square = n_values * n_values
    n_resamples = samples.shape[0]
    by_kind = n_kinds * _KINDS_PER_ITEM_DRAW <= n_pairable
    share = np.bincount(kind_of, minlength=n_kinds) / n_pairable
    chunk = max(1, min(n_resamples, _CHUNK_CELLS // (n_kinds if by_kind else n_pairable)))
    has_ratings = np.ones(chunk, dtype=np.bool_)
    for start in range(0, n_resamples, chunk):  # loop over chunks of resamples
        size = min(chunk, n_resamples - start)
        weights = (
            _kind_draws(rng, kind_of, share, size)
            if by_kind
            else _item_draws(rng, kind_of, n_kinds, size)
        )
        summed = weights @ contributions
        result = alpha_from_sums(
            summed[:, :square].reshape(size, n_values, n_values),
            summed[:, square:],
            has_ratings[:size],
            domain,
            level,
        )
        samples[start : start + size] = result.value


def alpha_leave_one_out(
    ratings: Ratings, level: Level, *, values: ArrayLike | None = None
) -> GroupAlphaResult:
    """Alpha of everyone else, for each annotator: entry ``a`` is alpha without annotator ``a``.

    Vectorised over annotators (the difference of coincidences per removed judgment is in the
    module docstring). Equal to ``alpha`` on ``ratings.select(ratings.annotator != a)`` up to
    rounding (tested at 1e-9).

    Args:
        ratings: the judgments.
        level: level of measurement.
        values: optional value domain (default: the grades present in ALL the data, so that every
            entry uses the same domain; alpha does not depend on unused values anyway).

    Returns:
        :class:`GroupAlphaResult` of shape ``(n_annotators,)``. An annotator without judgments gets
        the overall alpha.

    Raises:
        ValueError: as for ``alpha``.

    SOURCE: Krippendorff (2011) coincidences, applied to each reduced data set.
    """
    checked, codes, domain = prepare(ratings, level, values)
    n_values = domain.size
    n_annotators = ratings.n_annotators
    square = n_values * n_values
    counts = item_counts(ratings.item, codes, ratings.n_items, n_values)
    m = counts.sum(axis=0)
    w_full = pair_weight(m, 0)
    item_sums, grade_sums = _annotator_sums(ratings, codes, *_removal_features(counts, m))
    z = grade_sums[:, :, :n_values]  # z[a, g, k] = sum over a's grades g of w' f_k
    change = item_sums[:, :square].reshape(n_annotators, n_values, n_values)
    change = change + z + z.transpose(0, 2, 1)
    diagonal = np.arange(n_values)
    change[:, diagonal, diagonal] -= 2.0 * grade_sums[:, :, n_values + 1]
    marginal_change = item_sums[:, square : square + n_values] + grade_sums[:, :, n_values]
    pairable = m >= 2
    weighted = counts * w_full
    total = weighted @ counts.T
    total[diagonal, diagonal] -= weighted.sum(axis=1)
    coincidences = total[None] - change
    marginals = np.rint(counts @ pairable.astype(np.float64) - marginal_change)
    n_pairable_items = np.rint(float(pairable.sum()) - item_sums[:, -1])
    remaining = ratings.n_ratings - np.bincount(ratings.annotator, minlength=n_annotators)
    result = alpha_from_sums(coincidences, marginals, remaining > 0, domain, checked)
    return group_result(checked, result, n_pairable_items)


def _removal_features(
    counts: NDArray[np.float64], m: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per-item features of removing one judgment, feature-major, from ``(V, n_items)`` counts.

    Returns ``(item_features, grade_features)``: ``(V*V + V + 1, n_items)`` rows
    [(w - w') P(f) | f [m == 2] | [m == 2]] and ``(V + 2, n_items)`` rows [w' f | [m >= 3] | w'],
    with ``w = w(m)``, ``w' = w(m - 1)`` (module docstring).
    """
    n_values, n_items = counts.shape
    square = n_values * n_values
    w_full = pair_weight(m, 0)
    w_reduced = pair_weight(m, 1)
    only_pair = (m == 2).astype(np.float64)
    item_features = np.empty((square + n_values + 1, n_items))
    step = counts * (w_full - w_reduced)
    outer_rows(item_features[:square], step, counts, step)
    item_features[square : square + n_values] = counts * only_pair
    item_features[-1] = only_pair
    grade_features = np.empty((n_values + 2, n_items))
    grade_features[:n_values] = counts * w_reduced
    grade_features[n_values] = m >= 3
    grade_features[n_values + 1] = w_reduced
    return item_features, grade_features


def _annotator_sums(
    ratings: Ratings,
    codes: NDArray[np.int64],
    item_features: NDArray[np.float64],
    grade_features: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Sum the features over each annotator's items: ``(A, F)`` and per grade ``(A, V, F')``."""
    n_annotators, n_items = ratings.n_annotators, ratings.n_items
    n_values = grade_features.shape[0] - 2
    item_sums = np.zeros((n_annotators, item_features.shape[0]))
    grade_sums = np.zeros((n_annotators, n_values, grade_features.shape[0]))
    if n_values * n_items <= _CHUNK_CELLS:
        block = max(1, _CHUNK_CELLS // max(1, n_values * n_items))
        for first in range(0, n_annotators, block):  # blocks of annotators, usually just one
            last = min(first + block, n_annotators)
            rows = (ratings.annotator >= first) & (ratings.annotator < last)
            local = ratings.annotator[rows] - first
            item = ratings.item[rows]
            incidence = np.zeros((last - first, n_items))
            incidence[local, item] = 1.0
            item_sums[first:last] = incidence @ item_features.T
            incidence = np.zeros(((last - first) * n_values, n_items))
            incidence[local * n_values + codes[rows], item] = 1.0
            grade_sums[first:last] = (incidence @ grade_features.T).reshape(
                last - first, n_values, -1
            )
    else:  # too many items for dense incidence rows: one bincount per feature instead
        slot = ratings.annotator * n_values + codes
        for j in range(item_features.shape[0]):
            item_sums[:, j] = np.bincount(
                ratings.annotator, weights=item_features[j, ratings.item], minlength=n_annotators
            )
        for j in range(grade_features.shape[0]):
            grade_sums[:, :, j] = np.bincount(
                slot, weights=grade_features[j, ratings.item], minlength=n_annotators * n_values
            ).reshape(n_annotators, n_values)
    return item_sums, grade_sums
