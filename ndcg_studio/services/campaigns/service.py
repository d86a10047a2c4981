"""Judging campaigns: who judges which pooled items, how many times, with gold items mixed in.

A **campaign** (tables of migrations 0006 and 0007) fixes at creation its *items*: the depth-``D``
pool of its runs over its queries (every query of the runs, a list, or a seeded random sample),
plus the *gold* items (query, document, known grade). Each non-gold item needs ``overlap`` = N
grades. Grades live in ``judgments`` like every other grade (written by
:meth:`AnnotationService.set_grade` with a :class:`CampaignGrade`, the app's one writer of
judgments), so a grade given in one campaign, in plain Annotate or by ``import judgments``
counts in every campaign that pools the item.

**The queue** (:meth:`CampaignService.queue`) of an annotator, in one transaction under the
campaign's lock (PostgreSQL: an advisory lock; SQLite: the write lock, taken first): the items the
annotator still holds, then the items that still need grades in the order of the campaign's *pool
strategy*, items the annotator put off ("later") last; never an item the annotator graded or could
not judge, never one whose grades plus other annotators' live holds reach N. Under the ``depth``
strategy (the default) the order is fewest (grades + others' live holds) first, ties in the
campaign's seeded shuffle order; under ``mtf``, ``bandit`` and ``ab`` it is the strategy's order
over the items that still need grades, as the grades known at each call would give it
(:mod:`ndcg_studio.services.campaigns.order` keeps it between calls and replays only what changed);
under ``ppi`` (active human sampling: only the queries drawn at creation,
:mod:`~ndcg_studio.services.campaigns.setup`) it is query by query, the drawn queries by decreasing
inclusion probability, each query's items in the seeded shuffle order, so a query's pool is judged
to N before the next query's items are offered
(:func:`~ndcg_studio.storage.campaigns.queue.query_by_query`). Gold items the annotator has not
judged are mixed in at the campaign's gold rate, at positions drawn from a seeded generator, and
look like any other item. Every offered item is *held* (a lease until ``now + hold``); an expired
lease is free, and :meth:`~CampaignService.release` frees an annotator's leases (the app does on
closing). A grade of an item that others already graded N times is refused (:class:`ItemComplete`),
so even a lease that expired under a slow annotator cannot produce an N+1-th grade; the campaign
grades of one item are serialised across every campaign that pools it
(:func:`~ndcg_studio.storage.judgments.locks.lock_pooled_item`), so two campaigns cannot either. The
annotator's own grade ends their hold, whether given here or imported.

**Can't judge / later** are item *states* (``campaign_states``), not grades: scoring and
agreement read only ``judgments``, so they never enter scores or agreement.

The SQL is in :mod:`ndcg_studio.storage.campaigns.records`,
:mod:`~ndcg_studio.storage.campaigns.queue`
and :mod:`~ndcg_studio.storage.campaigns.reads`; the dashboard's statistics in
:mod:`ndcg_studio.services.campaigns.status`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.campaigns.order import strategy_items
from ndcg_studio.services.campaigns.setup import campaign_items, validate
from ndcg_studio.services.campaigns.status import dashboard, draw_progress
from ndcg_studio.services.campaigns.types import (
    DEFAULT_HOLD_SECONDS,
    CampaignInfo,
    CampaignSpec,
    CampaignStatus,
    GradeRow,
    MarkState,
    OwnProgress,
    QueueItem,
)
from ndcg_studio.services.estimation.service import machine_values
from ndcg_studio.storage.campaigns import queue as cq
from ndcg_studio.storage.campaigns import reads as cr
from ndcg_studio.storage.campaigns import records as cs
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judgments.items import CampaignGrade, GradeChange
from ndcg_studio.storage.judgments.locks import lock_campaign
from ndcg_studio.storage.resilience import refusal_of

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["CampaignService"]

T = TypeVar("T")


def _refused(db: Database, exc: Exception) -> Exception | None:
    """The :class:`WriteRefused` a driver error means (team mode), else None."""
    return refusal_of(exc, db.label)


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
                query list, an empty pool, an unknown strategy, ``ab`` or ``ppi`` without a
                pair of two of the runs and K ≥ 1 (or a pair / K with another strategy), ``ppi``
                without a machine source, or a ``ppi`` draw of no query.
            LookupError, InputError: ``ppi``: an unknown machine source, or not a machine's.
            WriteRefused: team mode, the login may not create campaigns.
        """
        name, people = validate(spec)
        weight = self._ppi_weight(spec)
        try:
            with self.db.transaction() as session:
                self._create(session, spec, name, people, weight)
        except Exception as exc:
            refusal = _refused(self.db, exc)
            if refusal is not None:
                raise refusal from exc
            raise
        return self.get(name)

    def _create(
        self,
        session: Session,
        spec: CampaignSpec,
        name: str,
        people: list[str],
        weight: dict[str, float] | None,
    ) -> None:
        if cs.campaign_exists(session, name):
            raise ValueError(f"a campaign called {name!r} exists already")
        run_ids = cs.run_ids(session, spec.runs)
        missing = [n for n in spec.runs if n not in run_ids]
        if missing:
            raise ValueError(f"no run called {missing[0]!r} in the database")
        items, draw = campaign_items(session, spec, run_ids, weight)
        sides = dict(zip(spec.pair, ("a", "b"), strict=True)) if spec.pair else {}
        values = {
            "name": name,
            "guidelines": spec.guidelines,
            "pool_depth": spec.depth,
            "pool_strategy": spec.strategy,
            "pool_k": spec.k,
            "overlap": spec.overlap,
            "gold_rate": spec.gold_rate,
            "gold_threshold": spec.gold_threshold,
            "query_sample": spec.sample,
            "seed": spec.seed,
        }
        campaign = cs.insert_campaign(
            session,
            values,
            {i: sides.get(n) for n, i in run_ids.items()},
            cs.ensure_annotators(session, people),
            items,
        )
        cs.insert_campaign_queries(session, campaign, draw)

    def _ppi_weight(self, spec: CampaignSpec) -> dict[str, float] | None:
        """Under ``ppi``, each query's |nDCG@K(A) − nDCG@K(B)| under the machine source's
        grades, by external id (:mod:`~ndcg_studio.services.campaigns.setup`); else None."""
        if spec.strategy != "ppi" or spec.machine is None or spec.pair is None or not spec.k:
            return None
        queries, values = machine_values(self.db, spec.machine, spec.k, spec.pair)
        return dict(zip(queries, np.abs(values[0] - values[1]).tolist(), strict=True))

    def get(self, name: str) -> CampaignInfo:
        """The campaign called ``name``.

        Raises:
            LookupError: no such campaign.
        """
        with self.db.transaction() as session:
            return self._info(session, cs.campaign_row(session, name))

    @staticmethod
    def _info(session: Session, row: Any) -> CampaignInfo:
        runs = cs.campaign_runs(session, row.id)
        side = {s: n for n, _i, s in runs if s is not None}
        items, gold, complete = cs.campaign_counts(session, row.id, row.overlap)
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
            runs=tuple(n for n, _i, _s in runs),
            annotators=tuple(n for _i, n in cs.campaign_annotators(session, row.id)),
            items=items,
            gold=gold,
            complete=complete,
            strategy=row.pool_strategy,
            pair=(side["a"], side["b"]) if "a" in side and "b" in side else None,
            k=row.pool_k,
        )

    def all(self) -> list[CampaignInfo]:
        """Every campaign, by name."""
        with self.db.transaction() as session:
            return [self._info(session, row) for row in cs.campaign_rows(session)]

    def close(self, name: str) -> CampaignInfo:
        """Close a campaign: its queue offers nothing more and its leases are released.

        Raises:
            LookupError: no such campaign.
        """
        with self.db.transaction() as session:
            cs.close_campaign(session, cs.campaign_row(session, name).id)
        return self.get(name)

    def run_names(self) -> list[str]:
        """Every run's name, sorted (the runs a campaign may pool)."""
        with self.db.transaction() as session:
            return cs.run_names(session)

    def open_for(self, annotator_id: int) -> list[str]:
        """The names of the open campaigns ``annotator_id`` takes part in, by name."""
        with self.db.transaction() as session:
            return cs.open_campaigns_of(session, annotator_id)

    def topic(self, query_id: int) -> tuple[str, str | None, str | None]:
        """A query's external id, description and narrative (None when the topics file had
        none), shown beside the guidelines.

        Raises:
            LookupError: no such query.
        """
        return self._found(
            lambda session: cs.topic(session, query_id), f"no query with id {query_id}"
        )

    def campaign_id(self, name: str) -> int:
        """The id of the campaign called ``name`` (one index look-up).

        Raises:
            LookupError: no such campaign.
        """
        return self._found(
            lambda session: cs.campaign_id(session, name), f"no campaign called {name!r}"
        )

    def _found(self, read: Callable[[Session], T | None], missing: str) -> T:
        """What ``read`` finds, in one transaction.

        Raises:
            LookupError: ``missing``, when ``read`` finds nothing (None).
        """
        with self.db.transaction() as session:
            found = read(session)
        if found is None:
            raise LookupError(missing)
        return found

    # ------------------------------------------------------------------ judging
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
        now = now or datetime.now(UTC)
        try:
            with self.db.transaction() as session:
                cs.take_write_lock(session)
                row = cs.campaign_row(session, name)
                if row.status != "open":
                    raise ValueError(f"campaign {name!r} is closed")
                if not cs.is_member(session, row.id, annotator_id):
                    raise ValueError("this annotator does not take part in the campaign")
                lock_campaign(session, row.id)
                picked = self._pick(session, row, annotator_id, limit, now)
                until = now + timedelta(seconds=hold_seconds)
                cq.hold(session, row.id, annotator_id, picked, until)
                queries, documents = cq.external_ids(session, picked)
        except Exception as exc:
            refusal = _refused(self.db, exc)
            if refusal is not None:
                raise refusal from exc
            raise
        return [QueueItem(q, d, queries[q], documents[d]) for q, d in picked]

    def _pick(
        self, session: Session, row: Any, annotator_id: int, limit: int, now: datetime
    ) -> list[tuple[int, int]]:
        """The annotator's live holds, then regular items in the strategy's order with gold
        items mixed in at the gold rate (see the module docstring)."""
        picked = cq.own_holds(session, row.id, row.overlap, annotator_id, now)[:limit]
        need = limit - len(picked)
        if need <= 0:
            return picked
        if row.pool_strategy == "depth":
            regular = cq.fewest_grades_first(session, row.id, row.overlap, annotator_id, now, need)
        elif row.pool_strategy == "ppi":
            regular = cq.query_by_query(session, row.id, row.overlap, annotator_id, now, need)
        else:
            regular = strategy_items(session, row, annotator_id, now, need)
        gold: list[tuple[int, int]] = []
        if row.gold_rate > 0:
            gold = cq.gold_candidates(session, row.id, annotator_id, now, need)
        # Gold positions: a generator seeded by the campaign, the annotator and how much the
        # annotator has done, so a position cannot be told from the outside and repeats exactly.
        done = cq.marks_count(session, row.id, annotator_id)
        rng = random.Random(f"{row.seed}:{row.id}:{annotator_id}:{done}")
        out: list[tuple[int, int]] = []
        while len(out) < need and (regular or gold):
            take_gold = gold and (not regular or rng.random() < row.gold_rate)
            out.append(gold.pop(0) if take_gold else regular.pop(0))
        return picked + out

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
        try:
            with self.db.transaction() as session:
                campaign = cs.campaign_row(session, name).id
                if not cq.is_item(session, campaign, query_id, document_id):
                    raise LookupError("not an item of this campaign")
                if cq.has_judgment(session, query_id, document_id, annotator_id):
                    raise ValueError("the document is graded: clear the grade first")
                key = {
                    "campaign_id": campaign,
                    "query_id": query_id,
                    "document_id": document_id,
                    "annotator_id": annotator_id,
                }
                cq.set_mark(session, key, state, (reason or "").strip() or None)
        except Exception as exc:
            refusal = _refused(self.db, exc)
            if refusal is not None:
                raise refusal from exc
            raise

    def release(self, annotator_id: int, name: str | None = None) -> int:
        """Free ``annotator_id``'s holds (in campaign ``name``, else in every campaign); returns
        how many were released. The app calls it on closing."""
        with self.db.transaction() as session:
            campaign = None if name is None else cs.campaign_row(session, name).id
            return cq.release(session, annotator_id, campaign)

    def own_progress(self, name: str, annotator_id: int) -> OwnProgress:
        """``annotator_id``'s progress in the campaign (counts only: Annotate stays blind)."""
        with self.db.transaction() as session:
            info = self._info(session, cs.campaign_row(session, name))
            done, states = cr.own_counts(session, info.id, annotator_id)
        return OwnProgress(
            done=done,
            cant_judge=states.get("cant_judge", 0),
            later=states.get("later", 0),
            complete=info.complete,
            total=info.items,
        )

    # ------------------------------------------------------------------ the lead's view
    def grades(self, name: str) -> list[GradeRow]:
        """Every grade of the campaign's items (any route) with its state, explanation (the
        note), seconds, and every "can't judge"/"later" mark: for exports."""
        with self.db.transaction() as session:
            row = cs.campaign_row(session, name)
            graded = cr.graded_rows(session, row.id)
            marked = cr.marked_rows(session, row.id)
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
        Under the ``ppi`` order, ``draw``: the drawn queries' progress
        (:func:`~ndcg_studio.services.campaigns.status.draw_progress`); else None.
        Every grade of an item counts, whoever wrote it (another campaign, an import). NaN marks
        a statistic that is undefined (no data, or one category only).

        Raises:
            WriteRefused: team mode, an annotator login (blind to the others' grades and the
                gold answers: the dashboard is a lead's).
        """
        now = now or datetime.now(UTC)
        try:
            with self.db.transaction() as session:
                row = cs.campaign_row(session, name)
                info = self._info(session, row)
                people = cs.campaign_annotators(session, row.id)
                rows = cr.dashboard_rows(session, row.id, now)
                draw = None
                if row.pool_strategy == "ppi":
                    draw = draw_progress(
                        cs.campaign_queries(session, row.id),
                        cs.item_progress_of(session, row.id),
                        row.overlap,
                    )
        except Exception as exc:
            refusal = _refused(self.db, exc)
            if refusal is not None:
                raise refusal from exc
            raise
        return dashboard(info, people, rows, row.gold_threshold, draw)
