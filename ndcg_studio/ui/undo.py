"""Undo and redo of grades, notes and adjudications on the ``QUndoStack``.

The edits themselves are plain values with their apply/inverse logic in
:mod:`ndcg_studio.services.annotation.edits` (no Qt, tested without a QApplication); this module
keeps only
the ``QUndoCommand`` adapter (:class:`EditCommand`), which calls the apply function and swaps
the two edits (Orange's design).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from PySide6.QtGui import QUndoCommand

from ndcg_studio.services.annotation.edits import AdjudicationEdit, GradeEdit
from ndcg_studio.storage.judgments.items import GradeChange

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
