"""The main window's database actions: File ▸ New database…, Open database…, Connect to
server…, opening in a worker (create, upgrade, the annotator: on a team server the login, else
the one remembered here), and the Cranfield demo.

:class:`DatabaseMenu` is an object the main window owns: it opens databases into the
:class:`~ndcg_studio.ui.context.AppContext` and reports through the window's
:class:`~ndcg_studio.ui.window.status_bar.StatusBar`. Without an annotator nobody is asked at
once: an analyst needs no name; Annotate asks when grading starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Slot
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMainWindow, QMessageBox

from ndcg_studio.services import demo
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import AnnotatorInfo
from ndcg_studio.storage.database import Database, describe_url, open_database, resolve_url
from ndcg_studio.storage.roles import Rights, rights_of
from ndcg_studio.ui import errors
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext, database_target
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.window.status_bar import StatusBar
from ndcg_studio.ui.workers import Task, run_task


def _opening(url: Any) -> str:
    """'Opening judgments.sqlite…' (a file) or 'Opening server…' (a server)."""
    where = url.database if url.get_backend_name() == "sqlite" else url.host
    return arg(QCoreApplication.translate("DatabaseMenu", "Opening %1…"), where)


class DatabaseMenu(QObject):
    """Opening databases and loading the demo, for ``window`` (parent of its dialogs, owner of
    its tasks); messages go to ``status``."""

    def __init__(self, window: QMainWindow, context: AppContext, status: StatusBar) -> None:
        super().__init__(window)
        self._window = window
        self.context = context
        self._status = status
        self._open_task: Task[Any] | None = None

    def require_database(self, title: str) -> bool:
        """True when a database is open; otherwise say so under ``title`` and return False."""
        if self.context.database is None:
            QMessageBox.information(
                self._window,
                title,
                QCoreApplication.translate(
                    "MainWindow", "Open a database first (File ▸ Open database…)."
                ),
            )
            return False
        return True

    @Slot()
    def new_database(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self._window,
            QCoreApplication.translate("DatabaseMenu", "New database"),
            str(Path(self.context.last_folder()) / "judgments.sqlite"),
            QCoreApplication.translate("DatabaseMenu", "SQLite database (*.sqlite *.db)"),
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if not path:
            return
        if Path(path).exists():
            QMessageBox.information(
                self._window,
                QCoreApplication.translate("DatabaseMenu", "New database"),
                arg(
                    QCoreApplication.translate(
                        "DatabaseMenu",
                        "%1 already exists; use File ▸ Open database… to open it.",
                    ),
                    path,
                ),
            )
            return
        self.context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
        self.open_database(path, create=True)

    @Slot()
    def open_database_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self._window,
            QCoreApplication.translate("DatabaseMenu", "Open database"),
            self.context.last_folder(),
            QCoreApplication.translate(
                "DatabaseMenu", "SQLite database (*.sqlite *.db);;All files (*)"
            ),
        )
        if path:
            self.context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
            self.open_database(path)

    @Slot()
    def connect_server(self) -> None:
        url, ok = QInputDialog.getText(
            self._window,
            QCoreApplication.translate("DatabaseMenu", "Connect to a team server"),
            QCoreApplication.translate(
                "DatabaseMenu",
                "PostgreSQL URL (password in ~/.pgpass or $PGPASSWORD, not here):",
            ),
            text="postgresql://user@server/relevance",
        )
        if ok and url.strip():
            self.open_database(url.strip())

    def open_database(
        self,
        target: str | None,
        *,
        load_demo: bool = False,
        on_open: Any = None,
        create: bool | None = None,
    ) -> Task[Any] | None:
        """Open (create, upgrade) ``target`` — a path or URL; None: $NDCG_STUDIO_DB or the
        default file — in a worker, then make it current with the remembered annotator (or ask
        for a name). With ``load_demo``, an empty database gets the demo data set.

        A database file that does not exist is created only with ``create=True`` (File ▸ New
        database, the demo, the default file); with None the user is asked first (default: no),
        so a mistyped ``--db`` or path does not silently become a new empty database. Returns
        None when nothing is opened."""
        name = self.context.remembered_annotator_name()
        url = resolve_url(target)
        if create is None and target is not None and not self._may_create(url):
            return None

        Opened = tuple[Database, AnnotatorInfo | None, bool, Rights]

        def work(_progress: Any, _cancelled: Any) -> Opened:
            # lean: no memory map, page caches freed between jobs (the app's RSS)
            database = open_database(url, lean=True)
            try:
                rights = rights_of(database)
                # a team database's annotators are its logins: an annotator login grades under
                # its login (no question); a name remembered from another database (or the OS
                # user) is not this login's, and would be refused
                if rights.team and not rights.owner and rights.login:
                    known = rights.login
                else:
                    known = name if not rights.team or rights.owner else ""
                service = AnnotationService(database)
                annotator = service.ensure_annotator(known) if known else None
                empty = load_demo and demo.is_empty(database)  # counts() scans at scale
            except BaseException:
                database.dispose()
                raise
            return database, annotator, empty, rights

        def failed(exc: BaseException) -> None:
            self.context.set_opening(False)
            action = QCoreApplication.translate("DatabaseMenu", "Opening the database")
            errors.show_error(exc, self._window, action=action, db_label=describe_url(url))

        def done(result: Opened) -> None:
            database, annotator, empty, rights = result
            self.context.set_opening(False)
            self.context.set_database(database, annotator, rights=rights)
            self.context.settings.add_recent_database(database_target(database))
            if empty:
                self.load_demo()
            if on_open is not None:
                on_open(database)

        self.context.set_opening(True)
        self._open_task = run_task(
            work,
            on_success=done,
            on_failure=failed,
            owner=self._window,
            label=_opening(url),
            replaces=self._open_task,
        )
        return self._open_task

    def _may_create(self, url: Any) -> bool:
        """True unless ``url`` is a database file that does not exist and the user chose not
        to create it (the question defaults to No)."""
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
            return True
        path = Path(url.database).expanduser()
        if path.exists():
            return True
        answer = QMessageBox.question(
            self._window,
            QCoreApplication.translate("DatabaseMenu", "Open database"),
            arg(
                QCoreApplication.translate(
                    "DatabaseMenu",
                    "There is no database at %1.\n\nCreate a new, empty database there?",
                ),
                path,
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    @Slot()
    def load_demo_into_empty(self) -> None:
        """Help ▸ Load the Cranfield demo: into the open database when it is empty (the demo's
        query and document ids would mix with anything already there)."""
        if not self.require_database(QCoreApplication.translate("DatabaseMenu", "Load the demo")):
            return
        database = self.context.require_database()

        def empty(_progress: Any, _cancelled: Any) -> bool:
            return demo.is_empty(database)

        def checked(is_empty: bool) -> None:
            if is_empty:
                self.load_demo()
            else:
                QMessageBox.information(
                    self._window,
                    QCoreApplication.translate("DatabaseMenu", "Load the demo"),
                    QCoreApplication.translate(
                        "DatabaseMenu",
                        "The demo collection goes into an empty database, and this one already "
                        "holds queries.\n\nCreate one with File ▸ New database…, then load the "
                        "demo there.",
                    ),
                )

        run_task(empty, on_success=checked, owner=self._window)

    def load_demo(self) -> None:
        """Load the Cranfield demo into the (empty) open database, in a worker."""
        database = self.context.require_database()

        def done(runs: list[str]) -> None:
            self.context.notify_data_replaced()
            text = QCoreApplication.translate(
                "DatabaseMenu",
                "Cranfield demo loaded: 1,400 documents, 225 queries, Cleverdon's judgments "
                "(annotator %1), runs %2",
            )
            self._status.show_message(arg(text, demo.DEMO_ANNOTATOR, ", ".join(runs)), 10000)

        def work(progress: Any, cancelled: Any) -> list[str]:
            demo.load_demo(database, progress=progress, cancelled=cancelled)
            return list(demo.demo_runs())

        run_task(
            work,
            on_success=done,
            owner=self._window,
            label=QCoreApplication.translate(
                "DatabaseMenu", "Loading the Cranfield demo collection…"
            ),
        )
