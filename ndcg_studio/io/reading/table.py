"""The CSV/TSV machinery of the tabular readers (:mod:`ndcg_studio.io.tabular`,
:mod:`ndcg_studio.io.judgments_csv`): the delimiter rule, a file after its header
(:class:`Table`), and the shared checks."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.reading.columns import duplicate_string_pairs
from ndcg_studio.io.reading.text import Issues, PathArg, empty_file
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.io.spreadsheet import unguard, unguard_column

TAB_EXTENSIONS = (".tsv", ".tab")


def delimiter(path: PathArg, header_line: str) -> str:
    """A tab for ``.tsv``/``.tab`` files or a header with a tab and no comma, else a comma."""
    if Path(path).suffix.lower() in TAB_EXTENSIONS:
        return "\t"
    if "\t" in header_line and "," not in header_line:
        return "\t"
    return ","


class Table:
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
        self.delimiter = delimiter(path, lines[skip])
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
        otherwise: the caller then reads :meth:`rows`, which names every problem (the bulk steps
        are several times faster on a million lines; the measurement is in
        ``benchmarks/README.md``). Call it before :meth:`rows`.
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


def optional(value: str | None) -> str | None:
    """None for an empty or absent value."""
    return value if value else None


def report_duplicates(
    issues: Issues,
    key: Sequence[Sequence[str]],
    line: NDArray[np.int64],
    field: str,
    describe: str,
) -> None:
    """An issue for each row whose ``key`` repeats an earlier row's (naming that line)."""
    for row, first in duplicate_string_pairs(key):
        values = ", ".join(repr(column[row]) for column in key)
        issues.add(
            int(line[row]),
            field,
            f"{describe} {values} appears twice (duplicate of line {line[first]})",
        )
