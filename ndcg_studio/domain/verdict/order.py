"""The ``ab`` judging order of the verdict's walk, as one sort (pure numpy).

:func:`ndcg_studio.services.verdict.judgments_to_settle` walks the unjudged pooled documents in
the order :class:`~ndcg_studio.domain.pooling.strategies.ABChooser` proposes them when each proposed
document receives its expected grade. The chooser keeps a heap of each query's head, keyed
(-weight / scale_q, tie): a million heap operations in Python at 100,000 queries
(bench_gui_scale Compare). When the grades to come are known in advance, as in the walk,
the same order is a sort:

* a query's documents are taken in a fixed order (weight descending, then tie), and its scale
  (the ideal DCG of the grades revealed in it, at least 1) never falls as grades are
  revealed, so the keys of one query's documents, each under the scale it has when it becomes
  the head, never decrease;
* a heap of the heads of sorted sequences pops their merge: every unjudged document sorted by
  (key, tie).

The scales are computed as the chooser computes them (``np.dot`` of the top K grades, in
descending order, with the ideal discounts, per distinct top-K tuple), so the keys are the
chooser's to the bit; if rounding ever made one query's keys decrease, :func:`ab_walk_order`
says so (None) and the caller walks the chooser instead.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling.strategies import Pool, discounts

__all__ = ["ab_walk_order"]

_F64 = np.float64
#: queries per block of :func:`_scales`
_ROWS = 1 << 14


def ab_walk_order(
    pool: Pool, grades: NDArray[np.float64], expected: NDArray[np.float64], k: int, *, seed: int = 0
) -> NDArray[np.intp] | None:
    """The unjudged documents in the order ``ABChooser(pool, k=k, pairs=[(0, 1)], seed=seed)``
    proposes them after every judged document was revealed, each proposal ``p`` revealed at
    ``expected[p]`` (what ``chooser.walk(expected, limit)`` returns, whole).

    Args:
        pool: a pool of two runs (0 = A, 1 = B).
        grades: (P,) float64, NaN = not judged yet.
        expected: (P,) float64 the grade each unjudged document receives when proposed.
        k: the cutoff K >= 1.

    Returns:
        (U,) intp pool indices, U = the unjudged documents; None in the (rounding) case where
        the order is not a sort (see the module docstring).
    """
    g = np.asarray(grades, dtype=_F64)
    # the chooser's weight (0 + |disc_A - disc_B|, the same value: adding to 0.0 is exact),
    # in place (bench_gui_scale Compare, peak RSS of the verdict)
    weight = discounts(pool.rank[0], k)
    weight -= discounts(pool.rank[1], k)
    np.abs(weight, out=weight)
    tie = np.random.default_rng(seed).permutation(pool.size)
    query = np.asarray(pool.query, dtype=np.int64)
    n_q = int(query.max(initial=-1)) + 1
    judged = ~np.isnan(g)
    # by query, then weight descending, then tie: one sort of integer keys
    levels = np.unique(weight)  # a few values: a search is cheaper than return_inverse
    rank = query * len(levels)
    rank += len(levels) - 1
    rank -= np.searchsorted(levels, weight)
    order = _sort_by(rank, n_q * len(levels), tie)
    del rank
    u = order[~judged[order]]  # each query's unjudged documents in the chooser's order
    del order
    if not len(u):
        return u.astype(np.intp)
    top, count = _judged_tops(n_q, query[judged], np.maximum(g[judged], 0.0), k)
    del judged
    # from here on only the walked documents' values: the pool-wide columns are freed first
    # (bench_gui_scale Compare, peak RSS of the verdict)
    key, tie_u, query_u = weight[u], tie[u], query[u]
    del weight, tie
    scale = _scales(top, count, query_u, np.maximum(expected[u], 0.0), k)
    del top, count
    np.negative(key, out=key)
    key /= scale  # -weight / scale, as the chooser keys its heap
    del scale
    # the per-query keys must not decrease (then the heap's pops are their sorted merge)
    same = query_u[1:] == query_u[:-1]
    del query_u
    step = (key[1:] > key[:-1]) | ((key[1:] == key[:-1]) & (tie_u[1:] > tie_u[:-1]))
    if not np.all(step | ~same):
        return None
    del step, same
    _, key_rank = np.unique(key, return_inverse=True)  # -0.0 and 0.0 are one rank
    del key
    out: NDArray[np.intp] = u[_sort_by(key_rank.reshape(-1), len(u), tie_u)]
    return out


def _sort_by(rank: NDArray[np.int64], n_ranks: int, tie: NDArray[np.int64]) -> NDArray[np.intp]:
    """(n,) intp the indices that sort by ``rank`` (n,) int64 in [0, n_ranks), then by
    ``tie`` (n,) int64 distinct values >= 0 (some of the pool's tie permutation):
    ``np.lexsort``'s order, by one sort of (rank, tie) packed into int64 when they fit in 62
    bits (several times faster than lexsort at 100,000 queries, bench_gui_scale.py
    Compare)."""
    n_ties = int(tie.max(initial=0)) + 1
    shift = max(n_ties - 1, 1).bit_length()
    if max(n_ranks - 1, 1).bit_length() + shift > 62:
        return np.lexsort((tie, rank))
    key = rank << shift
    key |= tie
    key.sort()
    key &= (1 << shift) - 1  # the ties, in order
    where = np.empty(n_ties, dtype=np.intp)
    where[tie] = np.arange(len(tie))
    out: NDArray[np.intp] = where[key]
    return out


def _judged_tops(
    n_q: int, jq: NDArray[np.int64], jg: NDArray[np.float64], k: int
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Each query's top K gains revealed before the walk, descending (-inf where fewer), and
    how many: (n_q, k) float64 and (n_q,) int64 from the judged documents' queries ``jq`` and
    gains ``jg``."""
    top = np.full((n_q, k), -np.inf)
    count = np.zeros(n_q, dtype=np.int64)
    by = np.lexsort((-jg, jq))
    jq, jg = jq[by], jg[by]
    first = np.searchsorted(jq, jq, side="left")
    rank = np.arange(len(jq)) - first
    keep = rank < k
    top[jq[keep], rank[keep]] = jg[keep]
    np.add.at(count, jq, 1)
    return top, count


def _scales(
    top: NDArray[np.float64],
    count: NDArray[np.int64],
    uq: NDArray[np.int64],
    u_gain: NDArray[np.float64],
    k: int,
) -> NDArray[np.float64]:
    """(U,) float64 the scale of each walked document's query when it becomes the head:
    max(ideal DCG of the top K gains revealed in its query before it, 1), the judged ones and
    the walk's earlier ones. ``top``, ``count``: :func:`_judged_tops` (updated here);
    ``uq`` the walk's documents' queries (grouped by query, in the chooser's order within
    each), ``u_gain`` their gains."""
    column = np.arange(len(uq))
    column -= np.searchsorted(uq, uq, side="left")
    ideals = _Ideals(1.0 / np.log2(np.arange(2, k + 2, dtype=_F64)))
    out = np.ones(len(uq))
    for j in range(int(column.max()) + 1):
        every = np.flatnonzero(column == j)
        # a block of queries at a time: each query is one row, on its own (peak RSS of the
        # verdict, bench_gui_scale Compare: the first columns hold every query)
        for start in range(0, len(every), _ROWS):
            at = every[start : start + _ROWS]
            q = uq[at]
            rows = np.take(top, q, axis=0)  # np.take: faster than indexing on short rows
            out[at] = ideals.of(rows, np.minimum(count[q], k))
            top[q] = _insert(rows, u_gain[at])
            count[q] += 1
    return out


def _insert(rows: NDArray[np.float64], gain: NDArray[np.float64]) -> NDArray[np.float64]:
    """(n, k) float64 each row of ``rows`` (descending, -inf where empty) with its ``gain``
    (n,) float64 (not NaN) inserted and its smallest value dropped: the top K of the row and
    the gain, descending, as a sort of the k + 1 values would give them, by comparisons
    with the row instead of a sort per row (bench_gui_scale.py Compare)."""
    kept = rows >= gain[:, None]  # a prefix of each row: the values before the gain
    out = np.empty_like(rows)
    out[:, 0] = np.where(kept[:, 0], rows[:, 0], gain)
    after = np.where(kept[:, :-1], gain[:, None], rows[:, :-1])  # the gain, or shifted right
    out[:, 1:] = np.where(kept[:, 1:], rows[:, 1:], after)
    return out


class _Ideals:
    """max(ideal DCG, 1) of rows of top K gains, computed as the chooser does (``np.dot`` of
    the list of a row's first ``length`` gains with the discounts; 1 for length 0), each
    distinct row once over the whole walk: the rows met so far and their values, found by a
    hash of their bits (a search of sorted integers; a Python look-up per distinct row of
    every block cost more, bench_gui_scale.py Compare). A row is found only when its bits
    equal the stored row's, so a collision costs time, never a value."""

    def __init__(self, ideal_disc: NDArray[np.float64]) -> None:
        self.disc = ideal_disc
        width = len(ideal_disc) + 1  # the gains and the length
        # any fixed odd multipliers (a collision is detected and only costs time)
        odd = np.random.default_rng(0).integers(1, 1 << 63, size=(2, width), dtype=np.uint64)
        self.odd = odd | np.uint64(1)
        self.digest = np.zeros(0, dtype=np.uint64)  # sorted
        self.bits = np.zeros((0, width), dtype=np.uint64)  # each digest's row
        self.value = np.zeros(0)

    def _digests(self, bits: NDArray[np.uint64]) -> NDArray[np.uint64]:
        """(n,) uint64 a hash of each row of (n, k + 1) ``bits``: the bits mixed before
        they are summed (gains such as 1.0 have many zero low bits)."""
        mixed = bits * self.odd[0]
        mixed ^= mixed >> np.uint64(29)
        mixed *= self.odd[1]
        out: NDArray[np.uint64] = mixed.sum(axis=1, dtype=np.uint64)
        out ^= out >> np.uint64(32)
        return out

    def of(self, rows: NDArray[np.float64], length: NDArray[np.int64]) -> NDArray[np.float64]:
        """(n,) float64 the value of each of the (n, k) ``rows`` (descending, -inf where
        empty) with its ``length`` (n,) int64 (<= k)."""
        both = np.ascontiguousarray(np.concatenate([rows, length[:, None].astype(_F64)], axis=1))
        bits = both.view(np.uint64)
        digest = self._digests(bits)
        out = np.empty(len(rows))
        if len(self.digest):
            at = np.minimum(np.searchsorted(self.digest, digest), len(self.digest) - 1)
            hit = self.digest[at] == digest
            hit &= (np.take(self.bits, at, axis=0) == bits).all(axis=1)
            out[hit] = self.value[at[hit]]
            miss = np.flatnonzero(~hit)
        else:
            miss = np.arange(len(rows))
        if not len(miss):
            return out
        # the distinct rows not met yet, each checked against its group's first; a
        # collision falls back to the rows as bytes
        new_bits, new_digest = bits[miss], digest[miss]
        _, first, inverse = np.unique(new_digest, return_index=True, return_inverse=True)
        inverse = np.asarray(inverse).ravel()
        if not np.array_equal(np.take(new_bits, first[inverse], axis=0), new_bits):
            new = both[miss]
            view = new.view(np.dtype((np.void, new.dtype.itemsize * new.shape[1]))).ravel()
            _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
            inverse = np.asarray(inverse).ravel()
        values = np.ones(len(first))
        for i, r in enumerate(miss[first].tolist()):
            n = int(length[r])
            if n == 0:
                continue
            top = rows[r, :n].tolist()
            values[i] = max(float(np.dot(top, self.disc[:n])), 1.0)
        out[miss] = values[inverse]
        digest = np.concatenate([self.digest, new_digest[first]])
        by = np.argsort(digest, kind="stable")
        self.digest = digest[by]
        self.bits = np.concatenate([self.bits, new_bits[first]])[by]
        self.value = np.concatenate([self.value, values])[by]
        return out
