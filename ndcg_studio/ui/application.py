"""Starting the desktop app: QApplication, error handling, the database, the main window."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from ndcg_studio import __version__
from ndcg_studio.services.demo import demo_database_path
from ndcg_studio.storage.database import APP_NAME, ENV_VAR

if TYPE_CHECKING:  # PySide6 is imported when the GUI starts, not with the CLI
    from PySide6.QtWidgets import QApplication

#: ``QSettings`` and ``platformdirs`` both use this name, so the settings file sits in
#: ``~/.config/ndcg-studio/`` next to nothing else (Linux; the platform's places elsewhere).
ORGANIZATION = APP_NAME
DISPLAY_NAME = "NDCG Studio"


def _application() -> QApplication:
    """The QApplication (created unless one exists), named for QSettings and the title bar."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv)
    app.setApplicationDisplayName(DISPLAY_NAME)
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
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent, QTimer

    from ndcg_studio.ui import e2e_log, errors
    from ndcg_studio.ui.context import AppContext
    from ndcg_studio.ui.language import apply_language, resolve_language
    from ndcg_studio.ui.main_window import MainWindow
    from ndcg_studio.ui.settings import THEME
    from ndcg_studio.ui.theme import apply_theme

    app = _application()
    context = AppContext()
    # before any widget exists: the views translate their text once, when they are built
    undo_language = apply_language(resolve_language(lang, context.settings))
    apply_theme(context.settings.get(THEME), app)  # View ▸ Theme's choice; "system" changes nothing
    window = MainWindow(context)
    uninstall = errors.install(lambda: window)
    e2e_log.install(app, window)
    target = str(demo_database_path()) if demo else db
    window.show()
    # The first start on the default database (no --db, no $NDCG_STUDIO_DB) finds it empty and
    # loads the demo, so there is something to look at; an explicit database is left as it is.
    default_database = db is None and not os.environ.get(ENV_VAR)
    # the demo and the default file are created when missing; any other path asks first
    QTimer.singleShot(
        0,
        lambda: window.open_database(
            target, load_demo=demo or default_database, create=True if demo else None
        ),
    )
    try:
        return int(app.exec())
    finally:
        uninstall()
        undo_language()
        database = context.database
        if database is not None:
            database.dispose()
        # nothing left behind for a later event loop in this process (tests, embedding): the
        # window, and a Quit event posted when its last window closed
        shiboken6.delete(window)
        QCoreApplication.removePostedEvents(app, QEvent.Type.Quit)
