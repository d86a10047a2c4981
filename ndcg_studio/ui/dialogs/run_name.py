"""The question before a run import that would replace a run: File ▸ Import… of a run whose tag
names a run of the database already (every Anserini or Pyserini run is tagged "Anserini").

Nothing is replaced unless the person says so: the dialog offers the run's name (default: the
file's name, since the tag is taken), "Import as new run" under that name, "Replace" the run of
that tag, and Cancel.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.ui.language import arg


def free_name(stem: str, names: set[str]) -> str:
    """``stem``, or ``stem-2``, ``stem-3``… : the first that names no run yet."""
    name, n = stem, 1
    while name in names:
        n += 1
        name = f"{stem}-{n}"
    return name


class RunNameDialog(QDialog):
    """Asks what to do with a run file whose tag ``taken`` names an existing run.

    After ``exec()``: :attr:`replace` True for "Replace" (the run ``taken`` gets this file's
    results), else :attr:`name` is the new run's name ("Import as new run")."""

    def __init__(
        self, path: Path, taken: str, names: set[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("run_name_dialog")
        self.setWindowTitle(self.tr("Run exists"))
        self.replace = False
        self._names = names
        text = QLabel(
            arg(
                self.tr(
                    "The database holds a run named “%1” already. Import %2 as a new run under "
                    "another name, or replace that run's results with this file's?"
                ),
                taken,
                path.name,
            )
        )
        text.setWordWrap(True)
        self.name_edit = QLineEdit(free_name(path.stem, names))
        self.name_edit.setObjectName("run_name")
        self.name_edit.selectAll()
        form = QFormLayout()
        form.addRow(self.tr("Name of the new run:"), self.name_edit)
        buttons = QDialogButtonBox()
        self.new_button = QPushButton(self.tr("Import as &new run"))
        self.new_button.setDefault(True)
        self.replace_button = QPushButton(arg(self.tr("&Replace “%1”"), taken))
        buttons.addButton(self.new_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.replace_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.new_button.clicked.connect(self.accept)
        self.replace_button.clicked.connect(self._on_replace)
        buttons.rejected.connect(self.reject)
        self.name_edit.textChanged.connect(self._on_name_changed)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(min(560, max(420, self.fontMetrics().averageCharWidth() * 60)))

    @property
    def name(self) -> str:
        return self.name_edit.text().strip()

    def _on_name_changed(self, _text: str) -> None:
        # a new run needs a name no run has
        self.new_button.setEnabled(bool(self.name) and self.name not in self._names)

    def _on_replace(self) -> None:
        self.replace = True
        self.accept()
