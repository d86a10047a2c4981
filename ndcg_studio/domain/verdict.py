"""Which of two runs is better, from an incomplete pool of judgments (pure numpy).

Scores follow trec_eval ``ndcg_cut.K`` restricted to a pool (:class:`~.pooling.Pool`): linear
gain (gain = grade, negative grades gain 0), discount 1/log2(rank + 1) for ranks 1..K, and the
ideal DCG from the grades of ALL judged pooled documents of the query, cut at K; nDCG = 0 when
that ideal is 0. Documents outside the pool count as unjudged (gain 0), exactly like the
normal scoring (:func:`ndcg_studio.domain.metrics.score`) with qrels restricted to the pool.

Grades are a (P,) float64 array over the pool, NaN for a document not judged yet. Unjudged
pooled documents may still receive any grade 0..``max_grade`` (default 4).

* :func:`delta_bounds` — a SOUND interval of Delta nDCG@K = nDCG(A) - nDCG(B) per query over
  every grade assignment of the unjudged documents, and its mean over the queries (queries are
  independent, so the mean of the per-query intervals is the interval of the mean).
* :func:`expected_grades`, :func:`ndcg_matrix` — the current best estimate: unjudged documents
  at the mean known grade at similar ranks, or at 0 in queries whose judgments are taken as
  complete (judged apart from this pool, read as trec_eval reads qrels).
* :func:`probability_a_better` — an ESTIMATE (not a bound) of P(mean nDCG A > mean nDCG B):
  unjudged grades drawn from the known grades at similar ranks (Carterette, Allan &
  Sitaraman, SIGIR 2006, doi:10.1145/1148170.1148219: the distribution of relevance at a rank
  estimated from judged documents), seeded Monte Carlo.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics import ideal_dcg
from ndcg_studio.domain.pooling import Pool, discounts

__all__ = [
    "DeltaBounds",
    "delta_bounds",
    "expected_grades",
    "ndcg_matrix",
    "probability_a_better",
    "rank_buckets",
]

_F64 = np.float64
#: rounds of the assignment refinement in :func:`_upper_relaxed` (each round can only tighten)
_ROUNDS = 4
#: most grade vectors :func:`_upper_exact` enumerates (C(n + 4, 4) for n varied documents and
#: grades 0..4: up to 16 documents); beyond, the relaxation bound is used
_MAX_ENUMERATION = 5000


def _query_starts(pool: Pool) -> NDArray[np.intp]:
    return np.searchsorted(pool.query, np.arange(pool.n_queries + 1))


def ndcg_matrix(pool: Pool, grades: NDArray[np.float64], k: int) -> NDArray[np.float64]:
    """nDCG@K of every run on every query for COMPLETE grades.

    Args:
        grades: (P,) float64 finite grade of every pooled document (fractional allowed).
        k: cutoff K >= 1.

    Returns:
        (n_runs, n_queries) float64; 0 where the ideal DCG is 0 (queries without pooled
        documents included).
    """
    g = np.maximum(np.asarray(grades, dtype=_F64), 0.0)
    if not np.isfinite(g).all():
        raise ValueError("ndcg_matrix needs a grade for every pooled document (no NaN)")
    disc = discounts(pool.rank, k)
    dcg = (
        np.stack(
            [
                np.bincount(pool.query, weights=disc[r] * g, minlength=pool.n_queries)
                for r in range(pool.n_runs)
            ]
        )
        if pool.n_runs
        else np.zeros((0, pool.n_queries))
    )
    idcg = ideal_dcg(pool.query, g, None, pool.n_queries, k)
    out = np.zeros(dcg.shape, dtype=_F64)
    ok = idcg > 0
    out[:, ok] = dcg[:, ok] / idcg[ok]
    return out


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


def _upper_one(
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
    combos = list(itertools.combinations_with_replacement(range(levels, -1, -1), n))
    x = np.array(combos, dtype=_F64).reshape(len(combos), n)
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
    for _ in range(_ROUNDS):
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
        return self.mean_low > 0 or self.mean_high < 0


def query_delta_bounds(
    pool: Pool,
    grades: NDArray[np.float64],
    run_a: int,
    run_b: int,
    k: int,
    q: int,
    *,
    max_grade: float = 4.0,
    integer_grades: bool = True,
) -> tuple[float, float]:
    """(low, high) of Delta nDCG@K of query ``q``; see :func:`delta_bounds`."""
    starts = _query_starts(pool)
    lo, hi = int(starts[q]), int(starts[q + 1])
    g = np.asarray(grades, dtype=_F64)[lo:hi]
    w = discounts(pool.rank[run_a, lo:hi], k) - discounts(pool.rank[run_b, lo:hi], k)
    known = ~np.isnan(g)
    gk = np.maximum(g[known], 0.0)
    upper = _upper_one(w[known], gk, w[~known], k, max_grade, integer_grades)
    lower = -_upper_one(-w[known], gk, -w[~known], k, max_grade, integer_grades)
    return lower, upper


def delta_bounds(
    pool: Pool,
    grades: NDArray[np.float64],
    run_a: int,
    run_b: int,
    k: int,
    *,
    max_grade: float = 4.0,
    integer_grades: bool = True,
    evaluated: NDArray[np.bool_] | None = None,
) -> DeltaBounds:
    """Interval of Delta nDCG@K (A - B) over EVERY grade 0..max_grade of the unjudged documents.

    For one query write w_p = disc_A(p) - disc_B(p) (discounts 0 beyond K or when not
    returned), N(x) = sum_p w_p gain_p (Delta DCG) and I(x) the ideal DCG of all pooled gains
    (judged ones fixed, unjudged ones x); Delta nDCG = N/I (0 when I = 0). The upper bound
    (the lower one is minus the upper bound of B - A) is

    * EXACT for integer grades 0..max_grade (``integer_grades``) when at most 16 documents vary
      (:func:`_upper_exact`): exchange arguments show a maximiser sets the documents of one
      sign of w to a fixed grade and is non-increasing in w on the others, leaving
      C(n + 4, 4) assignments to score. Only documents within the top K of A or B have
      w != 0, so with K <= 16 this always applies.
    * otherwise a sound relaxation over x in [0, max_grade] (:func:`_upper_relaxed`):
      if no assignment makes N positive, N/I <= N_hi / I_hi (every N <= N_hi <= 0, every
      I <= I_hi); else, for ANY assignment pi of the K ideal discounts to distinct documents,
      L_pi(x) = sum of discount_pi(p) gain_p <= I(x) (the ideal order is the best one), so
      N/I <= N/L_pi where N > 0, and max (c + w.x)/(a + e.x) over the box is a
      linear-fractional program solved exactly by trying the prefixes in w/e order
      (Dinkelbach); the smallest over a few pi (the ideal order of the judged gains, then of
      each maximiser found) is kept, capped at 1.

    Both are checked against every assignment of small random pools
    (tests/domain/test_verdict.py): the exact one for equality, the relaxation for
    containment.

    Args:
        grades: (P,) float64 grades, NaN = not judged yet.
        run_a, run_b: run indices.
        max_grade: the largest grade an unjudged document may receive.
        integer_grades: unjudged documents receive integer grades (one annotator). False when
            a hidden grade may be fractional (a mean consensus of several annotators): then
            only the relaxation over [0, max_grade] is sound and it is used.
        evaluated: (n_queries,) bool queries in the mean (default: queries with a pooled
            document).

    Raises:
        ValueError: no evaluated query.
    """
    if evaluated is None:
        evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    low = np.zeros(pool.n_queries)
    high = np.zeros(pool.n_queries)
    for q in np.flatnonzero(evaluated):
        low[q], high[q] = query_delta_bounds(
            pool,
            grades,
            run_a,
            run_b,
            k,
            int(q),
            max_grade=max_grade,
            integer_grades=integer_grades,
        )
    if not evaluated.any():
        raise ValueError("no query to evaluate")
    return DeltaBounds(
        low=low,
        high=high,
        evaluated=evaluated,
        mean_low=float(low[evaluated].mean()),
        mean_high=float(high[evaluated].mean()),
    )


def rank_buckets(pool: Pool) -> NDArray[np.int64]:
    """(P,) int64 bucket of each pooled document by its best rank over the runs:
    ceil(log2(rank)): 0 for rank 1, 1 for 2, 2 for 3-4, 3 for 5-8, ... (a document no run
    returned within the pool cannot occur: every pooled document has a rank)."""
    rank = np.where(pool.rank > 0, pool.rank, np.iinfo(np.int64).max)
    best = rank.min(axis=0) if pool.n_runs else np.ones(pool.size, dtype=np.int64)
    best = np.minimum(best, 1 << 40)
    out: NDArray[np.int64] = np.ceil(np.log2(best.astype(_F64))).astype(np.int64)
    return out


def _known_grades(
    pool: Pool, grades: NDArray[np.float64], complete: NDArray[np.bool_] | None
) -> NDArray[np.float64]:
    """Grades with the unjudged documents of ``complete`` queries at 0 (trec_eval's reading of
    qrels: a document they do not list is not relevant); NaN elsewhere where unjudged."""
    g = np.asarray(grades, dtype=_F64).copy()
    if complete is not None:
        closed = np.asarray(complete, dtype=bool)[pool.query] & np.isnan(g)
        g[closed] = 0.0
    return g


def expected_grades(
    pool: Pool,
    grades: NDArray[np.float64],
    buckets: NDArray[np.int64] | None = None,
    *,
    complete: NDArray[np.bool_] | None = None,
) -> NDArray[np.float64]:
    """ESTIMATE: grades with each unjudged document at the expected grade of its rank bucket.

    The documents whose grade is known are the judged ones and, in the ``complete`` queries,
    the unjudged ones at grade 0: those queries' judgments were made independently of this
    pool (imported qrels of an exhaustive or deeper judging, such as Cranfield's), so, as
    trec_eval reads qrels, a pooled document they leave out is not relevant (Buckley &
    Voorhees, "Retrieval evaluation with incomplete information", SIGIR 2004,
    doi:10.1145/1008992.1009000, on that convention). Their known zeros also enter the
    rank-bucket statistics below: judged documents alone are a biased sample when the
    judgments were not drawn from the pool (Cranfield judged mostly relevant documents,
    so "the mean judged grade at this rank" was about 2 where the truth is about 0).

    Expected grade of a bucket (:func:`rank_buckets`) = (sum of known grades in it + m) /
    (n known in it + 1), m = the mean of all known grades: the rate of relevance at a rank
    estimated over every query (Carterette, Allan & Sitaraman, SIGIR 2006,
    doi:10.1145/1148170.1148219, estimate the probability of relevance of an unjudged
    document from judged ones), shrunk by one pseudo-observation toward the overall mean. 0
    when nothing is known yet (the usual "unjudged = not relevant"). Negative grades count
    as 0.

    Args:
        grades: (P,) float64, NaN = not judged yet.
        buckets: (P,) int64 rank buckets (default :func:`rank_buckets`).
        complete: (n_queries,) bool queries whose judgments are taken as complete (default:
            none, i.e. the judged documents are a fair sample of the pool, as when judging
            follows the pool's own order).

    Returns:
        (P,) float64 without NaN.
    """
    g = _known_grades(pool, grades, complete)
    b = rank_buckets(pool) if buckets is None else buckets
    known = ~np.isnan(g)
    out = g.copy()
    if not known.any():
        out[~known] = 0.0
        return out
    gk = np.maximum(g[known], 0.0)
    overall = float(gk.mean())
    n_b = int(b.max(initial=0)) + 1
    s = np.bincount(b[known], weights=gk, minlength=n_b)
    n = np.bincount(b[known], minlength=n_b)
    mean = (s + overall) / (n + 1.0)
    out[~known] = mean[b[~known]]
    return out


def probability_a_better(
    pool: Pool,
    grades: NDArray[np.float64],
    run_a: int,
    run_b: int,
    k: int,
    *,
    samples: int = 200,
    seed: int = 0,
    evaluated: NDArray[np.bool_] | None = None,
    complete: NDArray[np.bool_] | None = None,
) -> float:
    """ESTIMATE of P(mean nDCG@K of A > that of B) — not a bound.

    The unjudged documents of ``complete`` queries are at grade 0 (see
    :func:`expected_grades`); every other unjudged document's grade is drawn from the known
    grades of its rank bucket (:func:`rank_buckets`; all known grades when its bucket has
    none; 0 when nothing is known), ``samples`` times with
    ``numpy.random.default_rng(seed)``. Returns the fraction of draws with a positive
    difference, in [0, 1]. It measures the uncertainty of the missing grades only, not that
    of the query sample (a significance test over queries answers that).
    """
    g = _known_grades(pool, grades, complete)
    if evaluated is None:
        evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    rng = np.random.default_rng(seed)
    b = rank_buckets(pool)
    known = ~np.isnan(g)
    unknown = np.flatnonzero(~known)
    judged = np.maximum(g[known], 0.0)
    sources = {
        int(bucket): np.maximum(g[known & (b == bucket)], 0.0) for bucket in np.unique(b[unknown])
    }
    wins = 0
    for _ in range(samples):
        draw = g.copy()
        if len(unknown):
            if len(judged) == 0:
                draw[unknown] = 0.0
            else:
                for bucket, source in sources.items():
                    at = unknown[b[unknown] == bucket]
                    draw[at] = rng.choice(source if len(source) else judged, size=len(at))
        nd = ndcg_matrix(pool, draw, k)
        delta = float((nd[run_a, evaluated] - nd[run_b, evaluated]).mean())
        wins += delta > 0
    return wins / samples
