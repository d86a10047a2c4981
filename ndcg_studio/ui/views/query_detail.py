"""Query detail: how one (query, run) nDCG@K was computed, rank by rank.

Shows the run's top K across the whole width (rank, document, every annotator's grade, the
consensus grade, gain, discount, discounted gain, cumulative DCG), under it the ideal list beside
a chart of cumulative DCG against the ideal, the totals DCG, IDCG and nDCG, and one sentence
stating K, gain, ideal and order.
Disputed documents (grades differing by 2 or more) are highlighted with ⚠; unjudged documents
read "unjudged" and gain 0. The breakdown is computed in a worker
(:meth:`ScoringService.breakdown`).
"""

from __future__ import annotations

import html
import math

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QResizeEvent
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.domain.bands import band_of_value
from ndcg_studio.services.scoring.service import QueryBreakdown, ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.service import StabilityService
from ndcg_studio.ui.bands import band_color, band_name, band_text_color
from ndcg_studio.ui.charts import CumulativeDcgChart
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import describe_settings, scoring_settings_from
from ndcg_studio.ui.language import arg, plural
from ndcg_studio.ui.models.breakdown import BreakdownTableModel
from ndcg_studio.ui.widgets import column, read_only_table, selectable_text
from ndcg_studio.ui.workers import Task, run_task

#: the run table's Title column: its index and the least width it keeps
_TITLE_COL = 2
TITLE_MIN_WIDTH = 220


def _table(model: BreakdownTableModel) -> QTableView:
    view = read_only_table(model)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    return view


def _fit_columns(view: QTableView, model: BreakdownTableModel) -> None:
    """Numbers sized to their contents, the title taking the rest (run side); the ideal side
    hides title and per-annotator columns (its documents' grades are in the run side or the
    tooltip) so both tables fit side by side."""
    header = view.horizontalHeader()
    header.setMinimumSectionSize(36)
    header.setStretchLastSection(False)
    for col in range(model.columnCount()):
        hidden = model.side == "ideal" and 2 <= col < model.col_consensus
        view.setColumnHidden(col, hidden)
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
    if model.side == "run":
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)


def _section_label(text: str) -> QLabel:
    label = QLabel(text)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


def by_annotator_text(values: dict[str, float], k: int) -> str:
    """ "nDCG@10 by annotator: ada 0.61 · bob 0.55 · source gpt 0.70 — spread 0.15"; empty with
    fewer than two values (nothing to compare)."""
    if len(values) < 2:
        return ""
    source = QCoreApplication.translate("QueryDetailView", "source %1")
    parts = [
        f"{arg(source, name.removeprefix('source:')) if name.startswith('source:') else name} "
        f"{value:.4f}"
        for name, value in values.items()
    ]
    spread = max(values.values()) - min(values.values())
    text = QCoreApplication.translate("QueryDetailView", "nDCG@%1 by annotator: %2 — spread %3")
    return arg(text, k, " · ".join(parts), f"{spread:.4f}")


class QueryDetailView(QWidget):
    """The breakdown of one (query, run); data through :meth:`set_breakdown` or :meth:`load`."""

    def __init__(self, context: AppContext | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self._task: Task[QueryBreakdown] | None = None
        self._breakdown: QueryBreakdown | None = None
        self._spread_task: Task[dict[str, float]] | None = None
        self._build_labels()
        self._build_splitter()
        totals_row = QHBoxLayout()
        totals_row.addWidget(self.totals)
        totals_row.addWidget(self.band_chip)
        totals_row.addStretch(1)
        totals_row.addWidget(self.status)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.query_text)
        layout.addLayout(totals_row)
        layout.addWidget(self.how)
        layout.addWidget(self.by_annotator)
        layout.addWidget(line)
        layout.addWidget(self.legend)
        layout.addWidget(self.splitter, 1)
        self._show_empty()

    def _build_labels(self) -> None:
        """Title, query text, how it was computed, totals, band chip, legend, status."""
        self.title = QLabel()
        title_font = QFont(self.title.font())
        title_font.setPointSizeF(title_font.pointSizeF() * 1.35)
        title_font.setBold(True)
        self.title.setFont(title_font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.query_text = selectable_text()
        self.how = selectable_text()
        self.totals = QLabel()
        self.totals.setTextFormat(Qt.TextFormat.RichText)
        self.totals.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.band_chip = QLabel()
        self.band_chip.setMargin(0)
        self.legend = QLabel(
            self.tr(
                "⚠ disputed: the annotators' grades differ by 2 or more  ·  "
                "<i>unjudged</i>: nobody graded the document, gain 0"
            )
        )
        self.status = QLabel()
        # nDCG under each annotator and source (StabilityService)
        self.by_annotator = selectable_text()

    def _build_splitter(self) -> None:
        """The run table across the whole width (its every column in view at 1024 px: the
        rank, the title, each annotator's grade, gain, discount and cumulative DCG), above the
        ideal table and the cumulative DCG chart side by side."""
        self.run_model = BreakdownTableModel("run", self)
        self.ideal_model = BreakdownTableModel("ideal", self)
        self.run_table = _table(self.run_model)
        self.ideal_table = _table(self.ideal_model)
        self.run_caption = _section_label(self.tr("Run"))
        self.ideal_caption = _section_label(self.tr("Ideal list"))
        self.chart = CumulativeDcgChart()
        self.chart.setMinimumHeight(180)

        run_box = column(self.run_caption, self.run_table)
        ideal_box = column(self.ideal_caption, self.ideal_table)
        self.ideal_and_chart = lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(ideal_box)
        lower.addWidget(self.chart)
        lower.setStretchFactor(0, 1)
        lower.setStretchFactor(1, 1)
        lower.setSizes([480, 540])
        lower.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(run_box)
        self.splitter.addWidget(lower)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([420, 280])
        self.splitter.setChildrenCollapsible(False)

    # ------------------------------------------------------------------ data
    @property
    def breakdown(self) -> QueryBreakdown | None:
        return self._breakdown

    def load(
        self, query: str, run: str, settings: ScoringSettings | None = None, query_text: str = ""
    ) -> Task[QueryBreakdown] | None:
        """Compute the breakdown of (``query``, ``run``) in a worker, then show it."""
        if self.context is None or self.context.database is None:
            return None
        db = self.context.database
        settings = settings or scoring_settings_from(self.context)
        self.status.setText(self.tr("Computing…"))
        self.title.setText(arg(self.tr("Query %1 · run %2"), query, run))

        def job(progress: object, cancelled: object) -> QueryBreakdown:
            return ScoringService(db).breakdown(query, run, settings)

        self._task = run_task(
            job,
            on_success=lambda qb: self.set_breakdown(qb, query_text),
            on_failure=self._on_failed,
            owner=self,
            replaces=self._task,
        )
        self.by_annotator.clear()
        self._spread_task = run_task(
            lambda _p, _c: StabilityService(db).query_spread(query, run, settings),
            on_success=lambda values: self.by_annotator.setText(
                by_annotator_text(values, settings.k)
            ),
            on_failure=lambda _exc: self.by_annotator.clear(),
            owner=self,
            replaces=self._spread_task,
        )
        return self._task

    def _on_failed(self, exc: BaseException) -> None:
        self.status.setText(arg(self.tr("Could not compute the breakdown: %1"), exc))

    def set_breakdown(self, qb: QueryBreakdown, query_text: str = "") -> None:
        """Show ``qb`` (``query_text``: the query's words, shown under the title)."""
        self._breakdown = qb
        bd = qb.breakdown
        s = qb.settings
        k = s.k
        self.status.clear()
        self.title.setText(arg(self.tr("Query %1 · run %2"), qb.query, qb.run))
        self.query_text.setText(query_text)
        self.query_text.setVisible(bool(query_text))
        self.how.setText(arg(self.tr("How it was computed: %1"), describe_settings(s)))
        self.run_model.set_breakdown(qb)
        self.ideal_model.set_breakdown(qb)
        n_run, n_ideal = self.run_model.rowCount(), self.ideal_model.rowCount()
        self.run_caption.setText(arg(self.tr("Run %1: top %2 of nDCG@%3"), qb.run, n_run, k))
        ideal = (
            self.tr("Ideal list: the %n best judged document(s)", "", n_ideal)
            if s.ideal == "judged"
            else self.tr("Ideal list: the run's %n best returned document(s)", "", n_ideal)
        )
        self.ideal_caption.setText(plural(ideal, n_ideal))
        _fit_columns(self.run_table, self.run_model)
        _fit_columns(self.ideal_table, self.ideal_model)
        self._fit_splitter()
        self.fit_title_column()
        self.totals.setText(self.totals_html())
        band = band_of_value(float(bd.ndcg), s.bands)
        if band is None:
            self.band_chip.clear()
            self.band_chip.setStyleSheet("")
        else:
            code = int(band)
            self.band_chip.setText(band_name(code))
            self.band_chip.setStyleSheet(
                f"QLabel {{ background: {band_color(code).name()}; "
                f"color: {band_text_color(code).name()}; border-radius: 9px; "
                "padding: 2px 10px; font-weight: bold; }"
            )
        self.chart.set_curves(bd.cumulative_dcg, bd.ideal_cumulative_dcg, k, qb.run)

    def fit_title_column(self) -> None:
        """The run table's Title column takes the room the numbers leave, but never less than
        :data:`TITLE_MIN_WIDTH` (a scroll bar then): with several annotators it was squeezed
        to a few unreadable letters."""
        view = self.run_table
        header = view.horizontalHeader()
        if header.count() <= _TITLE_COL:
            return
        others = sum(
            header.sectionSize(c)
            for c in range(header.count())
            if c != _TITLE_COL and not view.isColumnHidden(c)
        )
        if view.viewport().width() - others >= TITLE_MIN_WIDTH:
            header.setSectionResizeMode(_TITLE_COL, QHeaderView.ResizeMode.Stretch)
        else:
            header.setSectionResizeMode(_TITLE_COL, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(_TITLE_COL, TITLE_MIN_WIDTH)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_title_column()

    def _fit_splitter(self) -> None:
        """Give the ideal table the width its columns need (at most 70 %); the chart takes
        the rest."""
        total = sum(self.ideal_and_chart.sizes())
        view = self.ideal_table
        needed = (
            view.horizontalHeader().length()
            + view.verticalScrollBar().sizeHint().width()
            + 2 * view.frameWidth()
            + 2
        )
        if total > 0:
            needed = min(needed, int(total * 0.7))
            self.ideal_and_chart.setSizes([needed, total - needed])

    def totals_html(self) -> str:
        """The totals line: DCG, IDCG and nDCG with the division written out."""
        qb = self._breakdown
        if qb is None:
            return ""
        bd = qb.breakdown
        k = qb.settings.k
        ndcg = float(bd.ndcg)
        if math.isnan(ndcg):
            value = self.tr("undefined (the query has no judgments)")
        elif bd.idcg_zero:
            value = self.tr("0 (IDCG = 0: no judged document has a gain)")
        else:
            value = f"{float(bd.dcg):.4f} / {float(bd.idcg):.4f} = <b>{ndcg:.4f}</b>"
        return (
            f"DCG@{k} = <b>{float(bd.dcg):.4f}</b> &nbsp;&nbsp; IDCG@{k} = "
            f"<b>{float(bd.idcg):.4f}</b> &nbsp;&nbsp; nDCG@{k} = {value}"
        )

    def totals_text(self) -> str:
        """The totals line as plain text (for tests and the clipboard)."""
        return html.unescape(
            self.totals_html().replace("<b>", "").replace("</b>", "").replace("&nbsp;", " ")
        )

    def _show_empty(self) -> None:
        self.title.setText(self.tr("Query detail"))
        self.query_text.setText(
            self.tr("Double-click a row of the Review table to see its breakdown.")
        )
        self.totals.clear()


class QueryDetailDialog(QDialog):
    """A window holding a :class:`QueryDetailView` (reused for each row opened)."""

    def __init__(self, context: AppContext | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Query detail"))
        self.view = QueryDetailView(context, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.view)
        self.resize(1180, 760)
        screen = self.screen()
        if screen is not None:  # a 1024×700 screen gets a window it can see whole
            free = screen.availableGeometry()
            self.resize(min(1180, free.width() - 16), min(760, free.height() - 48))
