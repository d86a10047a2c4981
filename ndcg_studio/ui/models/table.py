"""A table model over numpy columns that sorts and filters with numpy (Orange's
``AbstractSortTableModel`` idea): one ``argsort`` per sort instead of n·log n ``lessThan``
calls through a ``QSortFilterProxyModel``.

The model keeps the *source* rows (the data as given) and a view of them: ``_rows[i]`` is the
source row shown at view row ``i``, the rows passing the filter mask in the current sort order.
Subclasses provide the cell contents and one numpy sort key per column; the base class handles
sorting (NaN always last, both directions; stable, so ties keep their source order), filtering,
persistent indexes, and the mapping between view rows and source rows.

:class:`TableModel`, its base, is the flat-table boilerplate every table model of the app shares
(row and column counts, horizontal headers with tooltips, enabled and selectable cells); models
that keep Python lists derive from it directly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from ndcg_studio.ui.collation import collation_ranks

# dense_ranks and natural_key live below ui (no Qt); the models import them from here too
__all__ = ["SORT_ROLE", "Index", "NumpyTableModel", "TableModel", "fixed", "signed", "sort_order"]

#: role returning the raw value of a cell (float, int or str) for sorting and tests
SORT_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


def fixed(value: float, digits: int = 3) -> str:
    """``value`` with ``digits`` decimals; NaN (undefined) is an empty cell."""
    return "" if math.isnan(value) else f"{value:.{digits}f}"


def signed(value: float, digits: int) -> str:
    """``value`` with an explicit sign and ``digits`` decimals, for differences: ``+0.012``,
    ``-0.150``; one that rounds to zero is ``0.000`` (not ``-0.000``)."""
    text = f"{value:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def sort_order(key: NDArray[Any], descending: bool) -> NDArray[np.intp]:
    """Source rows in sorted order: stable, NaN (float keys) last in both directions.

    Args:
        key: (n,) float, integer, bool or string array.
        descending: largest first.

    Returns:
        (n,) intp permutation.
    """
    if key.dtype.kind in "US O":
        # strings: ranks in the locale's collation, then an integer sort (stable both ways)
        key = collation_ranks(key)
    elif key.dtype.kind == "b":
        key = key.astype(np.int64)
    if descending:
        # -NaN is NaN: still last; for integers negation reverses the order and keeps stability
        return np.argsort(-key, kind="stable")
    return np.argsort(key, kind="stable")


_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class TableModel(QAbstractTableModel):
    """A flat table (no children) of enabled, selectable cells with horizontal headers.

    Subclasses set :attr:`HEADERS` (or override :meth:`_headers` when the columns vary),
    implement :meth:`_row_count` and ``data()``, and may override :meth:`_header` (the title
    of a column) and :meth:`_header_tooltip`.
    """

    HEADERS: tuple[str, ...] = ()
    SortRole = SORT_ROLE

    # ------------------------------------------------------------------ subclass hooks
    def _row_count(self) -> int:
        raise NotImplementedError

    def _headers(self) -> Sequence[str]:
        return self.HEADERS

    def _header(self, section: int) -> str:
        text = self._headers()[section]
        return self.translated(text) if text in self.HEADERS else text

    def translated(self, text: str) -> str:
        """``text`` (marked ``QT_TRANSLATE_NOOP("<model class>", …)``, e.g. a header of
        :attr:`HEADERS`) in the interface language, looked up in the context of the model's
        class, then of its base classes."""
        for cls in type(self).__mro__:
            found = QCoreApplication.translate(cls.__name__, text)
            if found != text:
                return found
        return text

    def _header_tooltip(self, section: int) -> str | None:
        return None

    # ------------------------------------------------------------------ Qt interface
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._row_count()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._headers()):
            if role == Qt.ItemDataRole.DisplayRole:
                return self._header(section)
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._header_tooltip(section)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags


class NumpyTableModel(TableModel):
    """Base class: subclasses set :attr:`HEADERS` and implement :meth:`_source_count`,
    :meth:`_sort_key` and :meth:`_cell`, and call :meth:`_reset_rows` after new data."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: NDArray[np.intp] = np.zeros(0, dtype=np.intp)
        self._mask: NDArray[np.bool_] | None = None
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._key_cache: dict[int, NDArray[Any]] = {}

    # ------------------------------------------------------------------ subclass hooks
    def _source_count(self) -> int:
        raise NotImplementedError

    def _sort_key(self, column: int) -> NDArray[Any]:
        """(n_source,) numpy key of ``column`` (float NaN sorts last)."""
        raise NotImplementedError

    def _cell(self, row: int, column: int, role: int) -> Any:
        """Data of source ``row`` at ``column`` for ``role`` (None: no data)."""
        raise NotImplementedError

    def _row_count(self) -> int:
        return int(self._rows.shape[0])

    # ------------------------------------------------------------------ Qt interface
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= self._rows.shape[0]:
            return None
        return self._cell(int(self._rows[index.row()]), index.column(), role)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the view rows by ``column`` with numpy (NaN last in both orders)."""
        if not -1 <= column < len(self.HEADERS):
            return
        self.layoutAboutToBeChanged.emit()
        old_rows = self._rows
        persistent = self.persistentIndexList()
        self._sort_column, self._sort_order = column, order
        self._rows = self._compute_rows()
        if persistent:
            position = np.full(self._source_count(), -1, dtype=np.intp)
            position[self._rows] = np.arange(self._rows.shape[0], dtype=np.intp)
            moved = []
            for p in persistent:
                row = int(position[old_rows[p.row()]]) if p.row() < old_rows.shape[0] else -1
                moved.append(self.index(row, p.column()) if row >= 0 else QModelIndex())
            self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    # ------------------------------------------------------------------ public helpers
    @property
    def sort_column(self) -> int:
        return self._sort_column

    def source_count(self) -> int:
        """Number of rows before filtering."""
        return self._source_count()

    def source_row(self, view_row: int) -> int:
        """The source row shown at ``view_row``."""
        return int(self._rows[view_row])

    def source_rows(self) -> NDArray[np.intp]:
        """(n_visible,) the source rows in view order (a copy)."""
        return self._rows.copy()

    def view_row(self, source_row: int) -> int:
        """The view row of ``source_row``, -1 when filtered out."""
        hits = np.flatnonzero(self._rows == source_row)
        return int(hits[0]) if hits.size else -1

    def set_mask(self, mask: NDArray[np.bool_] | None) -> None:
        """Show only the source rows where ``mask`` is True (None: all)."""
        if mask is not None and mask.shape != (self._source_count(),):
            raise ValueError(f"mask must have shape ({self._source_count()},), got {mask.shape}")
        self.beginResetModel()
        self._mask = mask
        self._rows = self._compute_rows()
        self.endResetModel()

    # ------------------------------------------------------------------ internals
    def _reset_rows(self, mask: NDArray[np.bool_] | None = None) -> None:
        """Call between beginResetModel/endResetModel after replacing the data: drops the sort
        key caches, sets the filter ``mask`` and re-applies the current sort."""
        self._key_cache.clear()
        self._mask = mask
        self._rows = self._compute_rows()

    def _cached_key(self, column: int) -> NDArray[Any]:
        """The column's sort key, computed once per data set; string keys are cached as their
        ranks in the locale's collation (:func:`~ndcg_studio.ui.collation.collation_ranks`:
        ``ё`` with ``е``, Chinese in pinyin order under ``zh_CN``) so later sorts (and filter
        changes) are integer argsorts."""
        key = self._key_cache.get(column)
        if key is None:
            key = self._sort_key(column)
            if key.dtype.kind in "USO":
                key = collation_ranks(key)
            self._key_cache[column] = key
        return key

    def _compute_rows(self) -> NDArray[np.intp]:
        n = self._source_count()
        if self._sort_column < 0 or n == 0:
            order = np.arange(n, dtype=np.intp)
        else:
            order = sort_order(
                self._cached_key(self._sort_column),
                self._sort_order == Qt.SortOrder.DescendingOrder,
            )
        if self._mask is not None:
            order = order[self._mask[order]]
        return np.asarray(order, dtype=np.intp)
