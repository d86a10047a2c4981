"""The main window's status bar: the database, the annotator, the team and the counts as
permanent labels, and messages fitted to the room they leave.

:class:`StatusBar` is an object the main window owns: it listens to the
:class:`~ndcg_studio.ui.context.AppContext` signals itself, and the window and its other parts
show messages through :meth:`StatusBar.show_message`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Slot
from PySide6.QtWidgets import QLabel, QMainWindow

from ndcg_studio import __version__
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import DatabaseCounts
from ndcg_studio.ui import e2e_log
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg, counted
from ndcg_studio.ui.team import team_text
from ndcg_studio.ui.workers import Task, run_task

#: after another database opens, the counts (a scan of its results and judgments) wait this
#: long: they are not on the way to the current tab's first rows (``bench_gui_scale.py``)
COUNTS_DELAY_MS = 1000


class StatusBar(QObject):
    """The status bar of ``window``: permanent labels kept up to date from ``context``'s
    signals, and one message at a time fitted to the room they leave."""

    def __init__(self, window: QMainWindow, context: AppContext) -> None:
        super().__init__(window)
        self._window = window
        self.context = context
        self._counts_task: Task[Any] | None = None
        self._team: list[Any] | None = None
        self._message: tuple[str, float | None] | None = None  # shown text, expiry (monotonic)
        status = window.statusBar()
        self.db_label = QLabel(window)
        self.annotator_label = QLabel(window)
        self.counts_label = QLabel(window)
        self.team_label = QLabel(window)
        for label in (self.db_label, self.annotator_label, self.team_label, self.counts_label):
            label.setContentsMargins(6, 0, 6, 0)
            status.addPermanentWidget(label)
        status.messageChanged.connect(self._on_message_changed)
        status.installEventFilter(self)  # its resize refits the team line
        self._counts_timer = QTimer(self)
        self._counts_timer.setSingleShot(True)
        self._counts_timer.setInterval(COUNTS_DELAY_MS)
        self._counts_timer.timeout.connect(self.refresh_counts)
        context.database_changed.connect(self._on_database_changed)
        context.annotator_changed.connect(self.refresh)
        context.judgments_changed.connect(self.refresh_counts)

    @Slot()
    def _on_database_changed(self) -> None:
        self.refresh()
        if self.context.database is None:
            self.refresh_counts()  # clears the counts
        else:
            self.counts_label.setText("")  # the former database's, until the new ones arrive
            self._counts_timer.start()

    @Slot()
    def refresh(self) -> None:
        """Show the open database (also in the window's title) and the current annotator."""
        database = self.context.database
        if database is None:
            title = QCoreApplication.translate("StatusBar", "NDCG Studio")
            self._window.setWindowTitle(f"{title} {__version__}")
            self.db_label.setText(QCoreApplication.translate("StatusBar", "No database"))
        else:
            label = Path(database.label).name if database.is_sqlite else database.label
            title = arg(QCoreApplication.translate("StatusBar", "%1 — NDCG Studio"), label)
            self._window.setWindowTitle(f"{title} {__version__}")
            self.db_label.setText(
                arg(QCoreApplication.translate("StatusBar", "Database: %1"), label)
            )
            self.db_label.setToolTip(database.label)
        annotator = self.context.annotator
        self.annotator_label.setText(
            arg(QCoreApplication.translate("StatusBar", "Annotator: %1"), annotator.name)
            if annotator
            else QCoreApplication.translate("StatusBar", "No annotator")
        )
        self._refit_message()

    @Slot()
    def refresh_counts(self) -> None:
        """Count the database's queries, documents, runs and judgments again (in a worker)."""
        self._counts_timer.stop()
        database = self.context.database
        if database is None:
            self.counts_label.setText("")
            return
        service = AnnotationService(database)
        self._counts_task = run_task(
            lambda _p, _c: service.counts(),
            on_success=self.show_counts,
            on_failure=lambda exc: self.counts_label.setText(
                QCoreApplication.translate("StatusBar", "counts unavailable")
            ),
            owner=self._window,
            replaces=self._counts_task,
        )

    def show_message(self, text: str, timeout: int = 0) -> None:
        """Show ``text`` in the status bar for ``timeout`` ms (0: until replaced). Text longer
        than the room left by the permanent labels ends in "…" at a word boundary rather than
        mid-word ("…Cleverdon's judgmen"); the whole text is the status bar's tooltip meanwhile.
        When a permanent label changes later (the counts arrive), :meth:`_refit_message` fits
        the text again to the room then left."""
        self._message = (text, time.monotonic() + timeout / 1000 if timeout else None)
        status = self._window.statusBar()
        # sizeHint, not width: a label's width follows its new text only after the next layout
        room = status.width() - 24
        for label in (self.db_label, self.annotator_label, self.team_label, self.counts_label):
            if label.isVisible():
                room -= label.sizeHint().width() + 8
        metrics = status.fontMetrics()
        shown = text
        if metrics.horizontalAdvance(text) > room:
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(room, 80))
            cut = shown.rstrip("…").rstrip()
            if " " in cut and not text.startswith(cut + " "):
                cut = cut.rsplit(" ", 1)[0]  # end at a whole word
            shown = cut.rstrip(" ,;:(") + " …"
        status.setToolTip(text if shown != text else "")
        status.showMessage(shown, timeout)
        e2e_log.event(f"status {text} | {'yes' if shown == text else 'no'}")

    def _refit_message(self) -> None:
        """Fit the message shown now to the room the permanent labels leave after a change."""
        if self._message is None or not self._window.statusBar().currentMessage():
            return
        text, expires = self._message
        if expires is None:
            self.show_message(text)
        elif (left := expires - time.monotonic()) > 0:
            self.show_message(text, max(int(left * 1000), 1))

    def _on_message_changed(self, message: str) -> None:
        if not message:
            self._message = None
            self._window.statusBar().setToolTip("")

    def show_team(self, team: list[Any]) -> None:
        """Show who else works on the database (members of a :class:`TeamWatcher` poll)."""
        self._team = team
        self._fit_team()
        self._refit_message()

    def _fit_team(self) -> None:
        """The team line with as many members (3, 2, 1) as leave the permanent labels inside
        the status bar (the Russian counts are longer: at 1024 px they ran off its end)."""
        team = self._team
        if team is None:
            return
        status = self._window.statusBar()

        def width(label: QLabel) -> int:  # the text's own width: sizeHint lags a new text
            return label.fontMetrics().horizontalAdvance(label.text()) + 12 + 8

        labels = (self.db_label, self.annotator_label, self.counts_label)
        others = sum(width(label) for label in labels if not label.isHidden())
        # the status bar also keeps room for its message area and size grip: labels that sum
        # to the window's width push the window wider
        room = min(status.width(), self._window.width()) - 240
        for limit in (3, 2, 1):
            text, tooltip = team_text(team, limit)
            self.team_label.setText(text)
            self.team_label.setToolTip(tooltip)
            if others + width(self.team_label) <= room:
                break

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit_team()
        return super().eventFilter(watched, event)

    def show_reachable(self, reachable: bool) -> None:
        """Say that the database stopped answering, or answers again."""
        if reachable:
            self.show_message(
                QCoreApplication.translate("StatusBar", "The database answers again."), 5000
            )
        else:
            self.show_message(
                QCoreApplication.translate(
                    "StatusBar", "⚠ The database is not answering; retrying every few seconds…"
                )
            )

    def show_counts(self, counts: DatabaseCounts) -> None:
        """Show the database's counts."""
        self.counts_label.setText(
            " · ".join(
                counted(n, noun)
                for n, noun in (
                    (counts.queries, "queries"),
                    (counts.documents, "documents"),
                    (counts.runs, "runs"),
                    (counts.judgments, "judgments"),
                )
            )
        )
        self._fit_team()
        self._refit_message()
