"""Reads of who did what: table counts, the change marker that notices other people's work, each
annotator's progress and the recorded history of one item."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import case, func, select

from ndcg_studio.storage import models

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement, Connection
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


def judgments_held(conn: Connection) -> list[tuple[int, str, int]]:
    """``(id, name, judgments held)`` of every annotator, unordered: one ``GROUP BY`` over the
    judgments' (annotator_id, query_id) index."""
    a, j = models.annotators, models.judgments
    judged = select(j.c.annotator_id, func.count().label("n")).group_by(j.c.annotator_id).subquery()
    stmt = select(a.c.id, a.c.name, func.coalesce(judged.c.n, 0)).outerjoin(
        judged, judged.c.annotator_id == a.c.id
    )
    return [(int(i), str(n), int(c)) for i, n, c in conn.execute(stmt)]


def judgment_changes_after(
    conn: Connection, history_id: int
) -> tuple[dict[int, datetime], int, int, int]:
    """What the judgment history holds after its row ``history_id`` (0: all of it):
    ``(last change by annotator id, highest row id, rows after, rows in all)`` — the time of
    each annotator's last judgment change among those rows (as stored, see
    :func:`~ndcg_studio.storage.judgments.as_utc`), the highest id read (``history_id`` when
    none), how many rows there are after it, and how many in the whole table (a caller that
    kept the previous answer sees from the last two whether rows were deleted since).

    Rows after a known id are found through the primary key: a poll reads what is new, not the
    whole history (``tests/services/test_team.py``)."""
    h = models.judgment_history
    after = h.c.id > history_id
    changed = (after, h.c.kind == "judgment", h.c.changed_by.is_not(None))
    span = select(func.coalesce(func.max(h.c.id), history_id), func.count()).where(after)
    with _small_scan(conn, history_id == 0):
        # a later poll reads a few new rows by id: its GROUP BY sorts next to nothing
        changes = _last_change_by_few(conn, changed) if history_id == 0 else None
        if changes is None:
            last = (
                select(h.c.changed_by, func.max(h.c.changed_at))
                .where(*changed)
                .group_by(h.c.changed_by)
            )
            changes = {int(by): at for by, at in conn.execute(last)}
        top, n_after = conn.execute(span).one()
    n_all = int(conn.execute(select(func.count()).select_from(h)).scalar_one())
    return changes, int(top), int(n_after), n_all


#: :func:`_last_change_by_few` answers for at most this many annotators (one pair of
#: aggregates each); more go through a GROUP BY.
_FEW_ANNOTATORS = 8


def _last_change_by_few(
    conn: Connection, changed: tuple[ColumnElement[bool], ...]
) -> dict[int, datetime] | None:
    """``{annotator id: last changed_at}`` over the history rows matching ``changed``, in one
    pass with a ``max(CASE …)`` per annotator instead of a GROUP BY, whose sort of every
    judgment change is the slow part of the first team poll over a million history rows
    (``bench_gui_scale.py`` Agreement). None (the caller groups instead) when there are more
    than :data:`_FEW_ANNOTATORS` annotators, or when some row was changed by an id that is
    not an annotator's (its count does not add up)."""
    ids = [int(i) for i in conn.execute(select(models.annotators.c.id)).scalars()]
    if len(ids) > _FEW_ANNOTATORS:
        return None
    h = models.judgment_history
    mine = [h.c.changed_by == i for i in ids]
    stmt = select(
        func.count(),
        *(func.count(case((m, 1))) for m in mine),
        *(func.max(case((m, h.c.changed_at))) for m in mine),
    ).where(*changed)
    row: list[Any] = list(conn.execute(stmt).one())
    counts, last = row[1 : len(ids) + 1], row[len(ids) + 1 :]
    if sum(counts) != row[0]:
        return None
    return {i: at for i, n, at in zip(ids, counts, last, strict=True) if n}


@contextmanager
def _small_scan(conn: Connection, whole: bool = True) -> Iterator[None]:
    """SQLite: a one-off scan with SQLite's default 2 MiB page cache and its GROUP BY sorter
    on a temporary file, the connection's settings restored after. The history's GROUP BY sorts
    every judgment change: with the connection's 64 MiB cache and in-memory temp store it added
    ~125 MB to the desktop app's peak RSS at every team poll, beside the tab's own load (and was
    slower; ``bench_gui_scale.py``, Review). ``whole`` False (a few new rows): nothing changes;
    nor on other databases."""
    if conn.dialect.name != "sqlite" or not whole:
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
