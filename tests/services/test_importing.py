"""Import service details not covered through the CLI tests: what the bulk paths store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.storage import models


def test_imported_judgments_carry_the_import_time(db: Any, tmp_path: Path) -> None:
    """Judgments created by a qrels import get one creation/update time (UTC, now), readable as
    datetimes like those the database's own default writes; notes stay empty."""
    qrels = tmp_path / "alice.txt"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\nq2 0 d1 4\n")
    before = datetime.now(UTC) - timedelta(seconds=2)
    ImportService(db).import_qrels(qrels)
    after = datetime.now(UTC) + timedelta(seconds=2)
    j = models.judgments
    with db.engine.connect() as conn:
        rows = conn.execute(select(j.c.created_at, j.c.updated_at, j.c.note)).all()
    assert len(rows) == 3
    assert len({(r.created_at, r.updated_at) for r in rows}) == 1
    stamp = rows[0].created_at
    stamp = stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)  # SQLite keeps naive UTC
    assert before <= stamp <= after
    assert all(r.note is None for r in rows)


def test_bulk_insert_constants_are_literals_safely_quoted(db: Any) -> None:
    """A constant with a quote reaches every row intact (rendered as an SQL literal on SQLite)."""
    from ndcg_studio.storage.bulk.columns import bulk_insert

    q = models.queries
    with db.engine.begin() as conn:
        n = bulk_insert(
            conn, q, ["external_id"], [("a",), ("b",)], constants={"text": "it's; DROP --"}
        )
        texts = conn.execute(select(q.c.text).order_by(q.c.external_id)).scalars().all()
    assert n == 2 and texts == ["it's; DROP --", "it's; DROP --"]


def test_run_lines_get_their_documents_ids_creating_new_ones_once(db: Any) -> None:
    """Each line's document id: known documents looked up, new ones created once each even when
    several lines name them, into an empty table or one holding some of them."""
    from ndcg_studio.storage.bulk.columns import bulk_transaction, id_map
    from ndcg_studio.storage.bulk.imports import document_ids as _document_ids

    with bulk_transaction(db.engine) as conn:
        first, created = _document_ids(conn, ["a", "b", "a"])
        assert created == 2 and first[0] == first[2] != first[1]
        lines = ["c", "a", "c", "d", "b", "a"]
        ids, created = _document_ids(conn, lines)
        names = id_map(conn, models.documents)
    assert created == 2
    assert [names[int(i)] for i in ids] == lines
    assert ids[1] == first[0] and ids[4] == first[1]


def test_run_import_into_an_in_memory_database(tmp_path: Path) -> None:
    """SQLite in memory cannot be shared with the helper thread that looks documents up (each
    thread gets its own database there): the import still works, in one thread."""
    from ndcg_studio.storage.database import open_database

    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 0.5 r\n")
    db = open_database("sqlite://")
    try:
        summary = ImportService(db).import_run(run)
        with db.engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(models.results)).scalar_one()
    finally:
        db.dispose()
    assert n == 3 and summary.counts["documents created"] == 2


def _count(db: Any, table: Any) -> int:
    with db.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


@pytest.mark.parametrize("known_documents", [False, True])
@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        ("run", "q{q} Q0 d{d} {r} {s} r\n", "q9 Q0 d9 1 nan r\n"),
        ("qrels", "q{q} 0 d{d} {g}\n", "q9 0 d9 7\n"),
    ],
)
def test_a_file_refused_after_its_documents_were_created_leaves_nothing(
    db: Any, tmp_path: Path, kind: str, good: str, bad: str, known_documents: bool
) -> None:
    """The documents are created in a helper thread before the values are checked; a bad last
    line still leaves the database as it was (same transaction, rolled back)."""
    if known_documents:
        (tmp_path / "first.qrels").write_text("q0 0 d0 1\nq0 0 d5 2\n")
        ImportService(db).import_qrels(tmp_path / "first.qrels")
    before = _count(db, models.documents)
    path = tmp_path / f"file.{kind}"
    lines = [
        good.format(q=i // 100, d=i * 7 % 9_000, r=i % 100 + 1, s=1.0 / (i + 1), g=i % 5)
        for i in range(6_000)
    ]
    path.write_text("".join(lines) + bad)
    with pytest.raises(InputFileError, match=f"file.{kind}:6001"):
        ImportService(db).import_file(kind, path)
    assert _count(db, models.documents) == before
    assert _count(db, models.results) == 0
    assert _count(db, models.judgments) == (2 if known_documents else 0)


def test_cancel_while_documents_are_created_leaves_nothing(
    db: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancel after the helper has started: the import stops, waits for the helper, and the
    transaction rolls back."""
    from ndcg_studio.progress import OperationCancelled
    from ndcg_studio.storage.bulk.imports import DocumentsMeanwhile

    started: list[bool] = []
    original = DocumentsMeanwhile.start

    def start(self: Any, doc_id: Any) -> None:
        original(self, doc_id)
        started.append(True)

    monkeypatch.setattr(DocumentsMeanwhile, "start", start)
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q{i // 50} Q0 d{i} {i % 50 + 1} {-i} r\n" for i in range(20_000)))
    with pytest.raises(OperationCancelled):
        ImportService(db).import_run(path, cancelled=lambda: bool(started))
    assert started
    assert _count(db, models.documents) == 0 and _count(db, models.queries) == 0


@pytest.mark.parametrize("lines", [1, 30_000])
def test_first_import_numbers_documents_in_key_order(db: Any, tmp_path: Path, lines: int) -> None:
    """Into an empty database each result names its own document, and the documents get ids
    1, 2, … in order of their external ids (created once, sorted: on SQLite after the whole
    file is read, StagedIds; on PostgreSQL a piece at a time, here one piece)."""
    path = tmp_path / "run.txt"
    rows = [(f"q{i % 97}", f"doc-{(i * 7919) % (lines // 2 + 1)}") for i in range(lines)]
    rows = list(dict.fromkeys(rows))
    path.write_text("".join(f"{q} Q0 {d} {k + 1} {k}.5 r\n" for k, (q, d) in enumerate(rows)))
    summary = ImportService(db).import_run(path)
    with db.engine.connect() as conn:
        stored = {
            (q, d)
            for q, d in conn.execute(
                select(models.queries.c.external_id, models.documents.c.external_id)
                .select_from(models.results)
                .join(models.queries, models.queries.c.id == models.results.c.query_id)
                .join(models.documents, models.documents.c.id == models.results.c.document_id)
            )
        }
        doc_ids = dict(
            conn.execute(select(models.documents.c.external_id, models.documents.c.id)).all()
        )
    assert stored == set(rows)
    first_seen = list(dict.fromkeys(d for _, d in rows))
    assert summary.counts["documents created"] == len(first_seen)
    assert [doc_ids[d] for d in sorted(first_seen)] == list(range(1, len(first_seen) + 1))


@pytest.mark.parametrize("with_note", [False, True])
def test_judgments_csv_with_and_without_notes(db: Any, tmp_path: Path, with_note: bool) -> None:
    """A judgments CSV whose notes are all empty takes the packed integer path; one note
    among them the row path — both store every grade, and the note where there is one."""
    path = tmp_path / "j.csv"
    lines = [f"q{i % 50},d{i},ann{i % 3},{i % 5}," for i in range(6_000)]
    if with_note:
        lines[4_321] += "see =1+1"
    path.write_text("query_id,doc_id,annotator,grade,note\n" + "\n".join(lines) + "\n")
    ImportService(db).import_judgments(path)
    j = models.judgments
    with db.engine.connect() as conn:
        grades = conn.execute(select(func.sum(j.c.grade), func.count())).one()
        notes = conn.execute(select(j.c.note).where(j.c.note.is_not(None))).scalars().all()
    assert tuple(grades) == (sum(i % 5 for i in range(6_000)), 6_000)
    assert notes == (["see =1+1"] if with_note else [])


def test_documents_import_reports_progress_per_slice_and_cancel_rolls_back(
    db: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Documents are upserted a slice at a time: progress moves past 50 % during the write,
    and a cancel between slices leaves no document behind."""
    from ndcg_studio.progress import OperationCancelled
    from ndcg_studio.services.importing import service as importing

    monkeypatch.setattr(importing, "_UPSERT_SLICE", 1_000)
    path = tmp_path / "docs.csv"
    path.write_text("doc_id,title\n" + "".join(f"d{i},title {i}\n" for i in range(3_500)))
    seen: list[int] = []
    summary = ImportService(db).import_documents(path, progress=lambda d, t: seen.append(d))
    assert summary.counts["documents created"] == 3_500
    assert [p for p in seen if p > 50] == [64, 78, 92, 99]
    path.write_text("doc_id,title\n" + "".join(f"e{i},title {i}\n" for i in range(3_500)))
    with pytest.raises(OperationCancelled):
        ImportService(db).import_documents(
            path, progress=lambda d, t: seen.append(d), cancelled=lambda: seen[-1] > 60
        )
    assert _count(db, models.documents) == 3_500


def test_run_import_reports_progress_while_its_results_are_written_and_cancel_rolls_back(
    db: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run's results go in slices (SQLite) or in one COPY sent a block at a time
    (PostgreSQL): either way progress moves through 70–99 % while they are written, and a
    cancel there leaves neither the run nor its results behind."""
    from ndcg_studio.progress import OperationCancelled
    from ndcg_studio.storage.bulk import imports, pg_copy

    monkeypatch.setattr(imports, "INSERT_SLICE", 1_000)
    monkeypatch.setattr(pg_copy, "_BINARY_ROWS", 1_000)
    path = tmp_path / "a.run"
    path.write_text(
        "".join(f"q{i // 10} Q0 d{i} {i % 10 + 1} {10 - i % 10} a\n" for i in range(3_500))
    )
    seen: list[int] = []
    ImportService(db).import_run(path, progress=lambda d, t: seen.append(d))
    assert len({p for p in seen if 70 < p < 99}) >= 3, seen
    results = _count(db, models.results)
    seen.clear()
    with pytest.raises(OperationCancelled):
        ImportService(db).import_run(
            path,
            name="b",
            progress=lambda d, t: seen.append(d),
            cancelled=lambda: bool(seen) and seen[-1] > 80,
        )
    assert _count(db, models.results) == results
    assert _count(db, models.runs) == 1


def test_judgments_export_gives_iso_utc_times_for_imported_and_app_grades(
    db: Any, tmp_path: Path
) -> None:
    """The long judgments export (read column by column, each distinct timestamp converted
    once) writes every row with an ISO UTC time: imported grades and grades set in the app."""
    import csv

    from ndcg_studio.services.annotation.service import AnnotationService
    from ndcg_studio.services.exporting.service import ExportRequest, ExportService

    (tmp_path / "a.qrels").write_text("q1 0 d1 2\nq1 0 =d2 1\nq2 0 d1 0\n")
    ImportService(db).import_qrels(tmp_path / "a.qrels", annotator="imp")
    service = AnnotationService(db)
    bob = service.ensure_annotator("bob")
    with db.engine.connect() as conn:
        q1 = conn.execute(select(models.queries.c.id).where(models.queries.c.external_id == "q1"))
        d1 = conn.execute(
            select(models.documents.c.id).where(models.documents.c.external_id == "d1")
        )
        qid, did = int(q1.scalar_one()), int(d1.scalar_one())
    service.set_grade(bob.id, qid, did, 4)
    service.set_note(bob.id, qid, did, "-looks fine")
    out = tmp_path / "j.csv"
    assert ExportService(db).write(ExportRequest("judgments", out)) == 4
    rows = list(csv.reader(line for line in out.open() if not line.startswith("#")))
    assert rows[0] == [
        "query_id", "doc_id", "annotator", "grade", "note", "updated_at", "source", "source_kind",
    ]  # fmt: skip
    body = sorted(rows[1:])
    assert [r[:5] for r in body] == [
        ["q1", "'=d2", "imp", "1", ""],
        ["q1", "d1", "bob", "4", "'-looks fine"],
        ["q1", "d1", "imp", "2", ""],
        ["q2", "d1", "imp", "0", ""],
    ]
    for r in body:
        stamp = datetime.strptime(r[5], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        assert abs(datetime.now(UTC) - stamp) < timedelta(minutes=5)


def test_summary_counts_one_in_the_singular(tmp_path: Path) -> None:
    from ndcg_studio.services.importing.steps import ImportSummary

    summary = ImportSummary(kind="qrels", path=str(tmp_path / "q.txt"), rows=1)
    summary.counts = {"judgments created": 1, "queries created": 2, "annotators created": 1}
    assert summary.message(name_only=True) == (
        "q.txt: 1 qrels line imported (1 judgment created, 2 queries created, 1 annotator created)"
    )


@pytest.mark.parametrize("kind", ["run", "qrels"])
def test_the_documents_settle_reports_progress_and_cancel_there_writes_nothing(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """SQLite: after the pieces, the documents' settle (StagedIds) moves the progress from 40
    to 60 as it runs, and Cancel during it stops the import with nothing written — the CLI and
    the GUI's import dialog both pass their progress and Cancel through ImportService."""
    import ndcg_studio.storage.bulk.staged_ids as staged
    from ndcg_studio.progress import OperationCancelled
    from ndcg_studio.storage.database import open_database

    monkeypatch.setattr(staged, "_POLL_STEPS", 20_000)  # the handler polls often on 60k lines
    path = tmp_path / f"file.{kind}"
    line = "q{q} Q0 d{d} {r} {r}.5 r\n" if kind == "run" else "q{q} 0 d{d} {g}\n"
    text = (
        line.format(q=i // 100, d=i * 7919 % 50_021, r=i % 100 + 1, g=i % 5) for i in range(60_000)
    )
    path.write_text("".join(text))
    db = open_database(sqlite_url)
    seen: list[int] = []
    try:
        with pytest.raises(OperationCancelled):
            ImportService(db).import_file(
                kind, path, progress=lambda d, t: seen.append(d), cancelled=lambda: seen[-1:] > [45]
            )
        stopped_at = seen[-1]
        counts = [_count(db, t) for t in (models.documents, models.queries, models.judgments)]
        assert [*counts, _count(db, models.results)] == [0, 0, 0, 0]
        seen.clear()
        summary = ImportService(db).import_file(kind, path, progress=lambda d, t: seen.append(d))
    finally:
        db.dispose()
    assert 45 < stopped_at < 60  # stopped inside the settle
    assert summary.counts["documents created"] == 50_021
    assert seen == sorted(seen) and seen[-1] >= 99
    assert len({d for d in seen if 40 < d < 60}) >= 5
