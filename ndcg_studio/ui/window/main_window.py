"""The main window: a thin shell of tabs, menus and a status bar around the views.

The views are those of :data:`VIEWS`, one tab each, in that order. Annotate is built with the
window; every other view when its tab is first shown or asked for (:meth:`MainWindow.view`), so
that the app starts with the modules and widgets of its first view only (the analysts' views
import the statistics, agreement and verdict services: ``benchmarks/bench_gui_scale.py``, CPU
at first rows). Database work runs through :func:`ndcg_studio.ui.workers.run_task`.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QCoreApplication, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from ndcg_studio import __version__
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import errors, language, theme
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.judge import install_judge
from ndcg_studio.ui.team import TeamWatcher
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.window.databases import DatabaseMenu
from ndcg_studio.ui.window.status_bar import StatusBar

if TYPE_CHECKING:
    from ndcg_studio.ui.views.campaign.panel import CampaignPanel

_GEOMETRY_KEY = "window/geometry"
_STATE_KEY = "window/state"
_TAB_KEY = "window/tab"


ViewFactory = Callable[[AppContext, QWidget], QWidget]


# Each analyst view's module is imported when the view is built (see the module's docstring).
def _review(context: AppContext, parent: QWidget) -> QWidget:
    from ndcg_studio.ui.views.review.view import ReviewView

    return ReviewView(context, parent)


def _agreement(context: AppContext, parent: QWidget) -> QWidget:
    from ndcg_studio.ui.views.agreement.view import AgreementView

    return AgreementView(context, parent)


def _compare(context: AppContext, parent: QWidget) -> QWidget:
    from ndcg_studio.ui.views.compare.view import CompareView

    return CompareView(context, parent)


def _stability(context: AppContext, parent: QWidget) -> QWidget:
    from ndcg_studio.ui.views.stability import StabilityView

    return StabilityView(context, parent)


#: the tabs, in order: (title, function building the view as ``factory(context, parent)``); the
#: title is the English key of :meth:`MainWindow.view`, the tab shows it translated in context
#: "MainWindow"
VIEWS: tuple[tuple[str, ViewFactory], ...] = (
    (QT_TRANSLATE_NOOP("MainWindow", "Annotate"), AnnotateView),
    (QT_TRANSLATE_NOOP("MainWindow", "Review"), _review),
    (QT_TRANSLATE_NOOP("MainWindow", "Agreement"), _agreement),
    (QT_TRANSLATE_NOOP("MainWindow", "Compare"), _compare),
    (QT_TRANSLATE_NOOP("MainWindow", "Stability"), _stability),
)
#: the view built with the window (the others: when first shown)
_FIRST_VIEW = "Annotate"
#: View ▸ <tab> menu entries, with their mnemonics
_TAB_ACTIONS = {
    "Annotate": QT_TRANSLATE_NOOP("MainWindow", "&Annotate"),
    "Review": QT_TRANSLATE_NOOP("MainWindow", "&Review"),
    "Agreement": QT_TRANSLATE_NOOP("MainWindow", "&Agreement"),
    "Compare": QT_TRANSLATE_NOOP("MainWindow", "&Compare"),
    "Stability": QT_TRANSLATE_NOOP("MainWindow", "&Stability"),
}


class MainWindow(QMainWindow):
    """Tabs of views, the File/Edit/Annotator/Help menus and a status bar."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setWindowTitle(self.tr("NDCG Studio"))
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        #: the views built so far, by title (:meth:`view` builds the others)
        self.views: dict[str, QWidget] = {}
        #: whether the window's saved state is restored: a view built later restores its own
        self._state_restored = False
        #: Annotate's campaign panel (``install_campaigns`` of :mod:`~.views.campaign.panel`)
        self.campaign_panel: CampaignPanel | None = None
        for title, _factory in VIEWS:  # an empty page until the view is built
            self.tabs.addTab(QWidget(), QCoreApplication.translate("MainWindow", title))
        self.setCentralWidget(self.tabs)
        self.status = StatusBar(self, context)
        self.databases = DatabaseMenu(self, context, self.status)
        annotate = self.view(_FIRST_VIEW)
        assert isinstance(annotate, AnnotateView)
        annotate.annotator_wanted.connect(self.ask_annotator_name)
        self._build_menus()
        context.database_changed.connect(self._apply_rights)
        self._apply_rights()
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.team = TeamWatcher(context, self)
        self.team.team_changed.connect(self.status.show_team)
        self.team.reachable_changed.connect(self.status.show_reachable)
        self.restore_state()
        self.tab_actions[self.tabs.currentIndex()].setChecked(True)
        self.status.refresh()
        self.status.refresh_counts()

    # ================================================================== menus
    def _build_menus(self) -> None:
        bar = self.menuBar()
        self._build_file_menu(bar.addMenu(self.tr("&File")))
        self._build_edit_menu(bar.addMenu(self.tr("&Edit")))
        self._build_view_menu(bar.addMenu(self.tr("&View")))
        self._build_annotator_menu(bar.addMenu(self.tr("&Annotator")))
        from ndcg_studio.ui.views.campaign.panel import install_campaigns

        # the Campaign menu and Annotate's campaign panel
        self.campaign_panel = install_campaigns(self)
        self._build_help_menu(bar.addMenu(self.tr("&Help")))

    def _build_file_menu(self, file_menu: QMenu) -> None:
        self._add(
            file_menu,
            self.tr("&New database…"),
            self.databases.new_database,
            QKeySequence.StandardKey.New,
        )
        self._add(
            file_menu,
            self.tr("&Open database…"),
            self.databases.open_database_dialog,
            QKeySequence.StandardKey.Open,
        )
        self._add(
            file_menu,
            self.tr("Connect to &server…"),
            self.databases.connect_server,
            QKeySequence("Ctrl+Shift+O"),
        )
        self.recent_menu = file_menu.addMenu(self.tr("Open &Recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        self._add(file_menu, self.tr("&Import…"), self.import_file, QKeySequence("Ctrl+I"))
        self._add(file_menu, self.tr("&Export…"), self.export_file, QKeySequence("Ctrl+E"))
        self.fetch_action = self._add(
            file_menu,
            self.tr("&Fetch from a search engine…"),
            self.fetch_from_engine,
            QKeySequence("Ctrl+Shift+F"),
        )
        file_menu.addSeparator()
        quit_action = self._add(file_menu, self.tr("&Quit"), self.close, QKeySequence("Ctrl+Q"))
        quit_action.setMenuRole(QAction.MenuRole.QuitRole)

    def _build_edit_menu(self, edit_menu: QMenu) -> None:
        self.undo_action = self.context.undo_stack.createUndoAction(self, self.tr("&Undo"))
        self.undo_action.setShortcuts(QKeySequence.StandardKey.Undo)
        self.redo_action = self.context.undo_stack.createRedoAction(self, self.tr("&Redo"))
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        self._add(
            edit_menu,
            self.tr("Scoring &settings…"),
            self.open_scoring_settings,
            QKeySequence("Ctrl+,"),
        )

    def _build_view_menu(self, view_menu: QMenu) -> None:
        # Ctrl+1…5 and Ctrl+Tab are window shortcuts: they work from any widget, also from a
        # table (which would otherwise keep Ctrl+Tab) or the query filter
        self.tab_actions: list[QAction] = []
        group = QActionGroup(self)
        for i, (title, _view_class) in enumerate(VIEWS):
            action = self._add(
                view_menu,
                QCoreApplication.translate("MainWindow", _TAB_ACTIONS[title]),
                lambda i=i: self.tabs.setCurrentIndex(i),
                QKeySequence(f"Ctrl+{i + 1}"),
            )
            action.setCheckable(True)
            group.addAction(action)
            self.tab_actions.append(action)
        view_menu.addSeparator()
        self._add(
            view_menu,
            self.tr("&Next tab"),
            lambda: self._step_tab(1),
            [QKeySequence("Ctrl+Tab"), QKeySequence("Ctrl+PgDown")],
        )
        self._add(
            view_menu,
            self.tr("&Previous tab"),
            lambda: self._step_tab(-1),
            [
                QKeySequence("Ctrl+Shift+Tab"),
                QKeySequence("Ctrl+Shift+Backtab"),
                QKeySequence("Ctrl+PgUp"),
            ],
        )
        language.add_language_menu(view_menu, self.context.settings, self)  # View ▸ Language
        theme.add_theme_menu(view_menu, self.context.settings)  # View ▸ Theme

    def _build_annotator_menu(self, annotator_menu: QMenu) -> None:
        self.switch_action = self._add(
            annotator_menu,
            self.tr("&Switch annotator…"),
            self.switch_annotator,
            QKeySequence("Ctrl+Shift+A"),
        )
        self._add(
            annotator_menu,
            self.tr("&Pool depth…"),
            self.set_pool_depth,
            QKeySequence("Ctrl+Shift+D"),
        )
        install_judge(self, annotator_menu)
        # only the order of the pool changes: the annotator stays blind to runs and ranks
        order_menu = annotator_menu.addMenu(self.tr("Pool &order"))
        order_group = QActionGroup(self)
        self.pool_order_actions = (
            self._add(order_menu, self.tr("&Shuffled"), self.set_pool_order_shuffled),
            self._add(
                order_menu,
                self.tr("&What decides the Compare pair first"),
                self.set_pool_order_ab,
            ),
        )
        for action in self.pool_order_actions:
            action.setCheckable(True)
            order_group.addAction(action)
        self.pool_order_actions[1].setToolTip(
            self.tr(
                "Judge first the documents whose grade can change which of Compare's runs A and B "
                "is better (ab pooling); the runs are not shown in Annotate"
            )
        )
        order_menu.setToolTipsVisible(True)
        order_menu.aboutToShow.connect(self._sync_pool_order_actions)
        self._sync_pool_order_actions()

    def _build_help_menu(self, help_menu: QMenu) -> None:
        self.demo_action = self._add(
            help_menu,
            self.tr("Load the Cranfield &demo"),
            self.databases.load_demo_into_empty,
            QKeySequence("Ctrl+Shift+L"),
        )
        help_menu.addSeparator()
        about = self._add(
            help_menu, self.tr("&About NDCG Studio"), self.show_about, QKeySequence("F1")
        )
        about.setMenuRole(QAction.MenuRole.AboutRole)

    @Slot()
    def _apply_rights(self) -> None:
        """Offer only what the login may do: on a team database an annotator or lead grades
        under its own login (no switching) and loads no demo (the owner's imports)."""
        rights = self.context.rights
        self.switch_action.setEnabled(not rights.team or rights.owner)
        self.demo_action.setEnabled(rights.owner)
        self.fetch_action.setEnabled(rights.owner)  # a fetch stores a run: the owner's import

    def _add(self, menu: QMenu, text: str, slot: Any, shortcut: Any = None) -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, list):
            action.setShortcuts(shortcut)
        elif shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    @Slot()
    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.context.settings.recent_databases()
        for target in recent:
            action = self.recent_menu.addAction(target)
            action.triggered.connect(lambda _c=False, t=target: self.databases.open_database(t))
        if not recent:
            self.recent_menu.addAction(self.tr("(none)")).setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction(self.tr("Clear list"))
            clear.triggered.connect(self.context.settings.clear_recent_databases)

    # ================================================================== import / export
    @Slot()
    def import_file(self) -> None:
        """File ▸ Import… (see :func:`ndcg_studio.ui.window.transfer.import_file`)."""
        # imported on first use: its services (the file formats, the exports' statistics) are
        # not needed to show the window and its first rows (``python -X importtime``)
        from ndcg_studio.ui.window import transfer

        if self.databases.require_database(self.tr("Import")):
            transfer.import_file(self.context, self, self.status.show_message)

    @Slot()
    def export_file(self) -> None:
        """File ▸ Export… (see :func:`ndcg_studio.ui.window.transfer.export_file`)."""
        from ndcg_studio.ui.window import transfer

        if self.databases.require_database(self.tr("Export")):
            transfer.export_file(self.context, self, self.status.show_message)

    @Slot()
    def fetch_from_engine(self) -> None:
        """File ▸ Fetch from a search engine… (:class:`~ndcg_studio.ui.dialogs.fetch.FetchDialog`,
        window-modal; it tells the views when a run was stored)."""
        from ndcg_studio.ui.dialogs.fetch import FetchDialog

        if self.databases.require_database(self.tr("Fetch")):
            dialog = FetchDialog(self.context, self)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dialog.open()

    # ================================================================== annotator
    def ask_annotator_name(self) -> None:
        """Ask who is annotating (remembered in the settings): when grading starts with nobody
        annotating yet (Annotate's :attr:`~AnnotateView.annotator_wanted`)."""
        if self.context.database is None:
            return
        welcome = self.tr("Welcome to NDCG Studio")
        name, ok = QInputDialog.getText(
            self,
            f"{welcome} {__version__}",  # ends with the display name: Qt adds it no more
            self.tr("Your name as an annotator (your grades are stored under it):"),
            text=self.proposed_annotator_name(),
        )
        if ok and name.strip():
            self._use_annotator(name)
        self.reactivate()

    def proposed_annotator_name(self) -> str:
        """The name the first start proposes: on a team database the login (the only name
        the server lets it grade under), else the name last used here, else the OS user."""
        rights = self.context.rights
        if rights.team and rights.login and not rights.owner:
            return rights.login
        return self.context.remembered_annotator_name() or rights.login or getpass.getuser()

    @Slot()
    def switch_annotator(self) -> None:
        if self.context.database is None:
            QMessageBox.information(self, self.tr("Annotator"), self.tr("Open a database first."))
            return
        names = [a.name for a in self.context.annotation_service().list_annotators()]
        current = self.context.annotator.name if self.context.annotator else ""
        index = names.index(current) if current in names else 0
        label = self.tr("Annotate as (pick or type a new name):")
        if not self.context.rights.team:
            label += "\n\n" + self.tr(
                "A database file has no logins: whoever uses it can grade under any name. "
                "On a team server (File ▸ Connect to server…) each annotator is a login."
            )
        name, ok = QInputDialog.getItem(
            self, self.tr("Switch annotator"), label, names or [""], index, True
        )
        name = name.strip()
        if ok and name and (name in names or self._confirm_new_annotator(name)):
            self._use_annotator(name)
        self.reactivate()

    def _confirm_new_annotator(self, name: str) -> bool:
        """Ask before a typed name becomes a new annotator (a typo would split one person's
        grades under two names)."""
        answer = QMessageBox.question(
            self,
            self.tr("Switch annotator"),
            language.arg(
                self.tr("There is no annotator called %1 yet.\n\nCreate %1 and grade as %1?"),
                name,
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _use_annotator(self, name: str) -> None:
        try:
            annotator = self.context.annotation_service().ensure_annotator(name)
        except Exception as exc:
            errors.show_error(exc, self, action=self.tr("Choosing the annotator"))
            return
        self.context.set_annotator(annotator)

    @Slot()
    def set_pool_depth(self) -> None:
        depth, ok = QInputDialog.getInt(
            self,
            self.tr("Pool depth"),
            self.tr("Judge every run's top D documents of each query, D ="),
            self.context.pool_depth,
            1,
            1000,
        )
        if ok:
            self.context.set_setting(S.POOL_DEPTH, depth)
        self.reactivate()

    @Slot()
    def _sync_pool_order_actions(self) -> None:
        self.pool_order_actions[0 if self.context.pool_order is None else 1].setChecked(True)

    @Slot()
    def set_pool_order_shuffled(self) -> None:
        self.context.set_setting(S.POOL_ORDER, "")
        self.status.show_message(self.tr("Annotate pool order: shuffled"), 5000)
        self._sync_pool_order_actions()

    @Slot()
    def set_pool_order_ab(self) -> None:
        """Order the Annotate pool by what decides Compare's chosen pair (see
        :meth:`CompareView.judge_what_decides`); without a pair, show Compare to pick one."""
        compare = self.view("Compare")
        if not compare.judge_what_decides():  # type: ignore[attr-defined]
            self.tabs.setCurrentWidget(compare)
            self.status.show_message(self.tr("Pick runs A and B in Compare first"), 5000)
        self._sync_pool_order_actions()

    # ================================================================== help
    @Slot()
    def show_about(self) -> None:
        title = self.tr("About NDCG Studio")
        QMessageBox.about(self, f"{title} {__version__}", self.about_text())

    @staticmethod
    def about_text() -> str:
        text = QCoreApplication.translate(
            "MainWindow",
            "<h3>NDCG Studio %1</h3>"
            "<p>Judge search results on a 0–4 scale and score runs with NDCG@K, "
            "every part visible; inter-annotator agreement built in.</p>"
            "<p>Logs: %2</p>",
        )
        return language.arg(text, __version__, errors.log_file())

    def _step_tab(self, step: int) -> None:
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    @Slot()
    def open_scoring_settings(self) -> None:
        """Edit ▸ Scoring settings…: the Review view's settings dialog."""
        open_settings = getattr(self.view("Review"), "open_settings", None)
        if callable(open_settings):
            open_settings()

    def reactivate(self) -> None:
        """A dialog closed: the current view takes the keyboard again (Annotate: 0–4 grade)."""
        self._on_tab_changed(self.tabs.currentIndex())

    @Slot(int)
    def _on_tab_changed(self, index: int) -> None:
        if not 0 <= index < len(VIEWS):  # -1: no tab
            return
        self.tab_actions[index].setChecked(True)
        view = self.view(VIEWS[index][0])
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
        self._state_restored = True

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
        """The view on the tab called ``title`` (one of :data:`VIEWS`), built now if it was not.

        Raises:
            KeyError: no tab is called ``title``.
        """
        view = self.views.get(title)
        return view if view is not None else self._build_view(title)

    def _build_view(self, title: str) -> QWidget:
        """Build the view ``title`` and put it on its tab in place of the empty page, the
        current tab kept (no ``currentChanged``: the caller shows or activates it)."""
        index = next((i for i, (t, _f) in enumerate(VIEWS) if t == title), None)
        if index is None:
            raise KeyError(title)
        view = VIEWS[index][1](self.context, self.tabs)
        self.views[title] = view
        current = self.tabs.currentIndex()
        blocked = self.tabs.blockSignals(True)
        page = self.tabs.widget(index)
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, view, QCoreApplication.translate("MainWindow", title))
        self.tabs.setCurrentIndex(current)
        self.tabs.blockSignals(blocked)
        if page is not None:
            page.deleteLater()
        if self._state_restored:
            restore = getattr(view, "restore_state", None)
            if callable(restore):
                restore()
        # a campaign made in Compare ("Judge what entered…") is offered in Annotate's panel at once
        changes, panel = getattr(view, "changes", None), self.campaign_panel
        if panel is not None and changes is not None:
            changes.campaign_created.connect(lambda _info: panel.refresh())
        return view
