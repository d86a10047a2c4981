"""The pool of the current query as a compact list: position, title, this annotator's grade.

Blind by construction: it holds :class:`~ndcg_studio.services.annotation.service.PoolItem` values,
which
carry no run, rank, score or other annotator's grade.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QWidget

from ndcg_studio.services.annotation.types import PoolItem
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.models.grades import chip_icon, grade_name
from ndcg_studio.ui.models.table import Index, TableModel


class PoolModel(TableModel):
    """Rows of :class:`PoolItem` in the pool's (stable shuffled) order; the current row is
    bold."""

    COL_POSITION = 0
    COL_TITLE = 1
    COL_GRADE = 2
    HEADERS = (
        "#",
        QT_TRANSLATE_NOOP("PoolModel", "Document"),
        QT_TRANSLATE_NOOP("PoolModel", "Grade"),
    )

    DocumentIdRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: list[PoolItem] = []
        self._row_of: dict[int, int] = {}
        self._current = -1

    # ------------------------------------------------------------------ our API
    def set_items(self, items: list[PoolItem]) -> None:
        self.beginResetModel()
        self._items = list(items)
        self._row_of = {it.document_id: i for i, it in enumerate(self._items)}
        self._current = -1
        self.endResetModel()

    def items(self) -> list[PoolItem]:
        return list(self._items)

    def item(self, row: int) -> PoolItem:
        return self._items[row]

    def row_of(self, document_id: int) -> int | None:
        return self._row_of.get(document_id)

    def update_item(self, document_id: int, grade: int | None, note: str | None) -> None:
        """Show a new grade and note for one document (one ``dataChanged``)."""
        row = self._row_of.get(document_id)
        if row is None:
            return
        self._items[row] = replace(self._items[row], grade=grade, note=note)
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def set_current(self, row: int) -> None:
        """Mark ``row`` as the document on screen (bold)."""
        old, self._current = self._current, row
        for r in {old, row}:
            if 0 <= r < len(self._items):
                self.dataChanged.emit(self.index(r, 0), self.index(r, self.columnCount() - 1))

    def judged_count(self) -> int:
        return sum(1 for it in self._items if it.grade is not None)

    # ------------------------------------------------------------------ Qt overrides
    def _row_count(self) -> int:
        return len(self._items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        row, col = index.row(), index.column()
        item = self._items[row]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.COL_POSITION:
                return str(row + 1)
            if col == self.COL_TITLE:
                return item.title or item.external_id
            if col == self.COL_GRADE:
                return None  # the chip shows the digit (or a dashed box: not judged)
        elif role == Qt.ItemDataRole.DecorationRole and col == self.COL_GRADE:
            return chip_icon(item.grade)
        elif role == Qt.ItemDataRole.ToolTipRole:
            tip = f"{item.external_id}: {item.title}\n{grade_name(item.grade)}"
            return tip + (f"\nNote: {item.note}" if item.note else "")
        elif role == Qt.ItemDataRole.FontRole and row == self._current:
            font = QFont()
            font.setBold(True)
            return font
        elif role == self.SortRole:
            if col == self.COL_POSITION:
                return row
            if col == self.COL_TITLE:
                return item.title.casefold()
            return -1 if item.grade is None else item.grade
        elif role == self.DocumentIdRole:
            return item.document_id
        elif role == Qt.ItemDataRole.TextAlignmentRole and col == self.COL_POSITION:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
