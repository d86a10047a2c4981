"""The Annotate view: judge a query's pooled documents from the keyboard, blind.

Left, the queries with this annotator's progress (filter, "Next unjudged"), and beside them as a
second tab the campaign panel when the annotator takes part in an open campaign; centre, the
query and the current document as a card with the 0–4 legend; right, the pool as a compact list.

The view owns its parts: the panels (:mod:`~ndcg_studio.ui.views.annotate.panels`,
:mod:`~ndcg_studio.ui.views.annotate.document`), its :class:`~.loading.AnnotateLoader` (the query
list and the pool, in workers) and its :class:`~.grading.Grader` (grades and notes as undoable
edits), which show what they do through the view's public methods; the key map is
:mod:`~ndcg_studio.ui.views.annotate.keys` and the pure "next unjudged" rule
:mod:`ndcg_studio.services.annotation.next_unjudged`. Blind: the view shows no run names, ranks,
scores or other annotators' grades (it only ever receives
:class:`~ndcg_studio.services.annotation.types.PoolItem` values, which carry none).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QKeyEvent, QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import QSplitter, QTabWidget, QVBoxLayout, QWidget

from ndcg_studio.services.annotation.next_unjudged import next_in_pool, next_unfinished_query
from ndcg_studio.services.annotation.types import PoolItem, QueryProgress
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg, number
from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.query_progress import QueryFilterProxy, QueryProgressModel
from ndcg_studio.ui.views.annotate.document import DocumentPanel
from ndcg_studio.ui.views.annotate.grading import Grader
from ndcg_studio.ui.views.annotate.keys import GRADE_KEYS, Action, key_action
from ndcg_studio.ui.views.annotate.loading import AnnotateLoader
from ndcg_studio.ui.views.annotate.panels import PoolPanel, QueryListPanel

_SPLITTER_KEY = "annotate/splitter"


class AnnotateView(QWidget):
    """Judge the pool of one query after another; keys in
    :mod:`~ndcg_studio.ui.views.annotate.keys`."""

    #: the query list is shown (its pools may still be counted: see :attr:`rows_loaded`)
    rows_shown = Signal()
    #: the query list with its pools counted is shown and a query is open
    rows_loaded = Signal()
    query_loaded = Signal(int)
    judgment_saved = Signal(object)
    #: a grade key or Enter with nobody annotating yet: the window asks for a name (an analyst
    #: who never grades is never asked)
    annotator_wanted = Signal()

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
        # when the current document was shown (the seconds a campaign grade took)
        self._shown_at = time.monotonic()
        self._side_panels: dict[QWidget, tuple[QWidget, str]] = {}
        self.grader = Grader(self)
        self.loader = AnnotateLoader(self)
        self._build()
        self._install_shortcuts()
        context.database_changed.connect(self.loader.reload)
        context.opening_changed.connect(self.loader.reload)
        context.annotator_changed.connect(self.loader.reload)
        context.settings_changed.connect(self._on_settings_changed)
        context.judgments_changed.connect(self._on_judgments_changed)
        self.loader.reload()

    # ================================================================== layout
    def _build(self) -> None:
        self.queries = QueryListPanel(self.proxy, self)
        # the query list, and a campaign panel beside it as a tab (add_side_panel): a third
        # column would widen Annotate past a 1024-px screen
        self.side_tabs = QTabWidget(self)
        self.side_tabs.setObjectName("annotate_side_tabs")
        self.side_tabs.setDocumentMode(True)
        self.side_tabs.setTabBarAutoHide(True)  # no tab bar while the list is alone
        # the tab widget must not take the focus for its hidden tab bar (its focus proxy): Tab
        # would stop at the widget before it; the tab bar, when shown, takes the focus itself
        # (arrow keys switch the tabs)
        self.side_tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.side_tabs.setFocusProxy(None)  # type: ignore[arg-type]  # Qt takes nullptr
        self.side_tabs.tabBar().setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.side_tabs.addTab(self.queries, self.tr("Queries"))
        self.panel = DocumentPanel(self.handle_key, self)
        self.pool = PoolPanel(self.pool_model, self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        for i, (widget, stretch) in enumerate(
            ((self.side_tabs, 0), (self.panel, 1), (self.pool, 0))
        ):
            self.splitter.addWidget(widget)
            self.splitter.setStretchFactor(i, stretch)
        self.splitter.setSizes([300, 680, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.splitter)
        self.queries.done.connect(self.activated)  # Enter or Esc in the filter: back to grading
        self.queries.next_unjudged.connect(self.next_unjudged)
        query_table = self.queries.query_table
        query_table.selectionModel().currentRowChanged.connect(self.loader.on_query_row_changed)
        query_table.activated.connect(lambda _i: self.panel.setFocus())
        self.panel.legend.grade_clicked.connect(self.grade_key)
        self.pool.pool_table.clicked.connect(self._on_pool_clicked)

    def _install_shortcuts(self) -> None:
        shortcut = QShortcut(QKeySequence("Ctrl+U"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.next_unjudged)
        # 0–4 grade wherever the focus is in this view (the query list, a button, the panel);
        # a text field keeps its digits (QLineEdit accepts the shortcut override of printable
        # keys), so typing into the filter still filters
        for key, grade in GRADE_KEYS.items():
            grade_shortcut = QShortcut(QKeySequence(key), self)
            grade_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            grade_shortcut.activated.connect(lambda grade=grade: self.grade_key(grade))

    def add_side_panel(self, panel: QWidget, title: str) -> None:
        """Put ``panel`` in a tab beside the query list (the campaign panel). The tab is there
        while the panel is not hidden (``panel.setVisible``) and comes to the front when it
        appears, so a campaign's guidelines are in view at once."""
        page = QWidget(self.side_tabs)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(panel)
        self._side_panels[panel] = (page, title)
        panel.installEventFilter(self)
        self._sync_side_tab(panel)

    def side_panel_shown(self, panel: QWidget) -> bool:
        """Whether ``panel``'s tab is there (see :meth:`add_side_panel`)."""
        page, _title = self._side_panels[panel]
        return self.side_tabs.indexOf(page) >= 0

    def _sync_side_tab(self, panel: QWidget) -> None:
        page, title = self._side_panels[panel]
        index = self.side_tabs.indexOf(page)
        if not panel.isHidden() and index < 0:
            self.side_tabs.addTab(page, title)
            self.side_tabs.setCurrentWidget(page)
        elif panel.isHidden() and index >= 0:
            self.side_tabs.removeTab(index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        shown_or_hidden = (QEvent.Type.ShowToParent, QEvent.Type.HideToParent)
        panel = watched if isinstance(watched, QWidget) else None
        if panel is not None and panel in self._side_panels and event.type() in shown_or_hidden:
            self._sync_side_tab(panel)
        return super().eventFilter(watched, event)

    # ================================================================== focus
    def activated(self) -> None:
        """The view was shown (start, tab switch) or a dialog over it closed: the keyboard goes
        to the document panel, so 0–4 grade at once and no digit lands in the query filter
        (which Qt would otherwise focus first, being first in the tab order)."""
        self.panel.setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._fit_centre)  # once laid out: sizes are final then
        if not event.spontaneous():  # not a window coming back from minimised
            self.activated()
        self.loader.shown()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_centre)

    def _fit_centre(self) -> None:
        """Give the document panel at least the width it needs (the grade buttons with their
        full names: Russian ones are longer), taken from the side panels down to their own
        minimums; the splitter would otherwise keep the sides at their 300 px."""
        sizes = self.splitter.sizes()
        if not self.isVisible():
            return
        need = self.panel.minimumSizeHint().width() - sizes[1]
        if need <= 0 or sum(sizes) == 0:
            return
        for i in (2, 0):  # the pool first, then the query list
            widget = self.splitter.widget(i)
            assert widget is not None
            spare = sizes[i] - widget.minimumSizeHint().width()
            take = max(0, min(spare, need))
            sizes[i] -= take
            sizes[1] += take
            need -= take
        self.splitter.setSizes(sizes)

    # ================================================================== state save/restore
    def save_state(self) -> None:
        self.context.settings.set_byte_array(_SPLITTER_KEY, self.splitter.saveState())

    def restore_state(self) -> None:
        state = self.context.settings.byte_array(_SPLITTER_KEY)
        if state is not None:
            self.splitter.restoreState(state)

    # ================================================================== showing a document
    @property
    def current_query(self) -> QueryProgress | None:
        """The query whose pool is shown, None while none is."""
        return self._query

    def set_current_query(self, query: QueryProgress | None) -> None:
        """Make ``query`` the shown query (its pool follows); None: no query, no document."""
        self._query = query
        if query is None:
            self._position = -1

    def seconds_shown(self) -> float:
        """Seconds since the current document was shown."""
        return time.monotonic() - self._shown_at

    def show_position(self, row: int) -> None:
        """Show the pool's document at ``row`` (ignored outside the pool)."""
        if not 0 <= row < self.pool_model.rowCount():
            return
        self.grader.at_end = False  # a move: the grade keys grade again
        self._position = row
        self._shown_at = time.monotonic()
        self.pool_model.set_current(row)
        index = self.pool_model.index(row, PoolModel.COL_TITLE)
        self.pool.pool_table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.pool.pool_table.scrollTo(index)
        self.refresh_card()
        self.panel.centre_stack.setCurrentWidget(self.panel.card)

    def refresh_card(self) -> None:
        """Show the current document again (its grade or note changed)."""
        item = self.current_item()
        if item is None:
            return
        self.panel.show_item(item, self._position, self.pool_model.rowCount())
        self.update_pool_title()

    def update_pool_title(self) -> None:
        """The pool's title: how many of its documents this annotator has judged."""
        total = self.pool_model.rowCount()
        self.pool.pool_title.setText(
            arg(self.tr("Pool · %1 / %2 judged"), self.pool_model.judged_count(), total)
        )

    def update_totals(self) -> None:
        """The line under the query list: queries complete, documents judged."""
        complete, judged, pooled = self.rows_model.totals()
        n = self.rows_model.rowCount()
        if not self.rows_model.counted():
            text = self.tr("%1 queries · counting the pools…")
            self.queries.totals_label.setText(arg(text, number(n)))
            return
        text = self.tr("%1 of %2 queries complete · %3 / %4 documents judged")
        self.queries.totals_label.setText(arg(text, *map(number, (complete, n, judged, pooled))))

    def set_status(self, text: str) -> None:
        """The status line of the document panel ("Saved ✓", "Loading…"); with nobody
        annotating yet, an empty status says how to start."""
        if not text and self.context.annotator is None and self.context.database is not None:
            text = self.tr(
                "Nobody is annotating yet: press a grade key or Enter to give your name."
            )
        self.panel.status_label.setText(text)

    # ================================================================== what every view answers
    @Slot()
    def reload(self) -> None:
        """Reload the query list and the current pool (coalesced, in workers)."""
        self.loader.reload()

    def is_loading(self) -> bool:
        """Whether the query list is still loading (see :meth:`AnnotateLoader.is_loading`)."""
        return self.loader.is_loading()

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
    def grade_key(self, grade: int) -> None:
        """A grade key (0–4): grade the current document; with nobody annotating yet, ask who
        is annotating first (:attr:`annotator_wanted`), then grade if a name was given."""
        if self.context.annotator is None and self.context.database is not None:
            self.annotator_wanted.emit()  # asks now (a modal question)
        if self.context.annotator is not None:
            self.grader.grade_current(grade)

    def handle_key(self, event: QKeyEvent) -> bool:
        """The document panel's keys (:func:`~ndcg_studio.ui.views.annotate.keys.key_action`);
        returns True when handled."""
        found = key_action(event)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and self.context.annotator is None and self.context.database is not None:
            self.annotator_wanted.emit()  # asks now (a modal question)
            return True
        if found is None:
            return False
        action, grade = found
        if action is Action.GRADE and grade is not None:
            self.grade_key(grade)
            return True
        last = self.pool_model.rowCount() - 1
        handlers: dict[Action, Callable[[], object]] = {
            Action.UNDO: self.context.undo_stack.undo,
            Action.REDO: self.context.undo_stack.redo,
            Action.NEXT: self.go_next,
            Action.PREVIOUS: self.go_previous,
            Action.CLEAR: self.grader.clear_current,
            Action.NOTE: self.grader.edit_note,
            Action.NEXT_UNJUDGED: self.next_unjudged,
            Action.FIRST: lambda: self.show_position(0),
            Action.LAST: lambda: self.show_position(last),
            Action.PAGE_DOWN: lambda: self.panel.scroll_text(1),
            Action.PAGE_UP: lambda: self.panel.scroll_text(-1),
        }
        handlers[action]()
        return True

    @Slot()
    def go_next(self) -> None:
        if self._position + 1 < self.pool_model.rowCount():
            self.show_position(self._position + 1)

    @Slot()
    def go_previous(self) -> None:
        if self._position > 0:
            self.show_position(self._position - 1)

    def go_to_document(self, document_id: int) -> None:
        """Show the pool's document ``document_id`` (ignored when it is not in the pool)."""
        row = self.pool_model.row_of(document_id)
        if row is not None:
            self.show_position(row)

    @Slot(QModelIndex)
    def _on_pool_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.show_position(index.row())
            self.panel.setFocus()

    @Slot()
    def next_unjudged(self) -> None:
        """Go to the next unjudged document: later in this pool (wrapping), else the first
        unjudged document of the next unfinished query in the list's order (wrapping); see
        :mod:`ndcg_studio.services.annotation.next_unjudged`."""
        judged = [item.grade is not None for item in self.pool_model.items()]
        row = next_in_pool(judged, self._position)
        if row is not None:
            self.show_position(row)
            self.panel.setFocus()
            return
        current, query_id = -1, None
        if self._query is not None:
            query_id = self._query.query_id
            source_row = self.rows_model.row_of(query_id)
            if source_row is not None:
                current = self.proxy.mapFromSource(self.rows_model.index(source_row, 0)).row()
        found = next_unfinished_query(self.proxy.rowCount(), self.loader.listed, current, query_id)
        if found is None:
            self.set_status(self.tr("Everything in the list is judged."))

            return
        self.loader.select_query(found)
        self.panel.setFocus()

    # ================================================================== context signals
    @Slot(str)
    def _on_settings_changed(self, key: str) -> None:
        if key in (S.POOL_DEPTH.key, S.POOL_ORDER.key):
            self.loader.reload()

    @Slot(object)
    def _on_judgments_changed(self, _query_ids: object) -> None:
        if not self.grader.emitting:
            if self._query is not None and (item := self.current_item()) is not None:
                self.loader.pending_document = item.document_id
            self.loader.reload()
