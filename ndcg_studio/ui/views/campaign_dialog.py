"""The New campaign dialog (issue #16.1): name, runs and depth, overlap, annotators, a query
sample, gold rate and warning threshold, guidelines in Markdown with a live preview.
Creating goes through :meth:`CampaignService.create` (its errors are shown, nothing written)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QSpinBox,
    QTextBrowser,
    QWidget,
)

from ndcg_studio.services.campaigns import CampaignInfo, CampaignService, CampaignSpec


class CampaignDialog(QDialog):
    """Create a campaign on the context's database."""

    def __init__(self, context: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaign_dialog")
        self.setWindowTitle("New campaign")
        self.resize(760, 560)
        self.context = context
        self.created: CampaignInfo | None = None
        form = QFormLayout(self)
        self.name = QLineEdit(self)
        form.addRow("Name", self.name)
        self.runs = QListWidget(self)
        self.runs.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        self.runs.setMaximumHeight(110)
        db = context.database
        if db is not None:
            self.runs.addItems(CampaignService(db).run_names())
        form.addRow("Runs to pool", self.runs)
        self.depth_box = QSpinBox(self)
        self.depth_box.setRange(1, 1000)
        self.depth_box.setValue(10)
        self.overlap = QSpinBox(self)
        self.overlap.setRange(1, 20)
        self.overlap.setValue(2)
        row = QHBoxLayout()
        row.addWidget(QLabel("depth"))
        row.addWidget(self.depth_box)
        row.addWidget(QLabel("grades per item"))
        row.addWidget(self.overlap)
        form.addRow("Pool", row)
        self.annotators = QLineEdit(self)
        self.annotators.setPlaceholderText("names separated by spaces or commas")
        form.addRow("Annotators", self.annotators)
        self.sample = QSpinBox(self)
        self.sample.setRange(0, 10_000_000)
        self.sample.setSpecialValueText("all queries")
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        row = QHBoxLayout()
        row.addWidget(self.sample)
        row.addWidget(QLabel("seed"))
        row.addWidget(self.seed)
        form.addRow("Query sample", row)
        self.gold_rate = QDoubleSpinBox(self)
        self.gold_rate.setRange(0.0, 1.0)
        self.gold_rate.setSingleStep(0.01)
        self.gold_rate.setValue(0.05)
        self.gold_threshold = QDoubleSpinBox(self)
        self.gold_threshold.setRange(0.0, 1.0)
        self.gold_threshold.setSingleStep(0.05)
        self.gold_threshold.setValue(0.7)
        row = QHBoxLayout()
        row.addWidget(self.gold_rate)
        row.addWidget(QLabel("warn below"))
        row.addWidget(self.gold_threshold)
        form.addRow("Gold rate", row)
        self.guidelines = QPlainTextEdit(self)
        self.guidelines.setPlaceholderText("# Guidelines\n\nWhat makes a document *relevant*…")
        self.preview = QTextBrowser(self)
        self.guidelines.textChanged.connect(
            lambda: self.preview.setMarkdown(self.guidelines.toPlainText())
        )
        row = QHBoxLayout()
        row.addWidget(self.guidelines)
        row.addWidget(self.preview)
        form.addRow("Guidelines (Markdown)", row)
        self.error = QLabel("", self)
        self.error.setObjectName("campaign_dialog_error")
        self.error.setWordWrap(True)
        form.addRow(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.create_campaign)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def spec(self) -> CampaignSpec:
        """The campaign the form describes."""
        people = [p for p in self.annotators.text().replace(",", " ").split() if p]
        return CampaignSpec(
            name=self.name.text(),
            runs=[item.text() for item in self.runs.selectedItems()],
            depth=self.depth_box.value(),
            overlap=self.overlap.value(),
            annotators=people,
            sample=self.sample.value() or None,
            seed=self.seed.value(),
            gold_rate=self.gold_rate.value(),
            gold_threshold=self.gold_threshold.value(),
            guidelines=self.guidelines.toPlainText(),
        )

    def create_campaign(self) -> None:
        """Create the campaign; on bad input show why and stay open."""
        db = self.context.database
        if db is None:
            self.error.setText("No database is open.")
            return
        try:
            self.created = CampaignService(db).create(self.spec())
        except (ValueError, LookupError) as exc:
            self.error.setText(str(exc))
            return
        self.accept()
