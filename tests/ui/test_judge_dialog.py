"""The Judge dialog against the loopback OpenAI-compatible server: the preview shows the exact
prompt of one item and the estimate; a run shows progress and stores the grades; Cancel stops
it with the answers so far kept; the menu entry opens it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.services.judges.trust import provenance_of
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.dialogs.judge import JudgeDialog
from tests.judge_server import JudgeServer
from tests.judges.conftest import GRADES, load_collection


@pytest.fixture
def judge_context(qapp: object, qsettings: QSettings, tmp_path: Path) -> Iterator[Any]:
    from ndcg_studio.ui.context import AppContext

    db = open_database(f"sqlite:///{tmp_path / 'studio.sqlite'}")
    load_collection(db, tmp_path)
    ctx = AppContext(qsettings)
    ctx.set_database(db, None, dispose_previous=False)
    yield ctx
    db.dispose()


def _dialog(qtbot: Any, context: Any, server: JudgeServer) -> JudgeDialog:
    dialog = JudgeDialog(context)
    qtbot.addWidget(dialog)
    dialog.source.setText("gpt")
    dialog.base_url.setText(server.url)
    dialog.model.setText("judge")
    for i in range(dialog.runs.count()):
        dialog.runs.item(i).setSelected(True)
    dialog.depth_box.setValue(4)
    return dialog


def test_preview_then_run(qtbot: Any, judge_context: Any) -> None:
    with JudgeServer(GRADES) as server:
        dialog = _dialog(qtbot, judge_context, server)
        dialog.start_preview()
        qtbot.waitUntil(lambda: "items to grade" in dialog.estimate.text(), timeout=10_000)
        assert "12 items to grade (0 already graded" in dialog.estimate.text()
        assert "12 requests" in dialog.estimate.text()
        assert "Query: first query" in dialog.preview.toPlainText()
        assert sum(server.requests.values()) == 0
        dialog.start_run()
        qtbot.waitUntil(lambda: dialog.status.text().startswith("Done"), timeout=20_000)
        assert dialog.status.text() == "Done: 12 graded, 0 unparsed, 0 failed; 12 requests."
        assert dialog.progress.value() == 12
    db: Database = judge_context.database
    (prov,) = provenance_of(db, "gpt")
    assert prov.graded == 12 and not prov.mixed


def test_cancel_keeps_what_was_answered(qtbot: Any, judge_context: Any) -> None:
    with JudgeServer(GRADES, latency=0.2) as server:
        dialog = _dialog(qtbot, judge_context, server)
        dialog.concurrency.setValue(1)
        dialog.start_run()
        qtbot.waitUntil(lambda: "of 12 items" in dialog.status.text(), timeout=20_000)
        dialog.cancel_run()
        assert dialog.status.text().startswith("Cancelled:")
        assert dialog.run_button.isEnabled()
        qtbot.waitUntil(lambda: dialog.task is not None and dialog.task.done, timeout=20_000)
    db: Database = judge_context.database
    (prov,) = provenance_of(db, "gpt")
    assert 1 <= prov.graded < 12


def test_bad_settings_are_shown_not_raised(qtbot: Any, judge_context: Any) -> None:
    with JudgeServer(GRADES) as server:
        dialog = _dialog(qtbot, judge_context, server)
        dialog.model.setText("")
        dialog.start_preview()
        qtbot.waitUntil(lambda: dialog.status.text().startswith("Not done"), timeout=10_000)
        assert "model's name" in dialog.status.text()


def test_agreement_view_shows_the_provenance(qtbot: Any, judge_context: Any) -> None:
    from ndcg_studio.ui.views.agreement.view import AgreementView

    with JudgeServer(GRADES, switch_after=6) as server:
        dialog = _dialog(qtbot, judge_context, server)
        dialog.concurrency.setValue(1)
        dialog.start_run()
        qtbot.waitUntil(lambda: dialog.status.text().startswith("Done"), timeout=20_000)
    assert "Labels of more than one model: judge-v1, judge-v2" in dialog.status.text()
    view = AgreementView(judge_context)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: "Machine source gpt" in view.alpha_label.text(), timeout=20_000)
    text = view.alpha_label.text()
    assert "judge-v1 (6)" in text and "judge-v2 (6)" in text
    assert "more than one model or template" in text
    from ndcg_studio.ui.views.campaign.dashboard import CampaignDashboard

    dashboard = CampaignDashboard(judge_context)
    qtbot.addWidget(dashboard)
    qtbot.waitUntil(lambda: "Machine source gpt" in dashboard.machine.text(), timeout=20_000)
    assert "more than one model or template" in dashboard.machine.text()
