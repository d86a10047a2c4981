"""Annotate's grading: a grade, a cleared grade or a note is one undoable edit
(:class:`~ndcg_studio.services.annotation.edits.GradeEdit`), written synchronously on the GUI
thread in its
own transaction, then pushed on the undo stack; the view then shows the committed change.

One grade is short enough for the GUI thread (``benchmarks/bench_annotation.py`` measures it
against the 50 ms budget of a keystroke, with 1,000,000 judgments), and "Saved" is shown only
after the commit returned. While a campaign is chosen, grades go through the campaign panel's
writer, with the seconds since the document was shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

from PySide6.QtCore import QCoreApplication, SignalInstance, Slot
from PySide6.QtWidgets import QInputDialog, QWidget

from ndcg_studio.services.annotation.edits import GradeEdit
from ndcg_studio.services.annotation.types import PoolItem, QueryProgress
from ndcg_studio.storage.judgments.items import GradeChange
from ndcg_studio.ui import errors
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.query_progress import QueryProgressModel
from ndcg_studio.ui.undo import EditCommand
from ndcg_studio.ui.views.annotate.document import DocumentPanel


class GradingMixin:
    """The grading half of :class:`~ndcg_studio.ui.views.annotate.view.AnnotateView` (a mixin: the
    view holds the state declared below)."""

    context: AppContext
    pool_model: PoolModel
    rows_model: QueryProgressModel
    panel: DocumentPanel
    judgment_saved: SignalInstance
    campaign_id: int | None
    _query: QueryProgress | None
    _position: int
    _shown_at: float
    _writes: int
    _emitting: bool
    current_item: Callable[[], PoolItem | None]
    _show_position: Callable[[int], None]
    _go_to_document: Callable[[int], None]
    _refresh_card: Callable[[], None]
    _update_pool_title: Callable[[], None]
    _update_totals: Callable[[], None]
    _set_status: Callable[[str], None]

    def _parent(self) -> QWidget:
        """The view itself, as the widget it is (parent of dialogs and error messages)."""
        return cast(QWidget, self)

    @Slot(int)
    def grade_current(self, grade: int) -> None:
        """Give the current document ``grade`` (0–4), save it, advance to the next document."""
        item = self.current_item()
        if item is None or self._query is None or self.context.annotator is None:
            return
        edit = GradeEdit(self.context.annotator.id, self._query.query_id, item.document_id, grade)
        if not self._write(
            edit,
            arg(
                QCoreApplication.translate("GradingMixin", "Grade %1 “%2”"),
                grade,
                _short(item.title),
            ),
        ):
            return
        if self._position + 1 < self.pool_model.rowCount():
            self._show_position(self._position + 1)
        elif self.pool_model.judged_count() == self.pool_model.rowCount():
            self._set_status(
                arg(
                    QCoreApplication.translate(
                        "GradingMixin", "%1 · query complete (U: next unjudged)"
                    ),
                    self.panel.status_label.text(),
                )
            )

    @Slot()
    def clear_current(self) -> None:
        """Remove the current document's grade (and its note)."""
        item = self.current_item()
        if item is None or self._query is None or self.context.annotator is None:
            return
        if item.grade is None:
            return
        edit = GradeEdit(self.context.annotator.id, self._query.query_id, item.document_id, None)
        self._write(
            edit,
            arg(QCoreApplication.translate("GradingMixin", "Clear grade “%1”"), _short(item.title)),
        )

    @Slot()
    def edit_note(self) -> None:
        """Edit the current document's note in a dialog (the document must be graded)."""
        item = self.current_item()
        if item is None or self._query is None or self.context.annotator is None:
            return
        if item.grade is None:
            self._set_status(
                QCoreApplication.translate(
                    "GradingMixin", "Grade the document first: a note belongs to a grade."
                )
            )
            return
        text, ok = QInputDialog.getMultiLineText(
            self._parent(),
            QCoreApplication.translate("GradingMixin", "Note"),
            arg(
                QCoreApplication.translate("GradingMixin", "Note on “%1”:"), _short(item.title, 60)
            ),
            item.note or "",
        )
        if not ok:
            return
        edit = GradeEdit(
            self.context.annotator.id, self._query.query_id, item.document_id, item.grade, text
        )
        self._write(
            edit,
            arg(QCoreApplication.translate("GradingMixin", "Edit note “%1”"), _short(item.title)),
        )

    def _write(self, edit: GradeEdit, text: str) -> bool:
        """Apply ``edit`` now (one transaction) and put it on the undo stack; False if it
        failed (the error is shown, nothing is pushed)."""
        self._set_status(QCoreApplication.translate("GradingMixin", "Saving…"))
        try:
            change, inverse = self._apply(edit)
        except Exception as exc:
            self._set_status(QCoreApplication.translate("GradingMixin", "Not saved"))
            errors.show_error(
                exc,
                self._parent(),
                action=QCoreApplication.translate("GradingMixin", "Saving the grade"),
            )
            return False
        if change.changed:
            command = EditCommand(
                edit, inverse, self._apply_from_stack, text, on_error=self._on_undo_failed
            )
            self.context.undo_stack.push(command)
        return True

    def _apply(self, edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        # no retry here: AnnotationService.set_grade retries a lost connection itself and
        # raises ConnectionLost (not a disconnect) when the server stays away
        service: Any = self.context.annotation_service()
        if self.campaign_id is not None:
            from ndcg_studio.ui.views.campaign.panel import CampaignWriter

            service = CampaignWriter(service, self.campaign_id, time.monotonic() - self._shown_at)
        change, inverse = edit.apply(service)
        self._on_change(change)
        return change, inverse

    def _apply_from_stack(self, edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        result = self._apply(edit)
        if self._query is not None and edit.query_id == self._query.query_id:
            self._go_to_document(edit.document_id)
        return result

    def _on_undo_failed(self, exc: BaseException) -> None:
        self._set_status(QCoreApplication.translate("GradingMixin", "Not saved"))
        errors.show_error(
            exc, self._parent(), action=QCoreApplication.translate("GradingMixin", "Undoing")
        )

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
        self._set_status(
            arg(QCoreApplication.translate("GradingMixin", "Saved ✓ %1"), time.strftime("%H:%M:%S"))
        )

        self._emitting = True
        try:
            self.context.notify_judgments_changed([change.query_id])
        finally:
            self._emitting = False
        self.judgment_saved.emit(change)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
