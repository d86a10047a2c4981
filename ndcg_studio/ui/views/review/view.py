"""Review (for analysts): nDCG@K of every (query, run) with its quality band, the per-run means
with 95% intervals, band counts and the distribution of nDCG; filters; double-click (or Enter)
opens the Query detail of a row.

Everything is computed in workers, in two stages: first the scores, the per-run means and the
query texts (:func:`load_review`), then, one after the other and from the data the first stage
read, the means' intervals (:func:`summarize`) and the per-query alpha, disputed and spread
columns (:func:`load_review_agreement`); last, when the database has a machine source and human
grades, one line under the per-run table gives each run's prediction-powered interval from it
(:func:`screen_estimate`, the source Compare chose; on the latest ``ppi`` campaign's draw when
there is one). A new load cancels the previous one. The
view reloads when the database, the judgments or a scoring setting change (coalesced by a short
timer, and only while visible; a hidden view reloads when shown).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.services.annotation.types import DatabaseCounts
from ndcg_studio.services.freed_memory import return_freed_memory
from ndcg_studio.services.scoring.report import RunSummary, ScoreReport
from ndcg_studio.services.scoring.service import summarize
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.estimate import ScreenEstimate, screen_estimate
from ndcg_studio.services.screens.review import (
    ReviewData,
    ReviewRows,
    load_review,
    load_review_agreement,
)
from ndcg_studio.storage.database import Database
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.bands import BandChipDelegate, BandLegend
from ndcg_studio.ui.charts import BandCountsChart, ChartsPane, HistogramChart
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import (
    SCORING_KEYS,
    ScoringSettingsDialog,
    describe_settings,
    headline,
    scoring_settings_from,
)
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models import scores as M
from ndcg_studio.ui.models.run_summary import RunSummaryModel
from ndcg_studio.ui.models.scores import ReviewFilter, ScoresTableModel, with_text_keys
from ndcg_studio.ui.views.base import LazyView, StateWidget
from ndcg_studio.ui.views.estimate_text import EstimateText
from ndcg_studio.ui.views.query_detail import QueryDetailDialog
from ndcg_studio.ui.views.review.condensed import CondensedPanel
from ndcg_studio.ui.views.review.filters import ReviewFilterBar
from ndcg_studio.ui.views.review.text import coverage_note, nothing_to_score_text
from ndcg_studio.ui.widgets import column, read_only_table, selectable_text
from ndcg_studio.ui.workers import Task, TaskFn, run_task


class ReviewView(LazyView[ReviewData]):
    """The Review tab. Construct as ``ReviewView(context, parent)``.

    Signals:
        rows_shown(): the scores and the per-run means are shown (table, summary, charts); the
            means' intervals and the per-query alpha, disputed and spread columns follow from
            two second-stage workers (the status says so meanwhile).
        data_loaded(): a load finished and the table, summary and charts show it, all columns
            and intervals, and the estimate line (when there is a machine source).
    """

    rows_shown = Signal()
    data_loaded = Signal()
    STATE_KEY = "review"
    LOADING_STATUS = QT_TRANSLATE_NOOP("ReviewView", "Scoring…")
    FAILED_STATUS = QT_TRANSLATE_NOOP("ReviewView", "Scoring failed")
    FAILED_ACTION = QT_TRANSLATE_NOOP("ReviewView", "Scoring the runs")
    SECOND_STAGE_STATUS = QT_TRANSLATE_NOOP("ReviewView", "Intervals and agreement…")
    NO_DATABASE_TEXT = QT_TRANSLATE_NOOP(
        "ReviewView", "No database is open.\nUse File ▸ Open database… or start with the demo."
    )

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.data: ReviewData | None = None
        self._agreement_task: Task[Any] | None = None
        self._intervals_task: Task[Any] | None = None
        self._estimate_task: Task[ScreenEstimate] | None = None
        self.detail_dialog: QueryDetailDialog | None = None
        self.settings_dialog: ScoringSettingsDialog | None = None
        header = self._build_header()
        self._build_summary()
        self.filters = ReviewFilterBar()
        f = self.filters  # the widgets tests and scripts reach through the view
        self.search, self.run_filter, self.band_filter = f.search, f.run_filter, f.band_filter
        self.source_filter, self.disputed_only = f.source_filter, f.disputed_only
        self.low_coverage, self.coverage, self.shown = f.low_coverage, f.coverage, f.shown
        self._build_table()
        self._build_lower(context)
        self._set_content(column(header, self.splitter, stretch=self.splitter))

        self.filters.changed.connect(self._apply_filter)
        self.filters.source_changed.connect(self._schedule)
        self.model.modelReset.connect(self._update_shown)
        self.model.layoutChanged.connect(self._update_shown)
        self._follow_scoring_inputs()
        self.restore_state()
        self._update_header()
        self._show_empty()  # "Loading…" until the first load says what there is

    def _build_header(self) -> QHBoxLayout:
        """How the scores are computed, the settings button, the status."""
        self.settings_line = QLabel()
        self.settings_line.setWordWrap(True)
        self.settings_button = QPushButton(self.tr("Scoring settings…"))
        self.settings_button.clicked.connect(self.open_settings)
        header = QHBoxLayout()
        header.addWidget(self.settings_line, 1)
        header.addWidget(self.status)
        header.addWidget(self.settings_button)

        return header

    def _build_summary(self) -> None:
        """The per-run table (with its note and the band legend) beside the charts."""
        self.summary_model = RunSummaryModel(self)
        self.summary_table = read_only_table(self.summary_model, "summary_table")
        self.summary_table.verticalHeader().setVisible(False)
        self.summary_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.summary_table.setWordWrap(False)
        self.summary_note = QLabel()
        self.summary_note.setWordWrap(True)
        # each run's prediction-powered interval from a machine source (hidden without one)
        self.estimate_line = selectable_text(Qt.TextFormat.PlainText, "review_estimate")
        self.estimate_line.setToolTip(EstimateText().tooltip())
        self.estimate_line.hide()
        self.band_legend = BandLegend()
        summary_box = QWidget()
        summary_layout = QVBoxLayout(summary_box)
        summary_layout.setContentsMargins(0, 0, 0, 0)
        summary_layout.addWidget(self.summary_table)
        summary_layout.addWidget(self.summary_note)
        summary_layout.addWidget(self.estimate_line)
        summary_layout.addWidget(self.band_legend)
        summary_layout.addStretch(1)
        self.band_chart = BandCountsChart()
        self.histogram = HistogramChart()
        self.charts = ChartsPane(
            [(self.tr("Bands"), self.band_chart), (self.tr("Distribution"), self.histogram)]
        )
        self.summary_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.summary_splitter.addWidget(summary_box)
        self.summary_splitter.addWidget(self.charts)
        # the run table keeps its width; the charts take (or give up) the rest
        self.summary_splitter.setStretchFactor(0, 0)
        self.summary_splitter.setStretchFactor(1, 1)
        self.summary_splitter.setChildrenCollapsible(False)
        self.summary_splitter.setSizes([560, 720])

    def _build_table(self) -> None:
        """The (query, run) table, sorted by nDCG@K, the band as a chip."""
        self.model = ScoresTableModel(self)
        self.table = read_only_table(
            self.model, "review_table", sort=(M.COL_NDCG, Qt.SortOrder.AscendingOrder)
        )
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setItemDelegateForColumn(M.COL_BAND, BandChipDelegate(self.table))
        header_view = self.table.horizontalHeader()
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
        # the widths above fit the English headers; a longer translation ("Оценено@10")
        # widens its column rather than being cut
        self.model.modelReset.connect(self._fit_header_texts)
        self.model.headerDataChanged.connect(self._fit_header_texts)
        self._fit_header_texts()
        self.table.activated.connect(self._on_activated)
        self.table.setToolTip(self.tr("Double-click or press Enter for the per-rank breakdown"))

    def _fit_header_texts(self, *_: object) -> None:
        """Widen every column of the table whose header text (with the sort arrow) is wider
        than the column, as Qt measures it (``sectionSizeHint``); never narrows one (the
        user's widths stay)."""
        header = self.table.horizontalHeader()
        for col in range(self.model.columnCount()):
            needed = header.sectionSizeHint(col)
            if header.sectionSize(col) < needed:
                header.resizeSection(col, needed)

    def _build_lower(self, context: AppContext) -> None:
        """Below the summary: the filtered table, and nDCG beside nDCG′ on a second tab."""
        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addWidget(self.filters)
        table_layout.addWidget(self.table, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.summary_splitter)
        # nDCG beside nDCG′ (holes in the judgments) on a second page, loaded when shown
        self.condensed = CondensedPanel(context)
        self.lower_tabs = QTabWidget()
        self.lower_tabs.setDocumentMode(True)
        self.lower_tabs.addTab(table_box, self.tr("Scores"))
        self.lower_tabs.addTab(self.condensed, self.tr("nDCG vs nDCG′ (unjudged documents)"))
        self.splitter.addWidget(self.lower_tabs)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([280, 480])

    # ------------------------------------------------------------------ loading
    def _load_job(self, db: Database) -> TaskFn[ReviewData]:
        """Rescore with the current scoring settings (shown in the header)."""
        settings = scoring_settings_from(self.context)
        self._update_header(settings)
        source = self.filters.source()

        def job(progress: Progress, cancelled: Cancelled) -> ReviewData:
            # the text keys (the collation) follow with the intervals, off the GUI thread
            return load_review(db, settings, progress, cancelled, source, agreement=False)

        return job

    def _tasks(self) -> tuple[Task[Any] | None, ...]:
        return (self._task, self._agreement_task, self._intervals_task, self._estimate_task)

    def _load_second_stage(self, data: ReviewData) -> None:
        """The means' intervals (with the text sort keys), then the per-query alpha, disputed
        and spread columns, each in a worker, one after the other (their temporaries would
        stack: ``bench_gui_scale.py`` Review, peak RSS), from what the first stage holds
        (``data.scoring``)."""
        if self.context.database is None:
            return
        report = data.report  # the runs' intervals one after the other: less at the peak
        self.status.setText(self._text(self.SECOND_STAGE_STATUS))
        return_freed_memory()  # the first stage's temporaries, before the second's
        rows = data.rows
        if data.intervals:
            self._load_agreement(data)
            return
        self._intervals_task = run_task(
            lambda _progress, _cancelled: (summarize(report, threads=1), with_text_keys(rows)),
            on_success=lambda done: self._on_intervals(report, *done),
            on_failure=self._on_failed,
            owner=self,
            replaces=self._intervals_task,
        )

    def _load_agreement(self, data: ReviewData) -> None:
        """The per-query alpha, disputed and spread columns in a worker (the second stage's
        second part)."""
        db = self.context.database
        if db is None or data.complete:
            return
        settings, report, scoring = data.report.settings, data.report, data.scoring

        def work(_progress: Progress, cancelled: Cancelled) -> ReviewRows:
            agreement, spread = load_review_agreement(db, settings, report, cancelled, scoring)
            return data.rows.with_agreement(report, agreement, spread)

        self._agreement_task = run_task(
            work,
            on_success=lambda rows: self._on_agreement(report, rows),
            on_failure=self._on_failed,
            owner=self,
            replaces=self._agreement_task,
        )

    def _on_intervals(
        self, report: ScoreReport, summaries: list[RunSummary], keyed: ReviewRows
    ) -> None:
        if self.data is None or self.data.report is not report:  # a newer load meanwhile
            return
        self.model.set_text_keys(keyed)
        self.data = replace(self.data, summaries=summaries, intervals=True)
        self.summary_model.set_summaries(summaries, report.settings.k)
        self.summary_table.resizeColumnsToContents()
        self._fit_summary_table()
        return_freed_memory()  # the intervals' temporaries, before the agreement's
        self._load_agreement(self.data)
        self._second_stage_done()

    def _on_agreement(self, report: ScoreReport, rows: ReviewRows) -> None:
        if self.data is None or self.data.report is not report:  # a newer load meanwhile
            return
        self.data = replace(self.data, rows=rows, complete=True)
        self.model.set_agreement_columns(rows)
        self._second_stage_done()

    def _second_stage_done(self) -> None:
        """Once both second-stage parts are in: the first stage's data is let go."""
        data = self.data
        if data is None or not (data.complete and data.intervals):
            return
        self.data = replace(data, scoring=None)
        return_freed_memory()
        self.status.clear()
        self._estimate(loaded=True)

    def _estimate(self, loaded: bool = False) -> None:
        """Each run's estimate from the machine source Compare chose (the first one by
        default), in a worker (the load's last stage: with ``loaded``, :attr:`data_loaded`
        follows it); the line stays hidden without a machine source."""
        db, data = self.context.database, self.data
        if db is None or data is None or len(data.report) == 0:
            if loaded:
                self.data_loaded.emit()
            return
        k, source = data.report.settings.k, self.context.setting(S.ESTIMATE_SOURCE)
        self._estimate_task = run_task(
            lambda _p, _c: screen_estimate(db, source, k),
            on_success=lambda shown: self._on_estimated(shown, loaded),
            on_failure=lambda exc: self._on_estimate_failed(exc, loaded),
            owner=self,
            replaces=self._estimate_task,
        )

    def _on_estimated(self, shown: ScreenEstimate, loaded: bool) -> None:
        self.estimate_line.setVisible(shown.shown)
        words, text = EstimateText(), ""
        if shown.shown:
            why = words.draw_waiting(shown.campaign, shown.draw) if shown.draw else ""
            text = words.summary(shown.report, shown.source, why)
            if shown.campaign and shown.report is not None:
                text += f"\n{words.campaign(shown.campaign)}"
        self.estimate_line.setText(text)
        if loaded:
            self.data_loaded.emit()

    def _on_estimate_failed(self, exc: BaseException, loaded: bool) -> None:
        if not isinstance(exc, (ValueError, LookupError)):
            self._on_failed(exc)
            return
        # e.g. the machine source graded nothing the runs returned: said, not a dialog
        self.estimate_line.setText(arg(self.tr("No estimate: %1"), exc))
        self.estimate_line.show()
        if loaded:
            self.data_loaded.emit()

    def _on_settings_changed(self, key: str) -> None:
        if key in SCORING_KEYS:
            self._update_header()
            self._schedule()
        elif key == S.ESTIMATE_SOURCE.key:
            self._estimate()

    def _on_loaded(self, data: ReviewData) -> None:
        self.data = data
        report = data.report
        self.filters.set_sources(data.sources, data.source)
        if data.source is not None:
            self.settings_line.setText(
                arg(
                    self.tr("%1 · grades of source %2 only"), headline(report.settings), data.source
                )
            )
        if len(report) == 0:
            self.model.set_rows(ReviewRows.empty())
            self._show_empty_message(data.counts)
            self.rows_shown.emit()
            self.data_loaded.emit()
            return
        self.pages.setCurrentIndex(1)
        k = report.settings.k
        self.summary_model.set_summaries(data.summaries, k, pending=not data.intervals)
        self.summary_table.resizeColumnsToContents()
        self.summary_note.setText(coverage_note(data.summaries))
        self.band_legend.set_thresholds(report.settings.bands)
        self._fit_summary_table()
        QTimer.singleShot(0, self._fit_summary_table)  # again once laid out (CJK rows are taller)
        self.band_chart.set_counts(report.run_names, {s.run: s.band_counts for s in data.summaries})
        self.histogram.set_values(
            {run: report.table.ndcg[report.for_run(run)] for run in report.run_names}, k
        )
        self.filters.set_runs(report.run_names)
        self.model.set_rows(data.rows)
        self._apply_filter()
        self.rows_shown.emit()
        if data.complete and data.intervals:
            self._estimate(loaded=True)
        else:
            self._load_second_stage(data)

    def _fit_summary_table(self) -> None:
        """As tall as its rows (up to 6), so the note and the legend sit right below."""
        t = self.summary_table
        rows = min(self.summary_model.rowCount(), 6)
        header = t.horizontalHeader()
        # sizeHint: the header's height follows its (e.g. CJK, taller) text only after a layout
        height = max(header.height(), header.sizeHint().height()) + 2 * t.frameWidth() + 2
        height += sum(t.rowHeight(r) for r in range(rows))
        wide = header.length() > t.width() - 2 * t.frameWidth()  # a horizontal scroll bar
        if self.summary_model.rowCount() > rows or wide:
            height += t.horizontalScrollBar().sizeHint().height()
        t.setFixedHeight(height)  # not squeezed under the legend (taller CJK lines)

    # ------------------------------------------------------------------ filters
    def current_filter(self) -> ReviewFilter:
        return self.filters.current_filter()

    def _apply_filter(self, *_: object) -> None:
        self.model.set_coverage_threshold(self.filters.coverage_threshold())
        self.model.set_filter(self.current_filter())

    def _update_shown(self) -> None:
        self.filters.set_shown(self.model.rowCount(), self.model.source_count())

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
        dialog.setWindowTitle(arg(self.tr("Query %1 · %2 — Query detail"), query, run))
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
            self._show_empty(self._text(self.NO_DATABASE_TEXT))
        else:
            self._show_empty(self.nothing_to_score_text(counts))

    #: why nothing is scored (see :func:`~ndcg_studio.ui.views.review.text.nothing_to_score_text`)
    nothing_to_score_text = staticmethod(nothing_to_score_text)

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
