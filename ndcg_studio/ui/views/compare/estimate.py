"""Compare's "Estimate with a machine judge": for the picked pair, the prediction-powered
estimate of A − B from a machine source's grades on every query and the humans' on the queries
they judged whole (:func:`ndcg_studio.services.screens.estimate.screen_estimate`, in a worker),
with each run's interval and the source's κ with the humans beside the numbers; on the draw of
the latest ``ppi`` campaign made for the pair when there is one (named after the sentence; while
its draw is unfinished, how far it is).

Hidden while the database has no machine source (kind ``model``) or no human grades; the chosen
source is stored per database (:data:`ndcg_studio.ui.settings.ESTIMATE_SOURCE`), which Review's
line follows.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ndcg_studio.services.screens.estimate import ScreenEstimate, screen_estimate
from ndcg_studio.storage.database import Database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.views.estimate_text import EstimateText
from ndcg_studio.ui.widgets import selectable_text
from ndcg_studio.ui.workers import Task, run_task


class EstimatePanel(QWidget):
    """The estimate block. :meth:`estimate` starts it for a pair.

    Signals:
        settled(): an estimate is shown (or the panel hidden, or it failed).
    """

    settled = Signal()

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.task: Task[ScreenEstimate] | None = None
        self.shown: ScreenEstimate | None = None
        self._pair: tuple[Database, int, str, str] | None = None
        words = EstimateText()
        title = QLabel(self.tr("<b>Estimate with a machine judge</b>"))
        self.source = QComboBox()
        self.source.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.source.setToolTip(self.tr("The machine source (kind model) whose grades are used"))
        self.status = QLabel()
        top = QHBoxLayout()
        top.addWidget(title)
        top.addSpacing(8)
        top.addWidget(QLabel(self.tr("machine source:")))
        top.addWidget(self.source)
        top.addStretch(1)
        top.addWidget(self.status)
        self.sentence = selectable_text(Qt.TextFormat.PlainText, "compare_estimate")
        self.runs = selectable_text(Qt.TextFormat.PlainText)
        for label in (self.sentence, self.runs):
            label.setToolTip(words.tooltip())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.sentence)
        layout.addWidget(self.runs)
        self.source.currentIndexChanged.connect(self._on_source_chosen)
        self.hide()  # until an estimate says there is a machine source and human grades

    def running(self) -> bool:
        return self.task is not None and not self.task.done

    def estimate(self, db: Database, k: int, a: str, b: str) -> Task[ScreenEstimate]:
        """Estimate A − B at cutoff ``k`` from the chosen source (in a worker)."""
        self._pair = (db, k, a, b)
        source = self.context.setting(S.ESTIMATE_SOURCE)
        if self.isVisible():
            self.status.setText(self.tr("Estimating…"))
        self.task = run_task(
            lambda _p, _c: screen_estimate(db, source, k, (a, b)),
            on_success=lambda shown: self._on_estimated(shown, a, b),
            on_failure=self._on_failed,
            owner=self,
            replaces=self.task,
        )
        return self.task

    def pair_changed(self) -> None:
        """A new pair is being compared: the running estimate and the shown one are stale (the
        new one follows the verdict)."""
        if self.task is not None:
            self.task.cancel()
        self.sentence.clear()
        self.runs.clear()
        if self.isVisible():
            self.status.setText(self.tr("Estimating…"))

    def _on_source_chosen(self, *_: object) -> None:
        name = self.source.currentText()
        if name:
            self.context.set_setting(S.ESTIMATE_SOURCE, name)
        if self._pair is not None:
            self.estimate(*self._pair)

    def _on_estimated(self, shown: ScreenEstimate, a: str, b: str) -> None:
        self.shown = shown
        self.status.clear()
        self.setVisible(shown.shown)
        self.source.blockSignals(True)
        self.source.clear()
        self.source.addItems(list(shown.sources))
        self.source.setCurrentIndex(max(0, self.source.findText(shown.source)))
        self.source.blockSignals(False)
        words, report = EstimateText(), shown.report
        named = f"\n{words.campaign(shown.campaign)}" if shown.campaign else ""
        if not shown.shown:
            self.sentence.clear()
            self.runs.clear()
        elif report is None:
            why = words.draw_waiting(shown.campaign, shown.draw) if shown.draw else ""
            self.sentence.setText(words.pair_without_sample(a, b, shown.source, why))
            self.runs.clear()
        else:
            (pair,) = report.pairs
            self.sentence.setText(words.pair(pair, shown.source, report.kappa_linear) + named)
            enough = pair.estimate.enough
            by_run = dict(report.runs)
            runs = [(f"A {a}", by_run[a]), (f"B {b}", by_run[b])]
            self.runs.setText(words.runs(runs) if enough else "")
        self.settled.emit()

    def _on_failed(self, exc: BaseException) -> None:
        self.status.clear()
        if isinstance(exc, (ValueError, LookupError)):  # e.g. no machine grade on these runs
            self.sentence.setText(arg(self.tr("No estimate: %1"), exc))
            self.runs.clear()
            self.settled.emit()
            return
        self.settled.emit()
        from ndcg_studio.ui.errors import show_error

        show_error(exc, self, action=self.tr("Estimating with a machine judge"))
