"""Review's estimate line: each run's prediction-powered interval from the machine source,
with the service's numbers; hidden without one; on the latest ``ppi`` campaign's draw when there
is one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from ndcg_studio.services.screens.estimate import screen_estimate
from ndcg_studio.storage.database import Database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.review.view import ReviewView
from tests.services.test_screen_estimate import N_QUERIES, build, ppi_campaign

K = 3


def open_view(qtbot: Any, db: Database, qsettings: QSettings) -> ReviewView:
    ctx = AppContext(qsettings)
    ctx.set_database(db, None, dispose_previous=False)
    ctx.set_setting(S.K, K)
    view = ReviewView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    with qtbot.waitSignal(view.data_loaded, timeout=30_000):
        view.show()
    qtbot.waitUntil(lambda: not view.is_loading(), timeout=30_000)
    return view


def test_each_runs_interval_from_the_machine_source(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    db = build(tmp_path, 14)
    try:
        view = open_view(qtbot, db, qsettings)
        report = screen_estimate(db, "", K).report
        line = view.estimate_line
        assert line.isVisible()
        assert report is not None
        text = line.text()
        assert text.startswith(
            f"Estimate with a machine judge (machine source bot, κ {report.kappa_linear:.2f} with "
            f"the humans), 95 % intervals from 14 human-judged queries and machine grades on "
            f"{N_QUERIES}: "
        ), text
        for run, e in report.runs:
            assert f"{run} {e.estimate:.3f} [{e.low:.3f}, {e.high:.3f}]" in text, text
    finally:
        db.dispose()


def test_hidden_without_human_grades(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    db = build(tmp_path, 0, with_humans=False)
    try:
        view = open_view(qtbot, db, qsettings)
        assert not view.estimate_line.isVisible()
    finally:
        db.dispose()


def test_the_latest_ppi_campaigns_draw_is_the_sample(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    db = build(tmp_path, 0)
    try:
        ppi_campaign(db, "first", 5, judged=False)
        drawn = screen_estimate(db, "bot", K).draw
        view = open_view(qtbot, db, qsettings)
        waiting = view.estimate_line.text()
        view.close()
        ppi_campaign(db, "second", 6, judged=True)
        view = open_view(qtbot, db, qsettings)
        text = view.estimate_line.text()
        report = screen_estimate(db, "bot", K).report
    finally:
        db.dispose()
    assert drawn is not None
    assert waiting == (
        f"Estimate with machine source bot: not yet decided — campaign first drew {drawn.drawn} "
        "queries for the humans, 0 judged whole; the estimate waits for all of them"
    ), waiting
    assert report is not None
    assert text.endswith(
        "\nHuman sample: the queries campaign second drew in the ppi order, each weighted by 1/π."
    ), text
    assert f"from {report.n_human} human-judged queries and machine grades on {N_QUERIES}" in text
    for run, e in report.runs:
        assert f"{run} {e.estimate:.3f} [{e.low:.3f}, {e.high:.3f}]" in text, text
