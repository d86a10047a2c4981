"""View ▸ Theme: System / Light / Dark, stored app-wide and applied at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMenu

from ndcg_studio.ui import settings as S
from ndcg_studio.ui import theme
from ndcg_studio.ui.bands import contrast_ratio
from ndcg_studio.ui.views.annotate.document import DocumentPanel, GradeLegend

WINDOW = QPalette.ColorRole.Window
TEXT = QPalette.ColorRole.Text
BASE = QPalette.ColorRole.Base


@pytest.fixture
def restored(qapp: QApplication) -> Iterator[QApplication]:
    """The application, given back to the platform's theme after the test."""
    yield qapp
    theme.apply_theme("system", qapp)


def lightness(app: QApplication, role: QPalette.ColorRole) -> float:
    return app.palette().color(role).lightnessF()


def test_dark_and_light_change_the_palette_and_system_restores_it(restored: Any) -> None:
    app = restored
    before = app.palette().color(WINDOW).name(), app.style().name()
    assert theme.apply_theme("dark", app) == "dark"
    assert lightness(app, WINDOW) < 0.25 and lightness(app, TEXT) > 0.75
    assert app.style().name().lower() == "fusion"
    assert theme.apply_theme("light", app) == "light"
    assert lightness(app, WINDOW) > 0.75 and lightness(app, TEXT) < 0.25
    assert theme.apply_theme("system", app) == "system"
    assert (app.palette().color(WINDOW).name(), app.style().name()) == before


def test_an_unknown_theme_counts_as_system(restored: Any) -> None:
    app = restored
    before = app.palette().color(WINDOW).name()
    theme.apply_theme("dark", app)
    assert theme.apply_theme("solarized", app) == "system"
    assert app.palette().color(WINDOW).name() == before


@pytest.mark.parametrize("code", ["light", "dark"])
def test_text_is_readable_on_its_background(code: str) -> None:
    palette = theme.dark_palette() if code == "dark" else theme.light_palette()
    for fg, bg in ((TEXT, BASE), (QPalette.ColorRole.WindowText, WINDOW)):
        assert contrast_ratio(palette.color(fg), palette.color(bg)) >= 7.0  # WCAG AAA


def test_the_menu_stores_the_choice_and_applies_it_at_once(
    restored: Any, qsettings: QSettings
) -> None:
    app = restored
    settings = S.Settings(qsettings)
    menu = QMenu()
    submenu = theme.add_theme_menu(menu, settings)
    actions = submenu.actions()
    assert [a.data() for a in actions] == ["system", "light", "dark"]
    assert [a.isChecked() for a in actions] == [True, False, False]
    actions[2].trigger()
    assert settings.get(S.THEME) == "dark"
    assert QSettings(qsettings.fileName(), QSettings.Format.IniFormat).value("ui/theme") == "dark"
    assert lightness(app, WINDOW) < 0.25
    assert [a.isChecked() for a in actions] == [False, False, True]
    actions[0].trigger()
    assert settings.get(S.THEME) == "system"
    assert lightness(app, WINDOW) > 0.5  # the platform's (offscreen: Fusion light)


def test_the_main_window_has_view_theme(main_window: Any) -> None:
    view_menu = next(
        a.menu() for a in main_window.menuBar().actions() if a.text().replace("&", "") == "View"
    )
    titles = [a.text() for a in view_menu.actions()]
    assert "&Theme" in titles


def test_a_theme_change_reaches_the_annotate_views_secondary_text_and_grade_buttons(
    restored: Any, annotate_view: Any
) -> None:
    """Widgets that colour themselves from the palette follow a change of theme at once."""
    app = restored
    view = annotate_view
    panel = next(w for w in view.findChildren(DocumentPanel))
    hint = panel.hint_label
    legend = next(w for w in view.findChildren(GradeLegend))
    button = legend.buttons[0]
    theme.apply_theme("dark", app)
    QApplication.processEvents()
    window = app.palette().color(WINDOW)
    assert hint.palette().color(hint.foregroundRole()).name() == (
        app.palette().color(QPalette.ColorRole.PlaceholderText).name()
    )
    assert button.palette().color(QPalette.ColorRole.Button).lightnessF() < 0.5
    theme.apply_theme("light", app)
    QApplication.processEvents()
    assert app.palette().color(WINDOW) != window
    assert hint.palette().color(hint.foregroundRole()).name() == (
        app.palette().color(QPalette.ColorRole.PlaceholderText).name()
    )
    assert button.palette().color(QPalette.ColorRole.Button).lightnessF() > 0.5
