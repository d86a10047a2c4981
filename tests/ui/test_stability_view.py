"""The Stability tab shows the service's report: the tau matrix, the flips, the sentence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt

from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.service import StabilityService
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models.stability import MeansTableModel, PairsTableModel, TauMatrixModel
from ndcg_studio.ui.views.stability import StabilityView
from tests.services.test_stability_service import _build


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "st.sqlite")
    _build(db, tmp_path)
    yield db
    db.dispose()


def test_models_pass_the_tester(qapp: Any, qtmodeltester: Any, small: Database) -> None:
    report = StabilityService(small).stability("consensus", ScoringSettings(k=3), n_resamples=200)
    matrix, pairs, means = TauMatrixModel(), PairsTableModel(), MeansTableModel()
    for model in (matrix, pairs, means):
        model.set_report(report)
        qtmodeltester.check(model)
    n = len(report.result.sets)
    assert (matrix.rowCount(), matrix.columnCount()) == (n, n)
    tau = report.result.tau_matrix()
    tau_ap = report.result.tau_matrix("tau_ap")
    for i in range(n):
        for j in range(n):
            expected = 1.0 if i == j else tau[i, j] if i < j else tau_ap[i, j]
            assert matrix.value(i, j) == pytest.approx(expected, nan_ok=True)
    assert pairs.rowCount() == n * (n - 1) // 2
    assert pairs.rows == list(report.rows())
    pairs.sort(2, Qt.SortOrder.AscendingOrder)
    qtmodeltester.check(pairs)
    assert means.rowCount() == 3 and means.columnCount() == n + 1
    means.sort(1, Qt.SortOrder.DescendingOrder)
    top = means.data(means.index(0, 1))
    assert top.endswith("(#1)")
    for model in (matrix, pairs, means):
        model.set_report(None)
        assert model.rowCount() == 0


def test_view_shows_the_sentence_of_the_service(
    qtbot: Any, qapp: Any, small: Database, qsettings: QSettings
) -> None:
    ctx = AppContext(qsettings)
    ctx.set_database(small, None, dispose_previous=False)
    view = StabilityView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    with qtbot.waitSignal(view.shown_report, timeout=20_000):
        view.show()
    assert view.report is not None and view.report.by == "annotator"
    assert view.coverage.isVisible()
    with qtbot.waitSignal(view.shown_report, timeout=20_000):
        view.set_by("source")
    assert not view.coverage.isVisible()
    report = view.report
    assert report is not None and report.by == "source"
    view.run_a.setCurrentText("alpha")
    view.run_b.setCurrentText("gamma")
    assert report.result.sentence("alpha", "gamma") in view.sentence.text()
    assert "humans</b> vs <b>gpt" in view.agreement.text()
    assert view.pairs_model.rowCount() == 1
    view.run_b.setCurrentText("alpha")
    assert view.sentence.text() == "Pick two different runs."
    view.save_state()


def test_review_spread_column_sorts_queries_by_who_judged(
    qapp: Any, qtmodeltester: Any, small: Database
) -> None:
    from ndcg_studio.services.screens.review import load_review
    from ndcg_studio.ui.models import scores as M
    from ndcg_studio.ui.models.table import SORT_ROLE

    settings = ScoringSettings(k=3)
    data = load_review(small, settings)
    expected = StabilityService(small).spread(settings)
    assert data.rows.spread is not None
    assert data.rows.spread.tolist() == pytest.approx(expected.spread.tolist(), nan_ok=True)
    model = M.ScoresTableModel()
    model.set_rows(data.rows)
    qtmodeltester.check(model)
    assert model.headerData(M.COL_SPREAD, Qt.Orientation.Horizontal) == "Spread"
    model.sort(M.COL_SPREAD, Qt.SortOrder.DescendingOrder)
    shown = [model.data(model.index(r, M.COL_SPREAD), SORT_ROLE) for r in range(3)]
    assert shown == sorted(shown, reverse=True)
    assert shown[0] == pytest.approx(float(np.nanmax(expected.spread)))
    assert model.data(model.index(0, M.COL_SPREAD)) == f"{shown[0]:.4f}"


def test_query_detail_shows_the_per_annotator_ndcg(
    qtbot: Any, qapp: Any, small: Database, qsettings: QSettings
) -> None:
    from ndcg_studio.ui.views.query_detail import QueryDetailView, by_annotator_text

    ctx = AppContext(qsettings)
    ctx.set_database(small, None, dispose_previous=False)
    view = QueryDetailView(ctx)
    qtbot.addWidget(view)
    view.show()
    settings = ScoringSettings(k=3)
    task = view.load("1", "gamma", settings)
    assert task is not None
    qtbot.waitUntil(lambda: bool(view.by_annotator.text()), timeout=20_000)
    values = StabilityService(small).query_spread("1", "gamma", settings)
    assert set(values) == {"ada", "bob", "llm", "source:humans", "source:gpt"}
    text = view.by_annotator.text()
    assert text == by_annotator_text(values, 3)
    assert text.startswith("nDCG@3 by annotator: ada ") and "source gpt " in text
    spread = max(values.values()) - min(values.values())
    assert text.endswith(f"spread {spread:.4f}")
    assert by_annotator_text({"ada": 0.5}, 3) == ""
    qtbot.waitUntil(lambda: not view.status.text(), timeout=20_000)


def test_agreement_disputed_list_filters_by_source_pair(
    qtbot: Any, qapp: Any, qtmodeltester: Any, small: Database, qsettings: QSettings
) -> None:
    """The correction queue: items where two sources differ by 2+ grades, in the disputed
    list (adjudicable there), chosen by source pair."""
    from ndcg_studio.services.annotation.service import AnnotationService
    from ndcg_studio.ui.views.agreement.view import AgreementView

    ctx = AppContext(qsettings)
    lead = AnnotationService(small).ensure_annotator("lead")
    ctx.set_database(small, lead, dispose_previous=False)
    view = AgreementView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.show()
    assert view.source_pair.isVisible()
    assert view.source_pair.itemText(1) == "Sources humans vs gpt"
    all_items = view.disputed_model.rowCount()
    view.set_source_pair(("humans", "gpt"))
    queue = StabilityService(small).source_disputes("humans", "gpt")
    rows = view.disputed_model.rows
    assert len(rows) == len(queue) > 0
    assert sorted(zip(rows.query.tolist(), rows.document.tolist(), strict=True)) == sorted(
        (i.query_external, i.doc_external) for i in queue
    )
    assert "humans and gpt differ by 2 grades or more" in view.disputed_box.title()
    qtmodeltester.check(view.disputed_model)
    item = view.selected_item()
    assert item is not None
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.adjudicate(2)
    assert view.source_pair_key() == ("humans", "gpt")  # kept across the reload
    assert 2 in view.disputed_model.rows.adjudicated.tolist()
    view.set_source_pair(None)
    assert view.disputed_model.rowCount() == all_items


def test_file_import_marks_a_model_source(
    qtbot: Any, main_window: Any, ui_data: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """File ▸ Import… of judgments asks whose they are; a model's become a source."""
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    from ndcg_studio.ui.window import transfer
    from ndcg_studio.ui.window.transfer import IMPORT_KINDS

    f = tmp_path / "judge.csv"
    f.write_text("query_id,doc_id,annotator,grade,explanation\nq1,d1,judge,3,on topic\n")
    answers = iter([IMPORT_KINDS["judgments"][0], "A model's (LLM) judgments"])
    monkeypatch.setattr(transfer, "ask_item", lambda *a, **k: (next(answers), True))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("gpt-x", True))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(f), ""))
    main_window.import_file()
    service = StabilityService(ui_data.db)
    qtbot.waitUntil(lambda: bool(service.sources()), timeout=10_000)
    (source,) = service.sources()
    assert (source.name, source.kind, source.annotators) == ("gpt-x", "model", ("judge",))
