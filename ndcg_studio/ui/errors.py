"""Errors never kill the app: a message box that says what happened and what to do, and the
traceback in a log file (never on the console).

:func:`install` sets ``sys.excepthook`` (PySide6 hands an exception raised in a slot to it) and a
Qt message handler that sends Qt's own warnings to the same log. :func:`show_error` is also
called directly, e.g. by :mod:`ndcg_studio.ui.workers` for a failed background task.

Database problems get specific advice: a locked SQLite file, a lost PostgreSQL connection, a
database written by a newer app version.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from platformdirs import user_log_dir
from PySide6.QtCore import (
    QCoreApplication,
    QMessageLogContext,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ndcg_studio.storage.database import APP_NAME, DatabaseError, DatabaseVersionError
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg

LOG_FILE_NAME = "ndcg-studio.log"
log = logging.getLogger("ndcg_studio")
log.addHandler(logging.NullHandler())  # nothing on the console before setup_logging()


class _State:
    showing = False  # a message box is open: later errors are only logged (no cascade of boxes)


@dataclass(frozen=True)
class ErrorReport:
    """What to tell the person: a title, what happened, what to do."""

    title: str
    what: str
    todo: str


def log_dir() -> Path:
    """The per-user log folder (platformdirs ``user_log_dir``)."""
    return Path(user_log_dir(APP_NAME, appauthor=False))


def log_file() -> Path:
    return log_dir() / LOG_FILE_NAME


def setup_logging(path: Path | None = None) -> Path:
    """Send the ``ndcg_studio`` logger to a rotating file (1 MB × 3); returns its path.
    Nothing is printed on the console."""
    path = path or log_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    for handler in list(log.handlers):
        if isinstance(handler, logging.FileHandler):
            log.removeHandler(handler)
            handler.close()
    handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return path


#: the title and the advice of each kind of error (translated in context "Errors" when shown)
_KINDS: dict[str, tuple[str, str]] = {
    "disconnect": (
        QT_TRANSLATE_NOOP("Errors", "Lost the connection to the database server"),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Check the network connection or ask whoever runs the server whether it is up, "
            "then repeat the last action. Nothing else is lost.",
        ),
    ),
    "locked": (
        QT_TRANSLATE_NOOP("Errors", "The database is busy"),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Wait until the other program (an import in a terminal, a second window of NDCG "
            "Studio) has finished, then repeat the last action.",
        ),
    ),
    "version": (
        QT_TRANSLATE_NOOP("Errors", "Database from a newer version"),
        QT_TRANSLATE_NOOP(
            "Errors", "Install the newer version of NDCG Studio, or open another database."
        ),
    ),
    "refused": (
        QT_TRANSLATE_NOOP("Errors", "Not allowed for your login"),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Grade under your own annotator name (the one of your login). Adjudicating needs a "
            "lead login and imports the owner's: ask the database's owner.",
        ),
    ),
    "database": (
        QT_TRANSLATE_NOOP("Errors", "Database problem"),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Check the path or the server address, then try again (File ▸ Open database…).",
        ),
    ),
    "permission": (
        QT_TRANSLATE_NOOP("Errors", "Permission denied"),
        QT_TRANSLATE_NOOP(
            "Errors", "Choose a file or folder you may read and write, or change its permissions."
        ),
    ),
    "missing": (
        QT_TRANSLATE_NOOP("Errors", "File not found"),
        QT_TRANSLATE_NOOP("Errors", "Check the file name and try again."),
    ),
    "input": (
        QT_TRANSLATE_NOOP("Errors", "The file has problems"),
        QT_TRANSLATE_NOOP(
            "Errors",
            "Nothing was written: the import is all or nothing. Correct the lines listed "
            "(or choose the right file kind, or a grade map for other grade scales) and import "
            "the file again.",
        ),
    ),
    "plain": (
        QT_TRANSLATE_NOOP("Errors", "Cannot do that"),
        "",
    ),
    "value": (
        QT_TRANSLATE_NOOP("Errors", "Cannot do that"),
        QT_TRANSLATE_NOOP("Errors", "Check the input and try again."),
    ),
    "unexpected": (
        QT_TRANSLATE_NOOP("Errors", "Unexpected error"),
        QT_TRANSLATE_NOOP(
            "Errors",
            "NDCG Studio keeps running, and saved work is safe. The details are in %1; "
            "please attach that file when you report the problem.",
        ),
    ),
}


def _kind(exc: BaseException, text: str, db_label: str | None) -> str:
    """The key of :data:`_KINDS` that fits ``exc``."""
    from ndcg_studio.storage.errors import is_connection_lost, is_locked

    if is_connection_lost(exc):
        return "disconnect"
    if is_locked(exc):
        return "locked"
    if isinstance(exc, DatabaseVersionError):
        return "version"
    from ndcg_studio.storage.resilience import WriteRefused

    if isinstance(exc, WriteRefused):
        return "refused"
    from ndcg_studio.storage.failures import known

    if not isinstance(exc, OSError) and known(exc, db_label) is not None:
        return "plain"  # a read-only or damaged file, the server's refusal under another error
    if isinstance(exc, DatabaseError):
        return "database"
    if isinstance(exc, PermissionError):
        return "permission"
    if isinstance(exc, FileNotFoundError):
        return "missing"
    from ndcg_studio.io.errors import InputError

    if isinstance(exc, InputError):
        return "input"
    if isinstance(exc, LookupError | ValueError):
        return "value"
    return "unexpected"


def describe(
    exc: BaseException, action: str | None = None, db_label: str | None = None
) -> ErrorReport:
    """Turn an exception into words for a person (no traceback), in the interface language.
    ``db_label``: the open database (an SQLite path names the file to make writable)."""
    doing = ""
    if action:
        doing = arg(
            QCoreApplication.translate("Errors", " while %1"),
            f"{action[0].lower()}{action[1:].rstrip('.…')}",
        )
    text = str(exc) or type(exc).__name__
    kind = _kind(exc, text, db_label)
    title, todo = (QCoreApplication.translate("Errors", t) if t else "" for t in _KINDS[kind])
    what = text
    if kind == "plain":  # the line says why and what to do (storage's words, as the CLI's)
        from ndcg_studio.storage.failures import known

        what = known(exc, db_label) or text
        what = what[:1].upper() + what[1:]
    elif kind == "disconnect":
        what = QCoreApplication.translate(
            "Errors", "The database server stopped answering%1. Your last change was NOT saved."
        )
        what = arg(what, doing) + f"\n\n{text}"
    elif kind == "locked":
        what = QCoreApplication.translate(
            "Errors",
            "Another program is writing to the database file%1, and it stayed locked for "
            "10 seconds. Your last change was NOT saved.",
        )
        what = arg(what, doing)
    elif kind == "unexpected":
        what = QCoreApplication.translate("Errors", "Something went wrong%1: %2: %3")
        what = arg(what, doing, type(exc).__name__, text)
        todo = arg(todo, log_file())
    return ErrorReport(title, what, todo)


def show_error(
    exc: BaseException,
    parent: QWidget | None = None,
    *,
    action: str | None = None,
    db_label: str | None = None,
) -> None:
    """Log ``exc`` with its traceback and show a message box about it (unless one is already
    open; then it is only logged). ``db_label``: the database the action was on (default: the
    one open in ``parent``'s window) — opening another database names that one."""
    log.error(
        "%s%s",
        f"{action}: " if action else "",
        "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip(),
    )
    app = QApplication.instance()
    if app is None or _State.showing:
        return
    window = parent.window() if parent is not None else None
    report = describe(exc, action, db_label or _database_label(window))
    _State.showing = True
    try:
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(report.title)
        box.setText(report.what)
        box.setInformativeText(report.todo)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.exec()
    finally:
        _State.showing = False
    _give_back_the_keyboard(window)


def _database_label(window: QWidget | None) -> str | None:
    """The label of the database open in ``window`` (a main window's ``context``), if any."""
    database = getattr(getattr(window, "context", None), "database", None)
    label = getattr(database, "label", None)
    return label if isinstance(label, str) else None


def _give_back_the_keyboard(window: QWidget | None) -> None:
    """After a message box the keyboard goes back to ``window`` (X11 window managers may give
    the focus to no window at all when a transient box closes), and its current view takes the
    keys again (Annotate: 0–4 grade at once)."""
    if window is None or not window.isVisible():
        return
    window.activateWindow()
    reactivate = getattr(window, "reactivate", None)
    if callable(reactivate):
        reactivate()


def _excepthook(
    parent_getter: Callable[[], QWidget | None],
) -> Callable[[type[BaseException], BaseException, TracebackType | None], None]:
    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        if exc.__traceback__ is None and tb is not None:
            exc = exc.with_traceback(tb)
        try:
            show_error(exc, parent_getter())
        except Exception:  # pragma: no cover - the handler itself must never raise
            log.exception("error while reporting an error")

    return hook


_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def qt_message_handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's own messages go to the log file, not the console."""
    where = f" ({context.file}:{context.line})" if context.file else ""
    log.log(_QT_LEVELS.get(mode, logging.WARNING), "Qt: %s%s", message, where)


def install(parent_getter: Callable[[], QWidget | None] = lambda: None) -> Callable[[], None]:
    """Install the exception hook and the Qt message handler; returns a function that restores
    the previous ones. ``parent_getter`` returns the window to center the message boxes on."""
    setup_logging()
    previous_hook = sys.excepthook
    sys.excepthook = _excepthook(parent_getter)
    previous_handler = qInstallMessageHandler(qt_message_handler)

    def uninstall() -> None:
        sys.excepthook = previous_hook
        qInstallMessageHandler(previous_handler)

    return uninstall


def install_excepthook_only(
    parent_getter: Callable[[], QWidget | None] = lambda: None,
) -> Callable[[], None]:
    """Only the exception hook (tests keep pytest-qt's Qt message handler)."""
    previous_hook = sys.excepthook
    sys.excepthook = _excepthook(parent_getter)

    def uninstall() -> None:
        sys.excepthook = previous_hook

    return uninstall
