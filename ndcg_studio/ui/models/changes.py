"""What changed from run A to run B per query (Compare ▸ What changed): overlap@K, RBO, the
documents that entered and left the top K, those that entered unjudged, and ΔnDCG@K = B − A, as
:class:`~ndcg_studio.services.changes.service.ChangesService` computes them; sorted with numpy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, Qt

from ndcg_studio.services.changes.service import Changes
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.table import SORT_ROLE, NumpyTableModel, signed

COL_QUERY, COL_OVERLAP, COL_RBO, COL_ENTERED, COL_LEFT, COL_UNJUDGED, COL_DELTA = range(7)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
#: at most this many document ids in a cell's tooltip
_TIP_DOCUMENTS = 20


class ChangesTableModel(NumpyTableModel):
    """One row per query of a :class:`Changes`; :meth:`set_changes` replaces them."""

    HEADERS = (
        QT_TRANSLATE_NOOP("ChangesTableModel", "Query"),
        QT_TRANSLATE_NOOP("ChangesTableModel", "Overlap"),
        "RBO",
        QT_TRANSLATE_NOOP("ChangesTableModel", "Entered"),
        QT_TRANSLATE_NOOP("ChangesTableModel", "Left"),
        QT_TRANSLATE_NOOP("ChangesTableModel", "Entered unjudged"),
        "ΔnDCG (B − A)",
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.changes: Changes | None = None
        self._columns: list[NDArray[Any]] = []

    def set_changes(self, changes: Changes | None) -> None:
        """Show ``changes`` (None: nothing)."""
        self.beginResetModel()
        self.changes = changes
        q = changes.queries if changes is not None else []
        self._columns = [
            np.array([c.query for c in q], dtype=object),
            np.array([c.overlap for c in q], dtype=np.float64),
            np.array([c.rbo for c in q], dtype=np.float64),
            np.array([len(c.entered) for c in q], dtype=np.int64),
            np.array([len(c.left) for c in q], dtype=np.int64),
            np.array([len(c.unjudged) for c in q], dtype=np.int64),
            np.array([c.delta_ndcg for c in q], dtype=np.float64),
        ]
        self._reset_rows()
        self.endResetModel()

    def _header_tooltip(self, section: int) -> str | None:
        c = self.changes
        k, p = (c.k, c.p) if c is not None else (10, 0.9)
        tips = {
            COL_OVERLAP: arg(self.tr("Documents in both top %1, divided by %1"), k),
            COL_RBO: arg(
                self.tr(
                    "Rank-biased overlap of the two top %1, extrapolated "
                    "(Webber et al. 2010), p = %2"
                ),
                k,
                p,
            ),
            COL_ENTERED: arg(self.tr("Documents in B's top %1 and not in A's"), k),
            COL_LEFT: arg(self.tr("Documents in A's top %1 and not in B's"), k),
            COL_UNJUDGED: self.tr("Documents that entered and have no judgment yet"),
            COL_DELTA: arg(self.tr("nDCG@%1 of B minus nDCG@%1 of A"), k),
        }
        return tips.get(section)

    def _source_count(self) -> int:
        return len(self.changes.queries) if self.changes is not None else 0

    def _sort_key(self, column: int) -> NDArray[Any]:
        if column == COL_QUERY:
            return natural_key(self._columns[COL_QUERY])
        return self._columns[column]

    def _cell(self, row: int, column: int, role: int) -> Any:
        value = self._columns[column][row]
        if role == SORT_ROLE:
            return value if column == COL_QUERY else value.item()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_QUERY:
                return str(value)
            if column in (COL_ENTERED, COL_LEFT, COL_UNJUDGED):
                return str(int(value))
            number = float(value)
            if math.isnan(number):
                return ""
            return signed(number, 4) if column == COL_DELTA else f"{number:.3f}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column != COL_QUERY:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column in (COL_ENTERED, COL_LEFT, COL_UNJUDGED):
            return self._documents_tip(row, column)
        return None

    def _documents_tip(self, row: int, column: int) -> str | None:
        assert self.changes is not None
        change = self.changes.queries[row]
        docs = {COL_ENTERED: change.entered, COL_LEFT: change.left}.get(column, change.unjudged)
        if not docs:
            return None
        shown = ", ".join(docs[:_TIP_DOCUMENTS])
        return shown + (" …" if len(docs) > _TIP_DOCUMENTS else "")
