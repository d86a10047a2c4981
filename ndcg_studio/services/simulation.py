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
  order of the strategy (:mod:`ndcg_studio.domain.pooling`);
* after every ``step`` judgments (and at 0 and at the end) one row
  :data:`SIMULATION_COLUMNS` is produced:

  - ``pairs_decided``: run pairs whose SOUND interval of Delta mean nDCG@K
    (:func:`ndcg_studio.domain.verdict.delta_bounds`) excludes 0;
  - ``pairs_correct``: run pairs whose current verdict, the sign of Delta mean nDCG@K with the
    unjudged documents at their expected grade (:func:`~ndcg_studio.domain.verdict.
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

from ndcg_studio.domain.pooling import STRATEGIES, Pool, Strategy, build_pool, make_chooser
from ndcg_studio.domain.verdict import (
    expected_grades,
    ndcg_matrix,
    query_delta_bounds,
    rank_buckets,
)
from ndcg_studio.services.scoring import ScoringService, ScoringSettings
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
    data = ScoringService(db).load(settings)
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
) -> SimulationResult:
    """Reveal the hidden grades in ``strategy``'s order; one row per ``step`` judgments.

    Raises:
        ValueError: unknown strategy or step < 1.
    """
    from scipy.stats import kendalltau

    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if step < 1:
        raise ValueError(f"--step must be at least 1, got {step}")
    pool, k = problem.pool, problem.k
    n_runs = pool.n_runs
    pairs = [(a, b) for a in range(n_runs) for b in range(a + 1, n_runs)]
    truth_means = _means(problem, problem.truth)
    truth_sign = np.array([np.sign(truth_means[a] - truth_means[b]) for a, b in pairs])
    buckets = rank_buckets(pool)
    # The grade scale, not the hidden grades themselves: 0..4 (or the largest grade found),
    # integers unless the consensus of several annotators made fractional grades.
    max_grade = max(4.0, float(np.ceil(problem.truth.max(initial=0.0))))
    integer_grades = bool(np.all(problem.truth == np.round(problem.truth)))
    grades = np.full(pool.size, np.nan)
    evaluated_q = np.flatnonzero(problem.evaluated)
    n_eval = len(evaluated_q)
    low = np.zeros((len(pairs), pool.n_queries))
    high = np.zeros((len(pairs), pool.n_queries))
    dirty = set(evaluated_q.tolist())
    chooser = make_chooser(strategy, pool, k=k, seed=seed)
    rows: list[tuple[Any, ...]] = []
    order: list[int] = []
    decided_wrong = 0
    means = truth_means
    correct_rows: list[NDArray[np.bool_]] = []
    decided_rows: list[NDArray[np.bool_]] = []

    def row() -> None:
        nonlocal decided_wrong, means
        for q in dirty:
            for i, (a, b) in enumerate(pairs):
                low[i, q], high[i, q] = query_delta_bounds(
                    pool, grades, a, b, k, q, max_grade=max_grade, integer_grades=integer_grades
                )
        dirty.clear()
        mean_low = low[:, evaluated_q].sum(axis=1) / n_eval
        mean_high = high[:, evaluated_q].sum(axis=1) / n_eval
        decided = (mean_low > 0) | (mean_high < 0)
        decided_wrong += int((decided & (np.sign(mean_low + mean_high) != truth_sign)).sum())
        means = _means(problem, expected_grades(pool, grades, buckets))
        sign = np.array([np.sign(means[a] - means[b]) for a, b in pairs])
        tau = float(kendalltau(means, truth_means).statistic)
        correct_rows.append(sign == truth_sign)
        decided_rows.append(decided)
        rows.append(
            (
                strategy,
                len(order),
                int(decided.sum()),
                int((sign == truth_sign).sum()),
                tau,
                float(np.abs(means - truth_means).mean()),
            )
        )

    row()
    while (p := chooser.next()) is not None:
        grade = float(problem.truth[p])
        grades[p] = grade
        chooser.reveal(p, grade)
        order.append(p)
        dirty.add(int(pool.query[p]))
        if len(order) % step == 0:
            row()
    if len(order) % step:
        row()
    return SimulationResult(
        rows=rows,
        final_means=means,
        truth_means=truth_means,
        order=np.asarray(order, dtype=np.int64),
        decided_wrong=decided_wrong,
        pairs=pairs,
        pair_correct=np.array(correct_rows, dtype=bool).reshape(len(rows), len(pairs)),
        pair_decided=np.array(decided_rows, dtype=bool).reshape(len(rows), len(pairs)),
    )
