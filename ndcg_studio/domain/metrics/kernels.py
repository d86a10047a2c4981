"""Sort and grouping kernels of the scoring code: stable integer sorts, grouping of rows by
group, duplicate detection and segmented sums (pure numpy, no knowledge of measures).

Used by :mod:`ndcg_studio.domain.metrics.measures` (DCG, IDCG and the companion measures) and
:mod:`ndcg_studio.domain.metrics.ordering` (the run order). Their speed is guarded by
``benchmarks/bench_scoring_arrays.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "Grouping",
    "argsort_int",
    "group_positions",
    "group_rows",
    "has_duplicates",
    "segmented_exclusive_cumsum",
    "sort_int",
    "stable_radix_argsort",
]

_I64 = np.int64
# Groups are laid out as rows of a padded (n_groups x longest list) matrix for row-wise sorts
# when that matrix has at most _MATRIX_FILL cells per result (+ slack); else one flat sort.
_MATRIX_FILL = 2
_MATRIX_SLACK = 1 << 12


def distinct(values: NDArray[np.int64]) -> NDArray[np.int64]:
    """(m,) int64 the distinct values of (n,) int64 ``values``, ascending (what ``np.unique``
    returns): one sort and a comparison of neighbours. numpy 2's ``np.unique`` without
    ``return_*`` hashes first, many times slower on a few hundred thousand ids
    (``bench_gui_scale.py`` Agreement)."""
    s = np.sort(values)
    return s[np.concatenate([[True], s[1:] != s[:-1]])] if s.size else s


def stable_radix_argsort(keys: NDArray[np.int64], max_key: int) -> NDArray[np.intp]:
    """Stable argsort of non-negative integer keys by 16-bit LSD passes (numpy radix sort)."""
    n = keys.shape[0]
    if max_key <= 0:
        return np.arange(n, dtype=np.intp)
    perm: NDArray[np.intp] | None = None
    shift = 0
    while True:
        current = keys if perm is None else keys[perm]
        chunk = ((current >> shift) & 0xFFFF).astype(np.uint16)
        sub = np.argsort(chunk, kind="stable")
        perm = sub if perm is None else perm[sub]
        shift += 16
        if (max_key >> shift) == 0:
            break
    assert perm is not None
    assert perm.shape[0] == n
    return perm


def sort_int(keys: NDArray[np.int64], max_key: int) -> tuple[NDArray[np.int64], NDArray[np.intp]]:
    """Stable sort of non-negative int64 keys: (sorted keys, permutation). Packs (key, index)
    into one int64 and sorts values (faster than ``np.argsort``) when it fits."""
    n = keys.shape[0]
    shift = max(n - 1, 1).bit_length()
    if max_key.bit_length() + shift <= 62:
        packed = (keys << shift) | np.arange(n, dtype=_I64)
        packed.sort()
        perm = cast(NDArray[np.intp], (packed & ((1 << shift) - 1)).astype(np.intp))
        return packed >> shift, perm
    perm = np.argsort(keys, kind="stable")
    return keys[perm], perm


def argsort_int(keys: NDArray[np.int64], max_key: int) -> NDArray[np.intp]:
    """Stable argsort of non-negative int64 keys (see :func:`sort_int`)."""
    return sort_int(keys, max_key)[1]


def group_positions(
    owner_sorted: NDArray[np.int64], n_owners: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Counts per owner and 0-based position of each row within its owner's block."""
    counts = np.bincount(owner_sorted, minlength=n_owners).astype(_I64)
    starts = np.cumsum(counts) - counts
    pos = np.arange(owner_sorted.shape[0], dtype=_I64) - starts[owner_sorted]
    return counts, pos


@dataclass(frozen=True, eq=False)
class Grouping:
    """Rows grouped by group, stable (internal)."""

    perm: NDArray[np.intp] | None  # input rows -> grouped order; None when already grouped
    group: NDArray[np.int64]  # (n,) group of each row, grouped order
    counts: NDArray[np.int64]  # (n_groups,) rows per group
    col: NDArray[np.int64]  # (n,) position of each row within its group, arrival order
    use_matrix: bool  # lay groups out as rows of a padded (n_groups, longest) matrix


def group_rows(group: NDArray[np.int64], n_groups: int) -> Grouping:
    """Stable grouping by a radix sort; decides whether the padded matrix layout is affordable
    (at most ``_MATRIX_FILL`` cells per row plus a small constant)."""
    n = group.shape[0]
    perm: NDArray[np.intp] | None = None
    grouped = group
    if n > 1 and not np.all(group[1:] >= group[:-1]):
        perm = stable_radix_argsort(group, n_groups - 1)
        grouped = group[perm]
    counts, col = group_positions(grouped, n_groups)
    longest = int(counts.max()) if n else 0
    use_matrix = n > 0 and n_groups * longest <= _MATRIX_FILL * n + _MATRIX_SLACK
    return Grouping(perm, grouped, counts, col, use_matrix)


def has_duplicates(grouping: Grouping, doc: NDArray[np.int64], n_docs: int) -> bool:
    """Whether some document occurs twice in one group (row-wise sort of the padded matrix of
    documents, or one flat sort of (group, document) keys)."""
    n = doc.shape[0]
    if n <= 1:
        return False
    grouped_doc = doc if grouping.perm is None else doc[grouping.perm]
    if grouping.use_matrix:
        n_groups = grouping.counts.shape[0]
        longest = int(grouping.counts.max())
        # padding: distinct negative values, never equal to each other or to a document
        matrix = np.empty((n_groups, longest), dtype=_I64)
        matrix[:] = -1 - np.arange(longest, dtype=_I64)
        matrix[grouping.group, grouping.col] = grouped_doc
        matrix.sort(axis=1)
        return bool(np.any(matrix[:, 1:] == matrix[:, :-1]))
    if (grouping.counts.shape[0] + 1) * (n_docs + 1) >= 1 << 62:
        raise ValueError("too many groups x documents for 64-bit keys")
    keys = np.sort(grouping.group * n_docs + grouped_doc)
    return bool(np.any(keys[1:] == keys[:-1]))


def segmented_exclusive_cumsum(
    values: NDArray[np.float64], segment_starts: NDArray[np.intp]
) -> NDArray[np.float64]:
    """Exclusive cumulative sum restarting at each segment start (rows grouped by segment).

    The running total is brought back to ~0 at every start so rounding does not grow with the
    number of segments.
    """
    if values.size == 0:
        return values.copy()
    totals = np.add.reduceat(values, segment_starts)
    adjusted = values.copy()
    adjusted[segment_starts[1:]] -= totals[:-1]
    inclusive = np.cumsum(adjusted)
    # Running total just before each segment (~0 up to rounding), removed per segment.
    carry = inclusive[segment_starts] - values[segment_starts]
    is_start = np.zeros(values.shape[0], dtype=_I64)
    is_start[segment_starts] = 1
    segment = np.cumsum(is_start) - 1
    return inclusive - carry[segment] - values
