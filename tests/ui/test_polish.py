"""The small things a new user saw in the first session: status-bar messages cut mid-word,
"1 runs", a cut export dialog, "Import judgments as csv", a squeezed Title column, "1837" next to
"1,837", "No database is open." while one opens, "Import a run and judgments…" for a database
that only lacks a run, grade buttons enabled with nothing to grade, and an empty "α without
each annotator" with no reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QInputDialog

from ndcg_studio.services.agreement import AgreementService, AgreementSettings
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import DatabaseCounts
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.agreement.view import AgreementView
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.views.compare.view import CompareView
from ndcg_studio.ui.views.query_detail import TITLE_MIN_WIDTH, QueryDetailView
from ndcg_studio.ui.views.review.view import ReviewView
from ndcg_studio.ui.window import transfer
from ndcg_studio.ui.window.main_window import MainWindow
from tests.ui.conftest import RUN_NAMES, UiData


def test_a_long_status_message_ends_at_a_word_with_the_whole_text_in_the_tooltip(
    qtbot: Any, main_window: MainWindow
) -> None:
    main_window.resize(900, 500)
    main_window.show()
    qtbot.waitExposed(main_window)
    status = main_window.statusBar()
    long = (
        "Cranfield demo loaded: 1,400 documents, 225 queries, Cleverdon's judgments "
        "(annotator 'cleverdon'), runs bm25-fulltext, bm25-title, and a great many words more "
        "than any status bar has room for"
    )
    main_window.status.show_message(long)
    shown = status.currentMessage()
    assert shown != long and shown.endswith(" …")
    words = shown[:-2].split(" ")
    assert long.startswith(shown[:-2]) and all(w in long.split(" ") for w in words[-1:])
    assert status.toolTip() == long
    assert status.fontMetrics().horizontalAdvance(shown) <= status.width()
    main_window.status.show_message("Saved.")
    assert status.currentMessage() == "Saved." and status.toolTip() == ""


def test_counts_in_the_status_bar_are_singular_for_one(main_window: MainWindow) -> None:
    main_window.status.show_counts(DatabaseCounts(1, 1, 1, 1, 1))
    assert main_window.status.counts_label.text() == "1 query · 1 document · 1 run · 1 judgment"
    main_window.status.show_counts(DatabaseCounts(2, 1400, 0, 3, 11386))
    text = main_window.status.counts_label.text()
    assert text == "2 queries · 1,400 documents · 0 runs · 11,386 judgments"


def test_the_choice_dialog_is_wide_enough_for_its_title_and_items(
    qtbot: Any, main_window: MainWindow
) -> None:
    seen: list[tuple[int, int, int]] = []

    def inspect() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        combo = dialog.findChild(QComboBox)
        metrics = dialog.fontMetrics()
        longest = max(metrics.horizontalAdvance(t) for t in transfer.EXPORT_KINDS.values())
        seen.append((dialog.width(), combo.width(), longest))
        dialog.reject()

    QTimer.singleShot(200, inspect)
    _choice, ok = transfer.ask_item(
        main_window, "Export", "What to export?", list(transfer.EXPORT_KINDS.values())
    )
    assert not ok
    ((width, combo_width, longest),) = seen
    assert combo_width >= longest + 20  # "Consensus qrels (TREC)" whole, with the arrow
    title = main_window.fontMetrics().horizontalAdvance("Export — NDCG Studio")
    assert width >= title + 100  # room for the title beside the window manager's buttons


def test_the_import_file_dialog_title_keeps_capitals(
    main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    titles: list[str] = []
    monkeypatch.setattr(transfer, "ask_item", lambda *a, **k: ("Judgments as CSV", True))

    def cancel(_parent: Any, title: str, *_a: Any, **_k: Any) -> tuple[str, str]:
        titles.append(title)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", cancel)
    main_window.import_file()
    assert titles == ["Import judgments as CSV"]


def test_review_names_only_what_is_missing() -> None:
    text = ReviewView.nothing_to_score_text(DatabaseCounts(225, 1400, 0, 1, 11386))
    assert "11,386 judgments, but no run" in text and "Import a run (" in text
    assert "run and judgments" not in text
    text = ReviewView.nothing_to_score_text(DatabaseCounts(225, 1400, 1, 0, 0))
    assert "1 run, but no judgments" in text
    text = ReviewView.nothing_to_score_text(DatabaseCounts(0, 0, 0, 0, 0))
    assert "no run and no judgments" in text


def test_review_of_a_database_with_judgments_and_no_run(
    qtbot: Any, qsettings: Any, tmp_path: Path
) -> None:
    from ndcg_studio.storage.database import open_database

    db = open_database(tmp_path / "judged.sqlite")
    qrels = tmp_path / "j.qrels"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\n", encoding="utf-8")
    from ndcg_studio.services.importing.service import ImportService

    ImportService(db).import_qrels(qrels, annotator="nist")
    ctx = AppContext(qsettings)
    ctx.set_database(db, None, dispose_previous=False)
    view = ReviewView(ctx)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.data_loaded, timeout=10_000):
        view.reload()
    assert "2 judgments, but no run" in view.empty.text()
    ctx.set_database(None, dispose_previous=False)
    db.dispose()


def test_views_say_loading_while_a_database_opens(qtbot: Any, qsettings: Any) -> None:
    ctx = AppContext(qsettings)
    view = CompareView(ctx)
    qtbot.addWidget(view)
    ctx.set_opening(True)
    view.reload()
    assert view.empty.text() == "Loading…"
    ctx.set_opening(False)
    view.reload()
    assert view.empty.text() == "No database is open."


def test_grade_buttons_are_disabled_with_nothing_to_grade(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    assert view.panel.legend.isEnabled()
    with qtbot.waitSignal(view.query_loaded, timeout=5000):
        view.loader.open_query(ui_data.query["q3"])  # no run returned anything: an empty pool
    assert not view.panel.legend.isEnabled()
    assert not any(b.isEnabled() for b in view.panel.legend.buttons.values())
    with qtbot.waitSignal(view.query_loaded, timeout=5000):
        view.loader.open_query(ui_data.query["q1"])
    assert view.panel.legend.isEnabled()


def test_alpha_without_each_annotator_says_why_it_is_empty_for_two_annotators(
    qtbot: Any, context: AppContext, ui_data: UiData
) -> None:
    service = AnnotationService(ui_data.db)
    q1 = ui_data.query["q1"]
    for doc, a, b in (("d1", 4, 3), ("d2", 1, 1), ("d3", 0, 2), ("d4", 2, 2)):
        service.set_grade(ui_data.alice.id, q1, ui_data.doc[doc], a)
        service.set_grade(ui_data.bob.id, q1, ui_data.doc[doc], b)
    report = AgreementService(ui_data.db).report(AgreementSettings())
    assert report.summary.n_annotators == 2
    text = AgreementView.loo_note_text(report)
    assert text.startswith("α undefined for every annotator: ") and len(text) > 40
    view = AgreementView(context)
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.reload()
    assert view.loo_note.isVisible() and view.loo_note.text() == text


def test_query_detail_keeps_the_title_column_readable(
    qtbot: Any, context: AppContext, ui_data: UiData
) -> None:
    from ndcg_studio.services.scoring.service import ScoringService
    from ndcg_studio.services.scoring.settings import ScoringSettings

    view = QueryDetailView(context)
    qtbot.addWidget(view)
    view.resize(640, 600)  # narrow: the numbers would leave the title a few letters
    view.show()
    qtbot.waitExposed(view)
    qb = ScoringService(ui_data.db).breakdown("q1", RUN_NAMES[0], ScoringSettings(k=10))
    view.set_breakdown(qb, "text")
    view.fit_title_column()
    assert view.run_table.horizontalHeader().sectionSize(2) >= TITLE_MIN_WIDTH


def test_annotate_says_loading_while_a_database_opens(qtbot: Any, qsettings: Any) -> None:
    ctx = AppContext(qsettings)
    view = AnnotateView(ctx)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(
        lambda: view.panel.message.text().startswith("No database is open."), timeout=3000
    )
    assert "…." not in view.panel.message.text()  # one stop after "Open database…"
    ctx.set_opening(True)
    qtbot.waitUntil(lambda: view.panel.message.text() == "Loading…", timeout=3000)
    assert not view.panel.legend.isEnabled()
    ctx.set_opening(False)
    qtbot.waitUntil(
        lambda: view.panel.message.text().startswith("No database is open."), timeout=3000
    )
