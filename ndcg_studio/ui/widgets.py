"""Widget recipes the views and dialogs share: the read-only table they show their rows in,
built once here so that every such table moves the keyboard and selects alike."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView


def read_only_table(
    model: QAbstractItemModel,
    name: str = "",
    *,
    sort: tuple[int, Qt.SortOrder] | None = None,
) -> QTableView:
    """A table of ``model`` that is read, never edited: Tab leaves it for the next widget, a
    click selects the whole row, the header does not highlight the current column.

    Args:
        name: its object name (what the tests and the saved layout find it by), if any.
        sort: (column, order) it is sorted by first; then a click on a header sorts it.
    """
    table = QTableView()
    if name:
        table.setObjectName(name)
    table.setTabKeyNavigation(False)  # Tab leaves the table
    table.setModel(model)
    if sort is not None:
        table.setSortingEnabled(True)
        table.sortByColumn(*sort)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setHighlightSections(False)
    return table
