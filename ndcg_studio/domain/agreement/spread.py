"""Per-item spread of the grades (how much the annotators of one item disagree)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.disputed import is_disputed
from ndcg_studio.domain.agreement.ratings import Ratings, encode_grades
from ndcg_studio.vocabulary import DEFAULT_DISPUTED_RANGE

__all__ = ["ItemSpread", "item_spread"]


@dataclass(frozen=True, eq=False)
class ItemSpread:
    """Summary of the grades of every item; arrays of shape ``(n_items,)``.

    Attributes:
        n_grades: ``int64`` number of grades of the item (0 = not judged).
        mean, median, min, max: ``float64`` in grade units; NaN when ``n_grades == 0``. The median
            of an even number of grades is the mean of the two middle grades.
        range: ``float64`` ``max - min`` (0 for one grade, NaN for none).
        std: ``float64`` POPULATION standard deviation (``ddof=0``: divides by ``n_grades``;
            0 for one grade, NaN for none).
        disputed: ``bool`` ``range >= disputed_range`` (False for items without grades;
            :func:`ndcg_studio.domain.agreement.disputed.is_disputed`).
        disputed_range: the threshold used, in grade units.
    """

    n_grades: NDArray[np.int64]
    mean: NDArray[np.float64]
    median: NDArray[np.float64]
    min: NDArray[np.float64]
    max: NDArray[np.float64]
    range: NDArray[np.float64]
    std: NDArray[np.float64]
    disputed: NDArray[np.bool_]
    disputed_range: float


def item_spread(ratings: Ratings, *, disputed_range: float = DEFAULT_DISPUTED_RANGE) -> ItemSpread:
    """Count, mean, median, min, max, range, population std and a "disputed" flag per item.

    Vectorised: one sort of the judgments by (item, grade), then ``np.add.reduceat`` over the runs
    of each item and direct indexing for min / median / max.

    Args:
        ratings: the judgments.
        disputed_range: an item is disputed when ``max - min >= disputed_range`` (default 2: e.g.
            one annotator said 1 and another 3 on the 0..4 scale). Must be finite and >= 0.

    Returns:
        :class:`ItemSpread`.

    Raises:
        ValueError: ``disputed_range`` negative or not finite.

    SOURCE: textbook definitions (numpy ``mean``, ``median``, ``std(ddof=0)`` per item).
    """
    is_disputed(np.zeros(0), disputed_range)  # a bad threshold raises before any work
    n_items = ratings.n_items
    n_grades = np.bincount(ratings.item, minlength=n_items).astype(np.int64)
    mean = np.full(n_items, np.nan)
    median = np.full(n_items, np.nan)
    low = np.full(n_items, np.nan)
    high = np.full(n_items, np.nan)
    std = np.full(n_items, np.nan)
    if ratings.n_ratings:
        codes, domain = encode_grades(ratings.grade)
        order = np.argsort(ratings.item * domain.size + codes, kind="stable")
        grade = ratings.grade[order]
        rated = np.flatnonzero(n_grades)
        size = n_grades[rated]
        starts = np.concatenate([[0], np.cumsum(size)[:-1]])
        item_mean = np.add.reduceat(grade, starts) / size
        centred = grade - np.repeat(item_mean, size)
        mean[rated] = item_mean
        std[rated] = np.sqrt(np.add.reduceat(centred * centred, starts) / size)
        low[rated] = grade[starts]
        high[rated] = grade[starts + size - 1]
        median[rated] = (grade[starts + (size - 1) // 2] + grade[starts + size // 2]) / 2.0
    spread = high - low
    disputed = is_disputed(spread, disputed_range)
    return ItemSpread(
        n_grades=n_grades,
        mean=mean,
        median=median,
        min=low,
        max=high,
        range=spread,
        std=std,
        disputed=disputed,
        disputed_range=float(disputed_range),
    )
