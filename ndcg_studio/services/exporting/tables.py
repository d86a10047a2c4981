"""What an export is before it is written: a :class:`Table` (rows) or :class:`ColumnTable`
(columns) with its :class:`About` (kind, settings, notes), written by
:mod:`ndcg_studio.io.writers` with the settings file beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from numpy.typing import NDArray

from ndcg_studio import __version__
from ndcg_studio.progress import Cancelled

__all__ = ["About", "ColumnTable", "Table"]


@dataclass
class About:
    """What produced an export: its kind, the settings (one line that reproduces it) and notes
    (why a value is empty, a test's result), written beside the file as JSON."""

    kind: str
    settings: str = ""
    notes: list[str] = field(default_factory=list)
    #: further JSON-serialisable sections (e.g. a comparison's ANOVA table), after ``notes``
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The settings file's content (tool, version, time in UTC, settings, notes, then any
        ``details``)."""
        return {
            "what": self.kind,
            "written_by": f"ndcg-studio {__version__}",
            "written_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "settings": self.settings,
            "notes": list(self.notes),
            **self.details,
        }

    def write(self, path: str | Path) -> None:
        """Write the settings file beside ``path`` (nothing for ``-``, standard output)."""
        from ndcg_studio.io.writers import write_settings

        write_settings(path, self.as_dict())


@dataclass
class Table:
    """Rows to write: ``header``, ``rows`` (sequences in header order) and ``about``."""

    header: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    about: About

    def write_csv(
        self,
        path: str | Path,
        *,
        excel: bool,
        cancelled: Cancelled | None,
        file_format: str = "csv",
    ) -> int:
        """:func:`ndcg_studio.io.writers.write_table` of this table (CSV or xlsx), then its
        settings file; the rows written."""
        return _write(path, self.header, self.about, file_format, excel, cancelled, rows=self.rows)


@dataclass
class ColumnTable:
    """Like :class:`Table`, held column by column (lists or arrays of one length), which the
    column writer formats a column at a time (:func:`ndcg_studio.io.writers.write_csv_columns`)."""

    header: tuple[str, ...]
    columns: list[Sequence[Any] | NDArray[Any]]
    about: About

    def write_csv(
        self,
        path: str | Path,
        *,
        excel: bool,
        cancelled: Cancelled | None,
        file_format: str = "csv",
    ) -> int:
        """:func:`ndcg_studio.io.writers.write_table` of this table (CSV a column at a time,
        or xlsx), then its settings file; the rows written."""
        return _write(
            path, self.header, self.about, file_format, excel, cancelled, columns=self.columns
        )


def _write(
    path: str | Path,
    header: tuple[str, ...],
    about: About,
    file_format: str,
    excel: bool,
    cancelled: Cancelled | None,
    **data: Any,
) -> int:
    """``write_table`` of ``rows=`` or ``columns=`` with ``about`` on its settings sheet, then
    the settings file beside it (the export first: a failed write leaves no settings file)."""
    from ndcg_studio.io.writers import write_table

    n = write_table(
        path,
        header,
        file_format=file_format,
        excel=excel,
        settings=about.as_dict(),
        cancelled=cancelled,
        **data,
    )
    about.write(path)
    return n
