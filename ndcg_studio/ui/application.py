"""Starting the desktop app (placeholder until the GUI lands)."""

from __future__ import annotations


def run_gui(db: str | None = None, demo: bool = False) -> int:
    """Open the main window on ``db`` (or the demo database) and run the Qt event loop."""
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication.instance() or QApplication([])
    label = QLabel("NDCG Studio")
    label.show()
    return int(app.exec())
