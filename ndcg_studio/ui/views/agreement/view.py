"""Agreement and adjudication: how much the annotators agree, where they disagree, and the lead's
final grade.

Top: Krippendorff's alpha with its 95% bootstrap interval (level: ordinal, interval or nominal),
Fleiss' kappa or why it does not apply. Left: the pairwise Cohen's kappa heatmap, alpha without
each annotator (an outlier raises it), alpha per query. Right: the disputed items (grades differ
by 2 or more); selecting one shows it in the adjudication panel
(:class:`~ndcg_studio.ui.views.agreement.adjudication.AdjudicationPanel`): every grade side by
side, its
history, and the lead's final grade with the 0–4 buttons or keys. After a write the context's
``judgments_changed`` makes the scores and this view refresh.

The report, the item details and the writes all run in workers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.agreement import AgreementReport, AgreementSettings
from ndcg_studio.services.screens.agreement import (
    AgreementData,
    complete_agreement,
    load_headline,
)
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judgments.items import GradeChange
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg, label, number
from ndcg_studio.ui.models.agreement import (
    COL_D_RANGE,
    KAPPA_KINDS,
    DisputedItemsModel,
    LeaveOneOutModel,
    PairwiseKappaModel,
    PerQueryAlphaModel,
)
from ndcg_studio.ui.views.agreement.adjudication import AdjudicationPanel, grade_shortcuts, table
from ndcg_studio.ui.views.agreement.text import (
    alpha_html,
    fleiss_text,
    loo_note_text,
    provenance_html,
)
from ndcg_studio.ui.views.base import LazyView, StateWidget
from ndcg_studio.ui.widgets import column, fit_columns, selectable_text
from ndcg_studio.ui.workers import Task, TaskFn, run_task

_LEVELS = (
    ("ordinal", QT_TRANSLATE_NOOP("AgreementView", "Ordinal (grades are ordered)")),
    ("interval", QT_TRANSLATE_NOOP("AgreementView", "Interval (equal steps)")),
    ("ratio", QT_TRANSLATE_NOOP("AgreementView", "Ratio (equal steps from a true 0)")),
    ("nominal", QT_TRANSLATE_NOOP("AgreementView", "Nominal (categories)")),
)


def _boxed(title: str, *widgets: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 6, 6, 6)
    for w in widgets:
        layout.addWidget(w)
    return box


class AgreementView(LazyView[AgreementData]):
    """The Agreement tab. Construct as ``AgreementView(context, parent)``.

    A load has two stages (two workers): the headline α, Fleiss' κ, the pairwise κ and α per
    query first; then the bootstrap interval, α without each annotator and the disputed
    documents, while the status reads "Computing agreement…".

    Signals:
        rows_shown(): the headline and α per query are shown (the first stage).
        data_loaded(): a report is shown, complete.
        adjudicated(object): a final grade was written (the :class:`GradeChange`).
    """

    rows_shown = Signal()
    data_loaded = Signal()
    adjudicated = Signal(object)
    STATE_KEY = "agreement"
    LOADING_STATUS = QT_TRANSLATE_NOOP("AgreementView", "Computing agreement…")
    FAILED_STATUS = QT_TRANSLATE_NOOP("AgreementView", "Agreement failed")
    FAILED_ACTION = QT_TRANSLATE_NOOP("AgreementView", "Computing agreement")

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.data: AgreementData | None = None
        self._complete_task: Task[AgreementData] | None = None
        controls = self._build_controls()
        left = self._build_left()
        right = self._build_right(context)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([520, 760])
        left.setSizes([260, 180, 260])
        right.setSizes([380, 320])
        self._left, self._right = left, right
        parts = (controls, self.alpha_label, self.fleiss_label, self.splitter)
        self._set_content(column(*parts, stretch=self.splitter))
        self.level.currentIndexChanged.connect(self._schedule)
        self.kappa_kind.currentIndexChanged.connect(
            lambda _: self.kappa_model.set_kind(self.kappa_kind.currentData())
        )
        context.database_changed.connect(self._on_database_changed)
        context.judgments_changed.connect(self._schedule)
        self._show_empty()
        self.restore_state()

    def _build_controls(self) -> QHBoxLayout:
        """The α level and pairwise-κ pickers, the status; the headline labels."""
        self.level = QComboBox()
        for value, text in _LEVELS:
            self.level.addItem(QCoreApplication.translate("AgreementView", text), value)
        self.kappa_kind = QComboBox()
        for value, text in KAPPA_KINDS.items():
            self.kappa_kind.addItem(label("Agreement", text), value)
        self.kappa_kind.setCurrentIndex(self.kappa_kind.findData("kappa_linear"))
        self.alpha_label = selectable_text(Qt.TextFormat.RichText)
        self.fleiss_label = selectable_text()
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("α level:")))
        controls.addWidget(self.level)
        controls.addSpacing(12)
        controls.addWidget(QLabel(self.tr("Pairwise:")))
        controls.addWidget(self.kappa_kind)
        controls.addStretch(1)
        controls.addWidget(self.status)
        return controls

    def _build_left(self) -> QSplitter:
        """The pairwise κ heatmap, α without each annotator, α per query."""
        self.kappa_model = PairwiseKappaModel(self)
        self.kappa_table = QTableView()
        self.kappa_table.setObjectName("kappa_table")
        self.kappa_table.setTabKeyNavigation(False)
        self.kappa_table.setModel(self.kappa_model)
        self.kappa_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.kappa_table.setWordWrap(True)
        self.kappa_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.kappa_table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.kappa_table.horizontalHeader().setMinimumSectionSize(48)
        self.kappa_table.verticalHeader().setMinimumSectionSize(28)
        self.loo_model = LeaveOneOutModel(self)
        self.loo_table = table(self.loo_model)
        self.loo_table.setObjectName("loo_table")
        self.loo_table.setSortingEnabled(True)
        self.loo_table.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        self.query_model = PerQueryAlphaModel(self)
        self.query_table = table(self.query_model)
        self.query_table.setObjectName("agreement_query_table")
        self.query_table.setSortingEnabled(True)
        self.query_table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        # short titles (the column may be narrow on a small screen); the rest in tooltips
        self.kappa_box = _boxed(self.tr("Pairwise agreement"), self.kappa_table)
        self.kappa_box.setToolTip(
            self.tr("Cohen's κ of each pair of annotators, on the documents both graded")
        )
        self.loo_box = _boxed(self.tr("α without each annotator"), self.loo_table)
        self.loo_box.setToolTip(self.tr("Δ > 0: agreement rises without that annotator"))
        self.loo_note = QLabel()
        self.loo_note.setWordWrap(True)
        self.loo_note.hide()
        loo_layout = self.loo_box.layout()
        assert loo_layout is not None
        loo_layout.addWidget(self.loo_note)
        self.query_box = _boxed(self.tr("α per query"), self.query_table)
        self._fit_left_tables()
        left = QSplitter(Qt.Orientation.Vertical)
        for w in (self.kappa_box, self.loo_box, self.query_box):
            left.addWidget(w)
        left.setChildrenCollapsible(False)
        return left

    def _fit_left_tables(self) -> None:
        for t in (self.loo_table, self.query_table, self.kappa_table):
            t.horizontalHeader().setStretchLastSection(False)  # else it keeps 100 px
            t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            # stretched columns always fit: no scroll bar (Qt can flicker one in by 1–3 px)
            t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for t in (self.loo_table, self.query_table):
            # in a narrow column: a scroll bar rather than headers cut to "ocument"; Qt's
            # measure of each header (text, margins and the sort arrow)
            header = t.horizontalHeader()
            widest = max(header.sectionSizeHint(c) for c in range(t.model().columnCount()))
            header.setMinimumSectionSize(widest)
            t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)

    def _build_right(self, context: AppContext) -> QSplitter:
        """The disputed list (all annotators', or two sources' correction queue) above the
        adjudication panel."""
        self.disputed_model = DisputedItemsModel(self)
        self.disputed_table = table(self.disputed_model)
        self.disputed_table.setObjectName("disputed_table")
        self.disputed_table.setSortingEnabled(True)
        # stable sort by range, descending: keeps the service's "most disputed first" order
        self.disputed_table.sortByColumn(COL_D_RANGE, Qt.SortOrder.DescendingOrder)
        self.disputed_table.selectionModel().selectionChanged.connect(self._on_item_selected)
        self.source_pair = QComboBox()  # the disputed list of all annotators, or two sources'
        self.source_pair.setToolTip(
            self.tr(
                "All annotators' disputed documents, or the items where two judgment sources "
                "differ by two grades or more (the correction queue)"
            )
        )
        self.source_pair.currentIndexChanged.connect(self._on_source_pair_changed)
        self._pairs: list[tuple[str, str] | None] = [None]  # one per item of source_pair
        self.disputed_box = _boxed(
            self.tr("Disputed documents"), self.source_pair, self.disputed_table
        )
        self.detail_box = AdjudicationPanel(context, self.status)
        self.detail_box.adjudicated.connect(self.adjudicated)
        grade_shortcuts(self.disputed_table, self.adjudicate, Qt.ShortcutContext.WidgetShortcut)
        # what tests and the main window reach through the view
        panel = self.detail_box
        self.grade_buttons, self.item_title = panel.grade_buttons, panel.item_title
        self.grades_model, self.history_model = panel.grades_model, panel.history_model
        self.adjudication_note, self.history_note = panel.adjudication_note, panel.history_note
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.disputed_box)
        right.addWidget(self.detail_box)
        right.setChildrenCollapsible(False)
        return right

    # ------------------------------------------------------------------ loading
    def settings(self) -> AgreementSettings:
        return AgreementSettings(level=self.level.currentData())

    def reload(self) -> Task[AgreementData] | None:
        """Load now in a worker; on a team database an annotator login (not a lead) is blind
        to the others' grades (the server shows it only its own): say that agreement is
        shown to leads, load nothing and offer no adjudication."""
        rights = self.context.rights
        if self.context.database is None or not rights.team or rights.lead:
            return super().reload()
        self._timer.stop()
        self._dirty = False
        self.data = None
        self.detail_box.clear()
        self.status.clear()
        self._show_empty(
            self.tr(
                "Agreement is shown to leads. As an annotator you see only your own grades, "
                "not the others', so there is nothing to compare them with here."
            )
        )
        self.rows_shown.emit()
        self.data_loaded.emit()
        return None

    def _load_job(self, db: Database) -> TaskFn[AgreementData]:
        """Recompute the report at the chosen alpha level: its headline first."""
        settings = self.settings()
        return lambda progress, cancelled: load_headline(db, settings, progress, cancelled)

    def _tasks(self) -> tuple[Task[Any] | None, ...]:
        return (self._task, self._complete_task)

    def _on_database_changed(self) -> None:
        self.detail_box.item = None
        self._schedule()

    def _on_loaded(self, data: AgreementData) -> None:
        """The first stage: the headline and α per query; then the rest in a second worker
        (what the previous load showed there stays until it arrives)."""
        self.data = data
        report = data.report
        s = report.summary
        if s.n_ratings == 0:
            self._show_empty(
                self.tr(
                    "No judgments yet: grade documents in Annotate or import qrels to see "
                    "agreement."
                )
            )
            self.rows_shown.emit()
            self.data_loaded.emit()
            return
        self.pages.setCurrentIndex(1)
        self.alpha_label.setText(alpha_html(report))
        self.fleiss_label.setText(fleiss_text(report))
        self.kappa_model.set_report(report, self.kappa_kind.currentData())
        self.query_model.set_report(report)
        db = self.context.database
        if report.complete or db is None:  # None: closed meanwhile; its reload follows
            self.rows_shown.emit()
            if report.complete:
                self._on_completed(data, data)
            return
        self.status.setText(self._text(self.LOADING_STATUS))
        self._complete_task = run_task(
            lambda _progress, cancelled: complete_agreement(db, data, cancelled),
            on_success=lambda complete: self._on_completed(data, complete),
            on_failure=self._on_failed,
            owner=self,
            replaces=self._complete_task,
        )
        self.rows_shown.emit()

    def _on_completed(self, headline: AgreementData, data: AgreementData) -> None:
        """The second stage: the interval, α without each annotator, the disputed list."""
        if self.data is not headline:  # a newer load replaced it meanwhile
            return
        self.data = data
        report = data.report
        self.status.clear()
        self.alpha_label.setText(alpha_html(report) + provenance_html(data.machine))
        self.loo_model.set_report(report)
        self._show_loo_note(report)
        previous = self.source_pair_key()
        self._pairs = [None, *data.by_sources]
        self.source_pair.blockSignals(True)
        self.source_pair.clear()
        self.source_pair.addItem(self.tr("All annotators"))
        for a, b in data.by_sources:
            self.source_pair.addItem(arg(self.tr("Sources %1 vs %2"), a, b))
        keep = self._pairs.index(previous) if previous in self._pairs else 0
        self.source_pair.setCurrentIndex(keep)
        self.source_pair.blockSignals(False)
        self.source_pair.setVisible(bool(data.by_sources))
        self._show_disputed()
        self.data_loaded.emit()

    def source_pair_key(self) -> tuple[str, str] | None:
        """The two sources whose correction queue is shown (None: all annotators)."""
        i = self.source_pair.currentIndex()
        return self._pairs[i] if 0 <= i < len(self._pairs) else None

    def set_source_pair(self, pair: tuple[str, str] | None) -> None:
        """Show the correction queue of two sources (None: all annotators' disputed items)."""
        self.source_pair.setCurrentIndex(self._pairs.index(pair) if pair in self._pairs else 0)

    def _on_source_pair_changed(self, *_: object) -> None:
        if self.data is not None:
            self._show_disputed()

    def _show_disputed(self) -> None:
        data = self.data
        assert data is not None
        pair = self.source_pair_key()
        rows = data.disputed if pair is None else data.by_sources.get(pair, data.disputed)
        self.disputed_model.set_rows(rows)
        fit_columns(self.disputed_table)
        self.disputed_table.horizontalHeader().setStretchLastSection(True)
        n = len(rows)
        adjudicated = int((~np.isnan(rows.adjudicated)).sum()) if n else 0
        what = (
            arg(self.tr("grades differ by %1 or more"), data.report.settings.disputed_range)
            if pair is None
            else arg(self.tr("%1 and %2 differ by 2 grades or more"), pair[0], pair[1])
        )
        self.disputed_box.setTitle(
            arg(
                self.tr("Disputed documents: %1 (%2), %3 adjudicated"),
                number(n),
                what,
                number(adjudicated),
            )
        )
        self._reselect()

    def _show_loo_note(self, report: AgreementReport) -> None:
        """Say why the α-without cells are empty (e.g. two annotators: one is left, and α needs
        two grades per document), instead of blank cells with no reason."""
        text = self.loo_note_text(report)
        self.loo_note.setText(text)
        self.loo_note.setVisible(bool(text))

    #: '' when every α-without is defined; else the reason(s) it is not (see agreement_text)
    loo_note_text = staticmethod(loo_note_text)

    # ------------------------------------------------------------------ item selection
    def select_item(self, query_id: int, document_id: int) -> bool:
        """Select a disputed item by database ids; False when it is not in the list."""
        row = self.disputed_model.find(query_id, document_id)
        if row < 0:
            return False
        self.disputed_table.selectRow(row)
        return True

    def selected_item(self) -> tuple[int, int] | None:
        return self.detail_box.item

    def _reselect(self) -> None:
        selected = self.detail_box.item
        if selected is not None and self.select_item(*selected):
            self._show_item(*selected)
            return
        self.detail_box.item = None
        if self.disputed_model.rowCount():
            self.disputed_table.selectRow(0)
        else:
            self.detail_box.clear()

    def _on_item_selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.disputed_table.selectionModel().selectedRows()
        if rows:
            self._show_item(*self.disputed_model.item(rows[0].row()))

    def _show_item(self, query_id: int, document_id: int) -> None:
        d = self.disputed_model.rows
        hits = (d.query_id == query_id) & (d.document_id == document_id)
        if not hits.any():
            return
        i = int(hits.argmax())
        final = float(d.adjudicated[i])
        self.detail_box.show_item(
            (query_id, document_id),
            (str(d.query[i]), str(d.document[i])),
            d.grades[i],
            None if math.isnan(final) else final,
        )

    def adjudicate(self, grade: int | None) -> Task[GradeChange] | None:
        """Set the selected item's final grade (None clears) in a worker; then notify (see
        :meth:`AdjudicationPanel.adjudicate`)."""
        return self.detail_box.adjudicate(grade)

    # ------------------------------------------------------------------ state
    def _state_widgets(self) -> tuple[tuple[str, StateWidget], ...]:
        return (("splitter", self.splitter), ("left", self._left), ("right", self._right))
