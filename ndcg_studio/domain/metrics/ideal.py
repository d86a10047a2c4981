"""The ideal ranking of a query's judged documents and the discount: IDCG@K.

IDCG@K = sum over the K largest gains g_(1) >= g_(2) >= ... of g_(i) / log2(i + 1), the
normaliser of nDCG (Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
ACM TOIS 2002). One implementation, read by the measures (:mod:`.measures`, :mod:`.cutoffs`),
the verdict's bounds and the pool's nDCG, so that every nDCG the product shows divides by
the same double. Built like trec_eval's ``m_ndcg_cut.c`` from per-level counts when grades
are small integers (``rel_levels``), otherwise by sorting.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.kernels import group_positions, stable_radix_argsort

__all__ = ["discount_denominators", "ideal_dcg", "ideal_dcg_at", "integer_levels"]

_I64 = np.int64
_F64 = np.float64
# Level-count IDCG (trec_eval's ``rel_levels``) when grades are small integers and the
# (owner x level) count matrix stays small; otherwise a sort by (owner, -gain).
_MAX_LEVELS = 4096
_MAX_LEVEL_CELLS = 1 << 22


def discount_denominators(length: int) -> NDArray[np.float64]:
    """(length,) float64 log2(r + 1) for r = 1..length (the DCG discount is its inverse)."""
    return np.log2(np.arange(2, length + 2, dtype=_F64))


def integer_levels(grade: NDArray[np.float64]) -> NDArray[np.int64] | None:
    """Integer grade levels when all grades >= 0 are small integers, else None."""
    if grade.size == 0:
        return np.zeros(0, dtype=_I64)
    if grade.max() >= _MAX_LEVELS or not np.all(grade == np.floor(grade)):
        return None
    return np.maximum(grade, -1.0).astype(_I64)


def ideal_dcg(
    owner: NDArray[np.int64],
    gain: NDArray[np.float64],
    level: NDArray[np.int64] | None,
    n_owners: int,
    k: int | None,
) -> NDArray[np.float64]:
    """IDCG@K per owner from the gains of its items (gains <= 0 are never in the ideal): the
    one ideal-list implementation (scoring, the verdict's bounds and the pool's nDCG use it).

    IDCG@K = sum over the K largest gains g_(1) >= g_(2) >= ... of g_(i) / log2(i + 1).

    SOURCE: trec_eval ``m_ndcg_cut.c`` (ideal from per-level counts ``rel_levels``). With
    integer ``level``s the ideal list is built from a (owner x level) count matrix, like
    trec_eval; otherwise by sorting (owner, -gain).

    Args:
        owner: (n,) int64 owner (query or group) of each item, 0..n_owners-1, any order.
        gain: (n,) float64 gain of each item (any real; only positive gains count).
        level: (n,) int64 integer grade level of each item when gain is a function of it
            (enables the count-matrix path), or None.
        n_owners: number of owners (owners without items get 0).
        k: cutoff K >= 1, or None for the whole ideal list.

    Returns:
        (n_owners,) float64 IDCG@K >= 0.
    """
    return ideal_dcg_at(owner, gain, level, n_owners, [k])[:, 0]


def ideal_dcg_at(
    owner: NDArray[np.int64],
    gain: NDArray[np.float64],
    level: NDArray[np.int64] | None,
    n_owners: int,
    cutoffs: Sequence[int | None],
) -> NDArray[np.float64]:
    """:func:`ideal_dcg` at several cutoffs: (n_owners, len(cutoffs)) float64, column j equal
    to the bit to ``ideal_dcg(..., cutoffs[j])``; the ideal lists are built once for all
    (``bench_eval.py --set shared``: trec_eval's nine ``ndcg_cut`` cutoffs)."""
    out = np.zeros((n_owners, len(cutoffs)), dtype=_F64)
    keep = gain > 0
    if not keep.any() or n_owners == 0:
        return out
    owner = owner[keep]
    gain = gain[keep]
    if level is not None:
        level = level[keep]
        n_levels = int(level.max()) + 1
        if n_owners * n_levels <= _MAX_LEVEL_CELLS:
            level_gain = np.zeros(n_levels, dtype=_F64)
            level_gain[level] = gain  # one gain per level (gain is a function of the grade)
            present = np.flatnonzero(np.bincount(level, minlength=n_levels))
            by_gain = present[np.argsort(-level_gain[present], kind="stable")]
            counts = np.bincount(owner * n_levels + level, minlength=n_owners * n_levels)
            counts = counts.reshape(n_owners, n_levels)[:, by_gain]
            all_ends = np.cumsum(counts, axis=1)
            all_starts = all_ends - counts
            for j, k in enumerate(cutoffs):
                ends, starts = all_ends, all_starts
                longest = int(ends[:, -1].max())
                if k is not None:
                    longest = min(longest, k)
                    ends, starts = np.minimum(ends, k), np.minimum(starts, k)
                denominators = discount_denominators(longest)
                cum_discount = np.concatenate(([0.0], np.cumsum(1.0 / denominators)))
                weight = cum_discount[ends] - cum_discount[starts]
                out[:, j] = (weight * level_gain[by_gain]).sum(axis=1)
            return out
    perm = np.argsort(-gain)
    perm = perm[stable_radix_argsort(owner[perm], n_owners - 1)]
    owner_sorted = owner[perm]
    counts, pos = group_positions(owner_sorted, n_owners)
    gain_sorted = gain[perm]
    for j, k in enumerate(cutoffs):
        top = pos < k if k is not None else np.ones(pos.shape[0], dtype=bool)
        longest = int(counts.max()) if k is None else min(k, int(counts.max()))
        contrib = gain_sorted[top] / discount_denominators(longest)[pos[top]]
        out[:, j] = np.bincount(owner_sorted[top], weights=contrib, minlength=n_owners)
    return out
