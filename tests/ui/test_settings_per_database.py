"""Scoring settings belong to the database they were chosen on: a second database opened starts
from the defaults (it does not silently inherit K=5 / exponential), the first gets its own back,
the Review and Compare headers state K, gain, ideal and consensus, and a typed K applies without
Enter, as the dialog says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt

from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext, database_target
from ndcg_studio.ui.dialogs.scoring_settings import ScoringSettingsPanel, headline
from ndcg_studio.ui.views.compare.view import CompareView
from ndcg_studio.ui.views.review.view import ReviewView


def two_databases(tmp_path: Path) -> tuple[Database, Database]:
    return open_database(tmp_path / "first.sqlite"), open_database(tmp_path / "second.sqlite")


def test_a_second_database_does_not_inherit_the_first_ones_settings(
    qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    first, second = two_databases(tmp_path)
    ctx = AppContext(qsettings)
    try:
        ctx.set_database(first, dispose_previous=False)
        ctx.set_setting(S.K, 5)
        ctx.set_setting(S.GAIN, "exponential")
        ctx.set_setting(S.POOL_DEPTH, 30)
        ctx.set_setting(S.BAND_POOR, 0.5)
        ctx.set_database(second, dispose_previous=False)
        assert (ctx.k, ctx.gain, ctx.ideal, ctx.consensus) == (10, "linear", "judged", "mean")
        assert ctx.pool_depth == 10 and ctx.band_thresholds == (0.9, 0.8, 0.7, 0.6)
        ctx.set_setting(S.K, 20)
        ctx.set_database(first, dispose_previous=False)
        assert (ctx.k, ctx.gain, ctx.pool_depth, ctx.band_thresholds[3]) == (
            5,
            "exponential",
            30,
            0.5,
        )
        # remembered in the settings file for the next start, keyed by the database
        again = AppContext(QSettings(qsettings.fileName(), QSettings.Format.IniFormat))
        again.set_database(second, dispose_previous=False)
        assert again.k == 20 and again.gain == "linear"
        group = S.Settings.database_group(database_target(first))
        qsettings.sync()
        assert qsettings.value(f"{group}/target") == str((tmp_path / "first.sqlite").resolve())
        assert qsettings.value(f"{group}/scoring/k", type=int) == 5
        # app-wide settings stay app-wide
        ctx.set_setting(S.ANNOTATOR, "ann")
        ctx.set_database(second, dispose_previous=False)
        assert ctx.remembered_annotator_name() == "ann"
    finally:
        ctx.set_database(None, dispose_previous=False)
        first.dispose()
        second.dispose()


def test_the_settings_panel_shows_the_new_databases_settings(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    first, second = two_databases(tmp_path)
    ctx = AppContext(qsettings)
    ctx.set_database(first, dispose_previous=False)
    panel = ScoringSettingsPanel(ctx)
    qtbot.addWidget(panel)
    try:
        panel.gain.setCurrentIndex(panel.gain.findData("exponential"))
        assert ctx.gain == "exponential"
        ctx.set_database(second, dispose_previous=False)
        assert panel.gain.currentData() == "linear" and panel.k.value() == 10
    finally:
        ctx.set_database(None, dispose_previous=False)
        first.dispose()
        second.dispose()


def test_a_typed_k_applies_without_enter(qtbot: Any, qapp: Any, qsettings: QSettings) -> None:
    ctx = AppContext(qsettings)
    panel = ScoringSettingsPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    seen: list[int] = []
    ctx.settings_changed.connect(lambda key: seen.append(ctx.k) if key == S.K.key else None)
    panel.k.setFocus()
    panel.k.selectAll()
    qtbot.keyClicks(panel.k, "20")  # no Enter, focus stays in the box
    qtbot.waitUntil(lambda: ctx.k == 20, timeout=3000)
    assert seen == [20]  # not first K=2 (a rescore for nothing), then K=20
    assert panel.k.hasFocus()
    qtbot.keyClick(panel.k, Qt.Key.Key_Backspace)
    qtbot.keyClick(panel.k, Qt.Key.Key_Return)  # Enter applies at once
    assert ctx.k == 2


def test_headline_names_k_gain_ideal_and_consensus() -> None:
    text = headline(ScoringSettings(k=5, gain="exponential", ideal="list", consensus="median"))
    assert "nDCG@5" in text and "exponential gain" in text and "ideal from the list" in text
    assert "consensus: median" in text
    assert "grades of ann only" in headline(ScoringSettings(annotator="ann"))


def test_review_and_compare_headers_state_the_settings(qtbot: Any, context: AppContext) -> None:
    context.set_setting(S.K, 5)
    context.set_setting(S.GAIN, "exponential")
    context.set_setting(S.CONSENSUS, "max")
    review, compare = ReviewView(context), CompareView(context)
    for view in (review, compare):
        qtbot.addWidget(view)
        view.show()
        with qtbot.waitSignal(
            view.data_loaded if view is review else view.compared, timeout=10_000
        ):
            view.reload()
        text = view.settings_line.text()
        for part in ("nDCG@5", "exponential gain", "ideal from all judged", "consensus: max"):
            assert part in text, (type(view).__name__, text)
    context.set_setting(S.K, 3)
    qtbot.waitUntil(lambda: "nDCG@3" in compare.settings_line.text(), timeout=10_000)
    qtbot.waitUntil(lambda: "nDCG@3" in review.settings_line.text(), timeout=10_000)
    qtbot.waitUntil(lambda: not review.is_loading() and not compare.is_loading(), timeout=10_000)
