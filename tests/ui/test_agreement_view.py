"""The Agreement view: alpha and kappas from the service, disputed items, adjudication by
button and key (writes the adjudication, records history, notifies, refreshes)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from ndcg_studio.services.agreement import AgreementService, AgreementSettings
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.storage import models
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models.agreement import COL_D_FINAL
from ndcg_studio.ui.views.agreement.view import AgreementView
from tests.ui.conftest import UiData


@pytest.fixture
def graded(ui_data: UiData) -> UiData:
    """alice and bob grade q1 and q2; they disagree by 3 on (q1, d1) only (bob 4, alice 1)."""
    s = AnnotationService(ui_data.db)
    q, d, alice, bob = ui_data.query, ui_data.doc, ui_data.alice.id, ui_data.bob.id
    s.set_grade(alice, q["q1"], d["d1"], 1)
    for doc, a, b in (("d2", 2, 2), ("d3", 0, 1), ("d4", 3, 3)):
        s.set_grade(alice, q["q1"], d[doc], a)
        s.set_grade(bob, q["q1"], d[doc], b)
    for doc, a, b in (("d7", 1, 1), ("d8", 4, 3)):
        s.set_grade(alice, q["q2"], d[doc], a)
        s.set_grade(bob, q["q2"], d[doc], b)
    return ui_data


@pytest.fixture
def view(qtbot: Any, context: AppContext, graded: UiData) -> AgreementView:
    v = AgreementView(context)
    qtbot.addWidget(v)
    v.resize(1280, 800)
    with qtbot.waitSignal(v.data_loaded, timeout=10_000):
        v.show()
    qtbot.waitUntil(lambda: v.history_note.text() != "", timeout=10_000)
    return v


def test_statistics_come_from_the_service(view: AgreementView, graded: UiData) -> None:
    report = AgreementService(graded.db).report()
    alpha = report.summary.alpha.value
    assert f"α (ordinal) = {alpha:.3f}" in view.alpha_label.text()
    ci = report.summary.alpha_ci
    assert f"{ci.low:.3f} – {ci.high:.3f}" in view.alpha_label.text()
    assert view.fleiss_label.text().startswith("Fleiss' κ")
    pw = report.summary.pairwise
    assert view.kappa_model.value(0, 1) == pytest.approx(float(pw.kappa_linear[0]))
    assert view.loo_model.rowCount() == 2 and view.query_model.rowCount() == 2


def test_level_selector_recomputes(qtbot: Any, view: AgreementView, graded: UiData) -> None:
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        view.level.setCurrentIndex(view.level.findData("nominal"))
    expected = AgreementService(graded.db).report(AgreementSettings(level="nominal"))
    assert f"α (nominal) = {expected.summary.alpha.value:.3f}" in view.alpha_label.text()


def test_disputed_item_shows_grades_side_by_side(view: AgreementView, graded: UiData) -> None:
    assert view.disputed_model.rowCount() == 1
    assert view.selected_item() == (graded.query["q1"], graded.doc["d1"])
    grades = {
        view.grades_model.index(r, 0).data(): view.grades_model.index(r, 1).data()
        for r in range(view.grades_model.rowCount())
    }
    assert grades == {"alice": "1  Marginal", "bob": "4  Perfect"}
    # history of (q1, d1): bob's grade, then alice's
    assert view.history_model.rowCount() == 2
    assert "Document title 1" in view.item_title.text()


def _adjudication(graded: UiData) -> Any:
    a = models.adjudications
    with graded.db.engine.connect() as conn:
        return conn.execute(
            select(a.c.query_id, a.c.document_id, a.c.grade, a.c.adjudicator_id)
        ).all()


def test_adjudication_by_button_writes_notifies_and_refreshes(
    qtbot: Any, view: AgreementView, context: AppContext, graded: UiData
) -> None:
    q1, d1 = graded.query["q1"], graded.doc["d1"]
    with qtbot.waitSignals([context.judgments_changed, view.data_loaded], timeout=10_000):
        qtbot.mouseClick(view.grade_buttons[2], Qt.MouseButton.LeftButton)
    assert _adjudication(graded) == [(q1, d1, 2, graded.alice.id)]
    history = AnnotationService(graded.db).history(q1, d1)
    assert history[-1].kind == "adjudication" and history[-1].new_grade == 2
    row = view.disputed_model.find(q1, d1)
    assert view.disputed_model.index(row, COL_D_FINAL).data() == "2"
    qtbot.waitUntil(lambda: view.history_model.rowCount() == 3, timeout=10_000)
    assert view.history_model.index(0, 1).data() == "adjudication"
    assert "1 adjudicated" in view.disputed_box.title()


def test_adjudication_by_key_and_clear(
    qtbot: Any, view: AgreementView, context: AppContext, graded: UiData
) -> None:
    view.disputed_table.setFocus()
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        qtbot.keyClick(view.disputed_table, Qt.Key.Key_3)
    assert [row[2] for row in _adjudication(graded)] == [3]
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        qtbot.keyClick(view.disputed_table, Qt.Key.Key_Backspace)
    assert _adjudication(graded) == []


def test_scores_use_the_adjudicated_grade(qtbot: Any, view: AgreementView, graded: UiData) -> None:
    from ndcg_studio.services.scoring.service import ScoringService
    from ndcg_studio.services.scoring.settings import ScoringSettings

    before = ScoringService(graded.db).breakdown("q1", "bm25-secret-run", ScoringSettings())
    with qtbot.waitSignal(view.adjudicated, timeout=10_000):
        view.adjudicate(0)
    after = ScoringService(graded.db).breakdown("q1", "bm25-secret-run", ScoringSettings())
    assert before.breakdown.grade[0] == pytest.approx(2.5)  # mean of 1 and 4
    assert after.breakdown.grade[0] == 0.0  # the final grade wins over the consensus


def test_without_annotator_adjudication_is_disabled(
    qtbot: Any, view: AgreementView, context: AppContext
) -> None:
    context.set_annotator(None)
    assert not view.grade_buttons[0].isEnabled()
    assert view.adjudicate(2) is None
    assert "Switch annotator" in view.adjudication_note.text()


def test_models_pass_qtmodeltester(qtmodeltester: Any, view: AgreementView) -> None:
    for model in (
        view.kappa_model,
        view.loo_model,
        view.query_model,
        view.disputed_model,
        view.grades_model,
        view.history_model,
    ):
        qtmodeltester.check(model, force_py=False)


def test_adjudication_undo_and_redo(
    qtbot: Any, view: AgreementView, context: AppContext, graded: UiData
) -> None:
    """Edit ▸ Undo takes a final grade back (a new history row, nothing deleted); redo sets it."""
    q1, d1 = graded.query["q1"], graded.doc["d1"]
    with qtbot.waitSignal(view.adjudicated, timeout=10_000):
        view.adjudicate(3)
    assert [row[2] for row in _adjudication(graded)] == [3]
    assert context.undo_stack.undoText() == "Final grade → 3"
    context.undo_stack.undo()
    assert _adjudication(graded) == []
    context.undo_stack.redo()
    assert [row[2] for row in _adjudication(graded)] == [3]
    kinds = [
        h.new_grade
        for h in AnnotationService(graded.db).history(q1, d1)
        if h.kind == "adjudication"
    ]
    assert kinds == [3, None, 3]


def test_the_headline_shows_first_and_the_interval_follows(
    qtbot: Any, context: AppContext, graded: UiData
) -> None:
    v = AgreementView(context)
    qtbot.addWidget(v)
    first: list[tuple[str, str, int, int]] = []
    v.rows_shown.connect(
        lambda: first.append(
            (
                v.alpha_label.text(),
                v.status.text(),
                v.loo_model.rowCount(),
                v.disputed_model.rowCount(),
            )
        )
    )
    with qtbot.waitSignal(v.data_loaded, timeout=10_000):
        v.show()
    report = AgreementService(graded.db).report()
    alpha, ci = report.summary.alpha.value, report.summary.alpha_ci
    [(label, status, loo_rows, disputed_rows)] = first
    assert f"α (ordinal) = {alpha:.3f}" in label and "Computing agreement…" in label
    assert status == "Computing agreement…" and loo_rows == 0 and disputed_rows == 0
    assert v.query_model.rowCount() == 2  # shown with the headline, not replaced
    assert f"{ci.low:.3f} – {ci.high:.3f}" in v.alpha_label.text()
    assert v.status.text() == "" and v.loo_model.rowCount() == 2
    assert v.disputed_model.rowCount() == 1 and not v.is_loading()


def test_a_failed_second_stage_is_shown_and_the_headline_stays(
    qtbot: Any, context: AppContext, graded: UiData, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ndcg_studio.ui import errors
    from ndcg_studio.ui.views.agreement import view as agreement

    def broken(*_args: Any) -> Any:
        raise RuntimeError("disk gone")

    shown: list[tuple[BaseException, str | None]] = []
    monkeypatch.setattr(agreement, "complete_agreement", broken)
    monkeypatch.setattr(
        errors, "show_error", lambda exc, parent=None, action=None: shown.append((exc, action))
    )
    v = AgreementView(context)
    qtbot.addWidget(v)
    with qtbot.waitSignal(v.rows_shown, timeout=10_000):
        v.show()
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert str(shown[0][0]) == "disk gone" and shown[0][1] == "Computing agreement"
    assert v.status.text() == "Agreement failed" and "α (ordinal) =" in v.alpha_label.text()
    assert not v.is_loading()
