"""Compare's "Estimate with a machine judge": the pair's sentence and each run's interval carry
the service's numbers, in English and in Russian; not decided (no interval) with too few
human-judged queries; hidden without human grades; on a ``ppi`` campaign's draw, its active
estimate, and how far its draw is until then."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.domain.estimation.ppi import MIN_HUMAN_QUERIES
from ndcg_studio.services.estimation.sentence import pair_sentence
from ndcg_studio.services.screens.estimate import screen_estimate
from ndcg_studio.storage.database import Database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import apply_language
from ndcg_studio.ui.views.compare.view import CompareView
from tests.services.test_screen_estimate import N_QUERIES, build, ppi_campaign

K = 3


def open_view(qtbot: Any, db: Database, qsettings: QSettings) -> CompareView:
    ctx = AppContext(qsettings)
    ctx.set_database(db, None, dispose_previous=False)
    ctx.set_setting(S.K, K)
    view = CompareView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    with qtbot.waitSignal(view.estimate.settled, timeout=30_000):
        view.show()
    qtbot.waitUntil(lambda: not view.is_loading(), timeout=30_000)
    return view


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = build(tmp_path, 14)
    yield database
    database.dispose()


def _numbers(db: Database) -> tuple[Any, Any]:
    report = screen_estimate(db, "", K, ("a", "b")).report
    assert report is not None
    return report, report.pairs[0].estimate


def test_the_sentence_carries_the_services_numbers(
    qtbot: Any, qapp: Any, db: Database, qsettings: QSettings
) -> None:
    view = open_view(qtbot, db, qsettings)
    panel = view.estimate
    assert panel.isVisible() and panel.source.currentText() == "bot"
    report, e = _numbers(db)
    text = panel.sentence.text()
    assert f"95 % interval [{e.low:.3f}, {e.high:.3f}]" in text, text
    assert f"from 14 human-judged queries and machine grades on {N_QUERIES}" in text, text
    assert f"(machine source bot, κ {report.kappa_linear:.2f} with the humans)" in text, text
    assert re.match(r"(a better than b|b better than a|a vs b: not yet decided) — ", text), text
    p = report.pairs[0]  # in English, the CLI's sentence word for word
    assert text == pair_sentence(p.a, p.b, p.verdict, e, "bot", report.kappa_linear)
    runs = dict(report.runs)
    assert panel.runs.text() == (
        f"A a {runs['a'].estimate:.3f} [{runs['a'].low:.3f}, {runs['a'].high:.3f}] · "
        f"B b {runs['b'].estimate:.3f} [{runs['b'].low:.3f}, {runs['b'].high:.3f}]"
    )
    assert "uniform sample" in panel.sentence.toolTip()


def test_the_sentence_in_russian(qtbot: Any, qapp: Any, db: Database, qsettings: QSettings) -> None:
    undo = apply_language("ru")
    try:
        view = open_view(qtbot, db, qsettings)
        text = view.estimate.sentence.text()
        tooltip = view.estimate.sentence.toolTip()
    finally:
        undo()
    report, e = _numbers(db)
    assert f"[{e.low:.3f}, {e.high:.3f}]" in text, text
    assert "интервал" in text and "bot" in text, text
    assert f"{report.kappa_linear:.2f}" in text, text
    # no English word left but the runs' and the source's names
    assert re.findall(r"\b(?!bot\b)[A-Za-z]{3,}\b", text) == [], text
    assert "равномерн" in tooltip, tooltip


def test_too_few_human_queries_are_not_decided(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    few = build(tmp_path, MIN_HUMAN_QUERIES - 2)
    try:
        view = open_view(qtbot, few, qsettings)
        text, runs = view.estimate.sentence.text(), view.estimate.runs.text()
    finally:
        few.dispose()
    assert text.startswith(
        "a vs b: not yet decided — too few human-judged queries for the normal approximation "
        f"({MIN_HUMAN_QUERIES - 2} < {MIN_HUMAN_QUERIES})"
    ), text
    assert "[" not in text and runs == ""


def test_hidden_without_human_grades(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    machine_only = build(tmp_path, 0, with_humans=False)
    try:
        view = open_view(qtbot, machine_only, qsettings)
        assert not view.estimate.isVisible()
    finally:
        machine_only.dispose()


def test_a_ppi_campaign_of_the_pair_gives_its_active_estimate(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    db = build(tmp_path, 0)
    try:
        ppi_campaign(db, "first", 5, judged=False)
        waiting = screen_estimate(db, "bot", K, ("a", "b")).draw
        view = open_view(qtbot, db, qsettings)
        text = view.estimate.sentence.text()
        assert waiting is not None
        assert text == (
            f"a vs b: not yet decided — campaign first drew {waiting.drawn} queries for the "
            "humans, 0 judged whole; the estimate waits for all of them (machine source bot)"
        ), text
        assert view.estimate.runs.text() == ""
        assert "ppi order" in view.estimate.sentence.toolTip()
        view.close()
        ppi_campaign(db, "second", 6, judged=True)
        view = open_view(qtbot, db, qsettings)
        text = view.estimate.sentence.text()
        shown = screen_estimate(db, "bot", K, ("a", "b"))
    finally:
        db.dispose()
    report = shown.report
    assert report is not None and shown.campaign == "second"
    p = report.pairs[0]
    e = p.estimate
    sentence = pair_sentence(p.a, p.b, p.verdict, e, "bot", report.kappa_linear)
    assert text == (
        f"{sentence}\nHuman sample: the queries campaign second drew in the ppi order, each "
        "weighted by 1/π."
    ), text
    assert f"from {report.n_human} human-judged queries and machine grades on {N_QUERIES}" in text
