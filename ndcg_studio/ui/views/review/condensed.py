"""Review's "nDCG vs nDCG′" page: nDCG@K and the condensed nDCG′@K of every (query, run) side by
side, rows where they differ by more than a threshold flagged (holes in the judgments move the
score), with a count of those rows per run.

It loads lazily, in a worker, when it is shown (:class:`~ndcg_studio.ui.views.base.LazyView`):
the measures for incomplete judgments read every result, not only the top K, so Review's own
scoring does not wait for them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QWidget,
)

from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import scoring_settings_from
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.condensed import (
    COL_GAP,
    DEFAULT_GAP_THRESHOLD,
    CondensedRows,
    CondensedTableModel,
)
from ndcg_studio.ui.views.base import LazyView
from ndcg_studio.ui.widgets import column, read_only_table
from ndcg_studio.ui.workers import TaskFn


def load_condensed(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> CondensedRows:
    """Score with the measures for incomplete judgments (worker thread)."""
    report = ScoringService(db).score(
        settings, measures=True, progress=progress, cancelled=cancelled
    )
    return CondensedRows.from_report(report)


class CondensedPanel(LazyView[CondensedRows]):
    """nDCG beside nDCG′. Construct as ``CondensedPanel(context, parent)``.

    Signals:
        data_loaded(): the table shows fresh rows.
    """

    data_loaded = Signal()
    STATE_KEY = "review_condensed"
    LOADING_STATUS = QT_TRANSLATE_NOOP("CondensedPanel", "Scoring nDCG′…")
    FAILED_ACTION = QT_TRANSLATE_NOOP("CondensedPanel", "Scoring nDCG′")

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0.0, 1.0)
        self.threshold.setDecimals(2)
        self.threshold.setSingleStep(0.05)
        self.threshold.setValue(DEFAULT_GAP_THRESHOLD)
        self.threshold.setKeyboardTracking(False)
        self.threshold.setToolTip(self.tr("Flag rows where |nDCG′ − nDCG| exceeds this"))
        self.only_flagged = QCheckBox(self.tr("Only flagged rows"))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Flag when nDCG′ and nDCG differ by more than")))
        controls.addWidget(self.threshold)
        controls.addWidget(self.only_flagged)
        controls.addStretch(1)
        controls.addWidget(self.status)

        self.model = CondensedTableModel(self)
        self.table = read_only_table(self.model, sort=(COL_GAP, Qt.SortOrder.DescendingOrder))
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)

        self._set_content(column(controls, self.summary, self.table, stretch=self.table))

        self.threshold.valueChanged.connect(self._apply_threshold)
        self.only_flagged.toggled.connect(self._apply_threshold)
        self._follow_scoring_inputs()
        self._show_empty()

    # ------------------------------------------------------------------ loading
    def _load_job(self, db: Database) -> TaskFn[CondensedRows]:
        settings = scoring_settings_from(self.context)
        return lambda progress, cancelled: load_condensed(db, settings, progress, cancelled)

    def _on_loaded(self, rows: CondensedRows) -> None:
        if len(rows) == 0:
            self.model.set_rows(rows)
            self._show_empty(self.tr("No judged (query, run) yet: nothing to compare."))
            self.data_loaded.emit()
            return
        self.pages.setCurrentIndex(1)
        self.model.set_rows(rows)
        self._apply_threshold()
        self.data_loaded.emit()

    def _apply_threshold(self, *_: object) -> None:
        threshold = self.threshold.value()
        self.model.set_threshold(threshold, self.only_flagged.isChecked())
        self.summary.setText(self.summary_text(self.model.rows, threshold))

    @staticmethod
    def summary_text(rows: CondensedRows, threshold: float) -> str:
        """How many rows are flagged, overall and per run."""
        flagged = rows.flagged(threshold)
        n = int(flagged.sum())
        if len(rows) == 0:
            return ""
        per_run = ", ".join(
            f"{run} {int(flagged[rows.run == run].sum()):,}" for run in sorted(set(rows.run))
        )
        text = QCoreApplication.translate(
            "CondensedPanel",
            "<b>%1</b> of %2 judged (query, run) rows differ by more than %3: there, holes in "
            "the judgments move the score (%4). nDCG′@%5 removes the unjudged documents before "
            "scoring (Sakai 2007).",
        )
        return arg(text, f"{n:,}", f"{len(rows):,}", f"{threshold:g}", per_run, rows.k)
