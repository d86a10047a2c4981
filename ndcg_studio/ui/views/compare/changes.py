"""Compare's "What changed (A → B)" tab: for the picked pair, per query and overall, overlap@K,
Jaccard, RBO (extrapolated, persistence p), the documents that entered and left the top K, those
that entered unjudged, and ΔnDCG@K = B − A (:meth:`ChangesService.changes
<ndcg_studio.services.changes.service.ChangesService.changes>`, in a worker, when the pair, the
scores or p change); "Judge what entered…" makes the documents that entered unjudged a campaign
(:meth:`~ndcg_studio.services.changes.service.ChangesService.campaign_of_unjudged`, in a worker).
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.campaigns.types import CampaignInfo
from ndcg_studio.services.changes.service import Changes, ChangesService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.ui.language import arg, number
from ndcg_studio.ui.models.changes import COL_DELTA, ChangesTableModel
from ndcg_studio.ui.models.table import fixed, signed
from ndcg_studio.ui.widgets import fit_columns, read_only_table, selectable_text
from ndcg_studio.ui.workers import Task, run_task


class JudgeEnteredDialog(QDialog):
    """The name and annotators of the campaign of the documents that entered unjudged."""

    def __init__(self, name: str, n_items: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judge_entered_dialog")
        self.setWindowTitle(self.tr("Judge what entered"))
        form = QFormLayout(self)
        intro = QLabel(
            arg(self.tr("A campaign of the %1 documents that entered B's top K unjudged."), n_items)
        )
        intro.setWordWrap(True)
        form.addRow(intro)
        self.name = QLineEdit(name, self)
        form.addRow(self.tr("Name"), self.name)
        self.annotators = QLineEdit(self)
        self.annotators.setPlaceholderText(self.tr("names separated by spaces or commas"))
        form.addRow(self.tr("Annotators"), self.annotators)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def people(self) -> list[str]:
        return [p for p in self.annotators.text().replace(",", " ").split() if p]


class ChangesPanel(QWidget):
    """The tab. :meth:`load` computes a pair's changes; :meth:`create_campaign` judges them.

    Signals:
        loaded(): a pair's changes are shown (or failed).
        campaign_created(object): the :class:`CampaignInfo` of a campaign just created.
    """

    loaded = Signal()
    campaign_created = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task: Task[Changes] | None = None
        self.campaign_task: Task[CampaignInfo] | None = None
        self._db: Database | None = None
        self._pair: tuple[ScoringSettings, str, str] | None = None
        self.overall = selectable_text(Qt.TextFormat.PlainText, "changes_overall")
        self.p_box = QDoubleSpinBox()
        self.p_box.setRange(0.5, 0.99)
        self.p_box.setSingleStep(0.05)
        self.p_box.setDecimals(2)
        self.p_box.setValue(0.9)
        self.p_box.setToolTip(
            self.tr(
                "RBO's persistence: the weight of rank d+1 relative to rank d "
                "(0.9: the top 10 weigh most)"
            )
        )
        self.p_box.valueChanged.connect(self._reload)
        self.judge_button = QPushButton(self.tr("Judge what entered…"))
        self.judge_button.setToolTip(
            self.tr("Make the documents that entered B's top K unjudged a judging campaign")
        )
        self.judge_button.setEnabled(False)
        self.judge_button.clicked.connect(self.judge_what_entered)
        self.message = QLabel()
        self.message.setObjectName("changes_message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()  # shown with a text: empty, it took a line from the table
        self.model = ChangesTableModel(self)
        self.table = self._build_table()
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("RBO p:")))
        top.addWidget(self.p_box)
        top.addStretch(1)
        top.addWidget(self.judge_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.overall)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)

    def _build_table(self) -> QTableView:
        table = read_only_table(
            self.model, "changes_table", sort=(COL_DELTA, Qt.SortOrder.AscendingOrder)
        )
        table.setAlternatingRowColors(True)
        table.verticalHeader().setVisible(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        return table

    # ------------------------------------------------------------------ loading
    def running(self) -> bool:
        return any(t is not None and not t.done for t in (self.task, self.campaign_task))

    def load(
        self, db: Database, settings: ScoringSettings, run_a: str, run_b: str
    ) -> Task[Changes]:
        """Compute what changed from ``run_a`` to ``run_b`` at ``settings.k`` (in a worker)."""
        self._db, self._pair = db, (settings, run_a, run_b)
        p = self.p_box.value()
        self.overall.setText(self.tr("Computing what changed…"))
        self.judge_button.setEnabled(False)
        self.task = run_task(
            lambda _p, _c: ChangesService(db).changes(run_a, run_b, settings, p),
            on_success=self._on_loaded,
            on_failure=self._on_failed,
            owner=self,
            replaces=self.task,
        )
        return self.task

    def clear(self) -> None:
        """No pair (or one run twice): nothing to show."""
        if self.task is not None:
            self.task.cancel()
        self._pair = None
        self.model.set_changes(None)
        self.overall.clear()
        self.judge_button.setEnabled(False)

    def _reload(self, *_: object) -> None:
        if self._db is not None and self._pair is not None:
            self.load(self._db, *self._pair)

    def _on_loaded(self, changes: Changes) -> None:
        pair = self._pair
        if pair is None or (changes.run_a, changes.run_b) != pair[1:]:
            return
        self.model.set_changes(changes)
        fit_columns(self.table)
        self.overall.setText(self.overall_text(changes))
        self.judge_button.setEnabled(bool(changes.unjudged_items))
        self.loaded.emit()

    def _on_failed(self, exc: BaseException) -> None:
        self.model.set_changes(None)
        self.judge_button.setEnabled(False)
        if isinstance(exc, (ValueError, LookupError)):
            self.overall.setText(arg(self.tr("Nothing to compare: %1"), exc))
            self.loaded.emit()
            return
        self.overall.clear()
        self.loaded.emit()
        from ndcg_studio.ui.errors import show_error

        show_error(exc, self, action=self.tr("Finding what changed"))

    def overall_text(self, changes: Changes) -> str:
        """The overall line: the means over the queries and the summed documents."""
        (_all, overlap, jaccard, rbo, entered, left, unjudged, _a, _b, delta) = changes.overall()
        assert isinstance(overlap, float) and isinstance(jaccard, float)
        assert isinstance(rbo, float) and isinstance(delta, float)
        assert isinstance(entered, int) and isinstance(left, int) and isinstance(unjudged, int)
        means = arg(
            self.tr(
                "Mean over %1 queries: overlap@%2 %3 · Jaccard %4 · RBO (p = %5) %6 · "
                "ΔnDCG@%2 (B − A) %7"
            ),
            number(len(changes.queries)),
            changes.k,
            fixed(overlap),
            fixed(jaccard),
            f"{changes.p:g}",
            fixed(rbo),
            "—" if math.isnan(delta) else signed(delta, 4),
        )
        moved = arg(
            self.tr("Entered the top %1: %2 documents, %3 of them unjudged; left it: %4."),
            changes.k,
            number(entered),
            number(unjudged),
            number(left),
        )
        return f"{means}\n{moved}"

    # ------------------------------------------------------------------ the campaign
    def judge_what_entered(self) -> None:
        """Ask for the campaign's name and annotators, then create it (in a worker)."""
        changes = self.model.changes
        if changes is None or not changes.unjudged_items:
            return
        name = f"{changes.run_b} new in top {changes.k}"
        dialog = JudgeEnteredDialog(name, len(changes.unjudged_items), self)
        if dialog.exec():
            self.create_campaign(dialog.name.text(), dialog.people())

    def create_campaign(self, name: str, annotators: list[str]) -> Task[CampaignInfo] | None:
        """Create the campaign ``name`` of the shown changes' unjudged entered documents."""
        changes, db = self.model.changes, self._db
        if changes is None or db is None:
            return None
        self.message.setText(self.tr("Creating the campaign…"))
        self.message.show()
        self.campaign_task = run_task(
            lambda _p, _c: ChangesService(db).campaign_of_unjudged(changes, name, annotators),
            on_success=self._on_campaign,
            on_failure=self._on_campaign_failed,
            owner=self,
            replaces=self.campaign_task,
        )
        return self.campaign_task

    def _on_campaign(self, info: CampaignInfo) -> None:
        self.message.setText(
            arg(
                self.tr(
                    "Campaign %1 is created: %2 documents that entered %3's top %4 unjudged, "
                    "for %5. Its annotators find it in Annotate's Campaign tab."
                ),
                info.name,
                number(info.items),
                info.runs[0] if info.runs else "",
                info.pool_depth,
                ", ".join(info.annotators) or "—",
            )
        )
        self.campaign_created.emit(info)

    def _on_campaign_failed(self, exc: BaseException) -> None:
        if isinstance(exc, (ValueError, LookupError)):
            self.message.setText(arg(self.tr("No campaign: %1"), exc))
            self.message.show()
            return
        self.message.clear()
        self.message.hide()
        from ndcg_studio.ui.errors import show_error

        show_error(exc, self, action=self.tr("Creating the campaign"))
