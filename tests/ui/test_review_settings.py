"""The scoring settings panel stores valid changes in the context and refuses bad thresholds."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.domain.bands import BandThresholds
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import (
    SCORING_KEYS,
    ScoringSettingsPanel,
    describe_settings,
    scoring_settings_from,
)


@pytest.fixture
def panel(qtbot: Any, qapp: Any, qsettings: QSettings) -> ScoringSettingsPanel:
    p = ScoringSettingsPanel(AppContext(qsettings))
    qtbot.addWidget(p)
    return p


def test_shows_the_stored_values(qtbot: Any, qapp: Any, qsettings: QSettings) -> None:
    ctx = AppContext(qsettings)
    ctx.set_setting(S.K, 20)
    ctx.set_setting(S.CONSENSUS, "median")
    ctx.set_setting(S.BAND_POOR, 0.5)
    p = ScoringSettingsPanel(ctx)
    qtbot.addWidget(p)
    assert p.k.value() == 20
    assert p.consensus.currentData() == "median"
    assert p.bands["poor"].value() == 0.5


def test_each_change_is_stored_and_announced(qtbot: Any, panel: ScoringSettingsPanel) -> None:
    ctx = panel.context
    with qtbot.waitSignal(ctx.settings_changed, check_params_cb=lambda k: k == S.K.key):
        panel.k.setValue(7)
    with qtbot.waitSignal(ctx.settings_changed, check_params_cb=lambda k: k == S.GAIN.key):
        panel.gain.setCurrentIndex(panel.gain.findData("exponential"))
    with qtbot.waitSignal(ctx.settings_changed, check_params_cb=lambda k: k == S.IDEAL.key):
        panel.ideal.setCurrentIndex(panel.ideal.findData("list"))
    with qtbot.waitSignal(panel.settings_applied) as applied:
        panel.consensus.setCurrentIndex(panel.consensus.findData("max"))
    with qtbot.waitSignal(ctx.settings_changed, check_params_cb=lambda k: k == S.POOL_DEPTH.key):
        panel.pool_depth.setValue(25)
    expected = ScoringSettings(k=7, gain="exponential", ideal="list", consensus="max")
    assert applied.args == [expected]
    assert scoring_settings_from(ctx) == expected
    assert ctx.pool_depth == 25
    assert S.POOL_DEPTH.key not in SCORING_KEYS and S.K.key in SCORING_KEYS


def test_band_thresholds_must_decrease(qtbot: Any, panel: ScoringSettingsPanel) -> None:
    ctx = panel.context
    with qtbot.assertNotEmitted(ctx.settings_changed):
        panel.bands["fair"].setValue(0.85)  # above good (0.8): refused
    assert "decrease" in panel.band_message.text()
    assert ctx.band_thresholds == (0.9, 0.8, 0.7, 0.6)
    with qtbot.waitSignal(ctx.settings_changed):
        panel.bands["good"].setValue(0.88)  # 0.9 > 0.88 > 0.85 > 0.6: valid now
    assert panel.band_message.text() == ""
    assert ctx.band_thresholds == (0.9, 0.88, 0.85, 0.6)
    assert scoring_settings_from(ctx).bands == BandThresholds(0.9, 0.88, 0.85, 0.6)


def test_external_changes_reload_the_form(panel: ScoringSettingsPanel) -> None:
    panel.context.set_setting(S.K, 42)
    assert panel.k.value() == 42


def test_describe_settings_names_every_choice() -> None:
    text = describe_settings(ScoringSettings(k=3, annotator="ann"))
    assert "nDCG@3 = DCG@3 / IDCG@3" in text and "grades of ann only" in text
    text = describe_settings(ScoringSettings(order="rank", consensus="median"))
    assert "rank column" in text and "median of the annotators' grades" in text
