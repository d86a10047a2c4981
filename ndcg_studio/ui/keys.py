"""Keys that work under any keyboard layout: letters by their physical key, digits always.

The Annotate view's letter keys (``j``/``k``/``n``/``u``, ``Ctrl+Z``) are chosen by where they
sit on the keyboard, so a Russian (ЙЦУКЕН) or Greek layout, where that key types ``о`` or
``ξ``, still grades. :func:`layout_key` turns a key press into the Qt key of the Latin letter
or digit it means:

1. a Latin letter or digit key is itself (a Latin layout, or a Chinese input method switched
   off: its keys arrive as Latin letters);
2. a full-width digit or letter (``４``, ``ｊ``, typed by a Chinese input method in full-width
   mode) is its ASCII form (Unicode NFKC);
3. another key is matched by its physical key (so a French AZERTY ``&`` is the ``1`` key): the
   native scan code of the US-QWERTY key (X11/Wayland keycodes = Linux evdev codes + 8;
   Windows set-1 scan codes) or the macOS virtual key code (``kVK_ANSI_*``, Carbon
   ``Events.h``);
4. without a usable native code (synthesised events, other platforms), a Cyrillic letter is
   mapped through the standard Russian ЙЦУКЕН layout to the Latin letter of the same key
   (``о``→``j``, ``л``→``k``, ``т``→``n``, ``г``→``u``; ГОСТ 6431 / the Windows and X11
   "ru" layouts).

Qt reports a non-Latin letter's ``key()`` as its upper-case code point (``о`` → ``0x41E``),
so Qt has no ``Key_Cyrillic_*`` names to match against.
"""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

__all__ = ["JCUKEN_TO_QWERTY", "layout_key"]

#: The Russian ЙЦУКЕН layout: each Cyrillic letter → the Latin letter (or punctuation) of the
#: same physical key on US QWERTY.
JCUKEN_TO_QWERTY = dict(
    zip(
        "йцукенгшщзхъфывапролджэячсмитьбюё",
        "qwertyuiop[]asdfghjkl;'zxcvbnm,.`",
        strict=True,
    )
)

# US-QWERTY letters and digits → native codes of their physical key, per Qt platform plugin.
_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"
_EVDEV: tuple[int, ...] = (30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16)
_EVDEV += (19, 31, 20, 22, 47, 17, 45, 21, 44, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10)
#: X11/Wayland (xkb) keycodes: evdev code + 8 (linux/input-event-codes.h).
_XKB = {code + 8: letter for letter, code in zip(_LETTERS, _EVDEV, strict=True)}
#: Windows: PC set-1 scan codes, the same numbers as evdev for these keys.
_WINDOWS = {code: letter for letter, code in zip(_LETTERS, _EVDEV, strict=True)}
#: macOS: kVK_ANSI_A … kVK_ANSI_9 (Carbon HIToolbox/Events.h), nativeVirtualKey().
_MAC_CODES: tuple[int, ...] = (0, 11, 8, 2, 14, 3, 5, 4, 34, 38, 40, 37, 46, 45, 31, 35, 12, 15)
_MAC_CODES += (1, 17, 32, 9, 13, 7, 16, 6, 29, 18, 19, 20, 21, 23, 22, 26, 28, 25)
_MAC = {code: letter for letter, code in zip(_LETTERS, _MAC_CODES, strict=True)}


def _latin(letter: str) -> int:
    return ord(letter.upper())  # Qt's Key_0..Key_9, Key_A..Key_Z are their ASCII codes


def _physical(event: QKeyEvent, platform: str) -> str | None:
    """The US-QWERTY letter or digit at the physical key of ``event``, or None."""
    if platform in ("xcb", "wayland") and event.nativeScanCode():
        return _XKB.get(event.nativeScanCode())
    if platform == "windows" and event.nativeScanCode():
        return _WINDOWS.get(event.nativeScanCode() & 0xFF)
    if platform == "cocoa":
        return _MAC.get(event.nativeVirtualKey())
    return None


def layout_key(event: QKeyEvent, platform: str | None = None) -> int:
    """The Qt key ``event`` means under a US-QWERTY layout, for letters and digits (see the
    module docstring); any other key (arrows, Backspace, …) is ``event.key()`` unchanged.

    Args:
        event: a key press.
        platform: the Qt platform plugin (``xcb``, ``wayland``, ``windows``, ``cocoa``, …);
            None: ``QGuiApplication.platformName()``.

    Returns:
        An ``int`` to compare with ``Qt.Key`` values (``Qt.Key.Key_J`` …).
    """
    key = int(event.key())
    if int(Qt.Key.Key_0) <= key <= int(Qt.Key.Key_9) or int(Qt.Key.Key_A) <= key <= int(
        Qt.Key.Key_Z
    ):
        return key
    text = event.text()
    folded = unicodedata.normalize("NFKC", text).lower() if len(text) == 1 else ""
    if len(folded) == 1 and folded.isascii() and folded.isalnum():
        return _latin(folded)
    if platform is None:
        from PySide6.QtGui import QGuiApplication

        platform = QGuiApplication.platformName()
    letter = _physical(event, platform)
    if letter is None:
        cyrillic = text.lower() if len(text) == 1 else chr(key).lower() if key < 0x110000 else ""
        letter = JCUKEN_TO_QWERTY.get(cyrillic)
    if letter is not None and letter in _LETTERS:
        return _latin(letter)
    return key
