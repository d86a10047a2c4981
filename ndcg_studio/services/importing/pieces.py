"""The pieces of a chunked run or qrels import (:class:`Pieces`: each piece's columns given
database ids as it arrives), and the checks an import makes over the whole file once its pieces
are read (a chunked reader checks each piece alone): a key repeated in two pieces, the run order
of a query split over pieces, the first rank problem of the file; and the rule for names given on
the command line. The checks are numpy over database ids; document names come from a callable
(the import's connection behind it)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.ordering import trec_positions_of_docs
from ndcg_studio.io.errors import MAX_ISSUES, InputError, InputFileError, ParseIssue
from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.storage.bulk.imports import (
    DocumentsMeanwhile,
    annotator_ids,
    document_names,
    factorize,
    query_ids,
)
from ndcg_studio.storage.judgments.sets import item_keys

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from ndcg_studio.io.trec.readers import QrelsFile, RunFile

#: ``names(ids) -> {id: external id}`` of documents.
DocumentNames = Callable[[NDArray[np.int64]], Mapping[int, str]]
#: A piece's distinct names, each line's code among them, and the future of their ids.
_Codes = tuple[str | list[str], NDArray[np.int64], "Future[tuple[NDArray[np.int64], int]]"]
#: Pieces read ahead of the ids (:class:`Pieces`): one, so that the helper writes a piece's
#: documents while the next is read; each waiting piece holds its document ids as strings.
_LAG = 1


def concatenate(parts: list[dict[str, NDArray[Any]]]) -> dict[str, NDArray[Any]]:
    """The pieces' columns joined, each piece's array let go as soon as its column is joined
    (so the peak holds the whole file's columns plus one column, not twice the columns)."""
    names = list(parts[0])
    columns = {}
    for name in names:
        columns[name] = np.concatenate([p.pop(name) for p in parts])
    parts.clear()
    return columns


def narrow(values: NDArray[np.integer[Any]]) -> NDArray[np.integer[Any]]:
    """``values`` as int32 when they fit (ids, line numbers, positions: half the memory of a
    10M-line file's columns, whose peak is the import's, ``benchmarks/bench_scale.py``), else
    as they are. Every use widens them again where it computes (``any_repeat``,
    ``item_keys``, the writes)."""
    info = np.iinfo(np.int32)
    if len(values) and (int(values.min()) < info.min or int(values.max()) > info.max):
        return values
    return values.astype(np.int32)


def refuse_repeats(
    document_names: DocumentNames,
    path: str,
    key: tuple[NDArray[np.int64], ...],
    line: NDArray[np.int64],
    query_names: Mapping[int, str],
    annotator_names: Mapping[int, str] | None,
    verb: str,
) -> None:
    """Refuse a (query, document[, annotator]) — database ids — that occurs twice in the file:
    the pieces check their own lines, this finds a repeat in two pieces. Messages as the
    readers' (``FILE:LINE: doc_id: ...``, naming the first line), at most 20.

    Raises:
        InputFileError: when there is a repeat (the caller's transaction then rolls back).
    """
    if not any_repeat(key):
        return
    query, doc = key[0], key[1]
    third = key[2] if len(key) > 2 else np.zeros_like(query)
    (packed,) = item_keys((query, doc, third))
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    if len(first) == len(packed):
        return
    repeat = np.ones(len(packed), dtype=bool)
    repeat[first] = False
    rows = np.flatnonzero(repeat)
    truncated = len(rows) > MAX_ISSUES
    rows = rows[:MAX_ISSUES]
    docs = document_names(doc[rows])
    issues = []
    for row in rows.tolist():
        earlier = int(line[first[inverse[row]]])
        d, q = docs[int(doc[row])], query_names[int(query[row])]
        by = (
            "" if annotator_names is None else f" by annotator {annotator_names[int(third[row])]!r}"
        )
        text = f"document {d!r} {verb} twice for query {q!r}{by} (duplicate of line {earlier})"
        issues.append(ParseIssue(path, int(line[row]), "doc_id", text))
    raise InputFileError(issues, truncated=truncated)


def any_repeat(columns: tuple[NDArray[np.int64], ...]) -> bool:
    """Whether some row of the non-negative integer ``columns`` occurs twice: one packed key
    sorted in place (one array of the rows' length alive), where numbering every row with
    ``np.unique`` held ~6 such arrays at once (the peak of a 10M-line import). Columns whose
    bits do not fit 63 together are checked by ``np.unique`` over the rows."""
    widths = [max(int(c.max()).bit_length(), 1) for c in columns]
    if sum(widths) > 63 or min(int(c.min()) for c in columns) < 0:
        rows = np.stack(columns, axis=1)
        return len(np.unique(rows, axis=0)) < len(rows)
    key = np.array(columns[0], dtype=np.int64)
    for column, width in zip(columns[1:], widths[1:], strict=True):
        key <<= width
        key |= column
    key.sort()
    return bool(np.any(key[1:] == key[:-1]))


def reposition_split_queries(
    document_names: DocumentNames,
    piece_queries: list[NDArray[np.int64]],
    cols: dict[str, NDArray[Any]],
) -> None:
    """Positions of the queries whose lines are in several pieces (a file not grouped by
    query), worked out again over all their lines: each piece could order only its own part.
    Their document ids are read back from the database for trec_eval's tie-break."""
    queries, pieces = np.unique(np.concatenate(piece_queries), return_counts=True)
    split = queries[pieces > 1]
    if not len(split):
        return
    rows = np.flatnonzero(np.isin(cols["query"], split))
    doc = cols["doc"][rows]
    names = document_names(doc)
    _, group = np.unique(cols["query"][rows], return_inverse=True)
    cols["position"][rows] = trec_positions_of_docs(
        group.reshape(-1), cols["score"][rows], [names[d] for d in doc.tolist()]
    )


def rank_problem(
    path: str,
    cols: Mapping[str, NDArray[Any]],
    piece_problems: list[str | None],
    query_names: Mapping[int, str],
) -> str | None:
    """:attr:`RunFile.rank_problem` of the whole file from its pieces': the first rank that
    is not a usable integer (reported by its piece), else the first rank repeated for a query
    in any two lines (pieces see only their own)."""
    from ndcg_studio.io.trec.ranks import duplicate_rank_problem

    if len(piece_problems) == 1:
        return piece_problems[0]
    usable = cols["usable"]
    if not usable.all():
        bad_line = int(cols["line"][int(np.argmin(usable))])
        for problem in piece_problems:
            if problem is not None and problem.startswith(f"{path}:{bad_line}: "):
                return problem
    query, rank = cols["query"], cols["rank"]
    if not any_repeat((query, rank - int(rank.min()))):
        return None
    (packed,) = item_keys((query, rank - int(rank.min()), np.zeros_like(query)))
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    if len(first) == len(packed):
        return None
    repeat = np.ones(len(packed), dtype=bool)
    repeat[first] = False
    row = int(np.argmax(repeat))
    line = cols["line"]
    return f"{path}:" + duplicate_rank_problem(
        int(line[row]),
        int(rank[row]),
        query_names[int(query[row])],
        int(line[first[inverse[row]]]),
    )


_BAD_NAME_CHAR = re.compile("[\x00-\x1f\x7f\ufeff\ud800-\udfff]")


def check_name(value: str, option: str) -> None:
    """Refuse a blank name or one with a control character (the readers' rule for names).

    Raises:
        InputError: naming the option.
    """
    bad = _BAD_NAME_CHAR.search(value)
    if not value.strip():
        raise InputError(f"{option}: {value!r} is blank; give a name")
    if bad is not None:
        raise InputError(f"{option}: {value!r} holds the control character U+{ord(bad[0]):04X}")


def one_text(names: list[str]) -> str | list[str]:
    """A piece's distinct names as one text, a line each (:class:`PieceNames` says why); the
    list itself when a name holds a line break (fields of lines split at white space do not)."""
    text = "\n".join(names)
    return text if text.count("\n") == len(names) - 1 else names


def _codes(values: list[str]) -> tuple[str | list[str], NDArray[np.int64]]:
    """:func:`factorize` of a piece's column, its distinct names as :func:`one_text`."""
    distinct, codes = factorize(values)
    return one_text(distinct), codes


def _split(names: str | list[str]) -> list[str]:
    return names.split("\n") if isinstance(names, str) else names


def _query_ids(conn: Connection, names: str | list[str]) -> tuple[NDArray[np.int64], int]:
    """:func:`~ndcg_studio.storage.bulk.imports.query_ids` of :func:`one_text`'s names."""
    return query_ids(conn, _split(names))


class PieceNames(Mapping[int, str]):
    """``{database id: name}`` of the queries (or annotators) of a file's pieces, kept per
    piece as its ids and one text of its names, and made a dict only when read (an error
    message, a rank problem, the annotators' list at the end).

    A piece's names are its own ``str`` objects, one every hundred lines or so of the piece's
    memory; kept (here, or queued for the helper's look-up) while the next piece is read, they
    held the memory pools of the piece's strings in use, and the next piece's strings filled
    their holes out of address order: every piece after the first read much slower
    (``bench_scale.py``, ``bench_import_phases.py``). So a piece's names are one text
    (:func:`one_text`), split where read.
    """

    def __init__(self) -> None:
        self._pieces: list[tuple[NDArray[np.int64], str | list[str]]] = []
        self._built: dict[int, str] | None = None

    def add(self, ids: NDArray[np.int64], names: str | list[str]) -> None:
        """The names of ``ids``, one each: :func:`one_text`'s."""
        self._pieces.append((ids, names))
        self._built = None

    def _dict(self) -> dict[int, str]:
        if self._built is None:
            built: dict[int, str] = {}
            for ids, names in self._pieces:
                built.update(zip(ids.tolist(), _split(names), strict=True))
            self._built = built
        return self._built

    def __getitem__(self, key: int) -> str:
        return self._dict()[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())


class Pieces:
    """The columns of a chunked file's pieces, given database ids as they arrive, and what the
    pieces created (queries, documents, annotators).

    A piece's ids are worked out by the import's helper (:class:`DocumentsMeanwhile`) while
    the next piece is read: its columns wait in ``waiting`` for ``_LAG`` pieces, then take
    their ids (:meth:`_catch_up`), so the database and the reader work at the same time.
    """

    def __init__(self, conn: Connection, documents: DocumentsMeanwhile) -> None:
        self.conn = conn
        self.documents = documents
        self.parts: list[dict[str, NDArray[Any]]] = []
        self.tags: dict[str, None] = {}
        self.rank_problems: list[str | None] = []  # one per piece
        self.query_names = PieceNames()
        self.annotator_names = PieceNames()
        self.piece_queries: list[NDArray[np.int64]] = []  # the distinct queries of each piece
        self.q_new = self.d_new = self.a_new = 0
        #: pieces without their ids yet: (columns, query codes, annotator codes, their futures)
        self.waiting: deque[tuple[dict[str, Any], _Codes, _Codes | None]] = deque()

    def _queue(
        self, part: dict[str, Any], queries: tuple[str | list[str], Any], annotators: Any = None
    ) -> None:
        """Queue the piece's query (and annotator) ids behind its documents; take the ids of
        the pieces read ``_LAG`` pieces ago."""
        q_ext, q_inv = queries
        q = (q_ext, q_inv, self.documents.call(_query_ids, q_ext))
        a = None
        if annotators is not None:
            a_ext, a_inv = annotators
            a = (a_ext, a_inv, self.documents.call(annotator_ids, a_ext))
        self.parts.append(part)
        self.waiting.append((part, q, a))
        self._catch_up(_LAG)

    def _catch_up(self, lag: int) -> None:
        """Give the pieces queued before the last ``lag`` their database ids (waits for the
        helper; raises its error)."""
        while len(self.waiting) > lag:
            part, (q_ext, q_inv, q_job), a = self.waiting.popleft()
            doc_ids, created = self.documents.result()
            self.d_new += created
            if doc_ids is None:  # they come from _settle
                del part["doc"]
            else:
                part["doc"] = narrow(doc_ids)
            q_ids, created = q_job.result()
            self.q_new += created
            self.query_names.add(q_ids, q_ext)
            self.piece_queries.append(q_ids)
            part["query"] = narrow(q_ids[q_inv])
            if a is not None:
                a_ext, a_inv, a_job = a
                a_ids, created = a_job.result()
                self.a_new += created
                self.annotator_names.add(a_ids, a_ext)
                part["annotator"] = narrow(a_ids[a_inv])

    def add_run(self, run: RunFile) -> None:
        self.tags.update(dict.fromkeys(run.tags))
        self.rank_problems.append(run.rank_problem)
        q_names, q_inv = _codes(run.query_id)
        positions = trec_positions_of_docs(q_inv, run.score, run.doc_id)
        part = {
            "query": None,
            "doc": None,
            "rank": run.rank,
            "usable": run.rank_usable,
            "score": run.score,
            "line": narrow(run.line),
            "position": narrow(positions),
        }
        self._queue(part, (q_names, q_inv))

    def add_qrels(self, qrels: QrelsFile, default_name: str) -> None:
        q_names, q_inv = _codes(qrels.query_id)
        if qrels.annotator is not None:
            a_ext, a_inv = factorize(qrels.annotator)
        else:
            a_ext, a_inv = [default_name], np.zeros(len(qrels), dtype=np.int64)
        part = {
            "query": None,
            "doc": None,
            "annotator": None,
            "grade": narrow(qrels.grade),
            "line": narrow(qrels.line),
        }
        self._queue(part, (q_names, q_inv), (a_ext, a_inv))

    def _settle(
        self, cols: dict[str, NDArray[Any]], progress: Progress | None, cancelled: Cancelled | None
    ) -> None:
        """The ``doc`` column of the whole file when the documents come after the pieces."""
        settled = self.documents.settle(progress, cancelled)
        if settled is not None:
            doc, created = settled
            cols["doc"] = narrow(doc)
            self.d_new += created

    def _names(self, ids: NDArray[np.int64]) -> Mapping[int, str]:
        return document_names(self.conn, ids)

    def run_columns(
        self, path: str, progress: Progress | None = None, cancelled: Cancelled | None = None
    ) -> dict[str, NDArray[Any]]:
        """The whole file's columns, checked across pieces: a (query, document) in two pieces is
        refused; queries split over pieces are put in trec_eval's order anew. ``progress``
        (0-100) and ``cancelled``: of the documents' settling (SQLite)."""
        self._catch_up(0)
        pieces = len(self.parts)
        cols = concatenate(self.parts)
        self._settle(cols, progress, cancelled)
        if pieces > 1:
            key = (cols["query"], cols["doc"])
            refuse_repeats(self._names, path, key, cols["line"], self.query_names, None, "appears")
            reposition_split_queries(self._names, self.piece_queries, cols)
        return cols

    def qrels_columns(
        self,
        path: str,
        by: Mapping[int, str] | None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> dict[str, NDArray[Any]]:
        """The whole file's columns; a (query, document, annotator) in two pieces is refused.
        ``progress`` and ``cancelled``: as :meth:`run_columns`."""
        self._catch_up(0)
        pieces = len(self.parts)
        cols = concatenate(self.parts)
        self._settle(cols, progress, cancelled)
        if pieces > 1:
            key = (cols["query"], cols["doc"], cols["annotator"])
            verb = "is judged"
            refuse_repeats(self._names, path, key, cols["line"], self.query_names, by, verb)
        return cols

    def created(self) -> dict[str, int]:
        return {
            "queries created": self.q_new,
            "documents created": self.d_new,
            "annotators created": self.a_new,
        }
