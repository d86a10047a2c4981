"""Campaign records: creating, finding, listing and closing campaigns (tables of migrations
0006 and 0007), the campaign lock, and the small look-ups the campaign service needs.

Every function takes the caller's :class:`~sqlalchemy.orm.Session` (one transaction of
:mod:`ndcg_studio.services.campaigns.service`); none commits. The queue's SQL is in
:mod:`ndcg_studio.storage.campaigns.queue`, the dashboard's reads in
:mod:`ndcg_studio.storage.campaigns.reads`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Row, func, select, text, update
from sqlalchemy.orm import Session

from ndcg_studio.storage import models
from ndcg_studio.storage.campaigns.keys import has_row
from ndcg_studio.storage.judgments.counts import item_grades
from ndcg_studio.storage.judgments.items import insert_statement
from ndcg_studio.storage.judgments.locks import item_lock_key

__all__ = ["campaign_counts", "campaign_lock_key", "campaign_row"]


def campaign_lock_key(campaign_id: int) -> int:
    """The signed 64-bit advisory-lock key of one campaign: the key the judgment writer takes
    for a campaign grade (:func:`ndcg_studio.storage.judgments.locks.item_lock_key`), so queue
    reads and campaign grades exclude each other."""
    return item_lock_key("campaign", {"campaign_id": campaign_id})


def take_write_lock(session: Session) -> None:
    """SQLite: take the database's write lock before reading (a no-op write), so a queue read
    and its holds are one serial step; PostgreSQL: nothing (the advisory lock serialises)."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text("UPDATE campaign_leases SET expires_at = expires_at WHERE 1 = 0"))


# ---------------------------------------------------------------------------- creating
def campaign_exists(session: Session, name: str) -> bool:
    c = models.campaigns
    return session.execute(select(c.c.id).where(c.c.name == name)).first() is not None


def run_ids(session: Session, names: Iterable[str]) -> dict[str, int]:
    """``{run name: id}`` of the runs called ``names`` that exist."""
    r = models.runs
    rows = session.execute(select(r.c.name, r.c.id).where(r.c.name.in_(list(names)))).all()
    return {str(n): int(i) for n, i in rows}


def pool_rows(session: Session, runs: Iterable[int], depth: int) -> list[tuple[str, str, int, int]]:
    """The depth-``depth`` pool of ``runs``: distinct (query external id, document external id,
    query id, document id)."""
    r, q, d = models.results, models.queries, models.documents
    rows = session.execute(
        select(q.c.external_id, d.c.external_id, r.c.query_id, r.c.document_id)
        .join(q, q.c.id == r.c.query_id)
        .join(d, d.c.id == r.c.document_id)
        .where(r.c.run_id.in_(list(runs)), r.c.position <= depth)
        .distinct()
    ).all()
    return [(str(qe), str(de), int(qi), int(di)) for qe, de, qi, di in rows]


def item_ids(session: Session, query: str, document: str) -> tuple[int | None, int | None]:
    """The ids of the query and document with these external ids (None when missing)."""
    q, d = models.queries, models.documents
    qi = session.execute(select(q.c.id).where(q.c.external_id == query)).scalar_one_or_none()
    di = session.execute(select(d.c.id).where(d.c.external_id == document)).scalar_one_or_none()
    return qi, di


def ensure_annotators(session: Session, names: Sequence[str]) -> list[int]:
    """The ids of the annotators called ``names``, creating the missing ones (only an owner may
    create annotators in team mode; existing ones are only read)."""
    a = models.annotators
    known = set(session.execute(select(a.c.name).where(a.c.name.in_(names))).scalars())
    if len(known) < len(set(names)):
        rows = [{"name": n, "created_at": models.utcnow()} for n in names if n not in known]
        session.execute(
            insert_statement(session, a)
            .values(rows)
            .on_conflict_do_nothing(index_elements=[a.c.name])
        )
    return [int(i) for i in session.execute(select(a.c.id).where(a.c.name.in_(names))).scalars()]


def insert_campaign(
    session: Session,
    values: Mapping[str, Any],
    runs: Mapping[int, str | None],
    annotators: Sequence[int],
    items: Sequence[Mapping[str, Any]],
) -> int:
    """Insert a campaign row (``values``: its columns but id, status and created_at), its runs
    (``{run id: pair side 'a' / 'b' / None}``), annotators and items; returns its id."""
    c = models.campaigns
    campaign_id = session.execute(
        c.insert().values(**values, status="open", created_at=models.utcnow()).returning(c.c.id)
    ).scalar_one()
    session.execute(
        models.campaign_runs.insert(),
        [{"campaign_id": campaign_id, "run_id": i, "pair_side": s} for i, s in runs.items()],
    )
    session.execute(
        models.campaign_annotators.insert(),
        [{"campaign_id": campaign_id, "annotator_id": i} for i in annotators],
    )
    session.execute(
        models.campaign_items.insert(), [{"campaign_id": campaign_id, **v} for v in items]
    )
    return int(campaign_id)


def insert_campaign_queries(
    session: Session, campaign: int, rows: Sequence[tuple[int, float, bool]]
) -> None:
    """Store the ``ppi`` order's draw: (query id, inclusion probability, sampled) per query."""
    if rows:
        session.execute(
            models.campaign_queries.insert(),
            [
                {"campaign_id": campaign, "query_id": q, "inclusion_probability": p, "sampled": s}
                for q, p, s in rows
            ],
        )


def campaign_queries(session: Session, campaign: int) -> list[tuple[int, str, float, bool]]:
    """The ``ppi`` order's draw, by query id: (query id, external id, inclusion probability,
    sampled); empty for the other orders."""
    cq, q = models.campaign_queries, models.queries
    rows = session.execute(
        select(cq.c.query_id, q.c.external_id, cq.c.inclusion_probability, cq.c.sampled)
        .join(q, q.c.id == cq.c.query_id)
        .where(cq.c.campaign_id == campaign)
        .order_by(cq.c.query_id)
    ).all()
    return [(int(i), str(e), float(p), bool(s)) for i, e, p, s in rows]


def item_grade_counts_of(session: Session, campaign: int) -> list[tuple[int, int, int]]:
    """Every non-gold item of the campaign with its number of grades (any annotator): (query
    id, document id, grades)."""
    ci = models.campaign_items
    rows = session.execute(
        select(ci.c.query_id, ci.c.document_id, item_grades(ci.c.query_id, ci.c.document_id))
        .where(ci.c.campaign_id == campaign, ~ci.c.gold)
        .order_by(ci.c.query_id, ci.c.document_id)
    ).all()
    return [(int(q), int(d), int(n)) for q, d, n in rows]


def item_progress_of(session: Session, campaign: int) -> list[tuple[int, int, bool]]:
    """Every non-gold item of the campaign: (query id, its grades (any annotator), whether a
    human graded it: an annotator in no source or in a source of kind ``human``)."""
    ci, j, m, s = models.campaign_items, models.judgments, models.annotator_sources, models.sources
    machines = select(m.c.annotator_id).join(s, s.c.id == m.c.source_id).where(s.c.kind != "human")
    human = (
        select(j.c.id)
        .where(
            j.c.query_id == ci.c.query_id,
            j.c.document_id == ci.c.document_id,
            j.c.annotator_id.not_in(machines),
        )
        .exists()
    )
    rows = session.execute(
        select(ci.c.query_id, item_grades(ci.c.query_id, ci.c.document_id), human)
        .where(ci.c.campaign_id == campaign, ~ci.c.gold)
        .order_by(ci.c.query_id, ci.c.document_id)
    ).all()
    return [(int(q), int(n), bool(h)) for q, n, h in rows]


# ---------------------------------------------------------------------------- reading
def campaign_row(session: Session, name: str) -> Row[Any]:
    """The ``campaigns`` row called ``name``.

    Raises:
        LookupError: no such campaign.
    """
    c = models.campaigns
    row = session.execute(select(c).where(c.c.name == name)).one_or_none()
    if row is None:
        raise LookupError(f"no campaign called {name!r}")
    return row


def campaign_rows(session: Session) -> list[Row[Any]]:
    """Every ``campaigns`` row, by name."""
    c = models.campaigns
    return list(session.execute(select(c).order_by(c.c.name)).all())


def campaign_id(session: Session, name: str) -> int | None:
    """The id of the campaign called ``name`` (one index look-up), None when missing."""
    c = models.campaigns
    found = session.execute(select(c.c.id).where(c.c.name == name)).scalar_one_or_none()
    return None if found is None else int(found)


def campaign_runs(session: Session, campaign: int) -> list[tuple[str, int, str | None]]:
    """The campaign's runs by name: (name, run id, pair side)."""
    cr, r = models.campaign_runs, models.runs
    rows = session.execute(
        select(r.c.name, r.c.id, cr.c.pair_side)
        .join(cr, cr.c.run_id == r.c.id)
        .where(cr.c.campaign_id == campaign)
        .order_by(r.c.name)
    ).all()
    return [(str(n), int(i), s) for n, i, s in rows]


def campaign_annotators(session: Session, campaign: int) -> list[tuple[int, str]]:
    """The campaign's annotators by name: (id, name)."""
    a, ca = models.annotators, models.campaign_annotators
    rows = session.execute(
        select(a.c.id, a.c.name)
        .join(ca, ca.c.annotator_id == a.c.id)
        .where(ca.c.campaign_id == campaign)
        .order_by(a.c.name)
    ).all()
    return [(int(i), str(n)) for i, n in rows]


def campaign_counts(session: Session, campaign: int, overlap: int) -> tuple[int, int, int]:
    """(non-gold items, gold items, non-gold items with at least ``overlap`` grades)."""
    ci = models.campaign_items
    grades = item_grades(ci.c.query_id, ci.c.document_id)
    counts = session.execute(
        select(
            func.count().filter(~ci.c.gold),
            func.count().filter(ci.c.gold),
            func.count().filter(~ci.c.gold, grades >= overlap),
        ).where(ci.c.campaign_id == campaign)
    ).one()
    return int(counts[0]), int(counts[1]), int(counts[2])


def close_campaign(session: Session, campaign: int) -> None:
    """Mark the campaign closed and release every lease of it."""
    c, le = models.campaigns, models.campaign_leases
    session.execute(
        update(c).where(c.c.id == campaign).values(status="closed", closed_at=models.utcnow())
    )
    session.execute(le.delete().where(le.c.campaign_id == campaign))


def run_names(session: Session) -> list[str]:
    """Every run's name, sorted."""
    return [str(n) for n in session.execute(select(models.runs.c.name).order_by("name")).scalars()]


def open_campaigns_of(session: Session, annotator_id: int) -> list[str]:
    """The names of the open campaigns ``annotator_id`` takes part in, by name."""
    c, ca = models.campaigns, models.campaign_annotators
    names = session.execute(
        select(c.c.name)
        .join(ca, ca.c.campaign_id == c.c.id)
        .where(ca.c.annotator_id == annotator_id, c.c.status == "open")
        .order_by(c.c.name)
    ).scalars()
    return [str(n) for n in names]


def is_member(session: Session, campaign: int, annotator_id: int) -> bool:
    key = {"campaign_id": campaign, "annotator_id": annotator_id}
    return has_row(session, models.campaign_annotators, key)


def topic(session: Session, query_id: int) -> tuple[str, str | None, str | None] | None:
    """A query's external id, description and narrative; None when there is no such query."""
    q = models.queries
    row = session.execute(
        select(q.c.external_id, q.c.description, q.c.narrative).where(q.c.id == query_id)
    ).one_or_none()
    return None if row is None else (str(row[0]), row[1], row[2])
