"""Disputed items: the one rule for "the annotators disagree on this item".

An item (a query's document) is **disputed** when its grades span
:data:`ndcg_studio.vocabulary.DEFAULT_DISPUTED_RANGE` grades or more (``max - min >=
disputed_range``; 2 by default: one annotator said 1, another 3); an item without grades never
is. trec_eval's "judged non-relevant" (-1) counts as grade 0, as in the agreement statistics.
Used by the agreement statistics (:func:`ndcg_studio.domain.agreement.spread.item_spread`),
the disputed lists and counts of the services and views, and the per-rank breakdown.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.vocabulary import DEFAULT_DISPUTED_RANGE

__all__ = ["disputed_per_group", "grade_range", "is_disputed", "most_disputed_first"]


def is_disputed(
    grade_range: ArrayLike, disputed_range: float = DEFAULT_DISPUTED_RANGE
) -> NDArray[np.bool_]:
    """Which items are disputed.

    Args:
        grade_range: (n,) float ``max - min`` of each item's grades, NaN for an item without
            grades (as :func:`grade_range` and ``ItemSpread.range`` give it).
        disputed_range: the threshold in grade units, finite and >= 0.

    Returns:
        (n,) bool, ``grade_range >= disputed_range`` and False where the range is NaN.

    Raises:
        ValueError: ``disputed_range`` negative or not finite.
    """
    if not np.isfinite(disputed_range) or disputed_range < 0:
        raise ValueError("disputed_range must be finite and >= 0")
    spread = np.asarray(grade_range, dtype=np.float64)
    out = np.zeros(spread.shape, dtype=np.bool_)
    np.greater_equal(spread, disputed_range, out=out, where=~np.isnan(spread))
    return out


def grade_range(item: ArrayLike, grade: ArrayLike, n_items: int) -> NDArray[np.float64]:
    """``max - min`` of the grades of each item (-1 counted as 0), NaN for an item without one.

    Args:
        item: (n_grades,) int item index in ``[0, n_items)`` of each grade.
        grade: (n_grades,) float grade.
        n_items: number of items.

    Returns:
        (n_items,) float64.
    """
    items = np.asarray(item, dtype=np.int64)
    grades = np.maximum(np.asarray(grade, dtype=np.float64), 0.0)
    high = np.full(n_items, -np.inf)
    low = np.full(n_items, np.inf)
    np.maximum.at(high, items, grades)
    np.minimum.at(low, items, grades)
    out: NDArray[np.float64] = high - low
    out[np.bincount(items, minlength=n_items) == 0] = np.nan
    return out


def most_disputed_first(
    grade_range: NDArray[np.float64],
    std: NDArray[np.float64],
    disputed: NDArray[np.bool_],
    *ties: NDArray[np.generic],
) -> NDArray[np.intp]:
    """Indices of the disputed items, largest range first, then largest standard deviation,
    then by each of ``ties`` ascending (in the order given; arrays over all items), then by
    item index.

    Args:
        grade_range, std: (n,) float64 per item; disputed: (n,) bool (:func:`is_disputed`).
        ties: (n,) sort keys for equal range and std (e.g. natural keys of query and document).
    """
    idx = np.flatnonzero(disputed)
    if idx.size == 0:
        return idx
    keys = tuple(np.asarray(t)[idx] for t in reversed(ties))
    return idx[np.lexsort((*keys, -std[idx], -grade_range[idx]))]


def disputed_per_group(
    disputed: NDArray[np.bool_], group: NDArray[np.int64], n_groups: int
) -> NDArray[np.int64]:
    """(n_groups,) int64 number of disputed items of each group (e.g. of each query), given
    each item's ``group`` index."""
    return np.bincount(group[disputed], minlength=n_groups).astype(np.int64)
