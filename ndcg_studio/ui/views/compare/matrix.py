"""Compare for N runs: the matrix of pairwise Δ mean nDCG@K with corrected significance marks,
runs ordered by mean, a selectable baseline, the two-way ANOVA line and the smallest Δ these
queries can detect ("with 225 queries you can detect Δ ≥ 0.031 at 80% power").

The comparison (:func:`ndcg_studio.services.scoring.multirun.compare_report_runs`: bootstrap
intervals, randomization tests, the randomised Tukey HSD) runs in a worker on the scores the
Compare view already has; clicking a cell emits :attr:`CompareMatrixPanel.pair_chosen` so the
view shows that pair's per-query deltas.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.scoring.multirun import TooFewQueries, compare_report_runs
from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.compare_matrix import PAIR_ROLE, PairMatrix, PairMatrixModel
from ndcg_studio.ui.widgets import selectable_text
from ndcg_studio.ui.workers import Task, run_task

#: permutations of the randomised Tukey HSD in the GUI (the CLI's default too)
N_PERMUTATIONS = 1000


def compare_matrix(report: ScoreReport, baseline: str | None) -> PairMatrix:
    """Compare every run of ``report`` (worker thread): Tukey, or Holm against ``baseline``."""
    result = compare_report_runs(
        report,
        report.run_names,
        baselines=[baseline] if baseline else [],
        n_permutations=N_PERMUTATIONS,
    )
    return PairMatrix.from_report(result, report.settings.k)


class CompareMatrixPanel(QWidget):
    """The N-run matrix. Feed it scores with :meth:`set_report`.

    Signals:
        pair_chosen(str, str): a cell (row run, column run) was clicked.
        computed(): a matrix is shown.
        settled(): its computation ended (a matrix shown, or it failed).
    """

    pair_chosen = Signal(str, str)
    computed = Signal()
    settled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: ScoreReport | None = None
        self.task: Task[PairMatrix] | None = None

        self.baseline = QComboBox()
        self.baseline.setToolTip(
            self.tr(
                "No baseline: every pair, corrected by the randomised Tukey HSD. A baseline: "
                "only the pairs with it, corrected by Holm–Bonferroni."
            )
        )
        self.baseline.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.status = QLabel()
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("All runs, best mean first · baseline:")))
        top.addWidget(self.baseline)
        top.addStretch(1)
        top.addWidget(self.status)

        self.model = PairMatrixModel(self)
        self.table = QTableView()
        self.table.setObjectName("compare_matrix_table")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setToolTip(
            self.tr("Δ = row run − column run; click a cell for its per-query deltas")
        )
        self.table.clicked.connect(self._on_clicked)
        self.table.activated.connect(self._on_clicked)

        self.legend = selectable_text()
        self.power = selectable_text()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.legend)
        layout.addWidget(self.power)
        self.baseline.currentIndexChanged.connect(self._recompute)

    def set_report(self, report: ScoreReport) -> Task[PairMatrix] | None:
        """New scores: refill the baseline picker (keeping the choice) and recompute."""
        self.report = report
        previous = self.baseline.currentData()
        self.baseline.blockSignals(True)
        self.baseline.clear()
        self.baseline.addItem(self.tr("none (Tukey HSD, all pairs)"), None)
        for run in report.run_names:
            self.baseline.addItem(run, run)
        self.baseline.setCurrentIndex(max(0, self.baseline.findData(previous)))
        self.baseline.blockSignals(False)
        return self._recompute()

    def set_baseline(self, run: str | None) -> Task[PairMatrix] | None:
        """Choose the baseline (None: no baseline) and recompute."""
        self.baseline.blockSignals(True)
        self.baseline.setCurrentIndex(max(0, self.baseline.findData(run)))
        self.baseline.blockSignals(False)
        return self._recompute()

    def _recompute(self, *_: object) -> Task[PairMatrix] | None:
        report = self.report
        if report is None or len(report.run_names) < 2:
            self.model.set_matrix(PairMatrix.empty())
            return None
        baseline = self.baseline.currentData()
        self.status.setText(self.tr("Testing all pairs…"))
        self.task = run_task(
            lambda _p, _c: compare_matrix(report, baseline),
            on_success=self._on_computed,
            on_failure=self._on_failed,
            owner=self,
            replaces=self.task,
        )
        return self.task

    def _on_computed(self, matrix: PairMatrix) -> None:
        self.status.clear()
        self.model.set_matrix(matrix)
        rows = self.table.verticalHeader().length() + self.table.horizontalHeader().height()
        self.table.setMaximumHeight(rows + 2 * self.table.frameWidth() + 2)
        dropped = arg(self.tr(" (%1 left out: not scored in every run)"), matrix.n_dropped)
        over = self.tr(
            "Δ = mean nDCG@%1 of the row run − the column run over the %2 queries every run "
            "has a value for"
        )
        corrected = self.tr("; * p < 0.05, ** p < 0.01, *** p < 0.001, corrected: %1.")
        self.legend.setText(
            arg(over, matrix.k, f"{matrix.n_queries:,}")
            + (dropped if matrix.n_dropped else "")
            + arg(corrected, matrix.correction_text())
        )
        self.power.setText(self.power_text(matrix))
        self.computed.emit()
        self.settled.emit()

    def power_text(self, matrix: PairMatrix) -> str:
        """The topic-set-size sentence (``MultiRunReport.power_sentence``, capitalised, with
        its method) in the interface language, from the comparison's numbers."""
        if not matrix.power_sentence:
            return ""
        n = matrix.n_queries
        if math.isfinite(matrix.min_detectable_delta):
            text = self.tr(
                "With %1 queries you can detect Δ ≥ %2 at 80% power (paired t-test, α = 0.05, "
                "residual variance of the two-way ANOVA; Sakai 2016)."
            )
            return arg(text, n, f"{matrix.min_detectable_delta:.3f}")
        text = self.tr(
            "With %1 queries: the residual variance is 0 (every query moves the runs alike), so "
            "no smallest detectable Δ can be stated (paired t-test, α = 0.05, residual variance "
            "of the two-way ANOVA; Sakai 2016)."
        )
        return arg(text, n)

    def _on_failed(self, exc: BaseException) -> None:

        if isinstance(exc, TooFewQueries):  # a state of the data, not an error
            self.model.set_matrix(PairMatrix.empty())
            self.status.setText(arg(self.tr("No comparison: %1."), exc))
            self.power.setText("")
            self.settled.emit()
            return
        self.status.setText(self.tr("Failed"))
        self.settled.emit()
        from ndcg_studio.ui.errors import show_error

        show_error(exc, self, action=self.tr("Comparing all runs"))

    def _on_clicked(self, index: QModelIndex) -> None:
        pair = index.data(PAIR_ROLE)
        if pair is None or pair[0] == pair[1]:
            return
        if math.isnan(self.model.matrix.delta[index.row(), index.column()]):
            return
        self.pair_chosen.emit(pair[0], pair[1])
