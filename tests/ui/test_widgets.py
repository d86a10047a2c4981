"""The table helpers of ``ui/widgets.py``: :func:`fit_columns` fits a column to its header and
its first rows, not to every row Qt would measure (1,000 by default, on the GUI thread)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTableView

from ndcg_studio.ui.widgets import FIT_ROWS, fit_columns


def _table(qtbot: Any, values: list[str]) -> QTableView:
    model = QStandardItemModel(len(values), 1)
    model.setHorizontalHeaderLabels(["Query"])
    for row, value in enumerate(values):
        model.setItem(row, 0, QStandardItem(value))
    table = QTableView()
    qtbot.addWidget(table)
    table.setModel(model)
    return table


def test_a_long_value_in_the_first_rows_widens_its_column(qtbot: Any) -> None:
    values = ["q1"] * 5_000
    values[FIT_ROWS // 2] = "a query far longer than the others " * 3
    table = _table(qtbot, values)
    fit_columns(table)
    long_text = table.fontMetrics().horizontalAdvance(values[FIT_ROWS // 2])
    assert table.columnWidth(0) >= long_text


def test_rows_past_the_first_ones_are_not_measured(qtbot: Any) -> None:
    values = ["q1"] * 5_000
    values[FIT_ROWS * 5] = "a query far longer than the others " * 3  # Qt's 1,000 would see it
    table = _table(qtbot, values)
    fit_columns(table)
    long_text = table.fontMetrics().horizontalAdvance(values[FIT_ROWS * 5])
    assert table.columnWidth(0) < long_text
    assert table.columnWidth(0) >= table.fontMetrics().horizontalAdvance("Query")
