"""The Annotate keys under a Russian (ЙЦУКЕН) layout and a Chinese input method: the key
events those layouts produce (Qt's ``key()`` of a Cyrillic letter is its upper-case code point,
``text()`` the letter, the native scan code that of the physical key) run the same actions."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QApplication

from ndcg_studio.ui.keys import JCUKEN_TO_QWERTY, layout_key
from ndcg_studio.ui.views.annotate.note import NoteDialog
from ndcg_studio.ui.views.annotate.view import AnnotateView
from tests.ui.conftest import UiData
from tests.ui.test_annotate import judgments

NO = Qt.KeyboardModifier.NoModifier
#: X11 keycodes (evdev + 8) of the US-QWERTY keys J, K, N, U, Z, 0-4.
XKB = {"j": 44, "k": 45, "n": 57, "u": 30, "z": 52, "0": 19, "1": 10, "2": 11, "3": 12, "4": 13}


def press(
    view: AnnotateView,
    text: str,
    *,
    scan: int = 0,
    key: int | None = None,
    mods: Any = NO,
) -> None:
    """Send a key press as a layout produces it (key = upper-case code point of ``text``)."""
    code = key if key is not None else (ord(text.upper()) if text else 0)
    event = QKeyEvent(QEvent.Type.KeyPress, code, mods, scan, 0, 0, text)
    QApplication.sendEvent(view.panel, event)


def grades(ui_data: UiData) -> dict[int, int]:
    """document id -> alice's grade of q1."""
    return {d: g for d, (g, _) in judgments(ui_data, ui_data.alice.id).items()}


def test_the_jcuken_table_is_the_russian_layout() -> None:
    assert [JCUKEN_TO_QWERTY[c] for c in "олтгя"] == list("jknuz")
    assert len(set(JCUKEN_TO_QWERTY.values())) == 33  # a key each


@pytest.mark.parametrize("platform", ["xcb", "offscreen"])
def test_russian_layout_letters_act_like_their_latin_keys(
    qtbot: Any,
    annotate_view: AnnotateView,
    ui_data: UiData,
    monkeypatch: pytest.MonkeyPatch,
    platform: str,
) -> None:
    """xcb: matched by the physical key (scan code); offscreen (no native codes): by the
    ЙЦУКЕН table."""
    monkeypatch.setattr("PySide6.QtGui.QGuiApplication.platformName", lambda: platform)
    view = annotate_view

    def scan(latin: str) -> int:
        return XKB[latin] if platform == "xcb" else 0

    press(view, "о", scan=scan("j"))  # о is on the J key: next
    press(view, "о", scan=scan("j"))
    assert view.position() == 2
    press(view, "л", scan=scan("k"))  # л on K: previous
    assert view.position() == 1
    press(view, "3", scan=scan("3"))  # digits are digits on ЙЦУКЕН
    assert view.position() == 2 and list(grades(ui_data).values()) == [3]
    press(view, "л", scan=scan("k"))
    press(view, "л", scan=scan("k"))
    assert view.position() == 0
    press(view, "г", scan=scan("u"))  # г on U: next unjudged (0 is unjudged, then 2)
    assert view.position() in (0, 2) and view.current_item().grade is None
    asked: list[str] = []
    monkeypatch.setattr(NoteDialog, "ask", lambda *a, **k: (asked.append("n"), ("", False))[1])
    press(view, "л", scan=scan("k"))
    press(view, "л", scan=scan("k"))
    press(view, "о", scan=scan("j"))  # at the graded document 1
    assert view.position() == 1
    press(view, "т", scan=scan("n"))  # т on N: the note
    assert asked == ["n"]
    press(view, "я", scan=scan("z"), mods=Qt.KeyboardModifier.ControlModifier)  # Ctrl+Я = undo
    assert grades(ui_data) == {}


def test_a_greek_layout_works_by_scan_code_only(annotate_view: AnnotateView) -> None:
    """No table knows Greek: the physical key alone decides (ξ is on J in the Greek layout)."""
    view = annotate_view
    event = QKeyEvent(QEvent.Type.KeyPress, ord("Ξ"), NO, XKB["j"], 0, 0, "ξ")
    assert layout_key(event, "xcb") == Qt.Key.Key_J
    assert layout_key(event, "offscreen") == ord("Ξ")  # no native code there: unchanged
    assert layout_key(event, "windows") == Qt.Key.Key_Z  # scan code 44 is Z on Windows…
    win = QKeyEvent(QEvent.Type.KeyPress, ord("Ξ"), NO, 0x24, 0, 0, "ξ")
    assert layout_key(win, "windows") == Qt.Key.Key_J  # …0x24 is J
    mac = QKeyEvent(QEvent.Type.KeyPress, ord("Ξ"), NO, 0, 38, 0, "ξ")
    assert layout_key(mac, "cocoa") == Qt.Key.Key_J  # kVK_ANSI_J
    assert view.position() == 0


def test_digits_from_the_numpad_and_full_width_digits_grade(
    qtbot: Any, annotate_view: AnnotateView, ui_data: UiData, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("PySide6.QtGui.QGuiApplication.platformName", lambda: "xcb")
    view = annotate_view
    press(view, "2", key=Qt.Key.Key_2, mods=Qt.KeyboardModifier.KeypadModifier)
    assert view.position() == 1 and sorted(grades(ui_data).values()) == [2]
    press(view, "４", key=0xFF14)  # a full-width 4 from a Chinese IME in full-width mode
    assert view.position() == 2 and sorted(grades(ui_data).values()) == [2, 4]
    # a French AZERTY digit row: unshifted "&" on the 1 key
    press(view, "&", key=Qt.Key.Key_Ampersand, scan=XKB["1"])
    assert view.position() == 3 and sorted(grades(ui_data).values()) == [1, 2, 4]


def test_a_chinese_input_method(qtbot: Any, annotate_view: AnnotateView, ui_data: UiData) -> None:
    """The panel never asks for an input method, so with the IME off the keys arrive as Latin
    letters and digits; a character an IME commits anyway acts as its key."""
    view = annotate_view
    assert not view.panel.testAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled)
    press(view, "j", key=Qt.Key.Key_J)
    assert view.position() == 1
    press(view, "1", key=Qt.Key.Key_1)
    assert view.position() == 2 and sorted(grades(ui_data).values()) == [1]
    for committed, position in (("k", 1), ("３", 2), ("ｋ", 1)):
        event = QInputMethodEvent()
        event.setCommitString(committed)
        QApplication.sendEvent(view.panel, event)
        assert view.position() == position, committed
    assert sorted(grades(ui_data).values()) == [3]  # "３" re-graded document 1
