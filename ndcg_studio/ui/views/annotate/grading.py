"""Annotate's grading: a grade, a cleared grade or a note is one undoable edit
(:class:`~ndcg_studio.services.annotation.edits.GradeEdit`), written synchronously on the GUI
thread in its
own transaction, then pushed on the undo stack; the view then shows the committed change.

One grade is short enough for the GUI thread (``benchmarks/bench_annotation.py`` measures it
against the 50 ms budget of a keystroke, with 1,000,000 judgments), and "Saved" is shown only
after the commit returned. While a campaign is chosen, grades go through the campaign panel's
writer, with the seconds since the document was shown. :class:`Grader` is an object the view
owns; it reads the view's current document through the view's public methods.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Slot

from ndcg_studio.services.annotation.edits import GradeEdit
from ndcg_studio.services.annotation.next_unjudged import next_in_pool
from ndcg_studio.storage.judgments.items import GradeChange
from ndcg_studio.ui import errors
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.undo import EditCommand
from ndcg_studio.ui.views.annotate.note import NoteDialog

if TYPE_CHECKING:
    from ndcg_studio.ui.views.annotate.view import AnnotateView


class Grader(QObject):
    """Grades, cleared grades and notes of the current document of ``view`` (which owns it): each
    is one undoable edit, written at once; the view is told through its public methods and its
    ``judgment_saved`` signal."""

    def __init__(self, view: AnnotateView) -> None:
        super().__init__(view)
        self._view = view
        self.context = view.context
        # the judging campaign grades go to (set by the campaign panel), None outside one
        self.campaign_id: int | None = None
        # grades written so far: a load that started before a write is stale and is redone
        self.writes = 0
        # True while this grader announces its own change (the view does not reload for it)
        self.emitting = False
        # the query's last document was graded and the query is complete: grade keys wait for
        # a move (a fast grader would otherwise change that last grade again and again)
        self.at_end = False

    @Slot(int)
    def grade_current(self, grade: int) -> None:
        """Give the current document ``grade`` (0–4), save it, advance to the next document: the
        next in the pool, else the first unjudged one before it; when the query is complete, say
        so and ignore grade keys until the annotator moves (:attr:`at_end`)."""
        item = self._view.current_item()
        if item is None or self._view.current_query is None or self.context.annotator is None:
            return
        if self.at_end:
            self._view.set_status(
                QCoreApplication.translate(
                    "Grader", "Query complete: ← → to change a grade, U for the next unjudged"
                )
            )
            return
        edit = GradeEdit(
            self.context.annotator.id, self._view.current_query.query_id, item.document_id, grade
        )
        if not self._write(
            edit,
            arg(
                QCoreApplication.translate("Grader", "Grade %1 “%2”"),
                grade,
                _short(item.title),
            ),
        ):
            return
        position, pool = self._view.position(), self._view.pool_model
        if position + 1 < pool.rowCount():
            self._view.show_position(position + 1)
            return
        unjudged = next_in_pool([i.grade is not None for i in pool.items()], position)
        if unjudged is not None:
            self._view.show_position(unjudged)
        else:
            self.at_end = True
            self._view.set_status(
                arg(
                    QCoreApplication.translate("Grader", "%1 · query complete (U: next unjudged)"),
                    self._view.panel.status_label.text(),
                )
            )

    @Slot()
    def clear_current(self) -> None:
        """Remove the current document's grade (and its note)."""
        item = self._view.current_item()
        if item is None or self._view.current_query is None or self.context.annotator is None:
            return
        if item.grade is None:
            return
        edit = GradeEdit(
            self.context.annotator.id, self._view.current_query.query_id, item.document_id, None
        )
        self._write(
            edit,
            arg(QCoreApplication.translate("Grader", "Clear grade “%1”"), _short(item.title)),
        )

    @Slot()
    def edit_note(self) -> None:
        """Edit the current document's note in a dialog (the document must be graded)."""
        item = self._view.current_item()
        if item is None or self._view.current_query is None or self.context.annotator is None:
            return
        if item.grade is None:
            self._view.set_status(
                QCoreApplication.translate(
                    "Grader", "Grade the document first: a note belongs to a grade."
                )
            )
            return
        text, ok = NoteDialog.ask(
            self._view,
            QCoreApplication.translate("Grader", "Note"),
            arg(QCoreApplication.translate("Grader", "Note on “%1”:"), _short(item.title, 60)),
            item.note or "",
        )
        if not ok:
            return
        edit = GradeEdit(
            self.context.annotator.id,
            self._view.current_query.query_id,
            item.document_id,
            item.grade,
            text,
        )
        self._write(
            edit,
            arg(QCoreApplication.translate("Grader", "Edit note “%1”"), _short(item.title)),
        )

    def _write(self, edit: GradeEdit, text: str) -> bool:
        """Apply ``edit`` now (one transaction) and put it on the undo stack; False if it
        failed (the error is shown, nothing is pushed)."""
        self._view.set_status(QCoreApplication.translate("Grader", "Saving…"))
        try:
            change, inverse = self._apply(edit)
        except Exception as exc:
            self._view.set_status(QCoreApplication.translate("Grader", "Not saved"))
            errors.show_error(
                exc,
                self._view,
                action=QCoreApplication.translate("Grader", "Saving the grade"),
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

            service = CampaignWriter(service, self.campaign_id, self._view.seconds_shown())
        change, inverse = edit.apply(service)
        self._on_change(change)
        return change, inverse

    def _apply_from_stack(self, edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        result = self._apply(edit)
        if (
            self._view.current_query is not None
            and edit.query_id == self._view.current_query.query_id
        ):
            self._view.go_to_document(edit.document_id)
        return result

    def _on_undo_failed(self, exc: BaseException) -> None:
        self._view.set_status(QCoreApplication.translate("Grader", "Not saved"))
        errors.show_error(exc, self._view, action=QCoreApplication.translate("Grader", "Undoing"))

    def _on_change(self, change: GradeChange) -> None:
        """Show a committed change: the pool row, the card, the query's progress, "Saved"."""
        if (
            self._view.current_query is not None
            and change.query_id == self._view.current_query.query_id
        ):
            self._view.pool_model.update_item(change.document_id, change.new_grade, change.new_note)
            self._view.rows_model.set_judged(change.query_id, self._view.pool_model.judged_count())
            item = self._view.current_item()
            if item is not None and item.document_id == change.document_id:
                self._view.refresh_card()
            self._view.update_pool_title()
        else:
            delta = int(change.new_grade is not None) - int(change.old_grade is not None)
            self._view.rows_model.adjust_judged(change.query_id, delta)
        self._view.update_totals()
        self.writes += 1
        self._view.set_status(
            arg(QCoreApplication.translate("Grader", "Saved ✓ %1"), time.strftime("%H:%M:%S"))
        )

        self.emitting = True
        try:
            self.context.notify_judgments_changed([change.query_id])
        finally:
            self.emitting = False
        self._view.judgment_saved.emit(change)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
