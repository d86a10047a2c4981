"""Estimates beside the sound verdict of :mod:`ndcg_studio.domain.verdict.bounds` (pure numpy):
nDCG on a
pool, the expected grade of an unjudged document, and P(A better).

These are ESTIMATES, not bounds: they assume a distribution for the grades not known yet.

* :func:`expected_grades` — unjudged documents at the mean known grade of their rank bucket, or
  at 0 in queries whose judgments are taken as complete (judged apart from this pool, read as
  trec_eval reads qrels);
* :func:`probability_a_better` — P(mean nDCG A > mean nDCG B) with unjudged grades drawn from
  the known grades at similar ranks (Carterette, Allan & Sitaraman, SIGIR 2006,
  doi:10.1145/1148170.1148219: the distribution of relevance at a rank estimated from judged
  documents), seeded Monte Carlo;
* :func:`ndcg_matrix` — nDCG@K of every run on every query for complete grades (trec_eval
  ``ndcg_cut.K`` restricted to the pool, see :mod:`ndcg_studio.domain.verdict.bounds`).
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.ideal import ideal_dcg
from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.domain.pooling.strategies import Pool, discounts
from ndcg_studio.domain.verdict.bounds import VerdictInputs

__all__ = ["expected_grades", "ndcg_matrix", "probability_a_better", "rank_buckets"]

_F64 = np.float64


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


def rank_buckets(pool: Pool) -> NDArray[np.int64]:
    """(P,) int64 bucket of each pooled document by its best rank over the runs:
    ceil(log2(rank)): 0 for rank 1, 1 for 2, 2 for 3-4, 3 for 5-8, ... (a document no run
    returned within the pool cannot occur: every pooled document has a rank)."""
    if not pool.n_runs:
        return np.zeros(pool.size, dtype=np.int64)
    # one run at a time and in place: the same numbers with fewer (P,) temporaries
    # (bench_gui_scale Compare, peak RSS of the verdict)
    best = np.full(pool.size, 1 << 40, dtype=_F64)
    for r in range(pool.n_runs):
        rank = pool.rank[r]
        np.minimum(best, rank, out=best, where=rank > 0)
    np.log2(best, out=best)
    np.ceil(best, out=best)
    out: NDArray[np.int64] = best.astype(np.int64)
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
    inputs: VerdictInputs,
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
    of the query sample (a significance test over queries answers that). ``inputs``: the pool,
    its grades, the two runs and K (the grade scale is not used: draws come from known grades).
    """
    pool, grades, k, run_a, run_b = inputs.pool, inputs.grades, inputs.k, inputs.run_a, inputs.run_b
    g = _known_grades(pool, grades, complete)
    if evaluated is None:
        evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    rng = np.random.default_rng(seed)
    b = rank_buckets(pool)
    known = ~np.isnan(g)
    unknown = np.flatnonzero(~known)
    judged = np.maximum(g[known], 0.0)
    sources = [
        (unknown[b[unknown] == bucket], np.maximum(g[known & (b == bucket)], 0.0))
        for bucket in distinct(b[unknown]).tolist()
    ]
    del b, known, unknown
    # what every draw shares is made once (bench_gui_scale.py Compare: 200 draws at 100,000
    # queries): the queries' rows, the known gains in them, the discounts, each bucket's
    # unjudged cells; a draw then only writes each bucket's draws into its part of a buffer
    rows = _QueryRows(pool)
    # the discounts filled in place, a part of the pool at a time (peak RSS of the verdict)
    disc = np.zeros((2, *rows.shape))
    for i, r in enumerate((run_a, run_b)):
        for lo in range(0, pool.size, _PART):
            part = slice(lo, lo + _PART)
            disc[i].reshape(-1)[rows.cell[part]] = discounts(pool.rank[r, part], k)
    draws = _Draws(rows, np.fmax(g, 0.0), [at for at, _ in sources])  # NaN (unjudged) -> 0
    pools = [source if len(source) else judged for _, source in sources]
    del g, sources, rows
    wins = 0
    for _ in range(samples):
        if len(judged):  # nothing known: every draw is 0, the base's value
            for buffer, source in zip(draws.parts, pools, strict=True):
                # rng.choice(source, size=n) draws integers(0, len(source), n) (int64) and
                # takes them: the same stream, without choice's own copy of the result
                index = rng.integers(0, len(source), size=len(buffer), dtype=np.int64)
                np.take(source, index, out=buffer, mode="clip")  # in range: no copy
        wins += _mean_delta(draws, disc, k, evaluated) > 0
    return wins / samples


#: pooled documents whose discounts are placed at once (peak RSS of the verdict)
_PART = 1 << 18
#: queries handled at once by :func:`_mean_delta`: a block's rows stay in a core's cache
#: through its column loops and its sort (bench_gui_scale.py Compare)
_QUERIES_PER_BLOCK = 4096


class _QueryRows:
    """Each query's pooled documents as one row of a (n_queries, width) matrix, in pool
    order along the row (flat: query * width + place)."""

    def __init__(self, pool: Pool) -> None:
        counts = np.bincount(pool.query, minlength=pool.n_queries)
        self.shape = (pool.n_queries, int(counts.max(initial=0)))
        self.size = self.shape[0] * self.shape[1]
        query = np.asarray(pool.query, dtype=np.intp)
        # each document's cell in the flattened matrix: query * width + its place in its
        # query's row, built in place
        cell = np.arange(pool.size)
        cell -= (np.cumsum(counts) - counts)[query]
        cell += query * self.shape[1]
        self.cell = cell

    def matrix(self, values: NDArray[np.float64]) -> NDArray[np.float64]:
        """(n_queries, width) float64 the (P,) ``values`` in their cells, 0 elsewhere."""
        out = np.zeros(self.shape)
        out.reshape(-1)[self.cell] = values
        return out


class _Draws:
    """The gains of one draw: the known gains of every cell of the rows (:class:`_QueryRows`,
    0 in the unjudged cells and the padding) followed by each bucket's drawn gains, in one
    (n_queries * width + U,) float64 buffer; ``parts``: each bucket's (m,) view of it,
    written by each draw. A block of rows is one gather from the buffer (the cells' own
    values, or their draws'): what a copy of the known gains and a scatter of every draw
    into it did, in one pass (bench_gui_scale.py Compare)."""

    def __init__(
        self, rows: _QueryRows, gains: NDArray[np.float64], cells: list[NDArray[np.intp]]
    ) -> None:
        self.shape = rows.shape
        sizes = [len(at) for at in cells]
        self.buffer = np.zeros(rows.size + sum(sizes))
        self.buffer[rows.cell] = gains  # 0 in the unjudged cells (NaN -> 0 by the caller)
        # where each cell's gain is read: its own cell, or its draw's place after the cells
        self.source = np.arange(rows.size, dtype=np.intp)
        edges = np.cumsum([rows.size, *sizes]).tolist()
        self.parts = [self.buffer[a:b] for a, b in pairwise(edges)]
        for at, (a, b) in zip(cells, pairwise(edges), strict=True):
            self.source[rows.cell[at]] = np.arange(a, b)

    def rows(self, lo: int, hi: int, out: NDArray[np.float64]) -> None:
        """Rows ``lo:hi`` of this draw's gains into ``out`` ((hi - lo, width) float64; mode
        "clip": the places are in range, and ``out`` is then written without a copy)."""
        width = self.shape[1]
        np.take(self.buffer, self.source[lo * width : hi * width], out=out.reshape(-1), mode="clip")


def _add_ideal(gains: NDArray[np.float64], k: int, out: NDArray[np.float64]) -> None:
    """Add to ``out`` the IDCG@K of every row of (n, width) gains >= 0, which are sorted in
    place: :func:`ideal_dcg`'s terms (gain / log2(position + 1), positive gains only), added
    in the same order."""
    gains.sort(axis=1)
    width = gains.shape[1]
    log_den = np.log2(np.arange(2, min(k, width) + 2, dtype=_F64))
    for j in range(min(k, width)):
        out += gains[:, width - 1 - j] / log_den[j]  # a zero gain adds 0.0: the sum is unchanged


def _mean_delta(
    draws: _Draws, disc: NDArray[np.float64], k: int, evaluated: NDArray[np.bool_]
) -> float:
    """Mean over ``evaluated`` of nDCG@K(A) - nDCG@K(B) for one draw: the numbers of
    :func:`ndcg_matrix` for the two runs, each DCG added in pool order as ``np.bincount``
    adds it.

    Args:
        draws: the known gains and this draw's gains (:class:`_Draws`).
        disc: (2, n_queries, width) float64 the two runs' discounts.
    """
    n_q, width = draws.shape
    dcg, idcg = np.zeros((2, n_q)), np.zeros(n_q)
    gains = np.empty((min(n_q, _QUERIES_PER_BLOCK), width))
    term = np.empty_like(gains)
    for lo in range(0, n_q, _QUERIES_PER_BLOCK):
        hi = min(lo + _QUERIES_PER_BLOCK, n_q)
        block = gains[: hi - lo]
        draws.rows(lo, hi, out=block)
        for r in (0, 1):
            product = np.multiply(disc[r, lo:hi], block, out=term[: hi - lo])
            total = dcg[r, lo:hi]
            for j in range(width):
                total += product[:, j]
        _add_ideal(block, k, idcg[lo:hi])
    nd = np.zeros((2, n_q))
    np.divide(dcg, idcg, out=nd, where=idcg > 0)  # 0 where the ideal is 0
    delta = nd[0] - nd[1] if evaluated.all() else nd[0, evaluated] - nd[1, evaluated]
    return float(delta.mean()) if delta.size else float("nan")  # no query: no difference
