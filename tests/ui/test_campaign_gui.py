"""The campaign panel of Annotate, the lead's dashboard and the New campaign dialog (#16.5)."""

from __future__ import annotations

from typing import Any

import pytest

from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.types import CampaignSpec
from ndcg_studio.ui.dialogs.campaign import CampaignDialog
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.views.campaign.dashboard import AnnotatorStatusModel, CampaignDashboard
from ndcg_studio.ui.views.campaign.panel import CampaignPanel
from tests.ui.conftest import RUN_NAMES, UiData

GUIDELINES = "# Study guidelines\n\nA document is *relevant* when it answers the query."


@pytest.fixture
def campaign(ui_data: UiData) -> CampaignService:
    service = CampaignService(ui_data.db)
    spec = CampaignSpec(
        "study", list(RUN_NAMES), 10, 2, ["alice", "bob"], gold_rate=0.0, guidelines=GUIDELINES
    )
    service.create(spec)
    return service


def test_panel_shows_guidelines_grades_in_the_campaign_and_marks(
    qtbot: Any, annotate_view: AnnotateView, campaign: CampaignService, ui_data: UiData
) -> None:
    view = annotate_view
    panel = CampaignPanel.attach(view)
    assert panel.chooser.count() == 2  # no campaign, study
    panel.chooser.setCurrentText("study")
    assert view.grader.campaign_id == campaign.campaign_id("study")
    assert "Study guidelines" in panel.guidelines.toPlainText()
    assert panel.guidelines.document().toMarkdown().startswith("# Study guidelines")
    assert panel.next_item()
    held = campaign.queue("study", ui_data.alice.id, 1)[0]  # alice's hold comes back first
    qtbot.waitUntil(
        lambda: (
            view.query_id == held.query_id
            and view.current_item() is not None
            and view.current_item().document_id == held.document_id
        ),
        timeout=5000,
    )
    view.grader.grade_current(3)
    grades = [g for g in campaign.grades("study") if g.annotator == "alice"]
    assert [(g.query, g.document, g.state, g.grade) for g in grades] == [
        (held.query, held.document, "graded", 3)
    ]
    assert grades[0].seconds is not None and grades[0].seconds >= 0
    assert "1 graded" in panel.progress_label.text()
    # the panel opens the next queued item (held for alice); mark it later, then can't judge
    for mark in (panel.later, lambda: panel.cant_judge("not in English")):
        qtbot.waitUntil(lambda: _shows_a_held_item(view, campaign, ui_data), timeout=5000)
        mark()
    progress = campaign.own_progress("study", ui_data.alice.id)
    assert (progress.done, progress.later, progress.cant_judge) == (1, 1, 1)
    # undo clears the grade through the same campaign writer
    view.context.undo_stack.undo()
    assert campaign.own_progress("study", ui_data.alice.id).done == 0
    panel.release()
    assert campaign.release(ui_data.alice.id) == 0
    # without a campaign, grades are plain again
    panel.chooser.setCurrentIndex(0)
    assert view.grader.campaign_id is None


def test_dashboard_model_and_dialog(
    qtbot: Any, qtmodeltester: Any, context: Any, campaign: CampaignService, ui_data: UiData
) -> None:
    dashboard = CampaignDashboard(context)
    qtbot.addWidget(dashboard)
    qtbot.waitUntil(lambda: dashboard.status is not None, timeout=5000)
    assert dashboard.model.rowCount() == 2
    qtmodeltester.check(dashboard.model)
    empty = AnnotatorStatusModel()
    qtmodeltester.check(empty)
    assert "0 / " in dashboard.summary.text()
    dialog = CampaignDialog(context)
    qtbot.addWidget(dialog)
    dialog.name.setText("second")
    dialog.create_campaign()
    assert "at least one run" in dialog.error.text() and dialog.created is None
    dialog.runs.item(0).setSelected(True)
    dialog.annotators.setText("alice, carol")
    dialog.guidelines.setPlainText("# Be *careful*")
    assert "Be careful" in dialog.preview.toPlainText()
    dialog.create_campaign()
    assert dialog.created is not None and dialog.created.annotators == ("alice", "carol")
    assert [c.name for c in campaign.all()] == ["second", "study"]
    # the order: a strategy; ab shows and passes its pair and cutoff
    dialog = CampaignDialog(context)
    qtbot.addWidget(dialog)
    assert dialog.strategy.currentData() == "depth" and dialog.k_box.isHidden()
    dialog.strategy.setCurrentIndex(dialog.strategy.findData("ab"))
    assert not dialog.k_box.isHidden()
    dialog.name.setText("third")
    dialog.runs.item(0).setSelected(True)
    dialog.runs.item(1).setSelected(True)
    dialog.annotators.setText("alice")
    dialog.k_box.setValue(5)
    dialog.create_campaign()
    created = dialog.created
    assert created is not None, dialog.error.text()
    assert (created.strategy, created.pair, created.k) == ("ab", tuple(RUN_NAMES[:2]), 5)


def _shows_a_held_item(view: AnnotateView, campaign: CampaignService, ui_data: UiData) -> bool:
    item = view.current_item()
    if item is None or view.query_id is None:
        return False
    held = campaign.queue("study", ui_data.alice.id, 1)
    return (held[0].query_id, held[0].document_id) == (view.query_id, item.document_id)


def test_panel_shows_the_querys_description_and_narrative_under_the_guidelines(
    qtbot: Any, annotate_view: AnnotateView, campaign: CampaignService, ui_data: UiData
) -> None:
    from sqlalchemy import update

    from ndcg_studio.storage import models

    view = annotate_view
    panel = CampaignPanel.attach(view)
    panel.chooser.setCurrentText("study")
    assert panel.next_item()
    qtbot.waitUntil(lambda: view.query_id is not None, timeout=5000)
    query_id = view.query_id
    with ui_data.db.transaction() as s:
        s.execute(
            update(models.queries)
            .where(models.queries.c.id == query_id)
            .values(description="Find *exact* wing_loads.", narrative="# Not a heading.")
        )
    external = campaign.topic(query_id)[0]
    panel._show_guidelines()  # what a query load does
    shown = panel.guidelines.toPlainText()
    assert shown.index("Study guidelines") < shown.index(f"Query {external}")
    assert "Description. Find *exact* wing_loads." in shown  # as written, not formatted
    assert "Narrative. # Not a heading." in shown
    assert "secret-run" not in shown  # blind: no run names


def test_the_first_open_campaign_is_chosen_and_q_without_one_says_why(
    qtbot: Any, annotate_view: AnnotateView, campaign: CampaignService, ui_data: UiData
) -> None:
    view = annotate_view
    panel = CampaignPanel.attach(view)
    assert panel.campaign == "study"  # chosen for the annotator: Q takes from it at once
    assert view.grader.campaign_id == campaign.campaign_id("study")
    assert panel.next_item()
    assert campaign.release(ui_data.alice.id) == 1  # the queue held one item for alice
    # the whole pool chosen by hand stays chosen across a refresh
    panel.chooser.setCurrentIndex(0)
    panel.chooser.activated.emit(0)
    panel.refresh()
    assert panel.campaign is None
    assert not panel.next_item()
    assert "Choose a campaign" in panel.progress_label.text()


def test_new_campaign_takes_gold_items_from_a_file(
    qtbot: Any, context: Any, campaign: CampaignService, tmp_path: Any
) -> None:
    dialog = CampaignDialog(context)
    qtbot.addWidget(dialog)
    dialog.name.setText("with gold")
    dialog.runs.item(0).setSelected(True)
    dialog.annotators.setText("alice")
    bad = tmp_path / "gold.txt"
    bad.write_text("q1 0 d1 4\nq2 0 d7 seven\n")
    dialog.gold_file.setText(str(bad))
    dialog.create_campaign()
    assert dialog.created is None and f"{bad}:2" in dialog.error.text(), dialog.error.text()
    assert [c.name for c in campaign.all()] == ["study"]  # nothing written
    dialog.gold_file.setText(str(tmp_path / "missing.txt"))
    dialog.create_campaign()
    assert dialog.created is None and "no such file" in dialog.error.text()
    bad.write_text("q1 0 d1 4\nq2 0 d7 0\n")
    dialog.gold_file.setText(str(bad))
    dialog.create_campaign()
    assert dialog.created is not None and dialog.created.gold == 2, dialog.error.text()


def _ppi_dialog(qtbot: Any, context: Any, name: str) -> CampaignDialog:
    dialog = CampaignDialog(context)
    qtbot.addWidget(dialog)
    dialog.name.setText(name)
    dialog.runs.item(0).setSelected(True)
    dialog.runs.item(1).setSelected(True)
    dialog.annotators.setText("alice")
    dialog.strategy.setCurrentIndex(dialog.strategy.findData("ppi"))
    return dialog


def test_new_campaign_in_ppi_order_asks_a_machine_source_and_stores_the_draw(
    qtbot: Any, context: Any, ui_data: UiData, tmp_path: Any, capsys: Any
) -> None:
    from ndcg_studio.app import main
    from ndcg_studio.storage.campaigns import records as cs

    service = CampaignService(ui_data.db)
    dialog = _ppi_dialog(qtbot, context, "active")
    assert "(ppi)" in dialog.strategy.currentText()
    assert not dialog.k_box.isHidden() and not dialog.machine.isHidden()
    assert dialog.machine.count() == 0  # no model source yet: refused as the service refuses
    dialog.create_campaign()
    assert dialog.created is None
    assert dialog.error.text() == "the ppi strategy needs --machine SOURCE, --pair A B and --k K"
    assert service.all() == []
    # a model source's grades on every pooled item of q1, q2, q10
    pooled = {"q1": range(1, 7), "q2": range(7, 10), "q10": range(10, 12)}
    lines = [f"{q} 0 d{d} {d % 4}" for q, docs in pooled.items() for d in docs]
    (tmp_path / "llm.qrels").write_text("\n".join(lines) + "\n")
    url = ui_data.db.engine.url.render_as_string(hide_password=False)
    argv = ["import", "qrels", str(tmp_path / "llm.qrels"), "--annotator", "llm"]
    assert main(["--db", url, *argv, "--source", "bot", "--source-kind", "model"]) == 0
    capsys.readouterr()
    dialog = _ppi_dialog(qtbot, context, "active")
    assert [dialog.machine.itemText(i) for i in range(dialog.machine.count())] == ["bot"]
    assert dialog.sample_label.text() == "Queries drawn (expected)"
    assert dialog.sample.specialValueText() == "a quarter of the queries, at least 16"
    dialog.strategy.setCurrentIndex(dialog.strategy.findData("depth"))
    assert dialog.machine.isHidden() and dialog.sample_label.text() == "Query sample"
    dialog.strategy.setCurrentIndex(dialog.strategy.findData("ppi"))
    dialog.k_box.setValue(3)
    dialog.sample.setValue(2)
    dialog.create_campaign()
    created = dialog.created
    assert created is not None, dialog.error.text()
    assert (created.strategy, created.pair, created.k) == ("ppi", tuple(RUN_NAMES), 3)
    with ui_data.db.transaction() as session:
        draw = cs.campaign_queries(session, created.id)
    assert sorted(e for _q, e, _p, _s in draw) == ["q1", "q10", "q2"]
    assert sum(p for _q, _e, p, _s in draw) == pytest.approx(2.0, abs=1e-9)
    assert all(0 < p <= 1 for _q, _e, p, _s in draw)
    status = service.status("active")
    assert status.draw is not None
    assert (status.draw.queries, status.draw.expected) == (3, pytest.approx(2.0))
    drawn = {e for _q, e, _p, s in draw if s}
    assert status.draw.drawn == len(drawn) and status.draw.complete == 0
    assert set(status.draw.unfinished) == drawn
    assert {q.query for q in status.queries} == drawn  # the items: the drawn queries' pools
    # the lead's dashboard shows the draw's progress
    dashboard = CampaignDashboard(context)
    qtbot.addWidget(dashboard)
    qtbot.waitUntil(lambda: dashboard.status is not None, timeout=5000)
    text = dashboard.draw.text()
    assert not dashboard.draw.isHidden()
    assert f"{len(drawn)} of 3 drawn (2 expected), 0 complete" in text, text
    assert f"unfinished: {len(drawn)}, first: {status.draw.unfinished[0]}" in text
