"""Writers: CSV safe to open in spreadsheets, Excel workbooks, TREC run and qrels; all atomic.

A table goes out as CSV or as an ``.xlsx`` workbook: :func:`write_table` is the one place that
chooses (every command and export kind calls it, so each gets both formats).

Atomic: the content is written to a temporary file in the destination's directory, flushed
and fsync'ed, then renamed over the destination with :func:`os.replace` (atomic on POSIX and
Windows when both are on one file system). If anything fails or the export is cancelled, the
temporary file is removed and an existing file at the destination is left untouched. A
replaced file keeps its permission bits; a new one gets the default ``0o666 & ~umask``.

The path ``"-"`` writes to standard output instead (not atomic, no BOM check).

TREC lines whose query id starts with ``#`` are written with one leading space: trec_eval 10
skips a line with ``#`` in its first column as a comment (``get_qrels.c``), and reads the
spaced line as the record, as do pytrec_eval, ir-measures and :mod:`ndcg_studio.io.trec`.
"""

from __future__ import annotations

import contextlib
import csv
import json
import math
import numbers
import os
import re
import secrets
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from ndcg_studio.io._common import PathArg
from ndcg_studio.io.spreadsheet import FORMULA_TRIGGERS, guard
from ndcg_studio.progress import Cancelled, OperationCancelled

__all__ = [
    "FORMULA_TRIGGERS",
    "atomic_text_writer",
    "csv_cell",
    "csv_column",
    "table_format",
    "write_csv",
    "write_csv_columns",
    "write_settings",
    "write_table",
    "write_trec_qrels",
    "write_trec_run",
    "write_xlsx",
]

#: Rows between two polls of ``cancelled()``.
CANCEL_CHECK_ROWS = 10_000

STDOUT = "-"


@contextlib.contextmanager
def atomic_text_writer(path: PathArg, *, bom: bool = False) -> Iterator[TextIO]:
    """Open ``path`` for writing UTF-8 text atomically (see the module docstring).

    Args:
        path: destination file, or ``"-"`` for standard output (not atomic).
        bom: start the file with a UTF-8 byte order mark (U+FEFF).

    Yields:
        A text stream with ``newline=""`` (no newline translation: what you write is what
        ends up in the file).

    Raises:
        OSError: the directory is not writable, the disk is full, ...; the destination is then
            unchanged and the temporary file removed. Any exception from the body (including
            :class:`~ndcg_studio.io.errors.OperationCancelled`) propagates the same way.
    """
    if str(path) == STDOUT:
        if bom:
            sys.stdout.write("\ufeff")
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        descriptor = os.open(
            temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666
        )
    except OSError as exc:  # name the file the user asked for, not our temporary one
        raise OSError(exc.errno, exc.strerror, str(target)) from exc
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            if bom:
                handle.write("\ufeff")
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _fsync_directory(target.parent)


def _fsync_directory(folder: Path) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _format_float(value: float) -> str:
    """Shortest text that reads back as the same binary64 (Python ``repr``); NaN → ``""``."""
    if math.isnan(value):
        return ""
    return repr(float(value))


def csv_cell(value: object) -> str:
    """Text of one CSV cell, safe against spreadsheet formula injection.

    - None and NaN → empty cell.
    - Numbers (``int``, ``float``, numpy integer/floating scalars, ``numbers.Real``) are
      written as numbers, untouched: ints in decimal, binary64 floats in their shortest
      round-trip form (``repr``: ``0.1``, ``-0.5``, ``1e-05``, ``inf``), numpy float32/16 in
      numpy's shortest form for their precision. A negative number keeps its ``-``.
    - bool → ``true``/``false``.
    - Anything else is converted with ``str()``; if the text starts with ``=``, ``+``, ``-``,
      ``@``, tab or carriage return it is prefixed with a single quote ``'`` so Excel,
      LibreOffice and Google Sheets show it as text instead of evaluating it (and a text that
      already looks guarded gets one more ``'``, so the readers' undoing is exact: see
      :mod:`ndcg_studio.io.spreadsheet`). Source: OWASP, "CSV Injection"
      (https://owasp.org/www-community/attacks/CSV_Injection).
    """
    # the common exact types first: an export formats millions of cells
    if type(value) is float:
        return _format_float(value)
    if type(value) is int:
        return str(value)
    if type(value) is str:
        return guard(value)
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, np.floating):
        if np.isnan(value):
            return ""
        if value.dtype == np.float64:
            return _format_float(float(value))
        return str(value)
    if isinstance(value, float):
        return _format_float(value)
    if isinstance(value, numbers.Real):
        return str(value)
    return guard(str(value))


def _rows_with_cancel(
    rows: Iterable[Sequence[object]], cancelled: Cancelled | None
) -> Iterator[Sequence[object]]:
    for index, row in enumerate(rows):
        if cancelled is not None and index % CANCEL_CHECK_ROWS == 0 and cancelled():
            raise OperationCancelled("export cancelled")
        yield row


class _LineFeedRows:
    """File wrapper turning the ``\\r\\n`` ending of each csv row into ``\\n``.

    ``csv.writer`` quotes a field only if it contains the delimiter, the quote character or a
    character of ``lineterminator``; with ``lineterminator="\\n"`` a field holding a lone
    ``\\r`` would be written unquoted and break the row for every reader. So rows are
    produced with ``"\\r\\n"`` (quoting fields with either character) and the terminator,
    always the last two characters of each ``write`` call, is rewritten to ``\\n``.
    """

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle

    def write(self, text: str) -> int:
        if text.endswith("\r\n"):
            text = text[:-2] + "\n"
        return self.handle.write(text)


def write_csv(
    path: PathArg,
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    excel: bool = False,
    cancelled: Cancelled | None = None,
) -> int:
    """Write a CSV file (RFC 4180 quoting, comma, UTF-8, ``\\n`` line ends), atomically.

    Args:
        path: destination, or ``"-"`` for standard output.
        header: column names: always the first line (also made formula-safe). The settings
            that produced a file travel beside it (:func:`write_settings`), never inside.
        rows: sequences of cells, converted by :func:`csv_cell`; each should have
            ``len(header)`` cells (not checked, so a generator can stream).
        excel: start with a UTF-8 BOM so Excel detects the encoding. Line ends stay ``\\n``
            (Excel and every spreadsheet read LF files; CRLF would only matter to old tools).
        cancelled: polled every 10,000 rows; True aborts with OperationCancelled.

    Returns:
        Number of data rows written.

    Raises:
        OperationCancelled: ``cancelled()`` returned True (old file intact, no temp file left).
        OSError: writing failed (same guarantee).
    """
    texts = ([csv_cell(cell) for cell in row] for row in rows)
    return _write_csv_texts(path, header, texts, excel, cancelled)


def _write_csv_texts(
    path: PathArg,
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    excel: bool,
    cancelled: Cancelled | None,
) -> int:
    """:func:`write_csv` for rows whose cells are already formatted by :func:`csv_cell`."""
    count = 0
    with atomic_text_writer(path, bom=excel) as handle:
        writer = csv.writer(_LineFeedRows(handle), lineterminator="\r\n")
        writer.writerow([csv_cell(name) for name in header])
        for row in _rows_with_cancel(rows, cancelled):
            writer.writerow(row)
            count += 1
    return count


def csv_column(values: Sequence[object] | np.ndarray) -> list[str]:
    """``[csv_cell(v) for v in values]``, formatted a column at a time.

    A float64 array is formatted with ``repr`` in one C-level ``map`` (NaN → ``""``), an integer
    array with ``str``, a bool array as ``true``/``false``, a list of texts (and None) with one
    formula check each; anything else cell by cell with :func:`csv_cell`. Same text as
    :func:`csv_cell` in every case (tested).
    """
    if isinstance(values, np.ndarray) and values.ndim == 1:
        if values.dtype == np.float64:
            texts = list(map(repr, values.tolist()))
            for i in np.flatnonzero(np.isnan(values)).tolist():
                texts[i] = ""
            return texts
        if values.dtype == np.bool_:
            return ["true" if v else "false" for v in values.tolist()]
        if np.issubdtype(values.dtype, np.integer):
            return list(map(str, values.tolist()))
    if isinstance(values, list) and all(type(v) is str or v is None for v in values):
        return ["" if v is None else guard(v) for v in values]
    return [csv_cell(v) for v in values]


def write_csv_columns(
    path: PathArg,
    header: Sequence[str],
    columns: Sequence[Sequence[object] | np.ndarray],
    *,
    excel: bool = False,
    cancelled: Cancelled | None = None,
) -> int:
    """:func:`write_csv` for data held column by column (numpy arrays or lists, equal lengths).

    The same file as ``write_csv(path, header, zip(*columns), ...)``, formatted a column at a
    time (:func:`csv_column`): ~3x faster for numeric columns.

    Raises:
        ValueError: columns of different lengths, or not one per header name.
        OperationCancelled, OSError: as :func:`write_csv`.
    """
    lengths = {len(c) for c in columns}
    if len(columns) != len(header) or len(lengths) > 1:
        raise ValueError(
            f"{len(columns)} columns of lengths {sorted(lengths)} for {len(header)} names"
        )
    texts = [csv_column(c) for c in columns]
    return _write_csv_texts(path, header, zip(*texts, strict=True), excel, cancelled)


def settings_path(path: PathArg) -> Path:
    """The settings file written beside an export: ``F.csv`` → ``F.settings.json`` (the last
    suffix replaced; ``F`` → ``F.settings.json``)."""
    target = Path(path)
    return target.with_name(target.stem + ".settings.json")


def write_settings(path: PathArg, about: Mapping[str, object]) -> Path | None:
    """Write the settings that produced the file ``path`` as JSON beside it, atomically.

    Args:
        path: the export just written, or ``"-"`` (standard output: nothing is written).
        about: JSON-serialisable description (what, tool, version, time, settings, notes);
            ``"file"`` (the export's name) is added first.

    Returns:
        The settings file (:func:`settings_path`), or None for ``"-"``.

    Raises:
        OSError: as :func:`atomic_text_writer` (an existing settings file is left intact).
    """
    if str(path) == STDOUT:
        return None
    target = settings_path(path)
    content = {"file": Path(path).name, **about}
    with atomic_text_writer(target) as handle:
        json.dump(content, handle, ensure_ascii=False, indent=2)
        handle.write("\n")
    return target


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
        for index, row in enumerate(_rows_with_cancel(rows, cancelled), start=1):
            line = format_row(row, index)
            batch.append(" " + line if line.startswith("#") else line)
            if len(batch) >= CANCEL_CHECK_ROWS:
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
            :func:`~ndcg_studio.io.trec.read_trec_run` returns exactly the same floats.
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
    """The lines of :func:`write_trec_qrels` for a list of rows checked column by column (several
    times faster than row by row, ``benchmarks/bench_end_to_end.py``), or None when any row would
    fail a check (the row-by-row path then names it)."""
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
    """Write finished lines atomically, CANCEL_CHECK_ROWS at a time (polling ``cancelled``)."""
    with atomic_text_writer(path) as handle:
        for start in range(0, len(lines), CANCEL_CHECK_ROWS):
            if cancelled is not None and cancelled():
                raise OperationCancelled("export cancelled")
            handle.write("".join(lines[start : start + CANCEL_CHECK_ROWS]))
    return len(lines)


def _plain_tokens(values: Sequence[object]) -> bool:
    """Whether every value is a non-empty text without whitespace (what ``_check_token``
    accepts), checked in bulk: such values are exactly the tokens of their joined text."""
    if set(map(type, values)) - {str}:
        return False
    return list(values) == "\n".join(values).split()  # type: ignore[arg-type]


# --------------------------------------------------------------------------- workbooks

#: The table formats of :func:`write_table`.
TABLE_FORMATS = ("csv", "xlsx")

#: Data rows one worksheet holds (Excel's limit of 1,048,576 rows, less the header).
XLSX_MAX_ROWS = 1_048_575


def table_format(path: PathArg, requested: str | None = None) -> str:
    """The format a table is written in: ``requested`` when given, else ``"xlsx"`` for a
    path ending in ``.xlsx`` (any case) and ``"csv"`` for anything else.

    Raises:
        ValueError: ``requested`` is not one of :data:`TABLE_FORMATS`.
    """
    if requested is None:
        return "xlsx" if str(path).lower().endswith(".xlsx") else "csv"
    if requested not in TABLE_FORMATS:
        raise ValueError(f"unknown table format {requested!r}; one of {', '.join(TABLE_FORMATS)}")
    return requested


def write_table(
    path: PathArg,
    header: Sequence[str],
    rows: Iterable[Sequence[object]] | None = None,
    *,
    columns: Sequence[Sequence[object] | np.ndarray] | None = None,
    file_format: str = "csv",
    excel: bool = False,
    settings: Mapping[str, object] | None = None,
    cancelled: Cancelled | None = None,
) -> int:
    """Write a table as CSV (:func:`write_csv`, :func:`write_csv_columns`) or as a workbook
    (:func:`write_xlsx`), atomically; give either ``rows`` or ``columns``.

    Args:
        file_format: ``"csv"`` or ``"xlsx"`` (:func:`table_format`).
        excel: CSV only: start with a UTF-8 BOM.
        settings: xlsx only: the content of the settings sidecar, written to a second sheet.

    Returns:
        Number of data rows written.

    Raises:
        ValueError: both or neither of ``rows`` and ``columns``; an unknown format; see
            :func:`write_xlsx`.
        OperationCancelled, OSError: as :func:`write_csv`.
    """
    if (rows is None) == (columns is None):
        raise ValueError("give rows or columns")
    if table_format(path, file_format) == "xlsx":
        data = rows if rows is not None else zip(*columns, strict=True)  # type: ignore[misc]
        return write_xlsx(path, header, data, settings=settings, cancelled=cancelled)
    if columns is not None:
        return write_csv_columns(path, header, columns, excel=excel, cancelled=cancelled)
    assert rows is not None
    return write_csv(path, header, rows, excel=excel, cancelled=cancelled)


def _xlsx_cell(value: object, sheet: object) -> object:
    """The value openpyxl stores for one cell: numbers as numbers, texts as texts (never a
    formula, never converted to a number: ``"007"`` and ``"1E+05"`` stay texts), None/NaN
    empty, infinities as the texts ``inf``/``-inf`` (a workbook holds finite numbers only)."""
    if type(value) is str:
        if value.startswith("=") or _ILLEGAL_XML.search(value):
            return _text_cell(value, sheet)
        return value
    if type(value) is int or type(value) is bool or value is None:
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating | numbers.Real):
        number = float(value)
        if math.isnan(number):
            return None
        if math.isinf(number):
            return "inf" if number > 0 else "-inf"
        return number
    return _xlsx_cell(str(value), sheet)


def _text_cell(value: str, sheet: object) -> object:
    """A cell typed as text: openpyxl would store a text starting with ``=`` as a formula.
    Characters XML 1.0 cannot hold (control characters) become U+FFFD."""
    from openpyxl.cell.cell import WriteOnlyCell

    text = _ILLEGAL_XML.sub("\ufffd", value)
    cell = WriteOnlyCell(sheet, value=text)  # type: ignore[no-untyped-call]
    cell.data_type = "s"
    return cell


def write_xlsx(
    path: PathArg,
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    settings: Mapping[str, object] | None = None,
    cancelled: Cancelled | None = None,
) -> int:
    """Write an Excel workbook (Office Open XML, ``.xlsx``, by openpyxl), atomically.

    Sheet ``data``: the header on row 1 (frozen, with an autofilter over the table), then one
    row per item. Numbers are stored as numbers (16 significant digits, openpyxl's ``%.16g``:
    Excel keeps 15; for bit-exact values use CSV. Locale-free, so the workbook opens
    the same in any locale), texts as texts — an id ``"007"`` or ``"1E+05"`` stays that text,
    a text starting with ``=`` is not a formula — None and NaN as empty cells, infinities as
    the texts ``inf``/``-inf``. Sheet ``settings`` (when ``settings`` is given): two columns
    ``key, value``, one row per key of the settings sidecar (:func:`write_settings`: ``file``
    first; lists joined by new lines).

    Args:
        path: destination file (not ``"-"``: a workbook is binary).
        header: column names.
        rows: sequences of cells in header order.
        settings: what the ``F.settings.json`` sidecar holds.
        cancelled: polled every 10,000 rows.

    Returns:
        Number of data rows written.

    Raises:
        ValueError: ``path`` is ``"-"``; more rows than a worksheet holds
            (:data:`XLSX_MAX_ROWS`).
        OperationCancelled, OSError: as :func:`write_csv` (old file intact, no temp file left).
    """
    from openpyxl.utils.cell import get_column_letter
    from openpyxl.workbook.workbook import Workbook

    if str(path) == STDOUT:
        raise ValueError("a workbook cannot be written to standard output: give --output F.xlsx")
    book: Any = Workbook(write_only=True)  # type: ignore[no-untyped-call]
    sheet = book.create_sheet("data")
    sheet.freeze_panes = "A2"
    for index, name in enumerate(header, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = max(10, len(str(name)) + 4)
    sheet.append([_text_cell(str(name), sheet) for name in header])
    count = 0
    try:
        for row in _rows_with_cancel(rows, cancelled):
            count += 1
            if count > XLSX_MAX_ROWS:
                raise ValueError(
                    f"more than {XLSX_MAX_ROWS:,} rows, which one worksheet cannot hold: export CSV"
                )
            sheet.append([_xlsx_cell(value, sheet) for value in row])
    except BaseException:
        # finish openpyxl's streamed sheet (its temporary file) instead of leaving it to the
        # garbage collector, which would report an XML error
        with contextlib.suppress(Exception):
            sheet.close()
        raise
    sheet.auto_filter.ref = f"A1:{get_column_letter(max(len(header), 1))}{count + 1}"
    if settings is not None:
        about = book.create_sheet("settings")
        about.append(["key", "value"])
        for key, value in {"file": Path(path).name, **settings}.items():
            cell = value
            if isinstance(value, list | tuple):
                cell = "\n".join(map(str, value))
            elif not isinstance(value, str | int | float | bool) and value is not None:
                cell = json.dumps(value, ensure_ascii=False)
            about.append([_text_cell(str(key), about), _xlsx_cell(cell, about)])
    with _atomic_path(path) as temporary:
        book.save(temporary)
    return count


@contextlib.contextmanager
def _atomic_path(path: PathArg) -> Iterator[Path]:
    """A temporary path beside ``path`` for a library to write; renamed over ``path`` when the
    body succeeds (a replaced file keeps its permission bits), removed when it fails."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        yield temporary
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _fsync_directory(target.parent)


#: Characters XML 1.0 cannot hold (openpyxl refuses them).
_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
