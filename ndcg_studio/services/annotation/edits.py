"""Undoable edits of grades, notes and adjudications, as plain values (no Qt).

As in Orange, an edit is a value (:class:`GradeEdit`, :class:`AdjudicationEdit`) and applying
it returns its inverse; the GUI's ``QUndoCommand`` (:class:`ndcg_studio.ui.undo.EditCommand`)
only calls the apply function and swaps the two. glue keeps its command stack Qt-free for the
same reason: the logic is usable from the CLI and tested without a QApplication.

Every apply is one transaction of :meth:`AnnotationService.set_grade` (or
:meth:`~AnnotationService.set_adjudication`), which records the change in ``judgment_history``;
undo is therefore a new write of the old value (also recorded), never a deletion of history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ndcg_studio.storage.judgments.items import KEEP, GradeChange, Keep


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
    """Set ``annotator_id``'s grade of (``query_id``, ``document_id``) to ``grade`` (0–4; None
    clears) and its note to ``note`` (:data:`KEEP`: unchanged)."""

    annotator_id: int
    query_id: int
    document_id: int
    grade: int | None
    note: str | Keep | None = KEEP

    def apply(self, writer: GradeWriter) -> tuple[GradeChange, GradeEdit]:
        """Write this edit (one transaction); return what changed and the edit that undoes it
        (the previous grade and note).

        Raises:
            whatever ``writer.set_grade`` raises (``ValueError``, ``LookupError``,
            ``ConnectionLost``, ``WriteRefused``); nothing is written then.
        """
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
    """Set the final grade of (``query_id``, ``document_id``) to ``grade`` (0–4; None clears)
    as decided by annotator ``by``."""

    query_id: int
    document_id: int
    grade: int | None
    by: int
    note: str | Keep | None = KEEP

    def apply(self, writer: AdjudicationWriter) -> tuple[GradeChange, AdjudicationEdit]:
        """Write this decision (one transaction, recorded in the history); return what changed
        and the edit restoring the previous decision.

        Raises:
            whatever ``writer.set_adjudication`` raises; nothing is written then.
        """
        change = writer.set_adjudication(
            self.query_id, self.document_id, self.grade, self.by, self.note
        )
        return change, self.inverse_of(change)

    def inverse_of(self, change: GradeChange) -> AdjudicationEdit:
        """The edit restoring the decision before ``change``."""
        return AdjudicationEdit(
            self.query_id, self.document_id, change.old_grade, self.by, change.old_note
        )
