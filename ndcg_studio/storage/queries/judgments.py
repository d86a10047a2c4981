"""Judgments as the agreement statistics and the exports read them, and adjudications.

- :func:`all_grades` — every judgment as ids and a grade (numpy), for agreement;
- :func:`adjudicated_grades` — the lead's final grades by item;
- :func:`judgment_rows` — every judgment with its names, note, time and source, for the
  judgments export (timestamps as timezone-aware UTC ``datetime``, whatever the dialect).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from numpy.typing import NDArray
from sqlalchemy import Connection, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import fetch_array

__all__ = ["GRADE_DTYPE", "JudgmentRows", "adjudicated_grades", "all_grades", "judgment_rows"]

#: :func:`all_grades`: database ids and the grade (float64, -1 .. 4).
GRADE_DTYPE = [("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "f8")]


def all_grades(conn: Connection) -> NDArray[Any]:
    """Every judgment as :data:`GRADE_DTYPE`, in no particular order."""
    j = models.judgments
    stmt = select(j.c.query_id, j.c.document_id, j.c.annotator_id, j.c.grade)
    return fetch_array(conn, stmt, GRADE_DTYPE)


def adjudicated_grades(conn: Connection) -> dict[tuple[int, int], int]:
    """``{(query id, document id): adjudicated grade}`` of every adjudicated item."""
    a = models.adjudications
    stmt = select(a.c.query_id, a.c.document_id, a.c.grade)
    return {(int(q), int(d)): int(g) for q, d, g in conn.execute(stmt)}


@dataclass(frozen=True, eq=False)
class JudgmentRows:
    """Every judgment, column by column (all of one length, ordered by query external id,
    document external id, annotator name): ``query`` / ``doc`` external ids, ``annotator``
    name, ``grade`` int, ``note`` (None for none), ``updated_at`` (UTC ``datetime``, None if
    unset), ``source`` / ``source_kind`` (None for an annotator of no source)."""

    query: list[str]
    doc: list[str]
    annotator: list[str]
    grade: list[int]
    note: list[str | None]
    updated_at: list[Any]
    source: list[str | None]
    source_kind: list[str | None]


def judgment_rows(conn: Connection) -> JudgmentRows:
    """Every judgment with its names (see :class:`JudgmentRows`).

    Rows are read as the driver's own tuples: no Row object and no timestamp parsed per row.
    Imports give all their rows one timestamp, so each distinct value is converted once.
    """
    j, q, d, a = models.judgments, models.queries, models.documents, models.annotators
    src, member = models.sources, models.annotator_sources
    stmt = (
        select(
            q.c.external_id,
            d.c.external_id,
            a.c.name,
            j.c.grade,
            j.c.note,
            j.c.updated_at,
            src.c.name,
            src.c.kind,
        )
        .select_from(j.join(q, q.c.id == j.c.query_id).join(d, d.c.id == j.c.document_id))
        .join(a, a.c.id == j.c.annotator_id)
        .outerjoin(member, member.c.annotator_id == a.c.id)
        .outerjoin(src, src.c.id == member.c.source_id)
        .order_by(q.c.external_id, d.c.external_id, a.c.name)
    )
    result = conn.execute(stmt)
    try:
        data = result.cursor.fetchall()
    finally:
        result.close()
    parse = j.c.updated_at.type.dialect_impl(conn.dialect).result_processor(conn.dialect, None)
    stamps: dict[Any, datetime | None] = {}
    for raw in {r[5] for r in data}:
        stamps[raw] = _utc(parse(raw) if parse is not None and raw is not None else raw)
    columns = list(zip(*data, strict=True)) if data else [()] * 8
    return JudgmentRows(
        query=list(columns[0]),
        doc=list(columns[1]),
        annotator=list(columns[2]),
        grade=[int(g) for g in columns[3]],
        note=list(columns[4]),
        updated_at=[stamps[raw] for raw in columns[5]],
        source=list(columns[6]),
        source_kind=list(columns[7]),
    )


def _utc(value: Any) -> Any:
    """A stored timestamp as an aware UTC datetime (naive ones are UTC); other values as
    they are (None; a text the driver left unparsed)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
    return value
