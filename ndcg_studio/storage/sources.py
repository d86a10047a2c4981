"""Judgment sources (human, vendor, model) and their annotators: the reads and the one write.

The SQL of :mod:`ndcg_studio.services.stability.service` lives here, so the service imports neither
SQLAlchemy nor the models. Every function works on the caller's ``Connection`` (and, for the
write, inside the caller's transaction).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, delete, select

from ndcg_studio.storage import models
from ndcg_studio.storage.queries.names import annotator_names

__all__ = [
    "SOURCE_KINDS",
    "assign_source",
    "has_human_grades",
    "source_of",
    "sources",
]

#: the kinds a source may have
SOURCE_KINDS = models.SOURCE_KINDS


def sources(conn: Connection) -> list[tuple[str, str, tuple[str, ...]]]:
    """``(name, kind, annotator names ascending)`` of every source, by name."""
    s, m, a = models.sources, models.annotator_sources, models.annotators
    rows = conn.execute(select(s.c.id, s.c.name, s.c.kind).order_by(s.c.name)).all()
    members = conn.execute(
        select(m.c.source_id, a.c.name).join(a, a.c.id == m.c.annotator_id)
    ).all()
    names: dict[int, list[str]] = {}
    for sid, name in members:
        names.setdefault(int(sid), []).append(str(name))
    return [(str(r.name), str(r.kind), tuple(sorted(names.get(int(r.id), [])))) for r in rows]


def source_of(conn: Connection) -> dict[str, tuple[str, str]]:
    """``{annotator name: (source name, kind)}`` for the annotators that belong to a source."""
    s, m, a = models.sources, models.annotator_sources, models.annotators
    rows = conn.execute(
        select(a.c.name, s.c.name, s.c.kind)
        .join(m, m.c.annotator_id == a.c.id)
        .join(s, s.c.id == m.c.source_id)
    ).all()
    return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}


def has_human_grades(conn: Connection) -> bool:
    """Whether a judgment comes from a human: an annotator in no source or in one of kind
    ``human``."""
    s, m, j = models.sources, models.annotator_sources, models.judgments
    machines = select(m.c.annotator_id).join(s, s.c.id == m.c.source_id).where(s.c.kind != "human")
    stmt = select(j.c.annotator_id).where(j.c.annotator_id.not_in(machines)).limit(1)
    return conn.execute(stmt).first() is not None


def assign_source(conn: Connection, annotators: Sequence[str], source: str, kind: str) -> None:
    """Put ``annotators`` into ``source`` (created with ``kind`` if missing; an existing source
    whose kind differs takes ``kind``), taking them out of any other source.

    Raises:
        ValueError: a kind not in :data:`SOURCE_KINDS`.
        LookupError: an unknown annotator (nothing is written).
    """
    if kind not in SOURCE_KINDS:
        raise ValueError(f"source kind must be one of {', '.join(SOURCE_KINDS)}")
    s, m = models.sources, models.annotator_sources
    by_name = {v: k for k, v in annotator_names(conn).items()}
    missing = [a for a in annotators if a not in by_name]
    if missing:
        raise LookupError(f"unknown annotator {', '.join(map(repr, missing))}")
    row = conn.execute(select(s.c.id, s.c.kind).where(s.c.name == source)).first()
    if row is None:
        sid = conn.execute(s.insert().values(name=source, kind=kind).returning(s.c.id)).scalar_one()
    else:
        sid = row.id
        if row.kind != kind:
            conn.execute(s.update().where(s.c.id == sid).values(kind=kind))
    ids = [by_name[a] for a in annotators]
    if ids:
        conn.execute(delete(m).where(m.c.annotator_id.in_(ids)))
        conn.execute(m.insert(), [{"annotator_id": i, "source_id": sid} for i in ids])
