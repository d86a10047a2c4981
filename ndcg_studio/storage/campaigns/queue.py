"""The campaign queue's SQL: what the queue may offer an annotator, holds (leases) and marks.

Every function takes the caller's session, inside the transaction in which
:mod:`ndcg_studio.services.campaigns.service` holds the campaign's lock
(:func:`ndcg_studio.storage.judgments.locks.lock_campaign`); none commits. An item's *load* is its
grades (any annotator, any route) plus the other annotators' live holds; it may be offered to an
annotator while its load is below the campaign's overlap N, unless the annotator graded it,
could not judge it or already holds it. The strategy orders apply the same rule in Python
(``_item_status`` of :mod:`ndcg_studio.services.campaigns.order`), from the rows
:func:`offer_inputs` and :mod:`~ndcg_studio.storage.campaigns.reads` read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import ColumnElement, Select, and_, delete, func, or_, select
from sqlalchemy.orm import Session

from ndcg_studio.storage import models
from ndcg_studio.storage.campaigns.keys import has_row, judgment_of_item, same_item
from ndcg_studio.storage.campaigns.reads import live_leases
from ndcg_studio.storage.judgments.counts import item_grades
from ndcg_studio.storage.judgments.items import insert_statement

Item = tuple[int, int]

_ci, _j, _le, _st = (
    models.campaign_items,
    models.judgments,
    models.campaign_leases,
    models.campaign_states,
)


def _state_of(annotator_id: int, state: str) -> ColumnElement[bool]:
    """EXISTS: the annotator marked the item of ``campaign_items``' row with ``state``."""
    return (
        select(_st.c.state)
        .where(same_item(_st), _st.c.annotator_id == annotator_id, _st.c.state == state)
        .exists()
    )


def _live_lease(now: datetime) -> ColumnElement[bool]:
    return and_(same_item(_le), _le.c.expires_at > now)


def _open_to(annotator_id: int) -> ColumnElement[bool]:
    """The annotator neither graded the item nor said they cannot judge it."""
    mine_judged = (
        select(_j.c.id).where(judgment_of_item(), _j.c.annotator_id == annotator_id).exists()
    )
    return and_(~mine_judged, ~_state_of(annotator_id, "cant_judge"))


def _load(annotator_id: int, now: datetime) -> Any:
    """Scalar: the item's grades plus the live holds of annotators other than ``annotator_id``."""
    grades = item_grades(_ci.c.query_id, _ci.c.document_id)
    holds = (
        select(func.count())
        .where(_live_lease(now), _le.c.annotator_id != annotator_id)
        .scalar_subquery()
    )
    return grades + holds


def _fresh(campaign: int, annotator_id: int, now: datetime) -> Select[Any]:
    """The campaign's items open to the annotator that they do not hold yet."""
    mine_held = select(_le.c.annotator_id).where(
        _live_lease(now), _le.c.annotator_id == annotator_id
    )
    return select(_ci.c.query_id, _ci.c.document_id).where(
        _ci.c.campaign_id == campaign, _open_to(annotator_id), ~mine_held.exists()
    )


def own_holds(
    session: Session, campaign: int, overlap: int, annotator_id: int, now: datetime
) -> list[Item]:
    """The items the annotator holds now and may still grade, in shuffle order: not graded nor
    marked "can't judge" by them, and, unless gold, with fewer than ``overlap`` grades (grades
    from elsewhere — another campaign that pools the item, an import, plain Annotate — may
    have completed a held item; its grade would be refused).

    Few rows: read from the leases' index and sorted here; an ORDER BY in SQL makes SQLite walk
    every item in shuffle order instead."""
    stmt = (
        select(_le.c.query_id, _le.c.document_id, _ci.c.shuffle)
        .join(_ci, same_item(_le))
        .where(
            _le.c.campaign_id == campaign,
            _le.c.annotator_id == annotator_id,
            _le.c.expires_at > now,
            _open_to(annotator_id),
            or_(_ci.c.gold, item_grades(_ci.c.query_id, _ci.c.document_id) < overlap),
        )
    )
    held = sorted(session.execute(stmt).all(), key=lambda r: (r.shuffle, r.query_id))
    return [(int(r.query_id), int(r.document_id)) for r in held]


def fewest_grades_first(
    session: Session, campaign: int, overlap: int, annotator_id: int, now: datetime, need: int
) -> list[Item]:
    """At most ``need`` non-gold items that still need grades, by (put off "later" last, load,
    shuffle): level by level, each level walks the campaign's items in shuffle order (index)
    and stops after ``need`` rows, instead of sorting every item."""
    fresh = _fresh(campaign, annotator_id, now).where(~_ci.c.gold)
    load, later = _load(annotator_id, now), _state_of(annotator_id, "later")
    rows: list[Item] = []
    for level in range(overlap):
        if len(rows) >= need:
            break
        stmt = fresh.where(~later, load == level).order_by(_ci.c.shuffle).limit(need - len(rows))
        rows += [(int(r.query_id), int(r.document_id)) for r in session.execute(stmt)]
    if len(rows) < need:
        put_off = (
            fresh.where(later, load < overlap).order_by(load, _ci.c.shuffle).limit(need - len(rows))
        )
        rows += [(int(r.query_id), int(r.document_id)) for r in session.execute(put_off)]
    return rows


def query_by_query(
    session: Session, campaign: int, overlap: int, annotator_id: int, now: datetime, need: int
) -> list[Item]:
    """The ``ppi`` order: at most ``need`` non-gold items that still need grades (load below
    ``overlap``, not graded, held nor "can't judge" by the annotator), query by query — the
    drawn queries of ``campaign_queries`` by decreasing inclusion probability, then query id —
    and within a query in shuffle order; items put off "later" last. A query's pool is thus
    offered until it is judged to the overlap before the next query's items come."""
    cq = models.campaign_queries
    later = _state_of(annotator_id, "later")
    stmt = (
        _fresh(campaign, annotator_id, now)
        .join(cq, and_(cq.c.campaign_id == _ci.c.campaign_id, cq.c.query_id == _ci.c.query_id))
        .where(~_ci.c.gold, _load(annotator_id, now) < overlap)
        .order_by(later, cq.c.inclusion_probability.desc(), _ci.c.query_id, _ci.c.shuffle)
        .limit(need)
    )
    return [(int(r.query_id), int(r.document_id)) for r in session.execute(stmt)]


def offer_inputs(
    session: Session, campaign: int, annotator_id: int, now: datetime
) -> tuple[list[tuple[int, int, int, int]], dict[Item, str], list[tuple[int, int, int]]]:
    """What deciding the offer of every non-gold item needs, in three reads: (every judgment of
    the campaign's non-gold items as (query id, document id, annotator id, grade), the
    annotator's marks ``{item: state}``, the campaign's live leases as (query id, document
    id, annotator id))."""
    judged = session.execute(
        select(_ci.c.query_id, _ci.c.document_id, _j.c.annotator_id, _j.c.grade)
        .join(_j, judgment_of_item())
        .where(_ci.c.campaign_id == campaign, ~_ci.c.gold)
    ).all()
    marks = session.execute(
        select(_st.c.query_id, _st.c.document_id, _st.c.state).where(
            _st.c.campaign_id == campaign, _st.c.annotator_id == annotator_id
        )
    ).all()
    return (
        [(int(q), int(d), int(a), int(g)) for q, d, a, g in judged],
        {(int(q), int(d)): str(state) for q, d, state in marks},
        live_leases(session, campaign, now),
    )


def gold_candidates(
    session: Session, campaign: int, annotator_id: int, now: datetime, need: int
) -> list[Item]:
    """At most ``need`` gold items the annotator has not judged nor holds, in shuffle order."""
    stmt = (
        _fresh(campaign, annotator_id, now)
        .where(_ci.c.gold.is_(True))
        .order_by(_ci.c.shuffle)
        .limit(need)
    )
    return [(int(r.query_id), int(r.document_id)) for r in session.execute(stmt)]


def marks_count(session: Session, campaign: int, annotator_id: int) -> int:
    """How many items the annotator graded or marked in the campaign (its ``campaign_states``)."""
    return int(
        session.execute(
            select(func.count()).where(
                _st.c.campaign_id == campaign, _st.c.annotator_id == annotator_id
            )
        ).scalar_one()
    )


def hold(
    session: Session, campaign: int, annotator_id: int, items: Sequence[Item], until: datetime
) -> None:
    """Hold ``items`` for the annotator until ``until`` (a held item's lease is extended)."""
    if not items:
        return
    rows = [
        {
            "campaign_id": campaign,
            "query_id": q,
            "document_id": d,
            "annotator_id": annotator_id,
            "expires_at": until,
        }
        for q, d in items
    ]
    stmt = insert_statement(session, _le).values(rows)
    key = [_le.c.campaign_id, _le.c.query_id, _le.c.document_id, _le.c.annotator_id]
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=key, set_={"expires_at": stmt.excluded.expires_at}
        )
    )


def external_ids(session: Session, items: Sequence[Item]) -> tuple[dict[int, str], dict[int, str]]:
    """``({query id: external id}, {document id: external id})`` of the items."""
    q, d = models.queries, models.documents
    qids = {qi for qi, _ in items} or {-1}
    dids = {di for _, di in items} or {-1}
    queries = session.execute(select(q.c.id, q.c.external_id).where(q.c.id.in_(qids))).all()
    documents = session.execute(select(d.c.id, d.c.external_id).where(d.c.id.in_(dids))).all()
    return (
        {int(i): str(e) for i, e in queries},
        {int(i): str(e) for i, e in documents},
    )


# ---------------------------------------------------------------------------- marks and leases
def is_item(session: Session, campaign: int, query_id: int, document_id: int) -> bool:
    key = {"campaign_id": campaign, "query_id": query_id, "document_id": document_id}
    return has_row(session, _ci, key)


def has_judgment(session: Session, query_id: int, document_id: int, annotator_id: int) -> bool:
    key = {"query_id": query_id, "document_id": document_id, "annotator_id": annotator_id}
    return has_row(session, _j, key)


def set_mark(session: Session, key: dict[str, int], state: str, reason: str | None) -> None:
    """Replace the item state and drop the lease of ``key`` (campaign, query, document and
    annotator ids) with the mark ``state``."""
    session.execute(delete(_le).where(*(_le.c[k] == v for k, v in key.items())))
    session.execute(delete(_st).where(*(_st.c[k] == v for k, v in key.items())))
    session.execute(
        _st.insert().values(**key, state=state, reason=reason, updated_at=models.utcnow())
    )


def release(session: Session, annotator_id: int, campaign: int | None) -> int:
    """Delete the annotator's leases (in one campaign, else in all); returns how many."""
    stmt = delete(_le).where(_le.c.annotator_id == annotator_id)
    if campaign is not None:
        stmt = stmt.where(_le.c.campaign_id == campaign)
    result = session.execute(stmt)
    return int(getattr(result, "rowcount", 0) or 0)


# ---------------------------------------------------------------------------- strategy inputs
def pool_ranks(
    session: Session, campaign: int, runs: Sequence[int]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The campaign's non-gold items and their places in its runs (the strategy order's state,
    :mod:`ndcg_studio.services.campaigns.order`, keeps them between requests and compares them
    with a fresh read now and then: a run may be re-imported).

    Returns:
        query, doc: (P,) int64 ids of the items, sorted by (query id, document id);
        rank: (len(runs), P) int64 the item's ``results.position`` in each run of ``runs``
            (trec_eval order, whole list), 0 when the run did not return it.
    """
    return _read_pool_ranks(session, campaign, runs)


def pool_fingerprint(session: Session, campaign: int, runs: Sequence[int]) -> list[tuple[int, ...]]:
    """Per run of ``runs``, aggregates of the places of the campaign's non-gold items (how many,
    their sum, a sum weighted by the document id): they change when a run is re-imported with
    other places. One aggregate in SQL, no row reaches Python (the strategy state's periodic
    check, ``benchmarks/bench_campaign_strategy.py``)."""
    r = models.results
    rows = session.execute(
        select(
            r.c.run_id,
            func.count(),
            func.sum(r.c.position),
            func.sum(r.c.position * (r.c.document_id % 1009 + 1)),
        )
        .join(_ci, and_(_ci.c.query_id == r.c.query_id, _ci.c.document_id == r.c.document_id))
        .where(_ci.c.campaign_id == campaign, ~_ci.c.gold, r.c.run_id.in_(runs))
        .group_by(r.c.run_id)
        .order_by(r.c.run_id)
    ).all()
    return [tuple(int(v or 0) for v in row) for row in rows]


def _read_pool_ranks(
    session: Session, campaign: int, runs: Sequence[int]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    items = session.execute(
        select(_ci.c.query_id, _ci.c.document_id)
        .where(_ci.c.campaign_id == campaign, ~_ci.c.gold)
        .order_by(_ci.c.query_id, _ci.c.document_id)
    ).all()
    query = np.array([r[0] for r in items], dtype=np.int64)
    doc = np.array([r[1] for r in items], dtype=np.int64)
    index = {(int(q), int(d)): i for i, (q, d) in enumerate(items)}
    rank = np.zeros((len(runs), len(items)), dtype=np.int64)
    row_of = {run: i for i, run in enumerate(runs)}
    r = models.results
    placed = session.execute(
        select(r.c.run_id, r.c.query_id, r.c.document_id, r.c.position)
        .join(
            _ci,
            and_(_ci.c.query_id == r.c.query_id, _ci.c.document_id == r.c.document_id),
        )
        .where(_ci.c.campaign_id == campaign, r.c.run_id.in_(list(runs)))
    )
    for run, qi, di, position in placed:
        p = index.get((int(qi), int(di)))
        if p is not None:
            rank[row_of[int(run)], p] = int(position)
    return query, doc, rank
