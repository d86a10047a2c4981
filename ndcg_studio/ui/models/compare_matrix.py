"""The matrix of pairwise mean differences of N runs (Compare view), with significance marks.

Rows and columns are the runs ordered by mean nDCG@K (best first); cell (i, j) is
Δ = mean_i − mean_j over the queries every run has a value for, marked by the corrected
p-value: the topic-blocked randomised Tukey HSD over all pairs (Carterette 2012) without a
baseline, Holm–Bonferroni over the pairs with the baseline when one is chosen (only those
cells are filled then). The diagonal holds each run's mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from ndcg_studio.services.scoring.multirun import MultiRunReport
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.table import SORT_ROLE, TableModel, signed

Index = QModelIndex | QPersistentModelIndex

#: role returning the (row run, column run) names of a cell
PAIR_ROLE = Qt.ItemDataRole.UserRole + 2
#: role returning the corrected p-value of a cell (NaN on the diagonal and unfilled cells)
P_ADJUSTED_ROLE = Qt.ItemDataRole.UserRole + 3

_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_BETTER = QColor("#C8E6C9")  # row run significantly better than the column run
_WORSE = QColor("#FFCDD2")
_DIAGONAL = QColor("#ECEFF1")


def marks(p: float) -> str:
    """Significance marks of a corrected p-value: *** < 0.001, ** < 0.01, * < 0.05."""
    if math.isnan(p):
        return ""
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


@dataclass(frozen=True, eq=False)
class PairMatrix:
    """The comparison laid out as a square matrix in mean order.

    Attributes:
        runs: run names, best mean first (n runs).
        means: (n,) float64 mean nDCG@K over the common queries.
        delta, ci_low, ci_high, effect_size, p, p_adjusted: (n, n) float64; entry (i, j)
            compares runs[i] with runs[j] (delta = mean_i - mean_j, the interval and effect
            size of that difference, p of the paired randomization test, p_adjusted
            corrected); NaN on the diagonal and, with a baseline, for pairs without one.
        correction: "tukey" or "holm"; baselines: the baseline run names.
        n_queries, n_dropped: queries used / left out (a run without a value there).
        k: the cutoff; power_sentence: the topic-set-size line of the comparison.
    """

    runs: list[str]
    means: NDArray[np.float64]
    delta: NDArray[np.float64]
    ci_low: NDArray[np.float64]
    ci_high: NDArray[np.float64]
    effect_size: NDArray[np.float64]
    p: NDArray[np.float64]
    p_adjusted: NDArray[np.float64]
    correction: str
    baselines: list[str]
    n_queries: int
    n_dropped: int
    k: int
    power_sentence: str
    #: the smallest Δ the paired t-test detects (NaN: none can be stated); the view words it
    min_detectable_delta: float = math.nan

    def __len__(self) -> int:
        return len(self.runs)

    @classmethod
    def empty(cls) -> PairMatrix:
        z = np.zeros((0, 0))
        return cls([], np.zeros(0), z, z, z, z, z, z, "tukey", [], 0, 0, 10, "")

    @classmethod
    def from_report(cls, report: MultiRunReport, k: int) -> PairMatrix:
        """Lay ``report`` out by mean (Tukey without baselines, Holm with them)."""
        c = report.comparison
        n = len(report.runs)
        means = np.zeros(n)
        means[c.run_a] = c.mean_a
        means[c.run_b] = c.mean_b
        order = np.argsort(-means, kind="stable")
        position = np.empty(n, dtype=np.intp)
        position[order] = np.arange(n)
        correction = "holm" if report.baselines else "tukey"
        adjusted = c.p_holm if correction == "holm" else c.p_tukey
        chosen = report.pairs()
        full = {name: np.full((n, n), np.nan) for name in ("d", "lo", "hi", "e", "p", "pa")}
        i, j = position[c.run_a[chosen]], position[c.run_b[chosen]]
        for name, values, sign in (
            ("d", c.delta, 1),
            ("e", c.effect_size, 1),
            ("p", c.p, 0),
            ("pa", adjusted, 0),
        ):
            full[name][i, j] = values[chosen]
            full[name][j, i] = -values[chosen] if sign else values[chosen]
        full["lo"][i, j], full["hi"][i, j] = c.ci_low[chosen], c.ci_high[chosen]
        full["lo"][j, i], full["hi"][j, i] = -c.ci_high[chosen], -c.ci_low[chosen]
        return cls(
            runs=[report.runs[int(r)] for r in order],
            means=means[order],
            delta=full["d"],
            ci_low=full["lo"],
            ci_high=full["hi"],
            effect_size=full["e"],
            p=full["p"],
            p_adjusted=full["pa"],
            correction=correction,
            baselines=list(report.baselines),
            n_queries=report.n_queries,
            n_dropped=report.n_dropped,
            k=k,
            power_sentence=report.power_sentence(),
            min_detectable_delta=float(report.min_detectable_delta),
        )

    def correction_text(self) -> str:
        """The multiple-comparison correction in words, in the interface language."""
        if self.correction == "holm":
            text = QCoreApplication.translate(
                "PairMatrix", "Holm–Bonferroni over the pairs with %1"
            )
            return arg(text, ", ".join(self.baselines))
        n = len(self.runs) * (len(self.runs) - 1) // 2
        if n > 1:
            return arg(
                QCoreApplication.translate("PairMatrix", "randomised Tukey HSD over all %1 pairs"),
                n,
            )
        return QCoreApplication.translate("PairMatrix", "one pair: none needed")


class PairMatrixModel(TableModel):
    """Square table of Δ mean nDCG@K (row run − column run) with significance marks."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._m = PairMatrix.empty()

    @property
    def matrix(self) -> PairMatrix:
        return self._m

    def set_matrix(self, matrix: PairMatrix) -> None:
        self.beginResetModel()
        self._m = matrix
        self.endResetModel()

    # ------------------------------------------------------------------ TableModel hooks
    def _row_count(self) -> int:
        return len(self._m)

    def _headers(self) -> list[str]:
        return self._m.runs

    def _header_tooltip(self, section: int) -> str | None:
        m = self._m
        return arg(self.tr("%1: mean nDCG@%2 %3"), m.runs[section], m.k, f"{m.means[section]:.4f}")

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        m = self._m
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(m):
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{m.runs[section]}  {m.means[section]:.4f}"
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._header_tooltip(section)
            return None
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        m = self._m
        if not index.isValid() or not (0 <= index.row() < len(m) and 0 <= index.column() < len(m)):
            return None
        i, j = index.row(), index.column()
        diagonal = i == j
        d = float(m.delta[i, j])
        pa = float(m.p_adjusted[i, j])
        if role == Qt.ItemDataRole.DisplayRole:
            if diagonal:
                return f"{m.means[i]:.4f}"
            return "" if math.isnan(d) else f"{signed(d, 3)} {marks(pa)}".rstrip()
        if role == SORT_ROLE:
            return float(m.means[i]) if diagonal else d
        if role == P_ADJUSTED_ROLE:
            return pa
        if role == PAIR_ROLE:
            return (m.runs[i], m.runs[j])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER
        if role == Qt.ItemDataRole.BackgroundRole:
            if diagonal:
                return _DIAGONAL
            if not math.isnan(pa) and pa < 0.05:
                return _BETTER if d > 0 else _WORSE
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            # dark text on the light backgrounds above (also with a dark palette)
            return QColor("#000000") if diagonal or (not math.isnan(pa) and pa < 0.05) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            if diagonal:
                text = self.tr("%1: mean nDCG@%2 %3 over %4 queries")
                return arg(text, m.runs[i], m.k, f"{m.means[i]:.4f}", m.n_queries)
            if math.isnan(d):
                return self.tr(
                    "Not compared: choose no baseline, or one of these runs as the baseline"
                )
            text = self.tr(
                "%1 − %2: Δ = %3 (95% CI %4 to %5), effect size %6\n"
                "p = %7 (paired randomization test), corrected p = %8 (%9)\n"
                "Click to see the per-query deltas of this pair"
            )
            return arg(
                text,
                m.runs[i],
                m.runs[j],
                signed(d, 4),
                signed(float(m.ci_low[i, j]), 4),
                signed(float(m.ci_high[i, j]), 4),
                signed(float(m.effect_size[i, j]), 2),
                f"{float(m.p[i, j]):.4f}",
                f"{pa:.4f}",
                m.correction_text(),
            )

        return None
