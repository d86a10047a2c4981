"""Campaign reads: the reads of the lead's dashboard, the exports of every grade and mark,
and an annotator's own progress.

Every function takes the caller's session and returns plain tuples (the campaign service turns
them into its dataclasses and statistics).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, func, select, tuple_
from sqlalchemy.orm import Session

from ndcg_studio.storage import models
from ndcg_studio.storage.campaigns.keys import judgment_of_item, same_item
from ndcg_studio.storage.judgments.counts import item_grade_changes, item_grade_counts, item_grades

_ci, _j, _st, _le, _h = (
    models.campaign_items,
    models.judgments,
    models.campaign_states,
    models.campaign_leases,
    models.judgment_history,
)
_q, _d, _a = models.queries, models.documents, models.annotators


class Judged(NamedTuple):
    """A judgment of a campaign item (``gold_grade`` None for a non-gold item)."""

    query_id: int
    document_id: int
    gold_grade: int | None
    annotator_id: int
    grade: int


class State(NamedTuple):
    """A ``campaign_states`` row: graded (with seconds), cant_judge (with a reason) or later."""

    query_id: int
    document_id: int
    annotator_id: int
    state: str
    seconds: float | None
    reason: str | None


class DashboardRows(NamedTuple):
    """Everything the dashboard computes from, read in one transaction."""

    judged: list[Judged]
    states: list[State]
    leases: list[tuple[int, int, int]]  # (query id, document id, annotator id), live now
    items: list[tuple[int, int, str]]  # non-gold (query id, document id, query external id)
    names: dict[int, str]  # annotator id -> name
    documents: dict[int, str]  # document id -> external id (of the marked items)
    queries: dict[int, str]  # query id -> external id


def dashboard_rows(session: Session, campaign: int, now: datetime) -> DashboardRows:
    """The judgments, states, live leases and items of the campaign, with the names to show."""
    judged = session.execute(
        select(_ci.c.query_id, _ci.c.document_id, _ci.c.gold_grade, _j.c.annotator_id, _j.c.grade)
        .select_from(_ci)
        .join(_j, judgment_of_item())
        .where(_ci.c.campaign_id == campaign)
    ).all()
    states = session.execute(
        select(
            _st.c.query_id,
            _st.c.document_id,
            _st.c.annotator_id,
            _st.c.state,
            _st.c.seconds,
            _st.c.reason,
        ).where(_st.c.campaign_id == campaign)
    ).all()
    leases = session.execute(
        select(_le.c.query_id, _le.c.document_id, _le.c.annotator_id).where(
            _le.c.campaign_id == campaign, _le.c.expires_at > now
        )
    ).all()
    items = session.execute(
        select(_ci.c.query_id, _ci.c.document_id, _q.c.external_id)
        .join(_q, _q.c.id == _ci.c.query_id)
        .where(_ci.c.campaign_id == campaign, ~_ci.c.gold)
    ).all()
    marked = {s.document_id for s in states} or {-1}
    documents = session.execute(select(_d.c.id, _d.c.external_id).where(_d.c.id.in_(marked))).all()
    return DashboardRows(
        judged=[Judged(*r) for r in judged],
        states=[State(*r) for r in states],
        leases=[(int(q), int(d), int(a)) for q, d, a in leases],
        items=[(int(q), int(d), str(e)) for q, d, e in items],
        names={int(i): str(n) for i, n in session.execute(select(_a.c.id, _a.c.name))},
        documents={int(i): str(e) for i, e in documents},
        queries={int(i): str(e) for i, e in session.execute(select(_q.c.id, _q.c.external_id))},
    )


def graded_rows(session: Session, campaign: int) -> list[tuple[Any, ...]]:
    """Every grade of the campaign's items (any route): (query, document, annotator, grade,
    note, seconds or None, gold grade or None), external ids and names."""
    rows = session.execute(
        select(
            _q.c.external_id,
            _d.c.external_id,
            _a.c.name,
            _j.c.grade,
            _j.c.note,
            _st.c.seconds,
            _ci.c.gold_grade,
        )
        .select_from(_ci)
        .join(_j, judgment_of_item())
        .join(_q, _q.c.id == _ci.c.query_id)
        .join(_d, _d.c.id == _ci.c.document_id)
        .join(_a, _a.c.id == _j.c.annotator_id)
        .outerjoin(_st, and_(same_item(_st), _st.c.annotator_id == _j.c.annotator_id))
        .where(_ci.c.campaign_id == campaign)
    ).all()
    return [tuple(r) for r in rows]


def marked_rows(session: Session, campaign: int) -> list[tuple[Any, ...]]:
    """Every "can't judge" / "later" mark: (query, document, annotator, state, reason, gold
    grade or None)."""
    rows = session.execute(
        select(
            _q.c.external_id,
            _d.c.external_id,
            _a.c.name,
            _st.c.state,
            _st.c.reason,
            _ci.c.gold_grade,
        )
        .select_from(_st)
        .join(_ci, same_item(_st))
        .join(_q, _q.c.id == _st.c.query_id)
        .join(_d, _d.c.id == _st.c.document_id)
        .join(_a, _a.c.id == _st.c.annotator_id)
        .where(_st.c.campaign_id == campaign, _st.c.state != "graded")
    ).all()
    return [tuple(r) for r in rows]


def own_counts(session: Session, campaign: int, annotator_id: int) -> tuple[int, dict[str, int]]:
    """(items of the campaign the annotator graded, ``{state: count}`` of their marks)."""
    done = session.execute(
        select(func.count())
        .select_from(_ci)
        .join(_j, judgment_of_item())
        .where(_ci.c.campaign_id == campaign, _j.c.annotator_id == annotator_id)
    ).scalar_one()
    states = session.execute(
        select(_st.c.state, func.count())
        .where(_st.c.campaign_id == campaign, _st.c.annotator_id == annotator_id)
        .group_by(_st.c.state)
    ).all()
    return int(done), {str(s): int(n) for s, n in states}


# ---------------------------------------------------------------------------- strategy state
def serial_commits(session: Session) -> bool:
    """Whether history ids are committed in id order (SQLite: one writer at a time). On
    PostgreSQL a transaction may commit a smaller id after a larger one is visible."""
    return session.get_bind().dialect.name == "sqlite"


def _blind_reads(session: Session) -> bool:
    """PostgreSQL: the login may be an annotator, which reads only its own judgments and
    history (migration 0011); the owner's views count everyone's."""
    return session.get_bind().dialect.name == "postgresql"


def history_high_water(session: Session) -> int:
    """The largest ``judgment_history`` id (0 when empty; on PostgreSQL of a judgment, read from
    ``item_grade_changes`` so that an annotator login sees the others' too): one index
    look-up."""
    h = item_grade_changes if _blind_reads(session) else _h
    return int(session.execute(select(func.coalesce(func.max(h.c.id), 0))).scalar_one())


def changed_items(session: Session, after: int, upto: int) -> list[tuple[int, int]]:
    """The items whose judgments changed (history ids in ``(after, upto]``: every INSERT, grade
    UPDATE and DELETE, the history rule of :mod:`ndcg_studio.storage.judgments`), from the
    history's primary key alone (on PostgreSQL through ``item_grade_changes``, whatever the
    login); the caller keeps its own items (a join with the campaign's items made SQLite walk
    every item: ``benchmarks/bench_campaign_strategy.py``)."""
    if _blind_reads(session):
        v = item_grade_changes
        stmt = select(v.c.query_id, v.c.document_id).where(v.c.id > after, v.c.id <= upto)
    else:
        stmt = select(_h.c.query_id, _h.c.document_id).where(
            _h.c.id > after, _h.c.id <= upto, _h.c.kind == "judgment"
        )
    return sorted({(int(q), int(d)) for q, d in session.execute(stmt).all()})


def campaign_judgments(session: Session, campaign: int) -> list[tuple[int, int, int, int]]:
    """Every judgment of the campaign's non-gold items: (query id, document id, annotator id,
    grade); see :func:`_with_hidden` for the grades an annotator login may not read."""
    rows = session.execute(
        select(_ci.c.query_id, _ci.c.document_id, _j.c.annotator_id, _j.c.grade)
        .join(_j, judgment_of_item())
        .where(_ci.c.campaign_id == campaign, ~_ci.c.gold)
    ).all()
    out = [(int(q), int(d), int(a), int(g)) for q, d, a, g in rows]
    if not _blind_reads(session):
        return out
    grades = item_grades(_ci.c.query_id, _ci.c.document_id)
    counts = session.execute(
        select(_ci.c.query_id, _ci.c.document_id, grades).where(
            _ci.c.campaign_id == campaign, ~_ci.c.gold, grades > 0
        )
    ).all()
    return _with_hidden(out, counts)


def item_judgments(
    session: Session, items: Sequence[tuple[int, int]]
) -> list[tuple[int, int, int, int]]:
    """The judgments of ``items`` now: (query id, document id, annotator id, grade); see
    :func:`_with_hidden` for the grades an annotator login may not read."""
    out: list[tuple[int, int, int, int]] = []
    counts: list[Any] = []
    v = item_grade_counts
    for lo in range(0, len(items), 400):
        chunk = list(items[lo : lo + 400])
        rows = session.execute(
            select(_j.c.query_id, _j.c.document_id, _j.c.annotator_id, _j.c.grade).where(
                tuple_(_j.c.query_id, _j.c.document_id).in_(chunk)
            )
        ).all()
        out += [(int(q), int(d), int(a), int(g)) for q, d, a, g in rows]
        if _blind_reads(session):
            counts += session.execute(
                select(v.c.query_id, v.c.document_id, v.c.grades).where(
                    tuple_(v.c.query_id, v.c.document_id).in_(chunk)
                )
            ).all()
    return _with_hidden(out, counts) if counts else out


def _with_hidden(
    rows: list[tuple[int, int, int, int]], counts: Sequence[Any]
) -> list[tuple[int, int, int, int]]:
    """``rows`` (the judgments the login may read) and, for each grade of an item that it may
    not read (``counts``: (query id, document id, number of grades)), a row of annotator
    ``-k`` (k = 1, 2, …: no annotator's id) with grade -1: an annotator login's queue counts
    every grade (load, complete items) and orders by its own grades alone, an unread grade
    counting as 0 as an unrevealed item does (``services/campaigns/order.py``)."""
    seen: dict[tuple[int, int], int] = {}
    for q, d, _a, _g in rows:
        seen[(q, d)] = seen.get((q, d), 0) + 1
    out = list(rows)
    for q, d, n in counts:
        item = (int(q), int(d))
        out += [(*item, -k, -1) for k in range(1, int(n) - seen.get(item, 0) + 1)]
    return out


def open_marks_and_leases(
    session: Session, campaign: int, annotator_id: int, now: datetime
) -> tuple[dict[tuple[int, int], str], list[tuple[int, int, int]]]:
    """(The annotator's "can't judge" / "later" marks ``{item: state}``, the campaign's live
    leases as (query id, document id, annotator id))."""
    marks = session.execute(
        select(_st.c.query_id, _st.c.document_id, _st.c.state).where(
            _st.c.campaign_id == campaign,
            _st.c.annotator_id == annotator_id,
            _st.c.state != "graded",
        )
    ).all()
    return {(int(q), int(d)): str(s) for q, d, s in marks}, live_leases(session, campaign, now)


def live_leases(session: Session, campaign: int, now: datetime) -> list[tuple[int, int, int]]:
    """The campaign's leases that have not expired at ``now``: (query id, document id,
    annotator id)."""
    leases = session.execute(
        select(_le.c.query_id, _le.c.document_id, _le.c.annotator_id).where(
            _le.c.campaign_id == campaign, _le.c.expires_at > now
        )
    ).all()
    return [(int(q), int(d), int(a)) for q, d, a in leases]


def database_key(session: Session) -> str:
    """The database's URL (password hidden): part of a per-process cache key."""
    return str(session.get_bind().engine.url)
