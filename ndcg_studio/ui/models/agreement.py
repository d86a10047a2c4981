"""Models of the Agreement view: pairwise-kappa heatmap, alpha without each annotator, alpha per
query, the disputed items, one item's grades, and an item's history.

Everything is built from an :class:`~ndcg_studio.services.agreement.AgreementReport` (computed in
a worker) with numpy; the disputed list is vectorised (one sort of the ratings by item) so a
study with many disputed items stays fast. The disputed rows arrive built in a worker
(:class:`~ndcg_studio.services.screens.agreement.DisputedRows`, their Grades text included), so
the GUI thread only indexes arrays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QColor

from ndcg_studio.domain.agreement.disputed import disputed_per_group
from ndcg_studio.services.agreement import AgreementReport
from ndcg_studio.services.annotation.types import HistoryEntry
from ndcg_studio.services.screens.agreement import DisputedRows
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.bands import best_text_color
from ndcg_studio.ui.language import arg, counted, label
from ndcg_studio.ui.models.grades import chip_icon, grade_name
from ndcg_studio.ui.models.table import SORT_ROLE, Index, NumpyTableModel, TableModel, fixed, signed

KappaKind = Literal["kappa", "kappa_linear", "kappa_quadratic"]
KAPPA_KINDS: dict[KappaKind, str] = {
    "kappa": QT_TRANSLATE_NOOP("Agreement", "Cohen's kappa (unweighted)"),
    "kappa_linear": QT_TRANSLATE_NOOP("Agreement", "Cohen's kappa, linear weights"),
    "kappa_quadratic": QT_TRANSLATE_NOOP("Agreement", "Cohen's kappa, quadratic weights"),
}
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)

# heatmap ends: ColorBrewer Blues (agreement) and Okabe–Ito orange (worse than chance)
_NEUTRAL = QColor("#F7F7F7")
_POSITIVE = QColor("#08519C")
_NEGATIVE = QColor("#D55E00")


def kappa_color(value: float) -> QColor:
    """Heatmap fill of a kappa in [-1, 1]: light grey at 0, blue towards 1, orange towards -1
    (a colour-blind-safe pair); invalid QColor for NaN."""
    if math.isnan(value):
        return QColor()
    t = max(-1.0, min(1.0, value))
    end = _POSITIVE if t >= 0 else _NEGATIVE
    t = abs(t)
    return QColor.fromRgbF(
        _NEUTRAL.redF() + (end.redF() - _NEUTRAL.redF()) * t,
        _NEUTRAL.greenF() + (end.greenF() - _NEUTRAL.greenF()) * t,
        _NEUTRAL.blueF() + (end.blueF() - _NEUTRAL.blueF()) * t,
    )


def text_color_on(fill: QColor) -> QColor:
    """Black or white, whichever contrasts more with ``fill``."""
    return best_text_color(fill)


# ---------------------------------------------------------------------------------- heatmap
class PairwiseKappaModel(TableModel):
    """Annotator × annotator matrix of Cohen's kappa on the items both graded.

    Cells carry the value as text (with the number of shared items) and a heatmap background
    whose text colour is chosen for contrast; the diagonal is "—"; undefined pairs are empty
    with the reason as tooltip.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names: list[str] = []
        self._value = np.zeros((0, 0))
        self._shared = np.zeros((0, 0), dtype=np.int64)
        self._reason: dict[tuple[int, int], str] = {}
        self.kind: KappaKind = "kappa_linear"
        self._report: AgreementReport | None = None
        #: more annotators than this: cells show the value only (no item count)
        self.compact_above = 6

    def set_report(self, report: AgreementReport | None, kind: KappaKind | None = None) -> None:
        """Show the pairwise kappas of ``report`` (``kind`` selects the weighting)."""
        self.beginResetModel()
        self._report = report
        if kind is not None:
            self.kind = kind
        if report is None:
            self._names, self._value = [], np.zeros((0, 0))
            self._shared = np.zeros((0, 0), dtype=np.int64)
            self._reason = {}
        else:
            pw = report.summary.pairwise
            n = len(report.annotators)
            self._names = list(report.annotators)
            self._value = np.full((n, n), np.nan)
            self._shared = np.zeros((n, n), dtype=np.int64)
            values = getattr(pw, self.kind)
            a, b = pw.annotator_a, pw.annotator_b
            self._value[a, b] = self._value[b, a] = values
            self._shared[a, b] = self._shared[b, a] = pw.n_shared
            self._reason = {}
            for i, why in enumerate(pw.undefined_reason):
                if why:
                    pair = (int(a[i]), int(b[i]))
                    self._reason[pair] = self._reason[pair[::-1]] = why
        self.endResetModel()

    def set_kind(self, kind: KappaKind) -> None:
        self.set_report(self._report, kind)

    def value(self, row: int, column: int) -> float:
        return float(self._value[row, column])

    def _row_count(self) -> int:
        return len(self._names)

    def _headers(self) -> list[str]:
        return self._names

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """The annotators' names on both axes."""
        if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self._names):
            return self._names[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if r >= len(self._names) or c >= len(self._names):
            return None
        value = float(self._value[r, c])
        if role == Qt.ItemDataRole.DisplayRole:
            if r == c:
                return "—"
            if math.isnan(value):
                return self.tr("n/a")
            if len(self._names) > self.compact_above:
                return f"{value:.2f}"
            return f"{value:.2f}\n{counted(int(self._shared[r, c]), 'items')}"
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER
        if r == c:
            return None
        if role == Qt.ItemDataRole.BackgroundRole and not math.isnan(value):
            return QBrush(kappa_color(value))
        if role == Qt.ItemDataRole.ForegroundRole and not math.isnan(value):
            return QBrush(text_color_on(kappa_color(value)))
        if role == Qt.ItemDataRole.ToolTipRole:
            kind = label("Agreement", KAPPA_KINDS[self.kind])
            if math.isnan(value):
                return label("Agreement", self._reason.get((r, c), "")) or self.tr("undefined")
            text = self.tr("%1 vs %2: %3 = %4 on %5 both graded")
            documents = counted(int(self._shared[r, c]), "documents")
            return arg(text, self._names[r], self._names[c], kind, f"{value:.3f}", documents)
        return None


# ---------------------------------------------------------------------------------- leave one out
class LeaveOneOutModel(NumpyTableModel):
    """Alpha without each annotator; Δ = alpha without − overall alpha (a large positive Δ:
    removing this annotator raises agreement, an outlier)."""

    HEADERS = (
        QT_TRANSLATE_NOOP("LeaveOneOutModel", "Annotator"),
        QT_TRANSLATE_NOOP("LeaveOneOutModel", "α without"),
        QT_TRANSLATE_NOOP("LeaveOneOutModel", "Δ vs all"),
        QT_TRANSLATE_NOOP("LeaveOneOutModel", "Items left"),
        QT_TRANSLATE_NOOP("LeaveOneOutModel", "Judgments"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names = np.zeros(0, dtype=str)
        self._alpha = np.zeros(0)
        self._delta = np.zeros(0)
        self._items = np.zeros(0, dtype=np.int64)
        self._judgments = np.zeros(0, dtype=np.int64)
        self._reasons: tuple[str | None, ...] = ()

    def set_report(self, report: AgreementReport | None) -> None:
        self.beginResetModel()
        if report is None:
            self._names, self._alpha, self._delta = np.zeros(0, dtype=str), np.zeros(0), np.zeros(0)
            self._items = self._judgments = np.zeros(0, dtype=np.int64)
            self._reasons = ()
        else:
            loo = report.summary.leave_one_out
            self._names = np.asarray(report.annotators, dtype=str)
            self._alpha = loo.value.astype(np.float64)
            self._delta = self._alpha - float(report.summary.alpha.value)
            self._items = loo.n_items.astype(np.int64)
            self._judgments = report.judgments_per_annotator.astype(np.int64)
            self._reasons = loo.undefined_reason
        self._reset_rows()
        self.endResetModel()

    def _source_count(self) -> int:
        return int(self._names.shape[0])

    def _sort_key(self, column: int) -> NDArray[Any]:
        return [self._names, self._alpha, self._delta, self._items, self._judgments][column]

    def _cell(self, row: int, column: int, role: int) -> Any:
        if role == SORT_ROLE:
            key = self._sort_key(column)[row]
            return str(key) if column == 0 else key.item()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return str(self._names[row])
            if column == 1:
                return fixed(float(self._alpha[row]))
            if column == 2:
                delta = float(self._delta[row])
                return "" if math.isnan(delta) else signed(delta, 3)
            return f"{int(self._sort_key(column)[row]):,}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column == 3:
            return self.tr("Documents still graded by two or more annotators without this one")
        if role == Qt.ItemDataRole.ToolTipRole and column == 4:
            return self.tr("Grades this annotator gave")
        if role == Qt.ItemDataRole.ToolTipRole and column in (1, 2):
            reason = self._reasons[row] if row < len(self._reasons) else None
            if reason:
                return label("Agreement", reason)
            return self.tr("Positive Δ: agreement rises without this annotator")
        return None


# ---------------------------------------------------------------------------------- per query
class PerQueryAlphaModel(NumpyTableModel):
    """Krippendorff's alpha of every judged query."""

    HEADERS = (
        QT_TRANSLATE_NOOP("PerQueryAlphaModel", "Query"),
        "α",
        QT_TRANSLATE_NOOP("PerQueryAlphaModel", "Documents"),
        QT_TRANSLATE_NOOP("PerQueryAlphaModel", "Graded 2+"),
        QT_TRANSLATE_NOOP("PerQueryAlphaModel", "Judgments"),
        QT_TRANSLATE_NOOP("PerQueryAlphaModel", "Disputed"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._query = np.zeros(0, dtype=str)
        self._cols: list[NDArray[Any]] = [np.zeros(0)] * 5
        self._reasons: tuple[str | None, ...] = ()

    def set_report(self, report: AgreementReport | None) -> None:
        self.beginResetModel()
        if report is None:
            self._query = np.zeros(0, dtype=str)
            self._cols = [np.zeros(0)] * 5
            self._reasons = ()
        else:
            s = report.summary
            n_q = len(report.query_external)
            sp = s.spread
            iq = report.item_query_index
            self._query = np.asarray(report.query_external, dtype=str)
            self._cols = [
                s.per_query.value.astype(np.float64),
                np.bincount(iq, minlength=n_q).astype(np.int64),
                np.bincount(iq[sp.n_grades >= 2], minlength=n_q).astype(np.int64),
                report.judgments_per_query.astype(np.int64),
                disputed_per_group(sp.disputed, iq, n_q),
            ]
            self._reasons = s.per_query.undefined_reason
        self._reset_rows()
        self.endResetModel()

    def query_of(self, view_row: int) -> str:
        return str(self._query[self.source_row(view_row)])

    def _source_count(self) -> int:
        return int(self._query.shape[0])

    def _sort_key(self, column: int) -> NDArray[Any]:
        return natural_key(self._query) if column == 0 else self._cols[column - 1]

    def _cell(self, row: int, column: int, role: int) -> Any:
        if role == SORT_ROLE:
            return str(self._query[row]) if column == 0 else self._cols[column - 1][row].item()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return str(self._query[row])
            if column == 1:
                return fixed(float(self._cols[0][row]))
            return f"{int(self._cols[column - 1][row]):,}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column == 1:
            reason = self._reasons[row] if row < len(self._reasons) else None
            return reason or None
        return None


# ---------------------------------------------------------------------------------- disputed
COL_D_QUERY, COL_D_DOC, COL_D_RANGE, COL_D_MEAN, COL_D_FINAL, COL_D_GRADES = range(6)


class DisputedItemsModel(NumpyTableModel):
    """The disputed items: query, document, range and mean of the grades, every grade, and the
    adjudicated final grade."""

    HEADERS = (
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Query"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Document"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Range"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Mean"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Final"),
        QT_TRANSLATE_NOOP("DisputedItemsModel", "Grades"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._d = DisputedRows.empty()
        self._grades_text: NDArray[np.str_] = np.zeros(0, dtype=str)

    @property
    def rows(self) -> DisputedRows:
        return self._d

    def set_rows(self, rows: DisputedRows) -> None:
        self.beginResetModel()
        self._d = rows
        self._grades_text = rows.grades_text
        self._reset_rows()
        self.endResetModel()

    def item(self, view_row: int) -> tuple[int, int]:
        """(query database id, document database id) at ``view_row``."""
        s = self.source_row(view_row)
        return int(self._d.query_id[s]), int(self._d.document_id[s])

    def find(self, query_id: int, document_id: int) -> int:
        """View row of an item, -1 if absent."""
        hits = np.flatnonzero((self._d.query_id == query_id) & (self._d.document_id == document_id))
        return self.view_row(int(hits[0])) if hits.size else -1

    def _source_count(self) -> int:
        return len(self._d)

    def _sort_key(self, column: int) -> NDArray[Any]:
        d = self._d
        return [
            d.query_key,
            d.document_key,
            d.range,
            d.mean,
            d.adjudicated,
            self._grades_text,
        ][column]

    def _cell(self, row: int, column: int, role: int) -> Any:
        d = self._d
        if role == SORT_ROLE:
            key = [d.query, d.document, d.range, d.mean, d.adjudicated, self._grades_text][column]
            value = key[row]
            return str(value) if column in (COL_D_QUERY, COL_D_DOC, COL_D_GRADES) else float(value)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == COL_D_QUERY:
                return str(d.query[row])
            if column == COL_D_DOC:
                return str(d.document[row])
            if column == COL_D_RANGE:
                return f"{float(d.range[row]):g}"
            if column == COL_D_MEAN:
                return f"{float(d.mean[row]):.2f}"
            if column == COL_D_GRADES:
                return str(self._grades_text[row])
            final = float(d.adjudicated[row])
            return "" if math.isnan(final) else f"{final:g}"
        if role == Qt.ItemDataRole.DecorationRole and column == COL_D_FINAL:
            final = float(d.adjudicated[row])
            return None if math.isnan(final) else chip_icon(int(final))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (COL_D_RANGE, COL_D_MEAN):
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_D_FINAL:
            final = float(d.adjudicated[row])
            if math.isnan(final):
                return self.tr("Not adjudicated yet")
            return self.tr("Adjudicated final grade")
        return None


# ---------------------------------------------------------------------------------- one item
class ItemGradesModel(TableModel):
    """One item's grades side by side: annotator → grade (with chip and name), then the final
    (adjudicated) grade if any."""

    HEADERS = (
        QT_TRANSLATE_NOOP("ItemGradesModel", "Annotator"),
        QT_TRANSLATE_NOOP("ItemGradesModel", "Grade"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, int | None, bool]] = []

    def set_grades(self, grades: Mapping[str, float], adjudicated: float | None = None) -> None:
        self.beginResetModel()
        self._rows = [(a, int(g), False) for a, g in sorted(grades.items())]
        if adjudicated is not None and not math.isnan(adjudicated):
            self._rows.append((self.tr("Final (adjudicated)"), int(adjudicated), True))
        self.endResetModel()

    def _row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        name, grade, final = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return name
            return f"{grade}  {grade_name(grade)}"
        if role == SORT_ROLE:
            return name if index.column() == 0 else grade
        if role == Qt.ItemDataRole.DecorationRole and index.column() == 1:
            return chip_icon(grade)
        if role == Qt.ItemDataRole.FontRole and final:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)
            return font
        return None


class HistoryModel(TableModel):
    """The change log of one item (judgments and adjudications), newest first."""

    HEADERS = (
        QT_TRANSLATE_NOOP("HistoryModel", "When (UTC)"),
        QT_TRANSLATE_NOOP("HistoryModel", "What"),
        QT_TRANSLATE_NOOP("HistoryModel", "By"),
        QT_TRANSLATE_NOOP("HistoryModel", "Change"),
        QT_TRANSLATE_NOOP("HistoryModel", "Note"),
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str, str, str, str]] = []

    def set_history(self, entries: Sequence[HistoryEntry], names: Mapping[int, str]) -> None:
        """Show ``entries`` (oldest first, as the service returns them) newest first;
        ``names`` maps annotator ids to names."""

        def who(i: int | None) -> str:
            return "" if i is None else names.get(i, f"#{i}")

        def grade(g: int | None) -> str:
            return "—" if g is None else str(g)

        self.beginResetModel()
        self._rows = []
        for e in reversed(list(entries)):
            what = (
                self.tr("adjudication")
                if e.kind == "adjudication"
                else arg(self.tr("grade of %1"), who(e.annotator_id))
            )

            note = e.new_note or ""
            self._rows.append(
                (
                    e.changed_at.strftime("%Y-%m-%d %H:%M:%S"),
                    what,
                    who(e.changed_by),
                    f"{grade(e.old_grade)} → {grade(e.new_grade)}",
                    note,
                )
            )
        self.endResetModel()

    def _row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            return self._rows[index.row()][index.column()]
        return None
