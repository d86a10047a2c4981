"""The query list of the Annotate view: every query with this annotator's progress on its pool.

Vorta-style table model with ``COL_*`` constants and a ``SortRole`` giving raw values. Sorting
happens here in one Python ``sorted`` with a key (Orange's ``AbstractSortTableModel`` idea): a
``QSortFilterProxyModel`` would call ``lessThan`` — and through it ``data()`` — millions of
times on 100,000 queries. :class:`QueryFilterProxy` therefore only filters and forwards
``sort()`` to this model.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QModelIndex, QRect, QSize, QSortFilterProxyModel, Qt
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ndcg_studio.services.annotation import QueryProgress
from ndcg_studio.ui.collation import collation_ranks, fold
from ndcg_studio.ui.models.table import Index, TableModel
from ndcg_studio.vocabulary import natural_key


class QueryProgressModel(TableModel):
    """Rows of :class:`QueryProgress`; one row per query."""

    COL_QUERY = 0
    COL_TEXT = 1
    COL_PROGRESS = 2
    HEADERS = ("Query", "Text", "Judged")

    QueryIdRole = Qt.ItemDataRole.UserRole + 2
    #: (judged, pool size) of the row, for the progress delegate
    ProgressRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[QueryProgress] = []
        self._row_of: dict[int, int] = {}
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._text_rank: dict[int, int] | None = None  # query id -> collation rank of its text
        # running totals (complete queries, judged, pooled), kept up to date by set_judged so a
        # keystroke does not sum 100,000 rows
        self._totals = (0, 0, 0)

    # ------------------------------------------------------------------ our API
    def set_rows(self, rows: list[QueryProgress]) -> None:
        """Replace every row (a model reset); keeps the last sort order."""
        self.beginResetModel()
        self._rows = list(rows)
        self._text_rank = None
        if self._sort is not None:
            self._rows.sort(key=self._key(self._sort[0]))
            if self._sort[1] == Qt.SortOrder.DescendingOrder:
                self._rows.reverse()
        self._reindex()
        self._totals = (
            sum(1 for r in self._rows if r.complete),
            sum(r.judged for r in self._rows),
            sum(r.pool_size for r in self._rows),
        )
        self.endResetModel()

    def rows(self) -> list[QueryProgress]:
        return list(self._rows)

    def row_of(self, query_id: int) -> int | None:
        """The row of ``query_id`` (None if not listed)."""
        return self._row_of.get(query_id)

    def query_at(self, row: int) -> QueryProgress:
        return self._rows[row]

    def progress_of(self, query_id: int) -> QueryProgress | None:
        row = self._row_of.get(query_id)
        return None if row is None else self._rows[row]

    def set_judged(self, query_id: int, judged: int) -> None:
        """Update one query's judged count (one ``dataChanged``; the row does not move until
        the next sort, so the list does not jump while you work)."""
        row = self._row_of.get(query_id)
        if row is None:
            return
        old = self._rows[row]
        judged = max(0, min(judged, old.pool_size))
        if judged == old.judged:
            return
        new = replace(old, judged=judged)
        self._rows[row] = new
        complete, judged_total, pooled = self._totals
        self._totals = (
            complete + int(new.complete) - int(old.complete),
            judged_total + new.judged - old.judged,
            pooled,
        )
        left = self.index(row, 0)
        right = self.index(row, self.columnCount() - 1)
        self.dataChanged.emit(left, right)

    def adjust_judged(self, query_id: int, delta: int) -> None:
        """Add ``delta`` (±1) to a query's judged count."""
        current = self.progress_of(query_id)
        if current is not None and delta:
            self.set_judged(query_id, current.judged + delta)

    def totals(self) -> tuple[int, int, int]:
        """(complete queries, judged documents, pooled documents) over all rows."""
        return self._totals

    # ------------------------------------------------------------------ Qt overrides
    def _row_count(self) -> int:
        return len(self._rows)

    def _header_tooltip(self, section: int) -> str | None:
        if section == self.COL_PROGRESS:
            return "Pooled documents you have judged / pool size"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.COL_QUERY:
                return row.external_id
            if col == self.COL_TEXT:
                return row.text
            if col == self.COL_PROGRESS:
                return f"{row.judged} / {row.pool_size}"
        elif role == self.SortRole:
            return self._key(col)(row)
        elif role == self.QueryIdRole:
            return row.query_id
        elif role == self.ProgressRole:
            return (row.judged, row.pool_size)
        elif role == Qt.ItemDataRole.ToolTipRole:
            if col == self.COL_PROGRESS:
                if row.pool_size == 0:
                    return "No run returned documents for this query: nothing to judge"
                return f"{row.judged} of {row.pool_size} pooled documents judged"
            return f"{row.external_id}: {row.text}"
        elif role == Qt.ItemDataRole.TextAlignmentRole and col == self.COL_PROGRESS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in Python with a key (stable), keeping persistent indexes (the selection)."""
        if not 0 <= column < len(self.HEADERS):
            return
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        ids = [self._rows[i.row()].query_id if i.isValid() else None for i in persistent]
        self._rows.sort(key=self._key(column), reverse=order == Qt.SortOrder.DescendingOrder)
        self._reindex()
        new = [
            self.index(self._row_of[qid], i.column()) if qid is not None else QModelIndex()
            for qid, i in zip(ids, persistent, strict=True)
        ]
        self.changePersistentIndexList(persistent, new)
        self.layoutChanged.emit()

    # ------------------------------------------------------------------ internals
    def _reindex(self) -> None:
        self._row_of = {r.query_id: i for i, r in enumerate(self._rows)}

    def _key(self, column: int) -> Any:
        if column == self.COL_QUERY:
            return lambda r: natural_key(r.external_id)
        if column == self.COL_TEXT:
            if self._text_rank is None:  # the locale's collation, once per set of rows
                ranks = collation_ranks([r.text for r in self._rows]).tolist()
                self._text_rank = {r.query_id: k for r, k in zip(self._rows, ranks, strict=True)}
            rank = self._text_rank
            return lambda r: (rank[r.query_id], natural_key(r.external_id))
        # progress: share judged (empty pools last), then the number left, then the id
        return lambda r: (
            r.pool_size == 0,
            r.judged / r.pool_size if r.pool_size else 0.0,
            r.judged - r.pool_size,
            natural_key(r.external_id),
        )


class QueryFilterProxy(QSortFilterProxyModel):
    """Filters the query list by a text (in the id or the text, case-insensitive) and
    optionally hides complete queries; sorting is forwarded to :class:`QueryProgressModel`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._needle = ""
        self._hide_complete = False

    def set_filter_text(self, text: str) -> None:
        needle = fold(text.strip())
        if needle != self._needle:
            self._begin_filter_change()
            self._needle = needle
            self._end_filter_change()

    def set_hide_complete(self, hide: bool) -> None:
        if hide != self._hide_complete:
            self._begin_filter_change()
            self._hide_complete = hide
            self._end_filter_change()

    def _begin_filter_change(self) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt ≥ 6.9 (invalidateRowsFilter deprecated)
            self.beginFilterChange()

    def _end_filter_change(self) -> None:
        if hasattr(self, "endFilterChange"):
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - Qt < 6.9
            self.invalidateRowsFilter()

    def source(self) -> QueryProgressModel:
        model = self.sourceModel()
        assert isinstance(model, QueryProgressModel)
        return model

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        row = self.source().query_at(source_row)
        if self._hide_complete and row.complete:
            return False
        if not self._needle:
            return True
        return self._needle in fold(row.external_id) or self._needle in fold(row.text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)


class ProgressDelegate(QStyledItemDelegate):
    """Draws "judged / pool" over a thin bar in the palette's highlight colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        value = index.data(QueryProgressModel.ProgressRole)
        if not isinstance(value, tuple):
            super().paint(painter, option, index)
            return
        judged, size = value
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = option.rect.adjusted(4, 0, -4, 0)
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        group = QPalette.ColorGroup.Active
        bar_h = 3
        bar = QRect(rect.left(), rect.bottom() - bar_h - 2, rect.width(), bar_h)
        track = option.palette.color(group, QPalette.ColorRole.Mid)
        track.setAlpha(90)
        painter.fillRect(bar, track)
        if size:
            done = QRect(bar.left(), bar.top(), round(bar.width() * judged / size), bar_h)
            color = option.palette.color(
                group,
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight,
            )
            painter.fillRect(done, color)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.setPen(option.palette.color(group, text_role))
        label = f"{judged} / {size}" + ("  ✓" if size and judged >= size else "")
        painter.drawText(
            rect.adjusted(0, 0, 0, -bar_h - 2),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            label,
        )
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(max(size.width(), 84), size.height() + 6)
