"""The lead's dashboard of a campaign (issue #16.4): progress and one row per annotator.

The rows are :class:`~ndcg_studio.services.campaigns.AnnotatorStatus` values (see
:meth:`CampaignService.status` for every definition); a gold accuracy below the campaign's
threshold is shown in the palette's warning colour with a tooltip. The marks ("can't judge",
"later") are listed below for the lead.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.services.campaigns import AnnotatorStatus, CampaignService, CampaignStatus
from ndcg_studio.ui.workers import Task, run_task

Index = QModelIndex | QPersistentModelIndex

COLUMNS: tuple[tuple[str, str], ...] = (
    ("Annotator", "annotator"),
    ("Assigned", "assigned"),
    ("Done", "done"),
    ("Can't judge", "cant_judge"),
    ("Later", "later"),
    ("Median s", "median_seconds"),
    ("Leniency", "leniency"),
    ("κ vs others", "kappa_vs_others"),
    ("α without", "alpha_without"),
    ("Gold exact", "gold_exact"),
    ("Gold ±1", "gold_within_one"),
    ("Grades 0–4", "grades"),
)
_GOLD_COLUMN = 9


class AnnotatorStatusModel(QAbstractTableModel):
    """One row per annotator of a campaign (read-only)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[AnnotatorStatus] = []

    def set_rows(self, rows: list[AnnotatorStatus]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(COLUMNS)
        ):
            return COLUMNS[section][0]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        value = getattr(row, COLUMNS[index.column()][1])
        if role == Qt.ItemDataRole.DisplayRole:
            if isinstance(value, tuple):
                return " ".join(str(v) for v in value)
            if isinstance(value, float):
                return "–" if math.isnan(value) else f"{value:.2f}"
            return str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if index.column() == _GOLD_COLUMN and row.gold_warning:
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(QColor("#b00020"))
            if role == Qt.ItemDataRole.ToolTipRole:
                return "Gold accuracy below the campaign's threshold"
        return None


class CampaignDashboard(QDialog):
    """Choose a campaign, see its progress and its annotators."""

    def __init__(self, context: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaign_dashboard")
        self.setWindowTitle("Campaign dashboard")
        self.resize(980, 460)
        self.context = context
        layout = QVBoxLayout(self)
        self.chooser = QComboBox(self)
        layout.addWidget(self.chooser)
        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.model = AnnotatorStatusModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table, 1)
        self.marks = QLabel("", self)
        self.marks.setWordWrap(True)
        layout.addWidget(self.marks)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.status: CampaignStatus | None = None
        self._task: Task[Any] | None = None
        db = context.database
        names = [c.name for c in CampaignService(db).all()] if db is not None else []
        self.chooser.addItems(names)
        self.chooser.currentTextChanged.connect(self.show_campaign)
        if names:
            self.show_campaign(names[0])
        else:
            self.summary.setText("No campaign yet: Campaign ▸ New campaign…")

    def show_campaign(self, name: str) -> None:
        db = self.context.database
        if db is None or not name:
            return
        service = CampaignService(db)
        self.summary.setText(f"Computing the statistics of {name}…")
        # seconds on a large campaign (6 s for 150,000 items): in a worker
        self._task = run_task(
            lambda _progress, _cancelled: service.status(name),
            on_success=self._show_status,
            owner=self,
            replaces=self._task,
        )

    def _show_status(self, status: CampaignStatus) -> None:
        self.status = status
        info = self.status.campaign
        lagging = [q for q in self.status.queries if q.complete < q.total]
        self.summary.setText(
            f"<b>{info.name}</b> ({info.status}) · {info.complete} / {info.items} items complete "
            f"with {info.overlap} grade(s) each · {info.gold} gold at {info.gold_rate:.0%} · "
            f"{len(self.status.queries) - len(lagging)} / {len(self.status.queries)} queries "
            f"complete · runs {', '.join(info.runs)} at depth {info.pool_depth}"
        )
        self.model.set_rows(self.status.annotators)
        marks = [
            f"{m.annotator}: {m.query}/{m.document} "
            + (
                "can't judge" + (f" ({m.reason})" if m.reason else "")
                if m.state == "cant_judge"
                else "later"
            )
            for m in self.status.marks
        ]
        self.marks.setText(("Marks: " + "; ".join(marks[:30])) if marks else "No marks.")
