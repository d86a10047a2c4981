"""Marks user-visible text defined below ``ui`` for Qt's translation tools.

Modules below ``ndcg_studio.ui`` may not import PySide6, yet some of the text they define
is shown by the GUI (grade labels, band names, column headers). They wrap it in
:func:`QT_TRANSLATE_NOOP`, which returns the text unchanged, so that ``pyside6-lupdate``
(which recognises the call by name) collects it into ``resources/i18n/*.ts`` under the given
context; the GUI translates it where it shows it with
``QCoreApplication.translate(context, text)``. The command line prints the English text.

Source: Qt's ``QT_TRANSLATE_NOOP`` macro, "Internationalization with Qt", Qt 6 documentation.
"""

from __future__ import annotations

__all__ = ["QT_TRANSLATE_NOOP"]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pyside6-lupdate looks for
    """Return ``text`` unchanged; marks it for translation in ``context``.

    Args:
        context: the translation context (a class-like name, e.g. ``"Grades"``).
        text: the English source text.

    Returns:
        ``text`` itself.
    """
    return text
