"""Models of the Agreement view's item lists: the disputed items, one item's grades, and an
item's history (split from :mod:`ndcg_studio.ui.models.agreement`, which re-exports them).

The disputed rows arrive built in a worker (:class:`~ndcg_studio.services.screens.agreement.
DisputedRows`, their Grades text included), so the GUI thread only indexes arrays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, Qt

from ndcg_studio.services.annotation.types import HistoryEntry
from ndcg_studio.services.screens.agreement import DisputedRows
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.grades import chip_icon, grade_name
from ndcg_studio.ui.models.table import SORT_ROLE, Index, NumpyTableModel, TableModel

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)


# ---------------------------------------------------------------------------------- disputed
COL_D_QUERY, COL_D_DOC, COL_D_RANGE, COL_D_MEAN, COL_D_FINAL, COL_D_GRADES = range(6)


class DisputedItemsModel(NumpyTableModel):
    """The disputed items: query, document, range and mean of the grades, every grade, and the
    adjudicated final grade."""

    HEADERS = (
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Query"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Document"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Range"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Mean"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Final"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Grades"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._d = DisputedRows.empty()
        self._grades_text: NDArray[np.str_] = np.zeros(0, dtype=str)

    @property
    def rows(self) -> DisputedRows:
        return self._d

    def set_rows(self, rows: DisputedRows) -> None:
        self.beginResetModel()
        self._d = rows
        self._grades_text = rows.grades_text
        self._reset_rows()
        self.endResetModel()

    def item(self, view_row: int) -> tuple[int, int]:
        """(query database id, document database id) at ``view_row``."""
        s = self.source_row(view_row)
        return int(self._d.query_id[s]), int(self._d.document_id[s])

    def find(self, query_id: int, document_id: int) -> int:
        """View row of an item, -1 if absent."""
        hits = np.flatnonzero((self._d.query_id == query_id) & (self._d.document_id == document_id))
        return self.view_row(int(hits[0])) if hits.size else -1

    def _source_count(self) -> int:
        return len(self._d)

    def _sort_key(self, column: int) -> NDArray[Any]:
        d = self._d
        return [
            natural_key(d.query),
            natural_key(d.document),
            d.range,
            d.mean,
            d.adjudicated,
            self._grades_text,
        ][column]

    def _cell(self, row: int, column: int, role: int) -> Any:
        d = self._d
        if role == SORT_ROLE:
            key = [d.query, d.document, d.range, d.mean, d.adjudicated, self._grades_text][column]
            value = key[row]
            return str(value) if column in (COL_D_QUERY, COL_D_DOC, COL_D_GRADES) else float(value)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_D_QUERY:
                return str(d.query[row])
            if column == COL_D_DOC:
                return str(d.document[row])
            if column == COL_D_RANGE:
                return f"{float(d.range[row]):g}"
            if column == COL_D_MEAN:
                return f"{float(d.mean[row]):.2f}"
            if column == COL_D_GRADES:
                return str(self._grades_text[row])
            final = float(d.adjudicated[row])
            return "" if math.isnan(final) else f"{final:g}"
        if role == Qt.ItemDataRole.DecorationRole and column == COL_D_FINAL:
            final = float(d.adjudicated[row])
            return None if math.isnan(final) else chip_icon(int(final))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_D_RANGE, COL_D_MEAN):
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_D_FINAL:
            final = float(d.adjudicated[row])
            if math.isnan(final):
                return self.tr("Not adjudicated yet")
            return self.tr("Adjudicated final grade")
        return None


# ---------------------------------------------------------------------------------- one item
class ItemGradesModel(TableModel):
    """One item's grades side by side: annotator → grade (with chip and name), then the final
    (adjudicated) grade if any."""

    HEADERS = (
        QT_TRANSLATE_NOOP("ItemGradesModel", "Annotator"),
        QT_TRANSLATE_NOOP("ItemGradesModel", "Grade"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, int | None, bool]] = []

    def set_grades(self, grades: Mapping[str, float], adjudicated: float | None = None) -> None:
        self.beginResetModel()
        self._rows = [(a, int(g), False) for a, g in sorted(grades.items())]
        if adjudicated is not None and not math.isnan(adjudicated):
            self._rows.append((self.tr("Final (adjudicated)"), int(adjudicated), True))
        self.endResetModel()

    def _row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        name, grade, final = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return name
            return f"{grade}  {grade_name(grade)}"
        if role == SORT_ROLE:
            return name if index.column() == 0 else grade
        if role == Qt.ItemDataRole.DecorationRole and index.column() == 1:
            return chip_icon(grade)
        if role == Qt.ItemDataRole.FontRole and final:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)
            return font
        return None


class HistoryModel(TableModel):
    """The change log of one item (judgments and adjudications), newest first."""

    HEADERS = (
        QT_TRANSLATE_NOOP("HistoryModel", "When (UTC)"),
        QT_TRANSLATE_NOOP("HistoryModel", "What"),
        QT_TRANSLATE_NOOP("HistoryModel", "By"),
        QT_TRANSLATE_NOOP("HistoryModel", "Change"),
        QT_TRANSLATE_NOOP("HistoryModel", "Note"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str, str, str, str]] = []

    def set_history(self, entries: Sequence[HistoryEntry], names: Mapping[int, str]) -> None:
        """Show ``entries`` (oldest first, as the service returns them) newest first;
        ``names`` maps annotator ids to names."""

        def who(i: int | None) -> str:
            return "" if i is None else names.get(i, f"#{i}")

        def grade(g: int | None) -> str:
            return "—" if g is None else str(g)

        self.beginResetModel()
        self._rows = []
        for e in reversed(list(entries)):
            what = (
                self.tr("adjudication")
                if e.kind == "adjudication"
                else arg(self.tr("grade of %1"), who(e.annotator_id))
            )

            note = e.new_note or ""
            self._rows.append(
                (
                    e.changed_at.strftime("%Y-%m-%d %H:%M:%S"),
                    what,
                    who(e.changed_by),
                    f"{grade(e.old_grade)} → {grade(e.new_grade)}",
                    note,
                )
            )
        self.endResetModel()

    def _row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            return self._rows[index.row()][index.column()]
        return None
