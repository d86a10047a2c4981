"""TREC run and qrels writers (``qid Q0 docno rank score tag``, ``qid 0 docno grade``), atomic
through :func:`ndcg_studio.io.atomic.atomic_text_writer` .

A line whose query id starts with ``#`` is written with one leading space: trec_eval 10 skips
a line with ``#`` in its first column as a comment (``get_qrels.c``), and reads the spaced line
as the record, as do pytrec_eval, ir-measures and :mod:`ndcg_studio.io.trec.readers`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from ndcg_studio.io import atomic
from ndcg_studio.io.atomic import atomic_text_writer, rows_with_cancel
from ndcg_studio.io.reading.text import PathArg
from ndcg_studio.progress import Cancelled, OperationCancelled

__all__ = ["write_trec_qrels", "write_trec_run"]


def _check_token(value: object, what: str, row: int) -> str:
    text = "" if value is None else str(value)  # a missing id is not the text "None"
    if not text or len(text.split()) != 1 or text != text.strip():
        raise ValueError(
            f"row {row}: {what} {text!r} is empty or contains whitespace, which a TREC file "
            "cannot hold (imported by an older version, whose readers let such ids in); rename "
            "it in the database or export as CSV"
        )
    return text


def _write_lines(
    path: PathArg,
    rows: Iterable[Sequence[object]],
    format_row: Callable[[Sequence[object], int], str],
    cancelled: Cancelled | None,
) -> int:
    count = 0
    with atomic_text_writer(path) as handle:
        batch: list[str] = []
        for index, row in enumerate(rows_with_cancel(rows, cancelled), start=1):
            line = format_row(row, index)
            batch.append(" " + line if line.startswith("#") else line)
            if len(batch) >= atomic.CANCEL_CHECK_ROWS:
                handle.write("".join(batch))
                batch.clear()
            count = index
        handle.write("".join(batch))
    return count


def write_trec_run(
    path: PathArg,
    rows: Iterable[Sequence[object]],
    *,
    cancelled: Cancelled | None = None,
) -> int:
    """Write a TREC run ``qid Q0 docno rank score tag`` (single spaces, ``\\n``), atomically.

    Args:
        path: destination, or ``"-"`` for standard output.
        rows: ``(query_id, doc_id, rank, score, tag)`` tuples. Scores are written in the
            shortest form that reads back as the same binary64 (``repr``), so
            :func:`~ndcg_studio.io.trec.readers.read_trec_run` returns exactly the same floats.
        cancelled: polled every 10,000 rows.

    Returns:
        Number of lines written.

    Raises:
        ValueError: an id or tag is empty or contains whitespace (it would shift the
            columns), the rank is not an integer, the score is not a finite number.
        OperationCancelled, OSError: as :func:`write_csv` (old file intact).
    """

    def format_row(row: Sequence[object], index: int) -> str:
        query_id, doc_id, rank, score, tag = row
        if not isinstance(rank, int | np.integer) or isinstance(rank, bool):
            raise ValueError(f"row {index}: rank {rank!r} is not an integer")
        value = float(score)  # type: ignore[arg-type]
        if not math.isfinite(value):
            raise ValueError(f"row {index}: score {score!r} is not a finite number")
        return (
            f"{_check_token(query_id, 'query id', index)} Q0 "
            f"{_check_token(doc_id, 'document id', index)} {int(rank)} {value!r} "
            f"{_check_token(tag, 'tag', index)}\n"
        )

    return _write_lines(path, rows, format_row, cancelled)


def write_trec_qrels(
    path: PathArg,
    rows: Iterable[Sequence[object]],
    *,
    cancelled: Cancelled | None = None,
) -> int:
    """Write TREC qrels ``qid 0 docno grade`` (single spaces, ``\\n``), atomically.

    Args:
        path: destination, or ``"-"`` for standard output.
        rows: ``(query_id, doc_id, grade)`` tuples, written with ``0`` in the 2nd column (the
            TREC "iteration"), or ``(query_id, doc_id, grade, annotator)`` tuples, written
            with the annotator in the 2nd column (read back with
            ``read_trec_qrels(path, annotator_column=True)``). All rows must have the same
            length.
        cancelled: polled every 10,000 rows.

    Returns:
        Number of lines written.

    Raises:
        ValueError: ids empty or containing whitespace, grade not an integer, rows of mixed
            lengths.
        OperationCancelled, OSError: as :func:`write_csv` (old file intact).
    """
    width: list[int] = []

    def format_row(row: Sequence[object], index: int) -> str:
        if not width:
            if len(row) not in (3, 4):
                raise ValueError(f"row {index}: expected 3 or 4 values, found {len(row)}")
            width.append(len(row))
        if len(row) != width[0]:
            raise ValueError(f"row {index}: expected {width[0]} values, found {len(row)}")
        grade = row[2]
        if not isinstance(grade, int | np.integer) or isinstance(grade, bool):
            raise ValueError(f"row {index}: grade {grade!r} is not an integer")
        second = _check_token(row[3], "annotator", index) if len(row) == 4 else "0"
        return (
            f"{_check_token(row[0], 'query id', index)} {second} "
            f"{_check_token(row[1], 'document id', index)} {int(grade)}\n"
        )

    lines = _plain_qrels_lines(rows) if isinstance(rows, list) else None
    if lines is not None:
        return _write_line_list(path, lines, cancelled)
    return _write_lines(path, rows, format_row, cancelled)


def _plain_qrels_lines(rows: list[Sequence[object]]) -> list[str] | None:
    """The lines of :func:`write_trec_qrels` for a list of rows checked column by column (faster
    than row by row, ``benchmarks/bench_end_to_end.py``), or None when any row would fail a check
    (the row-by-row path then names it)."""
    if not rows:
        return None
    width = len(rows[0])
    if width not in (3, 4) or set(map(len, rows)) != {width}:
        return None
    columns = list(zip(*rows, strict=True))
    ids = [columns[0], columns[1], *columns[3:]]
    if not all(_plain_tokens(column) for column in ids) or set(map(type, columns[2])) != {int}:
        return None
    second: Sequence[object] = columns[3] if width == 4 else ["0"] * len(rows)
    lines = list(map("{} {} {} {}\n".format, columns[0], second, columns[1], columns[2]))
    if "#" in "".join(columns[0]):
        lines = [" " + line if line.startswith("#") else line for line in lines]
    return lines


def _write_line_list(path: PathArg, lines: list[str], cancelled: Cancelled | None) -> int:
    """Write finished lines atomically, :data:`~ndcg_studio.io.atomic.CANCEL_CHECK_ROWS` at a
    time (polling ``cancelled``)."""
    with atomic_text_writer(path) as handle:
        for start in range(0, len(lines), atomic.CANCEL_CHECK_ROWS):
            if cancelled is not None and cancelled():
                raise OperationCancelled("export cancelled")
            handle.write("".join(lines[start : start + atomic.CANCEL_CHECK_ROWS]))
    return len(lines)


def _plain_tokens(values: Sequence[object]) -> bool:
    """Whether every value is a non-empty text without whitespace (what ``_check_token``
    accepts), checked in bulk: such values are exactly the tokens of their joined text."""
    if set(map(type, values)) - {str}:
        return False
    return list(values) == "\n".join(values).split()  # type: ignore[arg-type]
