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
transaction, with the item locked first. The history is written by the database, by the one rule
of :mod:`ndcg_studio.storage.judgments` (the same for the app, imports and plain SQL): a write
that changes nothing writes nothing and records nothing.

**Retries are idempotent**: every write carries a client-generated ``write_id`` (a UUID), kept
when :func:`~ndcg_studio.storage.resilience.retrying` runs it again after a lost connection. The
trigger stores it with the history row (unique there); a retry whose first attempt committed
although its acknowledgement was lost finds that row and returns the change it recorded, so the
grade is recorded once and the caller's undo restores the value from before the first attempt.

The SQL is in storage: the writes in :mod:`ndcg_studio.storage.judgments` (the one writer of
judgments and adjudications, with the history rule and the locking that keeps two processes
grading one item from losing an update), the reads in :mod:`ndcg_studio.storage.queries.pools` and
:mod:`ndcg_studio.storage.queries.activity`.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict
from typing import Final

import numpy as np

from ndcg_studio.services.annotation.pool_order import PoolOrder, ab_order, pool_order_key
from ndcg_studio.services.annotation.types import (
    AnnotatorInfo,
    ChangeMarker,
    DatabaseCounts,
    HistoryEntry,
    PoolItem,
    QueryProgressList,
    TeamMember,
    TeamProgress,
)
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judgments.items import (
    KEEP,
    CampaignGrade,
    GradeChange,
    HistoryKind,
    ItemWrite,
    Keep,
    as_utc,
    ensure_annotator,
    recorded_change,
    write_errors,
    write_item,
)
from ndcg_studio.storage.queries import activity, pools
from ndcg_studio.storage.resilience import retrying
from ndcg_studio.vocabulary import MAX_GRADE, MIN_GRADE

__all__ = ["DEFAULT_POOL_DEPTH", "AnnotationService", "validate_grade"]

DEFAULT_POOL_DEPTH: Final = 10


def validate_grade(grade: int | None) -> int | None:
    """Return ``grade`` if it is None or an int in 0–4.

    Raises:
        ValueError: anything else (a bool, a float, 5, -1, …).
    """
    if grade is None:
        return None
    if isinstance(grade, bool) or not isinstance(grade, int):
        raise ValueError(f"a grade is an integer 0–4 or None, not {grade!r}")
    if not MIN_GRADE <= grade <= MAX_GRADE:
        raise ValueError(f"grade {grade} is outside {MIN_GRADE}–{MAX_GRADE}")
    return grade


def _validate_depth(pool_depth: int) -> int:
    if isinstance(pool_depth, bool) or not isinstance(pool_depth, int) or pool_depth < 1:
        raise ValueError(f"the pool depth is an integer ≥ 1, not {pool_depth!r}")
    return pool_depth


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
        with write_errors(self.db.label, f"annotator {name!r}"), self.db.transaction() as session:
            annotator_id, stored = ensure_annotator(session, name)
        return AnnotatorInfo(id=annotator_id, name=stored)

    def list_annotators(self) -> list[AnnotatorInfo]:
        """Every annotator, by name."""
        with self.db.transaction() as session:
            rows = activity.annotator_names(session)
        return [AnnotatorInfo(id=i, name=n) for i, n in rows]

    # ------------------------------------------------------------------ reading
    def counts(self) -> DatabaseCounts:
        """Row counts of the main tables (one statement; for the status bar)."""
        with self.db.transaction() as session:
            return DatabaseCounts(*activity.table_counts(session))

    def change_marker(self) -> ChangeMarker:
        """The current :class:`ChangeMarker` (cheap: poll it to notice other people's work)."""
        with self.db.engine.connect() as conn:
            return ChangeMarker(*activity.change_marker(conn))

    def changed_by_others(self, since: ChangeMarker, annotator_id: int | None) -> bool:
        """Whether anyone but ``annotator_id`` wrote judgments, adjudications or runs after
        ``since`` (a marker taken earlier): what makes another person's work worth reloading."""
        with self.db.engine.connect() as conn:
            return activity.changed_by_others(
                conn, since.judgment, since.history, since.run, annotator_id
            )

    def team_progress(self, previous: TeamProgress | None = None) -> TeamProgress:
        """Every annotator with their number of judgments and the time of their last change
        (from the history; None when all their judgments came from imports), most judged first.
        Counts only: no grades, so annotating stays blind.

        ``previous``: this method's last answer on the same database; the history is then read
        from its last row on (through the primary key), not whole — unless rows were deleted
        since (a query, document or annotator removed), which the row count shows: then whole
        again. Exact as long as history row ids are not reused (SQLite can reuse the highest id
        of a deleted row; the change marker has the same limit)."""
        with self.db.engine.connect() as conn:
            held = activity.judgments_held(conn)
            after = previous.history_id if previous is not None else 0
            changes, top, n_after, n_all = activity.judgment_changes_after(conn, after)
            if previous is not None and n_all != previous.history_rows + n_after:
                previous = None  # rows were deleted: read it whole
                changes, top, _n, n_all = activity.judgment_changes_after(conn, 0)
        last = dict(previous.last_change) if previous is not None else {}
        for annotator_id, at in changes.items():
            when = as_utc(at)
            if annotator_id not in last or when > last[annotator_id]:
                last[annotator_id] = when
        members = [TeamMember(name, n, last.get(i)) for i, name, n in held]
        members.sort(key=lambda m: (-m.judged, m.name))
        return TeamProgress(members, top, n_all, last)

    def query_progress(
        self, annotator_id: int | None, pool_depth: int = DEFAULT_POOL_DEPTH
    ) -> QueryProgressList:
        """Every query (by id) with its pool size and how much of it ``annotator_id`` has judged.

        One statement (:func:`~ndcg_studio.storage.queries.pools.progress_columns`, two ``GROUP BY``
        joined to the queries); ``annotator_id`` None gives ``judged = 0``. Slow on large
        databases (``benchmarks/bench_annotation.py`` measures it): call it off the GUI thread.

        Raises:
            ValueError: ``pool_depth`` < 1.
        """
        _validate_depth(pool_depth)
        with self.db.transaction() as session:
            columns = pools.progress_columns(session, annotator_id, pool_depth)
        return QueryProgressList(*columns)

    def query_list(self) -> QueryProgressList:
        """Every query (by id) as :meth:`query_progress` lists it, without counting its pool
        (``pool_size`` and ``judged`` 0): one scan of the queries, for a list to show at once
        while :meth:`query_progress` counts (``benchmarks/bench_gui_scale.py``, Annotate)."""
        with self.db.transaction() as session:
            ids, external, texts = pools.query_list_columns(session)
        zeros = np.zeros(ids.shape[0], dtype=np.int64)
        return QueryProgressList(ids, external, texts, zeros, zeros.copy())

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
        with self.db.transaction() as session:
            query_ext = pools.query_external_id(session, query_id)
            if query_ext is None:
                raise LookupError(f"no query with id {query_id}")
            rows = pools.pool_rows(session, query_id, annotator_id, pool_depth)
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
        with self.db.transaction() as session:
            rows = activity.item_history(session, query_id, document_id)
        return [HistoryEntry(id=r.id, **asdict(recorded_change(r))) for r in rows]

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
        return self._write_own(
            annotator_id, query_id, document_id, grade, note, grade_keep=False, campaign=campaign
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
        return self._write_own(annotator_id, query_id, document_id, None, note, grade_keep=True)

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
    def _write_own(
        self,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        note: str | Keep | None,
        *,
        grade_keep: bool,
        campaign: CampaignGrade | None = None,
    ) -> GradeChange:
        """:meth:`_write` of ``annotator_id``'s judgment of (query, document), changed by that
        annotator (:meth:`set_grade`, :meth:`set_note`)."""
        key = {"query_id": query_id, "document_id": document_id, "annotator_id": annotator_id}
        return self._write(
            kind="judgment",
            key=key,
            grade=grade,
            note=note,
            changed_by=annotator_id,
            grade_keep=grade_keep,
            campaign=campaign,
        )

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
        # One id for this write, kept across retries: if the connection drops after the server
        # committed but before we heard so, the retry finds its history row and returns the
        # change it recorded instead of writing (and logging) it a second time.
        write = ItemWrite(
            kind=kind,
            key=key,
            grade=grade,
            note=note,
            changed_by=changed_by,
            grade_keep=grade_keep,
            write_id=uuid.uuid4().hex,
            campaign=campaign,
        )

        def unit_of_work() -> GradeChange:
            with self.db.transaction() as session:
                return write_item(session, write)

        with write_errors(self.db.label, f"{key} (by annotator {changed_by})"):
            # A write cut by a lost connection (server restart) is retried on a fresh
            # connection; if the server stays away, ConnectionLost says the grade was NOT saved.
            return retrying(
                unit_of_work,
                label=self.db.label,
                unsaved="your last grade" if kind == "judgment" else "your last decision",
            )
