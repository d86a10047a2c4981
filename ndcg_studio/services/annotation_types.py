"""The values the annotation use cases return (:mod:`ndcg_studio.services.annotation`): plain
frozen dataclasses that cross threads and outlive the session."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ndcg_studio.storage.judgments import HistoryKind


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
