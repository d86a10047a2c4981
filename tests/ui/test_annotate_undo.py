"""Undo of grades: the Qt-free edit values (applying one returns its inverse), and the
QUndoCommand that only calls them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtGui import QUndoStack
from sqlalchemy import select

from ndcg_studio.services.annotation import KEEP, AnnotationService, GradeChange, Keep
from ndcg_studio.storage import models
from ndcg_studio.ui.undo import EditCommand, GradeEdit
from tests.ui.conftest import UiData


@dataclass
class FakeWriter:
    """An in-memory set_grade: (query, document, annotator) -> (grade, note)."""

    rows: dict[tuple[int, int, int], tuple[int, str | None]] = field(default_factory=dict)

    def set_grade(
        self,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        note: str | Keep | None = KEEP,
    ) -> GradeChange:
        key = (query_id, document_id, annotator_id)
        old_grade, old_note = self.rows.get(key, (None, None))
        new_note = old_note if isinstance(note, Keep) else note
        if grade is None:
            self.rows.pop(key, None)
            new_note = None
        else:
            self.rows[key] = (grade, new_note)
        from datetime import UTC, datetime

        return GradeChange(
            "judgment", query_id, document_id, annotator_id, annotator_id,
            old_grade, grade, old_note, new_note, datetime.now(UTC),
        )  # fmt: skip


def test_applying_an_edit_returns_its_inverse_without_qt() -> None:
    writer = FakeWriter()
    first = GradeEdit(annotator_id=1, query_id=2, document_id=3, grade=4)
    change, undo = first.apply(writer)
    assert (change.old_grade, change.new_grade) == (None, 4)
    assert undo == GradeEdit(1, 2, 3, grade=None, note=None)
    _change, redo = undo.apply(writer)
    assert writer.rows == {}
    assert redo.grade == 4
    redo.apply(writer)
    assert writer.rows == {(2, 3, 1): (4, None)}
    # a note edit's inverse restores the old note and keeps the grade
    _c, undo_note = GradeEdit(1, 2, 3, grade=4, note="why").apply(writer)
    assert undo_note == GradeEdit(1, 2, 3, grade=4, note=None)
    undo_note.apply(writer)
    assert writer.rows == {(2, 3, 1): (4, None)}


def test_edits_on_the_real_service_round_trip(ui_data: UiData) -> None:
    service = AnnotationService(ui_data.db)
    q1, d2, alice = ui_data.query["q1"], ui_data.doc["d2"], ui_data.alice.id
    _c, undo = GradeEdit(alice, q1, d2, 1, "first").apply(service)
    _c, undo2 = GradeEdit(alice, q1, d2, 3).apply(service)
    undo2.apply(service)
    with ui_data.db.transaction() as s:
        row = s.execute(
            select(models.judgments).where(models.judgments.c.annotator_id == alice)
        ).one()
    assert (row.grade, row.note) == (1, "first")
    undo.apply(service)
    with ui_data.db.transaction() as s:
        rows = s.execute(
            select(models.judgments).where(models.judgments.c.annotator_id == alice)
        ).all()
    assert rows == []
    assert len(service.history(q1, d2)) == 4  # every apply is recorded, undo included


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


@pytest.mark.parametrize("grade", [5, -1])
def test_an_invalid_grade_edit_raises_before_writing(ui_data: UiData, grade: int) -> None:
    service = AnnotationService(ui_data.db)
    with pytest.raises(ValueError):
        GradeEdit(ui_data.alice.id, ui_data.query["q1"], ui_data.doc["d1"], grade).apply(service)
