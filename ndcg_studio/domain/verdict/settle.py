"""How many judgments, in the ``ab`` order at expected grades, until the verdict is decided:
the walk of :func:`ndcg_studio.services.verdict.judgments_to_settle` in blocks (pure numpy).

The rule, as the plain loop states it: propose the next document of
:class:`~ndcg_studio.domain.pooling.strategies.ABChooser`, give it its expected grade, bound Delta
nDCG@K
of its query again (:func:`~ndcg_studio.domain.verdict.bounds.query_delta_bounds`), and stop at the
first step where the mean of the evaluated queries' lower bounds is > 0 or that of the upper
bounds < 0, by more than :data:`~ndcg_studio.domain.verdict.bounds.ROUNDING_MARGIN` (the sums
of the contiguous arrays, as NumPy adds them).

The walk, block by block (a block of proposals does not depend on the bounds, only on the
grades the chooser is given): the new bounds of every step of a block at once (each step's
query with the grades revealed up to that step: the relaxation of
:mod:`~ndcg_studio.domain.verdict.batch` for all of them, or the exact bound step by step for
integer grades), running sums of the changes, and the exact sums of the arrays only at the
steps where the running sums are within their rounding error of deciding; with the relaxation,
only a side that can still decide is bounded (:meth:`_Walk.sides`). One step of the
plain loop re-bounded one query in Python and summed 100,000 values; at 100,000 queries
(bench_gui_scale Compare) the pool may need a million steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling.strategies import ABChooser, Pool, discounts
from ndcg_studio.domain.verdict.batch import PaddedRows, gain_order, upper_relaxed_matrix
from ndcg_studio.domain.verdict.bounds import (
    ROUNDING_MARGIN,
    ROUNDS,
    DeltaBounds,
    VerdictInputs,
    excludes_zero,
    query_starts,
    upper_one,
)
from ndcg_studio.domain.verdict.order import ab_walk_order
from ndcg_studio.progress import Cancelled, OperationCancelled

__all__ = ["settle_steps"]

_F64 = np.float64
_T = TypeVar("_T", bound=np.generic)
#: the first block of proposals; blocks double up to :data:`_MAX_BLOCK`
_FIRST_BLOCK = 256
_MAX_BLOCK = 1 << 13
#: how far beyond the margin the mean Delta at the final grades must lie for a side of the
#: walk to be left out (:meth:`_Walk.sides`): far above the rounding of a mean of bounds in
#: [-1, 1]
_CUSHION = 1e-9


def settle_steps(
    inputs: VerdictInputs,
    expected: NDArray[np.float64],
    bounds: DeltaBounds,
    *,
    cancelled: Cancelled | None = None,
) -> int | None:
    """The number of judgments after which the verdict is decided (0: already), None when
    the whole pool would not decide it.

    Args:
        inputs: a pool of two runs (0 = A, 1 = B), its grades (NaN = not judged), K and the
            grade scale.
        expected: (P,) float64 the grade each unjudged document is assumed to get.
        bounds: the bounds of every query for those grades
            (:func:`~ndcg_studio.domain.verdict.bounds.delta_bounds`), with the queries in the
            mean.

    Raises:
        OperationCancelled: ``cancelled()`` became true.
    """
    pool, grades, k = inputs.pool, inputs.grades, inputs.k
    max_grade, integer_grades = inputs.max_grade, inputs.integer_grades
    low, high, evaluated = bounds.low, bounds.high, bounds.evaluated
    queries = np.flatnonzero(evaluated)
    n = len(queries)
    slot = np.full(pool.n_queries, -1, dtype=np.intp)
    slot[queries] = np.arange(n)
    lo, hi = low[queries].copy(), high[queries].copy()
    if _decided(lo, hi, n):
        return 0
    # the order first, the walk's matrices after it (peak RSS of the verdict,
    # bench_gui_scale Compare)
    propose = _proposals(pool, np.asarray(grades, dtype=_F64), np.asarray(expected, dtype=_F64), k)
    walk = _Walk(pool, np.asarray(grades, dtype=_F64), expected, k, max_grade, integer_grades)
    sides = walk.sides(queries)
    if not any(sides):
        return None
    used, block = 0, _FIRST_BLOCK
    while True:
        if cancelled is not None and cancelled():
            raise OperationCancelled("cancelled")
        props = propose(used, block)
        if not len(props):
            return None
        slots = slot[pool.query[props]]
        new_lo, new_hi = walk.advance(props, expected[props], used, sides)
        # a side not computed keeps its values (slot -1: a query not in the mean, left out)
        new_lo = lo[slots] if new_lo is None else new_lo
        new_hi = hi[slots] if new_hi is None else new_hi
        j = _first_decided(lo, hi, _Steps(slots, new_lo, new_hi), n)
        if j is not None:
            return used + j + 1
        used += len(props)
        block = min(2 * block, _MAX_BLOCK)


def _proposals(
    pool: Pool, grades: NDArray[np.float64], expected: NDArray[np.float64], k: int
) -> Callable[[int, int], NDArray[np.intp]]:
    """``propose(used, n)``: the ``ab`` order's proposals ``used`` to ``used + n`` (fewer at
    its end), the grades of the walk known in advance: one sort
    (:func:`~ndcg_studio.domain.verdict.order.ab_walk_order`), else the chooser's heap."""
    order = ab_walk_order(pool, grades, expected, k)
    if order is not None:
        found = order
        return lambda used, n: found[used : used + n]
    chooser = ABChooser(pool, k=k, pairs=[(0, 1)])
    judged = np.flatnonzero(~np.isnan(grades))
    for doc, grade in zip(judged.tolist(), grades[judged].tolist(), strict=True):
        chooser.reveal(doc, grade)
    expected_list = expected.tolist()
    return lambda _used, n: np.asarray(chooser.walk(expected_list, n), dtype=np.intp)


def _decided(lo: NDArray[np.float64], hi: NDArray[np.float64], n: int) -> bool:
    """The plain loop's test, on the evaluated queries' bounds side by side."""
    return excludes_zero(float(lo.sum() / n), float(hi.sum() / n))


class _Walk:
    """The grades of the walk so far and when each document got its grade (its step); each
    query's documents as one row of (n_queries, W) matrices (pool order, padded)."""

    def __init__(
        self,
        pool: Pool,
        grades: NDArray[np.float64],
        expected: NDArray[np.float64],
        k: int,
        top: float,
        integer: bool,
    ) -> None:
        self.pool, self.k, self.top, self.integer = pool, k, top, integer
        starts = query_starts(pool)
        sizes = np.diff(starts)
        width = int(sizes.max(initial=0))
        self.real = np.arange(width)[None, :] < sizes[:, None]
        # each document's cell of the (n_queries, W) matrices: a step gathers its query's row
        # (a copy of W values) rather than W scattered values (bench_gui_scale.py Compare)
        query = np.asarray(pool.query, dtype=np.intp)
        self.cell = np.arange(pool.size) - starts[query] + query * width
        self.w = self._rows(discounts(pool.rank[0], k) - discounts(pool.rank[1], k), 0.0)
        # every grade a document of the walk can have is its final one (judged, or expected
        # when walked), so one order of each query's final gains orders the known ones of
        # every step (batch.gain_order): sorted once per query, not per step
        final = self._rows(np.fmax(np.where(np.isnan(grades), expected, grades), 0.0), 0.0)
        self.by_gain = gain_order(final, self.real)
        self.final_delta = self._delta(final)
        del final
        self.gain = self._rows(np.fmax(grades, 0.0), 0.0)  # NaN -> 0
        # judged before the walk: step -1; never: a step after every other (int32: a pool
        # has fewer documents)
        never = np.iinfo(np.int32).max
        self.step = self._rows(np.where(np.isnan(grades), never, -1).astype(np.int32), never)
        self.g = self._rows(grades, np.nan) if integer else None  # the exact bound's grades

    def _rows(self, values: NDArray[_T], fill: float) -> NDArray[_T]:
        """(n_queries, W) ``values`` (P,) in their cells, ``fill`` in the padding."""
        out = np.full(self.real.shape, fill, dtype=values.dtype)
        out.reshape(-1)[self.cell] = values
        return out

    def _delta(self, gains: NDArray[np.float64]) -> NDArray[np.float64]:
        """(n_queries,) Delta nDCG@K of each query at the (n_queries, W) ``gains``, up to
        rounding (:meth:`sides` allows for it)."""
        num = (self.w * gains).sum(axis=1)
        top = -np.sort(-gains, axis=1)[:, : self.k]
        ideal = top @ (1.0 / np.log2(np.arange(2, top.shape[1] + 2, dtype=_F64)))
        return np.where(ideal > 0, num / np.where(ideal > 0, ideal, 1.0), 0.0)

    def sides(self, queries: NDArray[np.intp]) -> tuple[bool, bool]:
        """Whether the mean over ``queries`` of the lower bounds, and that of the upper
        bounds, can still decide.

        Each step's box of grades holds the final grades of the walk (the judged ones, and
        the expected ones of every unjudged document), so every query's sound bounds of the
        relaxation hold its Delta D at those grades all along: low <= D <= high. The mean of
        the lower bounds then never exceeds mean(D), nor that of the upper bounds falls
        below it: a side on the wrong side of the margin is never computed (half the walk's
        bounds, bench_gui_scale.py Compare); the cushion covers the rounding of both. The
        exact bound of integer grades does not hold D (expected grades are fractional): both
        sides."""
        if self.integer:
            return True, True
        mean = float(self.final_delta[queries].mean())
        return mean > ROUNDING_MARGIN - _CUSHION, mean < -ROUNDING_MARGIN + _CUSHION

    def advance(
        self,
        props: NDArray[np.intp],
        grades: NDArray[np.float64],
        first_step: int,
        sides: tuple[bool, bool] = (True, True),
    ) -> tuple[NDArray[np.float64] | None, NDArray[np.float64] | None]:
        """Give ``props`` (steps ``first_step``, ``first_step + 1``, …) their grades; the
        (low, high) bounds of each step's query right after that step, each None when its
        side is not wanted (``sides``: low, high; the exact bound computes both)."""
        steps = first_step + np.arange(len(props), dtype=np.int64)
        cell = self.cell[props]
        self.step.reshape(-1)[cell] = steps
        if self.g is not None:
            self.g.reshape(-1)[cell] = grades
        self.gain.reshape(-1)[cell] = np.maximum(grades, 0.0)
        q = self.pool.query[props]
        # np.take of whole rows, not indexing: a few times faster on these short rows
        # (bench_gui_scale.py Compare)
        real = np.take(self.real, q, axis=0)
        known = np.take(self.step, q, axis=0) <= steps[:, None]
        gains = np.take(self.gain, q, axis=0) * known
        w = np.take(self.w, q, axis=0)
        if not self.integer:
            a_over_b = PaddedRows(w, gains, known, real, np.take(self.by_gain, q, axis=0))
            b_over_a = replace(a_over_b, w=-w)
            bound = (self.k, self.top, ROUNDS)
            high = upper_relaxed_matrix(a_over_b, *bound) if sides[1] else None
            low = -upper_relaxed_matrix(b_over_a, *bound) if sides[0] else None
            return low, high
        assert self.g is not None
        return self._exact(w, np.where(known, np.take(self.g, q, axis=0), np.nan), real)

    def _exact(
        self, w: NDArray[np.float64], g: NDArray[np.float64], real: NDArray[np.bool_]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``query_delta_bounds`` of each step (a row), one by one (the exact enumeration)."""
        n = len(w)
        low, high = np.zeros(n), np.zeros(n)
        for r in range(n):
            wr, gr = w[r, real[r]], g[r, real[r]]
            known = ~np.isnan(gr)
            gk = np.maximum(gr[known], 0.0)
            high[r] = upper_one(wr[known], gk, wr[~known], self.k, self.top, True)
            low[r] = -upper_one(-wr[known], gk, -wr[~known], self.k, self.top, True)
        return low, high


@dataclass(frozen=True)
class _Steps:
    """The steps of a block, in order: each step's slot in the mean (-1: its query is not in
    it) and its query's (low, high) bounds right after it; (B,) intp, (B,) float64 and (B,)
    float64. Sliced together: a run of steps is a ``_Steps`` too."""

    slots: NDArray[np.intp]
    lo: NDArray[np.float64]
    hi: NDArray[np.float64]

    def __getitem__(self, at: slice | NDArray[np.bool_]) -> _Steps:
        return _Steps(self.slots[at], self.lo[at], self.hi[at])


def _first_decided(
    lo: NDArray[np.float64], hi: NDArray[np.float64], steps: _Steps, n: int
) -> int | None:
    """The first step j of a block after which the plain loop's test holds (``lo`` / ``hi``
    then hold the state after step j), else None (they hold the state after the block).

    Running sums of the changes find the candidates: a step whose running sums are farther
    from deciding than their rounding error cannot decide; at the others the arrays are
    brought to that step and summed as the plain loop sums them."""
    inside = steps.slots >= 0
    index = np.flatnonzero(inside)
    steps = steps[inside]
    by_slot = _BySlot(steps.slots)  # one sort for both sides and the block's last step
    prev_lo, prev_hi = by_slot.previous(lo, steps.lo), by_slot.previous(hi, steps.hi)
    d_lo, d_hi = steps.lo - prev_lo, steps.hi - prev_hi
    run_lo = float(lo.sum()) + np.cumsum(d_lo)
    run_hi = float(hi.sum()) + np.cumsum(d_hi)
    # a generous bound of the rounding of both ways of summing (each addition errs by at
    # most eps times the sum of the magnitudes added so far)
    scale = float(np.abs(lo).sum() + np.abs(hi).sum() + np.abs(d_lo).sum() + np.abs(d_hi).sum())
    tol = 4.0 * (len(steps.slots) + math.log2(n + 1) + 8) * np.finfo(_F64).eps * scale
    undecided = (run_lo < -tol) & (run_hi > tol)
    applied = 0
    for j in np.flatnonzero(~undecided).tolist():
        _apply(lo, hi, steps[applied : j + 1])
        applied = j + 1
        if _decided(lo, hi, n):
            return int(index[j])
    if applied:
        _apply(lo, hi, steps[applied:])
    else:
        by_slot.apply(lo, hi, steps)
    return None


def _apply(lo: NDArray[np.float64], hi: NDArray[np.float64], steps: _Steps) -> None:
    """Bring ``lo`` / ``hi`` to after the ``steps`` (in order): each slot takes its last
    step's values (one assignment, not a Python loop over the steps)."""
    _, first = np.unique(steps.slots[::-1], return_index=True)
    last = len(steps.slots) - 1 - first
    lo[steps.slots[last]], hi[steps.slots[last]] = steps.lo[last], steps.hi[last]


class _BySlot:
    """The steps of a block (their slots (B,) intp, >= 0) ordered by slot, then step: one
    sort of the (slot, step) pairs packed into int64, where a stable argsort of the slots
    cost more, twice per block (bench_gui_scale.py Compare)."""

    def __init__(self, slots: NDArray[np.intp]) -> None:
        shift = max(len(slots) - 1, 1).bit_length()
        key = slots.astype(np.int64) << shift
        key |= np.arange(len(slots), dtype=np.int64)
        key.sort()  # distinct keys: the stable order
        self.order = key & ((1 << shift) - 1)  # the steps, by slot then step
        self.slots = key >> shift  # their slots
        # the last step of each slot in that order
        ends = np.append(self.slots[1:] != self.slots[:-1], len(slots) > 0)
        self.last = np.flatnonzero(ends)

    def previous(
        self, values: NDArray[np.float64], new: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        """Each step's value of its slot just before the step: the previous step's ``new``
        value in the same slot, else ``values`` (the value before the block)."""
        order, s = self.order, self.slots
        prev: NDArray[np.float64] = values[s]
        same = np.flatnonzero(s[1:] == s[:-1]) + 1
        prev[same] = new[order][same - 1]
        out: NDArray[np.float64] = np.empty_like(prev)
        out[order] = prev
        return out

    def apply(self, lo: NDArray[np.float64], hi: NDArray[np.float64], steps: _Steps) -> None:
        """:func:`_apply` of all the steps (the ones this order was made of)."""
        last, slots = self.order[self.last], self.slots[self.last]
        lo[slots], hi[slots] = steps.lo[last], steps.hi[last]
