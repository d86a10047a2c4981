"""The Query detail: totals, the sentence saying how nDCG was computed, the tables and chart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCharts import QLineSeries
from PySide6.QtCore import QSettings

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.query_detail import QueryDetailView

TREC = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


@pytest.fixture
def trec_db(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "trec.sqlite")
    imp = ImportService(db)
    imp.import_run(TREC / "results.test")
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist", grade_map={-1: 0})
    yield db
    db.dispose()


@pytest.fixture
def detail(qtbot: Any, trec_db: Database, qsettings: QSettings) -> QueryDetailView:
    ctx = AppContext(qsettings)
    ctx.set_database(trec_db, None, dispose_previous=False)
    view = QueryDetailView(ctx)
    qtbot.addWidget(view)
    view.resize(1200, 760)
    view.show()
    return view


def test_totals_and_explanation(detail: QueryDetailView, trec_db: Database) -> None:
    qb = ScoringService(trec_db).breakdown("302", "STANDARD", ScoringSettings(k=10))
    detail.set_breakdown(qb, "tonnage of oil spills")
    bd = qb.breakdown
    text = detail.totals_text()
    assert text.startswith(f"DCG@10 = {bd.dcg:.4f}")
    assert f"IDCG@10 = {bd.idcg:.4f}" in text
    assert text.endswith(f"{bd.dcg:.4f} / {bd.idcg:.4f} = 0.7530")
    how = detail.how.text()
    for phrase in (
        "nDCG@10 = DCG@10 / IDCG@10",
        "gain = grade",
        "1/log2(rank + 1)",
        "IDCG from all judged documents",
        "score descending",
        "unjudged documents gain 0",
    ):
        assert phrase in how
    assert detail.band_chip.text() == "Fair"
    assert detail.query_text.text() == "tonnage of oil spills"
    assert detail.run_model.rowCount() == 10
    assert detail.ideal_model.rowCount() == len(bd.ideal_rank)
    assert "Query 302" in detail.title.text() and "STANDARD" in detail.title.text()


def test_chart_plots_the_cumulative_curves(detail: QueryDetailView, trec_db: Database) -> None:
    qb = ScoringService(trec_db).breakdown("302", "STANDARD", ScoringSettings(k=10))
    detail.set_breakdown(qb)
    series = [s for s in detail.chart.chart().series() if isinstance(s, QLineSeries)]
    assert [s.name() for s in series] == ["ideal (IDCG)", "STANDARD (DCG)"]
    run_y = [p.y() for p in series[1].points()]
    ideal_y = [p.y() for p in series[0].points()]
    np.testing.assert_allclose(run_y, qb.breakdown.cumulative_dcg)
    np.testing.assert_allclose(
        ideal_y[: len(qb.breakdown.ideal_cumulative_dcg)], qb.breakdown.ideal_cumulative_dcg
    )


def test_exponential_gain_is_stated(detail: QueryDetailView, trec_db: Database) -> None:
    settings = ScoringSettings(k=5, gain="exponential", ideal="list")
    qb = ScoringService(trec_db).breakdown("302", "STANDARD", settings)
    detail.set_breakdown(qb)
    how = detail.how.text()
    assert "gain = 2^grade − 1" in how and "IDCG from the documents the run returned" in how
    assert "nDCG@5" in detail.totals_text()
    gains = qb.breakdown.gain
    grades = qb.breakdown.grade
    judged = ~np.isnan(grades)
    np.testing.assert_allclose(gains[judged], 2.0 ** grades[judged] - 1)


def test_load_runs_in_a_worker(qtbot: Any, detail: QueryDetailView, trec_db: Database) -> None:
    task = detail.load("301", "STANDARD", ScoringSettings(k=20))
    assert task is not None
    qtbot.waitUntil(lambda: detail.breakdown is not None, timeout=10_000)
    expected = ScoringService(trec_db).score(ScoringSettings(k=20))
    g = expected.query_external.index("301")
    assert detail.breakdown.breakdown.ndcg == pytest.approx(float(expected.table.ndcg[g]))  # type: ignore[union-attr]
    assert detail.run_model.rowCount() == 20


def test_unknown_query_reports_the_error(qtbot: Any, detail: QueryDetailView) -> None:
    detail.load("no-such-query", "STANDARD")
    qtbot.waitUntil(lambda: "Could not compute" in detail.status.text(), timeout=10_000)
    assert "no-such-query" in detail.status.text()
