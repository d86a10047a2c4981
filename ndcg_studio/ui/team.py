"""Seeing the team's work without restarting: a poller of the open database.

Every few seconds (in a worker) :class:`TeamWatcher` reads the database's
:class:`~ndcg_studio.services.annotation.service.ChangeMarker` — four index look-ups. When it moved
because *someone else* graded, adjudicated or imported (another annotator on the shared
PostgreSQL server, or a terminal import into the same SQLite file), it tells every view to reload
(``AppContext.notify_judgments_changed(None)``): the query list's progress, the scores and the
agreement then reflect the others' judgments. It also keeps the status bar's team line (each
annotator's number of judgments; counts only, so annotating stays blind) and reports an
unreachable server until it answers again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QWidget

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import ChangeMarker, TeamMember, TeamProgress
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg, number, plural
from ndcg_studio.ui.workers import Task, run_task

#: how often the database is asked for changes
POLL_INTERVAL_MS = 5_000


@dataclass(frozen=True)
class _Poll:
    marker: ChangeMarker
    others_changed: bool
    team: TeamProgress | None


class TeamWatcher(QObject):
    """Polls the open database for other people's changes.

    Signals:
        team_changed(list[TeamMember]): the team's progress after a change.
        reachable_changed(bool): the database stopped or started answering.
    """

    team_changed = Signal(object)
    reachable_changed = Signal(bool)

    def __init__(
        self, context: AppContext, owner: QWidget, interval_ms: int = POLL_INTERVAL_MS
    ) -> None:
        super().__init__(owner)
        self.context = context
        self._owner = owner
        self._marker: ChangeMarker | None = None
        #: the last team line read: the next reads only the history written since
        self._team: TeamProgress | None = None
        self._task: Task[_Poll] | None = None
        self._reachable = True
        self._team_due = True
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.poll)
        context.database_changed.connect(self._on_database_changed)
        if context.database is not None:
            QTimer.singleShot(0, self._on_database_changed)

    @Slot()
    def _on_database_changed(self) -> None:
        self._marker = None
        self._team = None
        if self.context.database is None:
            self._timer.stop()
            return
        # the baseline at once; the team line (two scans of the judgments) at the next tick, so
        # it does not compete with the tabs' first loads (bench_gui_scale.py, CPU at first rows)
        self._team_due = True
        self.poll(team=False)
        self._timer.start()

    @Slot()
    def poll(self, team: bool = True) -> Task[_Poll] | None:
        """Ask the database now (skipped while the previous question is still open); ``team``
        False: only the change marker, not the team line."""
        database = self.context.database
        if database is None or (self._task is not None and not self._task.done):
            return None
        since, due, previous = self._marker, team and self._team_due, self._team
        annotator = self.context.annotator
        me = annotator.id if annotator is not None else None

        def work(_progress: Any, _cancelled: Any) -> _Poll:
            service = AnnotationService(database)
            marker = service.change_marker()
            if since is None or (marker == since and not due):
                return _Poll(marker, False, None)
            others = service.changed_by_others(since, me)
            return _Poll(marker, others, service.team_progress(previous) if team else None)

        self._task = run_task(
            work,
            on_success=lambda result: self._on_polled(result, database),
            on_failure=self._on_failed,
            owner=self._owner,
        )
        return self._task

    def _on_polled(self, result: _Poll, database: object) -> None:
        self._set_reachable(True)
        if self.context.database is not database:  # closed or another opened meanwhile
            return
        self._marker = result.marker
        if result.others_changed:
            self.context.notify_judgments_changed(None)
        if result.team is not None:
            self._team_due = False
            self._team = result.team
            self.team_changed.emit(result.team.members)

    def _on_failed(self, _exc: BaseException) -> None:
        # The server may be restarting: say so, keep polling; the engine reconnects by itself.
        self._set_reachable(False)

    def _set_reachable(self, reachable: bool) -> None:
        if reachable != self._reachable:
            self._reachable = reachable
            self.reachable_changed.emit(reachable)

    def stop(self) -> None:
        self._timer.stop()


class TeamText(QObject):
    """The context of :func:`team_text`'s plural (pyside6-lupdate collects a ``%n`` plural from
    ``self.tr`` with a variable count, not from ``QCoreApplication.translate``)."""

    def judgments(self, n: int) -> str:
        """'%1: %n judgment(s)' in the interface language, plural form for ``n``."""
        return plural(self.tr("%1: %n judgment(s)", "", n), n)


def team_text(team: list[TeamMember], limit: int = 3) -> tuple[str, str]:
    """The status bar's team line and its tooltip, e.g. ``"Team: alice 120 · bob 98 · +2"``."""
    active = [m for m in team if m.judged]
    shown = " · ".join(f"{m.name} {number(m.judged)}" for m in active[:limit])
    more = f" · +{len(active) - limit}" if len(active) > limit else ""
    last = QCoreApplication.translate("TeamWatcher", ", last change %1 UTC")
    text = TeamText()
    lines = [
        arg(text.judgments(m.judged), m.name)
        + (arg(last, f"{m.last_change:%Y-%m-%d %H:%M}") if m.last_change else "")
        for m in team
    ]
    team_line = arg(QCoreApplication.translate("TeamWatcher", "Team: %1"), shown + more)
    return (team_line if active else ""), "\n".join(lines)
