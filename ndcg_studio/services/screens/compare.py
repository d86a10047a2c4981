"""What the Compare view shows, computed below ``ui`` (no Qt): every run scored and summarised
(:func:`load_scores`, a worker thread), and two runs' paired queries as :class:`CompareRows`
(:func:`compare_rows`).

At 100,000 queries the view shows what is cheap first and streams the rest
(``bench_gui_scale.py`` Compare): :func:`load_report` scores without the runs' bootstrap
intervals, ``compare_rows(..., test=False)`` gives the deltas without the paired
randomization test, and :func:`late_stats` adds both afterwards — the same numbers as
:func:`load_scores` and ``compare_rows(..., test=True)``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.statistics.resampling import (
    TIE_TOLERANCE,
    RunComparison,
    compare_runs,
    paired_randomization_test,
)
from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.services.scoring.report import RunSummary, ScoreReport, compare
from ndcg_studio.services.scoring.service import ScoringService, summarize
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.services.verdict import PoolSource
from ndcg_studio.storage.database import Database


@dataclass(frozen=True, eq=False)
class CompareRows:
    """The paired queries of a comparison of run A and run B; arrays of shape (n,).

    Attributes:
        run_a, run_b: run names; k: the cutoff.
        query: str external ids of the queries both runs have an nDCG for.
        ndcg_a, ndcg_b: float64 nDCG@K in [0, 1]; delta: float64 ndcg_a - ndcg_b.
        outcome: int8 +1 win of A, -1 loss, 0 tie (|delta| <= 1e-12, as ``compare_runs``).
        comparison: the service's :class:`~ndcg_studio.domain.statistics.resampling.RunComparison`
        (its
            p_value NaN until the test ran, ``compare_rows(..., test=False)``).
        query_key: (n,) int64 natural-order sort key of ``query`` (made in the worker, so the
            first sort by query does not make it on the GUI thread), or None.
    """

    run_a: str
    run_b: str
    k: int
    query: NDArray[np.str_]
    ndcg_a: NDArray[np.float64]
    ndcg_b: NDArray[np.float64]
    delta: NDArray[np.float64]
    outcome: NDArray[np.int8]
    comparison: RunComparison | None
    query_key: NDArray[np.int64] | None = None

    def __len__(self) -> int:
        return int(self.delta.shape[0])

    @classmethod
    def empty(cls) -> CompareRows:
        f = np.zeros(0)
        return cls("", "", 10, np.zeros(0, dtype=str), f, f, f, np.zeros(0, np.int8), None)

    @classmethod
    def from_report(
        cls, report: ScoreReport, run_a: str, run_b: str, comparison: RunComparison
    ) -> CompareRows:
        """Align the two runs of ``report`` by query and keep the pairs ``comparison`` used."""
        ia, ib = report.for_run(run_a), report.for_run(run_b)
        a, b = report.table.ndcg[ia], report.table.ndcg[ib]
        paired = comparison.paired
        queries = np.asarray(report.query_external, dtype=str)[report.group_query[ia]]
        delta = a[paired] - b[paired]
        outcome = np.where(delta > TIE_TOLERANCE, 1, np.where(delta < -TIE_TOLERANCE, -1, 0))
        return cls(
            run_a=run_a,
            run_b=run_b,
            k=report.settings.k,
            query=queries[paired] if queries.size else np.zeros(0, dtype=str),
            ndcg_a=a[paired],
            ndcg_b=b[paired],
            delta=delta,
            outcome=outcome.astype(np.int8),
            comparison=comparison,
        )


@dataclass(frozen=True, eq=False)
class ScoredRuns:
    """Scores of every run with per-run summaries (from the worker); ``summaries`` is empty
    when :func:`load_report` left them to :func:`late_stats`. ``pool_source``: the lists and
    grades that scoring read, for the verdict's pool (:func:`load_report`), or None."""

    report: ScoreReport
    summaries: dict[str, RunSummary]
    pool_source: PoolSource | None = None


@dataclass(frozen=True, eq=False)
class LateStats:
    """What follows the deltas (:func:`late_stats`): ``rows`` with the p-value of the paired
    randomization test, and every run's summary (bootstrap interval) or None when not asked."""

    rows: CompareRows
    summaries: dict[str, RunSummary] | None


def load_scores(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ScoredRuns:
    """Score every run and summarise each (worker thread): :func:`load_report` and the
    summaries :func:`late_stats` adds, in one go."""
    loaded = load_report(db, settings, progress, cancelled)
    return replace(loaded, summaries={s.run: s for s in summarize(loaded.report)})


def load_report(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ScoredRuns:
    """Score every run (worker thread); the summaries are left to :func:`late_stats`.

    The scores are :meth:`ScoringService.score_view`'s (what Review shows first: no ERR, RR
    not completed below K; Compare shows nDCG@K only), and the lists and grades read for them
    are kept for the verdict's pool (:class:`~ndcg_studio.services.verdict.PoolSource`), so
    the verdict does not read them again (bench_gui_scale.py Compare)."""
    report, data = ScoringService(db).score_view(settings, progress=progress, cancelled=cancelled)
    return ScoredRuns(report, {}, PoolSource.of(data))


def compare_rows(scored: ScoredRuns, run_a: str, run_b: str, *, test: bool = True) -> CompareRows:
    """The paired comparison of two runs as table rows (worker thread). ``test=False``: the
    p-value is left NaN (:func:`late_stats` adds it).

    Raises:
        LookupError: a run that is not in the report.
    """
    report = scored.report
    if test:
        comparison: RunComparison = compare(report, run_a, run_b)
    else:
        for run in (run_a, run_b):
            if run not in report.run_names:
                raise LookupError(f"unknown run {run!r}; known: {', '.join(report.run_names)}")
        ndcg = report.table.ndcg
        a, b = ndcg[report.for_run(run_a)], ndcg[report.for_run(run_b)]
        comparison = compare_runs(a, b, test=False)
    rows = CompareRows.from_report(report, run_a, run_b, comparison)
    return replace(rows, query_key=np.asarray(natural_key(rows.query), dtype=np.int64))


def late_stats(scored: ScoredRuns, rows: CompareRows, *, summaries: bool) -> LateStats:
    """The paired randomization test of ``rows`` (as :func:`compare_rows` with ``test=True``:
    seed 0, 10,000 sign flips) and, with ``summaries``, every run's summary (as
    :func:`load_scores`). Worker thread."""
    c = rows.comparison
    if c is not None and c.n and np.isnan(c.p_value):
        ndcg = scored.report.table.ndcg
        a = ndcg[scored.report.for_run(rows.run_a)]
        b = ndcg[scored.report.for_run(rows.run_b)]
        rows = replace(rows, comparison=replace(c, p_value=paired_randomization_test(a, b)))
    done = {s.run: s for s in summarize(scored.report)} if summaries else None
    return LateStats(rows, done)
