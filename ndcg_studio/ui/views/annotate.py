"""The Annotate view: judge a query's pooled documents from the keyboard, blind.

Left, the queries with this annotator's progress (filter, "Next unjudged"); centre, the query and
the current document as a card with the 0–4 legend; right, the pool as a compact list.

Keys (in the centre panel): ``0``–``4`` grade and advance; ``Right``/``Down``/``j`` next,
``Left``/``Up``/``k`` previous; ``Backspace`` clears the grade; ``n`` edits the note; ``u`` jumps
to the next unjudged document (also ``Ctrl+U`` anywhere in the view); ``Ctrl+Z`` /
``Ctrl+Shift+Z`` undo / redo.

Loading the query list and a pool grows with the data, so it runs in a worker
(:func:`~ndcg_studio.ui.workers.run_task`; a newer load cancels the older one). A single grade is
written synchronously on the GUI thread, in its own transaction: it takes a few milliseconds
(p95 under 10 ms with 1,000,000 judgments, ``benchmarks/bench_annotation.py``), well under the
50 ms budget of a keystroke, and "Saved" is shown only after the commit returned. Blind: the
view shows no run names, ranks, scores or other annotators' grades (it only ever receives
:class:`~ndcg_studio.services.annotation.PoolItem` values, which carry none).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from PySide6 import QtGui
from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QFont,
    QKeyEvent,
    QKeySequence,
    QPalette,
    QResizeEvent,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.annotation import GradeChange, PoolItem, QueryProgress
from ndcg_studio.ui import errors
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.keys import layout_key
from ndcg_studio.ui.models.grades import GRADES, chip_icon, grade_name
from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.query_columns import QueryColumns
from ndcg_studio.ui.models.query_progress import (
    ProgressDelegate,
    QueryFilterProxy,
    QueryProgressModel,
)
from ndcg_studio.ui.undo import EditCommand, GradeEdit
from ndcg_studio.ui.workers import Task, run_task

Index = QModelIndex | QPersistentModelIndex
_GRADE_KEYS = {
    Qt.Key.Key_0: 0,
    Qt.Key.Key_1: 1,
    Qt.Key.Key_2: 2,
    Qt.Key.Key_3: 3,
    Qt.Key.Key_4: 4,
}
_SPLITTER_KEY = "annotate/splitter"
_LAST_QUERY_KEY = "annotate/last_query"
_HINT = "Keys: 0–4 grade · ←/→ move · ⌫ clear · N note · U next unjudged"


def _scaled_font(widget: QWidget, factor: float, *, bold: bool = False) -> QFont:
    font = QFont(widget.font())
    font.setPointSizeF(max(6.0, font.pointSizeF() * factor))
    font.setBold(bold)
    return font


def _secondary(label: QLabel) -> QLabel:
    """Secondary text: the palette's placeholder colour (readable in light and dark themes)."""
    palette = label.palette()
    palette.setColor(
        QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.PlaceholderText)
    )
    label.setPalette(palette)
    return label


class GradeLegend(QWidget):
    """The 0–4 scale, always visible: a chip, the digit and the name per grade; the current
    document's grade is checked and bold. Clicking a grade grades the document."""

    grade_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # one row when the names fit, else two rows (3 + 2) rather than elided names
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(6)
        self._columns = 0
        self._group = QButtonGroup(self)
        self._group.setExclusive(False)
        self.buttons: dict[int, QToolButton] = {}
        for grade in GRADES:
            button = QToolButton(self)
            button.setText(grade_name(grade))  # the chip shows the digit
            button.setIcon(chip_icon(grade, 18))
            button.setIconSize(QSize(18, 18))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setMinimumHeight(30)
            button.setToolTip(f"Press {grade}: {grade_name(grade).lower()}")
            self._group.addButton(button, grade)
            self.buttons[grade] = button
        self._place(len(GRADES))
        self._group.idClicked.connect(self._on_clicked)
        self._current: int | None = None

    def one_row_width(self) -> int:
        """The width the five buttons need side by side with their full names."""
        widths = [b.sizeHint().width() for b in self.buttons.values()]
        return sum(widths) + self._grid.spacing() * (len(widths) - 1)

    def rows(self) -> int:
        """1 or 2: how many rows the buttons are laid out in now."""
        return 1 if self._columns >= len(self.buttons) else 2

    def _place(self, columns: int) -> None:
        if columns == self._columns:
            return
        self._columns = columns
        for button in self.buttons.values():
            self._grid.removeWidget(button)
        for i, button in enumerate(self.buttons.values()):
            self._grid.addWidget(button, i // columns, i % columns)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        widths = sorted((b.sizeHint().width() for b in self.buttons.values()), reverse=True)
        return QSize(sum(widths[:3]) + 2 * self._grid.spacing(), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        fits = event.size().width() >= self.one_row_width()
        self._place(len(self.buttons) if fits else 3)
        super().resizeEvent(event)

    def set_current(self, grade: int | None) -> None:
        """Highlight ``grade`` (None: no grade yet): checked, bold, in the palette's highlight
        colours (so it stands out in light and dark themes alike)."""
        if grade == self._current and grade is not None:
            return
        self._current = grade
        base = self.palette()
        for g, button in self.buttons.items():
            current = g == grade
            button.setChecked(current)
            font = button.font()
            font.setBold(current)
            button.setFont(font)
            palette = QPalette(base)
            if current:
                palette.setColor(
                    QPalette.ColorRole.Button, base.color(QPalette.ColorRole.Highlight)
                )
                palette.setColor(
                    QPalette.ColorRole.ButtonText, base.color(QPalette.ColorRole.HighlightedText)
                )
            button.setPalette(palette)

    def current(self) -> int | None:
        return self._current

    @Slot(int)
    def _on_clicked(self, grade: int) -> None:
        for g, button in self.buttons.items():  # the click toggled it; the saved grade decides
            button.setChecked(g == self._current)
        self.grade_clicked.emit(grade)


class _KeyPanel(QFrame):
    """The centre panel: takes keyboard focus and hands key presses to the view."""

    def __init__(self, view: AnnotateView) -> None:
        super().__init__(view)
        self._view = view
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._view.handle_key(event):
            super().keyPressEvent(event)

    def inputMethodEvent(self, event: QtGui.QInputMethodEvent) -> None:
        """A character an input method commits here (the panel does not ask for one, but a
        platform IME may still send it): a digit or key letter acts as that key."""
        text = event.commitString()
        if len(text) == 1:
            press = QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, text)
            if self._view.handle_key(press):
                event.accept()
                return
        super().inputMethodEvent(event)


class AnnotateView(QWidget):
    """Judge the pool of one query after another; see the module docstring for the keys."""

    rows_loaded = Signal()
    query_loaded = Signal(int)
    judgment_saved = Signal(object)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("annotate_view")
        self.context = context
        self.rows_model = QueryProgressModel(self)
        self.proxy = QueryFilterProxy(self)
        self.proxy.setSourceModel(self.rows_model)
        self.pool_model = PoolModel(self)
        self._query: QueryProgress | None = None
        self._position = -1
        self._rows_task: Task[Any] | None = None
        self._pool_task: Task[Any] | None = None
        self._loading_query: int | None = None
        self._pending_document: int | None = None
        self._emitting = False
        # grades written so far: a load that started before a write is stale and is redone
        self._writes = 0
        # the judging campaign grades go to (set by the campaign panel), and when the current
        # document was shown (the seconds a campaign grade took)
        self.campaign_id: int | None = None
        self._shown_at = time.monotonic()
        self._build()
        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(0)
        self._reload_timer.timeout.connect(self._start_reload)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(150)
        self._filter_timer.timeout.connect(self._apply_filter)
        context.database_changed.connect(self.reload)
        context.opening_changed.connect(self.reload)
        context.annotator_changed.connect(self.reload)
        context.settings_changed.connect(self._on_settings_changed)
        context.judgments_changed.connect(self._on_judgments_changed)
        self.reload()

    # ================================================================== layout
    def _build(self) -> None:
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self._build_queries())
        self.splitter.addWidget(self._build_centre())
        self.splitter.addWidget(self._build_pool())
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 0)
        self.splitter.setSizes([300, 680, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.splitter)

    def _build_queries(self) -> QWidget:
        box = QWidget(self)
        box.setMinimumWidth(220)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 6, 0)
        layout.setSpacing(6)
        title = QLabel("Queries")
        title.setFont(_scaled_font(title, 1.1, bold=True))
        layout.addWidget(title)
        self.filter_edit = QLineEdit(box)
        self.filter_edit.setPlaceholderText("Filter by id or text…")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(lambda _t: self._filter_timer.start())
        self.filter_edit.returnPressed.connect(self.activated)  # Enter or Esc: back to grading
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.filter_edit)
        escape.setContext(Qt.ShortcutContext.WidgetShortcut)
        escape.activated.connect(self.activated)
        layout.addWidget(self.filter_edit)
        self.hide_complete = QCheckBox("Hide complete queries", box)
        self.hide_complete.toggled.connect(self.proxy.set_hide_complete)
        layout.addWidget(self.hide_complete)

        self.query_table = QTableView(box)
        self.query_table.setObjectName("query_table")
        self.query_table.setTabKeyNavigation(False)  # Tab leaves the list
        self.query_table.setModel(self.proxy)
        self.query_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.query_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.query_table.setSortingEnabled(True)
        self.query_table.sortByColumn(QueryProgressModel.COL_QUERY, Qt.SortOrder.AscendingOrder)
        self.query_table.verticalHeader().hide()
        self.query_table.setShowGrid(False)
        self.query_table.setAlternatingRowColors(True)
        self.query_table.setWordWrap(False)
        self.query_table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.query_table.setItemDelegateForColumn(
            QueryProgressModel.COL_PROGRESS, ProgressDelegate(self.query_table)
        )
        header = self.query_table.horizontalHeader()
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
        self.query_table.verticalHeader().setDefaultSectionSize(
            self.query_table.fontMetrics().height() + 12
        )
        self.query_table.selectionModel().currentRowChanged.connect(self._on_query_row_changed)
        self.query_table.activated.connect(lambda _i: self.panel.setFocus())
        layout.addWidget(self.query_table, 1)

        row = QHBoxLayout()
        self.next_button = QPushButton("Next unjudged", box)
        self.next_button.setToolTip("Go to the next document you have not judged (U, Ctrl+U)")
        self.next_button.clicked.connect(self.next_unjudged)
        row.addWidget(self.next_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.totals_label = _secondary(QLabel("", box))
        self.totals_label.setWordWrap(True)
        layout.addWidget(self.totals_label)
        shortcut = QShortcut(QKeySequence("Ctrl+U"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.next_unjudged)
        # 0–4 grade wherever the focus is in this view (the query list, a button, the panel);
        # a text field keeps its digits (QLineEdit accepts the shortcut override of printable
        # keys), so typing into the filter still filters
        for key, grade in _GRADE_KEYS.items():
            grade_shortcut = QShortcut(QKeySequence(key), self)
            grade_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            grade_shortcut.activated.connect(lambda grade=grade: self.grade_current(grade))
        return box

    def _build_centre(self) -> QWidget:
        self.panel = _KeyPanel(self)
        self.panel.setMinimumWidth(380)
        outer = QVBoxLayout(self.panel)
        outer.setContentsMargins(12, 0, 12, 0)
        outer.setSpacing(10)

        self.query_caption = _secondary(QLabel("", self.panel))
        self.query_caption.setFont(_scaled_font(self.query_caption, 0.9, bold=True))
        outer.addWidget(self.query_caption)
        self.query_text = QLabel("", self.panel)
        self.query_text.setWordWrap(True)
        self.query_text.setFont(_scaled_font(self.query_text, 1.45, bold=True))
        self.query_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.query_text)

        self.centre_stack = QStackedWidget(self.panel)
        self.message = QLabel("", self.centre_stack)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setFont(_scaled_font(self.message, 1.1))
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.centre_stack.addWidget(self.message)

        self.card = QFrame(self.centre_stack)
        self.card.setObjectName("document_card")
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.card.setBackgroundRole(QPalette.ColorRole.Base)
        self.card.setAutoFillBackground(True)
        card = QVBoxLayout(self.card)
        card.setContentsMargins(16, 12, 16, 12)
        card.setSpacing(6)
        top = QHBoxLayout()
        self.position_label = _secondary(QLabel("", self.card))
        self.position_label.setFont(_scaled_font(self.position_label, 0.95, bold=True))
        top.addWidget(self.position_label)
        top.addStretch(1)
        self.doc_id_label = _secondary(QLabel("", self.card))
        self.doc_id_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top.addWidget(self.doc_id_label)
        card.addLayout(top)
        self.title_label = QLabel("", self.card)
        self.title_label.setWordWrap(True)
        self.title_label.setFont(_scaled_font(self.title_label, 1.25, bold=True))
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        card.addWidget(self.title_label)
        self.url_label = QLabel("", self.card)
        self.url_label.setTextFormat(Qt.TextFormat.RichText)
        self.url_label.setOpenExternalLinks(True)
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.url_label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        card.addWidget(self.url_label)
        self.text_view = QTextBrowser(self.card)
        self.text_view.setFrameShape(QFrame.Shape.NoFrame)
        self.text_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.text_view.setOpenLinks(False)
        self.text_view.setFont(_scaled_font(self.text_view, 1.1))
        self.text_view.viewport().setAutoFillBackground(False)
        card.addWidget(self.text_view, 1)
        self.note_label = QLabel("", self.card)
        self.note_label.setWordWrap(True)
        italic = QFont(self.note_label.font())
        italic.setItalic(True)
        self.note_label.setFont(italic)
        card.addWidget(self.note_label)
        self.centre_stack.addWidget(self.card)
        outer.addWidget(self.centre_stack, 1)

        self.legend = GradeLegend(self.panel)
        self.legend.grade_clicked.connect(self.grade_current)
        outer.addWidget(self.legend)
        # grade buttons only while a document is shown (not with an empty pool or no query)
        self.centre_stack.currentChanged.connect(self._enable_legend)
        self._enable_legend()

        bottom = QHBoxLayout()
        self.status_label = QLabel("", self.panel)
        self.status_label.setObjectName("save_status")
        bottom.addWidget(self.status_label)
        self.hint_label = _secondary(QLabel(_HINT, self.panel))
        # may be clipped in a narrow window rather than widening it (full text in the tooltip)
        self.hint_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hint_label.setToolTip(_HINT + " · Home/End first/last · Ctrl+Z undo")
        self.hint_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.hint_label.setWordWrap(True)  # two lines in a narrow window, not a cut first word
        bottom.addWidget(self.hint_label, 1)
        outer.addLayout(bottom)
        return self.panel

    def _build_pool(self) -> QWidget:
        box = QWidget(self)
        box.setMinimumWidth(200)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.setSpacing(6)
        self.pool_title = QLabel("Pool")
        self.pool_title.setFont(_scaled_font(self.pool_title, 1.1, bold=True))
        layout.addWidget(self.pool_title)
        self.pool_table = QTableView(box)
        self.pool_table.setObjectName("pool_table")
        self.pool_table.setTabKeyNavigation(False)
        self.pool_table.setModel(self.pool_model)
        self.pool_table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pool_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.pool_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.pool_table.verticalHeader().hide()
        self.pool_table.setShowGrid(False)
        self.pool_table.setWordWrap(False)
        self.pool_table.setIconSize(QSize(16, 16))
        self.pool_table.verticalHeader().setDefaultSectionSize(
            self.pool_table.fontMetrics().height() + 10
        )
        header = self.pool_table.horizontalHeader()
        # fixed widths: ResizeToContents would ask every row's size on each dataChanged
        digits = self.pool_table.fontMetrics().horizontalAdvance("0000") + 8
        header.setSectionResizeMode(PoolModel.COL_POSITION, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(PoolModel.COL_TITLE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PoolModel.COL_GRADE, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(PoolModel.COL_POSITION, digits)
        header.resizeSection(
            PoolModel.COL_GRADE, max(44, header.fontMetrics().horizontalAdvance("Grade") + 16)
        )
        header.setHighlightSections(False)
        self.pool_table.clicked.connect(self._on_pool_clicked)
        layout.addWidget(self.pool_table, 1)
        return box

    # ================================================================== focus
    def activated(self) -> None:
        """The view was shown (start, tab switch) or a dialog over it closed: the keyboard goes
        to the document panel, so 0–4 grade at once and no digit lands in the query filter
        (which Qt would otherwise focus first, being first in the tab order)."""
        self.panel.setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():  # not a window coming back from minimised
            self.activated()

    # ================================================================== state save/restore
    def save_state(self) -> None:
        self.context.settings.set_byte_array(_SPLITTER_KEY, self.splitter.saveState())

    def restore_state(self) -> None:
        state = self.context.settings.byte_array(_SPLITTER_KEY)
        if state is not None:
            self.splitter.restoreState(state)

    # ================================================================== loading
    @Slot()
    def reload(self) -> None:
        """Reload the query list and the current pool (coalesced: many calls, one load)."""
        self._reload_timer.start()

    def _annotator_id(self) -> int | None:
        annotator = self.context.annotator
        return None if annotator is None else annotator.id

    def _start_reload(self) -> None:
        db = self.context.database
        if db is None:
            self._clear(
                "Loading…"  # the database is being opened in a worker
                if self.context.opening
                else "No database is open.\n\nUse File ▸ New database… (Ctrl+N) or "
                "File ▸ Open database… (Ctrl+O)."
            )
            return
        if self.context.annotator is None:
            self._clear(
                "Who is annotating?\n\nChoose your name with Annotator ▸ Switch annotator… "
                "(Ctrl+Shift+A)."
            )
            return
        annotator_id, depth = self._annotator_id(), self.context.pool_depth
        service = self.context.annotation_service()
        self._set_status("Loading queries…")
        writes = self._writes
        self._rows_task = run_task(
            lambda _progress, _cancelled: QueryColumns.from_progress(
                service.query_progress(annotator_id, depth)
            ),
            on_success=lambda rows: (
                self._on_rows_loaded(rows) if writes == self._writes else self.reload()
            ),
            owner=self,
            replaces=self._rows_task,
        )

    def load_rows_now(self) -> None:
        """Load the query list synchronously (benchmarks, scripts)."""
        service = self.context.annotation_service()
        self._on_rows_loaded(service.query_progress(self._annotator_id(), self.context.pool_depth))

    def _clear(self, message: str) -> None:
        self.rows_model.set_rows([])
        self.pool_model.set_items([])
        self._query = None
        self._position = -1
        self._show_message(message)
        self.query_caption.setText("")
        self.query_text.setText("")
        self.totals_label.setText("")
        self.pool_title.setText("Pool")
        self._set_status("")

    def _enable_legend(self, *_: object) -> None:
        self.legend.setEnabled(self.centre_stack.currentWidget() is self.card)

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.centre_stack.setCurrentWidget(self.message)

    def _on_rows_loaded(self, rows: Sequence[QueryProgress]) -> None:
        keep = self._query.query_id if self._query is not None else self._remembered_query(rows)
        self.rows_model.set_rows(rows)
        self._update_totals()
        self._set_status("")
        if not rows:
            self._clear(
                "This database has no queries yet.\n\nImport queries, documents and runs with "
                "File ▸ Import…, or start the app with --demo for the Cranfield collection."
            )
            self.rows_loaded.emit()
            return
        query_id = keep if keep is not None and self.rows_model.row_of(keep) is not None else None
        document_id = self._pending_document if query_id is not None else None
        if query_id is None:
            query_id = self._first_unfinished_query()
        self._query = None  # force a reload of the pool (grades may have changed)
        self._select_query(query_id, document_id)
        self.rows_loaded.emit()

    def _remembered_query(self, rows: Sequence[QueryProgress]) -> int | None:
        db = self.context.database
        raw = self.context.settings.qsettings.value(_LAST_QUERY_KEY, "", type=str)
        label, _, external_id = str(raw).partition("\n")
        if db is None or label != db.label:
            return None
        return next((r.query_id for r in rows if r.external_id == external_id), None)

    def _listed(self, proxy_row: int) -> QueryProgress:
        """The query shown at ``proxy_row`` of the (filtered, sorted) list."""
        source = self.proxy.mapToSource(self.proxy.index(proxy_row, 0))
        return self.rows_model.query_at(source.row())

    def _first_unfinished_query(self) -> int:
        for row in range(self.proxy.rowCount()):
            progress = self._listed(row)
            if progress.pool_size and not progress.complete:
                return progress.query_id
        if self.proxy.rowCount():
            return self._listed(0).query_id
        return self.rows_model.query_at(0).query_id

    def _select_query(self, query_id: int, document_id: int | None = None) -> None:
        """Select ``query_id`` in the list (if it passes the filter) and open its pool."""
        self._pending_document = document_id
        source_row = self.rows_model.row_of(query_id)
        if source_row is not None:
            proxy_index = self.proxy.mapFromSource(self.rows_model.index(source_row, 0))
            if proxy_index.isValid():
                selection = self.query_table.selectionModel()
                selection.setCurrentIndex(
                    proxy_index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.query_table.scrollTo(proxy_index)
        self.open_query(query_id, document_id)

    @Slot(QModelIndex, QModelIndex)
    def _on_query_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        query_id = self.proxy.data(current, QueryProgressModel.QueryIdRole)
        if isinstance(query_id, int):
            self.open_query(query_id, self._pending_document)

    def open_query(self, query_id: int, document_id: int | None = None) -> None:
        """Show the pool of ``query_id`` (loaded in a worker), at ``document_id`` or at its first
        unjudged document."""
        if self._query is not None and self._query.query_id == query_id:
            if document_id is not None:
                self._go_to_document(document_id)
            return
        if self._loading_query == query_id:
            self._pending_document = document_id
            return
        annotator_id, depth = self._annotator_id(), self.context.pool_depth
        order = self.context.pool_order
        service = self.context.annotation_service()
        self._loading_query = query_id
        self._pending_document = document_id
        self._set_status("Loading…")
        writes = self._writes
        self._pool_task = run_task(
            lambda _progress, _cancelled: service.pool(query_id, annotator_id, depth, order),
            on_success=lambda items: self._on_pool_loaded(query_id, items, writes),
            on_failure=self._on_pool_failed,
            owner=self,
            replaces=self._pool_task,
        )

    def open_query_now(self, query_id: int) -> None:
        """Open a query synchronously (benchmarks, scripts)."""
        service = self.context.annotation_service()
        items = service.pool(
            query_id, self._annotator_id(), self.context.pool_depth, self.context.pool_order
        )
        self._loading_query = query_id
        self._on_pool_loaded(query_id, items)

    def _on_pool_failed(self, exc: BaseException) -> None:
        self._loading_query = None
        errors.show_error(exc, self, action="Loading the pool")

    def _on_pool_loaded(
        self, query_id: int, items: list[PoolItem], writes: int | None = None
    ) -> None:
        if self._loading_query != query_id:
            return  # an older load
        self._loading_query = None
        if writes is not None and writes != self._writes:
            self.open_query(query_id, self._pending_document)  # read before a grade: again
            return
        progress = self.rows_model.progress_of(query_id)
        if progress is None:
            return
        self._query = progress
        document_id, self._pending_document = self._pending_document, None
        self.pool_model.set_items(items)
        self.rows_model.set_judged(query_id, self.pool_model.judged_count())
        self._update_totals()
        self.query_caption.setText(f"QUERY {progress.external_id}")
        self.query_text.setText(progress.text or "(no text)")
        self._remember_query(progress)
        self._set_status("")
        if not items:
            self._position = -1
            self._show_message(
                "Nothing to judge for this query: no run returned a document for it."
            )
            self._update_pool_title()
        else:
            row = self.pool_model.row_of(document_id) if document_id is not None else None
            if row is None:
                row = next((i for i, it in enumerate(items) if it.grade is None), 0)
            self._show_position(row)
        self.query_loaded.emit(query_id)

    def _remember_query(self, progress: QueryProgress) -> None:
        db = self.context.database
        if db is not None:
            self.context.settings.qsettings.setValue(
                _LAST_QUERY_KEY, f"{db.label}\n{progress.external_id}"
            )

    # ================================================================== showing a document
    def _show_position(self, row: int) -> None:
        if not 0 <= row < self.pool_model.rowCount():
            return
        self._position = row
        self._shown_at = time.monotonic()
        self.pool_model.set_current(row)
        index = self.pool_model.index(row, PoolModel.COL_TITLE)
        self.pool_table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.pool_table.scrollTo(index)
        self._refresh_card()
        self.centre_stack.setCurrentWidget(self.card)

    def _refresh_card(self) -> None:
        item = self.current_item()
        if item is None:
            return
        total = self.pool_model.rowCount()
        self.position_label.setText(f"Document {self._position + 1} / {total}")
        self.doc_id_label.setText(item.external_id)
        self.title_label.setText(item.title or "(untitled)")
        if item.url:
            safe = item.url.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
            self.url_label.setText(f'<a href="{safe}">{safe}</a>')
            self.url_label.show()
        else:
            self.url_label.hide()
        self.text_view.setPlainText(item.text)
        self.note_label.setText(f"Note: {item.note}" if item.note else "")
        self.note_label.setVisible(bool(item.note))
        self.legend.set_current(item.grade)
        self._update_pool_title()

    def _update_pool_title(self) -> None:
        total = self.pool_model.rowCount()
        self.pool_title.setText(f"Pool · {self.pool_model.judged_count()} / {total} judged")

    def _update_totals(self) -> None:
        complete, judged, pooled = self.rows_model.totals()
        n = self.rows_model.rowCount()
        self.totals_label.setText(
            f"{complete:,} of {n:,} queries complete · {judged:,} / {pooled:,} documents judged"
        )

    def _set_status(self, text: str) -> None:
        self.status_label.setText(text)

    # ================================================================== public API (tests)
    @property
    def query_id(self) -> int | None:
        return None if self._query is None else self._query.query_id

    def position(self) -> int:
        return self._position

    def current_item(self) -> PoolItem | None:
        if 0 <= self._position < self.pool_model.rowCount():
            return self.pool_model.item(self._position)
        return None

    def pool_items(self) -> list[PoolItem]:
        return self.pool_model.items()

    # ================================================================== navigation
    def handle_key(self, event: QKeyEvent) -> bool:
        """The centre panel's keys, letters by physical key under any layout
        (:func:`~ndcg_studio.ui.keys.layout_key`); returns True when handled."""
        key = layout_key(event)
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ctrl = Qt.KeyboardModifier.ControlModifier
        shift = Qt.KeyboardModifier.ShiftModifier
        if mods == ctrl and key == Qt.Key.Key_Z:
            self.context.undo_stack.undo()
        elif (mods == ctrl | shift and key == Qt.Key.Key_Z) or (
            mods == ctrl and key == Qt.Key.Key_Y
        ):
            self.context.undo_stack.redo()
        elif mods not in (Qt.KeyboardModifier.NoModifier, shift):
            return False
        elif key in _GRADE_KEYS and mods == Qt.KeyboardModifier.NoModifier:
            self.grade_current(_GRADE_KEYS[Qt.Key(key)])
        elif key in (Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_J):
            self.go_next()
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_K):
            self.go_previous()
        elif key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
            self.clear_current()
        elif key == Qt.Key.Key_N:
            self.edit_note()
        elif key == Qt.Key.Key_U:
            self.next_unjudged()
        elif key == Qt.Key.Key_Home:
            self._show_position(0)
        elif key == Qt.Key.Key_End:
            self._show_position(self.pool_model.rowCount() - 1)
        elif key in (Qt.Key.Key_PageDown, Qt.Key.Key_Space):
            bar = self.text_view.verticalScrollBar()
            bar.setValue(bar.value() + bar.pageStep())
        elif key == Qt.Key.Key_PageUp:
            bar = self.text_view.verticalScrollBar()
            bar.setValue(bar.value() - bar.pageStep())
        else:
            return False
        return True

    @Slot()
    def go_next(self) -> None:
        if self._position + 1 < self.pool_model.rowCount():
            self._show_position(self._position + 1)

    @Slot()
    def go_previous(self) -> None:
        if self._position > 0:
            self._show_position(self._position - 1)

    def _go_to_document(self, document_id: int) -> None:
        row = self.pool_model.row_of(document_id)
        if row is not None:
            self._show_position(row)

    @Slot(QModelIndex)
    def _on_pool_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self._show_position(index.row())
            self.panel.setFocus()

    @Slot()
    def next_unjudged(self) -> None:
        """Go to the next unjudged document: later in this pool (wrapping), else the first
        unjudged document of the next unfinished query in the list's order (wrapping)."""
        items = self.pool_model.items()
        n = len(items)
        for step in range(1, n + 1):
            row = (self._position + step) % n
            if items[row].grade is None:
                self._show_position(row)
                self.panel.setFocus()
                return
        rows = self.proxy.rowCount()
        current = -1
        if self._query is not None:
            source_row = self.rows_model.row_of(self._query.query_id)
            if source_row is not None:
                current = self.proxy.mapFromSource(self.rows_model.index(source_row, 0)).row()
        for step in range(1, rows + 1):
            proxy_row = (current + step) % rows
            progress = self._listed(proxy_row)
            if (
                progress.pool_size
                and not progress.complete
                and (self._query is None or progress.query_id != self._query.query_id)
            ):
                self._select_query(progress.query_id)
                self.panel.setFocus()
                return
        self._set_status("Everything in the list is judged.")

    # ================================================================== grading
    @Slot(int)
    def grade_current(self, grade: int) -> None:
        """Give the current document ``grade`` (0–4), save it, advance to the next document."""
        item = self.current_item()
        if item is None or self._query is None or self.context.annotator is None:
            return
        edit = GradeEdit(self.context.annotator.id, self._query.query_id, item.document_id, grade)
        if not self._write(edit, f"Grade {grade} “{_short(item.title)}”"):
            return
        if self._position + 1 < self.pool_model.rowCount():
            self._show_position(self._position + 1)
        elif self.pool_model.judged_count() == self.pool_model.rowCount():
            self._set_status(self.status_label.text() + " · query complete (U: next unjudged)")

    @Slot()
    def clear_current(self) -> None:
        """Remove the current document's grade (and its note)."""
        item = self.current_item()
        if item is None or self._query is None or self.context.annotator is None:
            return
        if item.grade is None:
            return
        edit = GradeEdit(self.context.annotator.id, self._query.query_id, item.document_id, None)
        self._write(edit, f"Clear grade “{_short(item.title)}”")

    @Slot()
    def edit_note(self) -> None:
        """Edit the current document's note in a dialog (the document must be graded)."""
        item = self.current_item()
        if item is None or self._query is None or self.context.annotator is None:
            return
        if item.grade is None:
            self._set_status("Grade the document first: a note belongs to a grade.")
            return
        text, ok = QInputDialog.getMultiLineText(
            self, "Note", f"Note on “{_short(item.title, 60)}”:", item.note or ""
        )
        if not ok:
            return
        edit = GradeEdit(
            self.context.annotator.id, self._query.query_id, item.document_id, item.grade, text
        )
        self._write(edit, f"Edit note “{_short(item.title)}”")

    def _write(self, edit: GradeEdit, text: str) -> bool:
        """Apply ``edit`` now (one transaction) and put it on the undo stack; False if it
        failed (the error is shown, nothing is pushed)."""
        self._set_status("Saving…")
        try:
            change, inverse = self._apply(edit)
        except Exception as exc:
            self._set_status("Not saved")
            errors.show_error(exc, self, action="Saving the grade")
            return False
        if change.changed:
            command = EditCommand(
                edit, inverse, self._apply_from_stack, text, on_error=self._on_undo_failed
            )
            self.context.undo_stack.push(command)
        return True

    def _apply(self, edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        from ndcg_studio.storage.resilience import retrying

        db = self.context.require_database()
        service: Any = self.context.annotation_service()
        if self.campaign_id is not None:
            from ndcg_studio.ui.views.campaign_panel import CampaignWriter

            service = CampaignWriter(service, self.campaign_id, time.monotonic() - self._shown_at)
        change, inverse = retrying(
            lambda: edit.apply(service),
            attempts=2,
            delay=0.2,
            label=db.label,
            unsaved="your last grade",
        )
        self._on_change(change)
        return change, inverse

    def _apply_from_stack(self, edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        result = self._apply(edit)
        if self._query is not None and edit.query_id == self._query.query_id:
            self._go_to_document(edit.document_id)
        return result

    def _on_undo_failed(self, exc: BaseException) -> None:
        self._set_status("Not saved")
        errors.show_error(exc, self, action="Undoing")

    def _on_change(self, change: GradeChange) -> None:
        """Show a committed change: the pool row, the card, the query's progress, "Saved"."""
        if self._query is not None and change.query_id == self._query.query_id:
            self.pool_model.update_item(change.document_id, change.new_grade, change.new_note)
            self.rows_model.set_judged(change.query_id, self.pool_model.judged_count())
            item = self.current_item()
            if item is not None and item.document_id == change.document_id:
                self._refresh_card()
            self._update_pool_title()
        else:
            delta = int(change.new_grade is not None) - int(change.old_grade is not None)
            self.rows_model.adjust_judged(change.query_id, delta)
        self._update_totals()
        self._writes += 1
        self._set_status(f"Saved ✓ {time.strftime('%H:%M:%S')}")
        self._emitting = True
        try:
            self.context.notify_judgments_changed([change.query_id])
        finally:
            self._emitting = False
        self.judgment_saved.emit(change)

    # ================================================================== context signals
    @Slot(str)
    def _on_settings_changed(self, key: str) -> None:
        if key in (S.POOL_DEPTH.key, S.POOL_ORDER.key):
            self.reload()

    @Slot(object)
    def _on_judgments_changed(self, _query_ids: object) -> None:
        if not self._emitting:
            if self._query is not None and (item := self.current_item()) is not None:
                self._pending_document = item.document_id
            self.reload()

    @Slot()
    def _apply_filter(self) -> None:
        self.proxy.set_filter_text(self.filter_edit.text())


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
