"""One judgment or adjudication at a time: the app's writes (grade, note, adjudication, undo).

:func:`write_item` reads the old value and writes the new one in the caller's transaction, with
the item locked first (:mod:`~ndcg_studio.storage.judgments.locks`); the database's triggers
record the change (the rule: :mod:`ndcg_studio.storage.judgments`). A write carries a
client-generated ``write_id`` that the trigger stores with its history row: a retry of a write
whose first attempt committed (its acknowledgement lost) finds that row and returns the change it
recorded instead of writing again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

from sqlalchemy import Table, delete, func, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from ndcg_studio.storage import models
from ndcg_studio.storage.judgments.counts import item_grades
from ndcg_studio.storage.judgments.locks import lock_campaign, lock_item, lock_pooled_item
from ndcg_studio.storage.resilience import refusal_of

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

#: How often a write is retried when another writer inserted the same row between our locking
#: read and our insert (PostgreSQL only; each retry then finds the row and updates it).
_MAX_UPSERT_ATTEMPTS: Final = 5

HistoryKind = Literal["judgment", "adjudication"]


class Keep(Enum):
    """The type of :data:`KEEP`."""

    KEEP = "keep"


#: Sentinel for the ``note`` of a write: keep the stored note unchanged.
KEEP: Final = Keep.KEEP


@dataclass(frozen=True, slots=True)
class CampaignGrade:
    """A grade given in a judging campaign: which campaign, and the seconds from showing the
    document to the grade (None: not timed). See :mod:`ndcg_studio.services.campaigns.service`."""

    campaign_id: int
    seconds: float | None = None


class ItemComplete(Exception):
    """A campaign item already has its N grades from other annotators: this grade is not needed
    (nothing was written); take the next item of the queue."""


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
class ItemWrite:
    """One write of one item. ``key``: ``query_id``, ``document_id`` (and ``annotator_id`` for a
    judgment). ``grade`` None clears the item (deletes the row and its note); ``grade_keep``
    keeps the stored grade (a note-only write, refused when there is no grade). ``note``:
    :data:`KEEP`, a string (blank → None) or None. ``changed_by``: who writes (for an
    adjudication, the new adjudicator). ``write_id``: this write's id, the same on every retry."""

    kind: HistoryKind
    key: dict[str, int]
    grade: int | None
    note: str | Keep | None
    changed_by: int
    grade_keep: bool
    write_id: str
    campaign: CampaignGrade | None = None


class _Values(NamedTuple):
    old_grade: int | None
    old_note: str | None
    new_grade: int | None
    new_note: str | None


def insert_statement(session: Session, table: Table) -> Any:
    """The dialect's INSERT (both SQLite's and PostgreSQL's have ``on_conflict_do_*``)."""
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table)
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(table)


@contextmanager
def write_errors(label: str, what: str) -> Iterator[None]:
    """Turn the database's refusals of a write into the project's errors.

    Raises:
        LookupError: a foreign key names no row (``what`` says which item was written).
        WriteRefused: team mode, the login may not write this row (see
            :func:`~ndcg_studio.storage.resilience.refusal_of`).
    """
    try:
        yield
    except IntegrityError as exc:
        if "foreign key" in str(exc.orig).lower():
            raise LookupError(f"no such annotator, query or document: {what}") from exc
        raise
    except DBAPIError as exc:
        refusal = refusal_of(exc, label)
        if refusal is not None:
            raise refusal from exc
        raise


def write_item(session: Session, w: ItemWrite) -> GradeChange:
    """Apply ``w`` in ``session``'s transaction and return the change it made (or, for a retry
    whose first attempt committed, the change that attempt recorded).

    Raises:
        LookupError: a note-only write of an ungraded item; a campaign item that is not one.
        ItemComplete: a new campaign grade of an item that already has its N grades.
        sqlalchemy.exc.IntegrityError: a key that names no row (see :func:`write_errors`).
    """
    table = models.judgments if w.kind == "judgment" else models.adjudications
    lock_item(session, w.kind, table.name, w.key)
    if w.campaign is not None:
        lock_campaign(session, w.campaign.campaign_id)
        lock_pooled_item(session, w.key["query_id"], w.key["document_id"])
    landed = _recorded(session, w.write_id)
    if landed is not None:  # an earlier attempt of this very write committed
        return landed
    now = models.utcnow()
    values = _upsert(session, table, w, now)
    if w.campaign is not None:
        _record_campaign_grade(session, w.campaign, w.key, graded=values.new_grade is not None)
    recorded = _recorded(session, w.write_id)
    if recorded is not None:
        return recorded
    return GradeChange(
        kind=w.kind,
        query_id=w.key["query_id"],
        document_id=w.key["document_id"],
        annotator_id=w.key.get("annotator_id"),
        changed_by=w.changed_by,
        changed_at=now,
        **values._asdict(),
    )


def _upsert(session: Session, table: Table, w: ItemWrite, now: datetime) -> _Values:
    """Read the item locked, then insert, update or delete it; its old and new values."""
    where = [table.c[name] == value for name, value in w.key.items()]
    for _attempt in range(_MAX_UPSERT_ATTEMPTS):
        old = session.execute(
            select(table.c.id, table.c.grade, table.c.note).where(*where).with_for_update()
        ).one_or_none()
        values = _new_values(old, w)
        if w.campaign is not None and old is None and values.new_grade is not None:
            _check_campaign_capacity(session, w.campaign.campaign_id, w.key)
        if values.old_grade == values.new_grade and values.old_note == values.new_note:
            return values  # nothing changes: nothing is written, nothing recorded
        if _apply(session, table, w, None if old is None else old.id, values, now):
            return values
        # another writer inserted the row after our locking read: lock it and update it
    raise RuntimeError(  # pragma: no cover - needs > 5 concurrent inserts of the very same row
        "could not write the grade: too much contention on one item"
    )


def _new_values(old: Any, w: ItemWrite) -> _Values:
    old_grade: int | None = None if old is None else old.grade
    old_note: str | None = None if old is None else old.note
    new_grade = old_grade if w.grade_keep else w.grade
    new_note = old_note if isinstance(w.note, Keep) else _clean_note(w.note)
    if new_grade is None:
        new_note = None  # clearing a grade deletes the row and its note
    if w.grade_keep and old is None:
        raise LookupError("a note belongs to a grade: grade the document before adding a note")
    return _Values(old_grade, old_note, new_grade, new_note)


def _apply(
    session: Session, table: Table, w: ItemWrite, old_id: int | None, v: _Values, now: datetime
) -> bool:
    """Write the new values; False when the insert found a row another writer just inserted."""
    # The history trigger copies write_id into the history row of this change, and changed_by
    # from the row: the judgment's annotator, the adjudication's adjudicator.
    extra: dict[str, Any] = {"write_id": w.write_id}
    if w.kind == "adjudication":
        extra["adjudicator_id"] = w.changed_by
    if v.new_grade is None:
        assert old_id is not None
        # stamp the row with this write (no history: grade and note stay) so that the DELETE's
        # history row carries its id and who cleared it
        session.execute(update(table).where(table.c.id == old_id).values(**extra))
        session.execute(delete(table).where(table.c.id == old_id))
        return True
    extra["updated_at"] = now
    if old_id is not None:
        session.execute(
            update(table)
            .where(table.c.id == old_id)
            .values(grade=v.new_grade, note=v.new_note, **extra)
        )
        return True
    values: dict[str, Any] = {**w.key, "grade": v.new_grade, "note": v.new_note, **extra}
    if w.kind == "judgment":
        values["created_at"] = now
    inserted = session.execute(
        insert_statement(session, table)
        .values(**values)
        .on_conflict_do_nothing()
        .returning(table.c.id)
    ).scalar_one_or_none()
    return inserted is not None


def _clean_note(note: str | None) -> str | None:
    if note is None:
        return None
    note = note.strip()
    return note or None


def _recorded(session: Session, write_id: str) -> GradeChange | None:
    """The change the history row of ``write_id`` records, None when there is none."""
    h = models.judgment_history
    row = session.execute(select(h).where(h.c.write_id == write_id)).one_or_none()
    return None if row is None else recorded_change(row)


def recorded_change(row: Any) -> GradeChange:
    """The change a ``judgment_history`` row (with the table's columns) records, its
    ``changed_at`` as aware UTC."""
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
        changed_at=as_utc(row.changed_at),
    )


def as_utc(value: datetime) -> datetime:
    """A timestamp as aware UTC: SQLite returns naive UTC, PostgreSQL an aware time in the
    session's ``TimeZone`` (which need not be UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _check_campaign_capacity(session: Session, campaign_id: int, key: dict[str, int]) -> None:
    """Refuse a new grade of a campaign item that other annotators already graded N times."""
    c, ci, j = models.campaigns, models.campaign_items, models.judgments
    row = session.execute(
        select(ci.c.gold, c.c.overlap)
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
    if row.gold:
        return  # gold items are judged by everyone
    # the others' grades: every grade (item_grades: also those an annotator login may not
    # read) less its own
    own = select(func.count()).where(
        j.c.query_id == key["query_id"],
        j.c.document_id == key["document_id"],
        j.c.annotator_id == key["annotator_id"],
    )
    graded = session.execute(
        select(item_grades(key["query_id"], key["document_id"]) - own.scalar_subquery())
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


def ensure_annotator(session: Session, name: str) -> tuple[int, str]:
    """``(id, name)`` of the annotator called ``name``, created if missing (race-safe: ``INSERT …
    ON CONFLICT (name) DO NOTHING`` then a select; an existing name is only read)."""
    table = models.annotators
    find = select(table.c.id, table.c.name).where(table.c.name == name)
    row = session.execute(find).one_or_none()
    if row is None:
        stmt = insert_statement(session, table).values(name=name, created_at=models.utcnow())
        session.execute(stmt.on_conflict_do_nothing(index_elements=[table.c.name]))
        row = session.execute(find).one()
    return int(row.id), str(row.name)
