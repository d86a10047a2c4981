"""Other annotators' work appears without a restart (the TeamWatcher in the main window)."""

from __future__ import annotations

from typing import Any

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.ui.team import team_text
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.window.main_window import MainWindow
from tests.ui.conftest import UiData


def _poll(qtbot: Any, window: MainWindow) -> None:
    task = window.team.poll()
    if task is not None:
        qtbot.waitUntil(lambda: task.done, timeout=5000)


def test_another_annotators_grades_reload_the_views_and_show_in_the_team_line(
    qtbot: Any, main_window: MainWindow, ui_data: UiData
) -> None:
    view = main_window.view("Annotate")
    assert isinstance(view, AnnotateView)
    qtbot.waitUntil(lambda: main_window.team._marker is not None, timeout=5000)
    # alice's own grade: nothing to reload for others' sake
    changes: list[object] = []
    main_window.context.judgments_changed.connect(changes.append)
    AnnotationService(ui_data.db).set_grade(
        ui_data.alice.id, ui_data.query["q1"], ui_data.doc["d1"], 2
    )
    _poll(qtbot, main_window)
    assert None not in changes
    # bob grades (another process in team mode): the views are told to reload everything
    AnnotationService(ui_data.db).set_grade(
        ui_data.bob.id, ui_data.query["q1"], ui_data.doc["d2"], 3
    )
    with qtbot.waitSignal(view.rows_loaded, timeout=10_000):
        _poll(qtbot, main_window)
    assert None in changes
    assert "bob" in main_window.status.team_label.text()


def test_team_text_is_counts_only() -> None:
    from datetime import UTC, datetime

    from ndcg_studio.services.annotation.types import TeamMember

    team = [
        TeamMember("alice", 120, datetime(2026, 11, 22, 10, 0, tzinfo=UTC)),
        TeamMember("bob", 98, None),
        TeamMember("carol", 5, None),
        TeamMember("dan", 1, None),
        TeamMember("eve", 0, None),
    ]
    text, tooltip = team_text(team)
    assert text == "Team: alice 120 · bob 98 · carol 5 · +1"
    assert "alice: 120 judgments, last change 2026-11-22 10:00 UTC" in tooltip
    assert "eve: 0 judgments" in tooltip


def test_the_first_poll_takes_the_baseline_and_the_team_line_follows(
    qtbot: Any, main_window: MainWindow, monkeypatch: Any
) -> None:
    """Opening reads only the change marker (four look-ups); the team line's scans of the
    judgments wait for the next poll, off the tabs' first loads — even with nothing changed."""
    reads: list[object] = []
    original = AnnotationService.team_progress

    def counted(self: AnnotationService, previous: Any = None) -> Any:
        reads.append(self)
        return original(self, previous)

    monkeypatch.setattr(AnnotationService, "team_progress", counted)
    main_window.context.database_changed.emit()  # as on opening a database
    qtbot.waitUntil(lambda: main_window.team._marker is not None, timeout=5000)
    qtbot.waitUntil(lambda: main_window.team._task is not None and main_window.team._task.done)
    assert reads == []
    _poll(qtbot, main_window)
    assert len(reads) == 1 and main_window.status.team_label.text() == "Team: bob 1"
    _poll(qtbot, main_window)  # nothing changed and the line is shown: no team read
    assert len(reads) == 1
