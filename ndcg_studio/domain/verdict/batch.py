"""The relaxation bound of :mod:`ndcg_studio.domain.verdict.bounds` for many queries at once
(numpy).

:func:`upper_relaxed_rows` computes, for every query (a *row*) of a pool, the same sound upper
bound of Delta nDCG@K over the grades x in [0, top] of its unjudged documents as
``verdict._upper_relaxed`` does for one query — the same case split, the same assignments pi
(ideal order of the known gains and the current maximiser, ties: known first, then larger w,
then pool order), the same Dinkelbach prefixes and the same number of rounds — with the
queries as the rows of padded matrices instead of a Python loop per query (the verdict at
100,000 queries: bench_gui_scale Compare). Checked
against the per-query function on random pools (tests/domain/test_verdict_batch.py): equal up
to the rounding of sums taken in another order (1e-12).

The rounds: the per-query function stops when a maximiser repeats; a repeated maximiser
repeats every later round, so running all rounds for every row gives the same minimum.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.measures import ideal_dcg
from ndcg_studio.domain.pooling.strategies import discounts

__all__ = ["upper_relaxed_rows"]

_F64 = np.float64
#: rows handled at once (bounds the padded matrices: rows x items x a few float64)
_ROWS_PER_CHUNK = 20_000


def _padded(
    row: NDArray[np.intp], values: NDArray[np.float64], n_rows: int, fill: float
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """``values`` (grouped by ascending ``row``, order kept) as an (n_rows, width) matrix
    padded with ``fill``, and the (n_rows, width) mask of real entries."""
    counts = np.bincount(row, minlength=n_rows)
    width = int(counts.max(initial=0))
    col = np.arange(row.shape[0]) - (np.cumsum(counts) - counts)[row]
    out = np.full((n_rows, width), fill, dtype=_F64)
    out[row, col] = values
    mask = np.zeros((n_rows, width), dtype=bool)
    mask[row, col] = True
    return out, mask


def _ratio_rows(
    c: NDArray[np.float64],
    a: NDArray[np.float64],
    w: NDArray[np.float64],
    e: NDArray[np.float64],
    real: NDArray[np.bool_],
    top: float,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``verdict._ratio_under_assignment`` per row: (B,) maxima of (c + w.x) / (a + e.x) over
    x in [0, top]^n, and (B, n) maximisers; padded entries (``real`` False) have w = e = 0 and
    sort last, so their extra prefixes repeat the last real one."""
    n_rows, width = w.shape
    ratio = np.full((n_rows, width), np.inf)
    pos = e > 0
    ratio[pos] = w[pos] / e[pos]
    ratio[~real] = -np.inf
    order = np.argsort(-ratio, axis=1, kind="stable")
    zero = np.zeros((n_rows, 1))
    num = c[:, None] + top * np.concatenate(
        [zero, np.cumsum(np.take_along_axis(w, order, 1), 1)], 1
    )
    den = a[:, None] + top * np.concatenate(
        [zero, np.cumsum(np.take_along_axis(e, order, 1), 1)], 1
    )
    unbounded = np.any((den <= 0) & (num > 0), axis=1)
    valid = den > 0
    values = np.where(valid, num / np.where(valid, den, 1.0), -np.inf)
    j = np.argmax(values, axis=1)
    best = values[np.arange(n_rows), j]
    x = np.zeros((n_rows, width))
    chosen = np.arange(width)[None, :] < j[:, None]
    x[np.nonzero(chosen)[0], order[chosen]] = top
    none_valid = ~valid.any(axis=1)
    best[none_valid] = 0.0
    x[none_valid] = 0.0
    best[unbounded] = np.inf
    x[unbounded] = top
    return best, x


def _positive_rows(
    c: NDArray[np.float64],
    g_known: NDArray[np.float64],
    known_real: NDArray[np.bool_],
    w: NDArray[np.float64],
    w_real: NDArray[np.bool_],
    k: int,
    top: float,
    rounds: int,
) -> NDArray[np.float64]:
    """The positive case of ``verdict._upper_relaxed`` per row: known gains (B, mk) and the
    unjudged documents of positive w (B, mu), both padded (masks ``*_real``)."""
    n_rows, mk = g_known.shape
    width = mk + w.shape[1]
    d = discounts(np.arange(1, k + 1), k)
    kk = min(k, width)
    real = np.concatenate([known_real, w_real], axis=1)
    # ties: known first (tiebreak inf), then larger w; lexsort keeps pool order after that
    neg_tiebreak = np.concatenate([np.full((n_rows, mk), -np.inf), -w], axis=1)
    g0 = np.where(known_real, g_known, 0.0)
    best = np.full(n_rows, np.inf)
    x = np.zeros(w.shape)
    # the rows still refining: a row whose maximiser repeats would repeat it every later
    # round (the same minimum), so it stops there (the per-query function's ``seen``)
    at = np.arange(n_rows)
    for _ in range(rounds):
        gains = np.where(real, np.concatenate([g_known, x], axis=1), -np.inf)
        order = np.lexsort((neg_tiebreak, -gains), axis=1)[:, :kk]
        e_all = np.zeros((len(at), width))
        e_all[np.arange(len(at))[:, None], order] = np.where(
            np.take_along_axis(real, order, 1), d[:kk], 0.0
        )
        a = (e_all[:, :mk] * g0).sum(axis=1)
        r, new_x = _ratio_rows(c, a, w, e_all[:, mk:], w_real, top)
        best[at] = np.minimum(best[at], r)
        moved = np.any(new_x != x, axis=1)
        if not moved.all():
            at, x = at[moved], new_x[moved]
            c, w, w_real, real = c[moved], w[moved], w_real[moved], real[moved]
            g_known, g0, neg_tiebreak = g_known[moved], g0[moved], neg_tiebreak[moved]
        else:
            x = new_x
        if not len(at):
            break
    return np.asarray(np.minimum(best, 1.0), dtype=_F64)


def upper_relaxed_rows(
    row: NDArray[np.intp],
    w: NDArray[np.float64],
    grades: NDArray[np.float64],
    n_rows: int,
    k: int,
    top: float,
    rounds: int,
) -> NDArray[np.float64]:
    """Sound upper bounds of max N(x)/I(x) per row over x in [0, top] for the unjudged
    documents (the continuous relaxation of ``verdict._upper_relaxed``).

    Args:
        row: (n,) intp row (query) of each pooled document, ascending.
        w: (n,) float64 disc_A - disc_B of each document (0 beyond K or not returned).
        grades: (n,) float64 grade of each document, NaN = not judged yet (negative -> 0).
        n_rows: number of rows; k: cutoff K >= 1; top: the largest grade; rounds: the
            assignment refinements (``verdict.ROUNDS``).

    Returns:
        (n_rows,) float64 upper bounds, at most 1; 0 for a row without documents.
    """
    out = np.zeros(n_rows)
    for lo in range(0, n_rows, _ROWS_PER_CHUNK):
        hi = min(lo + _ROWS_PER_CHUNK, n_rows)
        a, b = np.searchsorted(row, [lo, hi])
        out[lo:hi] = _chunk(row[a:b] - lo, w[a:b], grades[a:b], hi - lo, k, top, rounds)
    return out


def _chunk(
    row: NDArray[np.intp],
    w: NDArray[np.float64],
    grades: NDArray[np.float64],
    n_rows: int,
    k: int,
    top: float,
    rounds: int,
) -> NDArray[np.float64]:
    known = ~np.isnan(grades)
    gk = np.maximum(grades[known], 0.0)
    c = np.asarray(np.bincount(row[known], weights=w[known] * gk, minlength=n_rows), dtype=_F64)
    unknown_w = w[~known]
    n_hi = c + top * np.bincount(row[~known], weights=np.maximum(unknown_w, 0.0), minlength=n_rows)
    out = np.zeros(n_rows)
    # no assignment makes N positive: N/I <= n_hi / I_hi (the ideal with every unjudged at top)
    gains = np.where(known, np.maximum(grades, 0.0), top)
    i_hi = ideal_dcg(row.astype(np.int64), gains, None, n_rows, k)
    low_case = n_hi <= 0
    out[low_case] = np.where(i_hi > 0, n_hi / np.where(i_hi > 0, i_hi, 1.0), 0.0)[low_case]
    positive = np.flatnonzero(~low_case)
    if positive.size == 0:
        return out
    # the rows of the positive case, renumbered 0..B-1
    dense = np.full(n_rows, -1, dtype=np.intp)
    dense[positive] = np.arange(positive.size)
    in_known = known & ~low_case[row]
    g_known, known_real = _padded(
        dense[row[in_known]], np.maximum(grades[in_known], 0.0), positive.size, -np.inf
    )
    in_w = ~known & (w > 0) & ~low_case[row]
    w_pos, w_real = _padded(dense[row[in_w]], w[in_w], positive.size, 0.0)
    out[positive] = _positive_rows(c[positive], g_known, known_real, w_pos, w_real, k, top, rounds)
    return out
