"""Stability: would the decision change under other grades?

The runs' order by mean nDCG@K under each grade set (each annotator with enough coverage, each
judgment source, or each consensus rule), Kendall's tau-b and tau_AP between every two orders
as a coloured matrix, the run pairs whose order or significance flips, and for two picked runs
the sentence "A better than B under 5 of 6 grade sets; flips under ada's grades"
(:class:`ndcg_studio.services.stability.service.StabilityService`). By source, the label agreement
of
every two sources (weighted kappa, alpha, items two grades apart) is listed under the table.

Everything is computed in a worker; picking two runs only rewrites the sentence.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.stability.report import (
    BY_CHOICES,
    DEFAULT_MIN_COVERAGE,
    SourceAgreement,
    StabilityReport,
)
from ndcg_studio.services.stability.service import StabilityService
from ndcg_studio.storage.database import Database
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import (
    consensus_name,
    scoring_settings_from,
)
from ndcg_studio.ui.language import arg, label, plural
from ndcg_studio.ui.models.stability import MeansTableModel, PairsTableModel, TauMatrixModel
from ndcg_studio.ui.views.base import LazyView, StateWidget
from ndcg_studio.ui.widgets import column, read_only_table, selectable_text
from ndcg_studio.ui.workers import TaskFn
from ndcg_studio.vocabulary import GRADES

_BY_LABELS = {
    "annotator": QT_TRANSLATE_NOOP("StabilityView", "each annotator"),
    "source": QT_TRANSLATE_NOOP("StabilityView", "each judgment source"),
    "consensus": QT_TRANSLATE_NOOP("StabilityView", "each consensus rule"),
}


def _table(model: Any, name: str) -> QTableView:
    table = read_only_table(model, name)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


class StabilityView(LazyView[StabilityReport]):
    """The Stability tab. Construct as ``StabilityView(context, parent)``.

    Signals:
        shown_report(): a freshly computed report is displayed.
    """

    shown_report = Signal()
    STATE_KEY = "stability"
    LOADING_STATUS = QT_TRANSLATE_NOOP("StabilityView", "Scoring under every grade set…")
    FAILED_ACTION = QT_TRANSLATE_NOOP("StabilityView", "Computing the ranking stability")

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(context, parent)
        self.report: StabilityReport | None = None
        controls = self._build_controls()
        self._build_tables()
        parts = (controls, self.sentence, self.splitter, self.agreement, self.notes)
        self._set_content(column(*parts, stretch=self.splitter))

        self.by.currentIndexChanged.connect(self._on_by_changed)
        self.coverage.editingFinished.connect(self._schedule)
        self.run_a.currentIndexChanged.connect(self._show_sentence)
        self.run_b.currentIndexChanged.connect(self._show_sentence)
        self._follow_scoring_inputs()
        self._show_empty()
        self.restore_state()
        self._on_by_changed()

    def _build_controls(self) -> QHBoxLayout:
        """The row above the tables: grade sets, coverage, the two runs, the status."""
        self.by = QComboBox()
        for by in BY_CHOICES:
            self.by.addItem(label("StabilityView", _BY_LABELS[by]), by)
        self.by.setToolTip(self.tr("The grade sets whose run orders are compared"))
        self.coverage = QDoubleSpinBox()
        self.coverage.setRange(0.0, 100.0)
        self.coverage.setDecimals(0)
        self.coverage.setSingleStep(5.0)
        self.coverage.setSuffix(self.tr(" %"))
        self.coverage.setValue(DEFAULT_MIN_COVERAGE * 100)
        self.coverage.setToolTip(
            self.tr(
                "An annotator takes part when they graded at least this share of every run's top K"
            )
        )
        self.coverage_label = QLabel(self.tr("min. coverage"))
        self.run_a = QComboBox()
        self.run_b = QComboBox()
        # no wider than ~14 characters when closed (the list shows whole names): with Russian
        # labels and long run names the row made the window wider than a 1024-px screen
        for combo, length in ((self.by, 14), (self.run_a, 12), (self.run_b, 12)):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(length)
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Run order under")))
        controls.addWidget(self.by)
        controls.addSpacing(10)
        controls.addWidget(self.coverage_label)
        controls.addWidget(self.coverage)
        controls.addSpacing(20)
        controls.addWidget(QLabel(self.tr("Runs")))
        controls.addWidget(self.run_a)
        controls.addWidget(QLabel(self.tr("vs")))
        controls.addWidget(self.run_b)
        controls.addStretch(1)
        controls.addWidget(self.status)
        return controls

    def _build_tables(self) -> None:
        """The sentence, the three tables in their splitters, the agreement and the notes."""
        self.sentence = selectable_text(Qt.TextFormat.RichText)
        self.notes = selectable_text()

        self.matrix_model = TauMatrixModel(self)
        self.matrix = _table(self.matrix_model, "stability_matrix_table")
        self.matrix.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.matrix.horizontalHeader().setStretchLastSection(False)
        self.means_model = MeansTableModel(self)
        self.means = _table(self.means_model, "stability_means_table")
        self.means.setSortingEnabled(True)
        self.means.verticalHeader().setVisible(False)
        self.means.horizontalHeader().setStretchLastSection(False)
        self.pairs_model = PairsTableModel(self)
        self.pairs = _table(self.pairs_model, "stability_pairs_table")
        self.pairs.setSortingEnabled(True)
        self.pairs.verticalHeader().setVisible(False)
        self.pairs.sortByColumn(2, Qt.SortOrder.AscendingOrder)
        self.agreement = selectable_text(Qt.TextFormat.RichText)

        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(
            _titled(self.tr("Kendall's τ-b (above the diagonal) and τ_AP (below)"), self.matrix)
        )
        top.addWidget(_titled(self.tr("Mean nDCG@K of each run (its rank)"), self.means))
        top.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(top)
        self.splitter.addWidget(_titled(self.tr("Every two grade sets: flips"), self.pairs))
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([280, 420])
        top.setSizes([560, 640])
        self.top_splitter = top

    # ------------------------------------------------------------------ loading
    def set_by(self, by: str) -> None:
        """Compare the grade sets of kind ``by`` (annotator, source or consensus)."""
        self.by.setCurrentIndex(self.by.findData(by))

    def _on_by_changed(self, *_: object) -> None:
        annotators = self.by.currentData() == "annotator"
        self.coverage.setVisible(annotators)
        self.coverage_label.setVisible(annotators)
        self._schedule()

    def _load_job(self, db: Database) -> TaskFn[StabilityReport]:
        settings = scoring_settings_from(self.context)
        by = self.by.currentData()
        coverage = self.coverage.value() / 100.0
        return lambda progress, cancelled: StabilityService(db).stability(
            by,
            settings,
            min_coverage=coverage,
            n_resamples=2_000,
            progress=progress,
            cancelled=cancelled,
        )

    def _on_loaded(self, report: StabilityReport) -> None:
        self.report = report
        r = report.result
        for model in (self.matrix_model, self.means_model, self.pairs_model):
            model.set_report(report)
        if len(r.runs) < 2:
            self._show_empty(
                self.tr("Ranking stability needs two runs: import another run (File ▸ Import…).")
            )
            return
        self.pages.setCurrentIndex(1)
        previous = (self.run_a.currentText(), self.run_b.currentText())
        for combo in (self.run_a, self.run_b):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(list(r.runs))
            combo.blockSignals(False)
        a = previous[0] if previous[0] in r.runs else r.runs[0]
        b = previous[1] if previous[1] in r.runs and previous[1] != a else _other(r.runs, a)
        self.run_a.setCurrentIndex(self.run_a.findText(a))
        self.run_b.setCurrentIndex(self.run_b.findText(b))
        self._show_sentence()
        notes = []
        if report.excluded:  # as StabilityReport.notes() says it, in the interface language
            cov = ", ".join(f"{a} {report.coverage[a]:.0%}" for a in report.excluded)
            text = self.tr("annotators below %1 coverage of every run's top %2 left out: %3")
            notes.append(arg(text, f"{report.min_coverage:.0%}", report.settings.k, cov))
        if len(r.sets) < 2:
            nothing = self.tr("%n grade set(s): nothing to compare.", "", len(r.sets))
            notes.insert(0, plural(nothing, len(r.sets)))
        self.notes.setText("\n".join(notes))
        self.agreement.setText(self.agreement_html(report))
        self.agreement.setVisible(bool(report.agreement))
        self.shown_report.emit()

    def _show_sentence(self, *_: object) -> None:
        report = self.report
        a, b = self.run_a.currentText(), self.run_b.currentText()
        if report is None or not a or not b:
            return
        if a == b:
            self.sentence.setText(self.tr("Pick two different runs."))
            return
        if not report.result.sets:
            self.sentence.setText(self.tr("No grade set to compare under."))
            return
        verdict = report.result.verdict(a, b)
        flips = (
            " · <b>" + self.tr("the significance flips") + "</b>"
            if verdict.significance_flips
            else ""
        )
        self.sentence.setText(
            f"<span style='font-size:12pt'><b>{self.sentence_text(report, a, b)}</b></span>" + flips
        )

    def sentence_text(self, report: StabilityReport, run_a: str, run_b: str) -> str:
        """:meth:`ndcg_studio.domain.stability.StabilityResult.sentence` in the interface
        language (the same English text), built here from the verdict's directions: "A better
        than B under 5 of 6 grade sets; flips under ada's grades"."""
        result = report.result
        v = result.verdict(run_a, run_b)
        have = ~np.isnan(v.delta)
        a_wins, b_wins = int((v.direction > 0).sum()), int((v.direction < 0).sum())
        first, second, sign = v.run_a, v.run_b, 1
        if b_wins > a_wins or (b_wins == a_wins and result.runs[v.run_b] == run_a):
            first, second, sign = v.run_b, v.run_a, -1
        better = a_wins if sign > 0 else b_wins
        names = [self._set_phrase(report.by, g.name) for g in result.sets]
        flips = [names[i] for i in np.flatnonzero(v.direction == -sign).tolist()]
        ties = [names[i] for i in np.flatnonzero(have & (v.direction == 0)).tolist()]
        text = arg(
            self.tr("%1 better than %2 under %3 of %4 grade sets"),
            result.runs[first],
            result.runs[second],
            better,
            int(have.sum()),
        )
        text += arg(self.tr("; flips under %1"), self._join(flips)) if flips else ""
        text += "" if flips else self.tr("; never flips")
        return text + (arg(self.tr("; tied under %1"), self._join(ties)) if ties else "")

    def _set_phrase(self, by: str, name: str) -> str:
        if by == "consensus":
            return arg(self.tr("the %1 consensus"), consensus_name(name))
        if name.endswith("s"):
            return arg(self.tr("%1' grades"), name)
        return arg(self.tr("%1's grades"), name)

    def _join(self, words: list[str]) -> str:
        if len(words) <= 2:
            return self.tr(" and ").join(words)
        return arg(self.tr("%1 and %2"), self.tr(", ").join(words[:-1]), words[-1])

    @staticmethod
    def agreement_html(report: StabilityReport) -> str:
        """One line per pair of sources: weighted kappa, alpha, shared items, two apart."""
        cells = []
        for x in report.agreement:
            kappa = "—" if x.kappa_linear != x.kappa_linear else f"{x.kappa_linear:.3f}"
            alpha = "—" if x.alpha != x.alpha else f"{x.alpha:.3f}"
            head = "".join(f"<th>{g}</th>" for g in GRADES)
            body = "".join(
                f"<tr><th>{g}</th>"
                + "".join(f"<td align='right'>{int(c):,}</td>" for c in x.confusion[g])
                + "</tr>"
                for g in GRADES
            )
            line = arg(
                QCoreApplication.translate(
                    "StabilityView",
                    "<b>%1</b> vs <b>%2</b>: Cohen's κ (linear) %3, Krippendorff's α (ordinal) "
                    "%4<br>%5 items, %6 two grades or more apart (Agreement tab: disputed list)",
                ),
                html.escape(x.source_a),
                html.escape(x.source_b),
                kappa,
                alpha,
                f"{x.n_shared:,}",
                f"{x.n_two_apart:,}",
            )
            line += "<br>" + StabilityView._more_agreement(x)
            cells.append(
                f"<td valign='top'>{line}"
                f"<table cellspacing='0' cellpadding='3' border='1'><tr><th>"
                f"{html.escape(x.source_a)} ↓ · {html.escape(x.source_b)} →</th>{head}</tr>"
                f"{body}</table></td>"
            )
        if not cells:
            return ""
        mixed = "".join(
            "<p style='color:#b00020'>"
            + arg(
                QCoreApplication.translate(
                    "StabilityView", "Labels of more than one model or template: %1"
                ),
                html.escape(note),
            )
            + "</p>"
            for note in report.mixed
        )
        return (
            mixed
            + "<b>"
            + QCoreApplication.translate("StabilityView", "Label agreement between sources")
            + "</b><table cellspacing='12'><tr>"
            + "".join(cells)
            + "</tr></table>"
        )

    # ------------------------------------------------------------------ state
    @staticmethod
    def _more_agreement(x: SourceAgreement) -> str:
        """Unweighted and quadratic kappa, and b's precision and recall per grade against a."""

        def fmt(v: float) -> str:
            return "—" if np.isnan(v) else f"{v:.2f}"

        grades = " · ".join(
            f"{g}: {fmt(float(x.precision[g]))}/{fmt(float(x.recall[g]))}" for g in GRADES
        )
        return arg(
            QCoreApplication.translate(
                "StabilityView",
                "Cohen's κ unweighted %1, quadratic %2; %3's precision/recall per grade "
                "against %4: %5",
            ),
            fmt(x.kappa),
            fmt(x.kappa_quadratic),
            html.escape(x.source_b),
            html.escape(x.source_a),
            grades,
        )

    def _state_widgets(self) -> tuple[tuple[str, StateWidget], ...]:
        return (("splitter", self.splitter), ("top", self.top_splitter))


def _other(runs: tuple[str, ...], run: str) -> str:
    return next(r for r in runs if r != run)


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 4, 0, 0)
    label = QLabel(f"<b>{title}</b>")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box
