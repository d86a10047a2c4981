"""The Annotate view driven from the keyboard, checked against the database."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QLabel, QTextBrowser
from sqlalchemy import select

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import QueryProgress
from ndcg_studio.storage import models
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.query_progress import QueryFilterProxy, QueryProgressModel
from ndcg_studio.ui.views.annotate.loading import LAST_QUERY_KEY
from ndcg_studio.ui.views.annotate.note import NoteDialog
from ndcg_studio.ui.views.annotate.view import AnnotateView
from tests.ui.conftest import RUN_NAMES, UiData


def judgments(data: UiData, annotator_id: int) -> dict[int, tuple[int, str | None]]:
    """document id -> (grade, note) of one annotator's judgments of q1."""
    j = models.judgments
    with data.db.transaction() as s:
        rows = s.execute(
            select(j.c.document_id, j.c.grade, j.c.note).where(
                j.c.annotator_id == annotator_id, j.c.query_id == data.query["q1"]
            )
        ).all()
    return {r.document_id: (r.grade, r.note) for r in rows}


def progress_text(view: AnnotateView, external_id: str) -> str:
    model = view.rows_model
    for row in range(model.rowCount()):
        if model.index(row, QueryProgressModel.COL_QUERY).data() == external_id:
            return str(model.index(row, QueryProgressModel.COL_PROGRESS).data())
    raise AssertionError(f"{external_id} not listed")


def key(
    qtbot: Any, view: AnnotateView, k: Qt.Key, mods: Any = Qt.KeyboardModifier.NoModifier
) -> None:
    qtbot.keyClick(view.panel, k, mods)


def test_models_pass_the_model_tester(annotate_view: AnnotateView, qtmodeltester: Any) -> None:
    qtmodeltester.check(annotate_view.rows_model)
    qtmodeltester.check(annotate_view.proxy)
    qtmodeltester.check(annotate_view.pool_model)


def test_query_model_sorts_naturally_and_by_progress(qtmodeltester: Any) -> None:
    model = QueryProgressModel()
    model.set_rows(
        [
            QueryProgress(1, "q10", "ten", 4, 4),
            QueryProgress(2, "q2", "two", 4, 1),
            QueryProgress(3, "q1", "one", 0, 0),
        ]
    )
    qtmodeltester.check(model)
    model.sort(QueryProgressModel.COL_QUERY, Qt.SortOrder.AscendingOrder)
    assert [r.external_id for r in model.rows()] == ["q1", "q2", "q10"]
    model.sort(QueryProgressModel.COL_PROGRESS, Qt.SortOrder.AscendingOrder)
    # least done first; an empty pool (nothing to do) last
    assert [r.external_id for r in model.rows()] == ["q2", "q10", "q1"]
    model.set_judged(2, 3)
    assert model.index(model.row_of(2), QueryProgressModel.COL_PROGRESS).data() == "3 / 4"
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filter_text("TEN")
    assert proxy.rowCount() == 1
    proxy.set_filter_text("")
    proxy.set_hide_complete(True)
    assert proxy.rowCount() == 2
    qtmodeltester.check(proxy)


def test_grading_by_keyboard_writes_the_judgment_and_advances(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    assert view.query_id == ui_data.query["q1"]
    first = view.current_item()
    assert first is not None and view.position() == 0
    key(qtbot, view, Qt.Key.Key_3)
    assert judgments(ui_data, ui_data.alice.id) == {first.document_id: (3, None)}
    assert view.position() == 1
    assert view.panel.status_label.text().startswith("Saved")
    assert progress_text(view, "q1") == "1 / 6"
    assert view.pool_model.item(0).grade == 3
    key(qtbot, view, Qt.Key.Key_Left)
    assert view.position() == 0 and view.panel.legend.current() == 3
    key(qtbot, view, Qt.Key.Key_0)  # re-grade: an update, not a second row
    assert judgments(ui_data, ui_data.alice.id) == {first.document_id: (0, None)}
    # bob's grade is untouched and never shown
    assert judgments(ui_data, ui_data.bob.id) == {ui_data.doc["d1"]: (4, "bob's private note")}


def test_navigation_keys(qtbot: Any, annotate_view: AnnotateView) -> None:
    view = annotate_view
    for k, expected in [
        (Qt.Key.Key_Right, 1),
        (Qt.Key.Key_J, 2),
        (Qt.Key.Key_Down, 3),
        (Qt.Key.Key_K, 2),
        (Qt.Key.Key_Up, 1),
        (Qt.Key.Key_Left, 0),
        (Qt.Key.Key_Left, 0),
        (Qt.Key.Key_End, 5),
        (Qt.Key.Key_Right, 5),
    ]:
        key(qtbot, view, k)
        assert view.position() == expected
    assert view.panel.position_label.text() == "Document 6 / 6"


def test_backspace_clears_the_grade(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    key(qtbot, view, Qt.Key.Key_2)
    key(qtbot, view, Qt.Key.Key_Left)
    key(qtbot, view, Qt.Key.Key_Backspace)
    assert judgments(ui_data, ui_data.alice.id) == {}
    assert view.current_item() is not None and view.current_item().grade is None
    assert progress_text(view, "q1") == "0 / 6"
    history = AnnotationService(ui_data.db).history(
        ui_data.query["q1"], view.current_item().document_id
    )
    mine = [(h.old_grade, h.new_grade) for h in history if h.annotator_id == ui_data.alice.id]
    assert mine == [(None, 2), (2, None)]


def test_undo_removes_the_row_and_redo_restores_it(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    doc = view.current_item().document_id
    key(qtbot, view, Qt.Key.Key_2)
    key(qtbot, view, Qt.Key.Key_Right)
    assert view.position() == 2
    key(qtbot, view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert judgments(ui_data, ui_data.alice.id) == {}
    assert view.position() == 0  # undo goes back to the document it changed
    assert progress_text(view, "q1") == "0 / 6"
    key(
        qtbot,
        view,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert judgments(ui_data, ui_data.alice.id) == {doc: (2, None)}
    assert view.pool_model.item(0).grade == 2
    assert progress_text(view, "q1") == "1 / 6"
    assert view.context.undo_stack.count() == 1


def test_progress_column_and_totals_follow_the_grades(
    qtbot: Any, annotate_view: AnnotateView
) -> None:
    view = annotate_view
    for k in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_4):
        key(qtbot, view, k)
    assert progress_text(view, "q1") == "3 / 6"
    assert view.pool.pool_title.text() == "Pool · 3 / 6 judged"
    assert "3 / 11 documents judged" in view.queries.totals_label.text()  # pools of 6 + 3 + 2 + 0


def test_next_unjudged_jumps_within_the_pool_then_to_the_next_query(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    key(qtbot, view, Qt.Key.Key_1)  # 0 graded, now at 1
    key(qtbot, view, Qt.Key.Key_Left)
    key(qtbot, view, Qt.Key.Key_U)
    assert view.position() == 1
    for _ in range(5):
        key(qtbot, view, Qt.Key.Key_2)
    assert progress_text(view, "q1") == "6 / 6"
    with qtbot.waitSignal(view.query_loaded, timeout=5000) as blocker:
        view.queries.next_button.click()
    assert blocker.args == [ui_data.query["q2"]]  # natural order: q1, q2, q3 (empty), q10
    assert view.position() == 0 and view.current_item().grade is None
    selected = view.queries.query_table.selectionModel().currentIndex()
    assert view.proxy.data(selected, QueryProgressModel.QueryIdRole) == ui_data.query["q2"]


def test_the_note_dialog_saves_a_note(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = annotate_view
    asked: list[str] = []

    def fake_dialog(*args: Any, **kwargs: Any) -> tuple[str, bool]:
        asked.append(args[3] if len(args) > 3 else "")
        return ("only the abstract is relevant", True)

    monkeypatch.setattr(NoteDialog, "ask", fake_dialog)
    doc = view.current_item().document_id
    key(qtbot, view, Qt.Key.Key_N)  # not graded yet: no dialog, a hint instead
    assert asked == [] and "Grade the document first" in view.panel.status_label.text()
    key(qtbot, view, Qt.Key.Key_3)
    key(qtbot, view, Qt.Key.Key_Left)
    key(qtbot, view, Qt.Key.Key_N)
    assert asked == [""]
    assert judgments(ui_data, ui_data.alice.id) == {doc: (3, "only the abstract is relevant")}
    assert view.panel.note_label.text() == "Note: only the abstract is relevant"
    key(qtbot, view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo the note only
    assert judgments(ui_data, ui_data.alice.id) == {doc: (3, None)}


def test_the_view_is_blind(qtbot: Any, annotate_view: AnnotateView, ui_data: UiData) -> None:
    view = annotate_view
    # d1 was graded 4 by bob: alice's view shows it unjudged
    row = view.pool_model.row_of(ui_data.doc["d1"])
    assert row is not None and view.pool_model.item(row).grade is None
    for k in (Qt.Key.Key_2, Qt.Key.Key_Right, Qt.Key.Key_End):
        key(qtbot, view, k)
    texts: list[str] = [w.text() for w in view.findChildren(QLabel)]
    texts += [w.toPlainText() for w in view.findChildren(QTextBrowser)]
    for model in (view.rows_model, view.pool_model):
        for row in range(model.rowCount()):
            for col in range(model.columnCount()):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    texts.append(str(model.index(row, col).data(role)))
    everything = "\n".join(texts)
    assert "Document title" in everything  # the scan does see the view's text
    for name in (*RUN_NAMES, "bob", "private note"):
        assert name not in everything


def test_pool_depth_setting_reloads_the_pool(qtbot: Any, annotate_view: AnnotateView) -> None:
    view = annotate_view
    with qtbot.waitSignal(view.query_loaded, timeout=5000):
        view.context.set_setting(S.POOL_DEPTH, 1)
    assert {it.external_id for it in view.pool_items()} == {"d1", "d3"}
    assert progress_text(view, "q1") == "0 / 2"


def test_changes_from_elsewhere_are_shown(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    key(qtbot, view, Qt.Key.Key_Right)
    at = view.current_item().document_id
    AnnotationService(ui_data.db).set_grade(
        ui_data.alice.id, ui_data.query["q1"], ui_data.doc["d5"], 1
    )
    with qtbot.waitSignal(view.query_loaded, timeout=5000):
        view.context.notify_judgments_changed([ui_data.query["q1"]])
    assert view.current_item().document_id == at  # stays where it was
    row = view.pool_model.row_of(ui_data.doc["d5"])
    assert view.pool_model.item(row).grade == 1
    assert progress_text(view, "q1") == "1 / 6"


def test_filter_box_filters_the_query_list(qtbot: Any, annotate_view: AnnotateView) -> None:
    view = annotate_view
    qtbot.keyClicks(view.queries.filter_edit, "HYPERSONIC")
    qtbot.waitUntil(lambda: view.proxy.rowCount() == 1, timeout=2000)
    assert view.proxy.index(0, QueryProgressModel.COL_QUERY).data() == "q10"
    view.queries.filter_edit.clear()
    qtbot.waitUntil(lambda: view.proxy.rowCount() == 4, timeout=2000)


def test_an_empty_pool_shows_a_message_and_no_annotator_is_asked_for_at_a_grade_key(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData
) -> None:
    view = annotate_view
    with qtbot.waitSignal(view.query_loaded, timeout=5000):
        view.loader.open_query(ui_data.query["q3"])
    assert view.panel.centre_stack.currentWidget() is view.panel.message
    assert "no run returned" in view.panel.message.text()
    key(qtbot, view, Qt.Key.Key_2)  # nothing to grade: nothing happens
    view.context.set_annotator(None)
    # nobody annotating: the queries are listed all the same, and the status says how to start
    qtbot.waitUntil(lambda: "Nobody is annotating" in view.panel.status_label.text(), timeout=5000)
    assert view.rows_model.rowCount() == 4
    wanted: list[bool] = []
    view.annotator_wanted.connect(lambda: wanted.append(True))
    key(qtbot, view, Qt.Key.Key_2)
    assert wanted == [True]  # a grade key asks who is annotating


def test_splitter_state_is_saved_and_restored(
    qtbot: Any, annotate_view: AnnotateView, qsettings: QSettings
) -> None:
    view = annotate_view
    view.splitter.setSizes([250, 700, 250])
    sizes = view.splitter.sizes()
    view.save_state()
    other = AnnotateView(view.context)
    qtbot.addWidget(other)
    other.resize(view.size())
    other.restore_state()
    other.show()
    assert other.splitter.sizes() == sizes
    qtbot.waitUntil(lambda: other.current_item() is not None, timeout=5000)


def test_pool_model_marks_the_current_row(qtmodeltester: Any, annotate_view: AnnotateView) -> None:
    model: PoolModel = annotate_view.pool_model
    assert model.index(0, PoolModel.COL_TITLE).data(Qt.ItemDataRole.FontRole).bold()
    assert model.index(1, PoolModel.COL_TITLE).data(Qt.ItemDataRole.FontRole) is None
    assert model.index(0, PoolModel.COL_GRADE).data(Qt.ItemDataRole.DecorationRole) is not None


def test_a_document_without_title_or_text_says_how_to_import_the_documents(qtbot: Any) -> None:
    """Runs and qrels imported, documents not: the card names the document by its id (not
    "(untitled)") and says how to get its text."""
    from ndcg_studio.services.annotation.types import PoolItem
    from ndcg_studio.ui.views.annotate.document import DocumentPanel

    panel = DocumentPanel(lambda _event: False)
    qtbot.addWidget(panel)
    panel.show_item(PoolItem(1, "FBIS3-10082", "", "", "", None, None), 0, 3)
    assert panel.title_label.text() == "Document FBIS3-10082"
    assert "Import the documents" in panel.text_view.toPlainText()
    panel.show_item(PoolItem(2, "d2", "A title", "", "", None, None), 1, 3)
    assert panel.title_label.text() == "A title" and panel.text_view.toPlainText() == ""


def _shown_rows(view: AnnotateView) -> tuple[bool, str, str, int | None]:
    """(counted, progress text of the first row, the totals line, the selected query id)."""
    model, table = view.rows_model, view.queries.query_table
    selected = table.currentIndex().data(QueryProgressModel.QueryIdRole)
    return (
        model.counted(),
        str(model.index(0, QueryProgressModel.COL_PROGRESS).data()),
        view.queries.totals_label.text(),
        selected if isinstance(selected, int) else None,
    )


def _open_recording_lists(
    qtbot: Any, context: Any, sort_column: int | None = None
) -> tuple[AnnotateView, list[tuple[bool, str, str, int | None]]]:
    """The Annotate view shown until its counted list is in, with :func:`_shown_rows` at each
    list it showed; with ``sort_column``, the list sorted by it before it loads (as a restored
    header sorts it)."""
    view = AnnotateView(context)
    qtbot.addWidget(view)
    if sort_column is not None:
        view.queries.query_table.sortByColumn(sort_column, Qt.SortOrder.AscendingOrder)
    seen: list[tuple[bool, str, str, int | None]] = []
    view.rows_shown.connect(lambda: seen.append(_shown_rows(view)))
    with qtbot.waitSignal(view.rows_loaded, timeout=10_000):
        view.show()
    return view, seen


def test_the_list_is_shown_before_its_pools_are_counted(
    qtbot: Any, context: Any, ui_data: UiData, qtmodeltester: Any
) -> None:
    view, seen = _open_recording_lists(qtbot, context)
    n, q1 = view.rows_model.rowCount(), ui_data.query["q1"]
    # first the queries alone, the first of them open at once (alice has graded nothing)
    assert seen[0] == (False, "…", f"{n} queries · counting the pools…", q1), seen
    # then the counts, and the first unfinished query still open
    counted, progress, totals, selected = seen[-1]
    assert counted and progress != "…" and "/" in progress, seen
    assert "queries complete" in totals and selected == q1, seen
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)
    assert view.current_query is not None and view.current_query.query_id == q1
    qtmodeltester.check(view.rows_model)


def test_a_finished_first_query_gives_way_to_the_first_unfinished_one_when_counted(
    qtbot: Any, context: Any, ui_data: UiData
) -> None:
    service = AnnotationService(ui_data.db)
    q1, q2 = ui_data.query["q1"], ui_data.query["q2"]
    for item in service.pool(q1, ui_data.alice.id, context.pool_depth):
        service.set_grade(ui_data.alice.id, q1, item.document_id, 2)
    view, seen = _open_recording_lists(qtbot, context)
    assert seen[0][0] is False and seen[0][3] == q1, seen  # opened before the counts
    assert seen[-1][0] is True and seen[-1][3] == q2, seen  # the counts: q1 is complete
    qtbot.waitUntil(
        lambda: view.current_query is not None and view.current_query.query_id == q2,
        timeout=5000,
    )


def test_a_list_sorted_by_progress_opens_its_first_query_after_the_counts(
    qtbot: Any, context: Any, ui_data: UiData
) -> None:
    view, seen = _open_recording_lists(qtbot, context, QueryProgressModel.COL_PROGRESS)
    assert seen[0][0] is False and seen[0][3] is None, seen  # the order waits for the counts
    assert seen[-1][0] is True and seen[-1][3] is not None, seen
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)


def test_the_remembered_query_opens_before_the_counts(
    qtbot: Any, context: Any, ui_data: UiData
) -> None:
    q2 = ui_data.query["q2"]
    context.settings.qsettings.setValue(LAST_QUERY_KEY, f"{context.database.label}\nq2")
    view, seen = _open_recording_lists(qtbot, context)
    assert seen[0][0] is False and seen[0][3] == q2, seen  # selected on the uncounted list
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)
    assert view.current_query is not None and view.current_query.query_id == q2
    assert view.current_query.pool_size > 0  # the counts of the open query, not the 0s
    assert progress_text(view, "q2") != "…"


def test_an_empty_database_shows_its_message_and_says_the_list_is_shown(
    qtbot: Any, qapp: Any, qsettings: QSettings, tmp_path: Any
) -> None:
    from ndcg_studio.storage.database import open_database
    from ndcg_studio.ui.context import AppContext

    db = open_database(tmp_path / "empty.sqlite")
    context = AppContext(qsettings)
    context.set_database(db, None)
    view = AnnotateView(context)
    qtbot.addWidget(view)
    with qtbot.waitSignals([view.rows_shown, view.rows_loaded], timeout=10_000):
        view.show()
    assert view.rows_model.rowCount() == 0
    assert "no queries yet" in view.panel.message.text()
    db.dispose()
