"""Agreement models against the AgreementReport they display (and the service's own disputed
list as the reference for the vectorised one)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from ndcg_studio.services.agreement import AgreementReport, AgreementService
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.screens.agreement import DisputedRows
from ndcg_studio.services.screens.sort_keys import dense_ranks, natural_key
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.models.agreement import (
    COL_D_DOC,
    COL_D_FINAL,
    COL_D_QUERY,
    DisputedItemsModel,
    HistoryModel,
    ItemGradesModel,
    LeaveOneOutModel,
    PairwiseKappaModel,
    PerQueryAlphaModel,
    kappa_color,
    text_color_on,
)
from ndcg_studio.ui.models.table import SORT_ROLE

# (query, doc) -> grades of ann, bob, cy ('' = not graded); cy is the outlier
GRADES = {
    ("q1", "d1"): (4, 4, 0),
    ("q1", "d2"): (3, 3, 1),
    ("q1", "d3"): (0, 1, 4),
    ("q1", "d4"): (2, 2, ""),
    ("q2", "d1"): (1, 1, 1),
    ("q2", "d5"): (0, 2, 0),
    ("q2", "d6"): (4, 3, 3),
    ("q10", "d7"): (2, "", ""),
}
ANNOTATORS = ("ann", "bob", "cy")


@pytest.fixture
def judged_db(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "agree.sqlite")
    lines = ["query_id,doc_id,annotator,grade"]
    for (q, d), grades in GRADES.items():
        lines += [f"{q},{d},{a},{g}" for a, g in zip(ANNOTATORS, grades, strict=True) if g != ""]
    (tmp_path / "j.csv").write_text("\n".join(lines) + "\n")
    ImportService(db).import_judgments(tmp_path / "j.csv")
    yield db
    db.dispose()


@pytest.fixture
def report(judged_db: Database) -> AgreementReport:
    return AgreementService(judged_db).report()


def test_models_pass_qtmodeltester(qtmodeltester: Any, qapp: Any, report: AgreementReport) -> None:
    models: list[Any] = [
        PairwiseKappaModel(),
        LeaveOneOutModel(),
        PerQueryAlphaModel(),
    ]
    for m in models:
        qtmodeltester.check(m, force_py=False)
        m.set_report(report)
        qtmodeltester.check(m, force_py=False)
    disputed = DisputedItemsModel()
    qtmodeltester.check(disputed, force_py=False)
    disputed.set_rows(DisputedRows.from_report(report))
    qtmodeltester.check(disputed, force_py=False)
    grades = ItemGradesModel()
    grades.set_grades({"ann": 4.0, "bob": 0.0}, 2.0)
    qtmodeltester.check(grades, force_py=False)
    qtmodeltester.check(HistoryModel(), force_py=False)


def test_kappa_matrix_is_the_pairwise_table(qapp: Any, report: AgreementReport) -> None:
    model = PairwiseKappaModel()
    pw = report.summary.pairwise
    for kind in ("kappa", "kappa_linear", "kappa_quadratic"):
        model.set_report(report, kind)  # type: ignore[arg-type]
        for i in range(len(pw.n_shared)):
            a, b = int(pw.annotator_a[i]), int(pw.annotator_b[i])
            expected = float(getattr(pw, kind)[i])
            assert model.value(a, b) == pytest.approx(expected)
            assert model.value(b, a) == pytest.approx(expected)
            text = model.index(a, b).data()
            assert text.startswith(f"{expected:.2f}") and f"{int(pw.n_shared[i]):,} item" in text
    assert model.index(0, 0).data() == "—"
    assert [model.headerData(i, Qt.Orientation.Horizontal) for i in range(3)] == list(ANNOTATORS)
    # the cell colours carry readable text (contrast >= 4.5) whatever the value
    from ndcg_studio.ui.bands import contrast_ratio

    for v in np.linspace(-1, 1, 21):
        fill = kappa_color(float(v))
        assert contrast_ratio(fill, text_color_on(fill)) >= 4.5


def test_leave_one_out_flags_the_outlier(qapp: Any, report: AgreementReport) -> None:
    model = LeaveOneOutModel()
    model.set_report(report)
    model.sort(2, Qt.SortOrder.DescendingOrder)  # largest Δ first
    assert model.index(0, 0).data() == "cy"
    loo = report.summary.leave_one_out
    cy = report.annotators.index("cy")
    assert model.index(0, 1).data(SORT_ROLE) == pytest.approx(float(loo.value[cy]))
    assert model.index(0, 2).data(SORT_ROLE) == pytest.approx(
        float(loo.value[cy]) - report.summary.alpha.value
    )


def test_per_query_alpha(qapp: Any, report: AgreementReport) -> None:
    model = PerQueryAlphaModel()
    model.set_report(report)
    model.sort(0, Qt.SortOrder.AscendingOrder)
    # ids in natural order, as the query list: q2 before q10
    assert [model.query_of(r) for r in range(model.rowCount())] == ["q1", "q2", "q10"]
    pq = report.summary.per_query
    for r in range(model.rowCount()):
        q = report.query_external.index(model.query_of(r))
        got = model.index(r, 1).data(SORT_ROLE)
        assert (math.isnan(got) and math.isnan(pq.value[q])) or got == pytest.approx(pq.value[q])
    row_q10 = 2
    assert model.index(row_q10, 1).data() == ""  # one grade: alpha undefined
    assert model.index(row_q10, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(0, 5).data(SORT_ROLE) == 3  # q1: d1, d2, d3 disputed


def test_disputed_rows_equal_the_service_list(judged_db: Database, report: AgreementReport) -> None:
    service_list = report.disputed_items()
    rows = DisputedRows.from_report(report)
    assert len(rows) == len(service_list) == 4
    by_item = {(i.query_id, i.document_id): i for i in service_list}
    for i in range(len(rows)):
        item = by_item[(int(rows.query_id[i]), int(rows.document_id[i]))]
        assert rows.grades[i] == item.grades
        assert float(rows.range[i]) == item.range
        assert float(rows.mean[i]) == pytest.approx(item.mean)
        assert str(rows.query[i]) == item.query_external
        assert str(rows.document[i]) == item.doc_external
    # most disputed first, ties by std, then query and document (naturally)
    order = list(
        zip((-rows.range).tolist(), (-rows.std).tolist(), rows.query.tolist(), strict=True)
    )
    assert order == sorted(order)
    assert rows.range.tolist() == [4.0, 4.0, 2.0, 2.0]
    assert np.isnan(rows.adjudicated).all()
    # the sort keys from_report hands over order the rows as natural_key does
    for key, ids in ((rows.query_key, rows.query), (rows.document_key, rows.document)):
        assert dense_ranks(key).tolist() == dense_ranks(natural_key(ids)).tolist()


def test_disputed_model_shows_adjudicated_grade(
    qapp: Any, judged_db: Database, report: AgreementReport
) -> None:
    service = AnnotationService(judged_db)
    lead = service.ensure_annotator("lead")
    first = report.disputed_items()[0]
    service.set_adjudication(first.query_id, first.document_id, 2, lead.id)
    adjudications = AgreementService(judged_db).adjudications()
    assert adjudications == {(first.query_id, first.document_id): 2}
    model = DisputedItemsModel()
    model.set_rows(DisputedRows.from_report(report, adjudications))
    row = model.find(first.query_id, first.document_id)
    assert model.index(row, COL_D_FINAL).data() == "2"
    assert model.item(row) == (first.query_id, first.document_id)
    others = [r for r in range(model.rowCount()) if r != row]
    assert all(model.index(r, COL_D_FINAL).data() == "" for r in others)

    history = HistoryModel()
    names = {a.id: a.name for a in service.list_annotators()}
    history.set_history(service.history(first.query_id, first.document_id), names)
    # newest first: the decision, then the item's imported grades (the history records every
    # created grade, imported or not)
    j = models.judgments
    with judged_db.engine.connect() as conn:
        graded = conn.execute(
            select(j.c.grade).where(
                j.c.query_id == first.query_id, j.c.document_id == first.document_id
            )
        ).all()
    assert len(graded) >= 2 and history.rowCount() == 1 + len(graded)
    assert [history.index(0, c).data() for c in (1, 2, 3)] == ["adjudication", "lead", "— → 2"]
    assert {history.index(r, 1).data() for r in range(1, history.rowCount())} == {
        "grade of ann",
        "grade of bob",
        "grade of cy",
    }


def test_item_grades_model(qapp: Any) -> None:
    model = ItemGradesModel()
    model.set_grades({"bob": 3.0, "ann": 1.0}, 2.0)
    assert [model.index(r, 0).data() for r in range(3)] == ["ann", "bob", "Final (adjudicated)"]
    assert model.index(0, 1).data() == "1  Marginal"
    assert model.index(2, 1).data(SORT_ROLE) == 2
    model.set_grades({"ann": 1.0}, math.nan)
    assert model.rowCount() == 1


def test_disputed_items_sort_by_query_and_document_in_natural_order(qapp: Any) -> None:
    """q2 before q10, d9 before d10: the rows carry their natural-order keys from the worker."""
    n = 4
    rows = DisputedRows(
        query=np.array(["q10", "q2", "q1", "q2"]),
        document=np.array(["d1", "d10", "d3", "d9"]),
        query_id=np.arange(n, dtype=np.int64),
        document_id=np.arange(n, dtype=np.int64),
        range=np.full(n, 2.0),
        mean=np.full(n, 1.0),
        std=np.full(n, 1.0),
        grades=[{"a": 0.0, "b": 2.0}] * n,
        adjudicated=np.full(n, math.nan),
    )
    assert rows.query_key.dtype == np.int64 and rows.document_key.dtype == np.int64
    model = DisputedItemsModel()
    model.set_rows(rows)
    model.sort(COL_D_QUERY, Qt.SortOrder.AscendingOrder)
    shown = [model.index(r, COL_D_QUERY).data() for r in range(n)]
    assert shown == ["q1", "q2", "q2", "q10"]
    model.sort(COL_D_DOC, Qt.SortOrder.AscendingOrder)
    shown = [model.index(r, COL_D_DOC).data() for r in range(n)]
    assert shown == ["d1", "d3", "d9", "d10"]
