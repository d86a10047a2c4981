"""Excel workbooks (Office Open XML, ``.xlsx``, by openpyxl), atomic through
:func:`ndcg_studio.io.atomic.atomic_path`; :func:`ndcg_studio.io.writers.write_table` chooses
between them and CSV, and :mod:`ndcg_studio.io.writers` re-exports :func:`write_xlsx`."""

from __future__ import annotations

import contextlib
import json
import math
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ndcg_studio.io.atomic import STDOUT, atomic_path, rows_with_cancel
from ndcg_studio.io.reading.text import PathArg
from ndcg_studio.progress import Cancelled

__all__ = ["XLSX_MAX_ROWS", "write_xlsx"]

#: Data rows one worksheet holds (Excel's limit of 1,048,576 rows, less the header).
XLSX_MAX_ROWS = 1_048_575

#: Characters XML 1.0 cannot hold (openpyxl refuses them).
_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


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
        settings: what the ``F.xlsx.settings.json`` sidecar holds.
        cancelled: polled every 10,000 rows.

    Returns:
        Number of data rows written.

    Raises:
        ValueError: ``path`` is ``"-"``; more rows than a worksheet holds
            (:data:`XLSX_MAX_ROWS`).
        OperationCancelled, OSError: as :func:`write_csv` (old file intact, no temp file left).
    """
    from openpyxl.workbook.workbook import Workbook

    if str(path) == STDOUT:
        raise ValueError("a workbook cannot be written to standard output: give --output F.xlsx")
    book: Any = Workbook(write_only=True)  # type: ignore[no-untyped-call]
    count = _data_sheet(book, header, rows, cancelled)
    if settings is not None:
        _settings_sheet(book, path, settings)
    with atomic_path(path) as temporary:
        book.save(temporary)
    return count


def _data_sheet(
    book: Any, header: Sequence[str], rows: Iterable[Sequence[object]], cancelled: Cancelled | None
) -> int:
    """Sheet ``data`` of :func:`write_xlsx`; returns the number of data rows."""
    from openpyxl.utils.cell import get_column_letter

    sheet = book.create_sheet("data")
    sheet.freeze_panes = "A2"
    for index, name in enumerate(header, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = max(10, len(str(name)) + 4)
    sheet.append([_text_cell(str(name), sheet) for name in header])
    count = 0
    try:
        for row in rows_with_cancel(rows, cancelled):
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
    return count


def _settings_sheet(book: Any, path: PathArg, settings: Mapping[str, object]) -> None:
    """Sheet ``settings`` of :func:`write_xlsx`: ``key, value``, ``file`` first."""
    about = book.create_sheet("settings")
    about.append(["key", "value"])
    for key, value in {"file": Path(path).name, **settings}.items():
        cell = value
        if isinstance(value, list | tuple):
            cell = "\n".join(map(str, value))
        elif not isinstance(value, str | int | float | bool) and value is not None:
            cell = json.dumps(value, ensure_ascii=False)
        about.append([_text_cell(str(key), about), _xlsx_cell(cell, about)])
