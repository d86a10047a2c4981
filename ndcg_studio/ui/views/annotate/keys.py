"""Annotate's key map: which key does what in the document panel.

``0``–``4`` grade and advance; ``Right``/``Down``/``j`` next, ``Left``/``Up``/``k`` previous;
``Backspace``/``Delete`` clear the grade; ``n`` edits the note; ``u`` jumps to the next unjudged
document; ``Home``/``End`` first/last document; ``Space``/``PageDown`` and ``PageUp`` scroll the
text; ``Ctrl+Z`` / ``Ctrl+Shift+Z`` (``Ctrl+Y``) undo / redo. Letters are matched by physical key
under any keyboard layout (:func:`~ndcg_studio.ui.keys.layout_key`).
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.keys import layout_key

#: the digit keys and the grade each gives
GRADE_KEYS: dict[Qt.Key, int] = {
    Qt.Key.Key_0: 0,
    Qt.Key.Key_1: 1,
    Qt.Key.Key_2: 2,
    Qt.Key.Key_3: 3,
    Qt.Key.Key_4: 4,
}

#: the keys the document panel shows as a hint (the tooltip adds the rest); translated in
#: context "DocumentPanel"
HINT = QT_TRANSLATE_NOOP(
    "DocumentPanel", "Keys: 0–4 grade · ←/→ move · ⌫ clear · N note · U next unjudged"
)


class Action(Enum):
    """What a key asks the Annotate view to do (a grade key: :attr:`GRADE`, with its grade)."""

    GRADE = "grade"
    NEXT = "next"
    PREVIOUS = "previous"
    CLEAR = "clear"
    NOTE = "note"
    NEXT_UNJUDGED = "next_unjudged"
    FIRST = "first"
    LAST = "last"
    PAGE_DOWN = "page_down"
    PAGE_UP = "page_up"
    UNDO = "undo"
    REDO = "redo"


#: keys acting without a modifier or with Shift (the grade digits: without a modifier only)
PLAIN_KEYS: dict[Qt.Key, Action] = {
    Qt.Key.Key_Right: Action.NEXT,
    Qt.Key.Key_Down: Action.NEXT,
    Qt.Key.Key_J: Action.NEXT,
    Qt.Key.Key_Left: Action.PREVIOUS,
    Qt.Key.Key_Up: Action.PREVIOUS,
    Qt.Key.Key_K: Action.PREVIOUS,
    Qt.Key.Key_Backspace: Action.CLEAR,
    Qt.Key.Key_Delete: Action.CLEAR,
    Qt.Key.Key_N: Action.NOTE,
    Qt.Key.Key_U: Action.NEXT_UNJUDGED,
    Qt.Key.Key_Home: Action.FIRST,
    Qt.Key.Key_End: Action.LAST,
    Qt.Key.Key_PageDown: Action.PAGE_DOWN,
    Qt.Key.Key_Space: Action.PAGE_DOWN,
    Qt.Key.Key_PageUp: Action.PAGE_UP,
}


def key_action(event: QKeyEvent) -> tuple[Action, int | None] | None:
    """The action of a key press in the document panel and its grade (for :attr:`Action.GRADE`,
    else None); None when the key is not Annotate's (the widget handles it as usual)."""
    key = layout_key(event)
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    ctrl = Qt.KeyboardModifier.ControlModifier
    shift = Qt.KeyboardModifier.ShiftModifier
    if mods == ctrl and key == Qt.Key.Key_Z:
        return Action.UNDO, None
    if (mods == ctrl | shift and key == Qt.Key.Key_Z) or (mods == ctrl and key == Qt.Key.Key_Y):
        return Action.REDO, None
    if mods not in (Qt.KeyboardModifier.NoModifier, shift):
        return None
    if key in GRADE_KEYS:
        if mods == Qt.KeyboardModifier.NoModifier:
            return Action.GRADE, GRADE_KEYS[Qt.Key(key)]
        return None
    action = PLAIN_KEYS.get(Qt.Key(key)) if key in PLAIN_KEYS else None
    return None if action is None else (action, None)
