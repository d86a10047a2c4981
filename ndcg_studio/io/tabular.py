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

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.reading.table import Table, optional, report_duplicates
from ndcg_studio.io.reading.text import (
    Issues,
    PathArg,
    check_ids,
    check_text,
    empty_file,
    is_skipped,
    read_text,
    split_lines,
)
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.progress import Cancelled, Progress

__all__ = ["DocumentsFile", "QueriesFile", "read_documents", "read_queries"]

JSONL_EXTENSIONS = (".jsonl", ".ndjson")


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
    if Path(path).suffix.lower() == ".csv" or _has_query_header(text):
        table = Table(
            path, text, ("query_id", "text"), ("description", "narrative"), issues, ticker
        )
        query_id, texts, description, narrative, numbers = _queries_from_table(table, issues)
    else:
        query_id, texts, numbers = _queries_from_tsv(text, issues, ticker)
        description = [None] * len(query_id)
        narrative = [None] * len(query_id)
    line = _checked_ids(query_id, numbers, "query_id", "query id", issues)
    return QueriesFile(query_id, texts, description, narrative, line)


def _queries_from_table(
    table: Table, issues: Issues
) -> tuple[list[str], list[str], list[str | None], list[str | None], list[int]]:
    """``(query_id, text, description, narrative, line)`` of a queries CSV."""
    query_id: list[str] = []
    texts: list[str] = []
    description: list[str | None] = []
    narrative: list[str | None] = []
    numbers: list[int] = []
    for number, row in table.rows():
        qid = table.column(row, "query_id") or ""
        body = table.column(row, "text") or ""
        if not _has_id_and_text(number, qid, body, issues):
            continue
        query_id.append(qid)
        texts.append(body)
        description.append(optional(table.column(row, "description")))
        narrative.append(optional(table.column(row, "narrative")))
        numbers.append(number)
    return query_id, texts, description, narrative, numbers


def _queries_from_tsv(
    text: str, issues: Issues, ticker: Ticker
) -> tuple[list[str], list[str], list[int]]:
    """``(query_id, text, line)`` of a headerless ``qid<TAB>text`` topics file."""
    query_id: list[str] = []
    texts: list[str] = []
    numbers: list[int] = []
    for index, raw in ticker.lines(split_lines(text)):
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
        if not _has_id_and_text(number, qid, body, issues):
            continue
        query_id.append(qid)
        texts.append(body)
        numbers.append(number)
    return query_id, texts, numbers


def _has_id_and_text(number: int, qid: str, body: str, issues: Issues) -> bool:
    """Whether line ``number`` has both a query id and a text; each one empty is reported."""
    if not qid:
        issues.add(number, "query_id", "is empty")
    if not body:
        issues.add(number, "text", "is empty")
    return bool(qid and body)


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
    if Path(path).suffix.lower() in JSONL_EXTENSIONS:
        records, numbers = _documents_from_jsonl(text, issues, ticker)
    else:
        table = Table(path, text, ("doc_id",), ("title", "text", "url"), issues, ticker)
        records, numbers = _documents_from_table(table, issues)
    doc_id = [r[0] for r in records]
    title = [r[1] for r in records]
    body = [r[2] for r in records]
    url = [r[3] for r in records]
    line = _checked_ids(doc_id, numbers, "doc_id", "document id", issues)
    return DocumentsFile(doc_id, title, body, url, line)


_Document = tuple[str, str | None, str | None, str | None]


def _documents_from_jsonl(
    text: str, issues: Issues, ticker: Ticker
) -> tuple[list[_Document], list[int]]:
    """``(doc_id, title, text, url)`` records and their lines of a JSONL file."""
    records: list[_Document] = []
    numbers: list[int] = []
    for index, raw in ticker.lines(split_lines(text)):
        if not raw.strip():
            continue
        number = index + 1
        record = _json_record(raw, number, issues)
        if record is None:
            continue
        records.append(record)
        numbers.append(number)
    return records, numbers


def _documents_from_table(table: Table, issues: Issues) -> tuple[list[_Document], list[int]]:
    """``(doc_id, title, text, url)`` records and their lines of a documents CSV/TSV."""
    records: list[_Document] = []
    numbers: list[int] = []
    for number, row in table.rows():
        did = table.column(row, "doc_id") or ""
        if not did:
            issues.add(number, "doc_id", "is empty")
            continue
        title, body, url = (optional(table.column(row, c)) for c in ("title", "text", "url"))
        records.append((did, title, body, url))
        numbers.append(number)
    return records, numbers


def _json_record(raw: str, number: int, issues: Issues) -> _Document | None:
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
    parts: list[str | None] = []
    for key in ("title", "text", "url"):
        item = value.get(key)
        if item is not None and not isinstance(item, str):
            issues.add(number, key, f"expected a string or null, found {type(item).__name__}")
            ok = False
            item = None
        parts.append(optional(item.strip()) if item is not None else None)
    if ok and "\\u" in raw:  # a JSON escape may spell NUL or a lone surrogate (the doc_id's
        # are refused with the other ids' checks)
        for key, text in zip(("title", "text", "url"), parts, strict=True):
            if text is not None:
                before = len(issues)
                check_text(text, number, key, issues)
                ok = ok and len(issues) == before
    if not ok:
        return None
    assert isinstance(did, str)
    return did.strip(), parts[0], parts[1], parts[2]


# --------------------------------------------------------------------------- queries and documents


def _checked_ids(
    ids: list[str], numbers: list[int], field: str, what: str, issues: Issues
) -> NDArray[np.int64]:
    """(n,) int64 the lines of the records with ids ``ids`` (column ``field``, a ``what`` in
    messages), once the file is known not to be empty and the ids valid and distinct.

    Raises:
        InputFileError: the problems found so far, an empty file, or an invalid or repeated id.
    """
    line = np.asarray(numbers, dtype=np.int64)
    if not ids and not issues:
        empty_file(issues)
    check_ids(ids, line, field, issues)
    report_duplicates(issues, (ids,), line, field, what)
    issues.raise_if_any()
    return line
