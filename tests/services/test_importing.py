"""Import service details not covered through the CLI tests: what the bulk paths store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from ndcg_studio.services.importing import ImportService
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
    from ndcg_studio.storage.bulk import bulk_insert

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
    from ndcg_studio.services.importing import _document_ids
    from ndcg_studio.storage.bulk import bulk_transaction, id_map

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
