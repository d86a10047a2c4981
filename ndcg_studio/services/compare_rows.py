"""What the Compare view shows, computed below ``ui`` (no Qt): every run scored and summarised
(:func:`load_scores`, a worker thread), and two runs' paired queries as :class:`CompareRows`
(:func:`compare_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.stats import TIE_TOLERANCE, RunComparison
from ndcg_studio.services.progress import Cancelled, Progress
from ndcg_studio.services.scoring import (
    RunSummary,
    ScoreReport,
    ScoringService,
    ScoringSettings,
    compare,
    summarize,
)
from ndcg_studio.storage.database import Database


@dataclass(frozen=True, eq=False)
class CompareRows:
    """The paired queries of a comparison of run A and run B; arrays of shape (n,).

    Attributes:
        run_a, run_b: run names; k: the cutoff.
        query: str external ids of the queries both runs have an nDCG for.
        ndcg_a, ndcg_b: float64 nDCG@K in [0, 1]; delta: float64 ndcg_a - ndcg_b.
        outcome: int8 +1 win of A, -1 loss, 0 tie (|delta| <= 1e-12, as ``compare_runs``).
        comparison: the service's :class:`~ndcg_studio.domain.stats.RunComparison`.
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
    """Scores of every run with per-run summaries (from the worker)."""

    report: ScoreReport
    summaries: dict[str, RunSummary]


def load_scores(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ScoredRuns:
    """Score every run and summarise each (worker thread)."""
    report = ScoringService(db).score(settings, progress=progress, cancelled=cancelled)
    return ScoredRuns(report, {s.run: s for s in summarize(report)})


def compare_rows(scored: ScoredRuns, run_a: str, run_b: str) -> CompareRows:
    """The paired comparison of two runs as table rows (worker thread)."""
    comparison: RunComparison = compare(scored.report, run_a, run_b)
    return CompareRows.from_report(scored.report, run_a, run_b, comparison)
