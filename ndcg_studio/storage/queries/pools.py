"""Reads of the annotation screens: each query's depth-``D`` pool, an annotator's progress on it
(see :mod:`ndcg_studio.services.annotation.service` for what a pool is), and where two runs rank
a query's documents (the "what decides A vs B" order of the pool)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Connection, and_, func, literal, select

from ndcg_studio.storage import models

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def _pool_subquery(pool_depth: int, query_id: int | None = None) -> Any:
    r = models.results
    stmt = select(r.c.query_id, r.c.document_id).where(r.c.position <= pool_depth)
    if query_id is not None:
        stmt = stmt.where(r.c.query_id == query_id)
    return stmt.group_by(r.c.query_id, r.c.document_id).subquery("pool")


def _judged_in_pool(annotator_id: int, pool_depth: int, sqlite: bool) -> Any:
    """Subquery ``judged(query_id, n)``: how many documents of each query's depth-``pool_depth``
    pool ``annotator_id`` has graded (queries with none absent)."""
    r, j, runs = models.results, models.judgments, models.runs
    # SQLite: ``annotator_id + 0`` keeps its planner off the (annotator_id, query_id) index, whose
    # every hit is a look-up of the row for document_id; it scans the unique (query_id,
    # document_id, annotator_id) index instead, which holds all three (bench_gui_scale.py).
    annotator = j.c.annotator_id + 0 if sqlite else j.c.annotator_id
    # ``run_id IN (SELECT id FROM runs)`` lets SQLite probe the results' primary key
    # (query_id, run_id, document_id) once per run instead of scanning the query's results.
    in_pool = (
        select(literal(1))
        .where(
            r.c.query_id == j.c.query_id,
            r.c.run_id.in_(select(runs.c.id)),
            r.c.document_id == j.c.document_id,
            r.c.position <= pool_depth,
        )
        .exists()
    )
    return (
        select(j.c.query_id, func.count().label("n"))
        .where(annotator == annotator_id, in_pool)
        .group_by(j.c.query_id)
        .subquery("judged")
    )


def progress_columns(
    session: Session, annotator_id: int | None, pool_depth: int
) -> tuple[NDArray[np.int64], list[str], list[str], NDArray[np.int64], NDArray[np.int64]]:
    """Every query, by id, with its pool size and how much of it ``annotator_id`` has judged,
    as columns: ``(query ids, external ids, texts, pool sizes, judged)`` (int64 arrays and
    lists of ``str``, all of length n_queries; a NULL text is '').

    The pool size is ``COUNT(DISTINCT document_id)`` of the query's results with ``position <=
    pool_depth`` (0 without); judged counts ``annotator_id``'s judgments of documents in that
    pool (0 for None). One statement, so both come from one snapshot; its 100,000 rows are read
    from the DB-API cursor, not as SQLAlchemy rows (``bench_gui_scale.py``, Annotate).
    """
    q, r = models.queries, models.results
    sizes = (
        select(r.c.query_id, func.count(r.c.document_id.distinct()).label("n"))
        .where(r.c.position <= pool_depth)
        .group_by(r.c.query_id)
        .subquery("sizes")
    )
    columns: list[Any] = [q.c.id, q.c.external_id, q.c.text, func.coalesce(sizes.c.n, 0)]
    stmt = select(*columns).outerjoin(sizes, sizes.c.query_id == q.c.id)
    if annotator_id is not None:
        sqlite = session.get_bind().dialect.name == "sqlite"
        judged = _judged_in_pool(annotator_id, pool_depth, sqlite)
        stmt = stmt.add_columns(func.coalesce(judged.c.n, 0)).outerjoin(
            judged, judged.c.query_id == q.c.id
        )
    rows = _cursor_rows(session, stmt.order_by(q.c.id))
    ids, external, texts = _query_columns(rows)
    n = len(rows)
    sizes_of = np.fromiter((r[3] for r in rows), np.int64, n)
    judged_counts = (
        np.fromiter((r[4] for r in rows), np.int64, n)
        if annotator_id is not None
        else np.zeros(n, np.int64)
    )
    return ids, external, texts, sizes_of, judged_counts


def query_list_columns(session: Session) -> tuple[NDArray[np.int64], list[str], list[str]]:
    """Every query, by id, without its pool: ``(query ids, external ids, texts)`` (an int64
    array and lists of ``str``; a NULL text is ''). One scan of the queries, read from the
    DB-API cursor: what the Annotate list shows while :func:`progress_columns` counts."""
    q = models.queries
    return _query_columns(
        _cursor_rows(session, select(q.c.id, q.c.external_id, q.c.text).order_by(q.c.id))
    )


def _cursor_rows(session: Session, stmt: Any) -> Sequence[Any]:
    """Every row of ``stmt`` as the DB-API cursor gives it (no SQLAlchemy row objects)."""
    result = session.connection().execute(stmt)
    try:
        rows: Sequence[Any] = result.cursor.fetchall()
    finally:
        result.close()
    return rows


def _query_columns(rows: Sequence[Any]) -> tuple[NDArray[np.int64], list[str], list[str]]:
    """The (id, external id, text) that lead each row, as columns (a NULL text is '')."""
    ids = np.fromiter((r[0] for r in rows), np.int64, len(rows))
    return ids, [str(r[1]) for r in rows], [r[2] or "" for r in rows]


def query_external_id(session: Session, query_id: int) -> str | None:
    """The external id of query ``query_id``, None when there is no such query."""
    q = models.queries
    found = session.execute(select(q.c.external_id).where(q.c.id == query_id)).scalar_one_or_none()
    return None if found is None else str(found)


def pool_rows(
    session: Session, query_id: int, annotator_id: int | None, pool_depth: int
) -> list[Any]:
    """The documents of one query's pool, unordered: rows with ``id``, ``external_id``,
    ``title``, ``text``, ``url`` and ``annotator_id``'s own ``grade`` and ``note`` (None when
    ungraded or no annotator)."""
    d, j = models.documents, models.judgments
    pool = _pool_subquery(pool_depth, query_id)
    join_on = and_(
        j.c.query_id == query_id,
        j.c.document_id == d.c.id,
        j.c.annotator_id == (annotator_id if annotator_id is not None else -1),
    )
    stmt = select(
        d.c.id, d.c.external_id, d.c.title, d.c.text, d.c.url, j.c.grade, j.c.note
    ).select_from(pool.join(d, d.c.id == pool.c.document_id).outerjoin(j, join_on))
    return list(session.execute(stmt).all())


def positions_within(
    conn: Connection, query: int, run_names: tuple[str, str], k: int
) -> list[tuple[str, int, int]]:
    """(run name, document id, position) of the results of the two named runs for one query
    whose position (trec_eval order, ``results.position``) is <= ``k``; unknown runs give
    nothing."""
    r, runs = models.results, models.runs
    stmt = (
        select(runs.c.name, r.c.document_id, r.c.position)
        .join(runs, runs.c.id == r.c.run_id)
        .where(r.c.query_id == query, runs.c.name.in_(list(run_names)), r.c.position <= k)
    )
    return [(str(n), int(d), int(p)) for n, d, p in conn.execute(stmt)]
