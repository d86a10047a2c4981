"""The adjudication panel of the Agreement view: one disputed item's grades side by side and its
history, and the lead's final grade with the 0–4 buttons or keys
(:meth:`AnnotationService.set_adjudication`, which records the history; an undoable
:class:`~ndcg_studio.services.annotation.edits.AdjudicationEdit`). The item's texts and history and
the
write run in workers; after a write the context's ``judgments_changed`` makes the scores and the
Agreement view refresh.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QAbstractItemModel, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.services.annotation.edits import AdjudicationEdit
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.screens.agreement import ItemDetail, load_item
from ndcg_studio.storage.judgments.items import GradeChange
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.errors import show_error
from ndcg_studio.ui.language import arg, number, plural
from ndcg_studio.ui.models.agreement import HistoryModel, ItemGradesModel
from ndcg_studio.ui.models.grades import chip_icon, grade_name
from ndcg_studio.ui.undo import EditCommand
from ndcg_studio.ui.widgets import column, read_only_table
from ndcg_studio.ui.workers import Task, run_task
from ndcg_studio.vocabulary import GRADES


def table(model: QAbstractItemModel, stretch_last: bool = True) -> QTableView:
    """A :func:`read_only_table` of ``model``: whole rows selected one at a time, no row
    header."""
    view = read_only_table(model)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.horizontalHeader().setStretchLastSection(stretch_last)
    return view


def grade_shortcuts(widget: QWidget, slot: object, context: Qt.ShortcutContext) -> None:
    """Keys 0–4 call ``slot(grade)`` and Backspace ``slot(None)`` while ``widget`` (or, with
    ``WidgetWithChildrenShortcut``, a child of it) has the focus."""
    for key, grade in (*((str(g), g) for g in GRADES), ("Backspace", None)):
        shortcut = QShortcut(QKeySequence(key), widget)
        shortcut.setContext(context)
        shortcut.activated.connect(lambda g=grade: slot(g))  # type: ignore[operator]


class AdjudicationPanel(QGroupBox):
    """The "Adjudication" box. :meth:`show_item` shows an item, :meth:`adjudicate` sets its
    final grade.

    Signals:
        adjudicated(object): a final grade was written (the :class:`GradeChange`).
    """

    adjudicated = Signal(object)

    def __init__(self, context: AppContext, status: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Adjudication"))
        self.context = context
        self._status = status  # the view's status label: "Saving…", "Saved"
        self.item: tuple[int, int] | None = None
        self._ids: tuple[str, str] = ("", "")
        self._item_task: Task[ItemDetail] | None = None
        self._write_task: Task[GradeChange] | None = None
        self.item_title = QLabel(self.tr("Select a disputed document."))
        self.item_title.setWordWrap(True)
        self.item_title.setTextFormat(Qt.TextFormat.RichText)
        self.item_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.adjudication_note = QLabel()
        self.adjudication_note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.item_title)
        layout.addLayout(self._build_buttons())
        layout.addWidget(self.adjudication_note)
        layout.addLayout(self._build_tables(), 1)
        grade_shortcuts(self, self.adjudicate, Qt.ShortcutContext.WidgetWithChildrenShortcut)
        context.annotator_changed.connect(self.update_buttons)
        self.update_buttons()

    def _build_buttons(self) -> QGridLayout:
        self.grade_buttons: dict[int | None, QPushButton] = {}
        # two rows of three, so every button stays on screen in a narrow column; the chip
        # icon shows the grade's number, the text its name
        buttons = QGridLayout()
        buttons.addWidget(QLabel(self.tr("Final grade:")), 0, 0)
        for g in GRADES:
            b = QPushButton(chip_icon(g), grade_name(g))
            b.setToolTip(
                arg(self.tr("Set the final grade to %1 (%2) — key %1"), g, grade_name(g).lower())
            )
            b.clicked.connect(lambda _=False, g=g: self.adjudicate(g))
            self.grade_buttons[g] = b
            buttons.addWidget(b, g // 3, 1 + g % 3)
        clear = QPushButton(self.tr("Clear"))
        clear.setToolTip(
            self.tr("Remove the final grade (the consensus applies again) — key Backspace")
        )
        clear.clicked.connect(lambda: self.adjudicate(None))
        self.grade_buttons[None] = clear
        buttons.addWidget(clear, 1, 3)
        buttons.setColumnStretch(4, 1)
        return buttons

    def _build_tables(self) -> QHBoxLayout:
        self.grades_model = ItemGradesModel(self)
        self.grades_table = table(self.grades_model)
        self.grades_table.setObjectName("grades_table")
        self.grades_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        grades_header = self.grades_table.horizontalHeader()
        grades_header.setStretchLastSection(False)
        grades_header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        grades_header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.grades_table.setMinimumWidth(300)
        self.history_model = HistoryModel(self)
        self.history_table = table(self.history_model)
        self.history_table.setObjectName("history_table")
        self.history_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.history_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.history_table.horizontalHeader().setStretchLastSection(True)
        self.history_note = QLabel()
        history_box = column(self.history_note, self.history_table, stretch=self.history_table)
        row = QHBoxLayout()
        row.addWidget(self.grades_table, 3)
        row.addWidget(history_box, 5)
        return row

    # ------------------------------------------------------------------ showing an item
    def clear(self) -> None:
        """No item selected."""
        self.item = None
        self.item_title.setText(self.tr("Select a disputed document."))
        self.grades_model.set_grades({})
        self.history_model.set_history([], {})
        self.history_note.clear()
        self.update_buttons()

    def show_item(
        self,
        ids: tuple[int, int],
        external: tuple[str, str],
        grades: dict[str, float],
        final: float | None,
    ) -> None:
        """Show the item with database ``ids`` and ``external`` ids (query, document): every
        annotator's ``grades``, the ``final`` grade (None: not adjudicated); its texts and
        history load in a worker."""
        self.item, self._ids = ids, external
        self.grades_model.set_grades(grades, final)
        self.item_title.setText(
            arg(self.tr("<b>Query %1 · document %2</b>"), *map(html.escape, external))
        )
        self.update_buttons()
        db = self.context.database
        if db is None:
            return
        query_id, document_id = ids
        self._item_task = run_task(
            lambda _p, _c: load_item(db, query_id, document_id),
            on_success=self._on_item_loaded,
            owner=self,
            replaces=self._item_task,
        )

    def _on_item_loaded(self, item: ItemDetail) -> None:
        if self.item != (item.query_id, item.document_id):
            return
        query, document = self._ids
        self.item_title.setText(
            arg(
                self.tr("<b>Query %1</b>: %2<br><b>Document %3</b>: %4"),
                html.escape(query),
                html.escape(item.query_text),
                html.escape(document),
                html.escape(item.title),
            )
        )
        self.history_model.set_history(item.history, item.names)
        self.history_table.resizeColumnsToContents()
        n = len(item.history)
        self.history_note.setText(
            arg(
                plural(self.tr("History: %1 recorded change(s), newest first.", "", n), n),
                number(n),
            )
            if item.history
            else self.tr("History: no recorded change.")
        )

    # ------------------------------------------------------------------ adjudication
    def update_buttons(self) -> None:
        annotator = self.context.annotator
        lead = self.context.rights.lead  # an annotator login may not adjudicate (the server's)
        enabled = lead and annotator is not None and self.item is not None
        for b in self.grade_buttons.values():
            b.setEnabled(enabled)
            b.setVisible(lead)
        if annotator is None:
            self.adjudication_note.setText(
                self.tr("Choose who you are (Annotator ▸ Switch annotator…) to set final grades.")
            )
        else:
            text = self.tr(
                "Final grades are recorded as set by %1; they win over the "
                "consensus in scoring. Keys 0–4 set, Backspace clears."
            )
            self.adjudication_note.setText(arg(text, annotator.name))

    def adjudicate(self, grade: int | None) -> Task[GradeChange] | None:
        """Set the shown item's final grade (None clears) in a worker; then notify."""
        annotator = self.context.annotator
        db = self.context.database
        if annotator is None or db is None or self.item is None or not self.context.rights.lead:
            return None
        query_id, document_id = self.item
        by = annotator.id
        self._status.setText(self.tr("Saving…"))

        def job(_p: Progress, _c: Cancelled) -> GradeChange:
            return AnnotationService(db).set_adjudication(query_id, document_id, grade, by)

        self._write_task = run_task(job, on_success=self._on_adjudicated, owner=self)
        return self._write_task

    def _on_adjudicated(self, change: GradeChange) -> None:
        self._status.setText(self.tr("Saved"))
        if change.changed:
            edit = AdjudicationEdit(change.query_id, change.document_id, change.new_grade,
                                    change.changed_by)  # fmt: skip
            text = (
                self.tr("Final grade cleared")
                if change.new_grade is None
                else arg(self.tr("Final grade → %1"), change.new_grade)
            )
            undoing = self.tr("Undoing the final grade")
            self.context.undo_stack.push(
                EditCommand(
                    edit,
                    edit.inverse_of(change),
                    self._apply_from_stack,
                    text,
                    on_error=lambda exc: show_error(exc, self, action=undoing),
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
