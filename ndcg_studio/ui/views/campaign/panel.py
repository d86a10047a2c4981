"""The campaign side panel of Annotate and the Campaign menu.

The panel sits at the right of the Annotate view: the campaign the annotator works on (only open
campaigns they take part in), its guidelines (Markdown, ``QTextBrowser.setMarkdown``), under them
the current query's description and narrative when its topics file had them (``import topics``),
and the annotator's own progress
(graded, can't judge, later: counts only, so Annotate stays blind). "Next from queue" (``Q``)
takes the next item the campaign offers and opens it; "Can't judge…" (``X``, asks a reason) and
"Later" (``L``) mark the shown document and move on. While a campaign is chosen, every grade of
the view is written with the campaign and the seconds since the document was shown (through
:class:`CampaignWriter`, i.e. the one writer :meth:`AnnotationService.set_grade`), and the next
queued item opens after each grade. Closing the app releases the annotator's holds.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.storage.judgments.items import KEEP, CampaignGrade, GradeChange, Keep
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import errors
from ndcg_studio.ui.language import arg

if TYPE_CHECKING:  # imported when a database is open: the panel is built with the window
    from ndcg_studio.services.campaigns.service import CampaignService

#: the chooser's first item (translated in context "CampaignPanel")
_NONE = QT_TRANSLATE_NOOP("CampaignPanel", "(no campaign: the whole pool)")
_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]<>()#+-.!|~"})


def markdown_text(text: str) -> str:
    """``text`` (a topic's description or narrative) escaped for Markdown, so it shows as
    written: its ``*``, ``_``, ``#``, ``<`` … are not formatting."""
    return " ".join(text.split()).translate(_MARKDOWN_SPECIAL)


class CampaignWriter:
    """A grade writer (what :class:`~ndcg_studio.ui.undo.GradeEdit` calls) that writes every
    grade in campaign ``campaign_id`` with the ``seconds`` it took."""

    def __init__(self, service: AnnotationService, campaign_id: int, seconds: float) -> None:
        self.service = service
        self.campaign = CampaignGrade(campaign_id, max(0.0, seconds))

    def set_grade(
        self,
        annotator_id: int,
        query_id: int,
        document_id: int,
        grade: int | None,
        note: str | Keep | None = KEEP,
    ) -> GradeChange:
        try:
            return self.service.set_grade(
                annotator_id, query_id, document_id, grade, note, campaign=self.campaign
            )
        except LookupError:
            # not an item of the campaign (e.g. another query of the pool): a plain grade
            return self.service.set_grade(annotator_id, query_id, document_id, grade, note)


class CampaignPanel(QWidget):
    """The campaign side panel; :meth:`attach` puts it into an Annotate view."""

    def __init__(self, view: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaign_panel")
        self.view = view
        self.context = view.context
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        title = QLabel(self.tr("Campaign"), self)
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        self.chooser = QComboBox(self)
        self.chooser.setObjectName("campaign_chooser")
        self.chooser.currentTextChanged.connect(self._on_chosen)
        # the annotator chose "(no campaign)" by hand: a refresh keeps it so; otherwise the
        # first open campaign is chosen for them (Q takes from its queue at once)
        self._whole_pool = False
        self.chooser.activated.connect(lambda index: setattr(self, "_whole_pool", index == 0))
        layout.addWidget(self.chooser)
        self.progress_label = QLabel("", self)
        self.progress_label.setObjectName("campaign_progress")
        self.progress_label.setWordWrap(True)
        layout.addWidget(self.progress_label)
        row = QHBoxLayout()
        self.next_button = QPushButton(self.tr("Next from queue"), self)
        self.next_button.setToolTip(self.tr("Open the next document the campaign offers you (Q)"))
        self.next_button.clicked.connect(self.next_item)
        self.cant_button = QPushButton(self.tr("Can't judge…"), self)
        self.cant_button.setToolTip(self.tr("You cannot judge this document: say why (X)"))
        self.cant_button.clicked.connect(self.cant_judge)
        self.later_button = QPushButton(self.tr("Later"), self)
        self.later_button.setToolTip(self.tr("Skip this document for now (L)"))
        self.later_button.clicked.connect(self.later)
        # "Next from queue" above the two marks: the three side by side made the tab 400 px
        # wide in Russian and Annotate wider than a 1024-px screen (tests/ui/test_small_screens)
        layout.addWidget(self.next_button)
        row.addWidget(self.cant_button)
        row.addWidget(self.later_button)
        layout.addLayout(row)
        self.guidelines = QTextBrowser(self)
        self.guidelines.setObjectName("campaign_guidelines")
        self.guidelines.setOpenExternalLinks(True)
        self.guidelines.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout.addWidget(self.guidelines, 1)
        for key, slot in (("Q", self.next_item), ("X", self.cant_judge), ("L", self.later)):
            shortcut = QShortcut(QKeySequence(key), view)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        # a new database or annotator: refresh on the next turn of the event loop, after the
        # views' first loads have started (their reload timers were started before this one)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        self.context.database_changed.connect(self._refresh_timer.start)
        self.context.annotator_changed.connect(self._refresh_timer.start)
        view.judgment_saved.connect(self._on_saved)
        view.query_loaded.connect(lambda _q: self._show_guidelines())
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.release)
        self.refresh()

    @classmethod
    def attach(cls, view: Any) -> CampaignPanel:
        """Add a panel to ``view`` (an :class:`AnnotateView`), as a tab beside its query list."""
        panel = cls(view, view)
        view.add_side_panel(panel, QCoreApplication.translate("CampaignPanel", "Campaign"))
        return panel

    # ------------------------------------------------------------------ state
    def _service(self) -> CampaignService | None:
        db = self.context.database
        if db is None:
            return None
        from ndcg_studio.services.campaigns.service import CampaignService

        return CampaignService(db)

    @property
    def campaign(self) -> str | None:
        text = self.chooser.currentText()
        return None if not text or self.chooser.currentIndex() == 0 else text  # 0: _NONE

    @Slot()
    def refresh(self) -> None:
        """Reload the campaigns the annotator takes part in (keeps the choice if still open)."""
        self._refresh_timer.stop()
        service, annotator = self._service(), self.context.annotator
        names: list[str] = []
        if service is not None and annotator is not None:
            try:
                names = service.open_for(annotator.id)
            except Exception:  # an old schema or a lost server: no campaigns to offer
                names = []
        keep = self.campaign
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems([self.tr(_NONE), *names])
        if keep in names:
            self.chooser.setCurrentText(keep)
        elif names and not self._whole_pool:
            self.chooser.setCurrentIndex(1)
        self.chooser.blockSignals(False)
        # shown only to an annotator who takes part in an open campaign: an empty panel would
        # cost Annotate ~300 px and push the window past a 1024-px screen
        self.setVisible(bool(names))
        self._on_chosen(self.chooser.currentText())

    def _on_chosen(self, _text: str) -> None:
        service, name = self._service(), self.campaign
        enabled = service is not None and name is not None
        for button in (self.next_button, self.cant_button, self.later_button):
            button.setEnabled(enabled)
        self.view.grader.campaign_id = (
            service.campaign_id(name) if service is not None and name is not None else None
        )
        self._show_guidelines()
        self._show_progress()

    def _show_guidelines(self) -> None:
        """The guidelines, then the current query's description and narrative (when its topics
        file had them); nothing about runs or other grades."""
        service, name = self._service(), self.campaign
        if service is None or name is None:
            self.guidelines.setMarkdown("")
            return
        text = service.get(name).guidelines or self.tr("*No guidelines for this campaign.*")
        query_id = self.view.query_id
        if query_id is not None:
            external, description, narrative = service.topic(query_id)
            parts = [
                (self.tr("Description."), description),
                (self.tr("Narrative."), narrative),
            ]
            shown = [f"**{label}** {markdown_text(v)}" for label, v in parts if v]
            if shown:
                heading = "### " + markdown_text(self.tr("Query %1").replace("%1", external))
                text += "\n\n---\n\n" + "\n\n".join([heading, *shown])
        self.guidelines.setMarkdown(text)

    def _show_progress(self) -> None:
        service, name, annotator = self._service(), self.campaign, self.context.annotator
        if service is None or name is None or annotator is None:
            self.progress_label.setText("")
            return
        p = service.own_progress(name, annotator.id)
        text = self.tr("You: %1 graded · %2 can't judge · %3 later")
        self.progress_label.setText(arg(text, p.done, p.cant_judge, p.later))

    # ------------------------------------------------------------------ actions
    @Slot()
    def next_item(self) -> bool:
        """Open the next item of the queue; False when there is none (or no campaign)."""
        service, name, annotator = self._service(), self.campaign, self.context.annotator
        if service is None or annotator is None:
            return False
        if name is None:  # Q with no campaign chosen: say so rather than do nothing
            if self.isHidden():
                text = self.tr("You take part in no open campaign: there is no queue to take from.")
            else:
                text = self.tr("Choose a campaign in the Campaign tab to take from its queue.")
            self.progress_label.setText(text)
            window = self.window()
            if isinstance(window, QMainWindow):
                window.statusBar().showMessage(text, 8000)
            return False
        try:
            items = service.queue(name, annotator.id, 1)
        except Exception as exc:
            errors.show_error(exc, self, action=self.tr("Taking the next document"))
            return False
        if not items:
            nothing = self.tr("%1\nNothing left for you in this campaign.")
            self.progress_label.setText(arg(nothing, self.progress_label.text()))
            return False
        self.view.loader.open_query(items[0].query_id, items[0].document_id)
        return True

    def _mark(self, state: str, reason: str | None) -> None:
        service, name, annotator = self._service(), self.campaign, self.context.annotator
        item, query_id = self.view.current_item(), self.view.query_id
        if service is None or name is None or annotator is None or item is None:
            return
        try:
            service.mark(name, annotator.id, query_id, item.document_id, state, reason)  # type: ignore[arg-type]
        except Exception as exc:
            errors.show_error(exc, self, action=self.tr("Marking the document"))
            return
        self._show_progress()
        self.next_item()

    @Slot()
    def cant_judge(self, reason: str | None = None) -> None:
        """Mark the shown document "can't judge" (``reason`` asked for when not given)."""
        if self.campaign is None:
            return
        if reason is None:
            text, ok = QInputDialog.getText(
                self, self.tr("Can't judge"), self.tr("Why can't you judge it?")
            )
            if not ok:
                return
            reason = text
        self._mark("cant_judge", reason)

    @Slot()
    def later(self) -> None:
        """Put the shown document off: the queue offers it again after the others."""
        if self.campaign is not None:
            self._mark("later", None)

    def _on_saved(self, change: GradeChange) -> None:
        if self.campaign is None:
            return
        self._show_progress()
        if change.new_grade is not None and change.old_grade is None:
            # after the view's own advance to the next pool document, which runs once this
            # signal returns: the queue decides what comes next
            QTimer.singleShot(0, self.next_item)

    @Slot()
    def release(self) -> None:
        """Free the annotator's holds (the app calls it on quitting)."""
        service, annotator = self._service(), self.context.annotator
        if service is not None and annotator is not None:
            # quitting: a lost server keeps the holds until they expire
            with contextlib.suppress(Exception):
                service.release(annotator.id)


def install_campaigns(window: Any, menu_bar_before: QMenu | None = None) -> CampaignPanel | None:
    """Add the Campaign menu to ``window`` (a MainWindow) and the panel to its Annotate view;
    returns the panel (None without an Annotate view), which the window keeps."""
    context: Any = window.context
    view = getattr(window, "views", {}).get("Annotate")
    panel = CampaignPanel.attach(view) if hasattr(view, "splitter") else None
    menu = QMenu(QCoreApplication.translate("CampaignMenu", "&Campaign"), window)
    if menu_bar_before is not None:
        window.menuBar().insertMenu(menu_bar_before.menuAction(), menu)
    else:
        window.menuBar().addMenu(menu)

    # the dialogs are imported when opened: their services are not needed to show the window
    def new_campaign() -> None:
        from ndcg_studio.ui.dialogs.campaign import CampaignDialog

        dialog = CampaignDialog(context, window)
        if not dialog.exec() or dialog.created is None:
            return
        if panel is not None:
            panel.refresh()
        info = dialog.created
        text = QCoreApplication.translate(
            "CampaignMenu",
            "Campaign %1 is created: %2 items pooled from %3 at depth %4, %5 grades per item "
            "(gold items: %6), offered in %8 order to %7.\n\nIts annotators find it in "
            "Annotate's Campaign tab; Campaign ▸ Lead's dashboard follows it.",
        )
        QMessageBox.information(
            window,
            QCoreApplication.translate("CampaignMenu", "New campaign"),
            arg(
                text,
                info.name,
                info.items,
                ", ".join(info.runs),
                info.pool_depth,
                info.overlap,
                info.gold,
                ", ".join(info.annotators),
                info.strategy,
            ),
        )

    def dashboard() -> None:
        from ndcg_studio.ui.views.campaign.dashboard import CampaignDashboard

        CampaignDashboard(context, window).exec()

    for text, slot, keys in (
        (QT_TRANSLATE_NOOP("CampaignMenu", "&New campaign…"), new_campaign, "Ctrl+Alt+N"),
        (QT_TRANSLATE_NOOP("CampaignMenu", "Lead's &dashboard…"), dashboard, "Ctrl+Alt+D"),
        (
            QT_TRANSLATE_NOOP("CampaignMenu", "Next from &queue"),
            panel.next_item if panel is not None else None,
            "Ctrl+Alt+Q",
        ),
    ):
        if slot is not None:
            action = menu.addAction(QCoreApplication.translate("CampaignMenu", text))
            action.setShortcut(QKeySequence(keys))
            action.triggered.connect(lambda _checked=False, slot=slot: slot())
    lead_only = menu.actions()[:2]  # New campaign, the dashboard: a lead's (server's rule)

    def apply_rights() -> None:
        for action in lead_only:
            action.setEnabled(context.rights.lead)

    context.database_changed.connect(apply_rights)
    return panel
