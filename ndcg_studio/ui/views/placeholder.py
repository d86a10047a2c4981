"""A page standing in for a view whose module is not there yet (or failed to import)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class PlaceholderView(QWidget):
    """A centred "coming soon" message (with the import error, if there was one)."""

    def __init__(self, title: str, detail: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"placeholder_{title.lower()}")
        heading = QLabel(f"{title} — coming soon")
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        heading.setFont(font)
        heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        body = QLabel(detail or f"The {title} view is not part of this build yet.")
        body.setWordWrap(True)
        body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        body.setEnabled(False)  # the palette's disabled text: visibly secondary in any theme
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(heading)
        layout.addWidget(body)
        layout.addStretch(2)
