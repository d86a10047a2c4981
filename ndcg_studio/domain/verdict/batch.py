"""The relaxation bound of :mod:`ndcg_studio.domain.verdict.bounds` for many queries at once
(numpy).

:func:`upper_relaxed_rows` and :func:`upper_relaxed_matrix` compute, for every query (a *row*)
of a pool, the same sound upper bound of Delta nDCG@K over the grades x in [0, top] of its
unjudged documents as ``bounds._upper_relaxed`` does for one query — the same case split, the
same assignments pi (ideal order of the known gains and the current maximiser, ties: known
first, then larger w, then pool order), the same Dinkelbach prefixes and the same number of
rounds — with the queries as the rows of padded matrices instead of a Python loop per query
(the verdict at 100,000 queries: bench_gui_scale.py Compare). Checked against the per-query
function on random pools (tests/domain/test_verdict_batch.py): equal up to the rounding of sums
taken in another order (1e-12).

The assignment of a round is not sorted anew. A maximiser x is top on some unjudged documents
of positive w and 0 on the others, and the known gains are >= 0, so the ideal order is: the
known gains >= top (descending), the documents at x = top (larger w first), the other known
gains (descending), the documents at x = 0 (larger w first). A document's place in it is its rank
among the known gains (fixed per row: one order of the row's known gains, given or sorted
once) or among the unjudged documents by w, shifted by how many documents are at top.

The rounds: the per-query function stops when a maximiser repeats; a repeated maximiser
repeats every later round, so a row stops there too (the same minimum).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling.strategies import discounts

__all__ = ["PaddedRows", "gain_order", "upper_relaxed_matrix", "upper_relaxed_rows"]

_F64 = np.float64
# rows are gathered with np.take(..., axis=0), not by indexing: a few times faster on these
# short rows (bench_gui_scale.py Compare)
#: matrix cells handled at once: the padded matrices of a chunk stay small (peak RSS of the
#: verdict) and mostly in the cache (bench_gui_scale.py Compare)
_CELLS_PER_CHUNK = 1 << 16


def gain_order(gains: NDArray[np.float64], real: NDArray[np.bool_]) -> NDArray[np.int16]:
    """(n, W) int16 per row, the columns ordered by gain descending, ties by column; the cells
    not ``real`` last. Restricted to any subset of the cells, the same order sorts that subset
    (what :func:`upper_relaxed_matrix` needs of the known gains). W < 32768."""
    key = np.where(real, -gains, np.inf)
    out: NDArray[np.int16] = np.argsort(key, axis=1, kind="stable").astype(np.int16)
    return out


def _row_sums(m: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row's sum, added left to right from 0.0 (the order ``np.bincount`` adds a row's
    weights in; a zero adds nothing). A loop over the columns: ``np.cumsum`` along short rows
    costs several times more (bench_gui_scale.py Compare)."""
    out = np.zeros(m.shape[0])
    for j in range(m.shape[1]):
        out += m[:, j]
    return out


def _cells(order: NDArray[np.integer]) -> NDArray[np.intp]:
    """(n * W,) intp the flat cells of an (n, W) per-row column permutation ``order``: with
    them, ``m.reshape(-1)[cells]`` is ``np.take_along_axis(m, order, 1)`` (flattened) and
    assigning through them is ``np.put_along_axis``, at about half the cost of those
    functions' (row, column) indexing on these short rows (bench_gui_scale.py Compare)."""
    n, width = order.shape
    cells: NDArray[np.intp] = (order + np.arange(n)[:, None] * width).reshape(-1)
    return cells


def _ranks(mask: NDArray[np.bool_], order: NDArray[np.integer]) -> NDArray[np.int64]:
    """(n, W) each cell's number of ``mask`` cells before it in ``order`` (a per-row column
    permutation)."""
    cells = _cells(order)
    in_order = mask.reshape(-1)[cells].reshape(mask.shape)
    before = np.empty(mask.shape, dtype=np.int64)
    running = np.zeros(mask.shape[0], dtype=np.int64)
    for j in range(mask.shape[1]):
        before[:, j] = running
        running += in_order[:, j]
    out = np.empty_like(before)
    out.reshape(-1)[cells] = before.reshape(-1)
    return out


@dataclass(frozen=True)
class PaddedRows:
    """Queries as the rows of padded (n, W) matrices, a cell a document in pool order.

    Attributes:
        w: (n, W) float64 disc_A - disc_B of each document of the row, in pool order (0 beyond
            K or not returned; 0 where not ``real``).
        gains: (n, W) float64 max(grade, 0) of each known document, 0 elsewhere.
        known: (n, W) bool documents whose grade is known (judged).
        real: (n, W) bool cells holding a document.
        by_gain: (n, W) integer column order of each row that sorts its known gains
            (max(grade, 0)) descending, ties by column, e.g. :func:`gain_order`.
    """

    w: NDArray[np.float64]
    gains: NDArray[np.float64]
    known: NDArray[np.bool_]
    real: NDArray[np.bool_]
    by_gain: NDArray[np.integer]

    def __getitem__(self, rows: slice) -> PaddedRows:
        return PaddedRows(
            self.w[rows], self.gains[rows], self.known[rows], self.real[rows], self.by_gain[rows]
        )


def upper_relaxed_matrix(rows: PaddedRows, k: int, top: float, rounds: int) -> NDArray[np.float64]:
    """Sound upper bounds of max N(x)/I(x) per row over x in [0, top] for the unjudged
    documents (the continuous relaxation of ``bounds._upper_relaxed``), rows as matrices.

    Args:
        rows: the queries' documents, (n, W) matrices.
        k: cutoff K >= 1; top: the largest grade (> 0); rounds: the assignment refinements
            (``bounds.ROUNDS``).

    Returns:
        (n,) float64 upper bounds, at most 1; 0 for a row without documents.
    """
    n, width = rows.w.shape
    out = np.zeros(n)
    step = max(1, _CELLS_PER_CHUNK // max(width, 1))
    for lo in range(0, n, step):
        hi = min(lo + step, n)
        out[lo:hi] = _chunk(rows[lo:hi], k, top, rounds)
    return out


def _chunk(rows: PaddedRows, k: int, top: float, rounds: int) -> NDArray[np.float64]:
    w, gk, known, real = rows.w, rows.gains, rows.known, rows.real
    # products with the masks, not np.where: a zero term adds nothing to the sums, and
    # np.where with a scalar costs several times a product (bench_gui_scale.py Compare)
    c = _row_sums(w * gk)
    unknown = real & ~known
    n_hi = c + top * _row_sums(np.maximum(w, 0.0) * unknown)
    out = np.zeros(len(n_hi))
    # no assignment makes N positive: N/I <= n_hi / I_hi (the ideal with every unjudged at top)
    low = np.flatnonzero(n_hi <= 0)
    if low.size:
        i_hi = _ideal(gk[low] + top * unknown[low], k)
        ok = i_hi > 0
        out[low] = np.where(ok, n_hi[low] / np.where(ok, i_hi, 1.0), 0.0)
    positive = np.flatnonzero(n_hi > 0)
    if positive.size:
        w_p, gk_p = np.take(w, positive, axis=0), np.take(gk, positive, axis=0)
        known_p, unknown_p = np.take(known, positive, axis=0), np.take(unknown, positive, axis=0)
        by_gain = np.take(rows.by_gain, positive, axis=0)
        out[positive] = _positive_rows(
            c[positive], w_p, gk_p, known_p, unknown_p, by_gain, k, top, rounds
        )
    return out


def _ideal(gains: NDArray[np.float64], k: int) -> NDArray[np.float64]:
    """IDCG@K of each row of gains >= 0 (0 where no cell): ``ideal_dcg``'s terms, gain /
    log2(position + 1), added in the same order (descending gain; a zero adds nothing)."""
    gains.sort(axis=1)
    width = gains.shape[1]
    log_den = np.log2(np.arange(2, min(k, width) + 2, dtype=_F64))
    out = np.zeros(gains.shape[0])
    for p in range(min(k, width)):
        out += gains[:, width - 1 - p] / log_den[p]
    return out


def _compact(
    mask: NDArray[np.bool_], values: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """The ``mask`` cells of each row, pool order kept, moved to the left of a (n, C) matrix
    (C the most in a row) padded with 0.0, and its mask of real cells."""
    # flat cells, not (row, column) pairs: one-dimensional indexing is the cheaper kind
    # (bench_gui_scale.py Compare)
    flat = np.flatnonzero(mask)
    at = np.cumsum(mask, axis=1).reshape(-1)[flat] - 1
    width = int(at.max(initial=-1)) + 1
    cell = flat // mask.shape[1] * width + at
    out = np.zeros((mask.shape[0], width))
    out.reshape(-1)[cell] = values.reshape(-1)[flat]
    real = np.zeros(out.shape, dtype=bool)
    real.reshape(-1)[cell] = True
    return out, real


def _positive_rows(
    c: NDArray[np.float64],
    w_all: NDArray[np.float64],
    gk: NDArray[np.float64],
    known: NDArray[np.bool_],
    unknown: NDArray[np.bool_],
    by_gain: NDArray[np.integer],
    k: int,
    top: float,
    rounds: int,
) -> NDArray[np.float64]:
    """The positive case of ``bounds._upper_relaxed`` per row: documents with w <= 0 at grade
    0 only help (N up, I down), so the unjudged documents of positive w (the candidates) vary.
    The assignment of each round from ranks (module docstring), its Dinkelbach step by
    :func:`_ratio_rows` on the candidates."""
    n_rows, width = gk.shape
    d = np.zeros(width + 1)
    kk = min(k, width)
    d[:kk] = discounts(np.arange(1, k + 1), k)[:kk]
    rank_known = _ranks(known, by_gain)
    at_top = known & (gk >= top)  # before the documents at x = top (known first)
    n_top = at_top.sum(axis=1)
    n_known = known.sum(axis=1)
    # the candidates, pool order kept, and their ranks by w descending (ties: pool order)
    w, real = _compact(unknown & (w_all > 0), w_all)
    by_w = np.argsort(np.where(real, -w, np.inf), axis=1, kind="stable")
    rank_w = np.empty_like(by_w)
    rank_w.reshape(-1)[_cells(by_w)] = np.tile(np.arange(w.shape[1]), w.shape[0])
    best = np.full(n_rows, np.inf)
    x = np.zeros(w.shape, dtype=bool)  # the maximiser: at top where True, else at 0
    at = np.arange(n_rows)
    for _ in range(rounds):
        n_x = x.sum(axis=1)
        place = rank_known + n_x[:, None] * ~at_top
        # mode "clip": a place beyond the last discount takes d[width] = 0, without a minimum
        a = _row_sums(np.take(d, place, mode="clip") * gk)  # gk: 0 where not known
        above = _ranks(x, by_w)  # candidates at top before each one, by w
        place_x = np.where(x, n_top[:, None] + above, (n_known + n_x)[:, None] + rank_w - above)
        e = np.take(d, place_x, mode="clip") * real
        r, new = _ratio_rows(c, a, w, e, real, top)
        best[at] = np.minimum(best[at], r)
        moved = np.any(new != x, axis=1)
        if not moved.all():
            kept = np.flatnonzero(moved)
            at, c, n_top, n_known = at[kept], c[kept], n_top[kept], n_known[kept]
            x, real = np.take(new, kept, axis=0), np.take(real, kept, axis=0)
            w, gk = np.take(w, kept, axis=0), np.take(gk, kept, axis=0)
            known, at_top = np.take(known, kept, axis=0), np.take(at_top, kept, axis=0)
            rank_known = np.take(rank_known, kept, axis=0)
            rank_w, by_w = np.take(rank_w, kept, axis=0), np.take(by_w, kept, axis=0)
        else:
            x = new
        if not len(at):
            break
    return np.asarray(np.minimum(best, 1.0), dtype=_F64)


def _ratio_rows(
    c: NDArray[np.float64],
    a: NDArray[np.float64],
    w: NDArray[np.float64],
    e: NDArray[np.float64],
    real: NDArray[np.bool_],
    top: float,
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """``bounds._ratio_under_assignment`` per row: (B,) maxima of (c + w.x) / (a + e.x) over
    x in [0, top]^n for w > 0, e >= 0, and (B, n) bool maximisers (x = top where True, else
    0); padded entries (``real`` False) have w = e = 0 and sort last, so their extra prefixes
    repeat the last real one. The prefix sums are added left to right, as ``np.cumsum``."""
    n_rows, width = w.shape
    with np.errstate(divide="ignore", invalid="ignore"):
        key = w / e  # inf where e = 0 (w > 0)
    np.copyto(key, -np.inf, where=~real)
    np.negative(key, out=key)
    order = np.argsort(key, axis=1, kind="stable")
    cells = _cells(order)
    w_sorted = w.reshape(-1)[cells].reshape(w.shape)
    e_sorted = e.reshape(-1)[cells].reshape(e.shape)
    num, den = np.empty((n_rows, width + 1)), np.empty((n_rows, width + 1))
    sum_w, sum_e = np.zeros(n_rows), np.zeros(n_rows)
    num[:, 0], den[:, 0] = c + top * sum_w, a + top * sum_e
    for j in range(width):
        sum_w += w_sorted[:, j]
        sum_e += e_sorted[:, j]
        num[:, j + 1] = c + top * sum_w
        den[:, j + 1] = a + top * sum_e
    unbounded = np.any((den <= 0) & (num > 0), axis=1)
    valid = den > 0
    values = np.where(valid, num / np.where(valid, den, 1.0), -np.inf)
    j = np.argmax(values, axis=1)
    best = values[np.arange(n_rows), j]
    x = np.empty((n_rows, width), dtype=bool)
    x.reshape(-1)[cells] = (np.arange(width)[None, :] < j[:, None]).reshape(-1)
    none_valid = ~valid.any(axis=1)
    best[none_valid] = 0.0
    x[none_valid] = False
    best[unbounded] = np.inf
    x[unbounded] = real[unbounded]
    return best, x


def upper_relaxed_rows(
    row: NDArray[np.intp],
    w: NDArray[np.float64],
    grades: NDArray[np.float64],
    n_rows: int,
    k: int,
    top: float,
    rounds: int,
) -> NDArray[np.float64]:
    """:func:`upper_relaxed_matrix` of documents given one by one with their row.

    Args:
        row: (n,) intp row (query) of each pooled document, ascending.
        w: (n,) float64 disc_A - disc_B of each document (0 beyond K or not returned).
        grades: (n,) float64 grade of each document, NaN = not judged yet (negative -> 0).
        n_rows: number of rows; k: cutoff K >= 1; top: the largest grade (> 0); rounds: the
            assignment refinements (``bounds.ROUNDS``).

    Returns:
        (n_rows,) float64 upper bounds, at most 1; 0 for a row without documents.
    """
    counts = np.bincount(row, minlength=n_rows)
    width = int(counts.max(initial=0))
    col = np.arange(row.shape[0]) - (np.cumsum(counts) - counts)[row]
    out = np.zeros(n_rows)
    step = max(1, _CELLS_PER_CHUNK // max(width, 1))
    for lo in range(0, n_rows, step):
        hi = min(lo + step, n_rows)
        a, b = np.searchsorted(row, [lo, hi])
        r, cc = row[a:b] - lo, col[a:b]
        wm = np.zeros((hi - lo, width))
        wm[r, cc] = w[a:b]
        gm = np.zeros((hi - lo, width))
        gm[r, cc] = np.fmax(grades[a:b], 0.0)  # NaN -> 0
        known = np.zeros((hi - lo, width), dtype=bool)
        known[r, cc] = ~np.isnan(grades[a:b])
        real = np.zeros((hi - lo, width), dtype=bool)
        real[r, cc] = True
        padded = PaddedRows(wm, gm, known, real, gain_order(gm, known))
        out[lo:hi] = upper_relaxed_matrix(padded, k, top, rounds)
    return out
