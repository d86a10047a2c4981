"""Which of two runs is better, from an incomplete pool of judgments (pure numpy).

Scores follow trec_eval ``ndcg_cut.K`` restricted to a pool (:class:`~.pooling.Pool`): linear
gain (gain = grade, negative grades gain 0), discount 1/log2(rank + 1) for ranks 1..K, and the
ideal DCG from the grades of ALL judged pooled documents of the query, cut at K; nDCG = 0 when
that ideal is 0. Documents outside the pool count as unjudged (gain 0), exactly like the
normal scoring (:func:`ndcg_studio.domain.metrics.measures.score`) with qrels restricted to the
pool.

Grades are a (P,) float64 array over the pool, NaN for a document not judged yet. Unjudged
pooled documents may still receive any grade 0..``max_grade`` (default 4).

:func:`delta_bounds` gives a SOUND interval of Delta nDCG@K = nDCG(A) - nDCG(B) per query over
every grade assignment of the unjudged documents, and its mean over the queries (queries are
independent, so the mean of the per-query intervals is the interval of the mean). The estimates
(:func:`expected_grades`, :func:`probability_a_better`, :func:`ndcg_matrix`) live in
:mod:`ndcg_studio.domain.verdict.estimates` and are re-exported here.

How the bound is found. For one query write w_p = disc_A(p) - disc_B(p) (discounts 0 beyond K
or when not returned), N(x) = sum_p w_p gain_p (Delta DCG) and I(x) the ideal DCG of all pooled
gains (judged ones fixed, unjudged ones x); Delta nDCG = N/I (0 when I = 0). The upper bound
(the lower one is minus the upper bound of B - A) is

* EXACT for integer grades 0..max_grade when at most 16 documents vary (:func:`_upper_exact`):
  exchange arguments show a maximiser sets the documents of one sign of w to a fixed grade and
  is non-increasing in w on the others, leaving C(n + 4, 4) assignments to score. Only
  documents within the top K of A or B have w != 0, so with K <= 16 this always applies.
* otherwise a sound relaxation over x in [0, max_grade] (:func:`_upper_relaxed`): if no
  assignment makes N positive, N/I <= N_hi / I_hi (every N <= N_hi <= 0, every I <= I_hi);
  else, for ANY assignment pi of the K ideal discounts to distinct documents, L_pi(x) = sum of
  discount_pi(p) gain_p <= I(x) (the ideal order is the best one), so N/I <= N/L_pi where
  N > 0, and max (c + w.x)/(a + e.x) over the box is a linear-fractional program solved
  exactly by trying the prefixes in w/e order (Dinkelbach); the smallest over a few pi (the
  ideal order of the judged gains, then of each maximiser found) is kept, capped at 1.

Both are checked against every assignment of small random pools
(tests/domain/test_verdict.py): the exact one for equality, the relaxation for containment.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.ideal import ideal_dcg
from ndcg_studio.domain.pooling.strategies import Pool, discounts
from ndcg_studio.domain.verdict.batch import upper_relaxed_rows

__all__ = ["DeltaBounds", "delta_bounds", "query_delta_bounds", "query_starts"]

_F64 = np.float64
#: rounds of the assignment refinement in :func:`_upper_relaxed` (each round can only tighten)
ROUNDS = 4
#: most grade vectors :func:`_upper_exact` enumerates (C(n + 4, 4) for n varied documents and
#: grades 0..4: up to 16 documents); beyond, the relaxation bound is used
_MAX_ENUMERATION = 5000


def query_starts(pool: Pool) -> NDArray[np.intp]:
    """(n_queries + 1,) intp offsets: query q's documents are ``starts[q]:starts[q + 1]`` of the
    pool (its ``query`` is sorted). One pass over the pool; callers bounding many queries
    compute it once (a search per query made 100,000 queries quadratic, bench_gui_scale
    Compare)."""
    starts = np.zeros(pool.n_queries + 1, dtype=np.intp)
    counts = np.bincount(np.asarray(pool.query, dtype=np.intp), minlength=pool.n_queries)
    np.cumsum(counts[: pool.n_queries], out=starts[1:])
    return starts


def _ratio_under_assignment(
    c: float, a: float, w: NDArray[np.float64], e: NDArray[np.float64], top: float
) -> tuple[float, NDArray[np.float64]]:
    """max over x in [0, top]^n of (c + w.x) / (a + e.x) for w > 0, e >= 0, and a maximiser.

    A linear-fractional program over a box: the maximum lies at a vertex, and by Dinkelbach's
    condition (x_i = top iff w_i > r* e_i) its set of x_i = top is a prefix of the items
    sorted by w_i / e_i descending (e_i = 0 first); every prefix is tried. inf when some
    prefix has a positive numerator over a zero denominator (this assignment bounds nothing).
    """
    ratio = np.full(len(w), np.inf)
    pos = e > 0
    ratio[pos] = w[pos] / e[pos]
    order = np.argsort(-ratio, kind="stable")
    num = c + top * np.concatenate([[0.0], np.cumsum(w[order])])
    den = a + top * np.concatenate([[0.0], np.cumsum(e[order])])
    if np.any((den <= 0) & (num > 0)):
        return math.inf, np.full(len(w), top)
    valid = den > 0
    if not valid.any():
        return 0.0, np.zeros(len(w))
    values = np.where(valid, num / np.where(valid, den, 1.0), -np.inf)
    j = int(np.argmax(values))
    x = np.zeros(len(w))
    x[order[:j]] = top
    return float(values[j]), x


def upper_one(
    w_known: NDArray[np.float64],
    g_known: NDArray[np.float64],
    w_unknown: NDArray[np.float64],
    k: int,
    top: float,
    integer_grades: bool = True,
) -> float:
    """Upper bound of max_x N(x)/I(x) for one query (see :func:`delta_bounds`): exact by
    enumeration when the grades are the integers 0..top and few documents vary, else the
    relaxation bound."""
    if integer_grades:
        exact = _upper_exact(w_known, g_known, w_unknown, k, top)
        if exact is not None:
            return exact
    return _upper_relaxed(w_known, g_known, w_unknown, k, top)


@functools.cache
def _grade_vectors(n: int, levels: int) -> NDArray[np.float64]:
    """(C(n + levels, levels), n) float64, read-only: every non-increasing vector of n grades
    in levels..0. Cached: building it per query was most of :func:`delta_bounds` at 100,000
    queries (bench_gui_scale Compare)."""
    combos = list(itertools.combinations_with_replacement(range(levels, -1, -1), n))
    x = np.array(combos, dtype=_F64).reshape(len(combos), n)
    x.flags.writeable = False
    return x


def _upper_exact(
    w_known: NDArray[np.float64],
    g_known: NDArray[np.float64],
    w_unknown: NDArray[np.float64],
    k: int,
    top: float,
) -> float | None:
    """The exact max of Delta over integer grades 0..top, or None when too many to enumerate.

    Exchange arguments cut the 5^n assignments down to C(n + 4, 4):

    * I depends only on the multiset of gains; giving the larger of two grades to the
      document of larger w never lowers N, so some maximiser is non-increasing in w.
    * If some assignment makes N > 0 (N_hi > 0), the maximum is positive: documents with
      w <= 0 at 0 (N does not drop, I does not grow); only the w > 0 documents vary.
    * Otherwise every ratio is <= 0 and the best is the closest to 0: documents with w >= 0 at
      the top grade (N and I grow); only the w < 0 documents vary.

    At most K documents have w > 0 (and at most K have w < 0): they must lie in A's (B's) top K.
    """
    if top != int(top) or top < 0:
        return None
    levels = int(top)
    c = float(np.dot(w_known, g_known))
    n_hi = c + top * float(np.maximum(w_unknown, 0.0).sum())
    if n_hi > 0:
        vary = np.sort(w_unknown[w_unknown > 0])[::-1]
        fixed = np.zeros(0)
    else:
        vary = np.sort(w_unknown[w_unknown < 0])[::-1]
        fixed_w = w_unknown[w_unknown >= 0]
        c += top * float(fixed_w.sum())
        fixed = np.full(min(len(fixed_w), k), top)
    n = len(vary)
    if math.comb(n + levels, levels) > _MAX_ENUMERATION:
        return None
    x = _grade_vectors(n, levels)
    num = c + x @ vary
    base = np.concatenate([np.sort(g_known)[::-1][:k], fixed])
    gains = np.concatenate([np.broadcast_to(base, (len(x), len(base))), x], axis=1)
    gains = -np.sort(-gains, axis=1)[:, :k]
    ideal = gains @ discounts(np.arange(1, gains.shape[1] + 1), k)
    ratio = np.where(ideal > 0, num / np.where(ideal > 0, ideal, 1.0), 0.0)
    return float(ratio.max())


def _upper_relaxed(
    w_known: NDArray[np.float64],
    g_known: NDArray[np.float64],
    w_unknown: NDArray[np.float64],
    k: int,
    top: float,
) -> float:
    """Sound upper bound of max_x N(x)/I(x) over x in [0, top]^n (continuous relaxation)."""
    c = float(np.dot(w_known, g_known))
    n_hi = c + top * float(np.maximum(w_unknown, 0.0).sum())
    if n_hi <= 0:
        # Every assignment has N <= n_hi <= 0 and I <= I_hi: N/I <= n_hi/I_hi. When the ideal
        # can be 0 (nothing relevant known), c = 0 = n_hi and Delta = 0 there.
        gains = np.concatenate([g_known, np.full(len(w_unknown), top)])
        i_hi = float(ideal_dcg(np.zeros(len(gains), dtype=np.int64), gains, None, 1, k)[0])
        return n_hi / i_hi if i_hi > 0 else 0.0
    # Positive case: documents with w <= 0 at grade 0 only help (N up, I down).
    w = w_unknown[w_unknown > 0]
    d = discounts(np.arange(1, k + 1), k)
    best = math.inf
    x = np.zeros(len(w))
    seen: set[bytes] = set()
    for _ in range(ROUNDS):
        key = x.tobytes()
        if key in seen:
            break
        seen.add(key)
        # assignment pi: ideal order of (known gains, x); ties: known first, then larger w
        gains = np.concatenate([g_known, x])
        tiebreak = np.concatenate([np.full(len(g_known), np.inf), w])
        order = np.lexsort((-tiebreak, -gains))[:k]
        e_all = np.zeros(len(gains))
        e_all[order] = d[: len(order)]
        a = float(np.dot(e_all[: len(g_known)], g_known))
        e = e_all[len(g_known) :]
        r, x = _ratio_under_assignment(c, a, w, e, top)
        best = min(best, r)
        # the maximiser under this assignment proposes the next assignment
    return min(best, 1.0)


@dataclass(frozen=True, eq=False)
class VerdictInputs:
    """One pair of runs on a pool, as every verdict function reads it.

    Attributes:
        pool: the pool of the runs' top documents (:class:`~ndcg_studio.domain.pooling.
            strategies.Pool`).
        grades: (P,) float64 grades of the pooled documents so far, NaN = not judged yet.
        k: the cutoff K of nDCG@K (>= 1).
        run_a, run_b: the two runs' indices in the pool; differences are A - B.
        max_grade: the largest grade an unjudged document may receive.
        integer_grades: unjudged documents receive integer grades (one annotator). False when
            a hidden grade may be fractional (a mean consensus of several annotators): then
            only the relaxation over [0, max_grade] is sound and it is used.
    """

    pool: Pool
    grades: NDArray[np.float64]
    k: int
    run_a: int = 0
    run_b: int = 1
    max_grade: float = 4.0
    integer_grades: bool = True


#: how far from 0 a bound of the mean Delta nDCG@K must be to count as excluding it: two
#: lists of different documents with the same grades at the same ranks have Delta 0, but the
#: sum of w * gain over their documents can round to +-1e-17; no real difference of nDCG
#: values in [0, 1] is this small.
ROUNDING_MARGIN = 1e-12


def excludes_zero(mean_low: float, mean_high: float) -> bool:
    """The interval [mean_low, mean_high] of the mean Delta nDCG@K lies on one side of 0, by
    more than :data:`ROUNDING_MARGIN` (the verdict's "decided")."""
    return mean_low > ROUNDING_MARGIN or mean_high < -ROUNDING_MARGIN


@dataclass(frozen=True, eq=False)
class DeltaBounds:
    """Sound bounds of Delta nDCG@K = nDCG(A) - nDCG(B).

    Attributes:
        low, high: (n_queries,) float64 per-query bounds, low <= every reachable Delta <= high.
        evaluated: (n_queries,) bool queries counted in the mean.
        mean_low, mean_high: bounds of the mean over the evaluated queries.
    """

    low: NDArray[np.float64]
    high: NDArray[np.float64]
    evaluated: NDArray[np.bool_]
    mean_low: float
    mean_high: float

    @property
    def decided(self) -> bool:
        """The interval of the mean excludes 0: no grade of the unjudged documents can flip it."""
        return excludes_zero(self.mean_low, self.mean_high)


def query_delta_bounds(
    inputs: VerdictInputs, q: int, *, starts: NDArray[np.intp] | None = None
) -> tuple[float, float]:
    """(low, high) of Delta nDCG@K of query ``q``; see :func:`delta_bounds`. ``starts``: the
    pool's :func:`query_starts`, passed by callers that bound many queries."""
    pool, grades, k = inputs.pool, inputs.grades, inputs.k
    run_a, run_b = inputs.run_a, inputs.run_b
    max_grade, integer_grades = inputs.max_grade, inputs.integer_grades
    if starts is None:
        starts = query_starts(pool)
    lo, hi = int(starts[q]), int(starts[q + 1])
    g = np.asarray(grades, dtype=_F64)[lo:hi]
    w = discounts(pool.rank[run_a, lo:hi], k) - discounts(pool.rank[run_b, lo:hi], k)
    known = ~np.isnan(g)
    gk = np.maximum(g[known], 0.0)
    upper = upper_one(w[known], gk, w[~known], k, max_grade, integer_grades)
    lower = -upper_one(-w[known], gk, -w[~known], k, max_grade, integer_grades)
    return lower, upper


def delta_bounds(
    inputs: VerdictInputs, *, evaluated: NDArray[np.bool_] | None = None
) -> DeltaBounds:
    """Interval of Delta nDCG@K (A - B) over EVERY grade 0..max_grade of the unjudged documents.

    Exact per query for integer grades and at most 16 varying documents, else a sound
    relaxation (the method and its proof are in the module docstring).

    Args:
        inputs: the pool, its grades, the two runs, K and the grade scale.
        evaluated: (n_queries,) bool queries in the mean (default: queries with a pooled
            document).

    Raises:
        ValueError: no evaluated query.
    """
    pool, grades, k = inputs.pool, inputs.grades, inputs.k
    run_a, run_b, max_grade = inputs.run_a, inputs.run_b, inputs.max_grade
    if evaluated is None:
        evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    if not evaluated.any():
        raise ValueError("no query to evaluate")
    if inputs.integer_grades:
        low, high = np.zeros(pool.n_queries), np.zeros(pool.n_queries)
        starts = query_starts(pool)
        for q in np.flatnonzero(evaluated).tolist():
            low[q], high[q] = query_delta_bounds(inputs, q, starts=starts)
    else:
        # the relaxation of every query at once (verdict_batch): the same bounds as one by one
        inside = evaluated[pool.query]
        # views, not copies, when every pooled document counts; w and -w in place (peak RSS
        # of the verdict, bench_gui_scale Compare)
        keep: NDArray[np.bool_] | slice = slice(None) if inside.all() else inside
        row = np.asarray(pool.query[keep], dtype=np.intp)
        g = np.asarray(grades, dtype=_F64)[keep]
        w = discounts(pool.rank[run_a, keep], k)
        w -= discounts(pool.rank[run_b, keep], k)
        high = upper_relaxed_rows(row, w, g, pool.n_queries, k, max_grade, ROUNDS)
        np.negative(w, out=w)
        low = -upper_relaxed_rows(row, w, g, pool.n_queries, k, max_grade, ROUNDS)
    return DeltaBounds(
        low=low,
        high=high,
        evaluated=evaluated,
        mean_low=float(low[evaluated].mean()),
        mean_high=float(high[evaluated].mean()),
    )
