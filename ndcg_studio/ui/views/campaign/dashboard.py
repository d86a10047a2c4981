"""The lead's dashboard of a campaign: progress and one row per annotator.

The rows are :class:`~ndcg_studio.services.campaigns.service.AnnotatorStatus` values (see
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

from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.types import AnnotatorStatus, CampaignStatus, DrawProgress
from ndcg_studio.services.judges.trust import provenance_of
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg, plural
from ndcg_studio.ui.views.agreement.text import provenance_html
from ndcg_studio.ui.workers import Task, run_task

Index = QModelIndex | QPersistentModelIndex

#: (header, field of AnnotatorStatus); headers translated in context "AnnotatorStatusModel"
COLUMNS: tuple[tuple[str, str], ...] = (
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Annotator"), "annotator"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Assigned"), "assigned"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Done"), "done"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Can't judge"), "cant_judge"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Later"), "later"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Median s"), "median_seconds"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Leniency"), "leniency"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "κ vs others"), "kappa_vs_others"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "α without"), "alpha_without"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Gold exact"), "gold_exact"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Gold ±1"), "gold_within_one"),
    (QT_TRANSLATE_NOOP("AnnotatorStatusModel", "Grades 0–4"), "grades"),
)
#: a campaign's status as the dashboard names it
_STATUS = {
    "open": QT_TRANSLATE_NOOP("CampaignDashboard", "open"),
    "closed": QT_TRANSLATE_NOOP("CampaignDashboard", "closed"),
}
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
            return self.tr(COLUMNS[section][0])
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
                return self.tr("Gold accuracy below the campaign's threshold")
        return None


class CampaignDashboard(QDialog):
    """Choose a campaign, see its progress and its annotators."""

    def __init__(self, context: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaign_dashboard")
        self.setWindowTitle(self.tr("Campaign dashboard"))
        self.resize(980, 460)
        self.context = context
        layout = QVBoxLayout(self)
        self.chooser = QComboBox(self)
        layout.addWidget(self.chooser)
        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.draw = QLabel("", self)  # the ppi order's drawn queries; hidden for other orders
        self.draw.setObjectName("dashboard_draw")
        self.draw.setWordWrap(True)
        self.draw.hide()
        layout.addWidget(self.draw)
        self.model = AnnotatorStatusModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table, 1)
        self.marks = QLabel("", self)
        self.marks.setWordWrap(True)
        layout.addWidget(self.marks)
        self.machine = QLabel("", self)  # the machine sources' provenance, flagged when mixed
        self.machine.setObjectName("dashboard_machine_sources")
        self.machine.setWordWrap(True)
        layout.addWidget(self.machine)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.status: CampaignStatus | None = None
        self._task: Task[Any] | None = None
        db = context.database
        names = [c.name for c in CampaignService(db).all()] if db is not None else []
        self.chooser.addItems(names)
        if db is not None:
            self._machine_task = run_task(
                lambda _progress, _cancelled: provenance_of(db),
                on_success=lambda rows: self.machine.setText(
                    provenance_html(rows).removeprefix("<br>")
                ),
                owner=self,
            )
        self.chooser.currentTextChanged.connect(self.show_campaign)
        if names:
            self.show_campaign(names[0])
        else:
            self.summary.setText(self.tr("No campaign yet: Campaign ▸ New campaign…"))

    def show_campaign(self, name: str) -> None:
        db = self.context.database
        if db is None or not name:
            return
        service = CampaignService(db)
        self.summary.setText(arg(self.tr("Computing the statistics of %1…"), name))
        # seconds on a large campaign (bench_annotation.py, the lead's status): in a worker
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
        text = self.tr(
            "<b>%1</b> (%2) · %3 / %4 items complete with %5 grade(s) each · %6 gold at %7 · "
            "%8 / %9 queries complete · runs %10 at depth %11",
            "",
            info.overlap,
        )
        self.summary.setText(
            arg(
                plural(text, info.overlap),
                info.name,
                self.tr(_STATUS.get(info.status, info.status)),
                info.complete,
                info.items,
                info.overlap,
                info.gold,
                f"{info.gold_rate:.0%}",
                len(self.status.queries) - len(lagging),
                len(self.status.queries),
                ", ".join(info.runs),
                info.pool_depth,
            )
        )
        draw = self.status.draw
        self.draw.setVisible(draw is not None)
        self.draw.setText("" if draw is None else self._draw_text(draw))
        self.model.set_rows(self.status.annotators)
        self.marks.setText(self._marks_text(self.status))

    def _draw_text(self, draw: DrawProgress) -> str:
        """The drawn queries' progress and whether the estimate can be computed (the ppi order;
        :meth:`CampaignService.status`)."""
        expected = f"{draw.expected:g}"
        if draw.ready:
            return arg(
                self.tr(
                    "Drawn queries (ppi): %1 of %2 drawn (%3 expected), %4 complete · "
                    "estimate ready"
                ),
                draw.drawn,
                draw.queries,
                expected,
                draw.complete,
            )
        return arg(
            self.tr(
                "Drawn queries (ppi): %1 of %2 drawn (%3 expected), %4 complete · "
                "unfinished: %5, first: %6"
            ),
            draw.drawn,
            draw.queries,
            expected,
            draw.complete,
            len(draw.unfinished),
            draw.unfinished[0],
        )

    def _marks_text(self, status: CampaignStatus) -> str:
        """The annotators' "can't judge" and "later" marks (the first 30)."""
        marks = []
        for m in status.marks[:30]:
            item = f"{m.annotator}: {m.query}/{m.document}"
            if m.state != "cant_judge":
                marks.append(arg(self.tr("%1 later"), item))
            elif m.reason:
                marks.append(arg(self.tr("%1 can't judge (%2)"), item, m.reason))
            else:
                marks.append(arg(self.tr("%1 can't judge"), item))
        if not marks:
            return self.tr("No marks.")
        return arg(self.tr("Marks: %1"), self.tr("; ").join(marks))
