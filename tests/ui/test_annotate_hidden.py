"""Annotate loads its query list only when it is shown (issue #20: at 100,000 queries the list
cost every other tab its start)."""

from __future__ import annotations

from typing import Any

import pytest

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.views.review.view import ReviewView
from ndcg_studio.ui.window.main_window import MainWindow


def test_starting_on_review_does_not_load_the_annotate_list(
    qtbot: Any, context: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []
    original = AnnotationService.query_progress

    def counted(self: AnnotationService, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(AnnotationService, "query_progress", counted)
    window = MainWindow(context)
    qtbot.addWidget(window)
    review, annotate = window.view("Review"), window.view("Annotate")
    assert isinstance(review, ReviewView) and isinstance(annotate, AnnotateView)
    window.tabs.setCurrentWidget(review)
    with qtbot.waitSignal(review.data_loaded, timeout=10_000):
        window.show()
    context.database_changed.emit()  # a reload asked while hidden is put off too
    qtbot.wait(100)
    assert calls == []
    assert annotate.rows_model.rowCount() == 0
    with qtbot.waitSignal(annotate.rows_loaded, timeout=10_000):
        window.tabs.setCurrentWidget(annotate)
    assert len(calls) == 1
    assert annotate.rows_model.rowCount() > 0
    qtbot.waitUntil(lambda: annotate.current_item() is not None, timeout=5000)
