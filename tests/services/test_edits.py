"""The undoable edits as plain values (services.edits): applying one returns its inverse; no Qt,
no QApplication (the QUndoCommand adapter is tested in tests/ui/test_annotate_undo.py)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from ndcg_studio.services.annotation.edits import AdjudicationEdit, GradeEdit
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judgments.items import KEEP, GradeChange, Keep
from tests.services.test_annotation import build


@dataclass
class FakeWriter:
    """An in-memory set_grade / set_adjudication: key -> (grade, note)."""

    rows: dict[tuple[int, int, int], tuple[int, str | None]] = field(default_factory=dict)
    final: dict[tuple[int, int], tuple[int, str | None]] = field(default_factory=dict)

    def set_grade(
        self,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        note: str | Keep | None = KEEP,
    ) -> GradeChange:
        key = (query_id, document_id, annotator_id)
        return self._set(self.rows, key, "judgment", key, grade, note, annotator_id)

    def set_adjudication(
        self,
        query_id: int,
        document_id: int,
        grade: int | None,
        by: int,
        note: str | Keep | None = KEEP,
    ) -> GradeChange:
        key = (query_id, document_id, by)
        return self._set(self.final, key[:2], "adjudication", key, grade, note, by)

    @staticmethod
    def _set(
        table: dict[Any, Any],
        key: tuple[int, ...],
        kind: Any,
        full: tuple[int, int, int],
        grade: int | None,
        note: str | Keep | None,
        by: int,
    ) -> GradeChange:
        old_grade, old_note = table.get(key, (None, None))
        new_note = old_note if isinstance(note, Keep) else note
        if grade is None:
            table.pop(key, None)
            new_note = None
        else:
            table[key] = (grade, new_note)
        q, d, a = full
        return GradeChange(
            kind,
            q,
            d,
            a,
            by,
            old_grade,
            grade,
            old_note,
            new_note,
            datetime.now(UTC),  # type: ignore[arg-type]
        )


def test_applying_a_grade_edit_returns_its_inverse() -> None:
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


def test_applying_an_adjudication_edit_returns_its_inverse() -> None:
    writer = FakeWriter()
    _c, undo = AdjudicationEdit(2, 3, 1, by=7).apply(writer)
    assert undo == AdjudicationEdit(2, 3, None, by=7, note=None)
    _c, undo2 = AdjudicationEdit(2, 3, 4, by=7, note="clear case").apply(writer)
    assert writer.final == {(2, 3): (4, "clear case")}
    assert undo2 == AdjudicationEdit(2, 3, 1, by=7, note=None)
    _c, redo2 = undo2.apply(writer)
    assert writer.final == {(2, 3): (1, None)}
    assert redo2 == AdjudicationEdit(2, 3, 4, by=7, note="clear case")
    undo.apply(writer)
    assert writer.final == {}


def test_grade_edits_on_the_real_service_round_trip(db: Database) -> None:
    data = build(db)
    service = data.service
    q1, d2 = data.query["q1"], data.doc["d2"]
    alice = service.ensure_annotator("alice").id
    _c, undo = GradeEdit(alice, q1, d2, 1, "first").apply(service)
    _c, undo2 = GradeEdit(alice, q1, d2, 3).apply(service)
    undo2.apply(service)
    with db.transaction() as s:
        row = s.execute(
            select(models.judgments).where(models.judgments.c.annotator_id == alice)
        ).one()
    assert (row.grade, row.note) == (1, "first")
    undo.apply(service)
    with db.transaction() as s:
        rows = s.execute(
            select(models.judgments).where(models.judgments.c.annotator_id == alice)
        ).all()
    assert rows == []
    assert len(service.history(q1, d2)) == 4  # every apply is recorded, undo included


def test_adjudication_edits_on_the_real_service_round_trip(db: Database) -> None:
    data = build(db)
    service = data.service
    q1, d1 = data.query["q1"], data.doc["d1"]
    lead = service.ensure_annotator("lead").id
    _c, undo = AdjudicationEdit(q1, d1, 3, by=lead).apply(service)
    change, undo2 = AdjudicationEdit(q1, d1, 0, by=lead).apply(service)
    assert (change.old_grade, change.new_grade) == (3, 0)
    undo2.apply(service)
    with db.transaction() as s:
        assert s.execute(select(models.adjudications.c.grade)).scalars().all() == [3]
    undo.apply(service)
    with db.transaction() as s:
        assert s.execute(select(models.adjudications)).all() == []


@pytest.mark.parametrize("grade", [5, -1])
def test_an_invalid_grade_edit_raises_before_writing(db: Database, grade: int) -> None:
    data = build(db)
    alice = data.service.ensure_annotator("alice").id
    with pytest.raises(ValueError):
        GradeEdit(alice, data.query["q1"], data.doc["d1"], grade).apply(data.service)
    with db.transaction() as s:
        assert s.execute(select(models.judgments)).all() == []


def test_the_edits_import_no_qt() -> None:
    code = (
        "import sys, ndcg_studio.services.annotation.edits; "
        "assert not [m for m in sys.modules if m.startswith('PySide6')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
