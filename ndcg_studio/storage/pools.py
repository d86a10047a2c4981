"""Reads of the annotation screens: each query's depth-``D`` pool and an annotator's progress on
it (see :mod:`ndcg_studio.services.annotation` for what a pool is)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, literal, select

from ndcg_studio.storage import models

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def _pool_subquery(pool_depth: int, query_id: int | None = None) -> Any:
    r = models.results
    stmt = select(r.c.query_id, r.c.document_id).where(r.c.position <= pool_depth)
    if query_id is not None:
        stmt = stmt.where(r.c.query_id == query_id)
    return stmt.group_by(r.c.query_id, r.c.document_id).subquery("pool")


def pool_sizes(session: Session, pool_depth: int) -> list[tuple[int, str, str, int]]:
    """``(query id, external id, text, pool size)`` of every query, by id: the pool size is
    ``COUNT(DISTINCT document_id)`` of its results with ``position <= pool_depth`` (0 without)."""
    q, r = models.queries, models.results
    sizes = (
        select(r.c.query_id, func.count(r.c.document_id.distinct()).label("n"))
        .where(r.c.position <= pool_depth)
        .group_by(r.c.query_id)
        .subquery("sizes")
    )
    stmt = (
        select(q.c.id, q.c.external_id, q.c.text, func.coalesce(sizes.c.n, 0))
        .outerjoin(sizes, sizes.c.query_id == q.c.id)
        .order_by(q.c.id)
    )
    return [(int(i), str(e), t or "", int(n)) for i, e, t, n in session.execute(stmt)]


def judged_in_pool(session: Session, annotator_id: int, pool_depth: int) -> dict[int, int]:
    """``{query id: n}``: how many documents of each query's depth-``pool_depth`` pool
    ``annotator_id`` has graded (queries with none are absent)."""
    r, j, runs = models.results, models.judgments, models.runs
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
    stmt = (
        select(j.c.query_id, func.count())
        .where(j.c.annotator_id == annotator_id, in_pool)
        .group_by(j.c.query_id)
    )
    return {int(qid): int(n) for qid, n in session.execute(stmt)}


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
