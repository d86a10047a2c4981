"""Compare runs: two run pickers, the mean nDCG@K of each with its 95% interval, the per-query
deltas (chart sorted by delta, and a table), wins / losses / ties and the paired randomization
test p-value (:func:`ndcg_studio.services.scoring.service.compare`, Smucker et al. 2007).

Below them, the verdict on the pair over the Annotate pool (depth D, the pool depth setting):
decided once no grade of the unjudged pooled documents can flip it, else an estimate of the
judgments that would settle it, and P(A better) as an estimate
(:func:`ndcg_studio.services.verdict.pair_verdict`); "Judge what decides A vs B" orders the
Annotate pool by what decides this pair (:mod:`ndcg_studio.services.annotation.pool_order`).
When the database has a machine source and human grades, the prediction-powered estimate of the
pair follows (:class:`~ndcg_studio.ui.views.compare.estimate.EstimatePanel`).
A tab beside the per-query deltas shows what changed from A to B
(:class:`~ndcg_studio.ui.views.compare.changes.ChangesPanel`), computed once it is shown.

Scoring, the comparison and the verdict run in workers; changing a run picker only recompares
the cached scores. Changing a scoring setting, the judgments or the database rescores.

The deltas and the runs' means come first (:attr:`CompareView.rows_shown`; bench_gui_scale
Compare); only then start the p-value with the runs' intervals (:attr:`CompareView.compared`),
then the N-run matrix, after it the verdict and then the estimate, each saying "computing" until
it arrives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.annotation.pool_order import PoolOrder
from ndcg_studio.services.freed_memory import return_freed_memory
from ndcg_studio.services.scoring.report import RunSummary
from ndcg_studio.services.screens.compare import (
    CompareRows,
    LateStats,
    ScoredRuns,
    compare_rows,
    late_stats,
    load_report,
)
from ndcg_studio.services.verdict import PairVerdict, pair_verdict
from ndcg_studio.storage.database import Database
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.charts import BETTER_A, BETTER_B, DeltaChart
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import (
    SCORING_KEYS,
    describe_settings,
    headline,
    scoring_settings_from,
)
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.compare import COL_DELTA, DeltaTableModel
from ndcg_studio.ui.views.base import LazyView, StateWidget
from ndcg_studio.ui.views.compare.changes import ChangesPanel
from ndcg_studio.ui.views.compare.estimate import EstimatePanel
from ndcg_studio.ui.views.compare.matrix import CompareMatrixPanel
from ndcg_studio.ui.views.compare.text import (
    chip_label,
    significance_text,
    summary_texts,
    verdict_html,
    verdict_sentence,
)
from ndcg_studio.ui.widgets import fit_columns, read_only_table, selectable_text
from ndcg_studio.ui.workers import Task, TaskFn, run_task


class CompareView(LazyView[ScoredRuns]):
    """The Compare tab. Construct as ``CompareView(context, parent)``.

    Signals:
        rows_shown(): the per-query deltas and the runs' means of a comparison are shown.
        compared(): a comparison is shown whole (its p-value and the runs' intervals too).
    """

    rows_shown = Signal()
    compared = Signal()
    STATE_KEY = "compare"
    LOADING_STATUS = QT_TRANSLATE_NOOP("CompareView", "Scoring…")
    FAILED_ACTION = QT_TRANSLATE_NOOP("CompareView", "Comparing runs")

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.scored: ScoredRuns | None = None
        self._summaries: dict[str, RunSummary] = {}
        self._matrix_pending = False
        self._late_pending = False
        self._verdict_waits = False  # for the N-run matrix (one after the other: memory)
        self._compare_task: Task[CompareRows] | None = None
        self._late_task: Task[LateStats] | None = None
        self._verdict_task: Task[PairVerdict] | None = None
        pickers = self._build_pickers()
        summary = self._build_summary()
        decision_row = self._build_verdict()
        self._build_deltas()
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addWidget(self.settings_line)
        content_layout.addLayout(pickers)
        content_layout.addLayout(summary)
        content_layout.addWidget(self.verdict)
        content_layout.addWidget(self.significance)
        content_layout.addLayout(decision_row)
        self.estimate = EstimatePanel(context)
        content_layout.addWidget(self.estimate)
        # the per-query deltas, or what changed from A to B (computed when its tab is shown)
        self.changes = ChangesPanel()
        self._changes_stale = False
        self.tabs = QTabWidget()
        self.tabs.setObjectName("compare_tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.splitter, self.tr("Per-query Δ"))
        self.tabs.addTab(self.changes, self.tr("What changed (A → B)"))
        self.tabs.currentChanged.connect(self._load_changes)
        content_layout.addWidget(self.tabs, 1)
        # N runs: the matrix of pairwise deltas above the chosen pair (a click picks a pair)
        self.matrix = CompareMatrixPanel()
        self.matrix.pair_chosen.connect(self.set_runs)
        self.matrix.settled.connect(self._after_matrix)
        content_layout.insertWidget(0, self.matrix)
        self._set_content(content)

        self.run_a.currentIndexChanged.connect(self._on_runs_changed)
        self.run_b.currentIndexChanged.connect(self._on_runs_changed)
        self._follow_scoring_inputs()
        self._show_empty()
        self.restore_state()

    def _build_pickers(self) -> QHBoxLayout:
        """Run A, run B, Swap, the status; the settings line above them."""
        self.run_a = QComboBox()
        self.run_b = QComboBox()
        for combo in (self.run_a, self.run_b):
            combo.setMinimumContentsLength(16)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.swap = QPushButton(self.tr("⇄ Swap"))
        self.swap.setToolTip(self.tr("Exchange run A and run B"))
        self.swap.clicked.connect(self.swap_runs)
        # how every number below is computed (the Review header says the same)
        self.settings_line = QLabel()
        self.settings_line.setWordWrap(True)
        pickers = QHBoxLayout()
        pickers.addWidget(chip_label("A", BETTER_A))
        pickers.addWidget(self.run_a)
        pickers.addSpacing(8)
        pickers.addWidget(QLabel(self.tr("vs")))
        pickers.addSpacing(8)
        pickers.addWidget(chip_label("B", BETTER_B))
        pickers.addWidget(self.run_b)
        pickers.addWidget(self.swap)
        pickers.addStretch(1)
        pickers.addWidget(self.status)
        return pickers

    def _build_summary(self) -> QGridLayout:
        """Per run: its name, mean nDCG@K, 95% interval, number of queries."""
        self.summary_labels: dict[str, QLabel] = {}
        summary = QGridLayout()
        summary.setHorizontalSpacing(14)
        summary.setVerticalSpacing(2)
        for row, tag in enumerate(("A", "B")):
            summary.addWidget(chip_label(tag, BETTER_A if tag == "A" else BETTER_B), row, 0)
            for col, key in enumerate(("run", "mean", "ci", "n"), start=1):
                label = QLabel()
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                self.summary_labels[f"{tag}.{key}"] = label
                summary.addWidget(label, row, col)
        summary.setColumnStretch(5, 1)
        return summary

    def _build_verdict(self) -> QHBoxLayout:
        """Which run is better and how sure; whether the pair is decided over the pool."""
        self.verdict = QLabel()
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.significance = QLabel()
        self.significance.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # can the pair still flip, over the Annotate pool? (services.verdict)
        self.decision = selectable_text(Qt.TextFormat.PlainText, "compare_decision")
        self.decision.setToolTip(
            self.tr(
                "Decided: the interval of Δ mean nDCG@K over every grade (0–4) the unjudged "
                "documents of the Annotate pool (depth D) could still get excludes 0 — no "
                "judgment can flip it.\n"
                "Not decided: the number of judgments is an estimate (the documents that decide "
                "A vs B first, each at the mean judged grade of its rank), and so is P(A better) "
                "(unjudged grades drawn from the judged grades at similar ranks; Carterette et al. "
                "2006)."
            )
        )
        self.judge_button = QPushButton(self.tr("Judge what decides A vs B"))
        self.judge_button.setToolTip(
            self.tr(
                "Annotate shows first the documents whose grade can change which run is better "
                "(Annotator ▸ Pool order); annotators still see no run, rank or score"
            )
        )
        self.judge_button.clicked.connect(self.judge_what_decides)
        decision_row = QHBoxLayout()
        decision_row.addWidget(self.decision, 1)
        decision_row.addWidget(self.judge_button, 0, Qt.AlignmentFlag.AlignTop)
        return decision_row

    def _build_deltas(self) -> None:
        """The per-query deltas: the sorted chart beside the table."""
        self.chart = DeltaChart()
        self.model = DeltaTableModel(self)
        self.table = read_only_table(
            self.model, "compare_table", sort=(COL_DELTA, Qt.SortOrder.DescendingOrder)
        )
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        # fitted once per comparison (_on_compared): ResizeToContents would ask data() of the
        # first 1,000 rows for every column again after each sort (bench_gui_scale.py, Compare)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.chart)
        self.splitter.addWidget(self.table)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([760, 500])
        # the table keeps its width (every column readable); the chart takes or gives the rest
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)

    # ------------------------------------------------------------------ loading
    def _load_job(self, db: Database) -> TaskFn[ScoredRuns]:
        """Rescore every run (then :meth:`_on_loaded` compares the picked runs)."""
        settings = scoring_settings_from(self.context)
        self.settings_line.setText(headline(settings))
        self.settings_line.setToolTip(describe_settings(settings))
        return lambda progress, cancelled: load_report(db, settings, progress, cancelled)

    def _tasks(self) -> tuple[Task[Any] | None, ...]:
        tasks = (self._task, self._compare_task, self._late_task, self._verdict_task)
        return (*tasks, self.matrix.task, self.estimate.task, self.changes.task)

    def _on_settings_changed(self, key: str) -> None:
        if key in SCORING_KEYS:
            self._schedule()
        elif key == S.POOL_DEPTH.key:
            self._judge_verdict()

    def _on_loaded(self, scored: ScoredRuns) -> None:
        return_freed_memory()  # the scoring's transients (bench_gui_scale Compare, peak RSS)
        self.scored, self._verdict_waits = scored, False
        self._summaries = dict(scored.summaries)
        self._matrix_pending = True  # started once the first rows are shown
        runs = scored.report.run_names
        if len(runs) < 2:
            self._show_empty(
                self.tr("Comparing needs two runs: import another run (File ▸ Import…).")
                if runs
                else self.tr("No runs yet: import runs (File ▸ Import…).")
            )
            return
        self.pages.setCurrentIndex(1)
        previous = (self.run_a.currentText(), self.run_b.currentText())
        for combo in (self.run_a, self.run_b):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(runs)
            combo.blockSignals(False)
        a = previous[0] if previous[0] in runs else runs[0]
        b = (
            previous[1]
            if previous[1] in runs and previous[1] != a
            else next(r for r in runs if r != a)
        )
        self.set_runs(a, b)

    # ------------------------------------------------------------------ comparing
    def set_runs(self, run_a: str, run_b: str) -> Task[CompareRows] | None:
        """Pick the two runs and compare them (in a worker)."""
        for combo, run in ((self.run_a, run_a), (self.run_b, run_b)):
            combo.blockSignals(True)
            combo.setCurrentIndex(combo.findText(run))
            combo.blockSignals(False)
        return self._compare()

    def swap_runs(self) -> None:
        self.set_runs(self.run_b.currentText(), self.run_a.currentText())

    def _on_runs_changed(self, *_: object) -> None:
        self._compare()

    def _compare(self) -> Task[CompareRows] | None:
        scored = self.scored
        a, b = self.run_a.currentText(), self.run_b.currentText()
        if scored is None or not a or not b:
            return None
        if a == b:
            self.verdict.setText(self.tr("Pick two different runs."))
            self.decision.clear()
            self.estimate.pair_changed()
            self.estimate.status.clear()
            self.model.set_rows(CompareRows.empty())
            self.chart.set_deltas(self.model.rows.delta, a, b, scored.report.settings.k)
            self._changes_stale = False
            self.changes.clear()
            return None
        self.status.setText(self.tr("Comparing…"))
        for task in (self._late_task, self._verdict_task):
            if task is not None:
                task.cancel()
        self.estimate.pair_changed()
        self._changes_stale = True
        self._load_changes()
        self._compare_task = run_task(
            lambda _p, _c: compare_rows(scored, a, b, test=False),
            on_success=self._on_compared,
            on_failure=self._on_failed,
            owner=self,
            replaces=self._compare_task,
        )
        return self._compare_task

    def _load_changes(self, *_: object) -> None:
        """What changed from A to B, once its tab is shown after the pair or scores changed."""
        scored, db = self.scored, self.context.database
        a, b = self.run_a.currentText(), self.run_b.currentText()
        if not self._changes_stale or self.tabs.currentWidget() is not self.changes:
            return
        if scored is None or db is None or not a or not b or a == b:
            return
        self._changes_stale = False
        self.changes.load(db, scored.report.settings, a, b)

    def _judge_verdict(self) -> Task[PairVerdict] | None:
        """Start the verdict on the picked pair over the Annotate pool (in a worker)."""
        scored = self.scored
        a, b = self.run_a.currentText(), self.run_b.currentText()
        db = self.context.database
        if scored is None or db is None or not a or not b or a == b:
            return None
        settings, depth = scored.report.settings, self.context.pool_depth
        source = scored.pool_source  # the pool from the scoring read, not read again
        self.decision.setText(arg(self.tr("Verdict over the depth-%1 pool: computing…"), depth))
        self._verdict_task = run_task(
            lambda _p, cancelled: pair_verdict(
                db, settings, a, b, depth=depth, cancelled=cancelled, source=source
            ),
            on_success=self._on_verdict,
            on_failure=self._on_verdict_failed,
            owner=self,
            replaces=self._verdict_task,
        )
        return self._verdict_task

    def _on_verdict(self, verdict: PairVerdict) -> None:
        return_freed_memory()
        if (verdict.run_a, verdict.run_b) == (self.run_a.currentText(), self.run_b.currentText()):
            self.decision.setText(verdict_sentence(verdict))
            self._estimate()

    def _on_verdict_failed(self, exc: BaseException) -> None:
        if isinstance(exc, (ValueError, LookupError)):  # e.g. nothing pooled: said, not a dialog
            self.decision.setText(arg(self.tr("No verdict: %1"), exc))
            self._estimate()
        else:
            self.decision.clear()
            self._on_failed(exc)

    def _estimate(self) -> None:
        """The picked pair's prediction-powered estimate, after the verdict (in a worker)."""
        scored, db = self.scored, self.context.database
        a, b = self.run_a.currentText(), self.run_b.currentText()
        if scored is not None and db is not None and a and b and a != b:
            self.estimate.estimate(db, scored.report.settings.k, a, b)

    def judge_what_decides(self) -> bool:
        """Order the Annotate pool by what decides the picked pair at the current K (stored per
        database, Annotator ▸ Pool order). False when no two different runs are picked."""
        scored = self.scored
        a, b = self.run_a.currentText(), self.run_b.currentText()
        if scored is None or not a or not b or a == b:
            return False
        order = PoolOrder(a, b, scored.report.settings.k)
        self.context.set_setting(S.POOL_ORDER, order.to_text())
        self.status.setText(self.tr("Annotate now shows first what decides A vs B"))
        return True

    def _on_compared(self, rows: CompareRows) -> None:
        """The deltas and means are in: show them, then start what follows (in workers)."""
        scored = self.scored
        if scored is None:
            return
        k = rows.k
        self.model.set_rows(rows)
        fit_columns(self.table)
        self.chart.set_deltas(rows.delta, rows.run_a, rows.run_b, k)
        for tag, run in (("A", rows.run_a), ("B", rows.run_b)):
            self._set_summary(tag, run, self._summaries.get(run), k)
        self.verdict.setText(verdict_html(rows))
        self.significance.setText(significance_text(rows))  # "computing…" before the test
        depth = self.context.pool_depth
        self.decision.setText(arg(self.tr("Verdict over the depth-%1 pool: computing…"), depth))
        # the rest starts once these rows are painted (the next turn of the event loop)
        self._late_pending = True
        QTimer.singleShot(0, lambda: self._start_late(scored, rows))
        self.rows_shown.emit()

    def is_loading(self) -> bool:
        waits = self._verdict_waits and self._matrix_running()
        return self._late_pending or waits or super().is_loading()

    def _start_late(self, scored: ScoredRuns, rows: CompareRows) -> None:
        """The p-value and (once per scoring) the intervals; then the verdict and matrix."""
        self._late_pending = False
        if scored is not self.scored or rows is not self.model.rows:
            return  # a newer comparison replaced these rows meanwhile
        summaries = not self._summaries
        self.status.setText(self.tr("Testing significance…"))
        self._late_task = run_task(
            lambda _p, _c: late_stats(scored, rows, summaries=summaries),
            on_success=self._on_late,
            on_failure=self._on_failed,
            owner=self,
            replaces=self._late_task,
        )

    def _on_late(self, late: LateStats) -> None:
        scored, rows = self.scored, late.rows
        if scored is None:
            return
        if late.summaries is not None:
            self._summaries = late.summaries
        if (rows.run_a, rows.run_b) != (self.run_a.currentText(), self.run_b.currentText()):
            return
        self.status.clear()
        self.model.replace_comparison(rows)
        for tag, run in (("A", rows.run_a), ("B", rows.run_b)):
            self._set_summary(tag, run, self._summaries.get(run), rows.k)
        self.significance.setText(significance_text(rows))
        return_freed_memory()
        matrix = self.matrix.set_report(scored.report) if self._matrix_pending else None
        self._matrix_pending = False
        # the verdict after the matrix (their peaks would stack; bench_gui_scale Compare)
        self._verdict_waits = matrix is not None or self._matrix_running()
        if not self._verdict_waits:
            self._judge_verdict()
        self.compared.emit()

    def _matrix_running(self) -> bool:
        return self.matrix.task is not None and not self.matrix.task.done

    def _after_matrix(self) -> None:
        if self._verdict_waits:
            self._verdict_waits = False
            return_freed_memory()
            self._judge_verdict()

    def _set_summary(self, tag: str, run: str, summary: RunSummary | None, k: int) -> None:
        """Run ``tag``'s name, mean, interval and judged queries; before its summary (the
        bootstrap interval) arrives, the mean over its scored queries and "computing"."""
        labels = self.summary_labels
        labels[f"{tag}.run"].setText(f"<b>{run}</b>")
        scored = self.scored
        values = np.zeros(0)
        if summary is None and scored is not None and run in scored.report.run_names:
            values = scored.report.table.ndcg[scored.report.for_run(run)]
        texts = summary_texts(k, summary, values[~np.isnan(values)])
        for key, text in zip(("mean", "ci", "n"), texts, strict=True):
            labels[f"{tag}.{key}"].setText(text)

    def _state_widgets(self) -> tuple[tuple[str, StateWidget], ...]:
        return (("splitter", self.splitter),)
