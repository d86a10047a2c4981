"""The values the annotation use cases return (:mod:`ndcg_studio.services.annotation.service`):
plain
frozen dataclasses that cross threads and outlive the session."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.storage.judgments.items import HistoryKind


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


class QueryRows(Sequence[QueryProgress]):
    """Row access for query-progress columns: ``query_id``, ``external_id``, ``text``,
    ``pool_size`` and ``judged``, each of length n, read as a sequence of
    :class:`QueryProgress` (for callers written for a list). Mixed into
    :class:`QueryProgressList` and the Annotate view's columns (``ui.models.query_columns``)."""

    query_id: NDArray[np.int64]
    external_id: Any
    text: Any
    pool_size: NDArray[np.int64]
    judged: NDArray[np.int64]

    def __len__(self) -> int:
        return int(self.query_id.shape[0])

    def row(self, i: int) -> QueryProgress:
        """Row ``i`` (0 <= i < n) as a :class:`QueryProgress`."""
        return QueryProgress(
            query_id=int(self.query_id[i]),
            external_id=str(self.external_id[i]),
            text=str(self.text[i]),
            pool_size=int(self.pool_size[i]),
            judged=int(self.judged[i]),
        )

    def __iter__(self) -> Iterator[QueryProgress]:
        return (self.row(i) for i in range(len(self)))

    @overload
    def __getitem__(self, i: int) -> QueryProgress: ...
    @overload
    def __getitem__(self, i: slice) -> list[QueryProgress]: ...
    def __getitem__(self, i: int | slice) -> QueryProgress | list[QueryProgress]:
        if isinstance(i, slice):
            return [self.row(j) for j in range(len(self))[i]]
        return self.row(range(len(self))[i])


@dataclass(frozen=True, eq=False)
class QueryProgressList(QueryRows):
    """Every query's :class:`QueryProgress`, held as columns (length n) and read as a sequence
    of rows: 100,000 queries cross from the worker to the GUI without 100,000 objects.

    Attributes:
        query_id, pool_size, judged: int64 arrays (0 <= judged <= pool_size).
        external_id, text: lists of ``str``.
    """

    query_id: NDArray[np.int64]
    external_id: list[str]
    text: list[str]
    pool_size: NDArray[np.int64]
    judged: NDArray[np.int64]


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


@dataclass(frozen=True)
class TeamProgress:
    """The team line (:attr:`members`, most judged first) and what the next poll needs to read
    only the judgment history written since: the highest history row read, the rows the
    history held, and each annotator's last change (by annotator id, UTC)."""

    members: list[TeamMember]
    history_id: int
    history_rows: int
    last_change: Mapping[int, datetime]
