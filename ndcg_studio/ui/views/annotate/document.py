"""Annotate's centre: the query and the current document as a card, the 0–4 legend (grade
buttons) and the save status; the panel takes the keyboard focus and hands key presses to the
view (:mod:`ndcg_studio.ui.views.annotate.keys` says which key does what).

Blind: it shows a :class:`~ndcg_studio.services.annotation.service.PoolItem`, which carries no run,
rank,
score or other annotator's grade.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtGui
from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont, QKeyEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.annotation.types import PoolItem
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.grades import GRADES, chip_icon, grade_name
from ndcg_studio.ui.views.annotate.keys import HINT
from ndcg_studio.ui.views.annotate.panels import scaled_font, secondary


def _bold_width(button: QToolButton) -> int:
    """The width ``button`` asks for with its text in bold (the widest it gets)."""
    font = button.font()
    normal = button.sizeHint().width()
    font.setBold(True)
    button.setFont(font)
    bold = button.sizeHint().width()
    font.setBold(False)
    button.setFont(font)
    return max(normal, bold)


class GradeLegend(QWidget):
    """The 0–4 scale, always visible: a chip, the digit and the name per grade; the current
    document's grade is checked and bold. Clicking a grade grades the document."""

    grade_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # one row when the names fit, else two rows (3 + 2), else three (2 + 2 + 1), rather
        # than elided names
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(6)
        self._columns = 0
        self._group = QButtonGroup(self)
        self._group.setExclusive(False)
        self.buttons: dict[int, QToolButton] = {}
        self._current: int | None = None
        for grade in GRADES:
            button = QToolButton(self)
            button.setText(grade_name(grade))  # the chip shows the digit
            button.setIcon(chip_icon(grade, 18))
            button.setIconSize(QSize(18, 18))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setMinimumHeight(30)
            button.setToolTip(arg(self.tr("Press %1: %2"), grade, grade_name(grade).lower()))
            self._group.addButton(button, grade)
            self.buttons[grade] = button
        for button in self.buttons.values():
            # the full name, also in bold (the current grade): Russian "Нерелевантный" was cut
            # in a column narrower than the button asked for
            button.setMinimumWidth(_bold_width(button))
        self._place(len(GRADES))
        self._group.idClicked.connect(self._on_clicked)

    def one_row_width(self) -> int:
        """The width the five buttons need side by side with their full names."""
        widths = [b.sizeHint().width() for b in self.buttons.values()]
        return sum(widths) + self._grid.spacing() * (len(widths) - 1)

    def rows(self) -> int:
        """1, 2 or 3: how many rows the buttons are laid out in now."""
        return -(-len(self.buttons) // self._columns)

    def _place(self, columns: int) -> None:
        if columns == self._columns:
            return
        self._columns = columns
        for button in self.buttons.values():
            self._grid.removeWidget(button)
        for i, button in enumerate(self.buttons.values()):
            self._grid.addWidget(button, i // columns, i % columns)

    def _columns_width(self, columns: int) -> int:
        """The width the buttons need in ``columns`` columns, each as wide as its widest
        button (full names, also in bold)."""
        widths = [b.minimumWidth() for b in self.buttons.values()]
        widest = [max(widths[c::columns]) for c in range(columns)]
        return sum(widest) + (columns - 1) * self._grid.spacing()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        # three rows of two columns: Russian names ("Слабо релевантный") beside the campaign
        # panel at 1024 px leave no room for three columns (tests/ui/test_small_screens.py)
        return QSize(self._columns_width(2), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        width = event.size().width()
        if width >= self.one_row_width():
            self._place(len(self.buttons))
        else:
            self._place(3 if width >= self._columns_width(3) else 2)
        super().resizeEvent(event)

    def set_current(self, grade: int | None) -> None:
        """Highlight ``grade`` (None: no grade yet): checked, bold, in the palette's highlight
        colours (so it stands out in light and dark themes alike)."""
        if grade == self._current and grade is not None:
            return
        self._current = grade
        self._paint_buttons()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # View ▸ Theme: the buttons follow
            self._paint_buttons()
        super().changeEvent(event)

    def _paint_buttons(self) -> None:
        grade = self._current
        base = self.palette()
        for g, button in self.buttons.items():
            current = g == grade
            button.setChecked(current)
            font = button.font()
            font.setBold(current)
            button.setFont(font)
            palette = QPalette(base)
            if current:
                palette.setColor(
                    QPalette.ColorRole.Button, base.color(QPalette.ColorRole.Highlight)
                )
                palette.setColor(
                    QPalette.ColorRole.ButtonText, base.color(QPalette.ColorRole.HighlightedText)
                )
            button.setPalette(palette)

    def current(self) -> int | None:
        return self._current

    @Slot(int)
    def _on_clicked(self, grade: int) -> None:
        for g, button in self.buttons.items():  # the click toggled it; the saved grade decides
            button.setChecked(g == self._current)
        self.grade_clicked.emit(grade)


class DocumentPanel(QFrame):
    """The centre panel: takes keyboard focus and hands key presses to ``handle_key`` (True:
    handled); shows a message or the current document's card, the legend and the status."""

    def __init__(
        self, handle_key: Callable[[QKeyEvent], bool], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._handle_key = handle_key
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumWidth(380)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 0, 12, 0)
        outer.setSpacing(10)
        self.query_caption = secondary(QLabel("", self))
        self.query_caption.setFont(scaled_font(self.query_caption, 0.9, bold=True))
        outer.addWidget(self.query_caption)
        self.query_text = QLabel("", self)
        self.query_text.setWordWrap(True)
        self.query_text.setFont(scaled_font(self.query_text, 1.45, bold=True))
        self.query_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.query_text)
        self.centre_stack = QStackedWidget(self)
        self.message = QLabel("", self.centre_stack)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setFont(scaled_font(self.message, 1.1))
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.centre_stack.addWidget(self.message)
        self.card = self._build_card()
        self.centre_stack.addWidget(self.card)
        outer.addWidget(self.centre_stack, 1)
        self.legend = GradeLegend(self)
        outer.addWidget(self.legend)
        # grade buttons only while a document is shown (not with an empty pool or no query)
        self.centre_stack.currentChanged.connect(self._enable_legend)
        self._enable_legend()
        outer.addLayout(self._build_status_row())

    def _build_card(self) -> QFrame:
        card = QFrame(self.centre_stack)
        card.setObjectName("document_card")
        card.setFrameShape(QFrame.Shape.StyledPanel)
        card.setBackgroundRole(QPalette.ColorRole.Base)
        card.setAutoFillBackground(True)
        layout = QVBoxLayout(card)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(6)
        top = QHBoxLayout()
        self.position_label = secondary(QLabel("", card))
        self.position_label.setFont(scaled_font(self.position_label, 0.95, bold=True))
        top.addWidget(self.position_label)
        top.addStretch(1)
        self.doc_id_label = secondary(QLabel("", card))
        self.doc_id_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top.addWidget(self.doc_id_label)
        layout.addLayout(top)
        self.title_label = QLabel("", card)
        self.title_label.setWordWrap(True)
        self.title_label.setFont(scaled_font(self.title_label, 1.25, bold=True))
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title_label)
        self.url_label = QLabel("", card)
        self.url_label.setTextFormat(Qt.TextFormat.RichText)
        self.url_label.setOpenExternalLinks(True)
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.url_label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout.addWidget(self.url_label)
        self.text_view = QTextBrowser(card)
        self.text_view.setFrameShape(QFrame.Shape.NoFrame)
        self.text_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.text_view.setOpenLinks(False)
        self.text_view.setFont(scaled_font(self.text_view, 1.1))
        self.text_view.viewport().setAutoFillBackground(False)
        layout.addWidget(self.text_view, 1)
        self.note_label = QLabel("", card)
        self.note_label.setWordWrap(True)
        italic = QFont(self.note_label.font())
        italic.setItalic(True)
        self.note_label.setFont(italic)
        layout.addWidget(self.note_label)
        return card

    def _build_status_row(self) -> QHBoxLayout:
        bottom = QHBoxLayout()
        self.status_label = QLabel("", self)
        self.status_label.setObjectName("save_status")
        # a long status ("Query complete: ← → to change a grade, …") wraps beside the hint
        # rather than squeezing it into a one-word-per-line sliver whose height took the
        # document's room (tests/ui/test_small_screens.py)
        self.status_label.setWordWrap(True)
        bottom.addWidget(self.status_label, 1)
        hint = self.tr(HINT)  # marked in annotate_keys, context "DocumentPanel"
        self.hint_label = secondary(QLabel(hint, self))
        # may be clipped in a narrow window rather than widening it (full text in the tooltip)
        self.hint_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hint_label.setToolTip(arg(self.tr("%1 · Home/End first/last · Ctrl+Z undo"), hint))
        self.hint_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.hint_label.setWordWrap(True)  # two lines in a narrow window, not a cut first word
        self.hint_label.setMinimumWidth(220)
        bottom.addWidget(self.hint_label, 1)
        return bottom

    # ------------------------------------------------------------------ showing
    def show_message(self, text: str) -> None:
        """Show ``text`` instead of a document (no query, an empty pool, …)."""
        self.message.setText(text)
        self.centre_stack.setCurrentWidget(self.message)

    def show_query(self, external_id: str, text: str) -> None:
        """The query above the card ('' and '' clear it)."""
        self.query_caption.setText(arg(self.tr("QUERY %1"), external_id) if external_id else "")
        self.query_text.setText(text)

    def show_item(self, item: PoolItem, position: int, total: int) -> None:
        """Show ``item``, document ``position`` (0-based) of ``total``, with its grade."""
        self.position_label.setText(arg(self.tr("Document %1 / %2"), position + 1, total))
        self.doc_id_label.setText(item.external_id)
        self.title_label.setText(item.title or arg(self.tr("Document %1"), item.external_id))
        if item.url:
            safe = item.url.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
            self.url_label.setText(f'<a href="{safe}">{safe}</a>')
            self.url_label.show()
        else:
            self.url_label.hide()
        if item.text or item.title:
            self.text_view.setPlainText(item.text)
        else:  # runs and qrels imported, the documents not: say how to get the text
            self.text_view.setPlainText(
                self.tr(
                    "The database has no text for this document. Import the documents "
                    "(File ▸ Import…, Documents: a CSV or JSONL file of id, title and text) so "
                    "that annotators read what they grade."
                )
            )
        self.note_label.setText(arg(self.tr("Note: %1"), item.note) if item.note else "")

        self.note_label.setVisible(bool(item.note))
        self.legend.set_current(item.grade)

    def scroll_text(self, pages: int) -> None:
        """Scroll the document's text by ``pages`` pages (negative: up)."""
        bar = self.text_view.verticalScrollBar()
        bar.setValue(bar.value() + pages * bar.pageStep())

    def _enable_legend(self, *_: object) -> None:
        self.legend.setEnabled(self.centre_stack.currentWidget() is self.card)

    # ------------------------------------------------------------------ keys
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._handle_key(event):
            super().keyPressEvent(event)

    def inputMethodEvent(self, event: QtGui.QInputMethodEvent) -> None:
        """A character an input method commits here (the panel does not ask for one, but a
        platform IME may still send it): a digit or key letter acts as that key."""
        text = event.commitString()
        if len(text) == 1:
            press = QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, text)
            if self._handle_key(press):
                event.accept()
                return
        super().inputMethodEvent(event)
