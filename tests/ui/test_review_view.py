"""The Review view on trec_eval's test data: bands, NaN sorting, filters, the detail window,
rescoring when a setting changes."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt

from ndcg_studio.domain.bands import NO_BAND, Band
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.bands import BAND_CODE_ROLE
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models import scores as M
from ndcg_studio.ui.models.table import SORT_ROLE
from ndcg_studio.ui.views.review.view import ReviewView

TREC = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


def expected(measure: str) -> dict[str, float]:
    out = {}
    for line in (TREC / "out.test.aql").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == measure:
            out[parts[1]] = float(parts[2])
    return out


@pytest.fixture
def trec_db(tmp_path: Path) -> Iterator[Database]:
    """results.test (run STANDARD) and qrels.rel_level (annotator nist); a run EXTRA that only
    answers query 999, which nobody judged (nDCG NaN); annotator ada disagrees with nist on one
    document of query 303 (by 3 grades: disputed)."""
    db = open_database(tmp_path / "trec.sqlite")
    imp = ImportService(db)
    imp.import_run(TREC / "results.test")
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist", grade_map={-1: 0})
    extra = tmp_path / "extra.run"
    extra.write_text("999 Q0 FBIS3-10204 1 3.0 EXTRA\n999 Q0 FBIS3-10609 2 2.0 EXTRA\n")
    imp.import_run(extra)
    qrels = [line.split() for line in (TREC / "qrels.rel_level").read_text().splitlines()]
    doc, grade = next((d, int(g)) for q, _, d, g in qrels if q == "303" and int(g) >= 1)
    (tmp_path / "ada.csv").write_text(
        f"query_id,doc_id,annotator,grade\n303,{doc},ada,{4 if grade < 2 else 0}\n"
    )
    imp.import_judgments(tmp_path / "ada.csv")
    yield db
    db.dispose()


@pytest.fixture
def review_context(qapp: Any, trec_db: Database, qsettings: QSettings) -> AppContext:
    ctx = AppContext(qsettings)
    ctx.set_database(trec_db, None, dispose_previous=False)
    return ctx


@pytest.fixture
def view(qtbot: Any, review_context: AppContext) -> ReviewView:
    v = ReviewView(review_context)
    qtbot.addWidget(v)
    v.resize(1280, 800)
    with qtbot.waitSignal(v.data_loaded, timeout=10_000):
        v.show()  # a shown view loads by itself
    return v


def row_of(view: ReviewView, query: str, run: str = "STANDARD") -> int:
    m = view.model
    for r in range(m.rowCount()):
        if m.index(r, M.COL_QUERY).data() == query and m.index(r, M.COL_RUN).data() == run:
            return r
    raise LookupError((query, run))


def shown(view: ReviewView, col: int = M.COL_QUERY) -> list[Any]:
    m = view.model
    return [m.index(r, col).data() for r in range(m.rowCount())]


def test_table_shows_band_of_query_302(view: ReviewView) -> None:
    r = row_of(view, "302")
    m = view.model
    assert m.index(r, M.COL_NDCG).data() == "0.7530"  # trec_eval ndcg_cut_10 of 302
    assert m.index(r, M.COL_NDCG).data(SORT_ROLE) == pytest.approx(
        expected("ndcg_cut_10")["302"], abs=1e-4
    )
    assert m.index(r, M.COL_BAND).data(BAND_CODE_ROLE) == Band.FAIR
    assert m.index(r, M.COL_BAND).data() == "Fair"
    assert m.index(r, M.COL_ANNOTATORS).data() == "1"
    assert m.headerData(M.COL_NDCG, Qt.Orientation.Horizontal) == "nDCG@10"
    # every row = every run × every query with a result or a judgment
    assert m.source_count() == 2 * 4


def test_summary_reports_means_intervals_and_coverage(view: ReviewView) -> None:
    summaries = {s.run: s for s in view.summary_model.summaries}
    standard = summaries["STANDARD"]
    assert standard.ndcg.mean == pytest.approx(expected("ndcg_cut_10")["all"], abs=1e-4)
    assert standard.ndcg.low <= standard.ndcg.mean <= standard.ndcg.high
    assert standard.n_queries == 3 and standard.n_without_judgments == 1  # query 999
    assert summaries["EXTRA"].n_missing_from_run == 3  # judged, not returned: scored 0
    assert view.summary_model.index(0, 0).data() == "EXTRA"
    note = view.summary_note.text()
    assert "1 without judgments" in note and "3 not returned" in note
    assert not view.band_chart.is_empty() and not view.histogram.is_empty()


@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
def test_sorting_by_ndcg_puts_nan_last(view: ReviewView, order: Qt.SortOrder) -> None:
    view.table.sortByColumn(M.COL_NDCG, order)
    values = [view.model.index(r, M.COL_NDCG).data(SORT_ROLE) for r in range(8)]
    assert [math.isnan(v) for v in values] == [False] * 6 + [True] * 2
    finite = values[:6]
    assert finite == sorted(finite, reverse=order == Qt.SortOrder.DescendingOrder)
    assert shown(view)[-2:] == ["999", "999"]
    assert shown(view, M.COL_NDCG)[-1] == ""  # NaN shows empty …
    assert view.model.index(7, M.COL_BAND).data(BAND_CODE_ROLE) == NO_BAND  # … with no band


def test_clicking_the_header_sorts(qtbot: Any, view: ReviewView) -> None:
    header = view.table.horizontalHeader()
    x = header.sectionViewportPosition(M.COL_QUERY) + 5
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    first = shown(view)
    assert first in (sorted(first, key=int), sorted(first, key=int, reverse=True))
    assert view.model.sort_column == M.COL_QUERY


def test_filters(view: ReviewView) -> None:
    view.band_filter.setCurrentIndex(view.band_filter.findData(int(Band.FAIR)))
    assert shown(view) == ["302"]
    view.band_filter.setCurrentIndex(view.band_filter.findData(NO_BAND))
    assert shown(view) == ["999", "999"]
    view.band_filter.setCurrentIndex(0)
    view.run_filter.setCurrentIndex(view.run_filter.findData("STANDARD"))
    assert sorted(shown(view)) == ["301", "302", "303", "999"]
    view.search.setText("30")
    assert sorted(shown(view)) == ["301", "302", "303"]
    view.search.setText("")
    view.disputed_only.setChecked(True)
    assert shown(view) == ["303"]  # ada and nist differ by 3 on one of its documents
    assert view.model.index(0, M.COL_DISPUTED).data() == "1"
    view.disputed_only.setChecked(False)
    view.run_filter.setCurrentIndex(0)
    view.low_coverage.setChecked(True)
    view.coverage.setValue(80)
    coverage = [
        view.model.index(r, M.COL_JUDGED).data(SORT_ROLE) for r in range(view.model.rowCount())
    ]
    assert coverage and all(c < 0.8 for c in coverage)
    report = view.data.report  # type: ignore[union-attr]
    assert len(coverage) == int((report.table.judged_at_k < 0.8).sum())
    assert view.shown.text() == f"{len(coverage)} of 8 rows"


def test_double_click_opens_the_detail_with_the_right_dcg(qtbot: Any, view: ReviewView) -> None:
    r = row_of(view, "302")
    rect = view.table.visualRect(view.model.index(r, M.COL_NDCG))
    # a real double-click: press/release, then the double-click event
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    dialog = view.detail_dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.view.breakdown is not None, timeout=10_000)
    qtbot.addWidget(dialog)
    report = view.data.report  # type: ignore[union-attr]
    g = int(report.for_run("STANDARD")[report.query_external.index("302")])
    bd = dialog.view.breakdown.breakdown  # type: ignore[union-attr]
    assert bd.dcg == pytest.approx(float(report.table.dcg[g]))
    assert bd.idcg == pytest.approx(float(report.table.idcg[g]))
    text = dialog.view.totals_text()
    assert f"DCG@10 = {report.table.dcg[g]:.4f}" in text
    assert f"IDCG@10 = {report.table.idcg[g]:.4f}" in text
    assert text.endswith("= 0.7530")


def test_enter_opens_the_detail(qtbot: Any, view: ReviewView) -> None:
    r = row_of(view, "301")
    view.table.setCurrentIndex(view.model.index(r, M.COL_QUERY))
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    dialog = view.detail_dialog
    assert dialog is not None
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.view.breakdown is not None, timeout=10_000)
    assert dialog.view.breakdown.query == "301"  # type: ignore[union-attr]


def test_changing_k_rescores(qtbot: Any, view: ReviewView, review_context: AppContext) -> None:
    dialog = view.open_settings()
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        dialog.panel.k.setValue(5)
    assert review_context.k == 5
    assert view.model.headerData(M.COL_NDCG, Qt.Orientation.Horizontal) == "nDCG@5"
    r = row_of(view, "302")
    assert view.model.index(r, M.COL_NDCG).data(SORT_ROLE) == pytest.approx(
        expected("ndcg_cut_5")["302"], abs=1e-4
    )
    assert "nDCG@5" in view.settings_line.text()


def test_changing_band_thresholds_rebands(
    qtbot: Any, view: ReviewView, review_context: AppContext
) -> None:
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        review_context.set_setting(S.BAND_FAIR, 0.76)  # 0.7530 drops to poor
    r = row_of(view, "302")
    assert view.model.index(r, M.COL_BAND).data() == "Poor"


def test_new_judgments_rescore(
    qtbot: Any, view: ReviewView, review_context: AppContext, trec_db: Database
) -> None:
    before = view.data
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        review_context.notify_judgments_changed(None)
    assert view.data is not before
    expected_table = ScoringService(trec_db).score(ScoringSettings()).table
    np.testing.assert_allclose(view.data.report.table.ndcg, expected_table.ndcg)  # type: ignore[union-attr]


def test_models_pass_qtmodeltester(qtmodeltester: Any, view: ReviewView) -> None:
    qtmodeltester.check(view.model, force_py=False)
    qtmodeltester.check(view.summary_model, force_py=False)


def test_without_database_shows_a_message(qtbot: Any, qapp: Any, qsettings: QSettings) -> None:
    ctx = AppContext(qsettings)
    v = ReviewView(ctx)
    qtbot.addWidget(v)
    v.show()
    assert v.reload() is None
    assert v.pages.currentIndex() == 0 and "No database" in v.empty.text()


def test_a_new_load_cancels_the_running_one(qtbot: Any, view: ReviewView) -> None:
    first = view.reload()
    second = view.reload()
    assert first is not None and second is not None
    assert first.is_cancelled() and not second.is_cancelled()
    loaded: list[object] = []
    view.data_loaded.connect(lambda: loaded.append(view.data))
    # every stage of the second load (its intervals and agreement columns follow the scores)
    qtbot.waitUntil(lambda: first.done and second.done and not view.is_loading(), timeout=10_000)
    qtbot.wait(50)
    assert len(loaded) == 1  # the cancelled load delivered nothing
