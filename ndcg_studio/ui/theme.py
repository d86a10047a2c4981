"""The interface's colour theme: the system's, or light or dark chosen in View ▸ Theme.

``system`` (the default) leaves Qt's platform style and palette alone, so the app follows the
desktop (a dark GNOME/KDE/Windows/macOS session gives a dark window). ``light`` and ``dark``
switch to Qt's Fusion style with a light or dark palette on any desktop — for a desktop whose
scheme Qt cannot read (a plain X11 window manager, a remote session) and for a user who wants
the other one. The choice is stored app-wide (:data:`~ndcg_studio.ui.settings.THEME`) and
applies at once: widgets repaint from the new palette, charts restyle on ``PaletteChange``
(:mod:`ndcg_studio.ui.charts`), band chips pick their text colour by contrast
(:mod:`ndcg_studio.ui.bands`).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QActionGroup, QColor, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QStyle, QStyleFactory

from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import settings as S

__all__ = ["THEMES", "add_theme_menu", "apply_theme", "dark_palette", "light_palette"]

#: the themes: code and menu text (translated where shown, context "Theme")
THEMES: tuple[tuple[str, str], ...] = (
    ("system", QT_TRANSLATE_NOOP("Theme", "&System")),
    ("light", QT_TRANSLATE_NOOP("Theme", "&Light")),
    ("dark", QT_TRANSLATE_NOOP("Theme", "&Dark")),
)


class _Original(QObject):
    """The platform's style name and palette, kept (parented to the application) on the first
    change so that ``system`` can restore them in the same run."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.setObjectName("ndcg_studio_original_theme")
        style: QStyle = app.style()
        self.style_name = style.name()
        self.palette = QPalette(app.palette())


def dark_palette() -> QPalette:
    """A dark palette like the ones desktop themes give Fusion (text on base 13:1 contrast)."""
    p = QPalette()
    roles = QPalette.ColorRole
    for role, color in (
        (roles.Window, "#2b2b2b"),
        (roles.WindowText, "#e6e6e6"),
        (roles.Base, "#1e1e1e"),
        (roles.AlternateBase, "#262626"),
        (roles.Text, "#e6e6e6"),
        (roles.BrightText, "#ffffff"),
        (roles.Button, "#353535"),
        (roles.ButtonText, "#e6e6e6"),
        (roles.Highlight, "#2f65ca"),
        (roles.HighlightedText, "#ffffff"),
        (roles.PlaceholderText, "#9a9a9a"),
        (roles.Link, "#6ea8fe"),
        (roles.LinkVisited, "#b392f0"),
        (roles.Light, "#505050"),
        (roles.Midlight, "#404040"),
        (roles.Mid, "#5a5a5a"),
        (roles.Dark, "#1a1a1a"),
        (roles.Shadow, "#000000"),
        (roles.ToolTipBase, "#3a3a3a"),
        (roles.ToolTipText, "#e6e6e6"),
    ):
        p.setColor(role, QColor(color))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        p.setColor(disabled, role, QColor("#7a7a7a"))
    return p


def light_palette() -> QPalette:
    """Fusion's own light palette."""
    fusion = QStyleFactory.create("Fusion")
    palette = QPalette(fusion.standardPalette())
    fusion.deleteLater()
    return palette


def apply_theme(code: str, app: QApplication | None = None) -> str:
    """Apply theme ``code`` (``system``, ``light`` or ``dark``; anything else counts as
    ``system``) to ``app`` (default: the running application). Returns the code applied."""
    app = app if app is not None else QApplication.instance()  # type: ignore[assignment]
    if not isinstance(app, QApplication):
        return "system"
    original = app.findChild(_Original, "ndcg_studio_original_theme")
    if code not in ("light", "dark"):
        if original is not None:  # back to what the platform gave at start
            app.setStyle(original.style_name)
            app.setPalette(original.palette)
        return "system"
    if original is None:
        _Original(app)
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if code == "dark" else light_palette())
    return code


def add_theme_menu(menu: QMenu, settings: S.Settings) -> QMenu:
    """Add View ▸ Theme to ``menu``: System, Light, Dark (checkable; the stored choice checked).
    Choosing one stores it and applies it at once. Returns the submenu."""
    submenu = menu.addMenu(QCoreApplication.translate("Theme", "&Theme"))
    group = QActionGroup(submenu)
    checked = settings.get(S.THEME)
    for code, text in THEMES:
        action = QAction(QCoreApplication.translate("Theme", text), submenu)
        action.setCheckable(True)
        action.setChecked(code == checked)
        action.setData(code)
        action.triggered.connect(lambda _on=False, c=code: _choose(c, settings))
        group.addAction(action)
        submenu.addAction(action)
    return submenu


def _choose(code: str, settings: S.Settings) -> None:
    settings.set(S.THEME, code)
    settings.sync()
    apply_theme(code)
