"""A score report: NDCG@K and its parts for every (run, query) group, its columns and rows,
the per-run summary type, and paired comparisons of two runs.

Pure computation over :class:`~ndcg_studio.services.scoring.load.ScoringData` (no database):
:func:`score_data` scores loaded data, :func:`compare` runs the paired test of two runs
(:func:`ndcg_studio.services.scoring.service.summarize` gives each run's mean with its interval).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.bands import band_labels, band_of
from ndcg_studio.domain.metrics.incomplete import IncompleteTable
from ndcg_studio.domain.metrics.measures import ScoreTable, score
from ndcg_studio.domain.statistics.resampling import MeanCI, RunComparison, compare_runs
from ndcg_studio.services.scoring.load import ScoringData
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.cells import rows_of_columns

__all__ = [
    "EXTRA_COLUMNS",
    "INCOMPLETE_COLUMNS",
    "RBP_GAIN",
    "RBP_PERSISTENCE",
    "SCORE_COLUMNS",
    "RunSummary",
    "ScoreReport",
    "compare",
    "describe_measures",
    "measure_means",
    "score_data",
]

#: First columns of ``ndcg-studio score --format csv``, in this order (then :data:`EXTRA_COLUMNS`).
SCORE_COLUMNS = ("query_id", "run", "k", "ndcg", "dcg", "idcg", "judged_at_k", "band")
EXTRA_COLUMNS = (
    "cg",
    "p_at_k",
    "rr",
    "err",
    "n_returned",
    "n_judgments",
    "n_annotators",
    "idcg_zero",
)
#: Columns of the measures for incomplete judgments (``score --measures all``), after
#: :data:`EXTRA_COLUMNS` (:mod:`ndcg_studio.domain.metrics.incomplete`).
INCOMPLETE_COLUMNS = ("ndcg_condensed", "ap", "recall", "bpref", "rbp", "rbp_residual")
#: RBP's persistence and gain in those columns.
RBP_PERSISTENCE = 0.8
RBP_GAIN: Literal["binary", "graded"] = "binary"


@dataclass(frozen=True, eq=False)
class ScoreReport:
    """NDCG@K and its parts for every (run, query) group; arrays have shape (n_groups,).

    Groups are ordered run by run (run names ascending), queries by database id within a run.
    ``incomplete`` holds the measures for incomplete judgments of the same groups when they
    were asked for (``ScoringService.score(measures=True)``), else None.
    """

    settings: ScoringSettings
    query_external: list[str]
    query_ids: NDArray[np.int64]
    run_names: list[str]
    group_run: NDArray[np.int64]
    group_query: NDArray[np.int64]
    table: ScoreTable
    band: NDArray[np.int8]
    n_annotators: NDArray[np.int64]
    incomplete: IncompleteTable | None = None

    def __len__(self) -> int:
        return len(self.table)

    def run_of(self, group: int) -> str:
        return self.run_names[int(self.group_run[group])]

    def query_of(self, group: int) -> str:
        return self.query_external[int(self.group_query[group])]

    def columns(self) -> tuple[str, ...]:
        extra = INCOMPLETE_COLUMNS if self.incomplete is not None else ()
        return SCORE_COLUMNS + EXTRA_COLUMNS + extra

    def column_values(self) -> list[list[str] | NDArray[Any]]:
        """The :meth:`columns`, each an array or list of length ``len(self)``: float64 arrays
        with NaN where a value is undefined (no judgments), int64/bool arrays, lists of str."""
        t = self.table
        judged = t.has_judgments
        extra = self.incomplete
        measures = [getattr(extra, c) for c in INCOMPLETE_COLUMNS] if extra is not None else []
        return [
            [self.query_external[int(q)] for q in self.group_query.tolist()],
            [self.run_names[int(r)] for r in self.group_run.tolist()],
            np.full(len(self), self.settings.k, dtype=np.int64),
            t.ndcg,
            np.where(judged, t.dcg, np.nan),
            np.where(judged, t.idcg, np.nan),
            t.judged_at_k,
            band_labels(self.band).tolist(),
            np.where(judged, t.cg, np.nan),
            t.precision,
            t.rr,
            t.err,
            t.n_returned,
            t.n_judged_query,
            self.n_annotators,
            t.idcg_zero,
            *measures,
        ]

    def rows(self) -> Iterator[tuple[Any, ...]]:
        """Rows in :meth:`columns` order; NaN values (no judgments) become None."""
        yield from rows_of_columns(self.column_values())

    def for_run(self, run: str) -> NDArray[np.intp]:
        """Group indices of one run, in query order."""
        return np.flatnonzero(self.group_run == self.run_names.index(run))


@dataclass(frozen=True)
class RunSummary:
    """Mean nDCG@K of one run with its 95% bootstrap interval and coverage."""

    run: str
    ndcg: MeanCI
    n_queries: int
    n_without_judgments: int
    n_missing_from_run: int
    n_idcg_zero: int
    band_counts: dict[str, int]


def score_data(
    data: ScoringData, settings: ScoringSettings, table: ScoreTable | None = None
) -> ScoreReport:
    """Score loaded data (pure computation, no database), or wrap an already computed table.

    With lists read only down to K (``data.truncated_at``), RR may be too low for lists whose
    first relevant document lies below K and ``n_returned`` is taken from the SQL count:
    :meth:`ScoringService.score` completes both.
    """
    if table is None:
        table = score(data.lists, data.qrels, settings.params())
        if data.truncated_at is not None:
            table = replace(table, n_returned=data.n_returned)
    n_q = data.n_queries
    n_groups = data.lists.n_groups
    group_run = np.arange(n_groups, dtype=np.int64) // max(n_q, 1)
    return ScoreReport(
        settings=settings,
        query_external=data.query_external,
        query_ids=data.query_ids,
        run_names=data.run_names,
        group_run=group_run,
        group_query=data.lists.group_query,
        table=table,
        band=band_of(table.ndcg, settings.bands),
        n_annotators=data.n_annotators[data.lists.group_query]
        if n_q
        else np.zeros(0, dtype=np.int64),
    )


def measure_means(report: ScoreReport) -> dict[str, dict[str, float]]:
    """Per run, the mean of each :data:`INCOMPLETE_COLUMNS` measure over the queries with
    judgments (NaN when there is none); empty when the report has no such measures."""
    if report.incomplete is None:
        return {}
    out: dict[str, dict[str, float]] = {}
    for run in report.run_names:
        idx = report.for_run(run)
        judged = report.incomplete.has_judgments[idx]
        out[run] = {
            c: float(getattr(report.incomplete, c)[idx][judged].mean())
            if judged.any()
            else float("nan")
            for c in INCOMPLETE_COLUMNS
        }
    return out


def describe_measures(settings: ScoringSettings) -> str:
    """One note stating each measure's relevance threshold and parameters."""
    t = f"{settings.relevance_threshold:g}"
    return (
        f"ndcg_condensed = nDCG'@{settings.k} (unjudged documents removed first; same gain and "
        f"ideal as ndcg; trec_eval -J); ap = average precision over the whole list, relevant = "
        f"grade >= {t} (trec_eval map); recall = recall@{settings.k}, relevant = grade >= {t}; "
        f"bpref: relevant = grade >= {t}, judged non-relevant = 0 <= grade < {t} (Buckley & "
        f"Voorhees 2004); rbp = rank-biased precision, p = {RBP_PERSISTENCE:g}, {RBP_GAIN} gain "
        f"(relevant = grade >= {t}; Moffat & Zobel 2008); rbp_residual = the most rbp could "
        "still rise if every unjudged and unreturned document were relevant; empty = the query "
        "has no judgment"
    )


def compare(report: ScoreReport, run_a: str, run_b: str, *, seed: int = 0) -> RunComparison:
    """Paired comparison of two runs over the queries both have a value for.

    Raises:
        LookupError: a run that is not in the report.
    """
    for run in (run_a, run_b):
        if run not in report.run_names:
            raise LookupError(f"unknown run {run!r}; known: {', '.join(report.run_names)}")
    a = report.table.ndcg[report.for_run(run_a)]
    b = report.table.ndcg[report.for_run(run_b)]
    return compare_runs(a, b, seed=seed)
