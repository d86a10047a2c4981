"""The per-rank tables of the Query detail: the run's top K and the ideal list, with every
annotator's grade, the consensus grade, gain, discount, discounted gain and cumulative DCG.

One model class serves both sides (``side="run"`` or ``"ideal"``); rows are in rank order (the
order is what the table explains, so it is not sortable). Unjudged documents show "unjudged"
(gain 0) in italics; disputed documents (annotators' grades spanning ``disputed_range`` or more)
get a highlighted background and a ⚠ marker.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from ndcg_studio.domain.agreement.disputed import is_disputed
from ndcg_studio.services.scoring.service import QueryBreakdown
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg, label
from ndcg_studio.ui.models.grades import chip_icon
from ndcg_studio.ui.models.table import SORT_ROLE, Index, TableModel

Side = Literal["run", "ideal"]

#: background of a disputed row: translucent Okabe–Ito orange, visible on light and dark bases
DISPUTED_BACKGROUND = QColor(230, 159, 0, 80)
UNJUDGED = QT_TRANSLATE_NOOP("BreakdownTableModel", "unjudged")


def number_text(value: float) -> str:
    """'3' for a whole number, '2.5' or '3.33' (at most 2 decimals) otherwise."""
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def grade_text(grade: float) -> str:
    """'3' for an integer grade, '2.5' / '3.33' for a fractional consensus, 'unjudged' for
    NaN."""
    if math.isnan(grade):
        return QCoreApplication.translate("BreakdownTableModel", UNJUDGED)
    return number_text(grade)


class BreakdownTableModel(TableModel):
    """One side of a :class:`~ndcg_studio.services.scoring.service.QueryBreakdown`.

    Columns (run side): Rank, Document, Title, one per annotator, Consensus, Gain, Discount,
    Discounted gain, Cumulative DCG. The ideal side has the same columns; its cumulative column
    is the running IDCG. :data:`~ndcg_studio.ui.models.table.SORT_ROLE` returns raw values.
    """

    def __init__(self, side: Side = "run", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.side: Side = side
        self._qb: QueryBreakdown | None = None
        self._annotators: list[str] = []
        self._n = 0
        self._doc: NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._columns: dict[str, NDArray[Any]] = {}
        self._disputed: NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self._disputed_range = 2.0
        self._range: NDArray[np.float64] = np.zeros(0)
        self._italic = QFont()
        self._italic.setItalic(True)

    # ------------------------------------------------------------------ data
    @property
    def breakdown(self) -> QueryBreakdown | None:
        return self._qb

    def set_breakdown(self, qb: QueryBreakdown | None, disputed_range: float = 2.0) -> None:
        """Show ``qb`` (None clears)."""
        self.beginResetModel()
        self._qb = qb
        self._disputed_range = disputed_range
        if qb is None:
            self._annotators, self._n = [], 0
            self._doc = np.zeros(0, dtype=np.int64)
            self._columns = {}
            self._disputed = np.zeros(0, dtype=bool)
        else:
            bd = qb.breakdown
            self._annotators = list(qb.annotators)
            prefix = "" if self.side == "run" else "ideal_"
            self._doc = getattr(bd, f"{prefix}doc")
            self._n = int(self._doc.shape[0])
            self._columns = {
                name: getattr(bd, f"{prefix}{name}")
                for name in (
                    "rank",
                    "grade",
                    "gain",
                    "discount",
                    "discounted_gain",
                    "cumulative_dcg",
                )
            }
            self._range = qb.grade_range()
            self._disputed = is_disputed(self._range[self._doc], disputed_range)
        self.endResetModel()

    def _grades_of(self, doc: int) -> dict[str, float]:
        assert self._qb is not None
        return self._qb.annotator_grades.get(doc, {})

    def is_disputed(self, row: int) -> bool:
        return bool(self._disputed[row])

    def doc_external(self, row: int) -> str:
        assert self._qb is not None
        return self._qb.doc_external[int(self._doc[row])]

    # ------------------------------------------------------------------ columns
    def _headers(self) -> list[str]:
        """The column titles in English (:meth:`column_of` finds them); shown translated."""
        cumulative = (
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Cumulative DCG")
            if self.side == "run"
            else QT_TRANSLATE_NOOP("BreakdownTableModel", "Cumulative IDCG")
        )
        return [
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Rank"),
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Document"),
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Title"),
            *self._annotators,
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Consensus"),
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Gain"),
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Discount"),
            QT_TRANSLATE_NOOP("BreakdownTableModel", "Disc. gain"),
            cumulative,
        ]

    def _header(self, section: int) -> str:
        text = self._headers()[section]
        if self.col_first_annotator <= section < self.col_consensus:
            return text  # an annotator's name
        return QCoreApplication.translate("BreakdownTableModel", text)

    @property
    def col_first_annotator(self) -> int:
        return 3

    @property
    def col_consensus(self) -> int:
        return 3 + len(self._annotators)

    def column_of(self, header: str) -> int:
        """Index of the column titled ``header``.

        Raises:
            ValueError: no such column.
        """
        return self._headers().index(header)

    # ------------------------------------------------------------------ Qt interface
    def _row_count(self) -> int:
        return self._n

    def _header_tooltip(self, section: int) -> str | None:
        c = self.col_consensus
        if self.col_first_annotator <= section < c:
            name = self._annotators[section - self.col_first_annotator]
            return arg(self.tr("Grade given by %1 (0–4)"), name)
        qb = self._qb
        consensus = qb.settings.consensus if qb is not None else "mean"
        gain = qb.settings.gain if qb is not None else "linear"
        return {
            0: self.tr(
                "Position in the run's order (score descending, ties by document id descending)"
            )
            if self.side == "run"
            else self.tr("Position in the ideal order (gain descending)"),
            c: arg(
                self.tr(
                    "One grade per document: the %1 of the annotators' grades "
                    "(an adjudicated grade wins)"
                ),
                label("ScoringSettings", consensus),
            ),
            c + 1: self.tr("gain = grade") if gain == "linear" else self.tr("gain = 2^grade − 1"),
            c + 2: self.tr("discount = 1 / log2(rank + 1)"),
            c + 3: self.tr("discounted gain = gain × discount"),
            c + 4: self.tr("running sum of the discounted gains"),
        }.get(section)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self._qb is None or index.row() >= self._n:
            return None
        row, col = index.row(), index.column()
        doc = int(self._doc[row])
        c = self.col_consensus
        is_annotator = self.col_first_annotator <= col < c
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            raw = self._raw(row, col, doc)
            if role == SORT_ROLE:
                return raw
            return self._display(col, raw, doc, row)
        if role == Qt.ItemDataRole.TextAlignmentRole and (col == 0 or col > c):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and self._disputed[row]:
            return QBrush(DISPUTED_BACKGROUND)
        grade = float(self._columns["grade"][row])
        if role == Qt.ItemDataRole.FontRole and col == c and math.isnan(grade):
            return self._italic
        if role == Qt.ItemDataRole.ForegroundRole and col == c and math.isnan(grade):
            app = QApplication.instance()
            if isinstance(app, QApplication):
                return app.palette().brush(QPalette.ColorRole.PlaceholderText)
            return None
        if role == Qt.ItemDataRole.DecorationRole:
            value = grade if col == c else (self._raw(row, col, doc) if is_annotator else None)
            if isinstance(value, float) and value in (0.0, 1.0, 2.0, 3.0, 4.0):
                return chip_icon(int(value))
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, col, doc)
        return None

    def _raw(self, row: int, col: int, doc: int) -> Any:
        assert self._qb is not None
        c = self.col_consensus
        if col == 0:
            return int(self._columns["rank"][row])
        if col == 1:
            return self._qb.doc_external[doc]
        if col == 2:
            return self._qb.doc_title[doc]
        if col < c:
            name = self._annotators[col - self.col_first_annotator]
            return float(self._grades_of(doc).get(name, math.nan))
        name = ("grade", "gain", "discount", "discounted_gain", "cumulative_dcg")[col - c]
        return float(self._columns[name][row])

    def _display(self, col: int, raw: Any, doc: int, row: int) -> str:
        c = self.col_consensus
        if col == 0:
            return str(raw)
        if col == 1:
            return f"⚠ {raw}" if self._disputed[row] else str(raw)
        if col == 2:
            return str(raw)
        if col < c:
            return "" if math.isnan(raw) else number_text(raw)
        if col == c:
            return grade_text(raw)
        if col == c + 1:
            return number_text(raw)
        return f"{raw:.4f}"

    def _tooltip(self, row: int, col: int, doc: int) -> str | None:
        assert self._qb is not None
        grades = self._grades_of(doc)
        if col in (1, 2):
            title = self._qb.doc_title[doc]
            if self._disputed[row]:
                listing = ", ".join(f"{a}: {g:g}" for a, g in sorted(grades.items()))
                text = self.tr("%1\nDisputed: grades differ by %2 (≥ %3) — %4")
                return arg(
                    text, title, f"{self._range[doc]:g}", f"{self._disputed_range:g}", listing
                )
            return title or None
        if col == self.col_consensus and math.isnan(float(self._columns["grade"][row])):
            return self.tr("Nobody judged this document for this query: it counts as gain 0.")

        return None
