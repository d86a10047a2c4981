"""Writers: CSV safe to open in spreadsheets, Excel workbooks, TREC run and qrels; all atomic.

A table goes out as CSV or as an ``.xlsx`` workbook: :func:`write_table` is the one place that
chooses (every command and export kind calls it, so each gets both formats).

Atomic: the content is written to a temporary file in the destination's directory, flushed
and fsync'ed, then renamed over the destination with :func:`os.replace` (atomic on POSIX and
Windows when both are on one file system). If anything fails or the export is cancelled, the
temporary file is removed and an existing file at the destination is left untouched. A
replaced file keeps its permission bits; a new one gets the default ``0o666 & ~umask``.

The path ``"-"`` writes to standard output instead (not atomic, no BOM check).

This module holds CSV, the settings sidecar and :func:`write_table`; the atomic file itself is
:mod:`ndcg_studio.io.atomic`, the TREC run and qrels writers :mod:`ndcg_studio.io.trec.writers`
and the workbook :mod:`ndcg_studio.io.workbook`.
"""

from __future__ import annotations

import csv
import json
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import numpy as np

from ndcg_studio.io.atomic import STDOUT, atomic_text_writer, rows_with_cancel
from ndcg_studio.io.reading.text import PathArg
from ndcg_studio.io.spreadsheet import guard
from ndcg_studio.progress import Cancelled

if TYPE_CHECKING:
    pass

__all__ = [
    "csv_cell",
    "csv_column",
    "table_format",
    "write_csv",
    "write_csv_columns",
    "write_settings",
    "write_table",
]


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
        for row in rows_with_cancel(rows, cancelled):
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
    time (:func:`csv_column`), faster for numeric columns (``score`` in
    ``benchmarks/bench_end_to_end.py``).

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
    """The settings file written beside an export: ``F.csv`` → ``F.csv.settings.json`` (the
    whole name kept: ``F.xlsx`` written after ``F.csv`` has its own settings file)."""
    target = Path(path)
    return target.with_name(target.name + ".settings.json")


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


# --------------------------------------------------------------------------- workbooks

#: The table formats of :func:`write_table`.
TABLE_FORMATS = ("csv", "xlsx")


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
        from ndcg_studio.io.workbook import write_xlsx

        data = rows if rows is not None else zip(*columns, strict=True)  # type: ignore[misc]
        return write_xlsx(path, header, data, settings=settings, cancelled=cancelled)
    if columns is not None:
        return write_csv_columns(path, header, columns, excel=excel, cancelled=cancelled)
    assert rows is not None
    return write_csv(path, header, rows, excel=excel, cancelled=cancelled)
