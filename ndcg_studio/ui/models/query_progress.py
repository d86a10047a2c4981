"""The query list of the Annotate view: every query with this annotator's progress on its pool.

A columnar model over numpy arrays (no per-row Python objects): :class:`QueryColumns` holds the
columns and their sort and filter keys, built in the worker that reads the list
(:meth:`QueryColumns.from_progress`), so what the GUI thread does when 100,000 queries arrive,
and on each sort or filter, is a few numpy operations (``bench_gui_scale.py``, Annotate).
:class:`QueryFilterProxy` filters with a numpy mask and maps rows with arrays; a
``QSortFilterProxyModel`` would call a Python ``filterAcceptsRow`` for every row on every reset
and sort.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QAbstractProxyModel, QModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ndcg_studio.services.annotation.types import QueryProgress
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.collation import fold
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.query_columns import QueryColumns
from ndcg_studio.ui.models.table import Index, TableModel

_EMPTY = QueryColumns.from_progress([])


class QueryProgressModel(TableModel):
    """One row per query, in the current sort order; the data are :class:`QueryColumns`."""

    COL_QUERY = 0
    COL_TEXT = 1
    COL_PROGRESS = 2
    HEADERS = (
        QT_TRANSLATE_NOOP("QueryProgressModel", "Query"),
        QT_TRANSLATE_NOOP("QueryProgressModel", "Text"),
        QT_TRANSLATE_NOOP("QueryProgressModel", "Judged"),
    )

    QueryIdRole = Qt.ItemDataRole.UserRole + 2
    #: (judged, pool size) of the row, for the progress delegate
    ProgressRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cols = _EMPTY
        self._judged = _EMPTY.judged.copy()  # kept up to date by set_judged
        self._order = np.zeros(0, dtype=np.intp)  # model row -> column index
        self._pos = np.zeros(0, dtype=np.intp)  # column index -> model row
        self._by_id = np.zeros(0, dtype=np.intp)  # column indexes in query id order
        self._sort: tuple[int, Qt.SortOrder] | None = None
        # running totals (complete queries, judged, pooled), kept up to date by set_judged so a
        # keystroke does not sum 100,000 rows
        self._totals = (0, 0, 0)

    # ------------------------------------------------------------------ our API
    def set_rows(self, rows: QueryColumns | Sequence[QueryProgress]) -> None:
        """Replace every row (a model reset); keeps the last sort order. Pass
        :class:`QueryColumns` built off the GUI thread; a list is converted here."""
        cols = rows if isinstance(rows, QueryColumns) else QueryColumns.from_progress(rows)
        self.beginResetModel()
        self._cols = cols
        self._judged = cols.judged.copy()
        self._by_id = np.argsort(cols.query_id, kind="stable")
        self._set_order(self._sorted_order())
        pool = cols.pool_size
        self._totals = (
            int(np.count_nonzero((pool > 0) & (self._judged >= pool))),
            int(self._judged.sum()),
            int(pool.sum()),
        )
        self.endResetModel()

    def rows(self) -> list[QueryProgress]:
        """Every row in model order (builds one object per row: for tests and small lists)."""
        return [self.query_at(r) for r in range(self.rowCount())]

    def row_of(self, query_id: int) -> int | None:
        """The row of ``query_id`` (None if not listed)."""
        i = self._index_of(query_id)
        return None if i is None else int(self._pos[i])

    def query_at(self, row: int) -> QueryProgress:
        i = int(self._order[row])
        return QueryProgress(
            query_id=int(self._cols.query_id[i]),
            external_id=str(self._cols.external_id[i]),
            text=str(self._cols.text[i]),
            pool_size=int(self._cols.pool_size[i]),
            judged=int(self._judged[i]),
        )

    def progress_of(self, query_id: int) -> QueryProgress | None:
        row = self.row_of(query_id)
        return None if row is None else self.query_at(row)

    def set_judged(self, query_id: int, judged: int) -> None:
        """Update one query's judged count (one ``dataChanged``; the row does not move until
        the next sort, so the list does not jump while you work)."""
        i = self._index_of(query_id)
        if i is None:
            return
        pool = int(self._cols.pool_size[i])
        old = int(self._judged[i])
        judged = max(0, min(judged, pool))
        if judged == old:
            return
        self._judged[i] = judged
        complete, judged_total, pooled = self._totals
        was, now = pool > 0 and old >= pool, pool > 0 and judged >= pool
        self._totals = (complete + int(now) - int(was), judged_total + judged - old, pooled)
        row = int(self._pos[i])
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def adjust_judged(self, query_id: int, delta: int) -> None:
        """Add ``delta`` (±1) to a query's judged count."""
        current = self.progress_of(query_id)
        if current is not None and delta:
            self.set_judged(query_id, current.judged + delta)

    def counted(self) -> bool:
        """False while the rows' pools are not counted yet (see :class:`QueryColumns`)."""
        return self._cols.counted

    def totals(self) -> tuple[int, int, int]:
        """(complete queries, judged documents, pooled documents) over all rows."""
        return self._totals

    def accepted(self, needle: str, hide_complete: bool) -> NDArray[np.bool_]:
        """(rowCount(),) bool per model row: its id or text contains ``needle`` (already
        folded; '' matches all) and, with ``hide_complete``, it is not complete."""
        keep = np.ones(self._order.shape[0], dtype=np.bool_)
        if needle:
            keep &= np.char.find(self._cols.folded, needle) >= 0
        if hide_complete:
            pool = self._cols.pool_size
            keep &= ~((pool > 0) & (self._judged >= pool))
        return keep[self._order]

    def column_of_row(self) -> NDArray[np.intp]:
        """(rowCount(),) the column index shown at each model row (stable across sorts)."""
        return self._order

    def row_of_column(self) -> NDArray[np.intp]:
        """The inverse of :meth:`column_of_row`."""
        return self._pos

    # ------------------------------------------------------------------ Qt overrides
    def _row_count(self) -> int:
        return int(self._order.shape[0])

    def _header_tooltip(self, section: int) -> str | None:
        if section == self.COL_PROGRESS:
            return self.tr("Pooled documents you have judged / pool size")
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self._order.shape[0]:
            return None
        i = int(self._order[index.row()])
        cols, col = self._cols, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.COL_QUERY:
                return str(cols.external_id[i])
            if col == self.COL_TEXT:
                return str(cols.text[i])
            if col == self.COL_PROGRESS:
                if not cols.counted:
                    return "…"
                return f"{int(self._judged[i])} / {int(cols.pool_size[i])}"
        elif role == self.SortRole:
            return self._sort_value(i, col)
        elif role == self.QueryIdRole:
            return int(cols.query_id[i])
        elif role == self.ProgressRole:  # none while uncounted: the delegate draws the text
            return (int(self._judged[i]), int(cols.pool_size[i])) if cols.counted else None
        elif role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(i, col)
        elif role == Qt.ItemDataRole.TextAlignmentRole and col == self.COL_PROGRESS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort with numpy (stable), keeping persistent indexes (the selection)."""
        if not 0 <= column < len(self.HEADERS):
            return
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        shown = [int(self._order[p.row()]) if p.isValid() else -1 for p in persistent]
        self._set_order(self._sorted_order())
        new = [
            self.index(int(self._pos[i]), p.column()) if i >= 0 else QModelIndex()
            for i, p in zip(shown, persistent, strict=True)
        ]
        self.changePersistentIndexList(persistent, new)
        self.layoutChanged.emit()

    # ------------------------------------------------------------------ internals
    def _index_of(self, query_id: int) -> int | None:
        ids = self._cols.query_id
        at = int(np.searchsorted(ids, query_id, sorter=self._by_id))
        if at < ids.shape[0] and ids[self._by_id[at]] == query_id:
            return int(self._by_id[at])
        return None

    def _set_order(self, order: NDArray[np.intp]) -> None:
        self._order = order
        self._pos = np.empty_like(order)
        self._pos[order] = np.arange(order.shape[0], dtype=np.intp)

    def _keys(self, column: int) -> list[NDArray[Any]]:
        """Sort keys of ``column``, most significant first (ties broken by the natural id)."""
        cols = self._cols
        if column == self.COL_QUERY:
            return [cols.id_rank]
        if column == self.COL_TEXT:
            return [cols.text_rank, cols.id_rank]
        # progress: share judged (empty pools last), then the number left, then the id
        pool, judged = cols.pool_size, self._judged
        share = np.divide(judged, pool, out=np.zeros(pool.shape), where=pool > 0)
        return [(pool == 0).astype(np.int64), share, judged - pool, cols.id_rank]

    def _sorted_order(self) -> NDArray[np.intp]:
        n = len(self._cols)
        if self._sort is None or n == 0:
            return np.arange(n, dtype=np.intp)
        column, order = self._sort
        keys = self._keys(column)
        if order == Qt.SortOrder.DescendingOrder:
            # largest first; equal rows keep their list order, as Python's sort(reverse=True)
            keys = [-k for k in keys]
        return np.lexsort(keys[::-1]).astype(np.intp)

    def _sort_value(self, i: int, column: int) -> Any:
        return tuple(k[i].item() for k in self._keys(column))

    def _tooltip(self, i: int, column: int) -> str:
        cols = self._cols
        pool, judged = int(cols.pool_size[i]), int(self._judged[i])
        if column == self.COL_PROGRESS:
            if not cols.counted:
                return self.tr("Counting the pool…")
            if pool == 0:
                return self.tr("No run returned documents for this query: nothing to judge")
            return arg(self.tr("%1 of %2 pooled documents judged"), judged, pool)
        return f"{cols.external_id[i]}: {cols.text[i]}"


class QueryFilterProxy(QAbstractProxyModel):
    """Filters the query list by a text (in the id or the text, case-insensitive) and
    optionally hides complete queries; sorting is forwarded to :class:`QueryProgressModel`.

    The visible rows are a numpy array of model rows (in model order); a filter change, a sort
    of the model, or a query completing while complete queries are hidden is one layout change
    (persistent indexes, i.e. the selection, follow their query)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._needle = ""
        self._hide_complete = False
        self._rows = np.zeros(0, dtype=np.intp)  # proxy row -> model row
        self._pos = np.zeros(0, dtype=np.intp)  # model row -> proxy row (-1: hidden)
        self._saved: list[tuple[QModelIndex, int]] = []

    # ------------------------------------------------------------------ our API
    def set_filter_text(self, text: str) -> None:
        needle = fold(text.strip())
        if needle != self._needle:
            self._needle = needle
            self._relayout()

    def set_hide_complete(self, hide: bool) -> None:
        if hide != self._hide_complete:
            self._hide_complete = hide
            self._relayout()

    def source(self) -> QueryProgressModel:
        model = self.sourceModel()
        assert isinstance(model, QueryProgressModel)
        return model

    # ------------------------------------------------------------------ Qt overrides
    def setSourceModel(self, model: Any) -> None:
        assert isinstance(model, QueryProgressModel)
        self.beginResetModel()
        super().setSourceModel(model)
        model.modelAboutToBeReset.connect(self.beginResetModel)
        model.modelReset.connect(self._on_reset)
        model.layoutAboutToBeChanged.connect(self._before_layout)
        model.layoutChanged.connect(self._after_layout)
        model.dataChanged.connect(self._on_data_changed)
        self._refilter()
        self.endResetModel()

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if parent.isValid() or not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column)

    def parent(self, child: Any = None) -> Any:
        if child is None:
            return super().parent()
        return QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else int(self._rows.shape[0])

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        model = self.sourceModel()
        return 0 if parent.isValid() or model is None else model.columnCount()

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and self._rows.shape[0] > 0

    def sibling(self, row: int, column: int, index: Index) -> QModelIndex:
        return self.index(row, column)

    def mapToSource(self, proxy_index: Index) -> QModelIndex:
        if not proxy_index.isValid() or proxy_index.row() >= self._rows.shape[0]:
            return QModelIndex()
        return self.source().index(int(self._rows[proxy_index.row()]), proxy_index.column())

    def mapFromSource(self, source_index: Index) -> QModelIndex:
        if not source_index.isValid() or source_index.row() >= self._pos.shape[0]:
            return QModelIndex()
        row = int(self._pos[source_index.row()])
        return self.createIndex(row, source_index.column()) if row >= 0 else QModelIndex()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    # ------------------------------------------------------------------ internals
    def _refilter(self) -> None:
        model = self.sourceModel()
        if not isinstance(model, QueryProgressModel):
            return
        keep = model.accepted(self._needle, self._hide_complete)
        self._rows = np.flatnonzero(keep).astype(np.intp)
        self._pos = np.full(keep.shape[0], -1, dtype=np.intp)
        self._pos[self._rows] = np.arange(self._rows.shape[0], dtype=np.intp)

    def _on_reset(self) -> None:
        self._refilter()
        self.endResetModel()

    def _before_layout(self, *_: object) -> None:
        """Remember which query each persistent index shows (by its column index)."""
        self.layoutAboutToBeChanged.emit()
        column_of = self.source().column_of_row()
        self._saved = [
            (p, int(column_of[self._rows[p.row()]]) if p.isValid() else -1)
            for p in self.persistentIndexList()
        ]

    def _after_layout(self, *_: object) -> None:
        self._refilter()
        row_of = self.source().row_of_column()
        old = [p for p, _ in self._saved]
        new = []
        for p, i in self._saved:
            row = int(self._pos[row_of[i]]) if i >= 0 else -1
            new.append(self.createIndex(row, p.column()) if row >= 0 else QModelIndex())
        self._saved = []
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _relayout(self) -> None:
        self._before_layout()
        self._after_layout()

    def _on_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex, *_: Any) -> None:
        rows = np.arange(top_left.row(), bottom_right.row() + 1)
        if self._hide_complete:
            keep = self.source().accepted(self._needle, self._hide_complete)
            if np.any(keep[rows] != (self._pos[rows] >= 0)):
                self._relayout()  # a query completed (or no longer is): it hides (or shows)
                return
        shown = self._pos[rows]
        shown = shown[shown >= 0]
        if shown.size:
            last = self.columnCount() - 1
            self.dataChanged.emit(
                self.index(int(shown.min()), 0), self.index(int(shown.max()), last)
            )


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
