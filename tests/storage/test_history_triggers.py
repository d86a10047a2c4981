"""One history rule on both databases (issues #14.4, #15): the database's triggers record every
created, changed or cleared grade or note — by the app, an import or plain SQL — and nothing for
a write that changes nothing; write ids reach the history once."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select, text

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database

Row = tuple[str, int | None, int | None, int | None, str | None, str | None, int | None]


def _history(db: Database) -> list[Row]:
    h = models.judgment_history
    cols = (h.c.kind, h.c.annotator_id, h.c.old_grade, h.c.new_grade, h.c.new_note)
    with db.engine.connect() as conn:
        rows = conn.execute(select(*cols, h.c.write_id, h.c.changed_by).order_by(h.c.id))
        return [(k, a, o, n, note, w and "id", by) for k, a, o, n, note, w, by in rows]


def _catalogue(db: Database) -> None:
    with db.engine.begin() as conn:
        conn.execute(text("INSERT INTO queries (id, external_id, text) VALUES (1, 'q1', '')"))
        for i in (1, 2):
            conn.execute(text(
                "INSERT INTO documents (id, external_id, title, text, url) "
                f"VALUES ({i}, 'd{i}', '', '', '')"))  # fmt: skip


def test_plain_sql_is_recorded_like_the_app(db: Database) -> None:
    _catalogue(db)
    app = AnnotationService(db)
    ann = app.ensure_annotator("ann").id
    app.set_grade(ann, 1, 1, 2)
    app.set_grade(ann, 1, 1, 2)  # no change: nothing recorded
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE judgments SET updated_at = updated_at"))  # no change either
        conn.execute(text("UPDATE judgments SET note = 'sql'"))
        conn.execute(text("DELETE FROM judgments"))  # its write id is already in the history
        conn.execute(text(
            "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
            f"VALUES (1, 2, {ann}, 3)"))  # fmt: skip
    app.set_grade(ann, 1, 2, None)
    assert _history(db) == [
        ("judgment", ann, None, 2, None, "id", ann),
        ("judgment", ann, 2, 2, "sql", None, ann),
        ("judgment", ann, 2, None, None, None, ann),
        ("judgment", ann, None, 3, None, None, ann),
        ("judgment", ann, 3, None, None, "id", ann),
    ]


def test_imports_record_created_and_changed_grades_once(db: Database, tmp_path: Path) -> None:
    _catalogue(db)
    csv = tmp_path / "j.csv"
    csv.write_text("query_id,doc_id,annotator,grade\nq1,d1,ann,1\nq1,d2,ann,2\n")
    importer = ImportService(db)
    importer.import_judgments(csv)
    importer.import_judgments(csv)  # the same file again: nothing changes, nothing recorded
    csv.write_text("query_id,doc_id,annotator,grade,note\nq1,d1,ann,4,sure\nq1,d2,ann,2,\n")
    importer.import_judgments(csv)
    ann = AnnotationService(db).ensure_annotator("ann").id
    assert _history(db) == [
        ("judgment", ann, None, 1, None, None, ann),
        ("judgment", ann, None, 2, None, None, ann),
        ("judgment", ann, 1, 4, "sure", None, ann),
    ]


def test_adjudications_record_who_decided(db: Database) -> None:
    _catalogue(db)
    app = AnnotationService(db)
    lead, other = app.ensure_annotator("lead").id, app.ensure_annotator("other").id
    app.set_adjudication(1, 1, 3, by=lead)
    app.set_adjudication(1, 1, 1, by=other, note="on reflection")
    app.set_adjudication(1, 1, None, by=lead)  # cleared by the first lead
    assert _history(db) == [
        ("adjudication", None, None, 3, None, "id", lead),
        ("adjudication", None, 3, 1, "on reflection", "id", other),
        ("adjudication", None, 1, None, None, "id", lead),
    ]


def _history_by_name(db: Database) -> list[tuple[str, str, str, int | None, int | None, bool]]:
    h, q, d, a = models.judgment_history, models.queries, models.documents, models.annotators
    stmt = (
        select(q.c.external_id, d.c.external_id, a.c.name, h.c.old_grade, h.c.new_grade)
        .add_columns((h.c.changed_by == h.c.annotator_id) & h.c.write_id.is_(None))
        .select_from(h.join(q, q.c.id == h.c.query_id).join(d, d.c.id == h.c.document_id))
        .join(a, a.c.id == h.c.annotator_id)
        .where(h.c.kind == "judgment")
    )
    with db.engine.connect() as conn:
        rows = [
            (str(x), str(y), str(z), o, n, bool(ok)) for x, y, z, o, n, ok in conn.execute(stmt)
        ]
    return sorted(rows, key=_item_order)


def _item_order(row: tuple[str, str, str, int | None, int | None, bool]) -> tuple[object, ...]:
    return (*row[:3], -9 if row[3] is None else row[3], row[4])


def test_bulk_imports_record_one_history_row_per_created_and_changed_judgment(
    db: Database, tmp_path: Path
) -> None:
    """A qrels import large enough for the bulk paths (SQLite's packed insert from 5,000 rows,
    PostgreSQL's binary COPY): one history row per created judgment, then, re-imported with
    some grades changed and some lines added, one per changed or created judgment and none for
    the unchanged — the rule of the app's writes (test_plain_sql_is_recorded_like_the_app)."""
    first = {(f"q{i % 7}", f"d{i}"): i % 5 for i in range(6_000)}
    second = {key: (g + 1) % 5 if i % 3 == 0 else g for i, (key, g) in enumerate(first.items())}
    second |= {(f"q{i % 7}", f"d{i}"): i % 4 for i in range(6_000, 6_500)}
    qrels = tmp_path / "qrels.txt"
    importer = ImportService(db)
    expected = []
    for grades, before in ((first, {}), (second, first)):
        qrels.write_text("".join(f"{q} 0 {d} {g}\n" for (q, d), g in grades.items()))
        importer.import_qrels(qrels, annotator="bulk")
        expected += [
            (q, d, "bulk", before.get((q, d)), g, True)
            for (q, d), g in grades.items()
            if before.get((q, d)) != g
        ]
    assert len(expected) == 6_000 + 2_000 + 500
    assert _history_by_name(db) == sorted(expected, key=_item_order)
