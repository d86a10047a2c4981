"""Run a function off the GUI thread: the one helper every view uses for database work.

Modelled on Anki's ``QueryOp`` (a closure on a background executor, then a success callback on
the GUI thread), Orange's ``TaskState`` (throttled progress, cooperative cancel, a new task
cancels the old one) and superqt's workers (``started/progress/finished/failed`` signals; an
exception in ``QRunnable.run`` would only be printed, so every exception is caught and delivered
as ``failed``).

The function runs on ``QThreadPool.globalInstance()`` and is called as
``fn(progress, cancelled)``:

- ``progress(done, total)`` reports progress (any thread; throttled to one signal per 50 ms,
  the last call always delivered);
- ``cancelled()`` is True once :meth:`Task.cancel` was called (the Cancel button, or a newer
  task replacing this one); the function should return or raise
  :class:`~ndcg_studio.progress.OperationCancelled` soon (the one protocol of
  :mod:`ndcg_studio.progress`, shared with io and the services).

Its result goes to ``on_success`` on the GUI thread, its exception to ``on_failure`` (default:
:func:`ndcg_studio.ui.errors.show_error`). A cancelled task calls neither. With ``label`` a
``QProgressDialog`` with a Cancel button appears if the task is still running after 300 ms.

Database work follows one rule: one SQLAlchemy session per task, opened and closed inside
``fn`` (the services do this), and only DTOs or arrays cross back to the GUI thread.

A task's QObjects (the :class:`Task` and its :class:`TaskSignals`) are deleted on the GUI thread
and never inside one of the task's own slots: the worker lets go of the signals before it says
it is done (``_Job.released``), and a delivered task stays referenced until both that and its
slots have returned (:func:`_release_delivered`). Before, a task whose last reference was its
own queued slot call died as that call returned, and its QObject destructor reached its signals
through a Python wrapper already freed: a segfault under PySide's ``qt_metacall`` one run in a
few of ``tests/ui/test_stress_workers.py`` (``Shiboken::Object::cppPointer`` in the core dump).
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import QProgressDialog, QWidget

from ndcg_studio import __version__
from ndcg_studio.progress import Cancelled, OperationCancelled, Progress
from ndcg_studio.ui.language import arg

T = TypeVar("T")
TaskFn = Callable[[Progress, Cancelled], T]

#: a task still running after this many milliseconds shows its progress dialog
PROGRESS_DELAY_MS = 300
_PROGRESS_INTERVAL_S = 0.05
#: a delivered task whose worker still holds its signals is looked at again after this long
_RELEASE_RETRY_MS = 10

_running: set[Task[Any]] = set()
#: delivered tasks, released (their last reference dropped) by :func:`_release_delivered`
_delivered: list[Task[Any]] = []


class TaskSignals(QObject):
    """Signals of one :class:`Task`; created on (and delivered to) the GUI thread.

    They carry no Python objects across threads: the result or exception waits on the job and
    the GUI side picks it up when ``finished`` / ``failed`` arrives. (Queued ``Signal(object)``
    emissions from worker threads corrupted reference counts in PySide6 6.12 — "deallocating
    None" at exit — so results never travel inside a signal.)
    """

    started = Signal()
    progress = Signal(int, int)
    finished = Signal()
    failed = Signal()
    cancelled = Signal()


class _Job:
    """The part of a task that runs on the worker thread: the function, the signals to emit and
    the cancel flag; it holds no reference to the :class:`Task` (a QObject that must be deleted
    on the GUI thread), and lets go of the signals once it ran (then sets :attr:`released`)."""

    def __init__(self, fn: TaskFn[Any], signals: TaskSignals, cancel: threading.Event) -> None:
        self.fn = fn
        self.signals: TaskSignals | None = signals
        self.cancel = cancel
        self.last_progress = 0.0
        self.result: Any = None
        self.error: BaseException | None = None
        self.released = threading.Event()

    def report(self, done: int, total: int) -> None:
        now = time.monotonic()
        signals = self.signals
        if signals is None:  # called after the function returned
            return
        if done >= total or now - self.last_progress >= _PROGRESS_INTERVAL_S:
            self.last_progress = now
            _emit(signals.progress, int(done), int(total))

    def __call__(self) -> None:
        try:
            self._run()
        finally:
            # the worker's last reference to the signals goes first: the Task keeps them until
            # it is released, on the GUI thread
            self.signals = None
            self.released.set()

    def _run(self) -> None:
        signals = self.signals
        assert signals is not None
        _emit(signals.started)
        if self.cancel.is_set():
            _emit(signals.cancelled)
            return
        try:
            result = self.fn(self.report, self.cancel.is_set)
        except OperationCancelled:
            _emit(signals.cancelled)
        except BaseException as exc:  # delivered, never only printed
            self.error = exc
            _emit(signals.failed)
        else:
            if self.cancel.is_set():
                _emit(signals.cancelled)
            else:
                self.result = result
                _emit(signals.finished)


def _emit(signal: Any, *args: int) -> None:
    """Emit from the worker thread; if the signals' object was deleted meanwhile (its window
    closed while the task ran), nobody waits for the outcome any more: nothing to do."""
    with contextlib.suppress(RuntimeError):  # "Signal source has been deleted"
        signal.emit(*args)


def _delivering(slot: Callable[..., None]) -> Callable[..., None]:
    """A :class:`Task` slot during which the task is not released (not even from an event loop
    nested in a callback, such as a modal error dialog's)."""

    @functools.wraps(slot)
    def delivering(self: Task[Any], *args: Any) -> None:
        self._in_slot += 1
        try:
            slot(self, *args)
        finally:
            self._in_slot -= 1

    return delivering


def _release_delivered() -> None:
    """Drop the delivered tasks whose worker let go of their signals and whose slots returned:
    their QObjects are deleted here, on the GUI thread, outside any slot of theirs."""
    waiting = [t for t in _delivered if t._in_slot or not t._job.released.is_set()]
    _delivered[:] = waiting
    if waiting:
        QTimer.singleShot(_RELEASE_RETRY_MS, _release_delivered)


class Task(QObject, Generic[T]):
    """One function running (or queued) on the thread pool. Keep it to cancel it."""

    def __init__(
        self,
        fn: TaskFn[T],
        *,
        on_success: Callable[[T], None] | None = None,
        on_failure: Callable[[BaseException], None] | None = None,
        on_progress: Progress | None = None,
        owner: QWidget | None = None,
        label: str | None = None,
    ) -> None:
        super().__init__()
        self._on_success = on_success
        self._on_failure = on_failure
        self._on_progress = on_progress
        self._owner = owner
        self._label = label
        self._started = time.monotonic()
        self._cancel = threading.Event()
        self._done = False
        self._in_slot = 0
        self._dialog: QProgressDialog | None = None
        self.signals = TaskSignals()
        self._job = _Job(fn, self.signals, self._cancel)
        self.signals.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        self.signals.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)
        self.signals.cancelled.connect(self._on_cancelled, Qt.ConnectionType.QueuedConnection)
        self.signals.progress.connect(self._on_progress_signal, Qt.ConnectionType.QueuedConnection)

    # ------------------------------------------------------------------ public
    def start(self) -> Task[T]:
        """Queue the function on the global thread pool (and arm the progress dialog)."""
        _running.add(self)
        if self._label is not None:
            QTimer.singleShot(PROGRESS_DELAY_MS, self, self._show_dialog)
        QThreadPool.globalInstance().start(self._job)
        return self

    def cancel(self) -> None:
        """Ask the function to stop; its result (if any) is dropped."""
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def done(self) -> bool:
        """True once the result, failure or cancellation was delivered on the GUI thread."""
        return self._done

    # ------------------------------------------------------------------ GUI thread
    def _owner_alive(self) -> bool:
        return self._owner is None or shiboken6.isValid(self._owner)

    def _finish(self) -> None:
        self._done = True
        if self._dialog is not None and shiboken6.isValid(self._dialog):
            self._dialog.reset()
            self._dialog.deleteLater()
        self._dialog = None
        _running.discard(self)
        _delivered.append(self)
        if len(_delivered) == 1:
            QTimer.singleShot(0, _release_delivered)

    @Slot()
    @_delivering
    def _on_finished(self) -> None:
        result, self._job.result = self._job.result, None
        self._finish()
        if self._cancel.is_set() or not self._owner_alive():
            return
        if self._on_success is not None:
            self._on_success(result)

    @Slot()
    @_delivering
    def _on_failed(self) -> None:
        exc, self._job.error = self._job.error, None
        assert exc is not None
        self._finish()
        if self._cancel.is_set() or not self._owner_alive():
            return
        if self._on_failure is not None:
            self._on_failure(exc)
        else:
            from ndcg_studio.ui.errors import show_error

            show_error(exc, self._owner, action=self._label)

    @Slot()
    @_delivering
    def _on_cancelled(self) -> None:
        self._finish()

    @Slot(int, int)
    @_delivering
    def _on_progress_signal(self, done: int, total: int) -> None:
        if self._done:
            return
        dialog = self._dialog
        if dialog is not None and shiboken6.isValid(dialog):
            left = time_left(time.monotonic() - self._started, done, total)
            base = self._label or self.tr("Working…")
            dialog.setLabelText(f"{base}\n{left}" if left else base)
            dialog.setMaximum(max(total, 1))
            # last: a window-modal dialog processes events in setValue, where this task (or
            # another) may finish and let its dialog go
            dialog.setValue(min(done, total))
            if self._done:
                return
        if self._on_progress is not None and self._owner_alive():
            self._on_progress(done, total)

    @Slot()
    @_delivering
    def _show_dialog(self) -> None:
        if self._done or self._cancel.is_set():
            return
        parent = self._owner if self._owner_alive() else None
        dialog = QProgressDialog(
            self._label or self.tr("Working…"), self.tr("Cancel"), 0, 0, parent
        )
        title = self.tr("NDCG Studio")
        dialog.setWindowTitle(f"{title} {__version__}")  # the display name: not appended again
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.cancel)
        self._dialog = dialog
        dialog.show()


def time_left(elapsed: float, done: int, total: int) -> str:
    """ "About 2 min left" from the rate so far (elapsed seconds for ``done`` of ``total``
    steps); "" until 2 s and 1 % have passed (the first steps' rate misleads)."""
    if done <= 0 or total <= done or elapsed < 2.0 or done < total / 100:
        return ""
    seconds = elapsed * (total - done) / done
    if seconds < 60:
        return arg(QCoreApplication.translate("Task", "About %1 s left"), max(1, round(seconds)))
    if seconds < 3600:
        return arg(QCoreApplication.translate("Task", "About %1 min left"), round(seconds / 60))
    return arg(QCoreApplication.translate("Task", "About %1 h left"), f"{seconds / 3600:.1f}")


def run_task(
    fn: TaskFn[T],
    *,
    on_success: Callable[[T], None] | None = None,
    on_failure: Callable[[BaseException], None] | None = None,
    on_progress: Progress | None = None,
    owner: QWidget | None = None,
    label: str | None = None,
    replaces: Task[Any] | None = None,
) -> Task[T]:
    """Run ``fn(progress, cancelled)`` on the thread pool and return its :class:`Task`.

    Args:
        on_success: called on the GUI thread with the result (not if cancelled or ``owner``
            was deleted meanwhile).
        on_failure: called on the GUI thread with the exception; default: an error dialog.
        on_progress: called on the GUI thread with ``(done, total)``.
        owner: the widget the task works for: parent of the dialogs; callbacks are skipped once
            it is deleted.
        label: show a progress dialog with this text and a Cancel button if the task runs
            longer than 300 ms (None: no dialog, for quick loads a view shows inline).
        replaces: a previous task to cancel first (Orange's "a new task cancels the old one").
    """
    if replaces is not None and not replaces.done:
        replaces.cancel()
    task: Task[T] = Task(
        fn,
        on_success=on_success,
        on_failure=on_failure,
        on_progress=on_progress,
        owner=owner,
        label=label,
    )
    return task.start()


def running_tasks() -> int:
    """How many tasks have not delivered their outcome yet (for tests and the quit check)."""
    return len(_running)
