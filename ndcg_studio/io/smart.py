"""Readers of the SMART format (Cranfield ``cran.all.1400`` and ``cran.qry``) and the Cranfield
grade map.

SMART files (Salton's SMART system; the classic test collections Cranfield, CACM, CISI, MED
use it) are sequences of records. A record starts with ``.I <id>``; each following line
``.X`` (one capital letter alone on its line, optionally followed by text) opens field X,
whose content is the lines up to the next marker. Cranfield uses ``.T`` title, ``.A``
authors, ``.B`` bibliographic source, ``.W`` abstract (queries: ``.I`` and ``.W``).

We keep the title (``.T``) and text (``.W``) only; other fields are read and dropped. Field
text is normalised: lines joined with single spaces, runs of whitespace collapsed, stripped.

A marker repeating a field already opened in the same record is taken as stray: it does not
open a field, and the lines after it continue the field being read. Cranfield has three such
records, all upstream corruption: documents 576 and 578 hold a second ``.W`` line, and
document 240 has stray ``.A`` and ``.B`` lines in the middle of its abstract (read naively,
most of that abstract would land in the dropped author/bibliography fields).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ndcg_studio.io.reading.text import (
    Issues,
    PathArg,
    check_ids,
    empty_file,
    read_text,
    split_lines,
)
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.io.tabular import DocumentsFile, QueriesFile
from ndcg_studio.progress import Cancelled, Progress

__all__ = [
    "CRANFIELD_GRADE_MAP",
    "CRANFIELD_GRADE_MAP_TEXT",
    "read_smart_documents",
    "read_smart_queries",
]

CRANFIELD_GRADE_MAP: dict[int, int] = {1: 4, 2: 3, 3: 2, 4: 1, -1: 0}
"""Cleverdon's Cranfield relevance codes (``cranqrel`` 3rd column) → our 0-4 grades.

Code 1 "references which are a complete answer to the question" → 4; 2 "high degree of
relevance" → 3; 3 "useful as general background" → 2; 4 "minimum interest" → 1; code -1 (one
line per query in ``cranqrel``, a document judged and found not relevant) → 0. Code 5 "no
interest" never occurs. That is grade = 5 - code for codes 1-4. Source: ``cranqrel.readme``
(Cleverdon's definitions) shipped with the collection, see ``resources/demo/cranfield/``.
"""

CRANFIELD_GRADE_MAP_TEXT = "1:4,2:3,3:2,4:1,-1:0"
""":data:`CRANFIELD_GRADE_MAP` in the ``--grade-map`` syntax of ``parse_grade_map``."""

_MARKER = re.compile(r"\.([A-Z])(?:[ \t]+(.*?))?[ \t]*")


@dataclass
class _Record:
    ident: str
    line: int
    fields: dict[str, list[str]] = field(default_factory=dict)

    def text(self, name: str) -> str | None:
        parts = self.fields.get(name)
        if not parts:
            return None
        joined = " ".join(" ".join(parts).split())
        return joined or None


def _records(
    path: PathArg,
    progress: Progress | None,
    cancelled: Cancelled | None,
    issues: Issues,
) -> list[_Record]:
    """The file's records (``.I`` blocks with their fields), ids checked."""
    ticker = Ticker(progress, cancelled)
    text = read_text(path, issues, ticker)
    lone_cr = text.replace("\r\n", "\n").find("\r")
    if lone_cr >= 0:  # old Mac line ends: a CR inside a line would join two fields
        issues.fail(
            text.replace("\r\n", "\n").count("\n", 0, lone_cr) + 1,
            "encoding",
            "a carriage return (CR) not followed by a line feed; save the file with LF or "
            "CRLF line ends",
        )
    lines = split_lines(text)
    del text
    records = _parse(lines, issues, ticker)
    if not records and not issues:
        empty_file(issues)
    _check_idents(records, issues)
    return records


def _parse(lines: list[str], issues: Issues, ticker: Ticker) -> list[_Record]:
    """Records from the lines: a ``.X`` marker opens field X of the current ``.I`` record;
    other lines continue the open field."""
    records: list[_Record] = []
    current: _Record | None = None
    field_name: str | None = None
    complained_outside = False
    for index, raw in ticker.lines(lines):
        number = index + 1
        match = _MARKER.fullmatch(raw)
        if match is not None:
            letter, rest = match.group(1), match.group(2)
            if letter == "I":
                ident = (rest or "").strip()
                if not ident:
                    issues.add(number, "I", "'.I' line without an id")
                current = _Record(ident, number)
                records.append(current)
                field_name = None
            elif current is None:
                if not complained_outside:
                    issues.add(number, letter, f"'.{letter}' before the first '.I' line")
                    complained_outside = True
            else:
                if letter not in current.fields:  # else a stray repeat: keep the open field
                    field_name = letter
                    current.fields[letter] = []
                if rest and field_name is not None:
                    current.fields[field_name].append(rest)
            continue
        if not raw.strip():
            continue
        if current is None:
            if not complained_outside:
                issues.add(number, "I", "text before the first '.I' line")
                complained_outside = True
        elif field_name is None:
            issues.add(number, "I", "text after '.I' outside any field (expected e.g. '.W')")
        else:
            current.fields[field_name].append(raw)
    return records


def _check_idents(records: list[_Record], issues: Issues) -> None:
    """Issues for bad ids and for an id on two ``.I`` lines (naming the first)."""
    named = [record for record in records if record.ident]
    check_ids(
        [record.ident for record in named],
        np.asarray([record.line for record in named], dtype=np.int64),
        "I",
        issues,
    )
    first_line: dict[str, int] = {}
    for record in records:
        if not record.ident:
            continue
        first = first_line.setdefault(record.ident, record.line)
        if first != record.line:
            issues.add(
                record.line, "I", f"id {record.ident!r} appears twice (duplicate of line {first})"
            )


def read_smart_documents(
    path: PathArg,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> DocumentsFile:
    """Read SMART documents (``.I`` id, ``.T`` title, ``.W`` text; ``.A``/``.B``/... dropped).

    Args:
        path: e.g. Cranfield's ``cran.all.1400`` (1,400 records).
        progress: ``progress(lines_done, lines_total)``, at most ~100 calls.
        cancelled: polled at the same points; True makes the reader raise.

    Returns:
        A :class:`~ndcg_studio.io.tabular.DocumentsFile`; ``doc_id`` is the ``.I`` value as
        written, ``title``/``text`` are whitespace-normalised (None when absent or empty),
        ``url`` is None, ``line`` is the line of each ``.I``.

    Raises:
        InputFileError: text before the first ``.I``, ``.I`` without an id, text outside a
            field, duplicate ids, empty file, not UTF-8 (up to 20 problems).
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    records = _records(path, progress, cancelled, issues)
    issues.raise_if_any()
    return DocumentsFile(
        doc_id=[record.ident for record in records],
        title=[record.text("T") for record in records],
        text=[record.text("W") for record in records],
        url=[None] * len(records),
        line=np.asarray([record.line for record in records], dtype=np.int64),
    )


def read_smart_queries(
    path: PathArg,
    renumber: bool = False,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> QueriesFile:
    """Read SMART queries (``.I`` id, ``.W`` text).

    Args:
        path: e.g. Cranfield's ``cran.qry`` (225 records).
        renumber: use the 1-based position of each query in the file as its id ("1", "2",
            ...) instead of its ``.I`` value. Cranfield needs it: ``cran.qry`` numbers its
            queries 001, 002, 004, 008, ... while ``cranqrel`` numbers them 1..225 by position
            (see ``resources/demo/cranfield/SOURCE.md``).
        progress: ``progress(lines_done, lines_total)``, at most ~100 calls.
        cancelled: polled at the same points; True makes the reader raise.

    Returns:
        A :class:`~ndcg_studio.io.tabular.QueriesFile` (``description``/``narrative`` None),
        ``line`` is the line of each ``.I``.

    Raises:
        InputFileError: as :func:`read_smart_documents`, plus a query without ``.W`` text.
            Duplicate ``.I`` ids are an error even with ``renumber``.
        OperationCancelled: ``cancelled()`` returned True.
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    records = _records(path, progress, cancelled, issues)
    texts: list[str] = []
    for record in records:
        text = record.text("W")
        if text is None:
            issues.add(record.line, "W", f"query {record.ident!r} has no '.W' text")
            text = ""
        texts.append(text)
    issues.raise_if_any()
    if renumber:
        query_id = [str(position) for position in range(1, len(records) + 1)]
    else:
        query_id = [record.ident for record in records]
    return QueriesFile(
        query_id=query_id,
        text=texts,
        description=[None] * len(records),
        narrative=[None] * len(records),
        line=np.asarray([record.line for record in records], dtype=np.int64),
    )
