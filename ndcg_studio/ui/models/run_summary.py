"""Review's per-run table: mean nDCG@K with its 95% bootstrap interval, and how many queries
the mean covers, has no judgment for, or the run returned nothing for (one row per
:class:`~ndcg_studio.services.scoring.service.RunSummary`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt

from ndcg_studio.services.scoring.report import RunSummary
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.table import SORT_ROLE, Index, TableModel, fixed


class RunSummaryModel(TableModel):
    """One row per run: mean nDCG@K with its 95% bootstrap interval, and coverage counts."""

    HEADERS = (
        QT_TRANSLATE_NOOP("RunSummaryModel", "Run"),
        QT_TRANSLATE_NOOP("RunSummaryModel", "Mean nDCG"),
        QT_TRANSLATE_NOOP("RunSummaryModel", "95% CI"),
        QT_TRANSLATE_NOOP("RunSummaryModel", "Queries"),
        QT_TRANSLATE_NOOP("RunSummaryModel", "Unjudged"),
        QT_TRANSLATE_NOOP("RunSummaryModel", "Not returned"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[RunSummary] = []
        self._k = 10
        self._pending = False

    @property
    def summaries(self) -> list[RunSummary]:
        return list(self._rows)

    def set_summaries(
        self, summaries: Sequence[RunSummary], k: int, *, pending: bool = False
    ) -> None:
        """Show ``summaries``; ``pending``: their intervals are still being computed (the
        interval column says so until the summaries with intervals are set)."""
        self.beginResetModel()
        self._rows = list(summaries)
        self._k = k
        self._pending = pending
        self.endResetModel()

    def _row_count(self) -> int:
        return len(self._rows)

    def _header(self, section: int) -> str:
        if section == 1:
            return arg(self.tr("Mean nDCG@%1"), self._k)
        return self.translated(self.HEADERS[section])

    def _header_tooltip(self, section: int) -> str | None:
        if section == 2:
            return self.tr(
                "95% percentile bootstrap interval of the mean (queries resampled 10,000 times)"
            )
        if section == 3:
            return self.tr("Queries with judgments: the ones the mean covers")
        if section == 4:
            return self.tr("Queries without any judgment: no nDCG, left out of the mean")
        if section == 5:
            return self.tr("Judged queries the run returned nothing for: they score 0")
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        s = self._rows[index.row()]
        col = index.column()
        raw: list[Any] = [
            s.run,
            s.ndcg.mean,
            s.ndcg.low,
            s.n_queries,
            s.n_without_judgments,
            s.n_missing_from_run,
        ]
        if role == SORT_ROLE:
            return raw[col]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return s.run
            if col == 1:
                return fixed(s.ndcg.mean, 4)
            if col == 2:
                if self._pending:
                    return "…"
                if math.isnan(s.ndcg.low):
                    return ""
                return f"{s.ndcg.low:.4f} – {s.ndcg.high:.4f}"
            return f"{int(raw[col]):,}"
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and col in (1, 2):
            if self._pending:
                return arg(
                    self.tr("Mean over %1 judged queries; interval being computed…"), s.ndcg.n
                )
            text = self.tr("Mean over %1 judged queries; 95% interval [%2, %3]")
            return arg(text, s.ndcg.n, f"{s.ndcg.low:.4f}", f"{s.ndcg.high:.4f}")

        return None
