"""Review's filter bar: which (query, run) rows the table shows (text, run, band, disputed only,
judged@K below a share), whose grades the scores are against (the judgment source: a reload,
not a row filter), and how many rows are shown."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from ndcg_studio.domain.bands import NO_BAND, Band
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.bands import band_name
from ndcg_studio.ui.language import arg, label, number, plural
from ndcg_studio.ui.models.scores import DEFAULT_COVERAGE_THRESHOLD, ReviewFilter

#: the source filter's tooltip: what choosing a source means
SOURCE_FILTER_TIP = QT_TRANSLATE_NOOP(
    "ReviewFilterBar",
    "Score against one judgment source's grades only: its annotators' grades combined by the "
    "consensus rule, no adjudication (like `score --source`); 'humans' are the annotators of "
    "no source. All sources: the usual consensus of every annotator.",
)


class ReviewFilterBar(QWidget):
    """The row filters and the source picker of the Review table.

    Signals:
        changed(): a row filter changed (filter the table again).
        source_changed(): another judgment source was picked (score again).
    """

    changed = Signal()
    source_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Filter by query id or text…"))
        self.search.setClearButtonEnabled(True)
        self.run_filter = QComboBox()
        self.run_filter.addItem(self.tr("All runs"), None)
        self.band_filter = QComboBox()
        self.band_filter.addItem(self.tr("All bands"), None)
        for band in sorted(Band, reverse=True):
            self.band_filter.addItem(band_name(int(band)), int(band))
        self.band_filter.addItem(self.tr("No band (no judgments)"), NO_BAND)
        # whose grades the scores are against (a reload, not a row filter); shown once the
        # database has a source besides the humans
        self.source_filter = QComboBox()
        self.source_filter.setObjectName("review_source_filter")
        self.source_filter.addItem(self.tr("All sources"), None)
        self.source_filter.setToolTip(label("ReviewFilterBar", SOURCE_FILTER_TIP))
        self.source_filter.setVisible(False)
        self.disputed_only = QCheckBox(self.tr("Disputed only"))
        self.disputed_only.setToolTip(
            self.tr("Queries with a document whose grades differ by 2 or more")
        )
        self.low_coverage = QCheckBox(self.tr("Judged@K below"))
        self.coverage = QDoubleSpinBox()
        self.coverage.setRange(0, 100)
        self.coverage.setSuffix(" %")
        self.coverage.setDecimals(0)
        self.coverage.setSingleStep(5)
        self.coverage.setValue(DEFAULT_COVERAGE_THRESHOLD * 100)
        self.coverage.setKeyboardTracking(False)
        self.shown = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget, stretch in (
            (self.search, 3),
            (self.run_filter, 1),
            (self.band_filter, 1),
            (self.source_filter, 1),
            (self.disputed_only, 0),
            (self.low_coverage, 0),
            (self.coverage, 0),
        ):
            layout.addWidget(widget, stretch)
        layout.addStretch(0)
        layout.addWidget(self.shown)
        for widget_signal in (
            self.search.textChanged,
            self.run_filter.currentIndexChanged,
            self.band_filter.currentIndexChanged,
            self.disputed_only.toggled,
            self.low_coverage.toggled,
            self.coverage.valueChanged,
        ):
            widget_signal.connect(self.changed)
        self.source_filter.currentIndexChanged.connect(self.source_changed)

    def current_filter(self) -> ReviewFilter:
        return ReviewFilter(
            band=self.band_filter.currentData(),
            run=self.run_filter.currentData(),
            text=self.search.text(),
            disputed_only=self.disputed_only.isChecked(),
            coverage_below=self.coverage_threshold() if self.low_coverage.isChecked() else None,
        )

    def coverage_threshold(self) -> float:
        """The judged@K share in [0, 1] below which a row counts as low coverage."""
        return self.coverage.value() / 100

    def source(self) -> str | None:
        """The judgment source picked (None: every annotator)."""
        source = self.source_filter.currentData()
        return source if isinstance(source, str) else None

    def set_runs(self, runs: Sequence[str]) -> None:
        """Offer ``runs`` (keeps the run picked, if still there; emits nothing)."""
        current_run = self.run_filter.currentData()
        self.run_filter.blockSignals(True)
        self.run_filter.clear()
        self.run_filter.addItem(self.tr("All runs"), None)
        for run in runs:
            self.run_filter.addItem(run, run)
        self.run_filter.setCurrentIndex(max(0, self.run_filter.findData(current_run)))
        self.run_filter.blockSignals(False)

    def set_sources(self, sources: Sequence[str], source: str | None) -> None:
        """Offer the database's judgment ``sources`` with ``source`` picked (emits nothing);
        hidden without a source besides the humans."""
        combo = self.source_filter
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(self.tr("All sources"), None)
        for name in sources:
            combo.addItem(arg(self.tr("Source: %1"), name), name)
        combo.setCurrentIndex(max(0, combo.findData(source)))
        combo.blockSignals(False)
        combo.setVisible(len(sources) > 1)

    def set_shown(self, n: int, total: int) -> None:
        if n != total:
            text = arg(self.tr("%1 of %2 row(s)", "", total), number(n), number(total))
        else:
            text = arg(self.tr("%1 row(s)", "", total), number(total))
        self.shown.setText(plural(text, total))
