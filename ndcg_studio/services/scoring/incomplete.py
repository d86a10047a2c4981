"""Measures for incomplete judgments for every (query, run) of the database.

Reads the same groups as :class:`ndcg_studio.services.scoring.service.ScoringService` (every
selected
run x every query with a result or a judgment, run by run, queries by database id), but whole
ranked lists (AP, bpref and RBP look below K), and computes
:func:`ndcg_studio.domain.metrics.incomplete.incomplete_measures` for all of them at once. The
columns of :data:`INCOMPLETE_COLUMNS` are meant for the ``score`` CSV
(``ndcg_condensed,ap,recall,bpref,rbp,rbp_residual``), in the ScoreReport's group order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.incomplete import IncompleteTable, incomplete_measures
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.scoring.load import ScoringData, ScoringRead, load_scoring_data
from ndcg_studio.services.scoring.report import INCOMPLETE_COLUMNS
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.cells import rows_of_columns
from ndcg_studio.storage.database import Database

__all__ = ["IncompleteReport", "IncompleteService", "incomplete_report"]


@dataclass(frozen=True, eq=False)
class IncompleteReport:
    """The measures of every (run, query) group; arrays have shape (n_groups,).

    Attributes:
        settings: K (of nDCG′, AP@K and Recall@K), threshold, gain and ideal of nDCG′,
            consensus, runs.
        persistence, rbp_gain: RBP's p and gain ("binary": grade >= threshold).
        query_external, run_names: ids and names; group g is run ``group_run[g]`` on query
            ``group_query[g]`` (same order as ``ScoringService.score``).
        table: the domain's :class:`IncompleteTable`.
    """

    settings: ScoringSettings
    persistence: float
    rbp_gain: str
    query_external: list[str]
    run_names: list[str]
    group_run: NDArray[np.int64]
    group_query: NDArray[np.int64]
    table: IncompleteTable

    def __len__(self) -> int:
        return len(self.table)

    def columns(self) -> tuple[str, ...]:
        return ("query_id", "run", *INCOMPLETE_COLUMNS)

    def column_values(self) -> list[list[str] | NDArray[Any]]:
        """The :meth:`columns`; float64 arrays with NaN where the query has no judgment."""
        t = self.table
        return [
            [self.query_external[int(q)] for q in self.group_query.tolist()],
            [self.run_names[int(r)] for r in self.group_run.tolist()],
            t.ndcg_condensed,
            t.ap,
            t.recall,
            t.bpref,
            t.rbp,
            t.rbp_residual,
        ]

    def rows(self) -> Iterator[tuple[Any, ...]]:
        """Rows in :meth:`columns` order; NaN becomes None."""
        yield from rows_of_columns(self.column_values())


def incomplete_report(
    data: ScoringData,
    settings: ScoringSettings,
    *,
    persistence: float = 0.8,
    rbp_gain: Literal["binary", "graded"] = "binary",
) -> IncompleteReport:
    """Compute the measures of loaded data (pure computation, no database).

    Raises:
        ValueError: ``data`` holds lists cut at K (``truncated_at``): these measures need
            whole lists; or a bad persistence / rbp_gain (see ``incomplete_measures``).
    """
    if data.truncated_at is not None:
        raise ValueError("incomplete-judgment measures need whole lists, not lists cut at K")
    table = incomplete_measures(
        data.lists, data.qrels, settings.params(), persistence=persistence, rbp_gain=rbp_gain
    )
    n_q = data.n_queries
    return IncompleteReport(
        settings=settings,
        persistence=persistence,
        rbp_gain=rbp_gain,
        query_external=data.query_external,
        run_names=data.run_names,
        group_run=np.arange(data.lists.n_groups, dtype=np.int64) // max(n_q, 1),
        group_query=data.lists.group_query,
        table=table,
    )


class IncompleteService:
    """nDCG′, AP, Recall, bpref and RBP of the database's runs. Each call opens a connection."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def measures(
        self,
        settings: ScoringSettings | None = None,
        *,
        persistence: float = 0.8,
        rbp_gain: Literal["binary", "graded"] = "binary",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> IncompleteReport:
        """Every (run, query) group's measures (groups as ``ScoringService.score``).

        Raises:
            LookupError: an unknown run or annotator name.
            ValueError: bad persistence or rbp_gain.
        """
        settings = settings or ScoringSettings()
        # The loader reads whole lists (with scores) for ideal="list"; the ideal of nDCG′
        # itself still comes from ``settings``.
        whole = replace(settings, ideal="list")
        with self.db.engine.connect() as conn:
            data = load_scoring_data(conn, ScoringRead(whole), progress, cancelled)
        report = incomplete_report(data, settings, persistence=persistence, rbp_gain=rbp_gain)
        checkpoint(4, 4, progress, cancelled)
        return report
