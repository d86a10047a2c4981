"""Undo and redo of grades, notes and adjudications.

As in Orange, an edit is a plain value (:class:`GradeEdit`) and applying it returns its inverse;
the ``QUndoCommand`` (:class:`EditCommand`) only calls the apply function and swaps the two. The
edit logic needs no Qt and is tested without a QApplication (glue keeps its command stack Qt-free
for the same reason).

Every apply is one transaction of :meth:`AnnotationService.set_grade`, which records the change in
``judgment_history``; undo is therefore a new write of the old value (also recorded), never a
deletion of history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from PySide6.QtGui import QUndoCommand

from ndcg_studio.services.annotation import KEEP, GradeChange, Keep


class GradeWriter(Protocol):
    """What :class:`GradeEdit` needs: :meth:`AnnotationService.set_grade`."""

    def set_grade(
        self,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        note: str | Keep | None = KEEP,
    ) -> GradeChange: ...


@dataclass(frozen=True)
class GradeEdit:
    """Set ``annotator_id``'s grade of (``query_id``, ``document_id``) to ``grade`` (None clears)
    and its note to ``note`` (:data:`KEEP`: unchanged)."""

    annotator_id: int
    query_id: int
    document_id: int
    grade: int | None
    note: str | Keep | None = KEEP

    def apply(self, writer: GradeWriter) -> tuple[GradeChange, GradeEdit]:
        """Write this edit (one transaction); return what changed and the edit that undoes it
        (the previous grade and note)."""
        change = writer.set_grade(
            self.annotator_id, self.query_id, self.document_id, self.grade, self.note
        )
        return change, self.inverse_of(change)

    def inverse_of(self, change: GradeChange) -> GradeEdit:
        """The edit restoring the values before ``change``."""
        return GradeEdit(
            annotator_id=self.annotator_id,
            query_id=self.query_id,
            document_id=self.document_id,
            grade=change.old_grade,
            note=change.old_note,
        )


class AdjudicationWriter(Protocol):
    """What :class:`AdjudicationEdit` needs: :meth:`AnnotationService.set_adjudication`."""

    def set_adjudication(
        self,
        query_id: int,
        document_id: int,
        grade: int | None,
        by: int,
        note: str | Keep | None = KEEP,
    ) -> GradeChange: ...


@dataclass(frozen=True)
class AdjudicationEdit:
    """Set the final grade of (``query_id``, ``document_id``) to ``grade`` (None clears) as
    decided by annotator ``by``."""

    query_id: int
    document_id: int
    grade: int | None
    by: int
    note: str | Keep | None = KEEP

    def apply(self, writer: AdjudicationWriter) -> tuple[GradeChange, AdjudicationEdit]:
        """Write this decision (one transaction, recorded in the history); return what changed
        and the edit restoring the previous decision."""
        change = writer.set_adjudication(
            self.query_id, self.document_id, self.grade, self.by, self.note
        )
        return change, self.inverse_of(change)

    def inverse_of(self, change: GradeChange) -> AdjudicationEdit:
        """The edit restoring the decision before ``change``."""
        return AdjudicationEdit(
            self.query_id, self.document_id, change.old_grade, self.by, change.old_note
        )


E = TypeVar("E", GradeEdit, AdjudicationEdit)

#: applies an edit (service write + view refresh) and returns the change and the inverse edit
ApplyFn = Callable[[E], tuple[GradeChange, E]]


class EditCommand(QUndoCommand, Generic[E]):
    """A grade, note or adjudication edit on the ``QUndoStack``.

    Pushed *after* the first write succeeded (``applied=True``), so a failing write never lands
    on the stack; the stack's first ``redo()`` call is then skipped. If a later undo or redo
    fails (database gone), the error goes to ``on_error`` and the command is made obsolete, so
    the stack drops it instead of pretending it was undone.
    """

    def __init__(
        self,
        forward: E,
        backward: E,
        apply: ApplyFn[E],
        text: str,
        *,
        on_error: Callable[[BaseException], None] | None = None,
        applied: bool = True,
    ) -> None:
        super().__init__(text)
        self.forward: E = forward
        self.backward: E = backward
        self._apply: ApplyFn[E] = apply
        self._on_error = on_error
        self._skip_redo = applied

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        result = self._run(self.forward)
        if result is not None:
            self.backward = result

    def undo(self) -> None:
        result = self._run(self.backward)
        if result is not None:
            self.forward = result

    def _run(self, edit: E) -> E | None:
        try:
            inverse: E = self._apply(edit)[1]
        except Exception as exc:
            self.setObsolete(True)
            if self._on_error is not None:
                self._on_error(exc)
            return None
        return inverse
