"""Annotate's key map (views.annotate_keys): which key does what, and that the view acts on
every action of the map (the dispatch covers the whole table)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from ndcg_studio.ui.views.annotate.keys import GRADE_KEYS, PLAIN_KEYS, Action, key_action
from ndcg_studio.ui.views.annotate.view import AnnotateView

NONE = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier


def press(key: Qt.Key, mods: Any = NONE, text: str = "") -> QKeyEvent:
    return QKeyEvent(QEvent.Type.KeyPress, key, mods, text)


@pytest.mark.parametrize(
    ("key", "mods", "expected"),
    [
        (Qt.Key.Key_3, NONE, (Action.GRADE, 3)),
        (Qt.Key.Key_0, NONE, (Action.GRADE, 0)),
        (Qt.Key.Key_3, SHIFT, None),  # a digit grades only without a modifier
        (Qt.Key.Key_5, NONE, None),  # not a grade
        (Qt.Key.Key_J, NONE, (Action.NEXT, None)),
        (Qt.Key.Key_J, SHIFT, (Action.NEXT, None)),
        (Qt.Key.Key_J, ALT, None),
        (Qt.Key.Key_Left, NONE, (Action.PREVIOUS, None)),
        (Qt.Key.Key_Delete, NONE, (Action.CLEAR, None)),
        (Qt.Key.Key_Space, NONE, (Action.PAGE_DOWN, None)),
        (Qt.Key.Key_Z, CTRL, (Action.UNDO, None)),
        (Qt.Key.Key_Z, CTRL | SHIFT, (Action.REDO, None)),
        (Qt.Key.Key_Y, CTRL, (Action.REDO, None)),
        (Qt.Key.Key_J, CTRL, None),
    ],
)
def test_key_action(qapp: Any, key: Qt.Key, mods: Any, expected: object) -> None:
    assert key_action(press(key, mods)) == expected


def test_every_key_of_the_map_is_handled_by_the_view(annotate_view: AnnotateView) -> None:
    view = annotate_view
    actions = {a for a in PLAIN_KEYS.values()} | {Action.GRADE, Action.UNDO, Action.REDO}
    assert actions == set(Action)
    # the note dialog is not opened: an ungraded document says "grade it first" instead
    first = view.current_item()
    assert first is not None and first.grade is None
    for key in (k for k, a in PLAIN_KEYS.items() if a is not Action.NOTE):
        assert view.handle_key(press(key)), key
    assert view.handle_key(press(Qt.Key.Key_End)) and view.position() == len(view.pool_items()) - 1
    assert view.handle_key(press(Qt.Key.Key_Home)) and view.position() == 0
    assert view.handle_key(press(Qt.Key.Key_N)) and "Grade the document first" in (
        view.panel.status_label.text()
    )
    grade = next(iter(GRADE_KEYS))
    assert view.handle_key(press(grade)) and view.pool_items()[0].grade == GRADE_KEYS[grade]
    assert view.handle_key(press(Qt.Key.Key_Z, CTRL)) and view.pool_items()[0].grade is None
    assert view.handle_key(press(Qt.Key.Key_Y, CTRL)) and view.pool_items()[0].grade == 0
    assert not view.handle_key(press(Qt.Key.Key_F5))


def _next_tab_stop(widget: Any) -> Any:
    """The widget Tab moves the focus to from ``widget`` (its focus chain, as Qt walks it)."""
    candidate = widget.nextInFocusChain()
    while not (
        candidate.focusPolicy() & Qt.FocusPolicy.TabFocus
        and candidate.isVisible()
        and candidate.isEnabled()
    ):
        candidate = candidate.nextInFocusChain()
    return candidate


def test_tab_goes_from_the_query_list_to_the_document_panel(annotate_view: AnnotateView) -> None:
    # the side tab widget (query list | campaign) has no tab bar without a campaign and must
    # not hold the focus for it: under X11 Tab stopped there (tests/e2e/test_x11.py)
    view = annotate_view
    assert _next_tab_stop(view.queries.filter_edit) is view.queries.hide_complete
    assert _next_tab_stop(view.queries.query_table) is view.queries.next_button
    assert _next_tab_stop(view.queries.next_button) is view.panel
    view.queries.next_button.setFocus()
    QTest.keyClick(view.queries.next_button, Qt.Key.Key_Tab)  # as Qt walks it, focus proxies too
    assert QApplication.focusWidget() is view.panel
