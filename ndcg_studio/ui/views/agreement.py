"""Agreement and adjudication: how much the annotators agree, where they disagree, and the lead's
final grade.

Top: Krippendorff's alpha with its 95% bootstrap interval (level: ordinal, interval or nominal),
Fleiss' kappa or why it does not apply. Left: the pairwise Cohen's kappa heatmap, alpha without
each annotator (an outlier raises it), alpha per query. Right: the disputed items (grades differ
by 2 or more); selecting one shows every grade side by side and its history, and a lead sets the
final grade with the 0–4 buttons or keys (:meth:`AnnotationService.set_adjudication`, which
records the history). After a write the view emits the context's ``judgments_changed`` so the
scores and this view refresh.

The report, the item details and the writes all run in workers.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.agreement import AgreementReport, AgreementSettings
from ndcg_studio.services.agreement_rows import (
    AgreementData,
    ItemDetail,
    load_agreement,
    load_item,
)
from ndcg_studio.services.annotation import AnnotationService, GradeChange
from ndcg_studio.services.edits import AdjudicationEdit
from ndcg_studio.services.progress import Cancelled, Progress
from ndcg_studio.services.wording import count
from ndcg_studio.storage.database import Database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.errors import show_error
from ndcg_studio.ui.models.agreement import (
    COL_D_RANGE,
    KAPPA_KINDS,
    DisputedItemsModel,
    HistoryModel,
    ItemGradesModel,
    LeaveOneOutModel,
    PairwiseKappaModel,
    PerQueryAlphaModel,
)
from ndcg_studio.ui.models.grades import chip_icon, grade_name
from ndcg_studio.ui.undo import EditCommand
from ndcg_studio.ui.views.base import LazyView, StateWidget
from ndcg_studio.ui.workers import Task, TaskFn, run_task
from ndcg_studio.vocabulary import GRADES

_LEVELS = (
    ("ordinal", "Ordinal (grades are ordered)"),
    ("interval", "Interval (equal steps)"),
    ("ratio", "Ratio (equal steps from a true 0)"),
    ("nominal", "Nominal (categories)"),
)


def _table(model: object, stretch_last: bool = True) -> QTableView:
    view = QTableView()
    view.setTabKeyNavigation(False)  # Tab leaves the table
    view.setModel(model)  # type: ignore[arg-type]
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.horizontalHeader().setStretchLastSection(stretch_last)
    view.horizontalHeader().setHighlightSections(False)
    return view


def _boxed(title: str, *widgets: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 6, 6, 6)
    for w in widgets:
        layout.addWidget(w)
    return box


class AgreementView(LazyView[AgreementData]):
    """The Agreement tab. Construct as ``AgreementView(context, parent)``.

    Signals:
        data_loaded(): a report is shown.
        adjudicated(object): a final grade was written (the :class:`GradeChange`).
    """

    data_loaded = Signal()
    adjudicated = Signal(object)
    STATE_KEY = "agreement"
    LOADING_STATUS = "Computing agreement…"
    FAILED_STATUS = "Agreement failed"
    FAILED_ACTION = "Computing agreement"

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.data: AgreementData | None = None
        self._item_task: Task[ItemDetail] | None = None
        self._write_task: Task[GradeChange] | None = None
        self._selected: tuple[int, int] | None = None

        # header
        self.level = QComboBox()
        for value, label in _LEVELS:
            self.level.addItem(label, value)
        self.kappa_kind = QComboBox()
        for value, label in KAPPA_KINDS.items():
            self.kappa_kind.addItem(label, value)
        self.kappa_kind.setCurrentIndex(self.kappa_kind.findData("kappa_linear"))
        self.alpha_label = QLabel()
        self.alpha_label.setTextFormat(Qt.TextFormat.RichText)
        self.alpha_label.setWordWrap(True)
        self.alpha_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fleiss_label = QLabel()
        self.fleiss_label.setWordWrap(True)
        self.fleiss_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        controls = QHBoxLayout()
        controls.addWidget(QLabel("α level:"))
        controls.addWidget(self.level)
        controls.addSpacing(12)
        controls.addWidget(QLabel("Pairwise:"))
        controls.addWidget(self.kappa_kind)
        controls.addStretch(1)
        controls.addWidget(self.status)

        # left column: heatmap, leave-one-out, per query
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
        self.loo_table = _table(self.loo_model)
        self.loo_table.setObjectName("loo_table")
        self.loo_table.setSortingEnabled(True)
        self.loo_table.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        self.query_model = PerQueryAlphaModel(self)
        self.query_table = _table(self.query_model)
        self.query_table.setObjectName("agreement_query_table")
        self.query_table.setSortingEnabled(True)
        self.query_table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        # short titles (the column may be narrow on a small screen); the rest in tooltips
        self.kappa_box = _boxed("Pairwise agreement", self.kappa_table)
        self.kappa_box.setToolTip(
            "Cohen's κ of each pair of annotators, on the documents both graded"
        )
        self.loo_box = _boxed("α without each annotator", self.loo_table)
        self.loo_box.setToolTip("Δ > 0: agreement rises without that annotator")
        self.loo_note = QLabel()
        self.loo_note.setWordWrap(True)
        self.loo_note.hide()
        loo_layout = self.loo_box.layout()
        assert loo_layout is not None
        loo_layout.addWidget(self.loo_note)
        self.query_box = _boxed("α per query", self.query_table)
        for table in (self.loo_table, self.query_table, self.kappa_table):
            table.horizontalHeader().setStretchLastSection(False)  # else it keeps 100 px
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            # stretched columns always fit: no scroll bar (Qt can flicker one in by 1–3 px)
            table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for table in (self.loo_table, self.query_table):
            # in a narrow column: a scroll bar rather than headers cut to "ocument"
            header = table.horizontalHeader()
            model = table.model()
            widest = max(
                header.fontMetrics().horizontalAdvance(
                    str(model.headerData(c, Qt.Orientation.Horizontal))
                )
                for c in range(model.columnCount())
            )
            header.setMinimumSectionSize(widest + 24)  # room for the sort arrow
            table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        left = QSplitter(Qt.Orientation.Vertical)
        for w in (self.kappa_box, self.loo_box, self.query_box):
            left.addWidget(w)
        left.setChildrenCollapsible(False)

        # right column: disputed list, item detail with adjudication
        self.disputed_model = DisputedItemsModel(self)
        self.disputed_table = _table(self.disputed_model)
        self.disputed_table.setObjectName("disputed_table")
        self.disputed_table.setSortingEnabled(True)
        # stable sort by range, descending: keeps the service's "most disputed first" order
        self.disputed_table.sortByColumn(COL_D_RANGE, Qt.SortOrder.DescendingOrder)
        self.disputed_table.selectionModel().selectionChanged.connect(self._on_item_selected)
        self.source_pair = QComboBox()  # the disputed list of all annotators, or two sources'
        self.source_pair.setToolTip(
            "All annotators' disputed documents, or the items where two judgment sources "
            "differ by two grades or more (the correction queue)"
        )
        self.source_pair.currentIndexChanged.connect(self._on_source_pair_changed)
        self._pairs: list[tuple[str, str] | None] = [None]  # one per item of source_pair
        self.disputed_box = _boxed("Disputed documents", self.source_pair, self.disputed_table)

        self.item_title = QLabel("Select a disputed document.")
        self.item_title.setWordWrap(True)
        self.item_title.setTextFormat(Qt.TextFormat.RichText)
        self.item_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.grades_model = ItemGradesModel(self)
        self.grades_table = _table(self.grades_model)
        self.grades_table.setObjectName("grades_table")
        self.grades_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        grades_header = self.grades_table.horizontalHeader()
        grades_header.setStretchLastSection(False)
        grades_header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        grades_header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.grades_table.setMinimumWidth(300)
        self.history_model = HistoryModel(self)
        self.history_table = _table(self.history_model)
        self.history_table.setObjectName("history_table")
        self.history_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.history_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.history_table.horizontalHeader().setStretchLastSection(True)
        self.grade_buttons: dict[int | None, QPushButton] = {}
        # two rows of three, so every button stays on screen in a narrow column; the chip
        # icon shows the grade's number, the text its name
        buttons = QGridLayout()
        buttons.addWidget(QLabel("Final grade:"), 0, 0)
        for g in GRADES:
            b = QPushButton(chip_icon(g), grade_name(g))
            b.setToolTip(f"Set the final grade to {g} ({grade_name(g).lower()}) — key {g}")
            b.clicked.connect(lambda _=False, g=g: self.adjudicate(g))
            self.grade_buttons[g] = b
            buttons.addWidget(b, g // 3, 1 + g % 3)
        clear = QPushButton("Clear")
        clear.setToolTip("Remove the final grade (the consensus applies again) — key Backspace")
        clear.clicked.connect(lambda: self.adjudicate(None))
        self.grade_buttons[None] = clear
        buttons.addWidget(clear, 1, 3)
        buttons.setColumnStretch(4, 1)
        self.adjudication_note = QLabel()
        self.adjudication_note.setWordWrap(True)
        self.history_note = QLabel()
        history_box = QWidget()
        history_layout = QVBoxLayout(history_box)
        history_layout.setContentsMargins(0, 0, 0, 0)
        history_layout.addWidget(self.history_note)
        history_layout.addWidget(self.history_table, 1)
        grades_row = QHBoxLayout()
        grades_row.addWidget(self.grades_table, 3)
        grades_row.addWidget(history_box, 5)
        detail = QWidget()
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.item_title)
        detail_layout.addLayout(buttons)
        detail_layout.addWidget(self.adjudication_note)
        detail_layout.addLayout(grades_row, 1)
        self.detail_box = _boxed("Adjudication", detail)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.disputed_box)
        right.addWidget(self.detail_box)
        right.setChildrenCollapsible(False)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([520, 760])
        left.setSizes([260, 180, 260])
        right.setSizes([380, 320])
        self._left, self._right = left, right

        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addLayout(controls)
        content_layout.addWidget(self.alpha_label)
        content_layout.addWidget(self.fleiss_label)
        content_layout.addWidget(self.splitter, 1)
        self._set_content(content)

        for key, grade in (*((str(g), g) for g in GRADES), ("Backspace", None)):
            shortcut = QShortcut(QKeySequence(key), self.detail_box)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda g=grade: self.adjudicate(g))
            shortcut2 = QShortcut(QKeySequence(key), self.disputed_table)
            shortcut2.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut2.activated.connect(lambda g=grade: self.adjudicate(g))

        self.level.currentIndexChanged.connect(self._schedule)
        self.kappa_kind.currentIndexChanged.connect(
            lambda _: self.kappa_model.set_kind(self.kappa_kind.currentData())
        )
        context.database_changed.connect(self._on_database_changed)
        context.judgments_changed.connect(self._schedule)
        context.annotator_changed.connect(self._update_buttons)
        self._update_buttons()
        self._show_empty()
        self.restore_state()

    # ------------------------------------------------------------------ loading
    def settings(self) -> AgreementSettings:
        return AgreementSettings(level=self.level.currentData())

    def _load_job(self, db: Database) -> TaskFn[AgreementData]:
        """Recompute the report at the chosen alpha level."""
        settings = self.settings()
        return lambda progress, cancelled: load_agreement(db, settings, progress, cancelled)

    def _on_database_changed(self) -> None:
        self._selected = None
        self._schedule()

    def _on_loaded(self, data: AgreementData) -> None:
        self.data = data
        report = data.report
        s = report.summary
        if s.n_ratings == 0:
            self._show_empty(
                "No judgments yet: grade documents in Annotate or import qrels to see agreement."
            )
            self.data_loaded.emit()
            return
        self.pages.setCurrentIndex(1)
        self.alpha_label.setText(self.alpha_html(report))
        self.fleiss_label.setText(self.fleiss_text(report))
        self.kappa_model.set_report(report, self.kappa_kind.currentData())
        self.loo_model.set_report(report)
        self._show_loo_note(report)
        self.query_model.set_report(report)
        previous = self.source_pair_key()
        self._pairs = [None, *data.by_sources]
        self.source_pair.blockSignals(True)
        self.source_pair.clear()
        self.source_pair.addItem("All annotators")
        for a, b in data.by_sources:
            self.source_pair.addItem(f"Sources {a} vs {b}")
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
        self.disputed_table.resizeColumnsToContents()
        self.disputed_table.horizontalHeader().setStretchLastSection(True)
        n = len(rows)
        adjudicated = int((~np.isnan(rows.adjudicated)).sum()) if n else 0
        what = (
            f"grades differ by {data.report.settings.disputed_range} or more"
            if pair is None
            else f"{pair[0]} and {pair[1]} differ by 2 grades or more"
        )
        self.disputed_box.setTitle(
            f"Disputed documents: {n:,} ({what}), {adjudicated:,} adjudicated"
        )
        self._reselect()

    def _show_loo_note(self, report: AgreementReport) -> None:
        """Say why the α-without cells are empty (e.g. two annotators: one is left, and α needs
        two grades per document), instead of blank cells with no reason."""
        text = self.loo_note_text(report)
        self.loo_note.setText(text)
        self.loo_note.setVisible(bool(text))

    @staticmethod
    def loo_note_text(report: AgreementReport) -> str:
        """'' when every α-without is defined; else the reason(s) it is not."""
        loo = report.summary.leave_one_out
        names = list(report.annotators)
        undefined = [
            (names[i] if i < len(names) else str(i), reason or "undefined")
            for i, (value, reason) in enumerate(
                zip(loo.value.tolist(), loo.undefined_reason, strict=False)
            )
            if math.isnan(value)
        ]
        if not undefined:
            return ""
        reasons = sorted({reason for _, reason in undefined})
        if len(undefined) == len(names):
            who = "for every annotator"
        else:
            who = "without " + ", ".join(name for name, _ in undefined)
        return f"α undefined {who}: {'; '.join(reasons)}."

    @staticmethod
    def alpha_html(report: AgreementReport) -> str:
        """The headline: alpha, its interval, and what it is computed on."""
        s = report.summary
        a, ci = s.alpha, s.alpha_ci
        level = report.settings.level
        if math.isnan(a.value):
            return (
                f"<b>Krippendorff's α ({level})</b>: undefined — {a.undefined_reason}. "
                f"{count(s.n_annotators, 'annotators')}, {count(s.n_ratings, 'judgments')}."
            )
        interval = (
            f"95% interval {ci.low:.3f} – {ci.high:.3f} ({ci.n_resamples:,} bootstrap resamples "
            "of the documents)"
            if not math.isnan(ci.low)
            else f"no interval: {ci.undefined_reason}"
        )
        return (
            f"<b>Krippendorff's α ({level}) = {a.value:.3f}</b> &nbsp; {interval} &nbsp;·&nbsp; "
            f"{a.n_items:,} documents graded by two or more of {s.n_annotators} annotators, "
            f"{s.n_ratings:,} judgments"
        )

    @staticmethod
    def fleiss_text(report: AgreementReport) -> str:
        f = report.summary.fleiss
        if math.isnan(f.value):
            return f"Fleiss' κ: not applicable — {f.undefined_reason}."
        return (
            f"Fleiss' κ = {f.value:.3f} ({f.n_items:,} documents, {f.n_raters} grades each; "
            "nominal, chance-corrected)"
        )

    # ------------------------------------------------------------------ item selection
    def select_item(self, query_id: int, document_id: int) -> bool:
        """Select a disputed item by database ids; False when it is not in the list."""
        row = self.disputed_model.find(query_id, document_id)
        if row < 0:
            return False
        self.disputed_table.selectRow(row)
        return True

    def selected_item(self) -> tuple[int, int] | None:
        return self._selected

    def _reselect(self) -> None:
        if self._selected is not None and self.select_item(*self._selected):
            self._show_item(*self._selected)
            return
        self._selected = None
        if self.disputed_model.rowCount():
            self.disputed_table.selectRow(0)
        else:
            self._clear_item()

    def _on_item_selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.disputed_table.selectionModel().selectedRows()
        if not rows:
            return
        item = self.disputed_model.item(rows[0].row())
        self._selected = item
        self._show_item(*item)

    def _clear_item(self) -> None:
        self.item_title.setText("Select a disputed document.")
        self.grades_model.set_grades({})
        self.history_model.set_history([], {})
        self.history_note.clear()
        self._update_buttons()

    def _show_item(self, query_id: int, document_id: int) -> None:
        d = self.disputed_model.rows
        hits = (d.query_id == query_id) & (d.document_id == document_id)
        if not hits.any():
            return
        i = int(hits.argmax())
        final = float(d.adjudicated[i])
        self.grades_model.set_grades(d.grades[i], None if math.isnan(final) else final)
        self.item_title.setText(f"<b>Query {d.query[i]} · document {d.document[i]}</b>")
        self._update_buttons()
        db = self.context.database
        if db is None:
            return
        self._item_task = run_task(
            lambda _p, _c: load_item(db, query_id, document_id),
            on_success=self._on_item_loaded,
            owner=self,
            replaces=self._item_task,
        )

    def _on_item_loaded(self, item: ItemDetail) -> None:
        if self._selected != (item.query_id, item.document_id):
            return
        d = self.disputed_model.rows
        hits = (d.query_id == item.query_id) & (d.document_id == item.document_id)
        if hits.any():
            i = int(hits.argmax())
            self.item_title.setText(
                f"<b>Query {d.query[i]}</b>: {html.escape(item.query_text)}<br>"
                f"<b>Document {d.document[i]}</b>: {html.escape(item.title)}"
            )
        self.history_model.set_history(item.history, item.names)
        self.history_table.resizeColumnsToContents()
        self.history_note.setText(
            "History: "
            + count(len(item.history), "recorded changes", "recorded change")
            + ", newest first."
            if item.history
            else "History: no recorded change."
        )

    # ------------------------------------------------------------------ adjudication
    def _update_buttons(self) -> None:
        annotator = self.context.annotator
        enabled = annotator is not None and self._selected is not None
        for b in self.grade_buttons.values():
            b.setEnabled(enabled)
        if annotator is None:
            self.adjudication_note.setText(
                "Choose who you are (Annotator ▸ Switch annotator…) to set final grades."
            )
        else:
            self.adjudication_note.setText(
                f"Final grades are recorded as set by {annotator.name}; they win over the "
                "consensus in scoring. Keys 0–4 set, Backspace clears."
            )

    def adjudicate(self, grade: int | None) -> Task[GradeChange] | None:
        """Set the selected item's final grade (None clears) in a worker; then notify."""
        annotator = self.context.annotator
        db = self.context.database
        if annotator is None or db is None or self._selected is None:
            return None
        query_id, document_id = self._selected
        by = annotator.id
        self.status.setText("Saving…")

        def job(_p: Progress, _c: Cancelled) -> GradeChange:
            return AnnotationService(db).set_adjudication(query_id, document_id, grade, by)

        self._write_task = run_task(job, on_success=self._on_adjudicated, owner=self)
        return self._write_task

    def _on_adjudicated(self, change: GradeChange) -> None:
        self.status.setText("Saved")
        if change.changed:
            edit = AdjudicationEdit(change.query_id, change.document_id, change.new_grade,
                                    change.changed_by)  # fmt: skip
            grade = "cleared" if change.new_grade is None else f"→ {change.new_grade}"
            self.context.undo_stack.push(
                EditCommand(
                    edit,
                    edit.inverse_of(change),
                    self._apply_from_stack,
                    f"Final grade {grade}",
                    on_error=lambda exc: show_error(exc, self, action="Undoing the final grade"),
                )
            )
        self._after_adjudication(change)

    def _after_adjudication(self, change: GradeChange) -> None:
        self.adjudicated.emit(change)
        self.context.notify_judgments_changed([change.query_id])

    def _apply_from_stack(self, edit: AdjudicationEdit) -> tuple[GradeChange, AdjudicationEdit]:
        """Undo/redo: write the decision now (one short transaction) and refresh."""
        change, inverse = edit.apply(AnnotationService(self.context.require_database()))
        self._after_adjudication(change)
        return change, inverse

    # ------------------------------------------------------------------ state
    def _state_widgets(self) -> tuple[tuple[str, StateWidget], ...]:
        return (("splitter", self.splitter), ("left", self._left), ("right", self._right))
