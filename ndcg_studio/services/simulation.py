"""Simulate judging a pool in a strategy's order, on a collection whose judgments are known.

:func:`load_problem` reads the database ONCE (through :meth:`ScoringService.load`, the same
read as scoring) and never writes; :func:`simulate` then works in memory:

* the pool is every (query, document) in the top ``depth`` of a selected run, for the queries
  that have at least one judgment inside that pool (the others have no nDCG, as in scoring).
  The pool is the whole universe: judgments of documents outside it are ignored, and a pooled
  document nobody judged counts as grade 0 when it is "revealed" (trec_eval treats it as not
  relevant), so with every pooled document revealed the numbers are exactly those of the normal
  scoring with the judgments restricted to the pool;
* the grades (of ``annotator``, or the consensus) are hidden and revealed one by one in the
  order of the strategy (:mod:`ndcg_studio.domain.pooling.strategies`);
* after every ``step`` judgments (and at 0 and at the end) one row
  :data:`SIMULATION_COLUMNS` is produced:

  - ``pairs_decided``: run pairs whose SOUND interval of Delta mean nDCG@K
    (:func:`ndcg_studio.domain.verdict.bounds.delta_bounds`) excludes 0;
  - ``pairs_correct``: run pairs whose current verdict, the sign of Delta mean nDCG@K with the
    unjudged documents at their expected grade (:func:`~ndcg_studio.domain.verdict.bounds.
    expected_grades`), equals the verdict with every judgment;
  - ``kendall_tau``: Kendall's tau-b (``scipy.stats.kendalltau``) between the runs' current
    mean nDCG@K (same estimate) and their mean nDCG@K with every judgment (NaN when either
    side is constant);
  - ``mae``: mean absolute error of the runs' current mean nDCG@K (same estimate).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling.strategies import (
    STRATEGIES,
    BanditParams,
    Pool,
    Strategy,
    build_pool,
    make_chooser,
)
from ndcg_studio.domain.verdict.bounds import ROUNDING_MARGIN, VerdictInputs, query_delta_bounds
from ndcg_studio.domain.verdict.estimates import expected_grades, ndcg_matrix, rank_buckets
from ndcg_studio.services.scoring.load import ScoringRead
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.vocabulary import ConsensusMethod

__all__ = [
    "SIMULATION_COLUMNS",
    "SimulationProblem",
    "SimulationResult",
    "load_problem",
    "simulate",
]

#: columns of ``ndcg-studio simulate --format csv``, in this order
SIMULATION_COLUMNS = (
    "strategy",
    "judgments",
    "pairs_decided",
    "pairs_correct",
    "kendall_tau",
    "mae",
)


@dataclass(frozen=True, eq=False)
class SimulationProblem:
    """A pool with its hidden grades.

    Attributes:
        pool: the depth-D pool of the evaluated queries (runs in ``run_names`` order).
        truth: (P,) float64 grade of every pooled document (0 where nobody judged it).
        run_names: the runs, in name order.
        query_external: external ids of the pool's query indices.
        evaluated: (n_queries,) bool queries in the means (those with a pooled document).
        k: cutoff K.
    """

    pool: Pool
    truth: NDArray[np.float64]
    run_names: list[str]
    query_external: list[str]
    evaluated: NDArray[np.bool_]
    k: int


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Rows of :data:`SIMULATION_COLUMNS` and the run means at the end.

    Attributes:
        rows: one tuple per budget step.
        final_means: (n_runs,) float64 mean nDCG@K of each run once everything is revealed.
        truth_means: (n_runs,) float64 mean nDCG@K with every judgment (equal to
            ``final_means``; kept apart so tests can check it).
        order: (P,) int64 pool indices in the order they were judged.
        decided_wrong: number of (row, pair) where a decided pair disagreed with the final
            verdict: 0 unless the sound interval were wrong.
        pairs: the run pairs (index a < index b into the problem's ``run_names``).
        pair_correct, pair_decided: (n_rows, n_pairs) bool, per row and pair, whether the
            current verdict equals the final one / the sound interval excludes 0.
    """

    rows: list[tuple[Any, ...]]
    final_means: NDArray[np.float64]
    truth_means: NDArray[np.float64]
    order: NDArray[np.int64]
    decided_wrong: int
    pairs: list[tuple[int, int]]
    pair_correct: NDArray[np.bool_]
    pair_decided: NDArray[np.bool_]


def load_problem(
    db: Database,
    runs: Sequence[str],
    *,
    depth: int,
    k: int = 10,
    annotator: str | None = None,
    consensus: ConsensusMethod = "mean",
) -> SimulationProblem:
    """Read the runs and judgments once and build the pool (nothing is written).

    Raises:
        ValueError: fewer than two distinct runs, depth or K < 1, or no judged query in the
            pool.
        LookupError: an unknown run or annotator.
    """
    if len(set(runs)) != len(runs) or len(runs) < 2:
        raise ValueError("--runs: name at least two different runs")
    if depth < 1:
        raise ValueError(f"--depth must be at least 1, got {depth}")
    if k < 1:
        raise ValueError(f"--k must be at least 1, got {k}")
    settings = ScoringSettings(
        k=k, ideal="list", annotator=annotator, consensus=consensus, runs=tuple(runs)
    )
    data = ScoringService(db).load(ScoringRead(settings))
    n_q = data.n_queries
    n_runs = len(data.run_names)
    lists = data.lists
    run = lists.group // max(n_q, 1)
    query = lists.group_query[lists.group]
    args = (run, query, lists.doc, lists.rank)
    full = build_pool(*args, n_runs=n_runs, n_queries=n_q, depth=depth)
    n_docs = int(max(full.doc.max(initial=0), data.qrels.doc.max(initial=0))) + 1
    pool_key = full.query * n_docs + full.doc
    judged_key = data.qrels.query * n_docs + data.qrels.doc
    in_pool = np.isin(judged_key, pool_key)
    evaluated = np.zeros(n_q, dtype=bool)
    evaluated[data.qrels.query[in_pool]] = True
    if not evaluated.any():
        raise ValueError(f"no judged document in the depth-{depth} pool of these runs")
    pool = build_pool(*args, n_runs=n_runs, n_queries=n_q, depth=depth, queries=evaluated)
    truth = np.zeros(pool.size)
    key = pool.query * n_docs + pool.doc
    at = np.searchsorted(key, judged_key[in_pool])
    truth[at] = data.qrels.grade[in_pool]
    return SimulationProblem(
        pool=pool,
        truth=truth,
        run_names=list(data.run_names),
        query_external=list(data.query_external),
        evaluated=evaluated,
        k=k,
    )


def _means(problem: SimulationProblem, grades: NDArray[np.float64]) -> NDArray[np.float64]:
    nd = ndcg_matrix(problem.pool, grades, problem.k)
    out: NDArray[np.float64] = nd[:, problem.evaluated].mean(axis=1)
    return out


def simulate(
    problem: SimulationProblem,
    strategy: Strategy,
    *,
    step: int = 50,
    seed: int = 0,
    bandit: BanditParams | None = None,
) -> SimulationResult:
    """Reveal the hidden grades in ``strategy``'s order; one row per ``step`` judgments
    (``bandit``: the parameters of the ``bandit`` order, None: its defaults).

    Raises:
        ValueError: unknown strategy or step < 1.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if step < 1:
        raise ValueError(f"--step must be at least 1, got {step}")
    pool = problem.pool
    track = _Tracker(problem)
    chooser = make_chooser(strategy, pool, k=problem.k, seed=seed, bandit=bandit)
    grades = np.full(pool.size, np.nan)
    order: list[int] = []
    rows = [(strategy, 0, *track.row(grades))]
    while (p := chooser.next()) is not None:
        grade = float(problem.truth[p])
        grades[p] = grade
        chooser.reveal(p, grade)
        order.append(p)
        track.dirty.add(int(pool.query[p]))
        if len(order) % step == 0:
            rows.append((strategy, len(order), *track.row(grades)))
    if len(order) % step:
        rows.append((strategy, len(order), *track.row(grades)))
    n_pairs = len(track.pairs)
    return SimulationResult(
        rows=rows,
        final_means=track.means,
        truth_means=track.truth_means,
        order=np.asarray(order, dtype=np.int64),
        decided_wrong=track.decided_wrong,
        pairs=track.pairs,
        pair_correct=np.array(track.correct, dtype=bool).reshape(len(rows), n_pairs),
        pair_decided=np.array(track.decided, dtype=bool).reshape(len(rows), n_pairs),
    )


class _Tracker:
    """What one simulation measures after each step: the sound intervals of every run pair
    (recomputed only for the queries that changed), the current verdicts and means."""

    def __init__(self, problem: SimulationProblem) -> None:
        self.problem = problem
        pool = problem.pool
        n_runs = pool.n_runs
        self.pairs = [(a, b) for a in range(n_runs) for b in range(a + 1, n_runs)]
        self.truth_means = _means(problem, problem.truth)
        self.truth_sign = np.array([np.sign(self._delta(self.truth_means, p)) for p in self.pairs])
        self.buckets = rank_buckets(pool)
        # The grade scale, not the hidden grades themselves: 0..4 (or the largest grade found),
        # integers unless the consensus of several annotators made fractional grades.
        self.max_grade = max(4.0, float(np.ceil(problem.truth.max(initial=0.0))))
        self.integer_grades = bool(np.all(problem.truth == np.round(problem.truth)))
        self.evaluated_q = np.flatnonzero(problem.evaluated)
        self.low = np.zeros((len(self.pairs), pool.n_queries))
        self.high = np.zeros((len(self.pairs), pool.n_queries))
        self.dirty = set(self.evaluated_q.tolist())
        self.decided_wrong = 0
        self.means = self.truth_means
        self.correct: list[NDArray[np.bool_]] = []
        self.decided: list[NDArray[np.bool_]] = []

    @staticmethod
    def _delta(means: NDArray[np.float64], pair: tuple[int, int]) -> float:
        return float(means[pair[0]] - means[pair[1]])

    def row(self, grades: NDArray[np.float64]) -> tuple[int, int, float, float]:
        """``(pairs_decided, pairs_correct, kendall_tau, mae)`` for the grades revealed."""
        from scipy.stats import kendalltau

        pool, k = self.problem.pool, self.problem.k
        for q in self.dirty:
            for i, (a, b) in enumerate(self.pairs):
                self.low[i, q], self.high[i, q] = query_delta_bounds(
                    VerdictInputs(
                        pool,
                        grades,
                        k,
                        a,
                        b,
                        max_grade=self.max_grade,
                        integer_grades=self.integer_grades,
                    ),
                    q,
                )
        self.dirty.clear()
        n_eval = len(self.evaluated_q)
        mean_low = self.low[:, self.evaluated_q].sum(axis=1) / n_eval
        mean_high = self.high[:, self.evaluated_q].sum(axis=1) / n_eval
        decided = (mean_low > ROUNDING_MARGIN) | (mean_high < -ROUNDING_MARGIN)
        wrong = decided & (np.sign(mean_low + mean_high) != self.truth_sign)
        self.decided_wrong += int(wrong.sum())
        self.means = _means(self.problem, expected_grades(pool, grades, self.buckets))
        sign = np.array([np.sign(self._delta(self.means, p)) for p in self.pairs])
        tau = float(kendalltau(self.means, self.truth_means).statistic)
        self.correct.append(sign == self.truth_sign)
        self.decided.append(decided)
        mae = float(np.abs(self.means - self.truth_means).mean())
        return int(decided.sum()), int((sign == self.truth_sign).sum()), tau, mae
