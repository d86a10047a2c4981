"""Reads of who did what: table counts, the change marker that notices other people's work, each
annotator's progress and the recorded history of one item."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from ndcg_studio.storage import models

if TYPE_CHECKING:
    from sqlalchemy import Connection
    from sqlalchemy.orm import Session


def table_counts(session: Session) -> tuple[int, int, int, int, int]:
    """Row counts of queries, documents, runs, annotators and judgments (one statement)."""
    tables = (models.queries, models.documents, models.runs, models.annotators, models.judgments)
    stmt = select(*(select(func.count()).select_from(t).scalar_subquery() for t in tables))
    q, d, r, a, j = (int(v) for v in session.execute(stmt).one())
    return q, d, r, a, j


def change_marker(conn: Connection) -> tuple[int, int, int, int]:
    """The highest id of judgments, history, adjudications and runs (0 for an empty table):
    four index look-ups."""
    tables = (models.judgments, models.judgment_history, models.adjudications, models.runs)
    stmt = select(*(select(func.coalesce(func.max(t.c.id), 0)).scalar_subquery() for t in tables))
    j, h, a, r = (int(v) for v in conn.execute(stmt).one())
    return j, h, a, r


def changed_by_others(
    conn: Connection, judgment: int, history: int, run: int, annotator_id: int | None
) -> bool:
    """Whether a judgment, history row or run beyond those ids was written by anyone but
    ``annotator_id`` (by anyone when None)."""
    j, h = models.judgments, models.judgment_history
    judgments = select(func.count()).where(j.c.id > judgment)
    changes = select(func.count()).where(h.c.id > history)
    if annotator_id is not None:
        judgments = judgments.where(j.c.annotator_id != annotator_id)
        changes = changes.where(func.coalesce(h.c.changed_by, -1) != annotator_id)
    runs = select(func.count()).where(models.runs.c.id > run)
    stmt = select(judgments.scalar_subquery(), changes.scalar_subquery(), runs.scalar_subquery())
    return any(int(v) for v in conn.execute(stmt).one())


def team_progress(conn: Connection) -> list[tuple[str, int, datetime | None]]:
    """``(name, judgments held, time of the last judgment change or None)`` of every annotator,
    unordered; the time as stored (see :func:`~ndcg_studio.storage.judgments.as_utc`)."""
    a, j, h = models.annotators, models.judgments, models.judgment_history
    judged = select(j.c.annotator_id, func.count().label("n")).group_by(j.c.annotator_id).subquery()
    last = (
        select(h.c.changed_by, func.max(h.c.changed_at).label("at"))
        .where(h.c.kind == "judgment")
        .group_by(h.c.changed_by)
        .subquery()
    )
    stmt = (
        select(a.c.name, func.coalesce(judged.c.n, 0), last.c.at)
        .select_from(a)
        .outerjoin(judged, judged.c.annotator_id == a.c.id)
        .outerjoin(last, last.c.changed_by == a.c.id)
    )
    with _small_scan(conn):
        return [(str(n), int(c), at) for n, c, at in conn.execute(stmt)]


@contextmanager
def _small_scan(conn: Connection) -> Iterator[None]:
    """SQLite: a one-off scan with SQLite's default 2 MiB page cache and its GROUP BY sorter
    on a temporary file, the connection's settings restored after. The history's GROUP BY sorts
    every judgment change: with the connection's 64 MiB cache and in-memory temp store it added
    ~125 MB to the desktop app's peak RSS at every team poll, beside the tab's own load (and was
    slower; ``bench_gui_scale.py``, Review). Other databases: nothing changes."""
    if conn.dialect.name != "sqlite":
        yield
        return
    cache = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    store = conn.exec_driver_sql("PRAGMA temp_store").scalar()
    conn.exec_driver_sql("PRAGMA cache_size=-2000")
    conn.exec_driver_sql("PRAGMA temp_store=FILE")
    try:
        yield
    finally:
        conn.exec_driver_sql(f"PRAGMA temp_store={int(store or 0)}")
        conn.exec_driver_sql(f"PRAGMA cache_size={int(cache or -2000)}")


def item_history(session: Session, query_id: int, document_id: int) -> list[Any]:
    """Every ``judgment_history`` row of one (query, document), oldest first (rows with the
    table's columns)."""
    h = models.judgment_history
    stmt = (
        select(h).where(h.c.query_id == query_id, h.c.document_id == document_id).order_by(h.c.id)
    )
    return list(session.execute(stmt).all())


def annotator_names(session: Session) -> list[tuple[int, str]]:
    """``(id, name)`` of every annotator, by name."""
    t = models.annotators
    return [
        (int(i), str(n)) for i, n in session.execute(select(t.c.id, t.c.name).order_by(t.c.name))
    ]
