"""Starting the desktop app: QApplication, error handling, the database, the main window."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ndcg_studio import __version__
from ndcg_studio.services.demo import demo_database_path
from ndcg_studio.storage.database import APP_NAME, ENV_VAR

if TYPE_CHECKING:  # PySide6 is imported when the GUI starts, not with the CLI
    from PySide6.QtWidgets import QApplication

    from ndcg_studio.ui.window.main_window import MainWindow

#: ``QSettings`` and ``platformdirs`` both use this name, so the settings file sits in
#: ``~/.config/ndcg-studio/`` next to nothing else (Linux; the platform's places elsewhere).
ORGANIZATION = APP_NAME
DISPLAY_NAME = "NDCG Studio"

#: The Qt-free modules the views import, imported before PySide6 (:func:`import_before_qt`):
#: once loaded, PySide6's ``__feature__`` import hook reads the whole source of every module
#: imported after it (``shibokensupport.feature._mod_uses_pyside``: ``inspect.getsource``), and
#: these bring in NumPy, SQLAlchemy and the services, some 400 modules. A module missing here is
#: only imported later, the slower way (``benchmarks/bench_gui_scale.py``, window shown).
#: ``services.campaigns`` (the campaign panel's, at its first refresh) brings SQLAlchemy's ORM,
#: which the first session needs (in the worker that opens the database): both are on the way
#: to every tab's first rows, and here not between the window shown and the view's load.
_BEFORE_QT = (
    "logging.handlers",
    "ndcg_studio.services.screens.agreement",
    "ndcg_studio.services.annotation.service",
    "ndcg_studio.services.campaigns.service",
    "ndcg_studio.services.changes.service",
    "ndcg_studio.services.screens.compare",
    "ndcg_studio.services.screens.estimate",
    "ndcg_studio.services.annotation.edits",
    "ndcg_studio.services.scoring.multirun",
    "ndcg_studio.services.annotation.next_unjudged",
    "ndcg_studio.services.annotation.pool_order",
    "ndcg_studio.services.screens.review",
    "ndcg_studio.services.scoring.service",
    "ndcg_studio.services.stability.service",
    "ndcg_studio.services.verdict",
)


def import_before_qt() -> None:
    """Import :data:`_BEFORE_QT`; call it before the first import of PySide6 (after that it
    gains nothing)."""
    for name in _BEFORE_QT:
        importlib.import_module(name)


def _application() -> QApplication:
    """The QApplication (created unless one exists), named for QSettings and the title bar."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv)
    # with the version: Qt appends the display name to a window title that does not end with
    # it (the main window's does: ui.window.status_bar)
    app.setApplicationDisplayName(f"{DISPLAY_NAME} {__version__}")
    from ndcg_studio.ui.app_icon import app_icon

    app.setWindowIcon(app_icon())
    return app


def run_gui(db: str | None = None, demo: bool = False, lang: str | None = None) -> int:
    """Open the main window on ``db`` (a path or URL; None: ``$NDCG_STUDIO_DB``, else the default
    file), or on the demo database with ``demo``, and run the Qt event loop.

    ``lang`` ("en", "zh_CN", "ru"; ``--lang``) overrides the interface language for this run;
    None: the one chosen in View ▸ Language, else the system's (:mod:`ndcg_studio.ui.language`).

    Uncaught exceptions show a message box and are logged (see :mod:`ndcg_studio.ui.errors`);
    the app keeps running. Returns the exit code of the event loop, or 1 (after one line on
    stderr) when Qt's X11 plugin lacks system libraries (:mod:`ndcg_studio.ui.system_libraries`).
    """
    from ndcg_studio.ui.system_libraries import check_xcb

    problem = check_xcb()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    # The start imports some 1,000 modules whose objects live as long as the app: none of them
    # is garbage, yet the collector would walk them again and again while they come. Frozen
    # after, later collections skip them (``bench_gui_scale.py``: CPU s at window shown).
    gc.disable()
    try:
        import_before_qt()
        import shiboken6
        from PySide6.QtCore import QCoreApplication, QEvent

        from ndcg_studio.ui import e2e_log, errors
        from ndcg_studio.ui.context import AppContext
        from ndcg_studio.ui.language import apply_language, resolve_language, warn_missing_font
        from ndcg_studio.ui.settings import THEME
        from ndcg_studio.ui.theme import apply_theme
        from ndcg_studio.ui.window.main_window import MainWindow
    finally:
        gc.freeze()
        gc.enable()

    app = _application()
    window: MainWindow | None = None
    # first: an error in anything below (settings, the window's construction) is shown and logged
    uninstall = errors.install(lambda: window)
    context = AppContext()
    undo_language: Callable[[], None] = lambda: None  # noqa: E731
    try:
        # before any widget exists: the views translate their text once, when they are built
        code = resolve_language(lang, context.settings)
        undo_language = apply_language(code)
        apply_theme(context.settings.get(THEME), app)  # View ▸ Theme; "system" changes nothing
        window = MainWindow(context)
        e2e_log.install(app, window)
        _show_and_open(window, db, demo)
        warn_missing_font(code, window)  # else Chinese shows as boxes with no word why
        return int(app.exec())
    finally:
        uninstall()
        undo_language()
        database = context.database
        if database is not None:
            database.dispose()
        # nothing left behind for a later event loop in this process (tests, embedding): the
        # window, a Quit event posted when its last window closed, and the start's frozen objects
        # (console_main freezes everything again before the process exits)
        if window is not None:
            shiboken6.delete(window)
        QCoreApplication.removePostedEvents(app, QEvent.Type.Quit)
        gc.unfreeze()


def _show_and_open(window: MainWindow, db: str | None, demo: bool) -> None:
    """Show ``window``, then open its first database (:func:`run_gui`'s ``db`` / ``demo``) on
    the first turn of the event loop."""
    from PySide6.QtCore import QTimer

    target = str(demo_database_path()) if demo else db
    window.show()
    # The first start on the default database (no --db, no $NDCG_STUDIO_DB) finds it empty and
    # loads the demo, so there is something to look at; an explicit database is left as it is.
    default_database = db is None and not os.environ.get(ENV_VAR)
    # the demo and the default file are created when missing; any other path asks first
    QTimer.singleShot(
        0,
        lambda: window.databases.open_database(
            target, load_demo=demo or default_database, create=True if demo else None
        ),
    )
