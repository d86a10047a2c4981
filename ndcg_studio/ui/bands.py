"""Quality-band chips: colour AND text, readable by colour-blind users on light and dark palettes.

A chip is a filled rounded rectangle with the band's name written inside. The fills are the
Okabe–Ito colour-blind-safe palette (Okabe & Ito 2008, "Color Universal Design"), ordered from
blue (excellent) to vermillion (bad) so the order survives deuteranopia and protanopia (no
red/green pair). The text colour of each chip is black or white, whichever has the higher WCAG 2
contrast ratio with its fill (every chip reaches at least 4.5:1), and the chip carries its own
fill and text colour, so it reads the same whatever the window palette. Colour is never the only
cue: the name is always written.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ndcg_studio.domain.bands import NO_BAND, Band, BandThresholds
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg

#: item-data role carrying a band code (int, :data:`NO_BAND` for none) in the models
BAND_CODE_ROLE = Qt.ItemDataRole.UserRole + 2

#: fill of each band's chip (Okabe–Ito blue, sky blue, yellow, orange, vermillion)
BAND_COLORS: dict[int, str] = {
    Band.EXCELLENT: "#0072B2",
    Band.GOOD: "#56B4E9",
    Band.FAIR: "#F0E442",
    Band.POOR: "#E69F00",
    Band.BAD: "#D55E00",
}

#: the name of each band as the GUI shows it (translated in context "Bands"; the Chinese names
#: are those of the documents the app grew from: 优秀 / 良好 / 一般 / 差 / 很差)
BAND_NAMES: dict[int, str] = {
    Band.EXCELLENT: QT_TRANSLATE_NOOP("Bands", "Excellent"),
    Band.GOOD: QT_TRANSLATE_NOOP("Bands", "Good"),
    Band.FAIR: QT_TRANSLATE_NOOP("Bands", "Fair"),
    Band.POOR: QT_TRANSLATE_NOOP("Bands", "Poor"),
    Band.BAD: QT_TRANSLATE_NOOP("Bands", "Bad"),
}

_H_PADDING = 8
_V_MARGIN = 3


def _luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0 = black, 1 = white)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(color.redF())
        + 0.7152 * channel(color.greenF())
        + 0.0722 * channel(color.blueF())
    )


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio of two colours, in [1, 21] (SOURCE: WCAG 2.1, definition of
    "contrast ratio": (L1 + 0.05) / (L2 + 0.05) with L1 the lighter relative luminance)."""
    la, lb = _luminance(a), _luminance(b)
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


def best_text_color(fill: QColor) -> QColor:
    """Black or white, whichever has the higher contrast ratio with ``fill``."""
    black, white = QColor("#000000"), QColor("#FFFFFF")
    return black if contrast_ratio(fill, black) >= contrast_ratio(fill, white) else white


def band_color(code: int) -> QColor:
    """Fill colour of a band code (invalid QColor for :data:`NO_BAND`)."""
    if code == NO_BAND:
        return QColor()
    return QColor(BAND_COLORS[code])


@cache
def _text_color_name(code: int) -> str:
    return str(best_text_color(QColor(BAND_COLORS[code])).name())


def band_text_color(code: int) -> QColor:
    """Black or white, whichever contrasts more with the band's fill."""
    return QColor(_text_color_name(code))


def band_name(code: int) -> str:
    """'Excellent' … 'Bad' in the interface language; '' for :data:`NO_BAND`."""
    return "" if code == NO_BAND else QCoreApplication.translate("Bands", BAND_NAMES[code])


def band_range_text(code: int, thresholds: BandThresholds) -> str:
    """The nDCG interval of a band, e.g. 'fair: 0.70 ≤ nDCG < 0.80'."""
    if code == NO_BAND:
        return QCoreApplication.translate(
            "Bands", "no band: the query has no judgments, so nDCG is undefined"
        )
    return arg(
        QCoreApplication.translate("Bands", "%1: %2"),
        _lower_first(band_name(code)),
        band_interval(code, thresholds),
    )


def _lower_first(name: str) -> str:
    return name[:1].lower() + name[1:]  # 'fair: …'


def band_interval(code: int, thresholds: BandThresholds) -> str:
    """The nDCG interval of a band (not :data:`NO_BAND`), e.g. '0.70 ≤ nDCG < 0.80'."""
    bounds = {
        Band.EXCELLENT: (thresholds.excellent, None),
        Band.GOOD: (thresholds.good, thresholds.excellent),
        Band.FAIR: (thresholds.fair, thresholds.good),
        Band.POOR: (thresholds.poor, thresholds.fair),
        Band.BAD: (None, thresholds.poor),
    }
    low, high = bounds[Band(code)]
    if low is None:
        return f"nDCG < {high:.2f}"
    if high is None:
        return f"nDCG ≥ {low:.2f}"
    return f"{low:.2f} ≤ nDCG < {high:.2f}"


def chip_width(metrics: QFontMetrics, code: int) -> int:
    """Width in pixels of the chip of ``code`` drawn with a font of these metrics."""
    return metrics.horizontalAdvance(band_name(code)) + 2 * _H_PADDING


def paint_band_chip(painter: QPainter, rect: QRect | QRectF, code: int, font: QFont) -> None:
    """Paint the chip of band ``code`` left-aligned in ``rect`` (nothing for :data:`NO_BAND`)."""
    if code == NO_BAND:
        return
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    chip_font = QFont(font)
    chip_font.setBold(True)
    metrics = QFontMetrics(chip_font)
    area = QRectF(rect)
    height = min(area.height() - 2 * _V_MARGIN, metrics.height() + 4)
    width = min(float(chip_width(metrics, code)), area.width() - 4)
    chip = QRectF(area.left() + 4, area.center().y() - height / 2, width, height)
    fill = band_color(code)
    painter.setPen(QPen(fill.darker(150), 1.0))
    painter.setBrush(fill)
    radius = height / 2
    painter.drawRoundedRect(chip.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
    painter.setFont(chip_font)
    painter.setPen(band_text_color(code))
    painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, band_name(code))
    painter.restore()


class BandChipDelegate(QStyledItemDelegate):
    """Paints the :data:`BAND_CODE_ROLE` of a cell as a band chip (selection background kept)."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        code = index.data(BAND_CODE_ROLE)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # the chip carries the text
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        if code is not None:
            paint_band_chip(painter, opt.rect, int(code), opt.font)

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        base = super().sizeHint(option, index)
        font = QFont(option.font)
        font.setBold(True)
        metrics = QFontMetrics(font)
        widest = max(chip_width(metrics, int(b)) for b in Band) + 8
        return QSize(max(base.width(), widest), max(base.height(), metrics.height() + 10))


def chip_style(code: int) -> str:
    """A style sheet that draws a QLabel as the chip of band ``code``."""
    return (
        f"QLabel {{ background: {band_color(code).name()}; color: {band_text_color(code).name()};"
        " border-radius: 8px; padding: 1px 8px; font-weight: bold; }"
    )


class BandLegend(QWidget):
    """The five bands as chips with their nDCG ranges, one per line (a reading key for the
    table's chips and the band chart)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(8)
        layout.setVerticalSpacing(3)
        self.ranges: dict[int, QLabel] = {}
        for row, band in enumerate(sorted(Band, reverse=True)):
            chip = QLabel(band_name(int(band)))
            chip.setStyleSheet(chip_style(int(band)))
            chip.setAlignment(Qt.AlignmentFlag.AlignCenter)
            text = QLabel()
            self.ranges[int(band)] = text
            layout.addWidget(chip, row, 0)
            layout.addWidget(text, row, 1)
        layout.setColumnStretch(2, 1)
        self.set_thresholds(BandThresholds())

    def set_thresholds(self, thresholds: BandThresholds) -> None:
        for code, label in self.ranges.items():
            label.setText(band_interval(code, thresholds))
