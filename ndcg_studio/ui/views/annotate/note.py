"""Annotate's note dialog: a note on the current document, written and saved from the keyboard.

Qt's multi-line input dialog keeps ``Tab`` and ``Enter`` for its text, so a person at the
keyboard can neither reach OK nor save. Here ``Ctrl+Enter`` saves, ``Tab`` moves to the buttons
(the text takes no tab characters), ``Enter`` starts a new line and ``Esc`` cancels.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)


class NoteDialog(QDialog):
    """Edit a note: ``label`` above the text, OK (Ctrl+Enter) and Cancel (Esc)."""

    def __init__(self, parent: QWidget | None, title: str, label: str, text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        caption = QLabel(label, self)
        caption.setWordWrap(True)
        layout.addWidget(caption)
        self.editor = QPlainTextEdit(text, self)
        self.editor.setTabChangesFocus(True)  # Tab reaches the buttons
        caption.setBuddy(self.editor)
        layout.addWidget(self.editor)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setToolTip(self.tr("Save the note (Ctrl+Enter)"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        hint = QLabel(self.tr("Ctrl+Enter saves · Esc cancels"), self)
        hint.setEnabled(False)
        layout.addWidget(hint)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(self.accept)
        self.editor.moveCursor(self.editor.textCursor().MoveOperation.End)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
        self.resize(480, 240)

    def text(self) -> str:
        """The note as written."""
        return self.editor.toPlainText()

    @staticmethod
    def ask(parent: QWidget | None, title: str, label: str, text: str) -> tuple[str, bool]:
        """Show the dialog; ``(note, True)`` when saved, ``(text, False)`` when cancelled."""
        dialog = NoteDialog(parent, title, label, text)
        saved = dialog.exec() == QDialog.DialogCode.Accepted
        return (dialog.text(), True) if saved else (text, False)
