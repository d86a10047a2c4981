"""Every view is usable on a 1024×700 screen: the main window may be narrower than 1000 px, and
at 1024×700 the widgets a person needs are wholly inside the window (not cut off at its edge).

Offscreen (the layout, not the pixels); the pictures themselves are rendered at 1024×700 by
``scripts/screenshots.py --size 1024x700`` and looked at on a real X server. The window is
checked in English, Chinese and Russian (#21.3: Russian labels run longer, Chinese ones need
CJK glyphs): the window fixture is parametrised by the interface language."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QThreadPool
from PySide6.QtWidgets import QApplication, QWidget

from ndcg_studio.ui import workers
from ndcg_studio.ui.charts import ChartsPane
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.scores import COL_JUDGED
from ndcg_studio.ui.views.agreement.view import AgreementView
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.views.review.view import ReviewView
from ndcg_studio.ui.window.main_window import MainWindow


def settle(qtbot: Any, seconds: float = 10.0) -> None:
    """Let every background load finish and the layouts settle."""
    deadline = time.monotonic() + seconds
    quiet = 0
    while time.monotonic() < deadline and quiet < 5:
        qtbot.wait(20)
        idle = (
            workers.running_tasks() == 0 and QThreadPool.globalInstance().activeThreadCount() == 0
        )
        quiet = quiet + 1 if idle else 0


def rect_in_window(widget: QWidget, window: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def assert_inside(widget: QWidget, window: QWidget, what: str) -> None:
    assert widget.isVisible(), f"{what} is not shown"
    rect = rect_in_window(widget, window)
    assert window.rect().contains(rect), (
        f"{what} at {rect} is cut off by the window {window.rect()}"
    )


@pytest.fixture(params=["en", "zh_CN", "ru"])
def interface_language(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    """The interface language the window is built in (its translators installed)."""
    from ndcg_studio.ui.language import apply_language

    undo = apply_language(request.param)
    yield request.param
    undo()


@pytest.fixture
def small_window(qtbot: Any, context: AppContext, interface_language: str) -> MainWindow:
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    settle(qtbot)
    # a minimum width above 1024 would silently widen the window past the screen
    assert (window.width(), window.height()) == (1024, 700)
    return window


def test_the_menus_and_tabs_fit_1024_in_every_language(
    small_window: MainWindow, interface_language: str
) -> None:
    if interface_language != "en":  # the window is really translated
        assert small_window.tabs.tabText(0) != "Annotate"
        assert small_window.menuBar().actions()[0].text() != "&File"
    bar = small_window.menuBar()
    assert bar.sizeHint().width() <= small_window.width()
    tab_bar = small_window.tabs.tabBar()
    assert tab_bar.sizeHint().width() <= small_window.width()
    for i in range(tab_bar.count()):
        assert tab_bar.tabRect(i).right() <= small_window.width(), tab_bar.tabText(i)


def test_the_main_window_can_be_narrower_than_1000_px(small_window: MainWindow) -> None:
    # was 1175 px: the Agreement tab's row of six grade buttons
    assert small_window.minimumSizeHint().width() <= 1000
    for title, view in small_window.views.items():
        assert view.minimumSizeHint().width() <= 1000, title


def test_annotate_at_1024_shows_the_pool_grades_and_the_legend(
    qtbot: Any, small_window: MainWindow
) -> None:
    view = small_window.view("Annotate")
    assert isinstance(view, AnnotateView)
    small_window.tabs.setCurrentWidget(small_window.view("Annotate"))
    settle(qtbot)
    assert small_window.width() <= 1024
    table = view.pool.pool_table
    header = table.horizontalHeader()
    grade = PoolModel.COL_GRADE
    x = header.sectionViewportPosition(grade)
    assert x >= 0 and x + header.sectionSize(grade) <= table.viewport().width(), "Grade column cut"
    assert_inside(table, small_window, "the pool")
    for g, button in view.panel.legend.buttons.items():
        assert_inside(button, small_window, f"grade button {g}")
        # the full name fits (not "Ir…nt"): the button is at least as wide as it asks for
        assert button.width() >= button.sizeHint().width(), button.text()


def test_agreement_at_1024_shows_every_final_grade_button(
    qtbot: Any, small_window: MainWindow
) -> None:
    view = small_window.view("Agreement")
    assert isinstance(view, AgreementView)
    small_window.tabs.setCurrentWidget(small_window.view("Agreement"))
    qtbot.waitUntil(lambda: view.pages.currentIndex() == 1, timeout=10_000)
    settle(qtbot)
    for grade, button in view.grade_buttons.items():
        assert_inside(button, small_window, f"final grade button {grade}")
        assert button.width() >= button.sizeHint().width(), button.text()


def test_review_at_1024_shows_the_settings_button_and_readable_charts(
    qtbot: Any, small_window: MainWindow
) -> None:
    view = small_window.view("Review")
    assert isinstance(view, ReviewView)
    small_window.tabs.setCurrentWidget(small_window.view("Review"))
    qtbot.waitUntil(lambda: view.pages.currentIndex() == 1, timeout=10_000)
    settle(qtbot)
    assert_inside(view.settings_button, small_window, "Scoring settings…")
    assert view.settings_button.width() >= view.settings_button.sizeHint().width()
    # each chart shown gets the width its labels need (side by side, or one at a time in tabs)
    for chart in (view.band_chart, view.histogram):
        if chart.isVisible():
            assert chart.width() >= ChartsPane.MIN_CHART_WIDTH - 10
    assert view.charts.is_tabbed()  # ~430 px for two charts: tabs


def test_review_table_headers_are_not_cut_in_any_language(
    qtbot: Any, small_window: MainWindow, interface_language: str
) -> None:
    """Each header of the Review table is whole in its column ("Оценено@10", not "ценено@10"):
    its text and the sort arrow fit the section."""
    view = small_window.view("Review")
    assert isinstance(view, ReviewView)
    small_window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.pages.currentIndex() == 1, timeout=10_000)
    settle(qtbot)
    header = view.table.horizontalHeader()
    metrics = header.fontMetrics()
    judged = str(view.model.headerData(COL_JUDGED, Qt.Orientation.Horizontal))
    assert ("Оценено" in judged) == (interface_language == "ru")
    for col in range(view.model.columnCount()):
        text = str(view.model.headerData(col, Qt.Orientation.Horizontal))
        assert header.sectionSize(col) >= metrics.horizontalAdvance(text) + 16, text


def test_charts_sit_side_by_side_when_there_is_room(qtbot: Any, context: AppContext) -> None:
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.tabs.setCurrentWidget(window.view("Review"))
    view = window.view("Review")
    assert isinstance(view, ReviewView)
    qtbot.waitUntil(lambda: view.pages.currentIndex() == 1, timeout=10_000)
    settle(qtbot)
    assert not view.charts.is_tabbed()
    assert view.band_chart.isVisible() and view.histogram.isVisible()
    for chart in (view.band_chart, view.histogram):
        assert chart.width() >= ChartsPane.MIN_CHART_WIDTH


def test_the_first_window_fits_a_small_screen(qtbot: Any, context: AppContext) -> None:
    window = MainWindow(context)  # no saved geometry: the 1280×800 default, cut to the screen
    qtbot.addWidget(window)
    screen = window.screen().availableGeometry()
    assert window.width() <= max(screen.width(), window.minimumSizeHint().width())
    assert window.height() <= screen.height()
    assert QApplication.instance() is not None


def test_annotate_with_a_campaign_fits_1024(
    qtbot: Any, context: AppContext, interface_language: str
) -> None:
    """The campaign panel (guidelines, own progress) is a tab beside the query list, not a
    fourth column: with it Annotate was ~1,120 px at least and did not fit a 1024-px screen.
    Every grade button shows its whole name, in every language."""
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec
    from tests.ui.conftest import RUN_NAMES

    database = context.require_database()
    annotator = context.annotator
    assert annotator is not None
    spec = CampaignSpec(
        "study", list(RUN_NAMES), 10, 2, [annotator.name, "bob"], gold_rate=0.0,
        guidelines="# Guidelines\n\nRelevant means it answers the query.",
    )  # fmt: skip
    CampaignService(database).create(spec)
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    settle(qtbot)
    view = window.view("Annotate")
    assert isinstance(view, AnnotateView)
    panel = window.campaign_panel
    assert panel is not None
    assert not panel.isHidden() and view.side_panel_shown(panel)
    tabs = view.side_tabs
    names = [tabs.tabText(i) for i in range(tabs.count())]
    assert interface_language != "en" or names == ["Queries", "Campaign"]
    assert tabs.count() == 2
    assert tabs.currentWidget().isAncestorOf(panel)  # the guidelines in view at once
    assert view.minimumSizeHint().width() <= 1000
    assert window.minimumSizeHint().width() <= 1000
    assert (window.width(), window.height()) == (1024, 700)
    for widget, what in (
        (panel.guidelines, "the guidelines"),
        (panel.progress_label, "your progress"),
        (panel.next_button, "Next from queue"),
        (view.pool.pool_table, "the pool"),
        *((b, f"grade button {g}") for g, b in view.panel.legend.buttons.items()),
    ):
        assert_inside(widget, window, what)
    for grade, button in view.panel.legend.buttons.items():
        assert button.width() >= button.minimumWidth(), (interface_language, grade)
    panel.chooser.setCurrentText("study")
    assert "Guidelines" in panel.guidelines.toPlainText()
    assert_inside(panel.guidelines, window, "the chosen campaign's guidelines")
    # the query list is one tab away; an annotator in no open campaign sees no tab bar
    tabs.setCurrentIndex(0)
    assert_inside(view.queries.query_table, window, "the query list")
    panel.hide()
    assert tabs.count() == 1 and not view.side_panel_shown(panel)
    assert not tabs.tabBar().isVisible()
    panel.show()
    assert view.side_panel_shown(panel) and tabs.currentWidget().isAncestorOf(panel)


def test_query_detail_at_1024_shows_every_column_and_ten_rows(
    qtbot: Any, context: AppContext, interface_language: str, ui_data: Any
) -> None:
    """Query detail at 1024×700 with two annotators: the run table shows every column (no
    horizontal scrolling, the gain columns in view beside the titles) and room for ten rows;
    the ideal table every column too."""
    from ndcg_studio.services.annotation.service import AnnotationService
    from ndcg_studio.services.scoring.service import ScoringService
    from ndcg_studio.services.scoring.settings import ScoringSettings
    from ndcg_studio.ui.views.query_detail import QueryDetailView
    from tests.ui.conftest import RUN_NAMES

    grading = AnnotationService(context.database)
    for doc, grade in (("d1", 2), ("d2", 3)):
        grading.set_grade(ui_data.alice.id, ui_data.query["q1"], ui_data.doc[doc], grade)
    view = QueryDetailView(context)
    qtbot.addWidget(view)
    view.resize(1024, 700)
    view.show()
    qb = ScoringService(context.database).breakdown("q1", RUN_NAMES[0], ScoringSettings(k=10))
    view.set_breakdown(qb, "q1")
    settle(qtbot, 0.3)
    assert view.run_model.columnCount() >= 10  # alice's and bob's columns among them
    for table in (view.run_table, view.ideal_table):
        header = table.horizontalHeader()
        assert header.length() <= table.viewport().width(), (interface_language, header.length())
    rows = view.run_table.viewport().height() / view.run_table.verticalHeader().defaultSectionSize()
    assert rows >= 8, rows


def test_a_long_status_wraps_beside_the_hint_and_the_document_keeps_its_room(
    qtbot: Any, small_window: MainWindow
) -> None:
    """ "Query complete: …" in the status row: the hint keeps a readable width (it was squeezed
    into a one-word-per-line sliver) and the document's text keeps the free height."""
    view = small_window.view("Annotate")
    assert isinstance(view, AnnotateView)
    settle(qtbot)
    before = view.panel.text_view.height()
    view.set_status("Query complete: ← → to change a grade, U for the next unjudged")
    settle(qtbot, 0.3)
    hint = view.panel.hint_label
    assert hint.width() >= 200, hint.width()
    assert hint.heightForWidth(hint.width()) <= 4 * hint.fontMetrics().lineSpacing()
    assert view.panel.text_view.height() >= before - 3 * hint.fontMetrics().lineSpacing()
    assert_inside(view.panel.status_label, small_window, "the status")
