"""Widget recipes the views and dialogs share: the read-only table they show their rows in, the
label of prose the reader may copy and the margin-less column they stack their parts in, built
once here so that every such table moves the keyboard and selects alike and every such text is
copied alike."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QLayout,
    QTableView,
    QVBoxLayout,
    QWidget,
)


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


#: rows a column is fitted to (:func:`fit_columns`): the first screenfuls, not Qt's 1,000
FIT_ROWS = 100


def fit_columns(table: QTableView) -> None:
    """Fit every column of ``table`` to its header and its first :data:`FIT_ROWS` rows.

    ``resizeColumnsToContents`` asks ``data()`` of the first 1,000 rows of every column on the
    GUI thread (``bench_gui_scale.py`` Agreement and Compare, the GUI stall); a hundred rows
    give the same widths for columns of like values.
    """
    table.horizontalHeader().setResizeContentsPrecision(FIT_ROWS)
    table.resizeColumnsToContents()


def selectable_text(text_format: Qt.TextFormat | None = None, name: str = "") -> QLabel:
    """An empty label for prose the reader may select and copy, wrapped to its width;
    ``text_format`` RichText or PlainText (else Qt tells by the text), ``name`` its object
    name, if any."""
    label = QLabel()
    if name:
        label.setObjectName(name)
    if text_format is not None:
        label.setTextFormat(text_format)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def column(*items: QWidget | QLayout, stretch: QWidget | None = None) -> QWidget:
    """A widget holding ``items`` (widgets or layouts) top to bottom, without margins of its
    own; ``stretch``, one of the widgets, takes the height to spare."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for item in items:
        if isinstance(item, QLayout):
            layout.addLayout(item)
        else:
            layout.addWidget(item, 1 if item is stretch else 0)
    return box
