"""The 0–4 grade scale as the views show it: names, chip colours, chip icons.

Each chip is a filled rounded square with the grade's digit in a colour chosen for contrast with
the fill (WCAG contrast ≥ 4.5 for every grade), so it reads the same on light and dark palettes;
the grade's name is always written next to it in the palette's text colour (colour is never the
only cue).
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap

from ndcg_studio import vocabulary
from ndcg_studio.vocabulary import GRADE_LABELS

GRADES = vocabulary.GRADES

#: fill colour of each grade's chip: grey, then yellow to dark green (ColorBrewer RdYlGn / Greens)
GRADE_COLORS: dict[int, str] = {
    0: "#BDBDBD",
    1: "#FEE08B",
    2: "#A6D96A",
    3: "#1A9850",
    4: "#00512C",
}
#: digit colour on each chip (contrast with the fill ≥ 4.5)
GRADE_TEXT_COLORS: dict[int, str] = {
    0: "#000000",
    1: "#000000",
    2: "#000000",
    3: "#FFFFFF",
    4: "#FFFFFF",
}
#: a hollow chip for "not judged"
UNJUDGED_BORDER = "#8A8A8A"


def grade_name(grade: int | None) -> str:
    """'Highly relevant' for 3, 'Not judged' for None, 'Judged non-relevant (-1)' for an
    imported -1 (trec_eval's judged non-relevant: an annotator grades 0-4 only)."""
    if grade is None:
        return QCoreApplication.translate("Grades", "Not judged")
    if grade < 0:
        return QCoreApplication.translate("Grades", "Judged non-relevant (−1)")
    return QCoreApplication.translate("Grades", GRADE_LABELS[grade]).capitalize()


def paint_chip(painter: QPainter, rect: QRectF, grade: int | None) -> None:
    """Paint the chip of ``grade`` (None: a hollow dashed square) into ``rect``."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    radius = rect.height() * 0.22
    inner = rect.adjusted(0.5, 0.5, -0.5, -0.5)
    if grade is None:
        pen = QPen(QColor(UNJUDGED_BORDER), 1.0, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(inner, radius, radius)
    else:
        fill = QColor(GRADE_COLORS[max(grade, 0)])  # -1 (imported) looks like 0
        painter.setPen(QPen(fill.darker(140), 1.0))
        painter.setBrush(fill)
        painter.drawRoundedRect(inner, radius, radius)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(6, round(rect.height() * 0.68)))
        painter.setFont(font)
        painter.setPen(QColor(GRADE_TEXT_COLORS[max(grade, 0)]))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(grade))
    painter.restore()


@cache
def _chip_pixmap(grade: int | None, size: int, dpr: float) -> QPixmap:
    pixmap = QPixmap(round(size * dpr), round(size * dpr))
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    paint_chip(painter, QRectF(0, 0, size, size), grade)
    painter.end()
    return pixmap


def chip_icon(grade: int | None, size: int = 16) -> QIcon:
    """An icon of the grade's chip (sharp at 1× and 2× device pixel ratios)."""
    icon = QIcon()
    for dpr in (1.0, 2.0):
        icon.addPixmap(_chip_pixmap(grade, size, dpr))
    return icon
