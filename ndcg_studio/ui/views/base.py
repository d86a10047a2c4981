"""What the analysts' views (Review, Agreement, Compare) share: they load lazily, in a worker.

A change (the database, the judgments, a setting) only marks a :class:`LazyView` dirty
(:meth:`LazyView._schedule`); a short single-shot timer coalesces a burst of changes into one
reload, and only while the view is visible: a hidden view reloads when it is shown again or its
tab is activated. The first load from a newly opened database starts on the next turn of the
event loop instead (nothing is shown yet that a burst could make stale). A new load cancels the
running one. The view shows either its content or a centred message (no database, nothing to
show yet, loading).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.storage.database import Database
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import SCORING_KEYS
from ndcg_studio.ui.workers import Task, TaskFn, run_task

T = TypeVar("T")

#: changes within this many milliseconds of each other cause one reload
RELOAD_DELAY_MS = 150

#: what :meth:`LazyView.save_state` saves the ``saveState()`` of
StateWidget = QSplitter | QHeaderView


class LazyView(QWidget, Generic[T]):
    """Base of a view whose data (of type ``T``) is loaded in a worker, lazily.

    Subclasses set the texts below (marked ``QT_TRANSLATE_NOOP("<their class>", …)``; shown
    through :meth:`_text`) and :attr:`STATE_KEY`, implement :meth:`_load_job` and
    :meth:`_on_loaded`, call :meth:`_set_content` once with their widgets, and connect the
    context's signals that invalidate their data to :meth:`_schedule` (a view of scores:
    :meth:`_follow_scoring_inputs`).

    The status label (:attr:`status`, placed by the subclass) reads :attr:`LOADING_STATUS`
    while loading, is cleared when the data arrives and reads :attr:`FAILED_STATUS` after a
    failure, which is also shown in an error dialog (:attr:`FAILED_ACTION` says what failed).
    """

    STATE_KEY = ""
    LOADING_STATUS = QT_TRANSLATE_NOOP("LazyView", "Loading…")
    FAILED_STATUS = QT_TRANSLATE_NOOP("LazyView", "Failed")
    FAILED_ACTION = QT_TRANSLATE_NOOP("LazyView", "Loading")
    NO_DATABASE_TEXT = QT_TRANSLATE_NOOP("LazyView", "No database is open.")

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self._task: Task[T] | None = None
        self._dirty = True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RELOAD_DELAY_MS)
        self._timer.timeout.connect(self.reload)
        #: nothing has been loaded from the current database yet: no reason to wait
        self._first_load_due = True
        self.status = QLabel()
        context.opening_changed.connect(self._schedule)
        # connected before the subclass connects its own reload, so it is called first
        context.database_changed.connect(self._on_database_replaced)

    def _text(self, text: str) -> str:
        """``text`` (one of the class texts above) translated in the context of the class that
        defines it: the view's own class, else a base class's (``LazyView`` for the defaults)."""
        for cls in type(self).__mro__:
            translated = QCoreApplication.translate(cls.__name__, text)
            if translated != text:
                return translated
        return text

    # ------------------------------------------------------------------ subclass hooks
    def _load_job(self, db: Database) -> TaskFn[T]:
        """The function that loads the data in a worker (called on the GUI thread, so it may
        read widgets and update the display first)."""
        raise NotImplementedError

    def _on_loaded(self, data: T) -> None:
        """Show freshly loaded ``data`` (GUI thread)."""
        raise NotImplementedError

    def _state_widgets(self) -> Iterable[tuple[str, StateWidget]]:
        """(settings key, widget) of the splitters and header views whose state persists."""
        return ()

    # ------------------------------------------------------------------ loading
    def reload(self) -> Task[T] | None:
        """Load now in a worker (cancels a running load). None when no database is open."""
        self._timer.stop()
        self._dirty = False
        db = self.context.database
        if db is None:
            # while the first database opens (in a worker) there is one, it is just not here yet
            self._show_empty(
                self._text(LazyView.LOADING_STATUS)
                if self.context.opening
                else self._text(self.NO_DATABASE_TEXT)
            )
            return None
        job = self._load_job(db)
        self._first_load_due = False
        self.status.setText(self._text(self.LOADING_STATUS))
        self._task = run_task(
            job,
            on_success=self._loaded,
            on_failure=self._on_failed,
            owner=self,
            replaces=self._task,
        )
        return self._task

    def is_loading(self) -> bool:
        """Whether a load (or other work listed by :meth:`_tasks`) is still running.

        Every stage counts (Review's agreement columns, Compare's verdict and matrix), which one
        "loaded" signal would not say: ``benchmarks/bench_gui_scale.py`` times a tab until this
        turns False, and the UI tests wait on it."""
        return any(t is not None and not t.done for t in self._tasks())

    def _tasks(self) -> Iterable[Task[Any] | None]:
        return (self._task,)

    def _schedule(self, *_: object) -> None:
        """The data changed: reload soon if visible, else when shown."""
        self._dirty = True
        if self.isVisible():
            self._start_timer()

    def _start_timer(self) -> None:
        """(Re)start the reload timer: :data:`RELOAD_DELAY_MS`, or 0 for the first load from
        the database (its changes arrive together, in one turn of the event loop)."""
        self._timer.start(0 if self._first_load_due else RELOAD_DELAY_MS)

    def _follow_scoring_inputs(self) -> None:
        """Reload (:meth:`_schedule`) when the database or the judgments change, and hand each
        changed setting to :meth:`_on_settings_changed`: what a view of scores depends on."""
        self.context.database_changed.connect(self._schedule)
        self.context.judgments_changed.connect(self._schedule)
        self.context.settings_changed.connect(self._on_settings_changed)

    def _on_settings_changed(self, key: str) -> None:
        """Reload when the setting ``key`` changes the scores (:data:`SCORING_KEYS`)."""
        if key in SCORING_KEYS:
            self._schedule()

    def _on_database_replaced(self) -> None:
        self._first_load_due = True

    def activated(self) -> None:
        """The main window switched to this tab: load now if anything changed meanwhile."""
        if self._dirty:
            self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._dirty:
            self._start_timer()

    def _loaded(self, data: T) -> None:
        self.status.clear()
        self._on_loaded(data)

    def _on_failed(self, exc: BaseException) -> None:
        self.status.setText(self._text(self.FAILED_STATUS))
        from ndcg_studio.ui.errors import show_error

        show_error(exc, self, action=self._text(self.FAILED_ACTION))

    # ------------------------------------------------------------------ pages
    def _set_content(self, content: QWidget) -> None:
        """Lay the view out as two pages: a centred message (:attr:`empty`) and ``content``."""
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty)
        self.pages.addWidget(content)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)

    def _show_empty(self, text: str = "") -> None:
        """Show the message page with ``text`` ("Loading…" when empty)."""
        self.empty.setText(text or self._text(LazyView.LOADING_STATUS))

        self.pages.setCurrentIndex(0)

    # ------------------------------------------------------------------ state
    def save_state(self) -> None:
        s = self.context.settings
        for key, widget in self._state_widgets():
            s.set_byte_array(f"{self.STATE_KEY}/{key}", widget.saveState())

    def restore_state(self) -> None:
        s = self.context.settings
        for key, widget in self._state_widgets():
            state = s.byte_array(f"{self.STATE_KEY}/{key}")
            if state is not None:
                widget.restoreState(state)
