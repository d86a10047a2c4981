"""The New campaign dialog: name, runs and depth, overlap, the order the queue
offers the pool in (a pooling strategy: depth, mtf, bandit, ab with its runs A, B and cutoff
K, or ppi with A, B, K, a machine source and the expected number of queries drawn), annotators,
a query sample, gold items (a file of known grades), gold rate and warning
threshold, guidelines in Markdown with a live preview.
Creating goes through :meth:`CampaignService.create` (its errors are shown, nothing written)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QWidget,
)

from ndcg_studio.io.campaign_files import read_gold_file
from ndcg_studio.io.errors import InputError
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.setup import PPI_MIN_EXPECTED
from ndcg_studio.services.campaigns.types import (
    POOL_STRATEGIES,
    CampaignInfo,
    CampaignSpec,
    GoldItem,
)
from ndcg_studio.services.screens.estimate import machine_sources
from ndcg_studio.ui.language import arg


class CampaignDialog(QDialog):
    """Create a campaign on the context's database."""

    def __init__(self, context: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaign_dialog")
        self.setWindowTitle(self.tr("New campaign"))
        self.resize(760, 560)
        self.context = context
        self.created: CampaignInfo | None = None
        form = QFormLayout(self)
        self.name = QLineEdit(self)
        self.name.setObjectName("campaign_name")
        form.addRow(self.tr("Name"), self.name)
        self.runs = QListWidget(self)
        self.runs.setObjectName("campaign_runs")
        self.runs.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        self.runs.setMaximumHeight(110)
        db = context.database
        names = CampaignService(db).run_names() if db is not None else []
        self.runs.addItems(names)
        form.addRow(self.tr("Runs to pool"), self.runs)
        self._form = form
        self._add_pool_rows(form, names)
        self.machine = QComboBox(self)  # ppi: the model source whose grades weigh the draw
        self.machine.setObjectName("campaign_machine")
        self.machine.addItems(machine_sources(db) if db is not None else ())
        self.machine.setPlaceholderText(self.tr("no machine source: import one's grades first"))
        form.addRow(self.tr("Machine source"), self.machine)
        self.annotators = QLineEdit(self)
        self.annotators.setObjectName("campaign_annotators")
        self.annotators.setPlaceholderText(self.tr("names separated by spaces or commas"))
        form.addRow(self.tr("Annotators"), self.annotators)
        self._add_sample_and_gold_rows(form)
        self.strategy.currentIndexChanged.connect(self._show_order)
        self._show_order()
        self.guidelines = QPlainTextEdit(self)
        self.guidelines.setPlaceholderText(
            self.tr("# Guidelines\n\nWhat makes a document *relevant*…")
        )
        self.preview = QTextBrowser(self)
        self.guidelines.textChanged.connect(
            lambda: self.preview.setMarkdown(self.guidelines.toPlainText())
        )
        row = QHBoxLayout()
        row.addWidget(self.guidelines)
        row.addWidget(self.preview)
        form.addRow(self.tr("Guidelines (Markdown)"), row)
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

    def _add_pool_rows(self, form: QFormLayout, runs: list[str]) -> None:
        """Depth, grades per item, and the order the queue offers the pool in (a strategy;
        ``ab`` and ``ppi`` with their pair of runs and cutoff)."""
        self.depth_box = QSpinBox(self)
        self.depth_box.setRange(1, 1000)
        self.depth_box.setValue(10)
        self.overlap = QSpinBox(self)
        self.overlap.setRange(1, 20)
        self.overlap.setValue(2)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("depth")))
        row.addWidget(self.depth_box)
        row.addWidget(QLabel(self.tr("grades per item")))
        row.addWidget(self.overlap)
        form.addRow(self.tr("Pool"), row)
        self.strategy = QComboBox(self)
        self.strategy.setObjectName("campaign_strategy")
        for key in POOL_STRATEGIES:
            self.strategy.addItem(self._strategy_label(key), key)
        self.pair_a, self.pair_b = QComboBox(self), QComboBox(self)
        for combo, index in ((self.pair_a, 0), (self.pair_b, 1)):
            combo.addItems(runs)
            combo.setCurrentIndex(min(index, len(runs) - 1))
        self.k_box = QSpinBox(self)
        self.k_box.setRange(1, 1000)
        self.k_box.setValue(10)
        row = QHBoxLayout()
        row.addWidget(self.strategy, 1)
        self._pair_widgets: list[QWidget] = [
            QLabel(self.tr("A"), self),
            self.pair_a,
            QLabel(self.tr("B"), self),
            self.pair_b,
            QLabel(self.tr("K"), self),
            self.k_box,
        ]
        for widget in self._pair_widgets:
            row.addWidget(widget)
        form.addRow(self.tr("Order"), row)

    def _strategy_label(self, key: str) -> str:
        labels = {
            "depth": self.tr("fewest grades first, shuffled (depth)"),
            "mtf": self.tr("move-to-front (mtf)"),
            "bandit": self.tr("discounted MaxMean bandit (bandit)"),
            "ab": self.tr("what decides run A vs B (ab)"),
            "ppi": self.tr("what shrinks the interval of the estimate of A vs B (ppi)"),
        }
        return labels[key]

    def _show_order(self) -> None:
        """The pair and K under ``ab`` and ``ppi``; the machine source and the expected number
        of queries drawn (instead of a query sample) under ``ppi``."""
        strategy = self.strategy.currentData()
        for widget in self._pair_widgets:
            widget.setVisible(strategy in ("ab", "ppi"))
        ppi = strategy == "ppi"
        self._form.setRowVisible(self.machine, ppi)
        if ppi:
            self.sample_label.setText(self.tr("Queries drawn (expected)"))
            self.sample.setSpecialValueText(
                arg(self.tr("a quarter of the queries, at least %1"), PPI_MIN_EXPECTED)
            )
        else:
            self.sample_label.setText(self.tr("Query sample"))
            self.sample.setSpecialValueText(self.tr("all queries"))

    def _add_sample_and_gold_rows(self, form: QFormLayout) -> None:
        self.sample = QSpinBox(self)
        self.sample.setRange(0, 10_000_000)
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        row = QHBoxLayout()
        row.addWidget(self.sample)
        row.addWidget(QLabel(self.tr("seed")))
        row.addWidget(self.seed)
        self.sample_label = QLabel(self.tr("Query sample"), self)
        form.addRow(self.sample_label, row)
        self.gold_rate = QDoubleSpinBox(self)
        self.gold_rate.setRange(0.0, 1.0)
        self.gold_rate.setSingleStep(0.01)
        self.gold_rate.setValue(0.05)
        self.gold_threshold = QDoubleSpinBox(self)
        self.gold_threshold.setRange(0.0, 1.0)
        self.gold_threshold.setSingleStep(0.05)
        self.gold_threshold.setValue(0.7)
        self.gold_file = QLineEdit(self)
        self.gold_file.setObjectName("campaign_gold_file")
        self.gold_file.setPlaceholderText(
            self.tr("none: no gold checks (a file of QUERY [ITER] DOCUMENT GRADE lines)")
        )
        choose = QPushButton(self.tr("Choose…"), self)
        choose.clicked.connect(self._choose_gold_file)
        row = QHBoxLayout()
        row.addWidget(self.gold_file, 1)
        row.addWidget(choose)
        form.addRow(self.tr("Gold items"), row)
        row = QHBoxLayout()
        row.addWidget(self.gold_rate)
        row.addWidget(QLabel(self.tr("warn below")))
        row.addWidget(self.gold_threshold)
        form.addRow(self.tr("Gold rate"), row)

    def _choose_gold_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self,
            self.tr("Gold items"),
            "",
            self.tr("Gold items or qrels (*.txt *.qrels *.tsv);;All files (*)"),
        )
        if path:
            self.gold_file.setText(path)

    def gold(self) -> list[GoldItem]:
        """The gold items of the chosen file (none when no file is chosen).

        Raises:
            InputError: the file cannot be read or has a bad line (``FILE:LINE: field: …``).
        """
        text = self.gold_file.text().strip()
        if not text:
            return []
        path = Path(text).expanduser()
        if not path.is_file():
            raise InputError(f"{path}: no such file (the gold items)")
        return [GoldItem(q, d, g) for q, d, g, _line in read_gold_file(path)]

    def spec(self) -> CampaignSpec:
        """The campaign the form describes (its gold items read from the chosen file).

        Raises:
            InputError: as :meth:`gold`.
        """
        people = [p for p in self.annotators.text().replace(",", " ").split() if p]
        strategy = self.strategy.currentData()
        paired = strategy in ("ab", "ppi")
        machine = self.machine.currentText() if strategy == "ppi" else ""
        return CampaignSpec(
            name=self.name.text(),
            runs=[item.text() for item in self.runs.selectedItems()],
            depth=self.depth_box.value(),
            overlap=self.overlap.value(),
            annotators=people,
            sample=self.sample.value() or None,
            seed=self.seed.value(),
            gold=self.gold(),
            gold_rate=self.gold_rate.value(),
            gold_threshold=self.gold_threshold.value(),
            guidelines=self.guidelines.toPlainText(),
            strategy=strategy,
            pair=(self.pair_a.currentText(), self.pair_b.currentText()) if paired else None,
            k=self.k_box.value() if paired else None,
            machine=machine or None,
        )

    def create_campaign(self) -> None:
        """Create the campaign; on bad input show why and stay open."""
        db = self.context.database
        if db is None:
            self.error.setText(self.tr("No database is open."))
            return
        try:
            self.created = CampaignService(db).create(self.spec())
        except (ValueError, LookupError) as exc:
            self.error.setText(str(exc))
            return
        self.accept()
