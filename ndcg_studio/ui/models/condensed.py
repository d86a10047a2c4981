"""nDCG@K beside the condensed nDCG′@K of every (query, run) (Review view), flagging the rows
where they differ by more than a threshold: there, holes in the judgments move the score.

nDCG′ (Sakai 2007, SIGIR; trec_eval ``-J``) removes the unjudged documents from the list before
scoring, so an unjudged document in the top K counts as non-relevant in nDCG but not in nDCG′.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor

from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.table import SORT_ROLE, NumpyTableModel, signed

COL_QUERY, COL_RUN, COL_NDCG, COL_CONDENSED, COL_GAP, COL_JUDGED = range(6)
#: |nDCG′ − nDCG| above this flags a row by default
DEFAULT_GAP_THRESHOLD = 0.1
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_FLAGGED = QColor("#FFE0B2")


@dataclass(frozen=True, eq=False)
class CondensedRows:
    """One entry per (query, run) group with judgments; arrays of shape (n,).

    Attributes:
        k: the cutoff.
        query, run: str external query ids and run names.
        ndcg: float64 nDCG@K in [0, 1]; condensed: float64 nDCG′@K in [0, 1].
        gap: float64 condensed - ndcg (positive: unjudged documents pulled nDCG down).
        judged_at_k: float64 share in [0, 1] of the top K documents with a judgment (NaN for
            an empty list).
    """

    k: int
    query: NDArray[np.str_]
    run: NDArray[np.str_]
    ndcg: NDArray[np.float64]
    condensed: NDArray[np.float64]
    gap: NDArray[np.float64]
    judged_at_k: NDArray[np.float64]

    def __len__(self) -> int:
        return int(self.ndcg.shape[0])

    @classmethod
    def empty(cls) -> CondensedRows:
        f = np.zeros(0)
        s = np.zeros(0, dtype=str)
        return cls(10, s, s, f, f, f, f)

    @classmethod
    def from_report(cls, report: ScoreReport) -> CondensedRows:
        """The judged groups of a report scored with ``measures=True``.

        Raises:
            ValueError: the report has no measures for incomplete judgments.
        """
        extra = report.incomplete
        if extra is None:
            raise ValueError("the report was scored without measures=True")
        keep = np.flatnonzero(report.table.has_judgments)
        queries = np.asarray(report.query_external, dtype=str)
        runs = np.asarray(report.run_names, dtype=str)
        ndcg = report.table.ndcg[keep]
        condensed = extra.ndcg_condensed[keep]
        return cls(
            k=report.settings.k,
            query=queries[report.group_query[keep]] if keep.size else np.zeros(0, dtype=str),
            run=runs[report.group_run[keep]] if keep.size else np.zeros(0, dtype=str),
            ndcg=ndcg,
            condensed=condensed,
            gap=condensed - ndcg,
            judged_at_k=report.table.judged_at_k[keep],
        )

    def flagged(self, threshold: float) -> NDArray[np.bool_]:
        """(n,) rows whose |nDCG′ − nDCG| exceeds ``threshold``."""
        return np.abs(self.gap) > threshold


class CondensedTableModel(NumpyTableModel):
    """Query, run, nDCG@K, nDCG′@K, their difference and judged@K; flagged rows highlighted."""

    HEADERS = (
        QT_TRANSLATE_NOOP("CondensedTableModel", "Query"),
        QT_TRANSLATE_NOOP("CondensedTableModel", "Run"),
        "nDCG",
        "nDCG′",
        "nDCG′ − nDCG",
        QT_TRANSLATE_NOOP("CondensedTableModel", "Judged@%1"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._d = CondensedRows.empty()
        self._threshold = DEFAULT_GAP_THRESHOLD
        self._only_flagged = False

    @property
    def rows(self) -> CondensedRows:
        return self._d

    @property
    def threshold(self) -> float:
        return self._threshold

    def set_rows(self, rows: CondensedRows) -> None:
        self.beginResetModel()
        self._d = rows
        self._reset_rows(self._mask_for(self._only_flagged))
        self.endResetModel()

    def set_threshold(self, threshold: float, only_flagged: bool) -> None:
        """Flag rows with |nDCG′ − nDCG| > ``threshold``; show only those if ``only_flagged``."""
        self._threshold = threshold
        self._only_flagged = only_flagged
        self.set_mask(self._mask_for(only_flagged))

    def _mask_for(self, only_flagged: bool) -> NDArray[np.bool_] | None:
        return self._d.flagged(self._threshold) if only_flagged else None

    def _header(self, section: int) -> str:
        k = self._d.k
        if section == COL_NDCG:
            return f"nDCG@{k}"
        if section == COL_CONDENSED:
            return f"nDCG′@{k}"
        return arg(self.translated(self.HEADERS[section]), k)

    def _header_tooltip(self, section: int) -> str | None:
        return {
            COL_NDCG: "nDCG@K: an unjudged document counts as not relevant",
            COL_CONDENSED: "Condensed nDCG′@K (Sakai 2007; trec_eval -J): unjudged documents "
            "are removed from the list before scoring",
            COL_GAP: "Positive: unjudged documents in the list pull nDCG down; a large "
            "difference means the holes in the judgments move the score",
            COL_JUDGED: "Share of the run's top K documents that have a judgment",
        }.get(section)

    def _source_count(self) -> int:
        return len(self._d)

    def _sort_key(self, column: int) -> NDArray[Any]:
        d = self._d
        keys: list[NDArray[Any]] = [
            natural_key(d.query),
            d.run,
            d.ndcg,
            d.condensed,
            np.abs(d.gap),
            d.judged_at_k,
        ]
        return keys[column]

    def _cell(self, row: int, column: int, role: int) -> Any:
        d = self._d
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            if column == COL_QUERY:
                return str(d.query[row])
            if column == COL_RUN:
                return str(d.run[row])
            value = float([d.ndcg, d.condensed, d.gap, d.judged_at_k][column - COL_NDCG][row])
            if role == SORT_ROLE:
                return value
            if math.isnan(value):
                return ""
            if column == COL_GAP:
                return signed(value, 4)
            if column == COL_JUDGED:
                return f"{value:.0%}"
            return f"{value:.4f}"
        flagged = abs(float(d.gap[row])) > self._threshold
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= COL_NDCG:
            return _RIGHT
        if role == Qt.ItemDataRole.BackgroundRole and flagged:
            return _FLAGGED
        if role == Qt.ItemDataRole.ForegroundRole and flagged:
            return QColor("#000000")
        if role == Qt.ItemDataRole.ToolTipRole and flagged:
            text = self.tr(
                "nDCG and nDCG′ differ by more than %1: the unjudged documents of this list "
                "move the score; judge them (Annotate) to settle it"
            )
            return arg(text, f"{self._threshold:g}")

        return None
