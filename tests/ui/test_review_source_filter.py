"""Review's source filter: the scores against one judgment source's grades (issue #18)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.stability.service import StabilityService
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.review.view import ReviewView
from tests.services.test_stability_service import _build


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "st.sqlite")
    _build(db, tmp_path)  # humans ada and bob; llm in the model source "gpt"
    yield db
    db.dispose()


def _by_key(report: Any) -> dict[tuple[str, str], float]:
    return {
        (report.query_of(g), report.run_of(g)): float(report.table.ndcg[g])
        for g in range(len(report))
    }


def _shown(view: ReviewView) -> dict[tuple[str, str], float]:
    rows = view.model.rows
    return {
        (str(q), str(r)): float(v) for q, r, v in zip(rows.query, rows.run, rows.ndcg, strict=True)
    }


def test_source_filter_scores_against_the_source(
    qtbot: Any, qapp: Any, small: Database, qsettings: QSettings
) -> None:
    ctx = AppContext(qsettings)
    ctx.set_database(small, None, dispose_previous=False)
    view = ReviewView(ctx)
    qtbot.addWidget(view)
    view.resize(1024, 700)
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.show()
    combo = view.source_filter
    assert combo.isVisible() and "consensus rule" in combo.toolTip()
    assert [combo.itemData(i) for i in range(combo.count())] == [None, "humans", "gpt"]
    settings = view.data.report.settings  # type: ignore[union-attr]
    everyone = _by_key(ScoringService(small).score(settings))
    assert _shown(view) == pytest.approx(everyone, nan_ok=True)
    for source in ("gpt", "humans"):
        with qtbot.waitSignal(view.data_loaded, timeout=20_000):
            combo.setCurrentIndex(combo.findData(source))
        want = _by_key(StabilityService(small).score_source(source, settings))
        assert _shown(view) == pytest.approx(want, nan_ok=True)
        assert view.data is not None and view.data.source == source
        assert f"grades of source {source} only" in view.settings_line.text()
        assert combo.currentData() == source  # kept across the reload
    # the model's grades differ from the consensus somewhere: the filter changes numbers
    gpt = _by_key(StabilityService(small).score_source("gpt", settings))
    assert any(not np.isclose(gpt[key], everyone[key]) for key in gpt)
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        combo.setCurrentIndex(0)
    assert _shown(view) == pytest.approx(everyone, nan_ok=True)
    assert "grades of source" not in view.settings_line.text()


def test_no_source_no_filter(qtbot: Any, context: Any) -> None:
    view = ReviewView(context)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.show()
    assert not view.source_filter.isVisible()
