"""Tables of the Stability view: the tau matrix between grade sets, one row per pair of grade
sets (tau, tau_AP, flips), and the runs' mean nDCG@K under each grade set."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.services.stability.report import STABILITY_COLUMNS, StabilityReport
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.table import SORT_ROLE, NumpyTableModel, TableModel

Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)


def tau_color(value: float) -> QColor | None:
    """Green for tau 1, white for 0, red for -1 (None for NaN)."""
    if math.isnan(value):
        return None
    v = max(-1.0, min(1.0, value))
    if v >= 0:
        return QColor.fromRgbF(1.0 - 0.55 * v, 1.0 - 0.2 * v, 1.0 - 0.55 * v)
    return QColor.fromRgbF(1.0 + 0.05 * v, 1.0 + 0.55 * v, 1.0 + 0.55 * v)


class TauMatrixModel(TableModel):
    """A square table over the grade sets: Kendall's tau-b above the diagonal, tau_AP below it
    (both symmetric), 1 on the diagonal; cells coloured green (1) to red (-1)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names: list[str] = []
        self._tau = np.zeros((0, 0))
        self._tau_ap = np.zeros((0, 0))

    def set_report(self, report: StabilityReport | None) -> None:
        self.beginResetModel()
        if report is None:
            self._names, self._tau, self._tau_ap = [], np.zeros((0, 0)), np.zeros((0, 0))
        else:
            self._names = [s.name for s in report.result.sets]
            self._tau = report.result.tau_matrix("kendall_tau")
            self._tau_ap = report.result.tau_matrix("tau_ap")
        self.endResetModel()

    def value(self, row: int, column: int) -> float:
        """tau-b above the diagonal, tau_AP below, 1.0 on it."""
        if row == column:
            return 1.0
        m = self._tau if row < column else self._tau_ap
        return float(m[row, column])

    def _row_count(self) -> int:
        return len(self._names)

    def _headers(self) -> list[str]:
        return self._names

    def _header_tooltip(self, section: int) -> str | None:
        return self.tr("Kendall's τ-b above the diagonal, τ_AP (top-weighted) below")

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return self._names[section] if 0 <= section < len(self._names) else None
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        v = self.value(r, c)
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if math.isnan(v) else f"{v:.3f}"
        if role == SORT_ROLE:
            return v
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER
        if role == Qt.ItemDataRole.BackgroundRole:
            color = tau_color(v)
            return QBrush(color) if color is not None else None
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("#000000"))
        if role == Qt.ItemDataRole.ToolTipRole:
            a, b = self._names[r], self._names[c]
            what = "τ-b" if r < c else "τ_AP" if r > c else self.tr("same grade set")
            return arg(self.tr("%1 vs %2: %3"), a, b, what)
        return None


class PairsTableModel(NumpyTableModel):
    """One row per pair of grade sets, the columns of ``ndcg-studio stability``."""

    HEADERS = (
        QT_TRANSLATE_NOOP("PairsTableModel", "Set A"),
        QT_TRANSLATE_NOOP("PairsTableModel", "Set B"),
        "τ-b",
        "τ_AP",
        QT_TRANSLATE_NOOP("PairsTableModel", "Runs"),
        QT_TRANSLATE_NOOP("PairsTableModel", "Order flips"),
        QT_TRANSLATE_NOOP("PairsTableModel", "Significance flips"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._data: list[tuple[Any, ...]] = []

    def set_report(self, report: StabilityReport | None) -> None:
        self.beginResetModel()
        self._data = list(report.rows()) if report is not None else []
        self._reset_rows()
        self.endResetModel()

    @property
    def rows(self) -> list[tuple[Any, ...]]:
        """The rows as the CLI writes them (:data:`STABILITY_COLUMNS`)."""
        return self._data

    def _source_count(self) -> int:
        return len(self._data)

    def _sort_key(self, column: int) -> NDArray[Any]:
        values = [r[column] for r in self._data]
        if column in (2, 3):
            return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
        if column == 4:
            return np.array(values, dtype=np.int64)
        if column in (5, 6):
            return np.array([len(v.split("|")) if v else 0 for v in values], dtype=np.int64)
        return natural_key(np.array(values, dtype=str))

    def _cell(self, row: int, column: int, role: int) -> Any:
        value = self._data[row][column]
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            if column in (2, 3):
                return "" if value is None else f"{value:.3f}"
            if column in (5, 6):
                return value.replace("|", ", ") if value else "—"
            return str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3, 4):
            return _RIGHT
        if role == Qt.ItemDataRole.BackgroundRole and column in (2, 3) and value is not None:
            color = tau_color(float(value))
            return QBrush(color) if color is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and column in (2, 3):
            return QBrush(QColor("#000000"))
        if role == Qt.ItemDataRole.ToolTipRole and column == 6:
            return self.tr(
                "Run pairs whose paired randomization test says different things under the "
                "two grade sets (significant under one, not under the other, or opposite)"
            )
        return None


assert len(PairsTableModel.HEADERS) == len(STABILITY_COLUMNS)


class MeansTableModel(NumpyTableModel):
    """Runs (rows) by grade sets (columns): mean nDCG@K, and each run's rank under the set."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runs: list[str] = []
        self._sets: list[str] = []
        self._means = np.zeros((0, 0))
        self._k = 10

    def set_report(self, report: StabilityReport | None) -> None:
        self.beginResetModel()
        if report is None:
            self._runs, self._sets, self._means = [], [], np.zeros((0, 0))
        else:
            self._runs = list(report.result.runs)
            self._sets = [s.name for s in report.result.sets]
            self._means = report.result.means.T.copy()  # runs x sets
            self._k = report.settings.k
        self.HEADERS = tuple(self._headers())  # the columns vary; sort() checks HEADERS
        self._reset_rows()
        self.endResetModel()

    def _headers(self) -> list[str]:
        return [QT_TRANSLATE_NOOP("MeansTableModel", "Run"), *self._sets]

    def _header(self, section: int) -> str:
        # the grade sets are names (annotators, sources, rules): only "Run" is translated
        return self.translated(self._headers()[0]) if section == 0 else self._sets[section - 1]

    def _header_tooltip(self, section: int) -> str | None:
        if section == 0:
            return None
        text = self.tr("mean nDCG@%1 under %2 (rank among the runs)")
        return arg(text, self._k, self._sets[section - 1])

    def _source_count(self) -> int:
        return len(self._runs)

    def _sort_key(self, column: int) -> NDArray[Any]:
        if column == 0:
            return natural_key(np.array(self._runs, dtype=str))
        return self._means[:, column - 1]

    def rank(self, row: int, column: int) -> int:
        """1-based rank of the run under grade set ``column - 1`` (ties share the best)."""
        col = self._means[:, column - 1]
        v = col[row]
        return int(np.count_nonzero(col > v)) + 1

    def _cell(self, row: int, column: int, role: int) -> Any:
        if column == 0:
            if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
                return self._runs[row]
            return None
        v = float(self._means[row, column - 1])
        if role == SORT_ROLE:
            return v
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if math.isnan(v) else f"{v:.4f}  (#{self.rank(row, column)})"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT
        return None
