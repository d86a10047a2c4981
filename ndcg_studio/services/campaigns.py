"""Judging campaigns: who judges which pooled items, how many times, with gold items mixed in.

A **campaign** (tables of migration 0006) fixes at creation its *items*: the depth-``D`` pool of
its runs over its queries (every query of the runs, a list, or a seeded random sample), plus the
*gold* items (query, document, known grade). Each non-gold item needs ``overlap`` = N grades.
Grades live in ``judgments`` like every other grade (written by
:meth:`AnnotationService.set_grade` with a :class:`CampaignGrade`, the app's one writer of
judgments), so a grade given in one campaign, in plain Annotate or by ``import judgments``
counts in every campaign that pools the item.

**The queue** (:meth:`CampaignService.queue`) of an annotator, in one transaction under the
campaign's lock (PostgreSQL: an advisory lock; SQLite: the write lock, taken first): the items
the annotator still holds, then the items that still need grades, fewest (grades + others' live
holds) first, items the annotator put off ("later") last, ties in the campaign's seeded shuffle
order; never an item the annotator graded or could not judge, never one whose grades plus other
annotators' live holds reach N. Gold items the annotator has not judged are mixed in at the
campaign's gold rate, at positions drawn from a seeded generator, and look like any other item.
Every offered item is *held* (a lease until ``now + hold``); an expired lease is free, and
:meth:`~CampaignService.release` frees an annotator's leases (the app does on closing). A grade
of an item that others already graded N times is refused (:class:`ItemComplete`), so even a lease
that expired under a slow annotator cannot produce an N+1-th grade.

**Can't judge / later** are item *states* (``campaign_states``), not grades: scoring and
agreement read only ``judgments``, so they never enter scores or agreement.
"""

from __future__ import annotations

import hashlib
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final, Literal

import numpy as np
from sqlalchemy import and_, delete, func, select, text, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ndcg_studio.domain.agreement_alpha import alpha
from ndcg_studio.domain.agreement_ratings import Ratings
from ndcg_studio.domain.campaign_stats import gold_accuracy, others_consensus, weighted_kappa
from ndcg_studio.services.annotation import (
    AnnotationService,
    CampaignGrade,
    GradeChange,
    ItemComplete,
    lock_campaign,
)
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.resilience import refusal_of
from ndcg_studio.vocabulary import GRADES

__all__ = [
    "CampaignGrade",
    "CampaignInfo",
    "CampaignService",
    "CampaignSpec",
    "CampaignStatus",
    "GoldItem",
    "ItemComplete",
    "QueueItem",
]

DEFAULT_GOLD_RATE: Final = 0.05
DEFAULT_GOLD_THRESHOLD: Final = 0.7
#: How long an offered item stays held for its annotator (seconds).
DEFAULT_HOLD_SECONDS: Final = 30 * 60
MarkState = Literal["cant_judge", "later"]


@dataclass(frozen=True, slots=True)
class GoldItem:
    """A gold item: query and document external ids and the known grade (0–4)."""

    query: str
    document: str
    grade: int


@dataclass(frozen=True, slots=True)
class CampaignSpec:
    """What :meth:`CampaignService.create` needs (see the CLI ``campaign create``)."""

    name: str
    runs: Sequence[str]
    depth: int
    overlap: int
    annotators: Sequence[str]
    queries: Sequence[str] | None = None
    sample: int | None = None
    seed: int = 0
    gold: Sequence[GoldItem] = ()
    gold_rate: float = DEFAULT_GOLD_RATE
    gold_threshold: float = DEFAULT_GOLD_THRESHOLD
    guidelines: str = ""


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """A stored campaign (``items`` counts pooled items, ``gold`` the gold items)."""

    id: int
    name: str
    status: str
    guidelines: str
    pool_depth: int
    overlap: int
    gold_rate: float
    gold_threshold: float
    seed: int | None
    runs: tuple[str, ...]
    annotators: tuple[str, ...]
    items: int
    gold: int
    complete: int


@dataclass(frozen=True, slots=True)
class QueueItem:
    """One item offered to an annotator: blind (no run, rank, gold flag or other grade)."""

    query_id: int
    document_id: int
    query: str
    document: str


@dataclass(frozen=True, slots=True)
class OwnProgress:
    """An annotator's progress in a campaign: items graded, can't judge, put off, still open
    to them (items needing grades they could take), and the campaign's complete/total items."""

    done: int
    cant_judge: int
    later: int
    complete: int
    total: int


@dataclass(frozen=True, slots=True)
class AnnotatorStatus:
    """One row of the lead's dashboard (see :meth:`CampaignService.status` for definitions)."""

    annotator: str
    assigned: int
    done: int
    cant_judge: int
    later: int
    median_seconds: float
    leniency: float
    kappa_vs_others: float
    alpha_without: float
    gold_exact: float
    gold_within_one: float
    gold_n: int
    grades: tuple[int, ...]
    gold_warning: bool


@dataclass(frozen=True, slots=True)
class QueryStatus:
    """Progress of one query of a campaign: non-gold items with N grades / all of them."""

    query: str
    complete: int
    total: int


@dataclass(frozen=True, slots=True)
class MarkedItem:
    """A "can't judge" or "later" mark, listed for the lead."""

    annotator: str
    query: str
    document: str
    state: str
    reason: str | None


@dataclass(frozen=True, slots=True)
class CampaignStatus:
    """The lead's dashboard of one campaign."""

    campaign: CampaignInfo
    annotators: list[AnnotatorStatus]
    queries: list[QueryStatus]
    marks: list[MarkedItem] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GradeRow:
    """One grade or mark of a campaign item, for exports."""

    campaign: str
    query: str
    document: str
    annotator: str
    state: str
    grade: int | None
    explanation: str | None
    seconds: float | None
    reason: str | None
    gold: bool


def _shuffle_key(seed: int, query: str, document: str) -> int:
    """A seeded 31-bit order key of an item (BLAKE2b; blind to runs and ranks)."""
    digest = hashlib.blake2b(f"{seed}\x1f{query}\x1f{document}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") >> 1


class CampaignService:
    """Campaigns on one :class:`Database`; every call is one short transaction of its own."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.annotation = AnnotationService(db)

    # ------------------------------------------------------------------ set-up
    def create(self, spec: CampaignSpec) -> CampaignInfo:
        """Create a campaign and fix its items (the depth-D pool of its runs over its queries,
        plus the gold items). Annotators are created when missing.

        Raises:
            ValueError: empty or taken name, no runs, an unknown run, query or gold document,
                overlap or depth < 1, gold rate outside [0, 1], sample < 1 or together with a
                query list, or an empty pool.
        """
        name = spec.name.strip()
        if not name:
            raise ValueError("a campaign needs a name")
        if not spec.runs:
            raise ValueError("a campaign needs at least one run to pool")
        for label, value in (("overlap", spec.overlap), ("depth", spec.depth)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"the {label} is an integer ≥ 1, not {value!r}")
        if not 0.0 <= spec.gold_rate <= 1.0:
            raise ValueError(f"the gold rate is between 0 and 1, not {spec.gold_rate!r}")
        if spec.sample is not None and (spec.sample < 1 or spec.queries is not None):
            raise ValueError("--sample takes a number ≥ 1 and cannot go with --queries")
        if not spec.annotators:
            raise ValueError("a campaign needs at least one annotator")
        people = sorted({a.strip() for a in spec.annotators})
        if not all(people):
            raise ValueError("an annotator needs a name")
        try:
            self._create(spec, name, people)
        except DBAPIError as exc:
            refusal = refusal_of(exc, self.db.label)
            if refusal is not None:
                raise refusal from exc
            raise
        return self.get(name)

    def _create(self, spec: CampaignSpec, name: str, people: list[str]) -> None:
        r, q, d, c = models.results, models.queries, models.documents, models.campaigns
        with self.db.transaction() as session:
            if session.execute(select(c.c.id).where(c.c.name == name)).first() is not None:
                raise ValueError(f"a campaign called {name!r} exists already")
            run_rows = session.execute(
                select(models.runs.c.name, models.runs.c.id).where(
                    models.runs.c.name.in_(list(spec.runs))
                )
            ).all()
            run_ids = {n: i for n, i in run_rows}
            missing = [n for n in spec.runs if n not in run_ids]
            if missing:
                raise ValueError(f"no run called {missing[0]!r} in the database")
            pool_rows = session.execute(
                select(q.c.external_id, d.c.external_id, r.c.query_id, r.c.document_id)
                .join(q, q.c.id == r.c.query_id)
                .join(d, d.c.id == r.c.document_id)
                .where(r.c.run_id.in_(list(run_ids.values())), r.c.position <= spec.depth)
                .distinct()
            ).all()
            query_ids = {qe: qi for qe, _de, qi, _di in pool_rows}
            chosen = set(query_ids)
            if spec.queries is not None:
                unknown = [x for x in spec.queries if x not in query_ids]
                if unknown:
                    raise ValueError(f"query {unknown[0]!r} has no results in these runs")
                chosen = set(spec.queries)
            elif spec.sample is not None:
                if spec.sample > len(chosen):
                    raise ValueError(
                        f"--sample {spec.sample}: the runs have only {len(chosen)} queries"
                    )
                chosen = set(random.Random(spec.seed).sample(sorted(chosen), spec.sample))
            items: dict[tuple[int, int], dict[str, Any]] = {}
            for qe, de, qi, di in pool_rows:
                if qe in chosen:
                    items[(qi, di)] = {
                        "query_id": qi,
                        "document_id": di,
                        "gold_grade": None,
                        "shuffle": _shuffle_key(spec.seed, qe, de),
                    }
            if not items:
                raise ValueError("the pool is empty: no results of these runs at this depth")
            for gold in spec.gold:
                qi = session.execute(
                    select(q.c.id).where(q.c.external_id == gold.query)
                ).scalar_one_or_none()
                di = session.execute(
                    select(d.c.id).where(d.c.external_id == gold.document)
                ).scalar_one_or_none()
                if qi is None or di is None:
                    what = "query" if qi is None else "document"
                    raise ValueError(
                        f"gold item: no {what} {gold.query if qi is None else gold.document!r}"
                    )
                if not 0 <= gold.grade <= 4:
                    raise ValueError(f"gold item: grade {gold.grade} is outside 0–4")
                items[(qi, di)] = {
                    "query_id": qi,
                    "document_id": di,
                    "gold_grade": gold.grade,
                    "shuffle": _shuffle_key(spec.seed, gold.query, gold.document),
                }
            a = models.annotators
            known = set(session.execute(select(a.c.name).where(a.c.name.in_(people))).scalars())
            if len(known) < len(people):  # only an owner may create annotators in team mode
                session.execute(
                    self.annotation._insert(session, a)
                    .values(
                        [
                            {"name": n, "created_at": models.utcnow()}
                            for n in people
                            if n not in known
                        ]
                    )
                    .on_conflict_do_nothing(index_elements=[a.c.name])
                )
            annotator_ids = session.execute(select(a.c.id).where(a.c.name.in_(people))).scalars()
            campaign_id = session.execute(
                c.insert()
                .values(
                    name=name,
                    guidelines=spec.guidelines,
                    pool_depth=spec.depth,
                    pool_strategy="depth",
                    overlap=spec.overlap,
                    gold_rate=spec.gold_rate,
                    gold_threshold=spec.gold_threshold,
                    query_sample=spec.sample,
                    seed=spec.seed,
                    status="open",
                    created_at=models.utcnow(),
                )
                .returning(c.c.id)
            ).scalar_one()
            session.execute(
                models.campaign_runs.insert(),
                [{"campaign_id": campaign_id, "run_id": i} for i in run_ids.values()],
            )
            session.execute(
                models.campaign_annotators.insert(),
                [{"campaign_id": campaign_id, "annotator_id": i} for i in annotator_ids],
            )
            session.execute(
                models.campaign_items.insert(),
                [{"campaign_id": campaign_id, **v} for v in items.values()],
            )

    def _campaign_row(self, session: Session, name: str) -> Any:
        c = models.campaigns
        row = session.execute(select(c).where(c.c.name == name)).one_or_none()
        if row is None:
            raise LookupError(f"no campaign called {name!r}")
        return row

    def get(self, name: str) -> CampaignInfo:
        """The campaign called ``name``.

        Raises:
            LookupError: no such campaign.
        """
        with self.db.transaction() as session:
            return self._info(session, self._campaign_row(session, name))

    def _info(self, session: Session, row: Any) -> CampaignInfo:
        cr, ca, ci = models.campaign_runs, models.campaign_annotators, models.campaign_items
        runs = session.execute(
            select(models.runs.c.name)
            .join(cr, cr.c.run_id == models.runs.c.id)
            .where(cr.c.campaign_id == row.id)
            .order_by(models.runs.c.name)
        ).scalars()
        people = session.execute(
            select(models.annotators.c.name)
            .join(ca, ca.c.annotator_id == models.annotators.c.id)
            .where(ca.c.campaign_id == row.id)
            .order_by(models.annotators.c.name)
        ).scalars()
        counts = session.execute(
            select(
                func.count().filter(ci.c.gold_grade.is_(None)),
                func.count().filter(ci.c.gold_grade.is_not(None)),
                func.count().filter(
                    ci.c.gold_grade.is_(None), self._graded_count(ci) >= row.overlap
                ),
            ).where(ci.c.campaign_id == row.id)
        ).one()
        return CampaignInfo(
            id=row.id,
            name=row.name,
            status=row.status,
            guidelines=row.guidelines,
            pool_depth=row.pool_depth,
            overlap=row.overlap,
            gold_rate=row.gold_rate,
            gold_threshold=row.gold_threshold,
            seed=row.seed,
            runs=tuple(runs),
            annotators=tuple(people),
            items=int(counts[0]),
            gold=int(counts[1]),
            complete=int(counts[2]),
        )

    @staticmethod
    def _graded_count(ci: Any) -> Any:
        j = models.judgments
        return (
            select(func.count())
            .where(j.c.query_id == ci.c.query_id, j.c.document_id == ci.c.document_id)
            .scalar_subquery()
        )

    def all(self) -> list[CampaignInfo]:
        """Every campaign, by name."""
        c = models.campaigns
        with self.db.transaction() as session:
            rows = session.execute(select(c).order_by(c.c.name)).all()
            return [self._info(session, row) for row in rows]

    def close(self, name: str) -> CampaignInfo:
        """Close a campaign: its queue offers nothing more and its leases are released.

        Raises:
            LookupError: no such campaign.
        """
        c = models.campaigns
        with self.db.transaction() as session:
            row = self._campaign_row(session, name)
            session.execute(
                update(c).where(c.c.id == row.id).values(status="closed", closed_at=models.utcnow())
            )
            le = models.campaign_leases
            session.execute(delete(le).where(le.c.campaign_id == row.id))
        return self.get(name)

    def run_names(self) -> list[str]:
        """Every run's name, sorted (the runs a campaign may pool)."""
        with self.db.transaction() as session:
            names = session.execute(select(models.runs.c.name).order_by(models.runs.c.name))
            return list(names.scalars())

    def open_for(self, annotator_id: int) -> list[str]:
        """The names of the open campaigns ``annotator_id`` takes part in, by name."""
        c, ca = models.campaigns, models.campaign_annotators
        with self.db.transaction() as session:
            names = session.execute(
                select(c.c.name)
                .join(ca, ca.c.campaign_id == c.c.id)
                .where(ca.c.annotator_id == annotator_id, c.c.status == "open")
                .order_by(c.c.name)
            ).scalars()
            return list(names)

    def topic(self, query_id: int) -> tuple[str, str | None, str | None]:
        """A query's external id, description and narrative (None when the topics file had
        none), shown beside the guidelines.

        Raises:
            LookupError: no such query.
        """
        q = models.queries
        with self.db.transaction() as session:
            row = session.execute(
                select(q.c.external_id, q.c.description, q.c.narrative).where(q.c.id == query_id)
            ).one_or_none()
        if row is None:
            raise LookupError(f"no query with id {query_id}")
        return str(row[0]), row[1], row[2]

    # ------------------------------------------------------------------ judging
    def _member(self, session: Session, campaign_id: int, annotator_id: int) -> None:
        ca = models.campaign_annotators
        found = session.execute(
            select(ca.c.annotator_id).where(
                ca.c.campaign_id == campaign_id, ca.c.annotator_id == annotator_id
            )
        ).first()
        if found is None:
            raise ValueError("this annotator does not take part in the campaign")

    def queue(
        self,
        name: str,
        annotator_id: int,
        limit: int,
        *,
        hold_seconds: float = DEFAULT_HOLD_SECONDS,
        now: datetime | None = None,
    ) -> list[QueueItem]:
        """What ``annotator_id`` is offered next (at most ``limit`` items), each now held by
        them until ``now + hold_seconds``; see the module docstring for the order and rules.

        Raises:
            LookupError: no such campaign.
            ValueError: ``limit`` < 1, the campaign is closed, or the annotator is not in it.
            WriteRefused: team mode, the login may not hold items for this annotator.
        """
        if limit < 1:
            raise ValueError(f"the limit is an integer ≥ 1, not {limit!r}")
        now = now or models.utcnow()
        try:
            with self.db.transaction() as session:
                if session.get_bind().dialect.name == "sqlite":
                    # take the write lock before reading (see services/annotation.py)
                    session.execute(
                        text("UPDATE campaign_leases SET expires_at = expires_at WHERE 1 = 0")
                    )
                row = self._campaign_row(session, name)
                if row.status != "open":
                    raise ValueError(f"campaign {name!r} is closed")
                self._member(session, row.id, annotator_id)
                lock_campaign(session, row.id)
                picked = self._pick(session, row, annotator_id, limit, now)
                self._hold(
                    session, row.id, annotator_id, picked, now + timedelta(seconds=hold_seconds)
                )
                return self._describe(session, picked)
        except DBAPIError as exc:
            refusal = refusal_of(exc, self.db.label)
            if refusal is not None:
                raise refusal from exc
            raise

    def _pick(
        self, session: Session, row: Any, annotator_id: int, limit: int, now: datetime
    ) -> list[tuple[int, int]]:
        ci, j, le, st = (
            models.campaign_items,
            models.judgments,
            models.campaign_leases,
            models.campaign_states,
        )
        same_item = and_(j.c.query_id == ci.c.query_id, j.c.document_id == ci.c.document_id)
        mine_judged = select(j.c.id).where(same_item, j.c.annotator_id == annotator_id).exists()
        mine_unjudgeable = (
            select(st.c.state)
            .where(
                st.c.campaign_id == ci.c.campaign_id,
                st.c.query_id == ci.c.query_id,
                st.c.document_id == ci.c.document_id,
                st.c.annotator_id == annotator_id,
                st.c.state == "cant_judge",
            )
            .exists()
        )
        later = (
            select(st.c.state)
            .where(
                st.c.campaign_id == ci.c.campaign_id,
                st.c.query_id == ci.c.query_id,
                st.c.document_id == ci.c.document_id,
                st.c.annotator_id == annotator_id,
                st.c.state == "later",
            )
            .exists()
        )
        lease_of = and_(
            le.c.campaign_id == ci.c.campaign_id,
            le.c.query_id == ci.c.query_id,
            le.c.document_id == ci.c.document_id,
            le.c.expires_at > now,
        )
        mine_held = select(le.c.annotator_id).where(lease_of, le.c.annotator_id == annotator_id)
        base = select(ci.c.query_id, ci.c.document_id).where(
            ci.c.campaign_id == row.id, ~mine_judged, ~mine_unjudgeable
        )
        # the annotator's own live holds first (few rows: read from the leases' index, sorted
        # here; an ORDER BY in SQL makes SQLite walk every item in shuffle order instead)
        own = (
            select(le.c.query_id, le.c.document_id, ci.c.shuffle)
            .join(
                ci,
                and_(
                    ci.c.campaign_id == le.c.campaign_id,
                    ci.c.query_id == le.c.query_id,
                    ci.c.document_id == le.c.document_id,
                ),
            )
            .where(
                le.c.campaign_id == row.id,
                le.c.annotator_id == annotator_id,
                le.c.expires_at > now,
                ~mine_judged,
                ~mine_unjudgeable,
            )
        )
        held = sorted(session.execute(own).all(), key=lambda r: (r.shuffle, r.query_id))
        picked = [(r.query_id, r.document_id) for r in held[:limit]]
        if len(picked) >= limit:
            return picked
        grades = select(func.count()).where(same_item).scalar_subquery()
        holds = (
            select(func.count())
            .where(lease_of, le.c.annotator_id != annotator_id)
            .scalar_subquery()
        )
        need = limit - len(picked)
        fresh = base.where(~mine_held.exists())
        regular_rows: list[tuple[int, int]] = []
        # (later, load, shuffle) order, level by level: each level walks the campaign's items in
        # shuffle order (index) and stops after ``need`` rows, instead of sorting every item
        for level in range(row.overlap):
            if len(regular_rows) >= need:
                break
            level_stmt = (
                fresh.where(ci.c.gold_grade.is_(None), ~later, grades + holds == level)
                .order_by(ci.c.shuffle)
                .limit(need - len(regular_rows))
            )
            regular_rows += [(r.query_id, r.document_id) for r in session.execute(level_stmt)]
        if len(regular_rows) < need:
            put_off = (
                fresh.where(ci.c.gold_grade.is_(None), later, grades + holds < row.overlap)
                .order_by(grades + holds, ci.c.shuffle)
                .limit(need - len(regular_rows))
            )
            regular_rows += [(r.query_id, r.document_id) for r in session.execute(put_off)]
        gold_rows: list[tuple[int, int]] = []
        if row.gold_rate > 0:
            gold_stmt = fresh.where(ci.c.gold_grade.is_not(None)).order_by(ci.c.shuffle).limit(need)
            gold_rows = [(r.query_id, r.document_id) for r in session.execute(gold_stmt)]
        # Gold positions: a generator seeded by the campaign, the annotator and how much the
        # annotator has done, so a position cannot be told from the outside and repeats exactly.
        done = session.execute(
            select(func.count()).where(
                st.c.campaign_id == row.id, st.c.annotator_id == annotator_id
            )
        ).scalar_one()
        rng = random.Random(f"{row.seed}:{row.id}:{annotator_id}:{done}")
        out: list[tuple[int, int]] = []
        while len(out) < need and (regular_rows or gold_rows):
            take_gold = gold_rows and (not regular_rows or rng.random() < row.gold_rate)
            out.append(gold_rows.pop(0) if take_gold else regular_rows.pop(0))
        return picked + out

    def _hold(
        self,
        session: Session,
        campaign_id: int,
        annotator_id: int,
        items: list[tuple[int, int]],
        until: datetime,
    ) -> None:
        if not items:
            return
        le = models.campaign_leases
        insert = self.annotation._insert(session, le)
        rows = [
            {
                "campaign_id": campaign_id,
                "query_id": q,
                "document_id": d,
                "annotator_id": annotator_id,
                "expires_at": until,
            }
            for q, d in items
        ]
        stmt = insert.values(rows)
        session.execute(
            stmt.on_conflict_do_update(
                index_elements=[
                    le.c.campaign_id,
                    le.c.query_id,
                    le.c.document_id,
                    le.c.annotator_id,
                ],
                set_={"expires_at": stmt.excluded.expires_at},
            )
        )

    @staticmethod
    def _describe(session: Session, items: list[tuple[int, int]]) -> list[QueueItem]:
        if not items:
            return []
        q, d = models.queries, models.documents
        qids = {qi for qi, _ in items}
        dids = {di for _, di in items}
        qnames = dict(
            session.execute(select(q.c.id, q.c.external_id).where(q.c.id.in_(qids))).all()
        )
        dnames = dict(
            session.execute(select(d.c.id, d.c.external_id).where(d.c.id.in_(dids))).all()
        )
        return [QueueItem(qi, di, qnames[qi], dnames[di]) for qi, di in items]

    def grade(
        self,
        name: str,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        *,
        explanation: str | None = None,
        seconds: float | None = None,
    ) -> GradeChange:
        """Grade a campaign item (see :meth:`AnnotationService.set_grade` with ``campaign``):
        ``explanation`` is the grade's note, ``seconds`` the time from showing to grading.

        Raises:
            ItemComplete: the item already has its N grades from others (nothing written).
            LookupError, ValueError, WriteRefused: as ``set_grade``.
        """
        return self.annotation.set_grade(
            annotator_id,
            query_id,
            document_id,
            grade,
            note=explanation,
            campaign=CampaignGrade(self.campaign_id(name), seconds),
        )

    def campaign_id(self, name: str) -> int:
        """The id of the campaign called ``name`` (one index look-up).

        Raises:
            LookupError: no such campaign.
        """
        c = models.campaigns
        with self.db.transaction() as session:
            found = session.execute(select(c.c.id).where(c.c.name == name)).scalar_one_or_none()
        if found is None:
            raise LookupError(f"no campaign called {name!r}")
        return int(found)

    def mark(
        self,
        name: str,
        annotator_id: int,
        query_id: int,
        document_id: int,
        state: MarkState,
        reason: str | None = None,
    ) -> None:
        """Mark a campaign item "can't judge" (``cant_judge``, with a reason) or "later"; the
        annotator's hold on it is released. Not a grade: it never enters scores or agreement.

        Raises:
            LookupError: no such campaign or item.
            ValueError: unknown state, or the annotator already graded the item (clear the grade
                first).
            WriteRefused: team mode, not the login's own annotator.
        """
        if state not in ("cant_judge", "later"):
            raise ValueError(f"the state is 'cant_judge' or 'later', not {state!r}")
        st, le, ci, j = (
            models.campaign_states,
            models.campaign_leases,
            models.campaign_items,
            models.judgments,
        )
        try:
            with self.db.transaction() as session:
                row = self._campaign_row(session, name)
                key = {
                    "campaign_id": row.id,
                    "query_id": query_id,
                    "document_id": document_id,
                    "annotator_id": annotator_id,
                }
                item = session.execute(
                    select(ci.c.query_id).where(
                        ci.c.campaign_id == row.id,
                        ci.c.query_id == query_id,
                        ci.c.document_id == document_id,
                    )
                ).first()
                if item is None:
                    raise LookupError("not an item of this campaign")
                graded = session.execute(
                    select(j.c.id).where(
                        j.c.query_id == query_id,
                        j.c.document_id == document_id,
                        j.c.annotator_id == annotator_id,
                    )
                ).first()
                if graded is not None:
                    raise ValueError("the document is graded: clear the grade first")
                session.execute(delete(le).where(*(le.c[k] == v for k, v in key.items())))
                session.execute(delete(st).where(*(st.c[k] == v for k, v in key.items())))
                reason = (reason or "").strip() or None
                session.execute(
                    st.insert().values(
                        **key, state=state, reason=reason, updated_at=models.utcnow()
                    )
                )
        except DBAPIError as exc:
            refusal = refusal_of(exc, self.db.label)
            if refusal is not None:
                raise refusal from exc
            raise

    def release(self, annotator_id: int, name: str | None = None) -> int:
        """Free ``annotator_id``'s holds (in campaign ``name``, else in every campaign); returns
        how many were released. The app calls it on closing."""
        le = models.campaign_leases
        stmt = delete(le).where(le.c.annotator_id == annotator_id)
        with self.db.transaction() as session:
            if name is not None:
                stmt = stmt.where(le.c.campaign_id == self._campaign_row(session, name).id)
            result = session.execute(stmt)
        return int(getattr(result, "rowcount", 0) or 0)

    def own_progress(self, name: str, annotator_id: int) -> OwnProgress:
        """``annotator_id``'s progress in the campaign (counts only: Annotate stays blind)."""
        ci, j, st = models.campaign_items, models.judgments, models.campaign_states
        with self.db.transaction() as session:
            row = self._campaign_row(session, name)
            info = self._info(session, row)
            done = session.execute(
                select(func.count())
                .select_from(ci)
                .join(j, and_(j.c.query_id == ci.c.query_id, j.c.document_id == ci.c.document_id))
                .where(ci.c.campaign_id == row.id, j.c.annotator_id == annotator_id)
            ).scalar_one()
            states: dict[str, int] = dict(
                session.execute(
                    select(st.c.state, func.count())
                    .where(st.c.campaign_id == row.id, st.c.annotator_id == annotator_id)
                    .group_by(st.c.state)
                ).all()
            )
        return OwnProgress(
            done=int(done),
            cant_judge=int(states.get("cant_judge", 0)),
            later=int(states.get("later", 0)),
            complete=info.complete,
            total=info.items,
        )

    # ------------------------------------------------------------------ the lead's view
    def grades(self, name: str) -> list[GradeRow]:
        """Every grade of the campaign's items (any route) with its state, explanation (the
        note), seconds, and every "can't judge"/"later" mark: for exports."""
        ci, j, st = models.campaign_items, models.judgments, models.campaign_states
        q, d, a = models.queries, models.documents, models.annotators
        with self.db.transaction() as session:
            row = self._campaign_row(session, name)
            graded = session.execute(
                select(
                    q.c.external_id,
                    d.c.external_id,
                    a.c.name,
                    j.c.grade,
                    j.c.note,
                    st.c.seconds,
                    ci.c.gold_grade,
                )
                .select_from(ci)
                .join(j, and_(j.c.query_id == ci.c.query_id, j.c.document_id == ci.c.document_id))
                .join(q, q.c.id == ci.c.query_id)
                .join(d, d.c.id == ci.c.document_id)
                .join(a, a.c.id == j.c.annotator_id)
                .outerjoin(
                    st,
                    and_(
                        st.c.campaign_id == ci.c.campaign_id,
                        st.c.query_id == ci.c.query_id,
                        st.c.document_id == ci.c.document_id,
                        st.c.annotator_id == j.c.annotator_id,
                    ),
                )
                .where(ci.c.campaign_id == row.id)
            ).all()
            marked = session.execute(
                select(
                    q.c.external_id,
                    d.c.external_id,
                    a.c.name,
                    st.c.state,
                    st.c.reason,
                    ci.c.gold_grade,
                )
                .select_from(st)
                .join(
                    ci,
                    and_(
                        ci.c.campaign_id == st.c.campaign_id,
                        ci.c.query_id == st.c.query_id,
                        ci.c.document_id == st.c.document_id,
                    ),
                )
                .join(q, q.c.id == st.c.query_id)
                .join(d, d.c.id == st.c.document_id)
                .join(a, a.c.id == st.c.annotator_id)
                .where(st.c.campaign_id == row.id, st.c.state != "graded")
            ).all()
        rows = [
            GradeRow(row.name, qe, de, an, "graded", g, note, secs, None, gold is not None)
            for qe, de, an, g, note, secs, gold in graded
        ]
        rows += [
            GradeRow(row.name, qe, de, an, s, None, None, None, reason, gold is not None)
            for qe, de, an, s, reason, gold in marked
        ]
        rows.sort(key=lambda r: (r.query, r.document, r.annotator))
        return rows

    def status(self, name: str, *, now: datetime | None = None) -> CampaignStatus:
        """The lead's dashboard. Per annotator of the campaign:

        - ``assigned``: items they graded, marked or hold now; ``done``: items they graded (any
          route, gold included); ``cant_judge``/``later``: their marks;
        - ``median_seconds``: median time per campaign grade (NaN when none was timed);
        - ``grades``: how many of their grades are 0, 1, 2, 3, 4 (-1 counted as 0);
        - ``leniency``: mean of (their grade − the others' consensus) over the non-gold items
          that they and at least one other annotator graded; the consensus is the lower median
          of the others' grades (:func:`~ndcg_studio.domain.campaign_stats.lower_median`);
        - ``kappa_vs_others``: quadratic-weighted Cohen's kappa (labels 0–4) of their grades
          with that consensus; ``alpha_without``: ordinal Krippendorff's alpha of all
          annotators' grades of the non-gold items except theirs (values 0–4);
        - ``gold_exact``/``gold_within_one``: fraction of the gold items they graded that match
          the known grade exactly / within one grade; ``gold_warning`` when exact accuracy is
          below the campaign's threshold.
        Every grade of an item counts, whoever wrote it (another campaign, an import). NaN marks
        a statistic that is undefined (no data, or one category only).
        """
        now = now or models.utcnow()
        ci, j, st, le = (
            models.campaign_items,
            models.judgments,
            models.campaign_states,
            models.campaign_leases,
        )
        q, a, ca = models.queries, models.annotators, models.campaign_annotators
        with self.db.transaction() as session:
            row = self._campaign_row(session, name)
            info = self._info(session, row)
            people = session.execute(
                select(a.c.id, a.c.name)
                .join(ca, ca.c.annotator_id == a.c.id)
                .where(ca.c.campaign_id == row.id)
                .order_by(a.c.name)
            ).all()
            judged = session.execute(
                select(
                    ci.c.query_id, ci.c.document_id, ci.c.gold_grade, j.c.annotator_id, j.c.grade
                )
                .select_from(ci)
                .join(j, and_(j.c.query_id == ci.c.query_id, j.c.document_id == ci.c.document_id))
                .where(ci.c.campaign_id == row.id)
            ).all()
            states = session.execute(
                select(
                    st.c.query_id,
                    st.c.document_id,
                    st.c.annotator_id,
                    st.c.state,
                    st.c.seconds,
                    st.c.reason,
                ).where(st.c.campaign_id == row.id)
            ).all()
            leases = session.execute(
                select(le.c.query_id, le.c.document_id, le.c.annotator_id).where(
                    le.c.campaign_id == row.id, le.c.expires_at > now
                )
            ).all()
            items = session.execute(
                select(ci.c.query_id, ci.c.document_id, q.c.external_id)
                .join(q, q.c.id == ci.c.query_id)
                .where(ci.c.campaign_id == row.id, ci.c.gold_grade.is_(None))
            ).all()
            names = dict(session.execute(select(a.c.id, a.c.name)).all())
            docs = {
                i: e
                for i, e in session.execute(
                    select(models.documents.c.id, models.documents.c.external_id).where(
                        models.documents.c.id.in_({s.document_id for s in states} or {-1})
                    )
                ).all()
            }
            qnames = {i: e for i, e in session.execute(select(q.c.id, q.c.external_id)).all()}
        # per-query progress
        count: dict[tuple[int, int], int] = {}
        for r in judged:
            if r.gold_grade is None:
                count[(r.query_id, r.document_id)] = count.get((r.query_id, r.document_id), 0) + 1
        per_query: dict[str, list[int]] = {}
        for qi, di, qe in items:
            entry = per_query.setdefault(qe, [0, 0])
            entry[1] += 1
            entry[0] += int(count.get((qi, di), 0) >= row.overlap)
        queries = [QueryStatus(qe, c, t) for qe, (c, t) in sorted(per_query.items())]
        # agreement data: non-gold items, dense codes
        regular = [r for r in judged if r.gold_grade is None]
        item_code: dict[tuple[int, int], int] = {}
        for r in regular:
            item_code.setdefault((r.query_id, r.document_id), len(item_code))
        it = np.array([item_code[(r.query_id, r.document_id)] for r in regular], dtype=np.int64)
        an = np.array([r.annotator_id for r in regular], dtype=np.int64)
        gr = np.maximum(np.array([r.grade for r in regular], dtype=np.int64), 0)
        rows: list[AnnotatorStatus] = []
        for person_id, person in people:
            mine = [r for r in judged if r.annotator_id == person_id]
            my_states = [s for s in states if s.annotator_id == person_id]
            touched = {(r.query_id, r.document_id) for r in mine}
            touched |= {(s.query_id, s.document_id) for s in my_states}
            touched |= {(x.query_id, x.document_id) for x in leases if x.annotator_id == person_id}
            seconds = [
                s.seconds for s in my_states if s.state == "graded" and s.seconds is not None
            ]
            distribution = np.bincount(
                np.maximum(np.array([r.grade for r in mine], dtype=np.int64), 0), minlength=5
            )[:5]
            own, consensus = (
                others_consensus(it, an, gr, person_id)
                if it.size
                else (np.zeros(0, np.int64), np.zeros(0, np.int64))
            )
            others = an != person_id
            ratings = Ratings.from_arrays(it[others], an[others], gr[others].astype(np.float64))
            alpha_value = (
                alpha(ratings, "ordinal", values=np.array(GRADES, dtype=np.float64)).value
                if others.any()
                else float("nan")
            )
            gold = [(r.grade, r.gold_grade) for r in mine if r.gold_grade is not None]
            accuracy = gold_accuracy([g for g, _ in gold], [k for _, k in gold])
            rows.append(
                AnnotatorStatus(
                    annotator=person,
                    assigned=len(touched),
                    done=len(mine),
                    cant_judge=sum(s.state == "cant_judge" for s in my_states),
                    later=sum(s.state == "later" for s in my_states),
                    median_seconds=statistics.median(seconds) if seconds else float("nan"),
                    leniency=float(np.mean(own - consensus)) if own.size else float("nan"),
                    kappa_vs_others=weighted_kappa(own, consensus, GRADES, "quadratic"),
                    alpha_without=float(alpha_value),
                    gold_exact=accuracy.exact,
                    gold_within_one=accuracy.within_one,
                    gold_n=accuracy.n,
                    grades=tuple(int(x) for x in distribution),
                    gold_warning=accuracy.n > 0 and accuracy.exact < row.gold_threshold,
                )
            )
        marks = [
            MarkedItem(
                names[s.annotator_id], qnames[s.query_id], docs[s.document_id], s.state, s.reason
            )
            for s in states
            if s.state != "graded"
        ]
        return CampaignStatus(info, rows, queries, marks)
