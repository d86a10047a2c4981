"""Review (for analysts): nDCG@K of every (query, run) with its quality band, the per-run means
with 95% intervals, band counts and the distribution of nDCG; filters; double-click (or Enter)
opens the Query detail of a row.

Everything is computed in a worker (:func:`load_review`): scoring, per-run summaries, query texts
and per-query agreement. A new load cancels the previous one. The view reloads when the database,
the judgments or a scoring setting change (coalesced by a short timer, and only while visible;
a hidden view reloads when shown).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.domain.bands import NO_BAND, Band
from ndcg_studio.services.agreement import AgreementService, QueryAgreement
from ndcg_studio.services.annotation import AnnotationService, DatabaseCounts
from ndcg_studio.services.progress import Cancelled, Progress
from ndcg_studio.services.scoring import (
    RunSummary,
    ScoreReport,
    ScoringService,
    ScoringSettings,
    summarize,
)
from ndcg_studio.services.wording import count
from ndcg_studio.storage.database import Database
from ndcg_studio.ui.bands import BandChipDelegate, BandLegend, band_name
from ndcg_studio.ui.charts import BandCountsChart, ChartsPane, HistogramChart
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models import scores as M
from ndcg_studio.ui.models.scores import (
    DEFAULT_COVERAGE_THRESHOLD,
    ReviewFilter,
    ReviewRows,
    RunSummaryModel,
    ScoresTableModel,
)
from ndcg_studio.ui.views.base import LazyView, StateWidget
from ndcg_studio.ui.views.query_detail import QueryDetailDialog
from ndcg_studio.ui.views.review_condensed import CondensedPanel
from ndcg_studio.ui.views.scoring_settings import (
    SCORING_KEYS,
    ScoringSettingsDialog,
    describe_settings,
    headline,
    scoring_settings_from,
)
from ndcg_studio.ui.workers import Task, TaskFn, run_task


@dataclass(frozen=True, eq=False)
class ReviewData:
    """What one Review load produces (crosses from the worker to the GUI thread)."""

    report: ScoreReport
    summaries: list[RunSummary]
    rows: ReviewRows
    #: what the database holds, read only when nothing could be scored (to say what is missing)
    counts: DatabaseCounts | None = None
    #: the judgment sources (``humans`` first), for the source filter
    sources: tuple[str, ...] = ()
    #: the source whose grades the scores are against (None: every annotator's consensus)
    source: str | None = None
    #: False: the per-query alpha, disputed and spread columns are still to come
    #: (:func:`load_review_agreement`)
    complete: bool = True


#: the source filter's tooltip: what choosing a source means
SOURCE_FILTER_TIP = (
    "Score against one judgment source's grades only: its annotators' grades combined by the "
    "consensus rule, no adjudication (like `score --source`); 'humans' are the annotators of "
    "no source. All sources: the usual consensus of every annotator."
)


def load_review(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    source: str | None = None,
    agreement: bool = True,
) -> ReviewData:
    """Score every (query, run), summarise per run, read query texts and per-query agreement.

    ``agreement=False``: leave the per-query alpha, disputed and spread columns for
    :func:`load_review_agreement` (what the view shows first arrives first).

    ``source``: score against that judgment source's grades alone
    (:meth:`StabilityService.score_source`); a source the database no longer has scores with
    every annotator (``ReviewData.source`` says which was used).

    Runs on a worker thread (no Qt); raises ``OperationCancelled`` when ``cancelled()``.
    """
    from ndcg_studio.services.stability import DEFAULT_SOURCE, StabilityService

    scoring = ScoringService(db)
    stability = StabilityService(db)
    sources = (DEFAULT_SOURCE, *(s.name for s in stability.sources()))
    if source not in sources:
        source = None
    if source is None:
        report = scoring.score(settings, progress=progress, cancelled=cancelled)
    else:
        report = stability.score_source(source, settings, progress=progress, cancelled=cancelled)
    if len(report) == 0:
        counts = AnnotationService(db).counts()
        return ReviewData(report, [], ReviewRows.empty(), counts, sources, source)
    summaries = summarize(report)
    if cancelled is not None and cancelled():
        from ndcg_studio.services.progress import OperationCancelled

        raise OperationCancelled("cancelled")
    texts = scoring.query_texts(report.query_ids.tolist())
    if not agreement:
        rows = ReviewRows.from_report(report, texts)
        return ReviewData(report, summaries, rows, None, sources, source, complete=False)
    overview, spread = load_review_agreement(db, settings, report, cancelled)
    rows = ReviewRows.from_report(report, texts, overview, spread)
    return ReviewData(report, summaries, rows, None, sources, source)


def load_review_agreement(
    db: Database, settings: ScoringSettings, report: ScoreReport, cancelled: Cancelled | None
) -> tuple[QueryAgreement, NDArray[np.float64] | None]:
    """The per-query agreement and the nDCG spread over annotators of ``report``'s rows (None:
    one annotator, or the database changed meanwhile). Worker thread."""
    from ndcg_studio.services.stability import StabilityService

    overview = AgreementService(db).query_overview()
    spread = None
    if int(report.n_annotators.max(initial=0)) > 1:  # one annotator: no spread
        sp = StabilityService(db).spread(settings, cancelled=cancelled)
        same = sp.report.run_names == report.run_names and len(sp.report) == len(report)
        spread = sp.spread if same else None  # None: the database changed meanwhile
    return overview, spread


class ReviewView(LazyView[ReviewData]):
    """The Review tab. Construct as ``ReviewView(context, parent)``.

    Signals:
        rows_shown(): the scores are shown (table, summary, charts); the per-query alpha,
            disputed and spread columns follow in a second worker.
        data_loaded(): a load finished and the table, summary and charts show it, all columns.
    """

    rows_shown = Signal()
    data_loaded = Signal()
    STATE_KEY = "review"
    LOADING_STATUS = "Scoring…"
    FAILED_STATUS = "Scoring failed"
    FAILED_ACTION = "Scoring the runs"
    NO_DATABASE_TEXT = "No database is open.\nUse File ▸ Open database… or start with the demo."

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.data: ReviewData | None = None
        self._agreement_task: Task[Any] | None = None
        self.detail_dialog: QueryDetailDialog | None = None
        self.settings_dialog: ScoringSettingsDialog | None = None

        # header: how the scores are computed, settings button, status
        self.settings_line = QLabel()
        self.settings_line.setWordWrap(True)
        self.settings_button = QPushButton("Scoring settings…")
        self.settings_button.clicked.connect(self.open_settings)
        header = QHBoxLayout()
        header.addWidget(self.settings_line, 1)
        header.addWidget(self.status)
        header.addWidget(self.settings_button)

        # summary: per-run table + band chart + histogram
        self.summary_model = RunSummaryModel(self)
        self.summary_table = QTableView()
        self.summary_table.setObjectName("summary_table")
        self.summary_table.setTabKeyNavigation(False)  # Tab leaves the table
        self.summary_table.setModel(self.summary_model)
        self.summary_table.verticalHeader().setVisible(False)
        self.summary_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.summary_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.summary_table.setWordWrap(False)
        self.summary_note = QLabel()
        self.summary_note.setWordWrap(True)
        self.band_legend = BandLegend()
        summary_box = QWidget()
        summary_layout = QVBoxLayout(summary_box)
        summary_layout.setContentsMargins(0, 0, 0, 0)
        summary_layout.addWidget(self.summary_table)
        summary_layout.addWidget(self.summary_note)
        summary_layout.addWidget(self.band_legend)
        summary_layout.addStretch(1)
        self.band_chart = BandCountsChart()
        self.histogram = HistogramChart()
        self.charts = ChartsPane([("Bands", self.band_chart), ("Distribution", self.histogram)])
        self.summary_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.summary_splitter.addWidget(summary_box)
        self.summary_splitter.addWidget(self.charts)
        # the run table keeps its width; the charts take (or give up) the rest
        self.summary_splitter.setStretchFactor(0, 0)
        self.summary_splitter.setStretchFactor(1, 1)
        self.summary_splitter.setChildrenCollapsible(False)
        self.summary_splitter.setSizes([560, 720])

        # filters
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter by query id or text…")
        self.search.setClearButtonEnabled(True)
        self.run_filter = QComboBox()
        self.run_filter.addItem("All runs", None)
        self.band_filter = QComboBox()
        self.band_filter.addItem("All bands", None)
        for band in sorted(Band, reverse=True):
            self.band_filter.addItem(band_name(int(band)), int(band))
        self.band_filter.addItem("No band (no judgments)", NO_BAND)
        # whose grades the scores are against (a reload, not a row filter); shown once the
        # database has a source besides the humans
        self.source_filter = QComboBox()
        self.source_filter.setObjectName("review_source_filter")
        self.source_filter.addItem("All sources", None)
        self.source_filter.setToolTip(SOURCE_FILTER_TIP)
        self.source_filter.setVisible(False)
        self.disputed_only = QCheckBox("Disputed only")
        self.disputed_only.setToolTip("Queries with a document whose grades differ by 2 or more")
        self.low_coverage = QCheckBox("Judged@K below")
        self.coverage = QDoubleSpinBox()
        self.coverage.setRange(0, 100)
        self.coverage.setSuffix(" %")
        self.coverage.setDecimals(0)
        self.coverage.setSingleStep(5)
        self.coverage.setValue(DEFAULT_COVERAGE_THRESHOLD * 100)
        self.coverage.setKeyboardTracking(False)
        self.shown = QLabel()
        filters = QHBoxLayout()
        filters.addWidget(self.search, 3)
        filters.addWidget(self.run_filter, 1)
        filters.addWidget(self.band_filter, 1)
        filters.addWidget(self.source_filter, 1)
        filters.addWidget(self.disputed_only)
        filters.addWidget(self.low_coverage)
        filters.addWidget(self.coverage)
        filters.addStretch(0)
        filters.addWidget(self.shown)

        # the table
        self.model = ScoresTableModel(self)
        self.table = QTableView()
        self.table.setObjectName("review_table")
        self.table.setTabKeyNavigation(False)
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(M.COL_NDCG, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setItemDelegateForColumn(M.COL_BAND, BandChipDelegate(self.table))
        header_view = self.table.horizontalHeader()
        header_view.setHighlightSections(False)
        header_view.setStretchLastSection(True)
        for col, width in (
            (M.COL_QUERY, 70),
            (M.COL_RUN, 130),
            (M.COL_NDCG, 80),
            (M.COL_BAND, 100),
            (M.COL_DCG, 80),
            (M.COL_IDCG, 80),
            (M.COL_JUDGED, 80),
            (M.COL_ANNOTATORS, 85),
            (M.COL_ALPHA, 75),
            (M.COL_DISPUTED, 75),
        ):
            header_view.resizeSection(col, width)
        header_view.resizeSection(M.COL_SPREAD, 70)
        header_view.moveSection(M.COL_SPREAD, M.COL_TEXT)  # beside Disputed; text stays last
        header_view.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.activated.connect(self._on_activated)
        self.table.setToolTip("Double-click or press Enter for the per-rank breakdown")

        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addLayout(filters)
        table_layout.addWidget(self.table, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.summary_splitter)
        # nDCG beside nDCG′ (holes in the judgments) on a second page, loaded when shown
        self.condensed = CondensedPanel(context)
        self.lower_tabs = QTabWidget()
        self.lower_tabs.setDocumentMode(True)
        self.lower_tabs.addTab(table_box, "Scores")
        self.lower_tabs.addTab(self.condensed, "nDCG vs nDCG′ (unjudged documents)")
        self.splitter.addWidget(self.lower_tabs)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([280, 480])

        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addLayout(header)
        content_layout.addWidget(self.splitter, 1)
        self._set_content(content)

        for widget_signal in (
            self.search.textChanged,
            self.run_filter.currentIndexChanged,
            self.band_filter.currentIndexChanged,
            self.disputed_only.toggled,
            self.low_coverage.toggled,
            self.coverage.valueChanged,
        ):
            widget_signal.connect(self._apply_filter)
        self.source_filter.currentIndexChanged.connect(self._schedule)
        self.model.modelReset.connect(self._update_shown)
        self.model.layoutChanged.connect(self._update_shown)
        context.database_changed.connect(self._schedule)
        context.judgments_changed.connect(self._schedule)
        context.settings_changed.connect(self._on_settings_changed)
        self.restore_state()
        self._update_header()
        self._show_empty_message()

    # ------------------------------------------------------------------ loading
    def _load_job(self, db: Database) -> TaskFn[ReviewData]:
        """Rescore with the current scoring settings (shown in the header)."""
        settings = scoring_settings_from(self.context)
        self._update_header(settings)
        source = self.source_filter.currentData()
        return lambda progress, cancelled: load_review(
            db, settings, progress, cancelled, source, agreement=False
        )

    def _tasks(self) -> tuple[Task[Any] | None, ...]:
        return (self._task, self._agreement_task)

    def _load_agreement(self, data: ReviewData) -> None:
        """Second stage of a load: the per-query alpha, disputed and spread columns."""
        db = self.context.database
        if db is None:
            return
        settings, report = data.report.settings, data.report

        def work(_progress: Progress, cancelled: Cancelled) -> ReviewRows:
            agreement, spread = load_review_agreement(db, settings, report, cancelled)
            return data.rows.with_agreement(report, agreement, spread)

        self._agreement_task = run_task(
            work,
            on_success=lambda rows: self._on_agreement(data, rows),
            on_failure=self._on_failed,
            owner=self,
            replaces=self._agreement_task,
        )

    def _on_agreement(self, data: ReviewData, rows: ReviewRows) -> None:
        if self.data is not data:  # a newer load replaced it meanwhile
            return
        self.data = replace(data, rows=rows, complete=True)
        self.model.set_agreement_columns(rows)
        self.data_loaded.emit()

    def _on_settings_changed(self, key: str) -> None:
        if key in SCORING_KEYS:
            self._update_header()
            self._schedule()

    def _on_loaded(self, data: ReviewData) -> None:
        self.data = data
        report = data.report
        self._fill_source_filter(data)
        if data.source is not None:
            self.settings_line.setText(
                f"{headline(report.settings)} · grades of source {data.source} only"
            )
        if len(report) == 0:
            self.model.set_rows(ReviewRows.empty())
            self._show_empty_message(data.counts)
            self.rows_shown.emit()
            self.data_loaded.emit()
            return
        self.pages.setCurrentIndex(1)
        k = report.settings.k
        self.summary_model.set_summaries(data.summaries, k)
        self.summary_table.resizeColumnsToContents()
        self.summary_note.setText(self._coverage_note(data.summaries))
        self.band_legend.set_thresholds(report.settings.bands)
        self._fit_summary_table()
        self.band_chart.set_counts(report.run_names, {s.run: s.band_counts for s in data.summaries})
        self.histogram.set_values(
            {run: report.table.ndcg[report.for_run(run)] for run in report.run_names}, k
        )
        current_run = self.run_filter.currentData()
        self.run_filter.blockSignals(True)
        self.run_filter.clear()
        self.run_filter.addItem("All runs", None)
        for run in report.run_names:
            self.run_filter.addItem(run, run)
        self.run_filter.setCurrentIndex(max(0, self.run_filter.findData(current_run)))
        self.run_filter.blockSignals(False)
        self.model.set_rows(data.rows)
        self._apply_filter()
        self.rows_shown.emit()
        if data.complete:
            self.data_loaded.emit()
        else:
            self._load_agreement(data)

    def _fill_source_filter(self, data: ReviewData) -> None:
        """The sources of the database, the one scored against selected; hidden without a
        source besides the humans."""
        combo = self.source_filter
        combo.blockSignals(True)
        combo.clear()
        combo.addItem("All sources", None)
        for name in data.sources:
            combo.addItem(f"Source: {name}", name)
        combo.setCurrentIndex(max(0, combo.findData(data.source)))
        combo.blockSignals(False)
        combo.setVisible(len(data.sources) > 1)

    def _fit_summary_table(self) -> None:
        """As tall as its rows (up to 6), so the note and the legend sit right below."""
        t = self.summary_table
        rows = min(self.summary_model.rowCount(), 6)
        height = t.horizontalHeader().height() + 2 * t.frameWidth() + 2
        height += sum(t.rowHeight(r) for r in range(rows))
        if self.summary_model.rowCount() > rows:
            height += t.horizontalScrollBar().sizeHint().height()
        t.setMaximumHeight(height)

    @staticmethod
    def _coverage_note(summaries: list[RunSummary]) -> str:
        parts = []
        for s in summaries:
            extra = []
            if s.n_without_judgments:
                extra.append(f"{s.n_without_judgments} without judgments (no nDCG)")
            if s.n_missing_from_run:
                extra.append(f"{s.n_missing_from_run} not returned (scored 0)")
            if s.n_idcg_zero:
                extra.append(f"{s.n_idcg_zero} with IDCG = 0")
            if extra:
                parts.append(f"{s.run}: " + ", ".join(extra))
        if not parts:
            return "Every query has judgments and a result in every run."
        return "; ".join(parts) + "."

    # ------------------------------------------------------------------ filters
    def current_filter(self) -> ReviewFilter:
        return ReviewFilter(
            band=self.band_filter.currentData(),
            run=self.run_filter.currentData(),
            text=self.search.text(),
            disputed_only=self.disputed_only.isChecked(),
            coverage_below=self.coverage.value() / 100 if self.low_coverage.isChecked() else None,
        )

    def _apply_filter(self, *_: object) -> None:
        self.model.set_coverage_threshold(self.coverage.value() / 100)
        self.model.set_filter(self.current_filter())

    def _update_shown(self) -> None:
        n, total = self.model.rowCount(), self.model.source_count()
        self.shown.setText(f"{n:,} of {total:,} rows" if n != total else f"{total:,} rows")

    # ------------------------------------------------------------------ detail
    def _on_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.open_detail(index.row())

    def open_detail(self, view_row: int) -> QueryDetailDialog:
        """Open the Query detail of the table row ``view_row`` (computed in a worker)."""
        rows = self.model.rows
        source = self.model.source_row(view_row)
        query, run = str(rows.query[source]), str(rows.run[source])
        if self.detail_dialog is None:
            self.detail_dialog = QueryDetailDialog(self.context, self)
        dialog = self.detail_dialog
        settings = self.data.report.settings if self.data else scoring_settings_from(self.context)
        dialog.setWindowTitle(f"Query {query} · {run} — Query detail")
        dialog.view.load(query, run, settings, str(rows.text[source]))
        _show_window(dialog)
        return dialog

    def open_settings(self) -> ScoringSettingsDialog:
        if self.settings_dialog is None:
            self.settings_dialog = ScoringSettingsDialog(self.context, self)
        self.settings_dialog.panel.load()
        _show_window(self.settings_dialog)
        return self.settings_dialog

    # ------------------------------------------------------------------ display state
    def _update_header(self, settings: ScoringSettings | None = None) -> None:
        s = settings or scoring_settings_from(self.context)
        self.settings_line.setText(headline(s))
        self.settings_line.setToolTip(describe_settings(s))

    def _show_empty_message(self, counts: DatabaseCounts | None = None) -> None:
        if self.context.database is None:
            self._show_empty(self.NO_DATABASE_TEXT)
        else:
            self._show_empty(self.nothing_to_score_text(counts))

    @staticmethod
    def nothing_to_score_text(counts: DatabaseCounts | None) -> str:
        """Why nothing is scored, naming only what is missing (a database with 11,386
        judgments and no run was told to import "a run and judgments")."""
        runs = counts is None or counts.runs > 0
        judgments = counts is None or counts.judgments > 0
        if counts is not None and not runs and judgments:
            return (
                f"Nothing to score yet: {count(counts.judgments, 'judgments')}, but no run.\n"
                "Import a run (File ▸ Import… ▸ A run) to score it."
            )
        if counts is not None and runs and not judgments:
            return (
                f"Nothing to score yet: {count(counts.runs, 'runs')}, but no judgments.\n"
                "Judge documents in Annotate, or import judgments (File ▸ Import…)."
            )
        if counts is not None and runs and judgments:
            return (
                "Nothing to score yet: no query has both results in a run and judgments.\n"
                "Judge the runs' documents in Annotate, or import judgments for their queries."
            )
        if counts is not None and not runs and not judgments:
            return (
                "Nothing to score yet: no run and no judgments.\nImport a run and judgments "
                "(File ▸ Import…), or judge a few documents in Annotate."
            )
        return (
            "Nothing to score yet.\nImport a run and judgments (File ▸ Import…), "
            "or judge a few documents in Annotate."
        )

    def hideEvent(self, event: QHideEvent) -> None:
        self.save_state()
        super().hideEvent(event)

    def _state_widgets(self) -> tuple[tuple[str, StateWidget], ...]:
        return (
            ("splitter", self.splitter),
            ("summary_splitter2", self.summary_splitter),
            ("header", self.table.horizontalHeader()),
        )


def _show_window(window: QWidget) -> None:
    """Show a tool window; bring it to the front when it was already open behind others."""
    if window.isVisible():
        window.raise_()
        window.activateWindow()
    else:
        window.show()
