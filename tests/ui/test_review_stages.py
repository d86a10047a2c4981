"""The Review view in two stages: the headline means are shown before their intervals arrive,
and the second stage (intervals, alpha / disputed / spread columns) scores from the first
stage's data instead of reading the database again."""

from __future__ import annotations

import math
import threading
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.services.agreement import AgreementService
from ndcg_studio.services.scoring import service as scoring
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.storage.database import Database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models import scores as M
from ndcg_studio.ui.views.review import view as review_module
from ndcg_studio.ui.views.review.view import ReviewView
from tests.ui.test_review_view import trec_db  # noqa: F401  (the fixture)


@pytest.fixture
def context(qapp: Any, trec_db: Database, qsettings: QSettings) -> AppContext:  # noqa: F811
    ctx = AppContext(qsettings)
    ctx.set_database(trec_db, None, dispose_previous=False)
    return ctx


def test_the_means_show_before_their_intervals(
    qtbot: Any, context: AppContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def held_summarize(report: Any, **kwargs: Any) -> Any:
        if kwargs.get("intervals", True):
            assert release.wait(10)  # the intervals wait until the test has looked
        return scoring.summarize(report, **kwargs)

    monkeypatch.setattr(review_module, "summarize", held_summarize)
    view = ReviewView(context)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.rows_shown, timeout=10_000):
        view.show()
    model = view.summary_model
    try:
        assert model.rowCount() == 2 and view.is_loading() and view.status.text()
        for row in range(model.rowCount()):
            mean = model.summaries[row].ndcg.mean
            if not math.isnan(mean):  # the headline number is there
                assert model.data(model.index(row, 1)) == f"{mean:.4f}"
            assert model.data(model.index(row, 2)) == "…"  # the interval is on its way
        assert any(not math.isnan(s.ndcg.mean) for s in model.summaries)
        assert view.model.rows.text_key is None  # the text keys come with the intervals
        means = [s.ndcg.mean for s in model.summaries]
    finally:
        release.set()
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        pass
    assert not view.is_loading() and view.status.text() == ""
    assert [s.ndcg.mean for s in model.summaries] == means
    judged = [r for r in range(model.rowCount()) if model.summaries[r].ndcg.n > 1]
    assert judged and all("–" in model.data(model.index(r, 2)) for r in judged)
    assert view.data is not None and view.data.intervals and view.data.complete
    assert view.data.scoring is None  # the first stage's data let go once complete
    assert view.model.rows.text_key is not None and view.model.rows.haystack is not None


def test_the_second_stage_does_not_read_or_score_again(
    qtbot: Any, context: AppContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []
    original_load = ScoringService.load

    def counted_load(self: ScoringService, *args: Any, **kwargs: Any) -> Any:
        loads.append(threading.current_thread().name)
        return original_load(self, *args, **kwargs)

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the agreement columns read the judgments again")

    monkeypatch.setattr(ScoringService, "load", counted_load)
    monkeypatch.setattr(AgreementService, "query_overview", refuse)
    view = ReviewView(context)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.show()
    assert len(loads) == 1  # the first stage's load only
    rows = view.model.rows
    assert rows.spread is not None  # two annotators (nist, ada): the spread came
    assert (rows.n_disputed > 0).any()  # ada's disputed document of query 303
    column = view.model.data(view.model.index(0, M.COL_ALPHA))
    assert column is not None
