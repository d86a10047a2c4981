"""The keyboard, with key events through Qt's shortcut map (QTest) on an active window: 0–4 grade
wherever the focus is in Annotate except in a text field; the document panel takes the focus
when Annotate is shown; Tab leaves every table; Ctrl+1…4 and Ctrl+Tab switch tabs from a table;
every menu action has a shortcut and no two share one.

The same, with real X11 key presses on the xcb platform, is tests/e2e/test_x11.py.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QMenu, QWidget
from sqlalchemy import select

from ndcg_studio.storage import models
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import ScoringSettingsDialog
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.views.query_detail import QueryDetailDialog
from ndcg_studio.ui.window.main_window import VIEWS, MainWindow
from tests.ui.conftest import UiData

CTRL = Qt.KeyboardModifier.ControlModifier


def _active(window: MainWindow, qtbot: Any) -> AnnotateView:
    window.activateWindow()
    qtbot.waitActive(window)
    view = window.view("Annotate")
    assert isinstance(view, AnnotateView)
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)
    return view


def _alice_grades(data: UiData) -> dict[str, int]:
    j, d = models.judgments, models.documents
    with data.db.transaction() as s:
        rows = s.execute(
            select(d.c.external_id, j.c.grade)
            .join(d, d.c.id == j.c.document_id)
            .where(j.c.annotator_id == data.alice.id)
        ).all()
    return {doc: grade for doc, grade in rows}


def _key(widget: QWidget | None, key: Qt.Key, modifiers: Any = Qt.KeyboardModifier.NoModifier):
    assert widget is not None
    QTest.keyClick(widget, key, modifiers)


def test_annotate_takes_the_keyboard_when_shown_and_digits_grade_from_the_query_list(
    main_window: MainWindow, qtbot: Any, ui_data: UiData
) -> None:
    view = _active(main_window, qtbot)
    # start: nobody clicked anything, the document panel has the focus and 3 grades
    assert QApplication.focusWidget() is view.panel
    first = view.current_item()
    assert first is not None
    _key(QApplication.focusWidget(), Qt.Key.Key_3)
    assert _alice_grades(ui_data) == {first.external_id: 3}

    # a person clicked the query list (focus there): 1 still grades, the list keeps the focus
    view.queries.query_table.setFocus()
    second = view.current_item()
    assert second is not None and second.document_id != first.document_id
    _key(view.queries.query_table, Qt.Key.Key_1)
    assert _alice_grades(ui_data)[second.external_id] == 1
    assert QApplication.focusWidget() is view.queries.query_table

    # the filter has the focus because the person put it there: digits are text, not grades
    view.queries.filter_edit.setFocus()
    before = _alice_grades(ui_data)
    _key(view.queries.filter_edit, Qt.Key.Key_2)
    assert view.queries.filter_edit.text() == "2" and _alice_grades(ui_data) == before
    _key(view.queries.filter_edit, Qt.Key.Key_Return)  # Enter: back to grading
    assert QApplication.focusWidget() is view.panel
    view.queries.filter_edit.setFocus()
    _key(view.queries.filter_edit, Qt.Key.Key_Escape)  # Esc too, the filter kept
    assert QApplication.focusWidget() is view.panel and view.queries.filter_edit.text() == "2"

    # another tab and back (with the filter focused before): the panel again, not the filter
    view.queries.filter_edit.setFocus()
    _key(view.queries.filter_edit, Qt.Key.Key_2, CTRL)
    assert main_window.tabs.currentIndex() == 1
    _key(QApplication.focusWidget(), Qt.Key.Key_1, CTRL)
    assert main_window.tabs.currentIndex() == 0
    assert QApplication.focusWidget() is view.panel
    assert not isinstance(QApplication.focusWidget(), QLineEdit)


def test_ctrl_digits_and_ctrl_tab_switch_tabs_from_a_table(
    main_window: MainWindow, qtbot: Any
) -> None:
    view = _active(main_window, qtbot)
    view.queries.query_table.setFocus()
    for i in (4, 3, 0, 2, 1):  # Ctrl+5, Ctrl+4, Ctrl+1, …, each on whatever has the focus
        _key(QApplication.focusWidget() or main_window, Qt.Key(Qt.Key.Key_1 + i), CTRL)
        assert main_window.tabs.currentIndex() == i
        assert main_window.tab_actions[i].isChecked()
    review = main_window.view("Review")
    table = review.findChild(QAbstractItemView, "review_table")
    assert table is not None
    table.setFocus()
    seen = []
    n = len(VIEWS)
    for _ in VIEWS:
        _key(QApplication.focusWidget(), Qt.Key.Key_Tab, CTRL)
        seen.append(main_window.tabs.currentIndex())
    assert seen == [(1 + step) % n for step in range(1, n + 1)]  # from Review round to it
    for expected in (0, n - 1, n - 2):
        _key(
            QApplication.focusWidget(), Qt.Key.Key_Backtab, CTRL | Qt.KeyboardModifier.ShiftModifier
        )
        assert main_window.tabs.currentIndex() == expected


def test_tab_leaves_every_table_of_the_window_and_its_dialogs(
    main_window: MainWindow, context: AppContext, qtbot: Any
) -> None:
    detail = QueryDetailDialog(context, main_window)
    settings = ScoringSettingsDialog(context, main_window)
    tables = [t for w in (main_window, detail, settings) for t in w.findChildren(QAbstractItemView)]
    # every table of the four views and the query detail (combo box popups are item views too)
    assert len(tables) >= 12
    assert [t.objectName() or type(t).__name__ for t in tables if t.tabKeyNavigation()] == []


def test_tab_walks_out_of_the_query_list(main_window: MainWindow, qtbot: Any) -> None:
    view = _active(main_window, qtbot)
    view.queries.query_table.setFocus()
    _key(view.queries.query_table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is view.queries.next_button
    _key(view.queries.next_button, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    _key(view.queries.query_table, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is view.queries.hide_complete


def _menu_actions(window: MainWindow) -> list[QAction]:
    actions: list[QAction] = []
    for top in window.menuBar().actions():
        menu = top.menu()
        assert isinstance(menu, QMenu)
        for action in menu.actions():
            if action.isSeparator() or action.menu() is not None:  # Open Recent: filled on show
                continue
            actions.append(action)
    return actions


def test_every_menu_action_has_its_own_shortcut(main_window: MainWindow) -> None:
    actions = _menu_actions(main_window)
    assert len(actions) >= 18
    missing = [a.text() for a in actions if a.shortcut().isEmpty()]
    assert missing == []
    sequences = [k.toString() for a in actions for k in a.shortcuts()]
    assert len(sequences) == len(set(sequences)), "a shortcut used twice triggers nothing"
    by_text = {a.text().replace("&", ""): a.shortcut().toString() for a in actions}
    assert by_text["Annotate"] == "Ctrl+1" and by_text["Compare"] == "Ctrl+4"
    assert by_text["Next tab"] == "Ctrl+Tab"
    assert by_text["Scoring settings…"] == QKeySequence("Ctrl+,").toString()


def test_scoring_settings_is_in_the_edit_menu(main_window: MainWindow, qtbot: Any) -> None:
    action = next(
        a for a in _menu_actions(main_window) if a.text().replace("&", "") == "Scoring settings…"
    )
    action.trigger()
    dialog = main_window.view("Review").settings_dialog
    assert isinstance(dialog, ScoringSettingsDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    dialog.close()
