"""The judgments reader: CSV/TSV ``query_id,doc_id,annotator,grade[,note]`` (the long form) or
``query_id,doc_id,NAME,...`` (the wide form, one grade column per annotator). The CSV rules are
those of :mod:`ndcg_studio.io.tabular`."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.grades import apply_grade_map, check_grade_range
from ndcg_studio.io.reading.columns import parse_int_column
from ndcg_studio.io.reading.table import Table, delimiter, optional, report_duplicates
from ndcg_studio.io.reading.text import (
    Issues,
    PathArg,
    canonical,
    check_ids,
    check_names,
    empty_file,
    read_text,
)
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.io.spreadsheet import unguard
from ndcg_studio.progress import Cancelled, Progress

__all__ = ["JudgmentsFile", "read_judgments_csv"]


@dataclass(frozen=True, eq=False)
class JudgmentsFile:
    """Judgments of several annotators, column by column (row i = line ``line[i]``).

    Attributes:
        query_id, doc_id, annotator: per row, non-empty strings.
        grade: int64, shape (n,): grade in 0-4 after the grade map.
        note: per row, the free-text note or None when empty/absent.
        line: int64, shape (n,): 1-based line where the row starts in the file.
        has_notes: False for a wide file, which has no note column (an import then keeps
            the notes already stored instead of clearing them).

    (query_id, doc_id, annotator) is unique.
    """

    query_id: list[str]
    doc_id: list[str]
    annotator: list[str]
    grade: NDArray[np.int64]
    note: list[str | None]
    line: NDArray[np.int64]
    has_notes: bool = True

    def __len__(self) -> int:
        return len(self.query_id)


def read_judgments_csv(
    path: PathArg,
    grade_map: Mapping[int, int] | None = None,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> JudgmentsFile:
    """Read judgments ``query_id,doc_id,annotator,grade[,note]`` (CSV or TSV with a header;
    a model's ``explanation`` column is read as the note when there is no ``note`` column),
    or the wide form ``query_id,doc_id,NAME,...`` (one grade column per annotator, as
    ``export judgments --wide`` writes; empty cell = not judged): a header without
    ``annotator`` and ``grade`` columns.

    Args:
        path: the file; TSV when named ``.tsv``/``.tab`` or when the header has a tab and no
            comma. Other columns are ignored.
        grade_map: ``{file grade: stored grade}`` applied before the 0-4 check.
        progress: ``progress(lines_done, lines_total)``, at most ~100 calls.
        cancelled: polled at the same points; True makes the reader raise.

    Returns:
        A :class:`JudgmentsFile`.

    Raises:
        InputFileError: missing required header column (line of the header, field = the
            column), wrong number of fields, empty query_id/doc_id/annotator, grade not an
            integer or outside 0-4 after the map, the same (query, document, annotator) twice,
            CSV syntax error, empty file, not UTF-8 (up to 20 problems).
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    ticker = Ticker(progress, cancelled)
    text = read_text(path, issues, ticker)
    if _is_wide(path, text):
        return _read_judgments_wide(path, text, grade_map, issues, ticker)
    table = Table(
        path, text, ("query_id", "doc_id", "annotator", "grade"), ("note",), issues, ticker
    )
    if "note" not in table.index and "explanation" in table.index:
        table.index["note"] = table.index["explanation"]  # a model's judgments
    query_id, doc_id, annotator, grade_text, note, line = _long_columns(table, issues)
    grade, annotator = _checked(
        issues, query_id, doc_id, annotator, grade_text, line, grade_map, check_ids_too=True
    )
    return JudgmentsFile(query_id, doc_id, annotator, grade, note, line)


_Columns = tuple[list[str], list[str], list[str], list[str], list[str | None], NDArray[np.int64]]


def _long_columns(table: Table, issues: Issues) -> _Columns:
    """``(query_id, doc_id, annotator, grade text, note, line)`` of a long file: in bulk when
    the file is plain, else row by row, naming each empty field."""
    plain = table.plain_columns(("query_id", "doc_id", "annotator", "grade", "note"))
    if plain is not None and not any("" in column for column in plain[0][:4]):
        query_id, doc_id, annotator, grade_text, notes = plain[0]
        return query_id, doc_id, annotator, grade_text, [t or None for t in notes], plain[1]
    query_id, doc_id, annotator, grade_text = [], [], [], []
    note: list[str | None] = []
    numbers: list[int] = []
    required = ("query_id", "doc_id", "annotator", "grade")
    for number, row in table.rows():
        values = {name: table.column(row, name) or "" for name in required}
        missing = [name for name, value in values.items() if not value]
        for name in missing:
            issues.add(number, name, "is empty")
        if missing:
            continue
        query_id.append(values["query_id"])
        doc_id.append(values["doc_id"])
        annotator.append(values["annotator"])
        grade_text.append(values["grade"])
        note.append(optional(table.column(row, "note")))
        numbers.append(number)
    return query_id, doc_id, annotator, grade_text, note, np.asarray(numbers, dtype=np.int64)


def _checked(
    issues: Issues,
    query_id: list[str],
    doc_id: list[str],
    annotator: list[str],
    grade_text: list[str],
    line: NDArray[np.int64],
    grade_map: Mapping[int, int] | None,
    *,
    check_ids_too: bool,
) -> tuple[NDArray[np.int64], list[str]]:
    """The grades (after the map) and the canonical annotator names, once every row is checked:
    grade values, ids and names (``check_ids_too``), repeated judgments.

    Raises:
        InputFileError: the problems found, or an empty file.
    """
    if not query_id and not issues:
        empty_file(issues)
    raw_grade = parse_int_column(grade_text, line, "grade", issues)
    grade: NDArray[np.int64] | None = None
    if raw_grade is not None:
        grade = apply_grade_map(raw_grade, grade_map)
        check_grade_range(raw_grade, grade, line, grade_map, issues.add)
    annotator = canonical(annotator)
    if check_ids_too:
        check_ids(query_id, line, "query_id", issues)
        check_ids(doc_id, line, "doc_id", issues)
        check_names(annotator, line, "annotator", issues)
    report_duplicates(
        issues,
        (query_id, doc_id, annotator),
        line,
        "doc_id",
        "judgment (query, document, annotator)",
    )
    issues.raise_if_any()
    assert grade is not None
    return grade, annotator


def _is_wide(path: PathArg, text: str) -> bool:
    """Whether the header is ``query_id,doc_id,NAME,...`` (the wide export: one grade column
    per annotator) rather than the long ``query_id,doc_id,annotator,grade``."""
    for raw in text.split("\n", 1000)[:1000]:
        if raw.lstrip().startswith("#") or not raw.strip():
            continue
        try:
            names = next(csv.reader([raw], delimiter=delimiter(path, raw)))
        except csv.Error:
            return False
        lowered = {name.strip().lower() for name in names}
        return (
            {"query_id", "doc_id"} <= lowered
            and not {"annotator", "grade"} & lowered
            and len(names) > 2
        )
    return False


def _read_judgments_wide(
    path: PathArg,
    text: str,
    grade_map: Mapping[int, int] | None,
    issues: Issues,
    ticker: Ticker,
) -> JudgmentsFile:
    """:func:`read_judgments_csv` of a wide file ``query_id,doc_id,NAME,...``: each non-empty
    cell of column NAME is NAME's grade (no notes). Same checks and errors as the long form."""
    table = Table(path, text, ("query_id", "doc_id"), (), issues, ticker)
    columns = _grade_columns(table, issues)
    issues.raise_if_any()
    query_id: list[str] = []
    doc_id: list[str] = []
    annotator: list[str] = []
    grade_text: list[str] = []
    numbers: list[int] = []
    qpos, dpos = table.index["query_id"], table.index["doc_id"]
    for number, row in table.rows():
        qid, did = row[qpos], row[dpos]
        for field, value in (("query_id", qid), ("doc_id", did)):
            if not value:
                issues.add(number, field, "is empty")
        if not qid or not did:
            continue
        for position, name in columns:
            if row[position]:
                query_id.append(qid)
                doc_id.append(did)
                annotator.append(name)
                grade_text.append(row[position])
                numbers.append(number)
    line = np.asarray(numbers, dtype=np.int64)
    grade, annotator = _checked(
        issues, query_id, doc_id, annotator, grade_text, line, grade_map, check_ids_too=False
    )
    notes: list[str | None] = [None] * len(query_id)
    return JudgmentsFile(query_id, doc_id, annotator, grade, notes, line, has_notes=False)


def _grade_columns(table: Table, issues: Issues) -> list[tuple[int, str]]:
    """``(position, annotator)`` of each grade column of a wide file's header (problems of
    the header go to ``issues``)."""
    header_line = table.first_line + 1
    columns: list[tuple[int, str]] = []
    for position, raw in enumerate(table.names):
        name = unguard(raw.strip())
        if raw.strip().lower() in ("query_id", "doc_id"):
            continue
        if not name:
            issues.add(header_line, "annotator", f"column {position + 1} has no name")
        elif name in {n for _, n in columns}:
            issues.add(header_line, name, "column appears twice in the header")
        columns.append((position, name))
    return columns
