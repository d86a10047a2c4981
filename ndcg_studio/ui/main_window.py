"""The main window: a thin shell of tabs, menus and a status bar around the views.

The views are the classes of :data:`VIEWS`, built directly in that order (one tab each).
Database work runs through :func:`ndcg_studio.ui.workers.run_task`.
"""

from __future__ import annotations

import getpass
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from ndcg_studio import __version__
from ndcg_studio.services import demo
from ndcg_studio.services.annotation import AnnotationService, AnnotatorInfo, DatabaseCounts
from ndcg_studio.services.wording import count
from ndcg_studio.storage.database import Database, open_database, resolve_url
from ndcg_studio.ui import errors, transfer
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.team import TeamWatcher, team_text
from ndcg_studio.ui.views.agreement import AgreementView
from ndcg_studio.ui.views.annotate import AnnotateView
from ndcg_studio.ui.views.compare import CompareView
from ndcg_studio.ui.views.review import ReviewView
from ndcg_studio.ui.views.stability import StabilityView
from ndcg_studio.ui.workers import Task, run_task

_GEOMETRY_KEY = "window/geometry"
_STATE_KEY = "window/state"
_TAB_KEY = "window/tab"


#: the tabs, in order: (title, view class built as ``View(context, parent)``)
VIEWS: tuple[tuple[str, Callable[[AppContext, QWidget], QWidget]], ...] = (
    ("Annotate", AnnotateView),
    ("Review", ReviewView),
    ("Agreement", AgreementView),
    ("Compare", CompareView),
    ("Stability", StabilityView),
)


def storable_target(database: Database) -> str:
    """What to remember in Open Recent: the file path, or the URL without its password
    (passwords belong in ~/.pgpass or PGPASSWORD)."""
    url = database.url
    if database.is_sqlite:
        return url.database or ""
    return url.set(password=None).render_as_string(hide_password=False)


class MainWindow(QMainWindow):
    """Tabs of views, the File/Edit/Annotator/Help menus and a status bar."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle("NDCG Studio")
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.views: dict[str, QWidget] = {}
        for title, view_class in VIEWS:
            view = view_class(context, self.tabs)
            self.views[title] = view
            self.tabs.addTab(view, title)
        self.setCentralWidget(self.tabs)
        self._open_task: Task[Any] | None = None
        self._counts_task: Task[Any] | None = None
        self._build_menus()
        self._build_status_bar()
        context.database_changed.connect(self._on_database_changed)
        context.annotator_changed.connect(self._update_status)
        context.judgments_changed.connect(self._refresh_counts)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.team = TeamWatcher(context, self)
        self.team.team_changed.connect(self._show_team)
        self.team.reachable_changed.connect(self._show_reachable)
        self.restore_state()
        self.tab_actions[self.tabs.currentIndex()].setChecked(True)
        self._update_status()
        self._refresh_counts()

    # ================================================================== menus
    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._add(file_menu, "&New database…", self.new_database, QKeySequence.StandardKey.New)
        self._add(
            file_menu, "&Open database…", self.open_database_dialog, QKeySequence.StandardKey.Open
        )
        self._add(
            file_menu, "Connect to &server…", self.connect_server, QKeySequence("Ctrl+Shift+O")
        )
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        self._add(file_menu, "&Import…", self.import_file, QKeySequence("Ctrl+I"))
        self._add(file_menu, "&Export…", self.export_file, QKeySequence("Ctrl+E"))
        file_menu.addSeparator()
        quit_action = self._add(file_menu, "&Quit", self.close, QKeySequence("Ctrl+Q"))
        quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        edit_menu = bar.addMenu("&Edit")
        self.undo_action = self.context.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts(QKeySequence.StandardKey.Undo)
        self.redo_action = self.context.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        self._add(
            edit_menu, "Scoring &settings…", self.open_scoring_settings, QKeySequence("Ctrl+,")
        )

        # Ctrl+1…4 and Ctrl+Tab are window shortcuts: they work from any widget, also from a
        # table (which would otherwise keep Ctrl+Tab) or the query filter
        view_menu = bar.addMenu("&View")
        self.tab_actions: list[QAction] = []
        group = QActionGroup(self)
        for i, (title, _view_class) in enumerate(VIEWS):
            action = self._add(
                view_menu,
                f"&{title}",
                lambda i=i: self.tabs.setCurrentIndex(i),
                QKeySequence(f"Ctrl+{i + 1}"),
            )
            action.setCheckable(True)
            group.addAction(action)
            self.tab_actions.append(action)
        view_menu.addSeparator()
        self._add(
            view_menu,
            "&Next tab",
            lambda: self._step_tab(1),
            [QKeySequence("Ctrl+Tab"), QKeySequence("Ctrl+PgDown")],
        )
        self._add(
            view_menu,
            "&Previous tab",
            lambda: self._step_tab(-1),
            [
                QKeySequence("Ctrl+Shift+Tab"),
                QKeySequence("Ctrl+Shift+Backtab"),
                QKeySequence("Ctrl+PgUp"),
            ],
        )

        annotator_menu = bar.addMenu("&Annotator")
        self._add(
            annotator_menu,
            "&Switch annotator…",
            self.switch_annotator,
            QKeySequence("Ctrl+Shift+A"),
        )
        self._add(annotator_menu, "&Pool depth…", self.set_pool_depth, QKeySequence("Ctrl+Shift+D"))
        # only the order of the pool changes: the annotator stays blind to runs and ranks
        order_menu = annotator_menu.addMenu("Pool &order")
        order_group = QActionGroup(self)
        self.pool_order_actions = (
            self._add(order_menu, "&Shuffled", self.set_pool_order_shuffled),
            self._add(order_menu, "&What decides the Compare pair first", self.set_pool_order_ab),
        )
        for action in self.pool_order_actions:
            action.setCheckable(True)
            order_group.addAction(action)
        self.pool_order_actions[1].setToolTip(
            "Judge first the documents whose grade can change which of Compare's runs A and B "
            "is better (ab pooling); the runs are not shown in Annotate"
        )
        order_menu.setToolTipsVisible(True)
        order_menu.aboutToShow.connect(self._sync_pool_order_actions)
        self._sync_pool_order_actions()

        from ndcg_studio.ui.views.campaign_panel import install_campaigns

        install_campaigns(self)  # the Campaign menu and Annotate's campaign panel
        help_menu = bar.addMenu("&Help")
        self._add(
            help_menu,
            "Load the Cranfield &demo",
            self.load_demo_into_empty,
            QKeySequence("Ctrl+Shift+L"),
        )
        help_menu.addSeparator()
        about = self._add(help_menu, "&About NDCG Studio", self.show_about, QKeySequence("F1"))
        about.setMenuRole(QAction.MenuRole.AboutRole)

    def _add(self, menu: QMenu, text: str, slot: Any, shortcut: Any = None) -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, list):
            action.setShortcuts(shortcut)
        elif shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        self._db_label = QLabel(self)
        self._annotator_label = QLabel(self)
        self._message: tuple[str, float | None] | None = None  # shown text, expiry (monotonic)
        self._counts_label = QLabel(self)
        self._team_label = QLabel(self)
        for label in (self._db_label, self._annotator_label, self._team_label, self._counts_label):
            label.setContentsMargins(6, 0, 6, 0)
            status.addPermanentWidget(label)
        status.messageChanged.connect(self._on_message_changed)

    @Slot()
    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.context.settings.recent_databases()
        for target in recent:
            action = self.recent_menu.addAction(target)
            action.triggered.connect(lambda _c=False, t=target: self.open_database(t))
        if not recent:
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction("Clear list")
            clear.triggered.connect(self.context.settings.clear_recent_databases)

    # ================================================================== databases
    @Slot()
    def new_database(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "New database",
            str(Path(self.context.last_folder()) / "judgments.sqlite"),
            "SQLite database (*.sqlite *.db)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if not path:
            return
        if Path(path).exists():
            QMessageBox.information(
                self,
                "New database",
                f"{path} already exists; use File ▸ Open database… to open it.",
            )
            return
        self.context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
        self.open_database(path, create=True)

    @Slot()
    def open_database_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open database",
            self.context.last_folder(),
            "SQLite database (*.sqlite *.db);;All files (*)",
        )
        if path:
            self.context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
            self.open_database(path)

    @Slot()
    def connect_server(self) -> None:
        url, ok = QInputDialog.getText(
            self,
            "Connect to a team server",
            "PostgreSQL URL (password in ~/.pgpass or $PGPASSWORD, not here):",
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

        def work(_progress: Any, _cancelled: Any) -> tuple[Database, AnnotatorInfo | None, int]:
            database = open_database(url)
            try:
                service = AnnotationService(database)
                annotator = service.ensure_annotator(name) if name else None
                queries = service.counts().queries
            except BaseException:
                database.dispose()
                raise
            return database, annotator, queries

        def failed(exc: BaseException) -> None:
            self.context.set_opening(False)
            errors.show_error(exc, self, action="Opening the database")

        def done(result: tuple[Database, AnnotatorInfo | None, int]) -> None:
            database, annotator, queries = result
            self.context.set_opening(False)
            self.context.set_database(database, annotator)
            self.context.settings.add_recent_database(storable_target(database))
            if annotator is None:
                self.ask_annotator_name()
            if load_demo and queries == 0:
                self.load_demo()
            if on_open is not None:
                on_open(database)

        self.context.set_opening(True)
        self._open_task = run_task(
            work,
            on_success=done,
            on_failure=failed,
            owner=self,
            label=f"Opening {url.database if url.get_backend_name() == 'sqlite' else url.host}…",
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
            self,
            "Open database",
            f"There is no database at {path}.\n\nCreate a new, empty database there?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    @Slot()
    def load_demo_into_empty(self) -> None:
        """Help ▸ Load the Cranfield demo: into the open database when it is empty (the demo's
        query and document ids would mix with anything already there)."""
        if not self._require_database("Load the demo"):
            return
        database = self.context.require_database()

        def empty(_progress: Any, _cancelled: Any) -> bool:
            return demo.is_empty(database)

        def checked(is_empty: bool) -> None:
            if is_empty:
                self.load_demo()
            else:
                QMessageBox.information(
                    self,
                    "Load the demo",
                    "The demo collection goes into an empty database, and this one already holds "
                    "queries.\n\nCreate one with File ▸ New database…, then load the demo there.",
                )

        run_task(empty, on_success=checked, owner=self)

    def load_demo(self) -> None:
        """Load the Cranfield demo into the (empty) open database, in a worker."""
        database = self.context.require_database()

        def done(summary: Any) -> None:
            self.context.notify_data_replaced()
            self.show_message(str(summary), 10000)

        run_task(
            lambda progress, cancelled: demo.load_demo(
                database, progress=progress, cancelled=cancelled
            ),
            on_success=done,
            owner=self,
            label="Loading the Cranfield demo collection…",
        )

    # ================================================================== import / export
    @Slot()
    def import_file(self) -> None:
        """File ▸ Import… (see :func:`ndcg_studio.ui.transfer.import_file`)."""
        if self._require_database("Import"):
            transfer.import_file(self.context, self, self.show_message)

    @Slot()
    def export_file(self) -> None:
        """File ▸ Export… (see :func:`ndcg_studio.ui.transfer.export_file`)."""
        if self._require_database("Export"):
            transfer.export_file(self.context, self, self.show_message)

    def _require_database(self, title: str) -> bool:
        if self.context.database is None:
            QMessageBox.information(self, title, "Open a database first (File ▸ Open database…).")
            return False
        return True

    # ================================================================== annotator
    def ask_annotator_name(self) -> None:
        """First start: ask who is annotating (remembered in the settings)."""
        if self.context.database is None:
            return
        name, ok = QInputDialog.getText(
            self,
            "Welcome to NDCG Studio",
            "Your name as an annotator (your grades are stored under it):",
            text=self.context.remembered_annotator_name() or getpass.getuser(),
        )
        if ok and name.strip():
            self._use_annotator(name)
        self._reactivate()

    @Slot()
    def switch_annotator(self) -> None:
        if self.context.database is None:
            QMessageBox.information(self, "Annotator", "Open a database first.")
            return
        names = [a.name for a in self.context.annotation_service().list_annotators()]
        current = self.context.annotator.name if self.context.annotator else ""
        index = names.index(current) if current in names else 0
        name, ok = QInputDialog.getItem(
            self,
            "Switch annotator",
            "Annotate as (pick or type a new name):",
            names or [""],
            index,
            True,
        )
        if ok and name.strip():
            self._use_annotator(name)
        self._reactivate()

    def _use_annotator(self, name: str) -> None:
        try:
            annotator = self.context.annotation_service().ensure_annotator(name)
        except Exception as exc:
            errors.show_error(exc, self, action="Choosing the annotator")
            return
        self.context.set_annotator(annotator)

    @Slot()
    def set_pool_depth(self) -> None:
        depth, ok = QInputDialog.getInt(
            self,
            "Pool depth",
            "Judge every run's top D documents of each query, D =",
            self.context.pool_depth,
            1,
            1000,
        )
        if ok:
            self.context.set_setting(S.POOL_DEPTH, depth)
        self._reactivate()

    @Slot()
    def _sync_pool_order_actions(self) -> None:
        self.pool_order_actions[0 if self.context.pool_order is None else 1].setChecked(True)

    @Slot()
    def set_pool_order_shuffled(self) -> None:
        self.context.set_setting(S.POOL_ORDER, "")
        self.show_message("Annotate pool order: shuffled", 5000)
        self._sync_pool_order_actions()

    @Slot()
    def set_pool_order_ab(self) -> None:
        """Order the Annotate pool by what decides Compare's chosen pair (see
        :meth:`CompareView.judge_what_decides`); without a pair, show Compare to pick one."""
        compare = self.views["Compare"]
        if not compare.judge_what_decides():  # type: ignore[attr-defined]
            self.tabs.setCurrentWidget(compare)
            self.show_message("Pick runs A and B in Compare first", 5000)
        self._sync_pool_order_actions()

    # ================================================================== help
    @Slot()
    def show_about(self) -> None:
        QMessageBox.about(self, "About NDCG Studio", self.about_text())

    @staticmethod
    def about_text() -> str:
        return (
            f"<h3>NDCG Studio {__version__}</h3>"
            "<p>Judge search results on a 0–4 scale and score runs with NDCG@K, "
            "every part visible; inter-annotator agreement built in.</p>"
            f"<p>Logs: {errors.log_file()}</p>"
        )

    # ================================================================== status bar
    @Slot()
    def _on_database_changed(self) -> None:
        self._update_status()
        self._refresh_counts()

    @Slot()
    def _update_status(self) -> None:
        database = self.context.database
        if database is None:
            self.setWindowTitle("NDCG Studio")
            self._db_label.setText("No database")
        else:
            label = Path(database.label).name if database.is_sqlite else database.label
            self.setWindowTitle(f"{label} — NDCG Studio")
            self._db_label.setText(f"Database: {label}")
            self._db_label.setToolTip(database.label)
        annotator = self.context.annotator
        self._annotator_label.setText(
            f"Annotator: {annotator.name}" if annotator else "No annotator"
        )
        self._refit_message()

    @Slot()
    def _refresh_counts(self) -> None:
        database = self.context.database
        if database is None:
            self._counts_label.setText("")
            return
        service = AnnotationService(database)
        self._counts_task = run_task(
            lambda _p, _c: service.counts(),
            on_success=self._show_counts,
            on_failure=lambda exc: self._counts_label.setText("counts unavailable"),
            owner=self,
            replaces=self._counts_task,
        )

    def show_message(self, text: str, timeout: int = 0) -> None:
        """Show ``text`` in the status bar for ``timeout`` ms (0: until replaced). Text longer
        than the room left by the permanent labels ends in "…" at a word boundary rather than
        mid-word ("…Cleverdon's judgmen"); the whole text is the status bar's tooltip meanwhile.
        When a permanent label changes later (the counts arrive), :meth:`_refit_message` fits
        the text again to the room then left."""
        self._message = (text, time.monotonic() + timeout / 1000 if timeout else None)
        status = self.statusBar()
        # sizeHint, not width: a label's width follows its new text only after the next layout
        room = status.width() - 24
        for label in (self._db_label, self._annotator_label, self._team_label, self._counts_label):
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

    def _refit_message(self) -> None:
        """Fit the message shown now to the room the permanent labels leave after a change."""
        if self._message is None or not self.statusBar().currentMessage():
            return
        text, expires = self._message
        if expires is None:
            self.show_message(text)
        elif (left := expires - time.monotonic()) > 0:
            self.show_message(text, max(int(left * 1000), 1))

    def _on_message_changed(self, message: str) -> None:
        if not message:
            self._message = None
            self.statusBar().setToolTip("")

    def _show_team(self, team: list[Any]) -> None:
        text, tooltip = team_text(team)
        self._team_label.setText(text)
        self._team_label.setToolTip(tooltip)
        self._refit_message()

    def _show_reachable(self, reachable: bool) -> None:
        if reachable:
            self.show_message("The database answers again.", 5000)
        else:
            self.show_message("⚠ The database is not answering; retrying every few seconds…")

    def _show_counts(self, counts: DatabaseCounts) -> None:
        self._counts_label.setText(
            " · ".join(
                count(n, noun)
                for n, noun in (
                    (counts.queries, "queries"),
                    (counts.documents, "documents"),
                    (counts.runs, "runs"),
                    (counts.judgments, "judgments"),
                )
            )
        )
        self._refit_message()

    def _step_tab(self, step: int) -> None:
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    @Slot()
    def open_scoring_settings(self) -> None:
        """Edit ▸ Scoring settings…: the Review view's settings dialog."""
        open_settings = getattr(self.views["Review"], "open_settings", None)
        if callable(open_settings):
            open_settings()

    def _reactivate(self) -> None:
        """A dialog closed: the current view takes the keyboard again (Annotate: 0–4 grade)."""
        self._on_tab_changed(self.tabs.currentIndex())

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        if 0 <= index < len(self.tab_actions):
            self.tab_actions[index].setChecked(True)
        view = self.tabs.widget(index)
        activated = getattr(view, "activated", None)
        if callable(activated):
            activated()

    # ================================================================== state
    def restore_state(self) -> None:
        """Window geometry, toolbar/dock state, the current tab and each view's own state."""
        settings = self.context.settings
        geometry = settings.byte_array(_GEOMETRY_KEY)
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1280, 800)
        self._fit_to_screen()
        state = settings.byte_array(_STATE_KEY)
        if state is not None:
            self.restoreState(state)
        tab = settings.qsettings.value(_TAB_KEY, 0, type=int)
        if isinstance(tab, int) and 0 <= tab < self.tabs.count():
            self.tabs.setCurrentIndex(tab)
        for view in self.views.values():
            restore = getattr(view, "restore_state", None)
            if callable(restore):
                restore()

    def _fit_to_screen(self) -> None:
        """No bigger than the screen's free area (a 1024×700 laptop gets a window it can see
        whole, not the 1280×800 default or a size saved on a larger monitor)."""
        screen = self.screen()
        if screen is None:
            return
        free = screen.availableGeometry()
        # the frame (title bar, borders) is unknown before the first show: leave room for it
        width = min(self.width(), free.width() - 16)
        height = min(self.height(), free.height() - 48)
        if (width, height) != (self.width(), self.height()):
            self.resize(max(width, self.minimumSizeHint().width()), max(height, 1))
            self.move(free.topLeft())

    def save_state(self) -> None:
        settings = self.context.settings
        settings.set_byte_array(_GEOMETRY_KEY, QByteArray(self.saveGeometry()))
        settings.set_byte_array(_STATE_KEY, QByteArray(self.saveState()))
        settings.qsettings.setValue(_TAB_KEY, self.tabs.currentIndex())
        for view in self.views.values():
            save = getattr(view, "save_state", None)
            if callable(save):
                save()
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        super().closeEvent(event)

    def view(self, title: str) -> QWidget:
        """The view on the tab called ``title``."""
        return self.views[title]
