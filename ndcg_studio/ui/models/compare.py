"""The per-query deltas of two runs (Compare view), sorted with numpy."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from numpy.typing import NDArray
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from ndcg_studio.services.screens.compare import CompareRows
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.table import SORT_ROLE, NumpyTableModel, signed

COL_QUERY, COL_A, COL_B, COL_DELTA, COL_OUTCOME = range(5)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class DeltaTableModel(NumpyTableModel):
    """Query, nDCG of A, nDCG of B, Δ = A − B, and who wins."""

    HEADERS = (
        QT_TRANSLATE_NOOP("DeltaTableModel", "Query"),
        "nDCG A",
        "nDCG B",
        "Δ (A − B)",
        QT_TRANSLATE_NOOP("DeltaTableModel", "Better"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._d = CompareRows.empty()

    @property
    def rows(self) -> CompareRows:
        return self._d

    def set_rows(self, rows: CompareRows) -> None:
        self.beginResetModel()
        self._d = rows
        self._reset_rows()
        self.endResetModel()

    def replace_comparison(self, rows: CompareRows) -> None:
        """The same rows with a completed comparison (its p-value): nothing shown changes."""
        self._d = rows

    def _header(self, section: int) -> str:
        if section in (COL_A, COL_B):
            return f"nDCG@{self._d.k} {'A' if section == COL_A else 'B'}"
        return self.translated(self.HEADERS[section])

    def _header_tooltip(self, section: int) -> str | None:
        d = self._d
        if section in (COL_A, COL_B):
            return arg(self.tr("nDCG@%1 of %2"), d.k, d.run_a if section == COL_A else d.run_b)
        if section == COL_DELTA:
            return self.tr("nDCG of A minus nDCG of B: positive when A ranks this query better")
        return None

    def _source_count(self) -> int:
        return len(self._d)

    def _sort_key(self, column: int) -> NDArray[Any]:
        d = self._d
        if column == 0:
            return d.query_key if d.query_key is not None else natural_key(d.query)
        columns: list[NDArray[Any]] = [d.ndcg_a, d.ndcg_b, d.delta, d.outcome]
        return columns[column - 1]

    def _cell(self, row: int, column: int, role: int) -> Any:
        d = self._d
        if role == SORT_ROLE:
            if column == COL_QUERY:
                return str(d.query[row])
            columns: list[NDArray[Any]] = [d.ndcg_a, d.ndcg_b, d.delta, d.outcome]
            return columns[column - 1][row].item()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_QUERY:
                return str(d.query[row])
            if column == COL_OUTCOME:
                o = int(d.outcome[row])
                return "A" if o > 0 else "B" if o < 0 else self.tr("tie")
            value = float([d.ndcg_a, d.ndcg_b, d.delta][column - 1][row])
            if math.isnan(value):
                return ""
            return signed(value, 4) if column == COL_DELTA else f"{value:.4f}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_A, COL_B, COL_DELTA):
            return _RIGHT
        if role == Qt.ItemDataRole.DecorationRole and column == COL_OUTCOME:
            return _outcome_icon(int(d.outcome[row]))
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_OUTCOME:
            o = int(d.outcome[row])
            run = d.run_a if o > 0 else d.run_b
            if not o:
                return self.tr("Same nDCG in both runs")
            return arg(self.tr("%1 ranks this query better"), run)

        return None


@cache
def _outcome_pixmap(outcome: int) -> QPixmap:
    from ndcg_studio.ui.charts import BETTER_A, BETTER_B

    color = QColor(BETTER_A if outcome > 0 else BETTER_B if outcome < 0 else "#9E9E9E")
    pixmap = QPixmap(24, 24)
    pixmap.setDevicePixelRatio(2.0)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(color.darker(140))
    painter.setBrush(color)
    painter.drawEllipse(1, 1, 10, 10)
    painter.end()
    return pixmap


def _outcome_icon(outcome: int) -> QIcon:
    """A small disc in run A's colour (A better), B's (B better) or grey (tie)."""
    return QIcon(_outcome_pixmap(outcome))
