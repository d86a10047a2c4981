"""TREC run and qrels readers (trec_eval's whitespace-separated text formats).

Formats, as read by trec_eval 10.0 (``get_trec_results.c``, ``get_qrels.c``; see its README):

- run: ``qid Q0 docno rank score tag`` — six fields per line. trec_eval ignores the ``Q0``
  (iteration) and ``rank`` columns and orders by score (``get_trec_results.c``: "the rank field
  is ignored here"); so do we: any rank text is accepted (0-based, negative, repeated, ``1.0``).
  The rank is kept where it is an integer that fits 32 bits, for ``--order rank``; a rank column
  that cannot order the run is described by :attr:`RunFile.rank_problem`.
- qrels: ``qid iter docno grade`` — four fields per line; ``iter`` is ignored by trec_eval.
  With ``annotator_column=True`` the 2nd field is read as the annotator's name instead (one
  qrels file holding several annotators' judgments, like trec_eval's ``qrels_jg`` groups).

Fields are separated by runs of whitespace (spaces or tabs, like trec_eval); lines may end in
LF or CRLF. Blank lines and lines with ``#`` in the first column are skipped, as trec_eval 10
does (``get_qrels.c``; its own test files
contain such comment lines). Files must be UTF-8 (an optional BOM is ignored).

Readers are columnar and strict: they return lists and numpy arrays for bulk insertion, and
raise :class:`~ndcg_studio.io.errors.InputFileError` listing up to 20 problems (wrong field
count, non-numeric or non-integer values, NaN/infinite scores, duplicates, grades outside 0-4
after the grade map, empty file).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.grades import apply_grade_map, check_grade_range
from ndcg_studio.io.reading.columns import (
    duplicate_string_pairs,
    parse_float_column,
    parse_int_column,
)
from ndcg_studio.io.reading.pieces import CHUNK_BYTES, pieces
from ndcg_studio.io.reading.text import (
    Issues,
    PathArg,
    canonical,
    check_ids,
    check_names,
    clean_ascii,
    empty_file,
    whitespace_columns,
)
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.io.trec.ranks import rank_column
from ndcg_studio.progress import Cancelled, Progress

__all__ = [
    "QrelsFile",
    "RunFile",
    "first_tag",
    "read_trec_qrels",
    "read_trec_qrels_chunks",
    "read_trec_run",
    "read_trec_run_chunks",
]

RUN_LAYOUT = "qid Q0 docno rank score tag"
QRELS_LAYOUT = "qid iter docno grade"
QRELS_ANNOTATOR_LAYOUT = "qid annotator docno grade"


@dataclass(frozen=True, eq=False)
class RunFile:
    """A TREC run file, column by column (row i = line ``line[i]`` of the file).

    Attributes:
        query_id: query id per row (str, never empty).
        doc_id: document id (docno) per row.
        rank: int64, shape (n,): the rank column as written where ``rank_usable`` (0 elsewhere);
            not used to order documents unless asked (``--order rank``).
        rank_usable: bool, shape (n,): the rank text is an ASCII decimal integer in
            [-2**31, 2**31) (stored; elsewhere the database holds NULL).
        score: float64, shape (n,): retrieval score, finite (parsed as IEEE binary64).
        tag: run tag per row (equal strings share one object).
        line: int64, shape (n,): 1-based line number in the source file.
        rank_problem: None when the ranks can order the run (all usable, none repeated within a
            query), else the first reason why not, ``FILE:LINE: rank: ...``.

    (query_id, doc_id) is unique.
    """

    query_id: list[str]
    doc_id: list[str]
    rank: NDArray[np.int64]
    score: NDArray[np.float64]
    tag: list[str]
    line: NDArray[np.int64]
    rank_usable: NDArray[np.bool_]
    rank_problem: str | None = None

    def __len__(self) -> int:
        return len(self.query_id)

    @functools.cached_property
    def tags(self) -> tuple[str, ...]:
        """Distinct run tags in order of first appearance (usually one: the run's name)."""
        return tuple(dict.fromkeys(self.tag))


@dataclass(frozen=True, eq=False)
class QrelsFile:
    """A TREC qrels file, column by column (row i = line ``line[i]`` of the file).

    Attributes:
        query_id: query id per row.
        doc_id: document id per row.
        grade: int64, shape (n,): grade in 0-4 AFTER the grade map.
        annotator: annotator name per row, or None when the file has no annotator column
            (the 2nd column was then the ignored TREC "iteration").
        line: int64, shape (n,): 1-based line number in the source file.

    (query_id, doc_id) — or (query_id, doc_id, annotator) — is unique.
    """

    query_id: list[str]
    doc_id: list[str]
    grade: NDArray[np.int64]
    annotator: list[str] | None
    line: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.query_id)


def read_trec_run(
    path: PathArg,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    on_doc_ids: Callable[[list[str]], object] | None = None,
) -> RunFile:
    """Read a TREC run file ``qid Q0 docno rank score tag``.

    Args:
        path: the file (UTF-8, LF or CRLF).
        progress: called as ``progress(lines_done, lines_total)`` at most ~100 times.
        cancelled: polled at the same points; when it returns True the reader stops.
        on_doc_ids: called once with the doc_id column (one str per line kept, the list the
            result holds; not to be changed) as soon as every line has its six fields, before
            the values are parsed and checked — the file may still be refused. Lets a caller
            start work on the documents while the rest is read.

    Returns:
        A :class:`RunFile`.

    Raises:
        InputFileError: up to 20 problems: wrong number of fields, score not a finite number
            (ASCII digits only, as trec_eval's ``atof`` reads them), the same document twice for
            a query (naming the line of the first occurrence), bad ids (see
            :func:`~ndcg_studio.io.reading.text.check_ids`), empty file, not UTF-8. The rank column
            is never refused (see :attr:`RunFile.rank_problem`).
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.

    The whole file is one piece of :func:`read_trec_run_chunks` (so the two read alike);
    ``benchmarks/bench_io_parse.py`` measures its speed.
    """
    (run,) = _run_pieces(path, None, progress, cancelled, on_doc_ids)
    return run


#: how much of a run file :func:`first_tag` reads at most (a first line longer than this is
#: the import's to refuse, not the question's)
_FIRST_LINE_BYTES = 65_536


def first_tag(path: PathArg) -> str | None:
    """The tag of the first non-blank line of a run file (its sixth field), or None when there
    is none within the first 64 KiB: what the run's name will be, to ask before an import
    would replace a run of that name. Reads at most 64 KiB.

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as handle:
        head = handle.read(_FIRST_LINE_BYTES)
    for raw in head.split(b"\n"):
        fields = raw.decode("utf-8", errors="replace").split()
        if fields:
            return fields[5] if len(fields) >= 6 else None
    return None


def _run_from_text(
    text: str,
    issues: Issues,
    ticker: Ticker,
    first_line: int,
    on_doc_ids: Callable[[list[str]], object] | None,
) -> RunFile:
    """:func:`read_trec_run` of ``text``, a file or a piece of one after ``first_line`` lines
    (an empty result is not refused here)."""
    clean = clean_ascii(text)  # fields: printable ASCII; numbers: ASCII unless a '_' somewhere
    plain = clean and "_" not in text
    columns, line = whitespace_columns(
        text, 6, (0, 2, 3, 4, 5), RUN_LAYOUT, issues, ticker, first_line
    )
    del text
    query_id, doc_id, rank_text, score_text, tag = columns
    if on_doc_ids is not None and not issues and doc_id:
        on_doc_ids(doc_id)
    score = parse_float_column(score_text, line, "score", issues, plain=plain or None)
    del score_text
    ticker.check()
    tag = canonical(tag)
    check_ids(query_id, line, "query_id", issues, clean=clean)
    check_ids(doc_id, line, "doc_id", issues, clean=clean)
    check_names(tag, line, "tag", issues)
    for row, first in duplicate_string_pairs((query_id, doc_id)):
        issues.add(
            int(line[row]),
            "doc_id",
            f"document {doc_id[row]!r} appears twice for query {query_id[row]!r} "
            f"(duplicate of line {line[first]})",
        )
    issues.raise_if_any()
    assert score is not None
    rank, usable, problem = rank_column(rank_text, line, query_id, plain)
    ticker.check()
    if problem is not None:
        problem = f"{issues.path}:{problem}"
    return RunFile(query_id, doc_id, rank, score, tag, line, usable, problem)


def read_trec_qrels(
    path: PathArg,
    grade_map: Mapping[int, int] | None = None,
    annotator_column: bool = False,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    on_doc_ids: Callable[[list[str]], object] | None = None,
) -> QrelsFile:
    """Read a TREC qrels file ``qid iter docno grade`` (or ``qid annotator docno grade``).

    Args:
        path: the file (UTF-8, LF or CRLF).
        grade_map: ``{file grade: stored grade}`` applied before the 0-4 check (see
            :func:`ndcg_studio.io.grades.parse_grade_map`); grades not in it are kept.
        annotator_column: read the 2nd field as the annotator's name.
        progress: called as ``progress(lines_done, lines_total)`` at most ~100 times.
        cancelled: polled at the same points; when it returns True the reader stops.
        on_doc_ids: as for :func:`read_trec_run` (called once the lines have their four fields).

    Returns:
        A :class:`QrelsFile`.

    Raises:
        InputFileError: up to 20 problems: wrong number of fields, grade not a number or not an
            integer, grade outside 0-4 after the map, a (query, document[, annotator]) judged
            twice (naming the first line), empty file, not UTF-8.
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.

    The whole file is one piece of :func:`read_trec_qrels_chunks`.
    """
    (qrels,) = _qrels_pieces(
        path, None, grade_map, annotator_column, progress, cancelled, on_doc_ids
    )
    return qrels


def _qrels_from_text(
    text: str,
    issues: Issues,
    ticker: Ticker,
    first_line: int,
    grade_map: Mapping[int, int] | None,
    annotator_column: bool,
    on_doc_ids: Callable[[list[str]], object] | None,
) -> QrelsFile:
    """:func:`read_trec_qrels` of ``text``, a file or a piece of one after ``first_line``
    lines (an empty result is not refused here)."""
    clean = clean_ascii(text)
    plain = clean and "_" not in text
    layout = QRELS_ANNOTATOR_LAYOUT if annotator_column else QRELS_LAYOUT
    keep = (0, 1, 2, 3) if annotator_column else (0, 2, 3)
    columns, line = whitespace_columns(text, 4, keep, layout, issues, ticker, first_line)
    del text
    if annotator_column:
        query_id, second, doc_id, grade_text = columns
    else:
        query_id, doc_id, grade_text = columns
        second = []
    if on_doc_ids is not None and not issues and doc_id:
        on_doc_ids(doc_id)
    raw_grade = parse_int_column(grade_text, line, "grade", issues, plain=plain or None)
    del grade_text
    ticker.check()
    grade: NDArray[np.int64] | None = None
    if raw_grade is not None:
        grade = apply_grade_map(raw_grade, grade_map)
        check_grade_range(raw_grade, grade, line, grade_map, issues.add)
    annotator = canonical(second) if annotator_column else None
    check_ids(query_id, line, "query_id", issues, clean=clean)
    check_ids(doc_id, line, "doc_id", issues, clean=clean)
    if annotator is not None:
        check_names(annotator, line, "annotator", issues)
    key = (query_id, doc_id) if annotator is None else (query_id, doc_id, annotator)
    for row, first in duplicate_string_pairs(key):
        by = "" if annotator is None else f" by annotator {annotator[row]!r}"
        issues.add(
            int(line[row]),
            "doc_id",
            f"document {doc_id[row]!r} is judged twice for query {query_id[row]!r}{by} "
            f"(duplicate of line {line[first]})",
        )
    issues.raise_if_any()
    assert grade is not None
    ticker.check()
    return QrelsFile(query_id, doc_id, grade, annotator, line)


def read_trec_run_chunks(
    path: PathArg,
    *,
    chunk_bytes: int | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    on_doc_ids: Callable[[list[str]], object] | None = None,
) -> Iterator[RunFile]:
    """:func:`read_trec_run` piece by piece: one :class:`RunFile` per ~``chunk_bytes`` of
    whole lines (default :data:`CHUNK_BYTES`), each read and checked by the same rules
    (``line`` numbers count from the file's start), cut where the query id changes when a
    query's lines are together.

    What a piece cannot see is left to the caller: the same (query, document) in two pieces,
    the same rank for a query in two pieces, a query whose lines are in several pieces (its
    positions), the distinct tags. ``on_doc_ids`` is called once per non-empty piece.

    Raises:
        InputFileError: the problems of the first piece that has any (nothing after it is
            read), or an empty file (after the last piece).
        OperationCancelled, OSError: as :func:`read_trec_run`.
    """
    return _run_pieces(path, chunk_bytes or CHUNK_BYTES, progress, cancelled, on_doc_ids)


def _run_pieces(
    path: PathArg,
    chunk_bytes: int | None,
    progress: Progress | None,
    cancelled: Cancelled | None,
    on_doc_ids: Callable[[list[str]], object] | None,
) -> Iterator[RunFile]:
    """The run's pieces (``chunk_bytes`` None: the whole file as one piece), cut by query."""

    def parse(text: str, issues: Issues, ticker: Ticker, first_line: int) -> RunFile:
        return _run_from_text(text, issues, ticker, first_line, on_doc_ids)

    return _parsed_pieces(path, chunk_bytes, True, progress, cancelled, parse)


def read_trec_qrels_chunks(
    path: PathArg,
    grade_map: Mapping[int, int] | None = None,
    annotator_column: bool = False,
    *,
    chunk_bytes: int | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    on_doc_ids: Callable[[list[str]], object] | None = None,
) -> Iterator[QrelsFile]:
    """:func:`read_trec_qrels` piece by piece, as :func:`read_trec_run_chunks` (cut at line
    ends only). A (query, document[, annotator]) judged in two pieces is left to the caller.

    Raises:
        InputFileError, OperationCancelled, OSError: as :func:`read_trec_run_chunks`.
    """
    return _qrels_pieces(
        path,
        chunk_bytes or CHUNK_BYTES,
        grade_map,
        annotator_column,
        progress,
        cancelled,
        on_doc_ids,
    )


def _qrels_pieces(
    path: PathArg,
    chunk_bytes: int | None,
    grade_map: Mapping[int, int] | None,
    annotator_column: bool,
    progress: Progress | None,
    cancelled: Cancelled | None,
    on_doc_ids: Callable[[list[str]], object] | None,
) -> Iterator[QrelsFile]:
    """The qrels' pieces (``chunk_bytes`` None: the whole file as one piece)."""

    def parse(text: str, issues: Issues, ticker: Ticker, first_line: int) -> QrelsFile:
        return _qrels_from_text(
            text, issues, ticker, first_line, grade_map, annotator_column, on_doc_ids
        )

    return _parsed_pieces(path, chunk_bytes, False, progress, cancelled, parse)


#: what a reader of pieces yields: a run's pieces or a qrels file's
_Piece = TypeVar("_Piece", RunFile, QrelsFile)


def _parsed_pieces(
    path: PathArg,
    chunk_bytes: int | None,
    by_query: bool,
    progress: Progress | None,
    cancelled: Cancelled | None,
    parse: Callable[[str, Issues, Ticker, int], _Piece],
) -> Iterator[_Piece]:
    """The non-empty pieces of the file (:func:`~ndcg_studio.io.reading.pieces.pieces`), each
    read by ``parse(text, issues, ticker, lines before it)``, the issues shared by all.

    Raises:
        InputFileError: the problems of the first piece that has any, or an empty file (after
            the last piece).
    """
    issues = Issues(path)
    rows = 0
    for text, first_line, ticker in pieces(
        path, chunk_bytes, by_query, issues, progress, cancelled
    ):
        piece = parse(text, issues, ticker, first_line)
        del text
        rows += len(piece)
        if len(piece):
            yield piece
        del piece  # not alive while the next piece is parsed (import_pieces.PieceNames: why)
    if not rows:
        empty_file(issues)
