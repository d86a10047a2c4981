"""Scoring settings: K, gain, ideal, consensus, pool depth and band thresholds.

The panel writes each change straight into the :class:`~ndcg_studio.ui.context.AppContext`
settings (QSettings-backed, per database); the context emits ``settings_changed(key)`` and the
Review and Compare views rescore in a background worker (a newer job cancels the older one).
A typed K or pool depth applies once typing pauses (:data:`TYPING_PAUSE_MS`), or at once on
Enter, focus loss or an arrow step, so "20" is not first scored as K=2. Band thresholds that
are not strictly decreasing are refused with a message and not stored. Opening another
database shows that database's settings.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.domain.bands import Band, BandThresholds
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.bands import band_name
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg

#: settings keys whose change requires rescoring
SCORING_KEYS = frozenset(
    s.key
    for s in (
        S.K,
        S.GAIN,
        S.IDEAL,
        S.CONSENSUS,
        S.BAND_EXCELLENT,
        S.BAND_GOOD,
        S.BAND_FAIR,
        S.BAND_POOR,
    )
)

#: a typed number applies this long after the last keystroke
TYPING_PAUSE_MS = 400

# combo box choices (value, label); the labels are translated in context "ScoringSettings"
_GAINS = (
    ("linear", QT_TRANSLATE_NOOP("ScoringSettings", "Linear: gain = grade")),
    ("exponential", QT_TRANSLATE_NOOP("ScoringSettings", "Exponential: gain = 2^grade − 1")),
)
_IDEALS = (
    (
        "judged",
        QT_TRANSLATE_NOOP("ScoringSettings", "All judged documents of the query (trec_eval)"),
    ),
    (
        "list",
        QT_TRANSLATE_NOOP("ScoringSettings", "Only the documents the run returned (scikit-learn)"),
    ),
)
_CONSENSUS = (
    ("mean", QT_TRANSLATE_NOOP("ScoringSettings", "Mean of the annotators' grades")),
    ("median", QT_TRANSLATE_NOOP("ScoringSettings", "Median")),
    ("majority", QT_TRANSLATE_NOOP("ScoringSettings", "Majority (most frequent grade)")),
    ("max", QT_TRANSLATE_NOOP("ScoringSettings", "Maximum (most lenient)")),
    ("min", QT_TRANSLATE_NOOP("ScoringSettings", "Minimum (strictest)")),
)

#: the consensus methods' short names in the sentences below (the CLI's words in English)
_CONSENSUS_NAMES = {
    "mean": QT_TRANSLATE_NOOP("ScoringSettings", "mean"),
    "median": QT_TRANSLATE_NOOP("ScoringSettings", "median"),
    "majority": QT_TRANSLATE_NOOP("ScoringSettings", "majority"),
    "max": QT_TRANSLATE_NOOP("ScoringSettings", "max"),
    "min": QT_TRANSLATE_NOOP("ScoringSettings", "min"),
}


def consensus_name(method: str) -> str:
    """The name of a consensus ``method`` ("median") in the interface language."""
    return _tr(_CONSENSUS_NAMES.get(method, method))


def _tr(text: str) -> str:
    return QCoreApplication.translate("ScoringSettings", text)


def scoring_settings_from(ctx: AppContext) -> ScoringSettings:
    """The :class:`ScoringSettings` the context's settings describe (K, gain, ideal, consensus,
    bands; invalid stored band thresholds fall back to the defaults)."""
    settings: ScoringSettings = ctx.scoring_settings()
    return settings


#: The words of the two-way settings, in the sentence of :func:`describe_settings` and in the
#: :func:`headline`: per setting, the value the first pair of texts describes, then (sentence,
#: headline) for that value and (sentence, headline) for the other one.
_TWO_WAY: dict[str, tuple[str, tuple[str, str], tuple[str, str]]] = {
    "gain": (
        "linear",
        (
            QT_TRANSLATE_NOOP("ScoringSettings", "gain = grade"),
            QT_TRANSLATE_NOOP("ScoringSettings", "linear gain (grade)"),
        ),
        (
            QT_TRANSLATE_NOOP("ScoringSettings", "gain = 2^grade − 1"),
            QT_TRANSLATE_NOOP("ScoringSettings", "exponential gain (2^grade − 1)"),
        ),
    ),
    "ideal": (
        "judged",
        (
            QT_TRANSLATE_NOOP("ScoringSettings", "IDCG from all judged documents of the query"),
            QT_TRANSLATE_NOOP("ScoringSettings", "ideal from all judged documents"),
        ),
        (
            QT_TRANSLATE_NOOP("ScoringSettings", "IDCG from the documents the run returned"),
            QT_TRANSLATE_NOOP("ScoringSettings", "ideal from the list"),
        ),
    ),
    "order": (
        "score",
        (
            QT_TRANSLATE_NOOP(
                "ScoringSettings",
                "run order by score descending, ties by document id descending (trec_eval)",
            ),
            QT_TRANSLATE_NOOP("ScoringSettings", "order: score, ties by document id"),
        ),
        (
            QT_TRANSLATE_NOOP("ScoringSettings", "run order by the file's rank column"),
            QT_TRANSLATE_NOOP("ScoringSettings", "order: rank column"),
        ),
    ),
}


def _words(settings: ScoringSettings, consensus: str, in_headline: bool) -> tuple[str, ...]:
    """The translated words of gain, ideal, order and whose grades, in the sentence or the
    headline; ``consensus``: the untranslated text for the consensus (``%1``: its method)."""
    form = int(in_headline)
    two_way = (
        _tr((first if getattr(settings, name) == value else other)[form])
        for name, (value, first, other) in _TWO_WAY.items()
    )
    who = (
        arg(QCoreApplication.translate("ScoringSettings", "grades of %1 only"), settings.annotator)
        if settings.annotator
        else arg(_tr(consensus), consensus_name(settings.consensus))
    )
    return (*two_way, who)


def describe_settings(settings: ScoringSettings) -> str:
    """One sentence saying how nDCG is computed, e.g. for the Review header and Query detail."""
    gain, ideal, order, who = _words(
        settings,
        QT_TRANSLATE_NOOP(
            "ScoringSettings", "%1 of the annotators' grades (adjudicated grades win)"
        ),
        in_headline=False,
    )
    text = QCoreApplication.translate(
        "ScoringSettings",
        "nDCG@%1 = DCG@%1 / IDCG@%1; %2; discount 1/log2(rank + 1); %3; %4; one grade per "
        "document: %5; unjudged documents gain 0.",
    )
    return arg(text, settings.k, gain, ideal, order, who)


def headline(settings: ScoringSettings) -> str:
    """The short rich-text line the Review and Compare headers show: K, gain, ideal, consensus
    (or the one annotator) and the run order, e.g. "<b>nDCG@10</b> · linear gain (grade) · …"."""
    gain, ideal, order, who = _words(
        settings, QT_TRANSLATE_NOOP("ScoringSettings", "consensus: %1"), in_headline=True
    )
    return f"<b>nDCG@{settings.k}</b> · {gain} · {ideal} · {who} · {order}"


def _combo(choices: tuple[tuple[str, str], ...]) -> QComboBox:
    combo = QComboBox()
    for value, label in choices:
        combo.addItem(_tr(label), value)
    return combo


class ScoringSettingsPanel(QWidget):
    """The form; every valid change is stored in the context at once.

    Signals:
        settings_applied(object): the new :class:`ScoringSettings` after a change was stored
            (also emitted when the context was changed by someone else and the form reloaded).
    """

    settings_applied = Signal(object)

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self._loading = False

        self.k = QSpinBox()
        self.k.setRange(S.K.minimum or 1, S.K.maximum or 10_000)
        self.k.setToolTip(self.tr("Cutoff K: ranks 1..K count"))
        self.gain = _combo(_GAINS)
        self.ideal = _combo(_IDEALS)
        self.consensus = _combo(_CONSENSUS)
        self.pool_depth = QSpinBox()
        self.pool_depth.setRange(S.POOL_DEPTH.minimum or 1, S.POOL_DEPTH.maximum or 1000)
        self.pool_depth.setToolTip(
            self.tr("Annotators judge the union of every run's top D documents")
        )

        scoring = QGroupBox(self.tr("nDCG"))
        form = QFormLayout(scoring)
        form.addRow(self.tr("Cutoff &K:"), self.k)
        form.addRow(self.tr("&Gain:"), self.gain)
        form.addRow(self.tr("&Ideal list:"), self.ideal)
        form.addRow(self.tr("&Consensus:"), self.consensus)

        pool = QGroupBox(self.tr("Judging pool"))
        pool_form = QFormLayout(pool)
        pool_form.addRow(self.tr("Pool &depth D:"), self.pool_depth)

        layout = QVBoxLayout(self)
        layout.addWidget(scoring)
        layout.addWidget(self._build_bands())
        layout.addWidget(pool)
        layout.addStretch(1)
        self._connect(context)

    def _build_bands(self) -> QGroupBox:
        """The four band thresholds and the message refusing a wrong order."""
        self.bands: dict[str, QDoubleSpinBox] = {}
        band_box = QGroupBox(self.tr("Quality bands (lower bound of nDCG)"))
        band_layout = QVBoxLayout(band_box)
        band_form = QFormLayout()
        band_layout.addLayout(band_form)
        for name, band in (
            ("excellent", Band.EXCELLENT),
            ("good", Band.GOOD),
            ("fair", Band.FAIR),
            ("poor", Band.POOR),
        ):
            spin = QDoubleSpinBox()
            spin.setRange(0.0, 1.0)
            spin.setSingleStep(0.05)
            spin.setDecimals(2)
            spin.setKeyboardTracking(False)
            self.bands[name] = spin
            band_form.addRow(arg(self.tr("%1 ≥"), band_name(band)), spin)
        self.band_message = QLabel()
        self.band_message.setWordWrap(True)
        band_layout.addWidget(self.band_message)
        return band_box

    def _connect(self, context: AppContext) -> None:
        """Show the stored values, then store every change (typed numbers after a pause)."""
        # typed digits wait for a pause (or Enter / focus loss)
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(self._store_numbers)
        self.load()
        for number in (self.k, self.pool_depth):
            number.valueChanged.connect(lambda _v: self._typing.start())
            number.editingFinished.connect(self._store_numbers)
        self.gain.currentIndexChanged.connect(
            lambda _: self._store(S.GAIN, self.gain.currentData())
        )
        self.ideal.currentIndexChanged.connect(
            lambda _: self._store(S.IDEAL, self.ideal.currentData())
        )
        self.consensus.currentIndexChanged.connect(
            lambda _: self._store(S.CONSENSUS, self.consensus.currentData())
        )
        for spin in self.bands.values():
            spin.valueChanged.connect(self._on_band_changed)
        context.settings_changed.connect(self._on_settings_changed)
        context.database_changed.connect(self.load)  # settings belong to the database

    # ------------------------------------------------------------------ load/store
    def load(self) -> None:
        """Show the context's current values (without storing anything)."""
        self._loading = True
        try:
            c = self.context
            self.k.setValue(c.k)
            self.pool_depth.setValue(c.pool_depth)
            for combo, value in (
                (self.gain, c.gain),
                (self.ideal, c.ideal),
                (self.consensus, c.consensus),
            ):
                combo.setCurrentIndex(max(0, combo.findData(value)))
            for spin, threshold in zip(self.bands.values(), c.band_thresholds, strict=True):
                spin.setValue(threshold)
            self.band_message.clear()
        finally:
            self._loading = False
            self._typing.stop()

    def _store_numbers(self) -> None:
        self._typing.stop()
        self._store(S.K, int(self.k.value()))
        self._store(S.POOL_DEPTH, int(self.pool_depth.value()))

    def _store(self, setting: S.Setting[Any], value: Any) -> None:
        if self._loading:
            return
        self.context.set_setting(setting, value)
        self.settings_applied.emit(scoring_settings_from(self.context))

    def _on_band_changed(self) -> None:
        if self._loading:
            return
        values = [spin.value() for spin in self.bands.values()]
        try:
            BandThresholds(*values)
        except ValueError:
            self.band_message.setText(
                self.tr(
                    "⚠ Thresholds must decrease strictly: excellent > good > fair > poor. "
                    "Not applied."
                )
            )
            return
        self.band_message.clear()
        for setting, value in zip(
            (S.BAND_EXCELLENT, S.BAND_GOOD, S.BAND_FAIR, S.BAND_POOR), values, strict=True
        ):
            self.context.set_setting(setting, float(value))
        self.settings_applied.emit(scoring_settings_from(self.context))

    def _on_settings_changed(self, key: str) -> None:
        if not self._loading and (key in SCORING_KEYS or key == S.POOL_DEPTH.key):
            self.load()


class ScoringSettingsDialog(QDialog):
    """A non-modal window around :class:`ScoringSettingsPanel` (changes apply at once)."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Scoring settings"))
        self.panel = ScoringSettingsPanel(context, self)
        note = QLabel(self.tr("Changes apply at once; the views rescore in the background."))
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.panel)
        row = QHBoxLayout()
        row.addWidget(note, 1)
        row.addWidget(buttons, 0, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(row)
        self.resize(520, self.sizeHint().height())
