"""The writes of an import besides judgments (those are :mod:`ndcg_studio.storage.judgments`):
the catalogue (queries, documents, annotators by external id), runs and their results.

Everything runs on the import's one ``Connection`` inside :func:`import_transaction`, so a file
is written whole or not at all. :class:`DocumentsMeanwhile` gives each line its document id in a
helper thread while the importing thread goes on reading the file.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import DataError, IntegrityError

from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import (
    bulk_insert,
    bulk_transaction,
    column_by_id,
    is_empty,
)
from ndcg_studio.storage.bulk.external_ids import (
    create_absent,
    map_external_ids,
    upsert,
)
from ndcg_studio.storage.bulk.pg_copy import copy_columns
from ndcg_studio.storage.bulk.staged_ids import StagedIds, json_piece
from ndcg_studio.storage.database import in_memory
from ndcg_studio.storage.judgments.sets import INSERT_SLICE

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

__all__ = [
    "DocumentsMeanwhile",
    "RowRefused",
    "annotator_ids",
    "document_ids",
    "document_names",
    "documents_meanwhile",
    "fill_empty_text",
    "import_transaction",
    "insert_results",
    "query_ids",
    "rename_run",
    "replace_run",
    "result_slices",
    "upsert_catalogue",
]

_DOC_DEFAULTS = {"title": "", "text": "", "url": ""}
_T = TypeVar("_T")


class RowRefused(Exception):
    """The database refused a row (a constraint, or a value the server cannot store); the
    message is the database's first line. The import's transaction is rolled back."""


@contextmanager
def import_transaction(engine: Engine) -> Iterator[Connection]:
    """:func:`~ndcg_studio.storage.bulk.columns.bulk_transaction` whose refused rows raise
    :class:`RowRefused` (after the rollback)."""
    try:
        with bulk_transaction(engine) as conn:
            if conn.dialect.name == "postgresql":
                # queries and documents locked against other writers until the end (imports
                # run one after another): the reference checks of migration 0008 then need no
                # lock per parent row (bench_scale.py --postgres)
                conn.exec_driver_sql("SELECT ndcg_lock_for_import()")
                # the planner's cost estimates of an import's statements over a million rows
                # (the document look-up, the history insert) start JIT compilation that costs
                # more than it saves on statements run once (bench_scale.py --postgres)
                conn.exec_driver_sql("SET LOCAL jit = off")
            yield conn
    except (IntegrityError, DataError) as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        raise RowRefused(reason) from None


def query_ids(conn: Connection, external_ids: Sequence[str]) -> tuple[NDArray[np.int64], int]:
    """Database ids of the distinct ``external_ids`` of queries (created with empty text where
    missing), ``(n,)`` int64, and how many were created."""
    return map_external_ids(conn, models.queries, external_ids, defaults={"text": ""})


def annotator_ids(conn: Connection, names: Sequence[str]) -> tuple[NDArray[np.int64], int]:
    """Database ids of the distinct annotator ``names`` (created where missing) and how many
    were created."""
    return map_external_ids(conn, models.annotators, names, key="name")


def document_names(conn: Connection, ids: NDArray[np.int64] | Sequence[int]) -> dict[int, str]:
    """``{document id: external id}`` of the given ids."""
    return column_by_id(conn, models.documents, ids, "external_id")


def replace_run(
    conn: Connection, name: str, description: str, rank_problem: str | None
) -> tuple[int, bool]:
    """The id of the run ``name``, created or, when it exists, emptied of its results;
    ``description`` and ``rank_problem`` stored either way (a replaced run describes its new
    contents). Also whether it existed."""
    runs = models.runs
    run_id = conn.execute(select(runs.c.id).where(runs.c.name == name)).scalar_one_or_none()
    if run_id is None:
        values = {"name": name, "description": description, "rank_problem": rank_problem}
        created = conn.execute(runs.insert().values(**values)).inserted_primary_key
        assert created is not None
        return int(created[0]), False
    conn.execute(delete(models.results).where(models.results.c.run_id == run_id))
    values = {"description": description, "rank_problem": rank_problem}
    conn.execute(update(runs).where(runs.c.id == run_id).values(**values))
    return int(run_id), True


def rename_run(conn: Connection, old: str, new: str) -> None:
    """Give the run ``old`` the name ``new`` (its results, campaigns and description stay).

    Raises:
        LookupError: no run ``old``.
        sqlalchemy.exc.IntegrityError: a run ``new`` exists already.
    """
    runs = models.runs
    done = conn.execute(update(runs).where(runs.c.name == old).values(name=new))
    if done.rowcount != 1:
        raise LookupError(f"no run named {old!r}")


def insert_results(
    conn: Connection,
    run_id: int,
    columns: Mapping[str, NDArray[Any]],
    on_block: Callable[[int], None] | None = None,
) -> int:
    """Insert results of run ``run_id`` from columns of one length: ``query``, ``doc``
    (database ids), ``rank`` with ``usable`` (False: the rank is not a 32-bit integer, stored
    NULL), ``position`` and ``score``. Returns the row count. ``on_block``: called with the
    rows sent so far during PostgreSQL's COPY (:func:`~ndcg_studio.storage.bulk.pg_copy.
    copy_in_columns`), where one statement takes the whole run.

    PostgreSQL: a binary COPY of the columns when every rank is usable. Otherwise the rows are
    made as Python objects ``_ROWS_AT_ONCE`` at a time while the driver consumes them, not as
    five lists of the whole slice (bounded memory; ``benchmarks/bench_scale.py``, numbers in
    ``benchmarks/README.md``)."""
    usable = columns["usable"]
    if conn.dialect.name == "postgresql" and usable.all():  # binary COPY of the columns
        names = {"query_id": "query", "document_id": "doc", "rank": "rank", "score": "score"}
        arrays = {c: columns[k] for c, k in {**names, "position": "position"}.items()}
        copied = copy_columns(
            conn, models.results, arrays, {"run_id": int(run_id)}, on_block=on_block
        )
        if copied is not None:
            return copied
    return bulk_insert(
        conn,
        models.results,
        ("query_id", "document_id", "rank", "position", "score"),
        _result_rows(columns),
        constants={"run_id": int(run_id)},
    )


def result_slices(conn: Connection, columns: Mapping[str, NDArray[Any]]) -> Iterator[slice]:
    """The rows of a run's columns (as :func:`insert_results` takes them) a statement of
    :func:`insert_results` each: ``INSERT_SLICE`` rows (bounded memory), but on PostgreSQL,
    when every rank is usable, all of them — one binary COPY, made a block at a time: the
    statement triggers of migration 0008 check the references once per statement, scanning the
    parent tables whole (``benchmarks/bench_scale.py --postgres``)."""
    n = len(columns["query"])
    step = INSERT_SLICE
    if conn.dialect.name == "postgresql" and columns["usable"].all():
        step = max(n, 1)
    for start in range(0, n, step):
        yield slice(start, start + step)


_ROWS_AT_ONCE = 100_000


def _result_rows(columns: Mapping[str, NDArray[Any]]) -> Iterator[tuple[Any, ...]]:
    """The rows of :func:`insert_results`, made ``_ROWS_AT_ONCE`` at a time."""
    for start in range(0, len(columns["query"]), _ROWS_AT_ONCE):
        part = {c: v[start : start + _ROWS_AT_ONCE] for c, v in columns.items()}
        ranks: list[int | None] = part["rank"].tolist()
        usable = part["usable"]
        if not usable.all():
            ranks = [r if ok else None for r, ok in zip(ranks, usable.tolist(), strict=True)]
        yield from zip(
            part["query"].tolist(),
            part["doc"].tolist(),
            ranks,
            part["position"].tolist(),
            part["score"].tolist(),
            strict=True,
        )


def upsert_catalogue(
    conn: Connection,
    kind: Literal["queries", "documents"],
    external_ids: Sequence[str],
    columns: Mapping[str, Sequence[Any]],
) -> int:
    """Create or update queries or documents by external id with the given columns; returns
    how many were created (:func:`~ndcg_studio.storage.bulk.external_ids.upsert`)."""
    table = models.queries if kind == "queries" else models.documents
    return upsert(conn, table, "external_id", {"external_id": external_ids, **columns})


def fill_empty_text(
    conn: Connection,
    kind: Literal["queries", "documents"],
    external_ids: Sequence[str],
    columns: Mapping[str, Sequence[str | None]],
) -> int:
    """Set each given text column of the existing queries or documents ``external_ids`` where
    it is empty (a value of None or "" changes nothing); returns how many rows changed.

    What the database holds already is never overwritten: a fetched title or text only fills a
    document the catalogue has no text for."""
    table = models.queries if kind == "queries" else models.documents
    changed = 0
    for name, values in columns.items():
        column = table.c[name]
        rows = [
            {"key": key, "value": value}
            for key, value in zip(external_ids, values, strict=True)
            if value
        ]
        if rows:
            statement = (
                update(table)
                .where(table.c.external_id == bindparam("key"))
                .where((column.is_(None)) | (column == ""))
                .values({name: bindparam("value")})
            )
            changed += conn.execute(statement, rows).rowcount
    return changed


class DocumentsMeanwhile:
    """Each line's document id, worked out with a helper thread on the import's connection
    while the importing thread goes on reading and preparing the file.

    SQLite and the database driver release the GIL while they work, so the database's share
    runs beside the Python work of the importing thread. On SQLite the helper only stages each
    piece's lines (:class:`~ndcg_studio.storage.bulk.staged_ids.StagedIds`): :meth:`result` gives
    no ids, and :meth:`settle`, after the last piece, creates the new documents and gives every
    line of the file its id, all in key order (linear in the file, where per-piece look-ups and
    inserts were not: ``benchmarks/bench_scale.py``). On PostgreSQL the helper does all of
    :func:`document_ids` for each piece. The helper runs the pieces' work in order, one job at
    a time: :meth:`start` queues a piece's documents, :meth:`call` any other work on the
    connection (the queries of a piece), so the importing thread can read the next piece while
    the server writes this one's. The importing thread must not use the connection itself
    while work is queued (:meth:`result` and :meth:`call`'s futures wait for it). Made by
    :func:`documents_meanwhile`.
    """

    def __init__(self, conn: Connection, helper: ThreadPoolExecutor | None) -> None:
        self._conn = conn
        self._helper = helper
        self._queued: deque[tuple[Sequence[str], Future[Any] | None]] = deque()
        self._staged: StagedIds | None = None
        if conn.dialect.name == "sqlite":
            self._staged = StagedIds(conn, models.documents, defaults=_DOC_DEFAULTS)

    def start(self, doc_id: Sequence[str]) -> None:
        """Queue the document id of every line of a piece (not to be changed until its
        :meth:`result`)."""
        job: Future[Any] | None = None
        if self._helper is not None and self._staged is not None:
            if doc_id:
                # the JSON text made here, so the piece's strings go with the piece and not in
                # the helper's time, amid the next piece's (see import_pieces.PieceNames)
                job = self._helper.submit(self._staged.add_json, *json_piece(doc_id))
        elif self._helper is not None:
            job = self._helper.submit(document_ids, self._conn, doc_id)
        # the helper's job holds the piece's ids until it has run; kept here only without one
        # (a piece's strings alive while the next is parsed slow that parse: see PieceNames in
        # services/import_pieces.py)
        self._queued.append((doc_id if job is None else (), job))

    def call(self, function: Callable[..., _T], *args: Any) -> Future[_T]:
        """``function(conn, *args)`` on the import's connection after the work queued so far
        (in the helper; at once without one)."""
        if self._helper is not None:
            return self._helper.submit(function, self._conn, *args)
        done: Future[_T] = Future()
        done.set_result(function(self._conn, *args))
        return done

    def result(self) -> tuple[NDArray[np.int64] | None, int]:
        """``(ids, n_created)`` of the oldest queued piece: the database id of each line's
        document, ``(n,)`` int64, and the number of documents created — on SQLite ``(None,
        0)``: the ids come from :meth:`settle`. Waits for the helper (raises its error)."""
        if not self._queued:
            raise RuntimeError("start() was not called")
        doc_id, job = self._queued.popleft()
        if self._staged is not None:
            job.result() if job else self._staged.add(doc_id)
            return None, 0
        return job.result() if job else document_ids(self._conn, doc_id)

    @property
    def settles(self) -> bool:
        """Whether :meth:`settle` does the documents' work (SQLite) after the pieces."""
        return self._staged is not None

    def settle(
        self, progress: Progress | None = None, cancelled: Cancelled | None = None
    ) -> tuple[NDArray[np.int64], int] | None:
        """After the last piece's :meth:`result`: on SQLite the database id of every line's
        document given to :meth:`start`, ``(lines,)`` int64 in file order, and the number of
        documents created, with ``progress(done, 100)`` and Cancel polled as it goes
        (:meth:`~ndcg_studio.storage.bulk.staged_ids.StagedIds.settle`); None on PostgreSQL
        (:meth:`result` gave the ids).

        Raises:
            OperationCancelled: ``cancelled()`` returned True.
        """
        return None if self._staged is None else self._staged.settle(progress, cancelled)

    def ids(
        self, progress: Progress | None = None, cancelled: Cancelled | None = None
    ) -> tuple[NDArray[np.int64], int]:
        """:meth:`result` of a file read in one piece, settled (progress and Cancel: as
        :meth:`settle`)."""
        ids, created = self.result()
        settled = self.settle(progress, cancelled)
        if settled is not None:
            return settled
        assert ids is not None
        return ids, created


@contextmanager
def documents_meanwhile(conn: Connection) -> Iterator[DocumentsMeanwhile]:
    """A :class:`DocumentsMeanwhile` for ``conn``; on leaving, waits for its helper (also when
    the body raises — then after dropping the work not started yet — so the transaction ends
    only after the helper has let go of ``conn``).

    An SQLite database in memory cannot be used from another thread (SQLAlchemy gives each
    thread its own), so there the work runs in :meth:`~DocumentsMeanwhile.result` instead.
    """
    if in_memory(conn.engine.url):
        yield DocumentsMeanwhile(conn, None)
        return
    helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-documents")
    try:
        yield DocumentsMeanwhile(conn, helper)
    except BaseException:
        helper.shutdown(wait=True, cancel_futures=True)  # queued pieces: not started
        raise
    finally:
        helper.shutdown(wait=True)


def document_ids(conn: Connection, doc_id: Sequence[str]) -> tuple[NDArray[np.int64], int]:
    """Database id of each line's document, ``(n,)`` int64, creating the documents not seen
    before (once each); also the number created. Into an empty table every document is new
    and nothing is looked up. (A file import on SQLite takes a way linear in the file: see
    :class:`DocumentsMeanwhile`.)"""
    if not is_empty(conn, models.documents):
        ids, _ = map_external_ids(conn, models.documents, doc_id, create=False)
        missing = np.flatnonzero(ids < 0)
    else:
        ids = np.full(len(doc_id), -1, dtype=np.int64)
        missing = np.arange(len(doc_id))
    created = 0
    if len(missing):
        m_ext, m_inv = factorize([doc_id[i] for i in missing.tolist()])
        if conn.dialect.name == "sqlite":  # only called here directly: imports use StagedIds
            m_ids, created = map_external_ids(conn, models.documents, m_ext, defaults=_DOC_DEFAULTS)
        else:  # PostgreSQL: known missing under the import's lock, created with their ids
            m_ids, created = _create_in_key_order(conn, m_ext)
        ids[missing] = m_ids[m_inv]
    return ids, created


def _create_in_key_order(conn: Connection, m_ext: list[str]) -> tuple[NDArray[np.int64], int]:
    """PostgreSQL: the ids of the distinct documents ``m_ext`` found missing, ``(n,)`` int64 in
    their order, created — numbered and written in key order (code-point order: the index's
    order under the C collation), as on SQLite (``StagedIds``): the unique index of
    ``documents`` then takes its new keys in order instead of at random
    (``bench_scale.py --postgres``). Without the import's lock: race-safe creation, then a
    look-up (:func:`map_external_ids`); the number created."""
    order = np.argsort(np.array(m_ext), kind="stable")  # numpy sorts without the GIL
    in_order = [m_ext[i] for i in order.tolist()]
    new_ids = create_absent(conn, models.documents, in_order, defaults=_DOC_DEFAULTS)
    if new_ids is None:
        return map_external_ids(conn, models.documents, m_ext, defaults=_DOC_DEFAULTS)
    ids = np.empty(len(m_ext), dtype=np.int64)
    ids[order] = new_ids
    return ids, len(m_ext)


def factorize(values: Sequence[str]) -> tuple[list[str], NDArray[np.int64]]:
    """Distinct strings in order of first appearance and the (n,) int64 code of each value."""
    # all in C (dict.fromkeys, zip, map): a generator calling setdefault was the slower way
    distinct = list(dict.fromkeys(values))
    code_of = dict(zip(distinct, range(len(distinct)), strict=True))
    codes = np.fromiter(map(code_of.__getitem__, values), dtype=np.int64, count=len(values))
    return distinct, codes
