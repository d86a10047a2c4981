"""Qt Charts for the analyst views, styled from the widget palette (light or dark).

- :class:`BandCountsChart`: queries per quality band, one stacked horizontal bar per run.
- :class:`HistogramChart`: distribution of nDCG@K (bins of 0.1) per run.
- :class:`CumulativeDcgChart`: cumulative DCG of the run vs the ideal list, by rank.
- :class:`DeltaChart`: per-query nDCG deltas of two runs, sorted.
- :class:`ChartsPane`: charts side by side when they fit, else as tabs.

Each chart takes its data through ``set_*`` methods (numpy arrays, no database) and restyles
itself when the palette changes. Series colours are the Okabe–Ito colour-blind-safe set; bands
use the band chip colours of :mod:`ndcg_studio.ui.bands` so chips and charts agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCharts import (
    QAbstractAxis,
    QAbstractBarSeries,
    QBarCategoryAxis,
    QBarSeries,
    QBarSet,
    QChart,
    QChartView,
    QHorizontalStackedBarSeries,
    QLineSeries,
    QStackedBarSeries,
    QValueAxis,
)
from PySide6.QtCore import QCoreApplication, QEvent, QMargins, QPointF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QTabWidget, QWidget

from ndcg_studio.domain.bands import Band
from ndcg_studio.ui.bands import band_color, band_name
from ndcg_studio.ui.language import arg

#: categorical series colours (Okabe–Ito: blue, orange, bluish green, reddish purple, …)
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")
#: run A / run B better, in the Compare chart
BETTER_A = "#0072B2"
BETTER_B = "#E69F00"
IDEAL_COLOR = "#7F7F7F"


def series_color(i: int) -> QColor:
    return QColor(SERIES_COLORS[i % len(SERIES_COLORS)])


class ChartView(QChartView):
    """A QChartView whose chart follows the widget palette (text, grid, background)."""

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        chart = QChart()
        chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)
        chart.setBackgroundRoundness(0)
        chart.setMargins(QMargins(4, 4, 4, 4))
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        self.setChart(chart)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(180)
        self._title = title
        self._title_shown = True
        self._is_empty = True
        self.restyle()

    # ------------------------------------------------------------------ styling
    def restyle(self) -> None:
        """Apply the palette to background, title, legend and axes."""
        chart = self.chart()
        pal = self.palette()
        base = pal.color(QPalette.ColorRole.Base)
        text = pal.color(QPalette.ColorRole.Text)
        grid = pal.color(QPalette.ColorRole.Mid)
        chart.setBackgroundBrush(base)
        chart.setPlotAreaBackgroundVisible(False)
        self.setBackgroundBrush(base)
        font = QFont(self.font())
        title_font = QFont(font)
        title_font.setBold(True)
        chart.setTitleFont(title_font)
        chart.setTitleBrush(text)
        chart.setTitle(self._title if self._title_shown else "")
        legend = chart.legend()
        legend.setLabelColor(text)
        legend.setFont(font)
        for axis in chart.axes():
            self._style_axis(axis, text, grid, font)

    @staticmethod
    def _style_axis(axis: QAbstractAxis, text: QColor, grid: QColor, font: QFont) -> None:
        axis.setLabelsColor(text)
        axis.setLabelsFont(font)
        axis.setTitleBrush(text)
        title_font = QFont(font)
        axis.setTitleFont(title_font)
        axis.setLinePenColor(grid)
        faint = QColor(grid)
        faint.setAlpha(90)
        axis.setGridLineColor(faint)
        axis.setShadesVisible(False)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self.restyle()
        super().changeEvent(event)

    def show_title(self, shown: bool) -> None:
        """Show or hide the chart's title (hidden on a tab, whose name says it: the line it
        frees keeps the axis labels whole in a short pane, where taller CJK lines turned them
        into "…")."""
        self._title_shown = shown
        self.chart().setTitle(self._title if shown else "")

    # ------------------------------------------------------------------ helpers
    def _clear(self) -> None:
        chart = self.chart()
        chart.removeAllSeries()
        for axis in chart.axes():
            chart.removeAxis(axis)

    def _attach(self, series: object, *axes: tuple[QAbstractAxis, Qt.AlignmentFlag]) -> None:
        chart = self.chart()
        chart.addSeries(series)  # type: ignore[arg-type]
        for axis, align in axes:
            if axis not in chart.axes():
                chart.addAxis(axis, align)
            series.attachAxis(axis)  # type: ignore[attr-defined]

    def _value_axis(self, title: str, low: float, high: float, fmt: str = "%.1f") -> QValueAxis:
        axis = QValueAxis()
        axis.setTitleText(title)
        axis.setRange(low, high)
        axis.setLabelFormat(fmt)
        return axis

    def is_empty(self) -> bool:
        return self._is_empty


class BandCountsChart(ChartView):
    """How many queries of each run fall in each quality band (stacked horizontal bars)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            QCoreApplication.translate("BandCountsChart", "Queries per quality band"), parent
        )

    def set_counts(self, runs: Sequence[str], counts: Mapping[str, Mapping[str, int]]) -> None:
        """``counts[run][band label]`` (labels ``excellent`` … ``bad``) for each run."""
        self._clear()
        self._is_empty = not runs
        series = QHorizontalStackedBarSeries()
        series.setBarWidth(0.6)
        for band in sorted(Band, reverse=True):
            bar = QBarSet(band_name(int(band)))
            fill = band_color(int(band))
            bar.setColor(fill)
            bar.setBorderColor(fill.darker(150))
            for run in runs:
                bar.append(float(counts.get(run, {}).get(band.label, 0)))
            series.append(bar)
        runs_axis = QBarCategoryAxis()
        runs_axis.append(list(runs))
        total = max((sum(counts.get(r, {}).values()) for r in runs), default=0)
        count_axis = self._value_axis(self.tr("queries"), 0, max(total, 1), "%d")
        count_axis.applyNiceNumbers()
        self._attach(
            series,
            (runs_axis, Qt.AlignmentFlag.AlignLeft),
            (count_axis, Qt.AlignmentFlag.AlignBottom),
        )
        self.restyle()


class HistogramChart(ChartView):
    """Histogram of nDCG@K per run: bins [0, 0.1), …, [0.9, 1.0]; NaN values left out."""

    BINS = 10

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            QCoreApplication.translate("HistogramChart", "Distribution of nDCG"), parent
        )
        self._k = 10

    @staticmethod
    def bin_counts(values: NDArray[np.float64], bins: int = BINS) -> NDArray[np.int64]:
        """Counts of the non-NaN values in ``bins`` equal bins over [0, 1] (1.0 in the last)."""
        finite = values[~np.isnan(values)]
        counts, _ = np.histogram(np.clip(finite, 0.0, 1.0), bins=bins, range=(0.0, 1.0))
        return counts.astype(np.int64)

    def set_values(self, values: Mapping[str, NDArray[np.float64]], k: int = 10) -> None:
        """``values[run]``: (n,) float64 nDCG@K of the run's queries."""
        self._clear()
        self._k = k
        self._is_empty = not values
        series = QBarSeries()
        series.setBarWidth(0.85)
        top = 1
        for i, (run, v) in enumerate(values.items()):
            counts = self.bin_counts(np.asarray(v, dtype=np.float64))
            top = max(top, int(counts.max(initial=0)))
            bar = QBarSet(run)
            bar.setColor(series_color(i))
            bar.setBorderColor(series_color(i).darker(130))
            bar.append([float(c) for c in counts])
            series.append(bar)
        bins_axis = QBarCategoryAxis()
        bins_axis.append([f"{i / self.BINS:.1f}" for i in range(self.BINS)])
        bins_axis.setTitleText(arg(self.tr("nDCG@%1 (bins of 0.1, lower bound shown)"), k))
        count_axis = self._value_axis(self.tr("queries"), 0, top, "%d")
        count_axis.applyNiceNumbers()
        self._attach(
            series,
            (bins_axis, Qt.AlignmentFlag.AlignBottom),
            (count_axis, Qt.AlignmentFlag.AlignLeft),
        )
        self.restyle()


class CumulativeDcgChart(ChartView):
    """Cumulative DCG of the run's list and of the ideal list, by rank (gain units)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            QCoreApplication.translate("CumulativeDcgChart", "Cumulative DCG by rank"), parent
        )

    def set_curves(
        self,
        run_cumulative: NDArray[np.float64],
        ideal_cumulative: NDArray[np.float64],
        k: int | None,
        run_label: str = "run",
    ) -> None:
        """(n,) running DCG of the run (ranks 1..n) and (m,) running IDCG (ranks 1..m)."""
        self._clear()
        self._is_empty = run_cumulative.size == 0 and ideal_cumulative.size == 0
        n = max(int(run_cumulative.size), int(ideal_cumulative.size), 1)
        last = max(n, k or 0) if k is not None else n
        top = float(max(run_cumulative.max(initial=0.0), ideal_cumulative.max(initial=0.0), 1.0))
        x_axis = self._value_axis(self.tr("rank"), 1, max(last, 2), "%d")
        x_axis.setTickType(QValueAxis.TickType.TicksDynamic)
        x_axis.setTickAnchor(1)
        x_axis.setTickInterval(max(1, round(max(last, 2) / 10)))
        y_axis = self._value_axis("DCG", 0, top * 1.05, "%.1f")
        y_axis.applyNiceNumbers()
        for values, label, color, style in (
            (ideal_cumulative, self.tr("ideal (IDCG)"), QColor(IDEAL_COLOR), Qt.PenStyle.DashLine),
            (
                run_cumulative,
                arg(self.tr("%1 (DCG)"), run_label),
                series_color(0),
                Qt.PenStyle.SolidLine,
            ),
        ):
            line = QLineSeries()
            line.setName(label)
            pen = QPen(color, 2.2, style)
            line.setPen(pen)
            line.setPointsVisible(True)
            line.setMarkerSize(7)
            line.append([QPointF(float(i + 1), float(v)) for i, v in enumerate(values.tolist())])
            # keep a flat tail to K so both curves end at the cutoff
            if values.size and k is not None and values.size < k:
                line.append(float(k), float(values[-1]))
            self._attach(
                line, (x_axis, Qt.AlignmentFlag.AlignBottom), (y_axis, Qt.AlignmentFlag.AlignLeft)
            )
        self.restyle()


class DeltaChart(ChartView):
    """Per-query nDCG delta (A − B), sorted from largest gain of A to largest gain of B.

    One bar per query, blue where A is better and orange where B is; with many queries the
    deltas are averaged over equal-width groups (at most ``max_bars`` bars) so the chart stays
    fast and readable.
    """

    def __init__(self, parent: QWidget | None = None, max_bars: int = 400) -> None:
        super().__init__(
            QCoreApplication.translate("DeltaChart", "Per-query Δ nDCG, sorted"), parent
        )
        self.max_bars = max_bars

    def set_deltas(self, deltas: NDArray[np.float64], run_a: str, run_b: str, k: int) -> None:
        """``deltas``: (n,) float64 nDCG@K of A minus B over the paired queries (any order)."""
        self._clear()
        d = np.sort(np.asarray(deltas, dtype=np.float64)[~np.isnan(deltas)])[::-1]
        self._is_empty = d.size == 0
        grouped = d
        if d.size > self.max_bars:
            edges = np.linspace(0, d.size, self.max_bars + 1).astype(np.intp)
            grouped = np.add.reduceat(d, edges[:-1]) / np.diff(edges)
        series = QStackedBarSeries()
        series.setBarWidth(1.0)
        a_set = QBarSet(arg(self.tr("%1 better"), run_a))
        b_set = QBarSet(arg(self.tr("%1 better"), run_b))
        for bar, color in ((a_set, BETTER_A), (b_set, BETTER_B)):
            bar.setColor(QColor(color))
            bar.setBorderColor(QColor(color))
        a_set.append([float(v) if v > 0 else 0.0 for v in grouped.tolist()])
        b_set.append([float(v) if v < 0 else 0.0 for v in grouped.tolist()])
        series.append(a_set)
        series.append(b_set)
        x_axis = QBarCategoryAxis()
        x_axis.append([str(i) for i in range(1, int(grouped.size) + 1)])
        x_axis.setLabelsVisible(False)
        x_axis.setGridLineVisible(False)
        x_axis.setLineVisible(False)
        if d.size <= self.max_bars:
            title = self.tr("%n queries, sorted by Δ", "", d.size)
        else:
            title = arg(
                self.tr("%n queries, sorted by Δ, %1 per bar", "", d.size),
                f"{d.size / grouped.size:.0f}",
            )
        x_axis.setTitleText(title)
        span = float(max(np.abs(d).max(initial=0.0), 0.05))
        # the axis says only "Δ": the chart's title names the measure and the legend the run
        # each colour favours; a longer title was cut where Compare leaves the chart little
        # height (1024×700 with the estimate shown)
        y_axis = self._value_axis("Δ", -span, span, "%.2f")
        y_axis.applyNiceNumbers()
        self._attach(
            series, (x_axis, Qt.AlignmentFlag.AlignBottom), (y_axis, Qt.AlignmentFlag.AlignLeft)
        )
        self.restyle()

    @staticmethod
    def bar_series(chart: QChart) -> list[QAbstractBarSeries]:
        return [s for s in chart.series() if isinstance(s, QAbstractBarSeries)]


class ChartsPane(QWidget):
    """Several charts side by side when each gets at least :attr:`MIN_CHART_WIDTH` pixels, else
    one at a time in tabs: squeezed charts turn every axis label into "…" and legends into
    "Exc…", which a narrow (1024-pixel) screen would otherwise show."""

    MIN_CHART_WIDTH = 420

    def __init__(
        self, charts: Sequence[tuple[str, ChartView]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._charts = list(charts)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self._tabbed: bool | None = None
        self._arrange(tabbed=False)

    def is_tabbed(self) -> bool:
        """True when the charts are shown one at a time in tabs."""
        return bool(self._tabbed)

    def side_by_side_width(self) -> int:
        """The width below which the charts go into tabs."""
        n = len(self._charts)
        return n * self.MIN_CHART_WIDTH + (n - 1) * self._layout.spacing()

    def _arrange(self, *, tabbed: bool) -> None:
        if tabbed == self._tabbed:
            return
        self._tabbed = tabbed
        if tabbed:
            for title, chart in self._charts:
                self._layout.removeWidget(chart)
                self.tabs.addTab(chart, title)
                chart.show_title(False)
            self._layout.addWidget(self.tabs)
            self.tabs.show()
        else:
            self.tabs.clear()  # removes the pages without deleting them
            self._layout.removeWidget(self.tabs)
            self.tabs.hide()
            for _title, chart in self._charts:
                chart.setParent(self)
                self._layout.addWidget(chart)
                chart.show_title(True)
                chart.show()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(self.MIN_CHART_WIDTH, hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._arrange(tabbed=event.size().width() < self.side_by_side_width())
        super().resizeEvent(event)
