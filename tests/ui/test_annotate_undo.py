"""Undo of grades: the QUndoCommand that only calls the Qt-free edits (those are tested without
Qt in tests/services/test_edits.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoStack

from ndcg_studio.services.annotation.edits import GradeEdit
from ndcg_studio.storage.judgments.items import GradeChange
from ndcg_studio.ui.undo import EditCommand
from tests.services.test_edits import FakeWriter


def test_edit_command_swaps_forward_and_backward(qapp: Any) -> None:
    writer = FakeWriter()
    applied: list[GradeEdit] = []

    def apply(edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        applied.append(edit)
        return edit.apply(writer)

    stack = QUndoStack()
    forward = GradeEdit(1, 2, 3, 2)
    _change, backward = apply(forward)  # the view writes first, then pushes
    stack.push(EditCommand(forward, backward, apply, "Grade 2"))
    assert len(applied) == 1  # push did not write again
    assert stack.undoText() == "Grade 2"
    stack.undo()
    assert writer.rows == {}
    stack.redo()
    assert writer.rows == {(2, 3, 1): (2, None)}
    assert [e.grade for e in applied] == [2, None, 2]


def test_a_failing_undo_is_reported_and_dropped(qapp: Any) -> None:
    errors: list[BaseException] = []

    def broken(_edit: GradeEdit) -> tuple[GradeChange, GradeEdit]:
        raise RuntimeError("database gone")

    stack = QUndoStack()
    stack.push(
        EditCommand(
            GradeEdit(1, 2, 3, 2),
            GradeEdit(1, 2, 3, None),
            broken,
            "Grade 2",
            on_error=errors.append,
        )
    )
    assert stack.count() == 1
    stack.undo()
    assert [str(e) for e in errors] == ["database gone"]
    assert stack.count() == 0  # obsolete: removed instead of pretending it was undone
