"""Is run A better than run B yet, on the current judgments of the depth-D pool?

:func:`pair_verdict` reads the pool and the judgments once (through
:meth:`ScoringService.load`, the read of scoring; nothing is written), or takes them from a
scoring read already made (:class:`PoolSource`), and answers with a :class:`PairVerdict`:

* the SOUND interval of Delta mean nDCG@K (A - B) over every grade 0..4 the unjudged pooled
  documents could still receive (:func:`ndcg_studio.domain.verdict.bounds.delta_bounds`); "decided"
  when it excludes 0 — no future judgment can flip it;
* an ESTIMATE of how many more judgments would settle it: the unjudged documents are taken in
  the ``ab`` order for this pair (:class:`ndcg_studio.domain.pooling.strategies.ABChooser`,
  Carterette,
  Allan & Sitaraman, SIGIR 2006, doi:10.1145/1148170.1148219), each assumed to receive its
  expected grade (:func:`~ndcg_studio.domain.verdict.bounds.expected_grades`: the mean known grade
  at
  its rank; 0 in a query judged outside the pool, whose qrels are read as complete, see
  :func:`pool_judgments`), until the sound interval of those assumed grades excludes 0;
* an ESTIMATE of P(A better) (:func:`~ndcg_studio.domain.verdict.bounds.probability_a_better`).

The queries are those of the pool (every query with a document in some run's top D): a query
nobody judged yet still counts, since its grades may still come. Grades are the consensus of
the annotators (``settings.consensus``, adjudicated grades win) or one annotator's
(``settings.annotator``); fractional consensus grades make the interval use the continuous
relaxation (sound for any grade in [0, 4]).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.measures import Qrels
from ndcg_studio.domain.pooling.strategies import Pool, build_pool
from ndcg_studio.domain.verdict.bounds import (
    ROUNDING_MARGIN,
    DeltaBounds,
    VerdictInputs,
    delta_bounds,
    excludes_zero,
)
from ndcg_studio.domain.verdict.estimates import expected_grades, probability_a_better
from ndcg_studio.domain.verdict.settle import settle_steps
from ndcg_studio.progress import Cancelled
from ndcg_studio.services.freed_memory import return_freed_memory
from ndcg_studio.services.scoring.load import ScoringData, ScoringRead
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database

__all__ = [
    "PairVerdict",
    "PoolSource",
    "judgments_to_settle",
    "pair_verdict",
    "pool_grades",
    "pool_judgments",
    "verdict_text",
]

#: the grade scale of an unjudged document (0..4)
MAX_GRADE = 4.0
#: ranges of queries pooled one at a time by :meth:`PoolSource.pool_judgments` (peak RSS)
POOL_PARTS = 4


@dataclass(frozen=True, eq=False)
class PairVerdict:
    """The verdict on runs A and B at cutoff K over the depth-D pool.

    Attributes:
        run_a, run_b: run names.
        k: cutoff K; depth: pool depth D.
        pooled: number of pooled (query, document) pairs; judged: how many have a grade.
        low, high: sound bounds of Delta mean nDCG@K (A - B) over every grade 0..4 of the
            unjudged pooled documents, low <= high, both in [-1, 1].
        to_settle: ESTIMATE of the judgments (in the ``ab`` order, at expected grades) after
            which the interval would exclude 0; 0 when decided; None when even every pooled
            document at its expected grade would not settle it.
        p_a_better: ESTIMATE of P(mean nDCG@K of A > that of B), in [0, 1].
    """

    run_a: str
    run_b: str
    k: int
    depth: int
    pooled: int
    judged: int
    low: float
    high: float
    to_settle: int | None
    p_a_better: float

    @property
    def decided(self) -> bool:
        """The sound interval excludes 0: no grade of the unjudged documents can flip it."""
        return excludes_zero(self.low, self.high)

    @property
    def better(self) -> str | None:
        """The better run's name once decided, else None."""
        if not self.decided:
            return None
        return self.run_a if self.low > ROUNDING_MARGIN else self.run_b


def pool_grades(
    db: Database, settings: ScoringSettings, run_a: str, run_b: str, depth: int
) -> tuple[Pool, NDArray[np.float64]]:
    """The depth-``depth`` pool of runs A and B (run 0 = A, run 1 = B) over every query either
    returned, and its (P,) float64 grades (NaN = not judged yet; the settings' consensus or
    annotator).

    Raises:
        ValueError: depth < 1, or the same run twice.
        LookupError: an unknown run or annotator.
    """
    pool, grades, _ = pool_judgments(db, settings, run_a, run_b, depth)
    return pool, grades


def pool_judgments(
    db: Database, settings: ScoringSettings, run_a: str, run_b: str, depth: int
) -> tuple[Pool, NDArray[np.float64], NDArray[np.bool_]]:
    """:func:`pool_grades` and the (n_queries,) bool queries judged OUTSIDE the pool.

    A query with a judged document that neither run placed in its top ``depth`` was judged
    by some process other than this pool (imported qrels of an exhaustive or deeper
    judging, such as Cranfield's): the estimates take its judgments as complete
    (``complete`` of :func:`ndcg_studio.domain.verdict.bounds.expected_grades`). Judging in the app
    at this depth never makes a query complete.

    Raises:
        ValueError: depth < 1, or the same run twice.
        LookupError: an unknown run or annotator.
    """
    _check_pair(run_a, run_b, depth)
    # the whole lists (not cut at K): the pool may be deeper than K
    data = ScoringService(db).load(
        ScoringRead(replace(settings, runs=(run_a, run_b), ideal="list"))
    )
    return PoolSource.of(data).pool_judgments(run_a, run_b, depth)


def _check_pair(run_a: str, run_b: str, depth: int) -> None:
    if depth < 1:
        raise ValueError(f"the pool depth must be at least 1, got {depth}")
    if run_a == run_b:
        raise ValueError("pick two different runs")


@dataclass(frozen=True, eq=False)
class PoolSource:
    """What one scoring read holds that the pool of two of its runs needs, so that the verdict
    does not read (and pool) the results and judgments again after the view's scoring
    (a second read would cost Compare its time and peak memory: ``bench_gui_scale.py`` Compare).

    Attributes:
        group, doc, rank: (n,) int64 the read results (``ScoringData.lists``, its run scores
            left out): group = run index * n_queries + query, rank = the order column.
        group_query: (n_groups,) int64 query of each group.
        qrels: the consensus (or the annotator's) grades of that read.
        n_queries: the read's queries; run_names: its runs, in run-index order.
        truncated_at: K when only each list's top K was read (then a pool of depth <= K only),
            else None (whole lists).
    """

    group: NDArray[np.int64]
    doc: NDArray[np.int64]
    rank: NDArray[np.int64]
    group_query: NDArray[np.int64]
    qrels: Qrels
    n_queries: int
    run_names: tuple[str, ...]
    truncated_at: int | None

    @classmethod
    def of(cls, data: ScoringData) -> PoolSource:
        lists = data.lists
        return cls(
            group=lists.group,
            doc=lists.doc,
            rank=lists.rank,
            group_query=lists.group_query,
            qrels=data.qrels,
            n_queries=data.n_queries,
            run_names=tuple(data.run_names),
            truncated_at=data.truncated_at,
        )

    def covers(self, run_a: str, run_b: str, depth: int) -> bool:
        """Both runs were read, down to at least ``depth``."""
        deep = self.truncated_at is None or depth <= self.truncated_at
        return deep and run_a in self.run_names and run_b in self.run_names

    def pool_judgments(
        self, run_a: str, run_b: str, depth: int
    ) -> tuple[Pool, NDArray[np.float64], NDArray[np.bool_]]:
        """:func:`pool_judgments` from these data (run 0 = A, run 1 = B). The same pool,
        grades and complete queries as that function's own read, up to the numbering of the
        queries and documents (this read may hold more of them: those of other runs, which
        have no pooled document; both number them by database id).

        Raises:
            ValueError: depth < 1, the same run twice, or data that do not cover them
                (:meth:`covers`).
        """
        _check_pair(run_a, run_b, depth)
        if not self.covers(run_a, run_b, depth):
            raise ValueError(f"this read does not hold {run_a} and {run_b} down to {depth}")
        n_q = self.n_queries
        ia, ib = self.run_names.index(run_a), self.run_names.index(run_b)
        pool = self._pool_in_parts(ia, ib, depth)
        grades = np.full(pool.size, np.nan)
        qrels = self.qrels
        n_docs = int(max(pool.doc.max(initial=0), qrels.doc.max(initial=0))) + 1
        key = pool.query * n_docs + pool.doc
        judged_key = qrels.query * n_docs + qrels.doc
        at = np.searchsorted(key, judged_key)
        hit = at < len(key)
        hit[hit] = key[at[hit]] == judged_key[hit]
        grades[at[hit]] = qrels.grade[hit]
        outside = np.asarray(qrels.query, dtype=np.int64)[~hit]
        complete = np.bincount(outside, minlength=n_q)[:n_q] > 0
        return pool, grades, complete

    def _pool_in_parts(self, ia: int, ib: int, depth: int, parts: int = POOL_PARTS) -> Pool:
        """``build_pool`` of runs ``ia`` (as run 0) and ``ib`` (as run 1), ``parts`` ranges of
        queries at a time, the parts then copied into the pool one by one: the same pool (its
        documents are sorted by query, then document, and a query's rows are all in one part)
        with one part's temporaries at a time (bench_gui_scale Compare, peak RSS of the
        verdict). Rows are found by group (group = run index * n_queries + query)."""
        n_q = self.n_queries
        edges = np.linspace(0, n_q, parts + 1).round().astype(np.int64).tolist()
        pieces: list[Pool | None] = []
        for lo, hi in pairwise(edges):
            a, b = ia * n_q, ib * n_q
            group = self.group
            rows = np.flatnonzero(
                ((group >= a + lo) & (group < a + hi)) | ((group >= b + lo) & (group < b + hi))
            )
            g = group[rows]
            which = np.where((g >= a + lo) & (g < a + hi), 0, 1)  # run A: 0
            query = self.group_query[g]
            del g
            doc, rank = self.doc[rows], self.rank[rows]
            del rows
            pieces.append(build_pool(which, query, doc, rank, n_runs=2, n_queries=n_q, depth=depth))
            del which, query, doc, rank
        size = sum(p.size for p in pieces if p is not None)
        out_query, out_doc = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
        out_rank = np.empty((2, size), dtype=np.int64)
        at = 0
        for i, piece in enumerate(pieces):
            pieces[i] = None  # freed once copied
            assert piece is not None
            end = at + piece.size
            out_query[at:end], out_doc[at:end], out_rank[:, at:end] = (
                piece.query,
                piece.doc,
                piece.rank,
            )
            at = end
            del piece
        return Pool(out_query, out_doc, out_rank, depth=int(depth), n_queries=n_q)


def judgments_to_settle(
    inputs: VerdictInputs,
    *,
    complete: NDArray[np.bool_] | None = None,
    cancelled: Cancelled | None = None,
    bounds: DeltaBounds | None = None,
) -> int | None:
    """ESTIMATE: judgments of runs 0 (A) and 1 (B)'s unjudged pooled documents, taken in the
    ``ab`` order and each assumed at its expected grade, until the sound interval of Delta
    mean nDCG@K excludes 0. 0 when it already does; None when the whole pool would not.

    Args:
        inputs: a pool of two runs (0 = A, 1 = B), its grades (NaN = not judged yet), K and
            the grade scale.
        complete: (n_queries,) bool queries whose judgments are taken as complete (their
            unjudged documents expected at 0; :func:`~ndcg_studio.domain.verdict.bounds.
            expected_grades`).
        bounds: ``delta_bounds(inputs)``, when the caller has it (not computed twice).

    Raises:
        OperationCancelled: ``cancelled()`` became true.
    """
    inputs = replace(inputs, grades=np.asarray(inputs.grades, dtype=np.float64))
    if bounds is None:
        bounds = delta_bounds(inputs)
    # the walk in blocks (domain.verdict_settle): the same count as proposing, re-bounding the
    # proposed document's query and testing the sums one judgment at a time
    expected = expected_grades(inputs.pool, inputs.grades, complete=complete)
    return settle_steps(inputs, expected, bounds, cancelled=cancelled)


def pair_verdict(
    db: Database,
    settings: ScoringSettings,
    run_a: str,
    run_b: str,
    *,
    depth: int,
    samples: int = 200,
    seed: int = 0,
    cancelled: Cancelled | None = None,
    source: PoolSource | None = None,
) -> PairVerdict:
    """The verdict on A vs B at ``settings.k`` over the depth-``depth`` pool (see the module
    docstring). Reads the database once, writes nothing; safe on a worker thread.

    ``source``: the data of the scoring read of ``settings`` (a view's first stage,
    :meth:`PoolSource.of`); when it :meth:`~PoolSource.covers` the pair and the depth the pool
    comes from it and the database is not read again — the same verdict.

    Raises:
        ValueError: depth < 1, the same run twice, or no pooled document.
        LookupError: an unknown run or annotator.
        OperationCancelled: ``cancelled()`` became true.
    """
    if source is not None and source.covers(run_a, run_b, depth):
        pool, grades, complete = source.pool_judgments(run_a, run_b, depth)
    else:
        pool, grades, complete = pool_judgments(db, settings, run_a, run_b, depth)
    return_freed_memory()  # each step's temporaries go before the next (bench_gui_scale peak)
    if pool.size == 0:
        raise ValueError(f"no document in the depth-{depth} pool of {run_a} and {run_b}")
    k = settings.k
    known = grades[~np.isnan(grades)]
    integer_grades = bool(np.all(known == np.round(known)))
    max_grade = max(MAX_GRADE, float(np.ceil(known.max(initial=0.0))))
    inputs = VerdictInputs(pool, grades, k, max_grade=max_grade, integer_grades=integer_grades)
    b = delta_bounds(inputs)
    to_settle = judgments_to_settle(inputs, complete=complete, cancelled=cancelled, bounds=b)
    return_freed_memory()
    p = probability_a_better(inputs, samples=samples, seed=seed, complete=complete)
    return PairVerdict(
        run_a=run_a,
        run_b=run_b,
        k=k,
        depth=depth,
        pooled=pool.size,
        judged=len(known),
        low=b.mean_low,
        high=b.mean_high,
        to_settle=to_settle,
        p_a_better=p,
    )


def verdict_text(v: PairVerdict) -> str:
    """One sentence for Compare (plain text), e.g. "A better than B — decided after 312 of
    1,140 pooled documents judged (depth 10)" or "Not yet decided: about 214 more judgments
    would settle it (estimate) …", then the interval and the P(A better) estimate."""
    interval = (
        f"Δ mean nDCG@{v.k} (A − B) ∈ [{v.low:+.4f}, {v.high:+.4f}] whatever grades the "
        "unjudged documents get"
    )
    p = f"P(A better) ≈ {v.p_a_better:.0%} (estimate)"
    if v.decided:
        loser = v.run_b if v.better == v.run_a else v.run_a
        head = (
            f"{v.better} better than {loser} — decided after {v.judged:,} of {v.pooled:,} "
            f"pooled documents (depth {v.depth})"
        )
        return f"{head}. {interval}. {p}."
    if v.to_settle is None:
        more = (
            "even every pooled document judged at its expected grade would not settle it (estimate)"
        )
    else:
        more = (
            f"about {v.to_settle:,} more {'judgment' if v.to_settle == 1 else 'judgments'} "
            "would settle it at the current rate (estimate)"
        )
    head = (
        f"Not yet decided ({v.judged:,} of {v.pooled:,} pooled documents judged, depth {v.depth})"
    )
    return f"{head}: {more}. {interval}. {p}."
