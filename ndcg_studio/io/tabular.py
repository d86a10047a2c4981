"""Readers of tabular files: judgments (CSV/TSV), queries (TSV/CSV), documents (CSV/TSV/JSONL).

CSV follows RFC 4180 as implemented by Python's :mod:`csv` module in strict mode (fields may
be quoted with ``"``; a quoted field may hold commas, quotes doubled as ``""`` and line breaks;
text after a closing quote or an unclosed quote is an error). The delimiter
is a tab for ``.tsv``/``.tab`` files, or when the header line contains a tab and no comma;
otherwise a comma. Header names are matched after stripping spaces, case-insensitively;
columns we do not know are ignored. Lines starting with ``#`` BEFORE the header are comments
(exports before 0.2 put provenance there); rows whose fields are all
empty are skipped (spreadsheets leave them). Values are stripped of surrounding spaces, then
the writers' spreadsheet guard is undone (a leading ``'`` before ``= + - @``, tab, CR or
another ``'``: :func:`ndcg_studio.io.spreadsheet.unguard`), so exports re-import exactly.

Files must be UTF-8 (optional BOM), LF or CRLF. All readers are strict and report up to 20
problems at once in one :class:`~ndcg_studio.io.errors.InputFileError`.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io._common import (
    Issues,
    PathArg,
    Ticker,
    canonical,
    check_ids,
    check_names,
    check_text,
    duplicate_string_pairs,
    empty_file,
    is_skipped,
    parse_int_column,
    read_text,
    split_lines,
)
from ndcg_studio.io.grades import apply_grade_map, check_grade_range
from ndcg_studio.io.spreadsheet import unguard, unguard_column
from ndcg_studio.progress import Cancelled, Progress

__all__ = [
    "DocumentsFile",
    "JudgmentsFile",
    "QueriesFile",
    "read_documents",
    "read_judgments_csv",
    "read_queries",
]

TAB_EXTENSIONS = (".tsv", ".tab")
JSONL_EXTENSIONS = (".jsonl", ".ndjson")


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


@dataclass(frozen=True, eq=False)
class QueriesFile:
    """Queries (topics), column by column; ``query_id`` is unique.

    Attributes:
        query_id: per row, non-empty.
        text: the query text (title), whitespace-stripped, non-empty.
        description, narrative: TREC topic parts, None when absent or empty.
        line: int64, shape (n,): 1-based line of the row (SMART: of its ``.I`` line).
    """

    query_id: list[str]
    text: list[str]
    description: list[str | None]
    narrative: list[str | None]
    line: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.query_id)


@dataclass(frozen=True, eq=False)
class DocumentsFile:
    """Documents, column by column; ``doc_id`` is unique.

    Attributes:
        doc_id: per row, non-empty.
        title, text, url: per row, None when absent or empty.
        line: int64, shape (n,): 1-based line of the row (SMART: of its ``.I`` line).
    """

    doc_id: list[str]
    title: list[str | None]
    text: list[str | None]
    url: list[str | None]
    line: NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.doc_id)


# --------------------------------------------------------------------------- CSV machinery


def _delimiter(path: PathArg, header_line: str) -> str:
    if Path(path).suffix.lower() in TAB_EXTENSIONS:
        return "\t"
    if "\t" in header_line and "," not in header_line:
        return "\t"
    return ","


class _Table:
    """A CSV/TSV file after its header: column positions and an iterator over data rows."""

    def __init__(
        self,
        path: PathArg,
        text: str,
        required: Sequence[str],
        optional: Sequence[str],
        issues: Issues,
        ticker: Ticker,
    ) -> None:
        self.issues = issues
        self.ticker = ticker
        lines = text.split("\n")
        skip = 0
        while skip < len(lines) and lines[skip].lstrip().startswith("#"):
            skip += 1
        while skip < len(lines) and not lines[skip].strip():
            skip += 1
        if skip >= len(lines):
            empty_file(issues)
        self.first_line = skip  # lines before the header (0-based index of the header line)
        self.delimiter = _delimiter(path, lines[skip])
        ticker.total = len(lines)
        body = "\n".join(lines[skip:])
        self._body = body
        self.reader = csv.reader(
            io.StringIO(body, newline=""), delimiter=self.delimiter, strict=True
        )
        header = self._next_row()
        assert header is not None
        header_number, names = header
        self.names = names  # as written (annotator names of a wide judgments file)
        normalised = [name.strip().lower() for name in names]
        self.width = len(normalised)
        self.index: dict[str, int] = {}
        for position, name in enumerate(normalised):
            if name in self.index and name in (*required, *optional):
                issues.add(header_number, name, "column appears twice in the header")
            self.index.setdefault(name, position)
        for name in required:
            if name not in self.index:
                shown = ", ".join(repr(n) for n in names)
                issues.add(
                    header_number,
                    name,
                    f"required column is missing (header: {shown}; "
                    f"delimiter {'TAB' if self.delimiter == chr(9) else repr(self.delimiter)})",
                )
        issues.raise_if_any()

    def _next_row(self) -> tuple[int, list[str]] | None:
        start = self.reader.line_num + 1
        try:
            row = next(self.reader)
        except StopIteration:
            return None
        except csv.Error as exc:
            # the line where the faulty row starts (an unclosed quote may run to the end)
            self.issues.fail(self.first_line + start, "csv", str(exc))
        return self.first_line + start, row

    def rows(self) -> Iterator[tuple[int, list[str]]]:
        """Data rows with the right number of fields, as (1-based line, stripped fields)."""
        step = self.ticker.chunk_size()
        next_tick = step
        self.ticker.tick(0)
        while (item := self._next_row()) is not None:
            number, row = item
            if number >= next_tick:
                self.ticker.tick(number)
                next_tick = number + step
            if not any(field.strip() for field in row):
                continue
            if len(row) != self.width:
                self.issues.add(
                    number,
                    "columns",
                    f"expected {self.width} fields like the header, found {len(row)}",
                )
                continue
            yield number, [unguard(field.strip()) for field in row]
        self.ticker.tick(self.ticker.total)

    def plain_columns(
        self, names: Sequence[str]
    ) -> tuple[list[list[str]], NDArray[np.int64]] | None:
        """The data rows' fields ``names`` (stripped; a column the header lacks is all ""),
        column by column, with each row's 1-based line — in C-speed bulk steps, when the file
        is plain: no quote character, no blank line, every line as wide as the header. None
        otherwise: the caller then reads :meth:`rows`, which names every problem. The whole
        judgments reader on 1,000,000 lines: 1.1 s instead of 3.0-4.7 s. Call it before
        :meth:`rows`.
        """
        body = self._body.replace("\r\n", "\n")
        if '"' in body or "\r" in body:
            return None
        lines = body.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        data = lines[1:]
        if "" in data:
            return None
        positions = [self.index.get(name) for name in names]
        columns: list[list[str]] = [[] for _ in names]
        sep, width = self.delimiter, self.width
        step = self.ticker.chunk_size()
        for start in range(0, len(data), step):  # a chunk at a time: progress and Cancel
            self.ticker.tick(self.first_line + 1 + start)
            chunk = data[start : start + step]
            # Every line has width - 1 separators (no quotes, so each is a field boundary):
            # then one split of the joined chunk gives all its fields in row order. No list per
            # row, which would make the garbage collector walk a million of them.
            if set(map(str.count, chunk, itertools.repeat(sep))) != {width - 1}:
                return None
            fields = sep.join(chunk).replace("\n", sep).split(sep)
            for column, position in zip(columns, positions, strict=True):
                if position is None:
                    column.extend([""] * len(chunk))
                else:
                    column.extend(unguard_column(list(map(str.strip, fields[position::width]))))
        first = self.first_line + 2  # 1-based line of the first data row
        self.ticker.tick(self.ticker.total)
        return columns, np.arange(first, first + len(data), dtype=np.int64)

    def column(self, row: list[str], name: str) -> str | None:
        position = self.index.get(name)
        return None if position is None else row[position]


def _optional(value: str | None) -> str | None:
    return value if value else None


def _report_duplicates(
    issues: Issues,
    key: Sequence[Sequence[str]],
    line: NDArray[np.int64],
    field: str,
    describe: str,
) -> None:
    for row, first in duplicate_string_pairs(key):
        values = ", ".join(repr(column[row]) for column in key)
        issues.add(
            int(line[row]),
            field,
            f"{describe} {values} appears twice (duplicate of line {line[first]})",
        )


# --------------------------------------------------------------------------- judgments


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
    table = _Table(
        path, text, ("query_id", "doc_id", "annotator", "grade"), ("note",), issues, ticker
    )
    if "note" not in table.index and "explanation" in table.index:
        table.index["note"] = table.index["explanation"]  # a model's judgments
    query_id: list[str] = []
    doc_id: list[str] = []
    annotator: list[str] = []
    grade_text: list[str] = []
    note: list[str | None] = []
    numbers: list[int] = []
    plain = table.plain_columns(("query_id", "doc_id", "annotator", "grade", "note"))
    if plain is not None and not any("" in column for column in plain[0][:4]):
        query_id, doc_id, annotator, grade_text, notes = plain[0]
        note = [text or None for text in notes]
        line = plain[1]
    else:  # row by row, naming each empty field
        for number, row in table.rows():
            values = {
                name: table.column(row, name) or ""
                for name in ("query_id", "doc_id", "annotator", "grade")
            }
            missing = [name for name, value in values.items() if not value]
            for name in missing:
                issues.add(number, name, "is empty")
            if missing:
                continue
            query_id.append(values["query_id"])
            doc_id.append(values["doc_id"])
            annotator.append(values["annotator"])
            grade_text.append(values["grade"])
            note.append(_optional(table.column(row, "note")))
            numbers.append(number)
        line = np.asarray(numbers, dtype=np.int64)
    if not query_id and not issues:
        empty_file(issues)
    raw_grade = parse_int_column(grade_text, line, "grade", issues)
    grade: NDArray[np.int64] | None = None
    if raw_grade is not None:
        grade = apply_grade_map(raw_grade, grade_map)
        check_grade_range(raw_grade, grade, line, grade_map, issues.add)
    annotator = canonical(annotator)
    check_ids(query_id, line, "query_id", issues)
    check_ids(doc_id, line, "doc_id", issues)
    check_names(annotator, line, "annotator", issues)
    _report_duplicates(
        issues,
        (query_id, doc_id, annotator),
        line,
        "doc_id",
        "judgment (query, document, annotator)",
    )
    issues.raise_if_any()
    assert grade is not None
    return JudgmentsFile(query_id, doc_id, annotator, grade, note, line)


def _is_wide(path: PathArg, text: str) -> bool:
    """Whether the header is ``query_id,doc_id,NAME,...`` (the wide export: one grade column
    per annotator) rather than the long ``query_id,doc_id,annotator,grade``."""
    for raw in text.split("\n", 1000)[:1000]:
        if raw.lstrip().startswith("#") or not raw.strip():
            continue
        try:
            names = next(csv.reader([raw], delimiter=_delimiter(path, raw)))
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
    table = _Table(path, text, ("query_id", "doc_id"), (), issues, ticker)
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
    if not query_id and not issues:
        empty_file(issues)
    raw_grade = parse_int_column(grade_text, line, "grade", issues)
    grade: NDArray[np.int64] | None = None
    if raw_grade is not None:
        grade = apply_grade_map(raw_grade, grade_map)
        check_grade_range(raw_grade, grade, line, grade_map, issues.add)
    annotator = canonical(annotator)
    _report_duplicates(
        issues,
        (query_id, doc_id, annotator),
        line,
        "doc_id",
        "judgment (query, document, annotator)",
    )
    issues.raise_if_any()
    assert grade is not None
    notes: list[str | None] = [None] * len(query_id)
    return JudgmentsFile(query_id, doc_id, annotator, grade, notes, line, has_notes=False)


# --------------------------------------------------------------------------- queries


def read_queries(
    path: PathArg,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> QueriesFile:
    """Read queries: TREC topics TSV ``qid<TAB>text`` (no header), or CSV with a header.

    A ``.csv`` file is read as CSV with header ``query_id,text[,description,narrative]``
    (other columns ignored); so is a tab-separated file whose first line is such a header
    (``query_id<TAB>text...``). Any other file (``.tsv``, ``.txt``, ...) is the headerless
    two-column TSV used by TREC/MS MARCO topic files. Blank lines and ``#`` lines are skipped
    in the TSV form.

    Args:
        path: the file.
        progress: ``progress(lines_done, lines_total)``, at most ~100 calls.
        cancelled: polled at the same points; True makes the reader raise.

    Returns:
        A :class:`QueriesFile`.

    Raises:
        InputFileError: wrong number of fields, empty query id or text, duplicate query id,
            missing header column, empty file, not UTF-8 (up to 20 problems).
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    ticker = Ticker(progress, cancelled)
    text = read_text(path, issues, ticker)
    query_id: list[str] = []
    texts: list[str] = []
    description: list[str | None] = []
    narrative: list[str | None] = []
    numbers: list[int] = []
    if Path(path).suffix.lower() == ".csv" or _has_query_header(text):
        table = _Table(
            path, text, ("query_id", "text"), ("description", "narrative"), issues, ticker
        )
        for number, row in table.rows():
            qid = table.column(row, "query_id") or ""
            body = table.column(row, "text") or ""
            if not qid:
                issues.add(number, "query_id", "is empty")
            if not body:
                issues.add(number, "text", "is empty")
            if not qid or not body:
                continue
            query_id.append(qid)
            texts.append(body)
            description.append(_optional(table.column(row, "description")))
            narrative.append(_optional(table.column(row, "narrative")))
            numbers.append(number)
    else:
        lines = split_lines(text)
        ticker.total = len(lines)
        step = ticker.chunk_size()
        ticker.tick(0)
        for index, raw in enumerate(lines):
            if index and index % step == 0:
                ticker.tick(index)
            if is_skipped(raw):
                continue
            number = index + 1
            fields = raw.split("\t")
            if len(fields) != 2:
                hint = " (is the file tab-separated?)" if len(fields) == 1 else ""
                issues.add(
                    number,
                    "columns",
                    f"expected 2 tab-separated fields (qid<TAB>text), found {len(fields)}{hint}",
                )
                continue
            qid, body = fields[0].strip(), fields[1].strip()
            if not qid:
                issues.add(number, "query_id", "is empty")
            if not body:
                issues.add(number, "text", "is empty")
            if not qid or not body:
                continue
            query_id.append(qid)
            texts.append(body)
            numbers.append(number)
        ticker.tick(len(lines))
        description = [None] * len(query_id)
        narrative = [None] * len(query_id)
    line = np.asarray(numbers, dtype=np.int64)
    if not query_id and not issues:
        empty_file(issues)
    check_ids(query_id, line, "query_id", issues)
    _report_duplicates(issues, (query_id,), line, "query_id", "query id")
    issues.raise_if_any()
    return QueriesFile(query_id, texts, description, narrative, line)


def _has_query_header(text: str) -> bool:
    """True when the first non-blank, non-comment line is a ``query_id<TAB>text...`` header."""
    for raw in text.split("\n", 50)[:50]:
        if is_skipped(raw):
            continue
        fields = [field.strip().lower() for field in raw.split("\t")]
        return len(fields) >= 2 and fields[:2] == ["query_id", "text"]
    return False


# --------------------------------------------------------------------------- documents


def read_documents(
    path: PathArg,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> DocumentsFile:
    """Read documents from CSV/TSV (header ``doc_id[,title][,text][,url]``) or JSONL.

    ``.jsonl``/``.ndjson`` files hold one JSON object per line with the same keys (``doc_id``
    a non-empty string or an integer; ``title``/``text``/``url`` strings or null; other keys
    ignored; blank lines skipped). Any other file is CSV (TSV for ``.tsv``/``.tab``).

    Args:
        path: the file.
        progress: ``progress(lines_done, lines_total)``, at most ~100 calls.
        cancelled: polled at the same points; True makes the reader raise.

    Returns:
        A :class:`DocumentsFile` (empty strings become None).

    Raises:
        InputFileError: invalid JSON or not an object, wrong value types, wrong number of CSV
            fields, empty or duplicate doc_id, missing ``doc_id`` header column, empty file,
            not UTF-8 (up to 20 problems).
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    ticker = Ticker(progress, cancelled)
    text = read_text(path, issues, ticker)
    doc_id: list[str] = []
    title: list[str | None] = []
    body: list[str | None] = []
    url: list[str | None] = []
    numbers: list[int] = []
    if Path(path).suffix.lower() in JSONL_EXTENSIONS:
        lines = split_lines(text)
        ticker.total = len(lines)
        step = ticker.chunk_size()
        ticker.tick(0)
        for index, raw in enumerate(lines):
            if index and index % step == 0:
                ticker.tick(index)
            if not raw.strip():
                continue
            number = index + 1
            record = _json_record(raw, number, issues)
            if record is None:
                continue
            doc_id.append(record[0])
            title.append(record[1])
            body.append(record[2])
            url.append(record[3])
            numbers.append(number)
        ticker.tick(len(lines))
    else:
        table = _Table(path, text, ("doc_id",), ("title", "text", "url"), issues, ticker)
        for number, row in table.rows():
            did = table.column(row, "doc_id") or ""
            if not did:
                issues.add(number, "doc_id", "is empty")
                continue
            doc_id.append(did)
            title.append(_optional(table.column(row, "title")))
            body.append(_optional(table.column(row, "text")))
            url.append(_optional(table.column(row, "url")))
            numbers.append(number)
    line = np.asarray(numbers, dtype=np.int64)
    if not doc_id and not issues:
        empty_file(issues)
    check_ids(doc_id, line, "doc_id", issues)
    _report_duplicates(issues, (doc_id,), line, "doc_id", "document id")
    issues.raise_if_any()
    return DocumentsFile(doc_id, title, body, url, line)


def _json_record(
    raw: str, number: int, issues: Issues
) -> tuple[str, str | None, str | None, str | None] | None:
    """(doc_id, title, text, url) of one JSONL line, or None after recording its issues."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        issues.add(number, "json", f"not valid JSON ({exc.msg} at column {exc.colno})")
        return None
    except RecursionError:
        issues.add(number, "json", "nested too deeply (a document is one flat JSON object)")
        return None
    if not isinstance(value, dict):
        issues.add(number, "json", f"expected a JSON object, found {type(value).__name__}")
        return None
    ok = True
    did = value.get("doc_id")
    if isinstance(did, int) and not isinstance(did, bool):
        did = str(did)
    if did is None:
        issues.add(number, "doc_id", "is missing")
        ok = False
    elif not isinstance(did, str):
        issues.add(number, "doc_id", f"expected a string, found {type(did).__name__}")
        ok = False
    elif not did.strip():
        issues.add(number, "doc_id", "is empty")
        ok = False
    optional: list[str | None] = []
    for key in ("title", "text", "url"):
        item = value.get(key)
        if item is not None and not isinstance(item, str):
            issues.add(number, key, f"expected a string or null, found {type(item).__name__}")
            ok = False
            item = None
        optional.append(_optional(item.strip()) if item is not None else None)
    if ok and "\\u" in raw:  # a JSON escape may spell NUL or a lone surrogate (the doc_id's
        # are refused with the other ids' checks)
        for key, text in zip(("title", "text", "url"), optional, strict=True):
            if text is not None:
                before = len(issues)
                check_text(text, number, key, issues)
                ok = ok and len(issues) == before
    if not ok:
        return None
    assert isinstance(did, str)
    return did.strip(), optional[0], optional[1], optional[2]
