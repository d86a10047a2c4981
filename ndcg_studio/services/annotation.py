"""Annotation use cases: annotators, the blind judging pool of a query, grades, notes, history.

Every public method runs in ONE short transaction of its own (one session per call) and returns
plain frozen dataclasses (DTOs), never live ORM objects, so the results can cross threads (the GUI
loads them in a worker) and outlive the session.

**The pool** of a query is the union of every run's top ``D`` documents
(``results.position <= D``, the place in trec_eval's order; ``D`` is the *pool depth*, default
10), de-duplicated: the classic TREC depth-``D`` pool (Voorhees & Harman, *TREC: Experiment and
Evaluation in Information Retrieval*, MIT Press 2005, ch. 2). Its order is a stable pseudo-random
shuffle: documents are sorted by the BLAKE2b-64 hash of ``"<query external id>\\x1f<document
external id>"`` (UTF-8), so every machine shows the same order every time and no run order or
rank leaks into it. Pools are *blind*: :class:`PoolItem` carries no run name, rank, score or other
annotator's grade, only the asking annotator's own grade and note.

**Writes** (:meth:`AnnotationService.set_grade`, :meth:`~AnnotationService.set_note`,
:meth:`~AnnotationService.set_adjudication`) read the old value and write the new one in the same
transaction, with the item locked first. The history is written by the database (triggers of
migration 0004, the same for the app, imports and plain SQL): one ``judgment_history`` row for
every change of a grade or a note (creation and clearing included); a write that changes nothing
writes nothing and records nothing. Each item's history, in id order, is one unbroken chain where
every ``old_grade`` is the previous ``new_grade``.

**Retries are idempotent**: every write carries a client-generated ``write_id`` (a UUID), kept
when :func:`~ndcg_studio.storage.resilience.retrying` runs it again after a lost connection. The
trigger stores it with the history row (unique there); a retry whose first attempt committed
although its acknowledgement was lost finds that row and returns the change it recorded, so the
grade is recorded once and the caller's undo restores the value from before the first attempt.

Locking, so that two processes grading the same item never lose an update:

- PostgreSQL: a transaction-scoped advisory lock on the item (``pg_advisory_xact_lock`` of a
  BLAKE2b hash of the item's key) serialises every writer of that item, including a writer that
  finds no row yet (a row lock cannot lock a row that does not exist); then ``SELECT … FOR UPDATE``
  and ``INSERT … ON CONFLICT DO NOTHING`` (retried as an update if another writer inserted the row
  first), which also protect against writers that do not take the advisory lock.
- SQLite: the transaction starts with a no-op write, which takes the database's write lock
  (waiting up to the busy timeout) before anything is read; a deferred SQLite transaction that
  reads first would fail with ``SQLITE_BUSY`` or read a stale value when another process writes
  in between.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Final, Literal

from sqlalchemy import (
    ColumnElement,
    Table,
    and_,
    delete,
    func,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from ndcg_studio.services.pool_order import PoolOrder, ab_order
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.resilience import refusal_of, retrying

DEFAULT_POOL_DEPTH: Final = 10
#: How often a write is retried when another writer inserted the same row between our locking
#: read and our insert (PostgreSQL only; each retry then finds the row and updates it).
_MAX_UPSERT_ATTEMPTS: Final = 5


class Keep(Enum):
    """The type of :data:`KEEP`."""

    KEEP = "keep"


#: Sentinel for the ``note`` argument of the write methods: keep the stored note unchanged.
KEEP: Final = Keep.KEEP

HistoryKind = Literal["judgment", "adjudication"]


@dataclass(frozen=True, slots=True)
class CampaignGrade:
    """A grade given in a judging campaign: which campaign, and the seconds from showing the
    document to the grade (None: not timed). See :mod:`ndcg_studio.services.campaigns`."""

    campaign_id: int
    seconds: float | None = None


class ItemComplete(Exception):
    """A campaign item already has its N grades from other annotators: this grade is not needed
    (nothing was written); take the next item of the queue."""


@dataclass(frozen=True, slots=True)
class AnnotatorInfo:
    """An annotator: database id and unique name."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class QueryProgress:
    """One query with one annotator's progress on its pool.

    ``pool_size`` is the number of distinct documents in the query's depth-``D`` pool;
    ``judged`` is how many of those the annotator has graded (0 ≤ judged ≤ pool_size; grades of
    documents outside the pool, e.g. from imported qrels, are not counted).
    """

    query_id: int
    external_id: str
    text: str
    pool_size: int
    judged: int

    @property
    def complete(self) -> bool:
        """True when every pooled document is judged (False for an empty pool)."""
        return self.pool_size > 0 and self.judged >= self.pool_size


@dataclass(frozen=True, slots=True)
class PoolItem:
    """One pooled document as shown to an annotator: blind (no run, rank, score or others' grades).

    ``grade`` (0–4) and ``note`` are the asking annotator's own, None when not judged.
    """

    document_id: int
    external_id: str
    title: str
    text: str
    url: str
    grade: int | None
    note: str | None


@dataclass(frozen=True, slots=True)
class GradeChange:
    """What one write did: the value before and after, so the caller can build the inverse (undo).

    ``kind`` is ``"judgment"`` (``annotator_id`` is whose judgment) or ``"adjudication"``
    (``annotator_id`` is None). ``old_grade`` None: there was no grade; ``new_grade`` None: the
    grade is cleared (the row deleted). ``changed_by`` is the annotator who made the change;
    ``changed_at`` is UTC.
    """

    kind: HistoryKind
    query_id: int
    document_id: int
    annotator_id: int | None
    changed_by: int
    old_grade: int | None
    new_grade: int | None
    old_note: str | None
    new_note: str | None
    changed_at: datetime

    @property
    def changed(self) -> bool:
        """False when the write left grade and note as they were."""
        return self.old_grade != self.new_grade or self.old_note != self.new_note


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One row of ``judgment_history`` (see :class:`GradeChange` for the fields)."""

    id: int
    kind: HistoryKind
    query_id: int
    document_id: int
    annotator_id: int | None
    changed_by: int | None
    old_grade: int | None
    new_grade: int | None
    old_note: str | None
    new_note: str | None
    changed_at: datetime


@dataclass(frozen=True, slots=True)
class DatabaseCounts:
    """How many queries, documents, runs, annotators and judgments a database holds."""

    queries: int
    documents: int
    runs: int
    annotators: int
    judgments: int


@dataclass(frozen=True, slots=True)
class ChangeMarker:
    """Where the database's judgment data stands: the highest id of the judgments, of the
    history (every created, changed or cleared grade or note appends one row, by any route), of
    the adjudications and of the runs. Any write of judgments or runs moves it forward; reading it
    costs four index look-ups."""

    judgment: int
    history: int
    adjudication: int
    run: int


@dataclass(frozen=True, slots=True)
class TeamMember:
    """One annotator's progress: how many judgments they hold and when they last changed one."""

    name: str
    judged: int
    last_change: datetime | None


def pool_order_key(query_external_id: str, document_external_id: str) -> bytes:
    """The sort key of a document in a query's pool: BLAKE2b with an 8-byte digest of
    ``"<query external id>\\x1f<document external id>"`` encoded as UTF-8.

    Deterministic across processes and machines (unlike Python's salted ``hash``), independent of
    run order and ranks. Ties (a 2⁻⁶⁴ chance) are broken by the document's external id.
    """
    data = f"{query_external_id}\x1f{document_external_id}".encode()
    return hashlib.blake2b(data, digest_size=8).digest()


def validate_grade(grade: int | None) -> int | None:
    """Return ``grade`` if it is None or an int in 0–4.

    Raises:
        ValueError: anything else (a bool, a float, 5, -1, …).
    """
    if grade is None:
        return None
    if isinstance(grade, bool) or not isinstance(grade, int):
        raise ValueError(f"a grade is an integer 0–4 or None, not {grade!r}")
    if not models.MIN_GRADE <= grade <= models.MAX_GRADE:
        raise ValueError(f"grade {grade} is outside {models.MIN_GRADE}–{models.MAX_GRADE}")
    return grade


def _validate_depth(pool_depth: int) -> int:
    if isinstance(pool_depth, bool) or not isinstance(pool_depth, int) or pool_depth < 1:
        raise ValueError(f"the pool depth is an integer ≥ 1, not {pool_depth!r}")
    return pool_depth


def _clean_note(note: str | None) -> str | None:
    if note is None:
        return None
    note = note.strip()
    return note or None


def _item_lock_key(kind: str, key: dict[str, int]) -> int:
    """A signed 64-bit advisory-lock key for one item (BLAKE2b-64 of its kind and key)."""
    data = f"ndcg-studio:{kind}:" + ",".join(f"{k}={v}" for k, v in sorted(key.items()))
    digest = hashlib.blake2b(data.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


_FK_HINT = re.compile(r"foreign key", re.IGNORECASE)


class AnnotationService:
    """Annotators, pools, grades, notes and their history on one :class:`Database`.

    Thread-safe: holds no session; every call opens and closes its own.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ annotators
    def ensure_annotator(self, name: str) -> AnnotatorInfo:
        """The annotator called ``name`` (surrounding blanks stripped), created if missing.

        Race-safe: ``INSERT … ON CONFLICT (name) DO NOTHING`` then a select, so two processes
        creating the same name at once both get the same row. An existing name is only read (an
        annotator login of a team database may read annotators, not create them).

        Raises:
            ValueError: the name is empty or longer than 200 characters.
            WriteRefused: team mode, the name does not exist and the login may not create it.
        """
        name = name.strip()
        if not name:
            raise ValueError("an annotator needs a name")
        if len(name) > 200:
            raise ValueError("an annotator's name has at most 200 characters")
        table = models.annotators
        find = select(table.c.id, table.c.name).where(table.c.name == name)
        try:
            with self.db.transaction() as session:
                row = session.execute(find).one_or_none()
                if row is None:
                    stmt = self._insert(session, table).values(
                        name=name, created_at=models.utcnow()
                    )
                    session.execute(stmt.on_conflict_do_nothing(index_elements=[table.c.name]))
                    row = session.execute(find).one()
        except DBAPIError as exc:
            refusal = refusal_of(exc, self.db.label)
            if refusal is not None:
                raise refusal from exc
            raise
        return AnnotatorInfo(id=row.id, name=row.name)

    def list_annotators(self) -> list[AnnotatorInfo]:
        """Every annotator, by name."""
        table = models.annotators
        with self.db.transaction() as session:
            rows = session.execute(select(table.c.id, table.c.name).order_by(table.c.name)).all()
        return [AnnotatorInfo(id=r.id, name=r.name) for r in rows]

    # ------------------------------------------------------------------ reading
    def counts(self) -> DatabaseCounts:
        """Row counts of the main tables (one statement; for the status bar)."""
        tables = (
            models.queries,
            models.documents,
            models.runs,
            models.annotators,
            models.judgments,
        )
        stmt = select(*(select(func.count()).select_from(t).scalar_subquery() for t in tables))
        with self.db.transaction() as session:
            row = session.execute(stmt).one()
        return DatabaseCounts(*(int(v) for v in row))

    def change_marker(self) -> ChangeMarker:
        """The current :class:`ChangeMarker` (cheap: poll it to notice other people's work)."""
        tables = (models.judgments, models.judgment_history, models.adjudications, models.runs)
        stmt = select(
            *(select(func.coalesce(func.max(t.c.id), 0)).scalar_subquery() for t in tables)
        )
        with self.db.engine.connect() as conn:
            row = conn.execute(stmt).one()
        return ChangeMarker(*(int(v) for v in row))

    def changed_by_others(self, since: ChangeMarker, annotator_id: int | None) -> bool:
        """Whether anyone but ``annotator_id`` wrote judgments, adjudications or runs after
        ``since`` (a marker taken earlier): what makes another person's work worth reloading."""
        j, h = models.judgments, models.judgment_history
        judgments = select(func.count()).where(j.c.id > since.judgment)
        history = select(func.count()).where(h.c.id > since.history)
        if annotator_id is not None:
            judgments = judgments.where(j.c.annotator_id != annotator_id)
            history = history.where(func.coalesce(h.c.changed_by, -1) != annotator_id)
        runs = select(func.count()).where(models.runs.c.id > since.run)
        stmt = select(
            judgments.scalar_subquery(), history.scalar_subquery(), runs.scalar_subquery()
        )
        with self.db.engine.connect() as conn:
            row = conn.execute(stmt).one()
        return any(int(v) for v in row)

    def team_progress(self) -> list[TeamMember]:
        """Every annotator with their number of judgments and the time of their last change
        (from the history; None when all their judgments came from imports), most judged first.
        Counts only: no grades, so annotating stays blind."""
        a, j, h = models.annotators, models.judgments, models.judgment_history
        judged = (
            select(j.c.annotator_id, func.count().label("n")).group_by(j.c.annotator_id).subquery()
        )
        last = (
            select(h.c.changed_by, func.max(h.c.changed_at).label("at"))
            .where(h.c.kind == "judgment")
            .group_by(h.c.changed_by)
            .subquery()
        )
        stmt = (
            select(a.c.name, func.coalesce(judged.c.n, 0), last.c.at)
            .select_from(a)
            .outerjoin(judged, judged.c.annotator_id == a.c.id)
            .outerjoin(last, last.c.changed_by == a.c.id)
        )
        with self.db.engine.connect() as conn:
            rows = conn.execute(stmt).all()
        members = [TeamMember(str(n), int(c), _aware(at)) for n, c, at in rows]
        return sorted(members, key=lambda m: (-m.judged, m.name))

    @staticmethod
    def _pool_subquery(pool_depth: int, query_id: int | None = None) -> Any:
        r = models.results
        stmt = select(r.c.query_id, r.c.document_id).where(r.c.position <= pool_depth)
        if query_id is not None:
            stmt = stmt.where(r.c.query_id == query_id)
        return stmt.group_by(r.c.query_id, r.c.document_id).subquery("pool")

    def query_progress(
        self, annotator_id: int | None, pool_depth: int = DEFAULT_POOL_DEPTH
    ) -> list[QueryProgress]:
        """Every query (by id) with its pool size and how much of it ``annotator_id`` has judged.

        Two ``GROUP BY`` statements: the queries left-joined with their pool sizes
        (``COUNT(DISTINCT document_id)`` of the results with ``position <= D``), and the
        annotator's judgments per query whose document is in the pool (an ``EXISTS`` probe on the
        results' primary key). ``annotator_id`` None gives ``judged = 0`` (one statement).
        About 1.3 s for 100,000 queries with 2,000,000 results and 1,000,000 judgments on SQLite
        (``benchmarks/bench_annotation.py``): call it off the GUI thread.

        Raises:
            ValueError: ``pool_depth`` < 1.
        """
        _validate_depth(pool_depth)
        q, r, j, runs = models.queries, models.results, models.judgments, models.runs
        sizes = (
            select(r.c.query_id, func.count(r.c.document_id.distinct()).label("n"))
            .where(r.c.position <= pool_depth)
            .group_by(r.c.query_id)
            .subquery("sizes")
        )
        queries_stmt = (
            select(q.c.id, q.c.external_id, q.c.text, func.coalesce(sizes.c.n, 0))
            .outerjoin(sizes, sizes.c.query_id == q.c.id)
            .order_by(q.c.id)
        )
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
        judged_stmt = (
            select(j.c.query_id, func.count())
            .where(j.c.annotator_id == annotator_id, in_pool)
            .group_by(j.c.query_id)
        )
        with self.db.transaction() as session:
            rows = session.execute(queries_stmt).all()
            judged: dict[int, int] = (
                {}
                if annotator_id is None
                else {qid: int(n) for qid, n in session.execute(judged_stmt)}
            )
        return [
            QueryProgress(
                query_id=qid,
                external_id=ext,
                text=qtext or "",
                pool_size=int(size),
                judged=judged.get(qid, 0),
            )
            for qid, ext, qtext, size in rows
        ]

    def pool(
        self,
        query_id: int,
        annotator_id: int | None,
        pool_depth: int = DEFAULT_POOL_DEPTH,
        order: PoolOrder | None = None,
    ) -> list[PoolItem]:
        """The blind pool of one query in its stable shuffled order (see the module docstring),
        with ``annotator_id``'s own grade and note (None when unjudged or no annotator).
        ``order``: judge first what decides two runs (:func:`~.pool_order.ab_order`; ties
        keep the shuffled order).

        Raises:
            LookupError: no query with this id.
            ValueError: ``pool_depth`` < 1.
        """
        _validate_depth(pool_depth)
        q, d, j = models.queries, models.documents, models.judgments
        pool = self._pool_subquery(pool_depth, query_id)
        join_on = and_(
            j.c.query_id == query_id,
            j.c.document_id == d.c.id,
            j.c.annotator_id == (annotator_id if annotator_id is not None else -1),
        )
        stmt = select(
            d.c.id, d.c.external_id, d.c.title, d.c.text, d.c.url, j.c.grade, j.c.note
        ).select_from(pool.join(d, d.c.id == pool.c.document_id).outerjoin(j, join_on))
        with self.db.transaction() as session:
            query_ext = session.execute(
                select(q.c.external_id).where(q.c.id == query_id)
            ).scalar_one_or_none()
            if query_ext is None:
                raise LookupError(f"no query with id {query_id}")
            rows = session.execute(stmt).all()
        items = [
            PoolItem(
                document_id=r.id,
                external_id=r.external_id,
                title=r.title or "",
                text=r.text or "",
                url=r.url or "",
                grade=r.grade,
                note=r.note,
            )
            for r in rows
        ]
        items.sort(key=lambda it: (pool_order_key(query_ext, it.external_id), it.external_id))
        if order is not None:
            items = ab_order(self.db, query_id, items, order)
        return items

    def history(self, query_id: int, document_id: int) -> list[HistoryEntry]:
        """Every recorded change of the judgments and the adjudication of one (query, document),
        oldest first."""
        h = models.judgment_history
        stmt = (
            select(h)
            .where(h.c.query_id == query_id, h.c.document_id == document_id)
            .order_by(h.c.id)
        )
        with self.db.transaction() as session:
            rows = session.execute(stmt).all()
        return [
            HistoryEntry(
                id=r.id,
                kind=r.kind,
                query_id=r.query_id,
                document_id=r.document_id,
                annotator_id=r.annotator_id,
                changed_by=r.changed_by,
                old_grade=r.old_grade,
                new_grade=r.new_grade,
                old_note=r.old_note,
                new_note=r.new_note,
                changed_at=_utc(r.changed_at),
            )
            for r in rows
        ]

    # ------------------------------------------------------------------ writing
    def set_grade(
        self,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        note: str | Keep | None = KEEP,
        campaign: CampaignGrade | None = None,
    ) -> GradeChange:
        """Set (or with ``grade=None`` clear, deleting the row and its note) ``annotator_id``'s
        grade of ``document_id`` for ``query_id``, in one transaction; the database records the
        change in ``judgment_history`` (nothing when grade and note stay as they were).
        ``note``: :data:`KEEP` (default) keeps the stored note, a string replaces it (blank →
        None), None removes it.

        ``campaign``: the grade is given in a judging campaign. In the same transaction, under
        the campaign's lock: a new grade of a (non-gold) item that already has the campaign's
        N grades from others is refused (:class:`ItemComplete`, nothing written); the item's
        state becomes ``graded`` with the seconds it took, and the annotator's lease on it is
        released. Clearing the grade removes that state.

        Returns the change with the previous grade and note (to build the undo).

        Raises:
            ValueError: grade not None and not an int 0–4; negative seconds.
            LookupError: no such annotator, query or document (or campaign item).
            ItemComplete: see ``campaign``.
            WriteRefused: team mode, the login may not write this annotator's judgments.
        """
        validate_grade(grade)
        if campaign is not None and campaign.seconds is not None and not campaign.seconds >= 0:
            raise ValueError(f"seconds are a number ≥ 0, not {campaign.seconds!r}")
        return self._write(
            kind="judgment",
            key={"query_id": query_id, "document_id": document_id, "annotator_id": annotator_id},
            grade=grade,
            note=note,
            changed_by=annotator_id,
            grade_keep=False,
            campaign=campaign,
        )

    def set_note(
        self, annotator_id: int, query_id: int, document_id: int, note: str | None
    ) -> GradeChange:
        """Replace ``annotator_id``'s note on a judged document (blank or None removes it),
        recorded in the history when it changes.

        Raises:
            LookupError: the document is not graded by this annotator (a note belongs to a
                grade: grade it first).
        """
        return self._write(
            kind="judgment",
            key={"query_id": query_id, "document_id": document_id, "annotator_id": annotator_id},
            grade=None,
            note=note,
            changed_by=annotator_id,
            grade_keep=True,
        )

    def set_adjudication(
        self,
        query_id: int,
        document_id: int,
        grade: int | None,
        by: int,
        note: str | Keep | None = KEEP,
    ) -> GradeChange:
        """Set (None clears) the adjudicated final grade of (query, document) by annotator ``by``.

        Later write wins: each call that changes the grade or the note overwrites the
        adjudication whoever set it, and becomes its adjudicator; every change is recorded in
        the history with ``kind='adjudication'`` so no decision is lost.

        Raises:
            ValueError: grade not None and not an int 0–4.
            LookupError: no such query, document or annotator.
            WriteRefused: team mode, the login is not a lead, or ``by`` is not its annotator.
        """
        validate_grade(grade)
        return self._write(
            kind="adjudication",
            key={"query_id": query_id, "document_id": document_id},
            grade=grade,
            note=note,
            changed_by=by,
            grade_keep=False,
        )

    # ------------------------------------------------------------------ internals
    @staticmethod
    def _insert(session: Session, table: Table) -> Any:
        """The dialect's INSERT (both SQLite's and PostgreSQL's have ``on_conflict_do_*``)."""
        if session.get_bind().dialect.name == "postgresql":
            return postgresql.insert(table)
        return sqlite.insert(table)

    def _write(
        self,
        *,
        kind: HistoryKind,
        key: dict[str, int],
        grade: int | None,
        note: str | Keep | None,
        changed_by: int,
        grade_keep: bool,
        campaign: CampaignGrade | None = None,
    ) -> GradeChange:
        table = models.judgments if kind == "judgment" else models.adjudications
        where = [table.c[name] == value for name, value in key.items()]
        # One id for this write, kept across retries: if the connection drops after the server
        # committed but before we heard so, the retry finds its history row and returns the
        # change it recorded instead of writing (and logging) it a second time.
        write_id = uuid.uuid4().hex

        def unit_of_work() -> GradeChange:
            with self.db.transaction() as session:
                return self._write_locked(
                    session,
                    table=table,
                    where=where,
                    kind=kind,
                    key=key,
                    grade=grade,
                    note=note,
                    changed_by=changed_by,
                    grade_keep=grade_keep,
                    write_id=write_id,
                    campaign=campaign,
                )

        try:
            # A write cut by a lost connection (server restart) is retried on a fresh
            # connection; if the server stays away, ConnectionLost says the grade was NOT saved.
            change = retrying(
                unit_of_work,
                label=self.db.label,
                unsaved="your last grade" if kind == "judgment" else "your last decision",
            )
        except IntegrityError as exc:
            if _FK_HINT.search(str(exc.orig)):
                raise LookupError(
                    f"no such annotator, query or document: {key} (by annotator {changed_by})"
                ) from exc
            raise
        except DBAPIError as exc:
            refusal = refusal_of(exc, self.db.label)
            if refusal is not None:
                raise refusal from exc
            raise
        return change

    def _write_locked(
        self,
        session: Session,
        *,
        table: Table,
        where: Sequence[ColumnElement[bool]],
        kind: HistoryKind,
        key: dict[str, int],
        grade: int | None,
        note: str | Keep | None,
        changed_by: int,
        grade_keep: bool,
        write_id: str,
        campaign: CampaignGrade | None = None,
    ) -> GradeChange:
        dialect = session.get_bind().dialect.name
        if dialect == "postgresql":
            session.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _item_lock_key(kind, key)}
            )
            if campaign is not None:
                lock_campaign(session, campaign.campaign_id)
        elif dialect == "sqlite":
            # A no-op write first: takes SQLite's write lock (waiting up to the busy timeout)
            # before we read the old value, so no other process can write in between.
            session.execute(text(f"UPDATE {table.name} SET grade = grade WHERE 1 = 0"))
        h = models.judgment_history
        landed = session.execute(select(h).where(h.c.write_id == write_id)).one_or_none()
        if landed is not None:  # an earlier attempt of this very write committed
            return _change_of(landed)
        now = models.utcnow()
        for _attempt in range(_MAX_UPSERT_ATTEMPTS):
            old = session.execute(
                select(table.c.id, table.c.grade, table.c.note).where(*where).with_for_update()
            ).one_or_none()
            old_grade: int | None = None if old is None else old.grade
            old_note: str | None = None if old is None else old.note
            new_grade = old_grade if grade_keep else grade
            new_note = old_note if isinstance(note, Keep) else _clean_note(note)
            if new_grade is None:
                new_note = None  # clearing a grade deletes the row and its note
            if grade_keep and old is None:
                raise LookupError(
                    "a note belongs to a grade: grade the document before adding a note"
                )
            if campaign is not None and old is None and new_grade is not None:
                _check_campaign_capacity(session, campaign.campaign_id, key)
            if (old_grade, old_note) == (new_grade, new_note):
                break  # nothing changes: nothing is written, nothing recorded
            # The history trigger copies write_id into the history row of this change, and
            # changed_by from the row: the judgment's annotator, the adjudication's adjudicator.
            extra: dict[str, Any] = {"write_id": write_id}
            if kind == "adjudication":
                extra["adjudicator_id"] = changed_by
            if new_grade is None:
                assert old is not None
                # stamp the row with this write (no history: grade and note stay) so that the
                # DELETE's history row carries its id and who cleared it
                session.execute(update(table).where(table.c.id == old.id).values(**extra))
                session.execute(delete(table).where(table.c.id == old.id))
                break
            extra["updated_at"] = now
            if old is not None:
                session.execute(
                    update(table)
                    .where(table.c.id == old.id)
                    .values(grade=new_grade, note=new_note, **extra)
                )
                break
            values: dict[str, Any] = {**key, "grade": new_grade, "note": new_note, **extra}
            if kind == "judgment":
                values["created_at"] = now
            inserted = session.execute(
                self._insert(session, table)
                .values(**values)
                .on_conflict_do_nothing()
                .returning(table.c.id)
            ).scalar_one_or_none()
            if inserted is not None:
                break
            # another writer inserted the row after our locking read: lock it and update it
        else:  # pragma: no cover - needs > 5 concurrent inserts of the very same row
            raise RuntimeError("could not write the grade: too much contention on one item")
        if campaign is not None:
            _record_campaign_grade(session, campaign, key, graded=new_grade is not None)
        recorded = session.execute(select(h).where(h.c.write_id == write_id)).one_or_none()
        if recorded is not None:
            return _change_of(recorded)
        return GradeChange(
            kind=kind,
            query_id=key["query_id"],
            document_id=key["document_id"],
            annotator_id=key.get("annotator_id"),
            changed_by=changed_by,
            old_grade=old_grade,
            new_grade=new_grade,
            old_note=old_note,
            new_note=new_note,
            changed_at=now,
        )


def lock_campaign(session: Session, campaign_id: int) -> None:
    """Serialise the queue reads and campaign grades of one campaign (PostgreSQL: a
    transaction-scoped advisory lock; SQLite: the caller holds the database's write lock)."""
    if session.get_bind().dialect.name == "postgresql":
        key = _item_lock_key("campaign", {"campaign_id": campaign_id})
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _check_campaign_capacity(session: Session, campaign_id: int, key: dict[str, int]) -> None:
    """Refuse a new grade of a campaign item that other annotators already graded N times."""
    c, ci, j = models.campaigns, models.campaign_items, models.judgments
    row = session.execute(
        select(ci.c.gold_grade, c.c.overlap)
        .join(c, c.c.id == ci.c.campaign_id)
        .where(
            ci.c.campaign_id == campaign_id,
            ci.c.query_id == key["query_id"],
            ci.c.document_id == key["document_id"],
        )
    ).one_or_none()
    if row is None:
        raise LookupError(
            f"query {key['query_id']}, document {key['document_id']} is not an item of "
            f"campaign {campaign_id}"
        )
    if row.gold_grade is not None:
        return  # gold items are judged by everyone
    graded = session.execute(
        select(func.count()).where(
            j.c.query_id == key["query_id"],
            j.c.document_id == key["document_id"],
            j.c.annotator_id != key["annotator_id"],
        )
    ).scalar_one()
    if graded >= row.overlap:
        raise ItemComplete(
            f"this document already has its {row.overlap} grade(s) in the campaign: "
            "nothing was written; take the next one"
        )


def _record_campaign_grade(
    session: Session, campaign: CampaignGrade, key: dict[str, int], *, graded: bool
) -> None:
    """The item's campaign state after a grade (``graded`` with its seconds, or none when the
    grade was cleared), and the annotator's lease on it released."""
    st, le = models.campaign_states, models.campaign_leases
    where = dict(campaign_id=campaign.campaign_id, **key)
    session.execute(delete(le).where(*(le.c[k] == v for k, v in where.items())))
    session.execute(delete(st).where(*(st.c[k] == v for k, v in where.items())))
    if graded:
        session.execute(
            st.insert().values(
                **where, state="graded", seconds=campaign.seconds, updated_at=models.utcnow()
            )
        )


def _change_of(row: Any) -> GradeChange:
    """The :class:`GradeChange` a ``judgment_history`` row records."""
    return GradeChange(
        kind=row.kind,
        query_id=row.query_id,
        document_id=row.document_id,
        annotator_id=row.annotator_id,
        changed_by=row.changed_by,
        old_grade=row.old_grade,
        new_grade=row.new_grade,
        old_note=row.old_note,
        new_note=row.new_note,
        changed_at=_utc(row.changed_at),
    )


def _utc(value: datetime) -> datetime:
    """A timestamp as aware UTC: SQLite returns naive UTC, PostgreSQL an aware time in the
    session's ``TimeZone`` (which need not be UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _aware(value: datetime | None) -> datetime | None:
    """Timestamps come back naive (UTC) from SQLite and aware, in the session's time zone, from
    PostgreSQL: make them aware UTC (None stays None)."""
    return None if value is None else _utc(value)
