"""What the end-to-end tests observe: with ``$NDCG_STUDIO_E2E_LOG`` set to a file, the app
appends one line per event a person would see — the keyboard focus moving, the tab changing, a
query's documents shown — so a test driving the app with real X11 key presses
(``tests/e2e/test_x11.py``) can tell where the keys went. Without the variable nothing happens.

Lines (fields separated by one space):

- ``focus ID CLASS NAME table|widget`` — the widget that has the keyboard focus now (ID: the
  C++ object's address, hex; NAME: its objectName or ``-``; ``table`` for item views);
- ``tab TITLE`` — the current tab;
- ``query ID`` — Annotate shows the pool of query ID (database id);
- ``dialog TITLE | TEXT`` — a dialog was shown (TEXT: a message box's text or an input
  dialog's label, on one line; else empty);
- ``menu TITLE | ITEM=on|off; …`` — a menu was opened, with each item enabled or not;
- ``status TEXT | FITS`` — the status bar's one-line message, and ``yes`` when it is shown
  whole (not elided);
- anything a view emits through :func:`event` (``campaign NAME``, …).
"""

from __future__ import annotations

import os
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QInputDialog,
    QMenu,
    QMessageBox,
    QWidget,
)

ENV_VAR = "NDCG_STUDIO_E2E_LOG"


class _State:
    write: Any = None  # the log's writer once installed


def event(line: str) -> None:
    """Log ``line`` (one event a person would see) when the log is on; else nothing."""
    if _State.write is not None:
        _State.write(line.replace("\n", " "))


class _Shown(QObject):
    """Logs dialogs and menus as they are shown (an application-wide event filter)."""

    def eventFilter(self, watched: QObject, e: QEvent) -> bool:
        if e.type() == QEvent.Type.Show and isinstance(watched, QMenu):
            items = "; ".join(
                f"{a.text().replace('&', '')}={'on' if a.isEnabled() else 'off'}"
                for a in watched.actions()
                if not a.isSeparator()
            )
            event(f"menu {watched.title().replace('&', '')} | {items}")
        elif e.type() == QEvent.Type.Show and isinstance(watched, QDialog):
            text = ""
            if isinstance(watched, QMessageBox):
                text = watched.text()
            elif isinstance(watched, QInputDialog):
                text = watched.labelText()
            event(f"dialog {watched.windowTitle()} | {' '.join(text.split())}")
        return False


def describe(widget: QWidget | None) -> str:
    """``ID CLASS NAME table|widget`` of ``widget`` (``none`` for no widget)."""
    if widget is None:
        return "none"
    kind = "table" if isinstance(widget, QAbstractItemView) else "widget"
    address = shiboken6.getCppPointer(widget)[0]
    return f"{address:x} {type(widget).__name__} {widget.objectName() or '-'} {kind}"


def install(app: QApplication, window: Any) -> None:
    """Log ``app``'s focus changes and ``window``'s tab changes (a :class:`MainWindow`) to the
    file named by ``$NDCG_STUDIO_E2E_LOG``, if set."""
    path = os.environ.get(ENV_VAR)
    if not path:
        return
    handle = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (lives with the app)

    def write(line: str) -> None:
        handle.write(line + "\n")

    _State.write = write
    shown = _Shown(app)
    app.installEventFilter(shown)

    app.focusChanged.connect(lambda _old, new: write(f"focus {describe(new)}"))
    window.tabs.currentChanged.connect(lambda i: write(f"tab {window.tabs.tabText(i)}"))
    annotate = window.views.get("Annotate")
    query_loaded = getattr(annotate, "query_loaded", None)
    if query_loaded is not None:
        query_loaded.connect(lambda query_id: write(f"query {query_id}"))
    app.aboutToQuit.connect(handle.close)
    write(f"tab {window.tabs.tabText(window.tabs.currentIndex())}")
