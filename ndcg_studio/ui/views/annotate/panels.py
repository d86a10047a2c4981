"""Annotate's side panels: the query list with this annotator's progress (left) and the pool of
the open query (right), and the small text helpers the view's panels share.

The panels only lay out and show; the :class:`~ndcg_studio.ui.views.annotate.view.AnnotateView`
loads the data, connects their signals and decides what happens.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.query_progress import (
    ProgressDelegate,
    QueryFilterProxy,
    QueryProgressModel,
)

#: milliseconds of typing in the filter coalesced into one filtering of the list
FILTER_DELAY_MS = 150


def scaled_font(widget: QWidget, factor: float, *, bold: bool = False) -> QFont:
    """``widget``'s font scaled by ``factor`` (at least 6 pt), bold if asked."""
    font = QFont(widget.font())
    font.setPointSizeF(max(6.0, font.pointSizeF() * factor))
    font.setBold(bold)
    return font


def secondary(label: QLabel) -> QLabel:
    """Secondary text: drawn in the palette's placeholder colour (readable in light and dark
    themes, and following a change of theme: a role, not a colour copied into the label)."""
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


class QueryListPanel(QWidget):
    """The queries with the annotator's progress: a filter (by id or text), "Hide complete
    queries", the sortable list, "Next unjudged" and the totals.

    Signals:
        done(): Enter or Escape in the filter (back to grading).
        next_unjudged(): the "Next unjudged" button.
    """

    done = Signal()
    next_unjudged = Signal()

    def __init__(self, proxy: QueryFilterProxy, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proxy = proxy
        self.setMinimumWidth(220)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 6, 0)
        layout.setSpacing(6)
        title = QLabel(self.tr("Queries"))
        title.setFont(scaled_font(title, 1.1, bold=True))
        layout.addWidget(title)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(self.tr("Filter by id or text…"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(lambda _t: self._filter_timer.start())
        self.filter_edit.returnPressed.connect(self.done)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.filter_edit)
        escape.setContext(Qt.ShortcutContext.WidgetShortcut)
        escape.activated.connect(self.done)
        layout.addWidget(self.filter_edit)
        self.hide_complete = QCheckBox(self.tr("Hide complete queries"), self)
        self.hide_complete.toggled.connect(proxy.set_hide_complete)
        layout.addWidget(self.hide_complete)
        self.query_table = self._build_table()
        layout.addWidget(self.query_table, 1)
        row = QHBoxLayout()
        self.next_button = QPushButton(self.tr("Next unjudged"), self)
        self.next_button.setToolTip(
            self.tr("Go to the next document you have not judged (U, Ctrl+U)")
        )
        self.next_button.clicked.connect(self.next_unjudged)
        row.addWidget(self.next_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.totals_label = secondary(QLabel("", self))
        self.totals_label.setWordWrap(True)
        layout.addWidget(self.totals_label)

    def _build_table(self) -> QTableView:
        table = QTableView(self)
        table.setObjectName("query_table")
        table.setTabKeyNavigation(False)  # Tab leaves the list
        table.setModel(self.proxy)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setSortingEnabled(True)
        table.sortByColumn(QueryProgressModel.COL_QUERY, Qt.SortOrder.AscendingOrder)
        table.verticalHeader().hide()
        table.setShowGrid(False)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setItemDelegateForColumn(QueryProgressModel.COL_PROGRESS, ProgressDelegate(table))
        header = table.horizontalHeader()
        header.setSectionResizeMode(
            QueryProgressModel.COL_QUERY, QHeaderView.ResizeMode.Interactive
        )
        header.setSectionResizeMode(QueryProgressModel.COL_TEXT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(
            QueryProgressModel.COL_PROGRESS, QHeaderView.ResizeMode.Interactive
        )
        header.resizeSection(QueryProgressModel.COL_QUERY, 56)
        header.resizeSection(QueryProgressModel.COL_PROGRESS, 84)
        header.setHighlightSections(False)
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 12)
        return table

    def _apply_filter(self) -> None:
        self.proxy.set_filter_text(self.filter_edit.text())


class PoolPanel(QWidget):
    """The open query's pool as a compact list: position, title and the annotator's grade."""

    def __init__(self, model: PoolModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumWidth(200)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.setSpacing(6)
        self.pool_title = QLabel(self.tr("Pool"))

        self.pool_title.setFont(scaled_font(self.pool_title, 1.1, bold=True))
        layout.addWidget(self.pool_title)
        table = QTableView(self)
        table.setObjectName("pool_table")
        table.setTabKeyNavigation(False)
        table.setModel(model)
        table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().hide()
        table.setShowGrid(False)
        table.setWordWrap(False)
        table.setIconSize(QSize(16, 16))
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 10)
        header = table.horizontalHeader()
        # fixed widths: ResizeToContents would ask every row's size on each dataChanged
        digits = table.fontMetrics().horizontalAdvance("0000") + 8
        header.setSectionResizeMode(PoolModel.COL_POSITION, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(PoolModel.COL_TITLE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PoolModel.COL_GRADE, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(PoolModel.COL_POSITION, digits)
        grade = str(model.headerData(PoolModel.COL_GRADE, Qt.Orientation.Horizontal))
        header.resizeSection(
            PoolModel.COL_GRADE, max(44, header.fontMetrics().horizontalAdvance(grade) + 16)
        )
        header.setHighlightSections(False)
        self.pool_table = table
        layout.addWidget(table, 1)
