"""The main window: tabs, menus, About, saved geometry, opening databases, import wiring, and
the error handler that turns an exception in a slot into a message box."""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget
from sqlalchemy import func, select

from ndcg_studio import __version__
from ndcg_studio.storage import models
from ndcg_studio.ui import errors
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.agreement.view import AgreementView
from ndcg_studio.ui.views.annotate.view import AnnotateView
from ndcg_studio.ui.views.compare.view import CompareView
from ndcg_studio.ui.views.review.view import ReviewView
from ndcg_studio.ui.views.stability import StabilityView
from ndcg_studio.ui.window import transfer
from ndcg_studio.ui.window.main_window import VIEWS, MainWindow
from tests.ui.conftest import UiData


def test_the_window_opens_with_its_tabs_and_menus(main_window: MainWindow) -> None:
    tabs = [main_window.tabs.tabText(i) for i in range(main_window.tabs.count())]
    assert (
        tabs
        == ["Annotate", "Review", "Agreement", "Compare", "Stability"]
        == [title for title, _view in VIEWS]
    )
    assert list(main_window.views) == ["Annotate"]  # the others: when first shown
    classes = (AnnotateView, ReviewView, AgreementView, CompareView, StabilityView)
    for index, ((title, _factory), cls) in enumerate(zip(VIEWS, classes, strict=True)):
        view = main_window.view(title)
        assert isinstance(view, cls) and main_window.tabs.widget(index) is view
        assert main_window.tabs.tabText(index) == title
    assert main_window.tabs.currentIndex() == 0  # building a view does not show it
    menus = [a.text() for a in main_window.menuBar().actions()]
    assert menus == ["&File", "&Edit", "&View", "&Annotator", "&Campaign", "&Help"]
    assert main_window.undo_action.shortcut().toString() == "Ctrl+Z"
    assert "Ctrl+Shift+Z" in [k.toString() for k in main_window.redo_action.shortcuts()]


def test_about_shows_the_version(main_window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda _parent, _title, text: shown.append(text))
    main_window.show_about()
    assert len(shown) == 1 and f"NDCG Studio {__version__}" in shown[0]


def test_geometry_and_tab_are_restored_in_a_second_window(
    qtbot: Any, context: AppContext, qsettings: QSettings
) -> None:
    first = MainWindow(context)
    qtbot.addWidget(first)
    first.show()
    first.resize(first.width() - 20, 640)  # not the default 1280 × 800
    first.tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: first.height() == 640)
    saved = first.size()
    first.close()
    assert qsettings.value("window/geometry") is not None
    second_context = AppContext(QSettings(qsettings.fileName(), QSettings.Format.IniFormat))
    second = MainWindow(second_context)
    qtbot.addWidget(second)
    second.show()
    # the offscreen screen is 800 × 800: Qt fits a restored window's width into it (then the
    # minimum width applies), so only the height is compared exactly
    assert second.height() == saved.height() == 640
    assert second.width() == max(second.minimumSizeHint().width(), min(saved.width(), 800))
    assert second.tabs.currentIndex() == 2


def test_undo_from_the_edit_menu(qtbot: Any, main_window: MainWindow, ui_data: UiData) -> None:
    view = main_window.view("Annotate")
    assert isinstance(view, AnnotateView)
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)
    view.panel.setFocus()
    qtbot.keyClick(view.panel, Qt.Key.Key_4)
    assert main_window.undo_action.isEnabled()
    assert main_window.undo_action.text().startswith("&Undo Grade 4")
    main_window.undo_action.trigger()
    with ui_data.db.transaction() as s:
        n = s.execute(
            select(func.count())
            .select_from(models.judgments)
            .where(models.judgments.c.annotator_id == ui_data.alice.id)
        ).scalar_one()
    assert n == 0
    assert main_window.redo_action.isEnabled()


def test_opening_another_database_in_a_worker(
    qtbot: Any, main_window: MainWindow, context: AppContext, tmp_path: Path
) -> None:
    target = tmp_path / "other.sqlite"
    with qtbot.waitSignal(context.database_changed, timeout=10_000):
        main_window.databases.open_database(str(target), create=True)
    assert context.database is not None and context.database.label == str(target)
    assert context.annotator is not None and context.annotator.name == "alice"  # remembered
    assert context.settings.recent_databases()[0] == str(target)
    assert main_window.windowTitle() == f"other.sqlite — NDCG Studio {__version__}"
    qtbot.waitUntil(lambda: "0 queries" in main_window.status.counts_label.text(), timeout=5000)
    # the app's connections read without a memory map (its pages would count in its RSS)
    with context.database.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA mmap_size").scalar() == 0


def test_the_annotators_name_is_asked_when_grading_starts(
    qtbot: Any, qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = AppContext(QSettings(str(tmp_path / "fresh.ini"), QSettings.Format.IniFormat))
    window = MainWindow(context)
    qtbot.addWidget(window)
    asked: list[str] = []

    def fake_get_text(_parent: Any, title: str, _label: str, **_kw: Any) -> tuple[str, bool]:
        asked.append(title)
        return ("carol", True)

    monkeypatch.setattr(QInputDialog, "getText", fake_get_text)
    with qtbot.waitSignal(context.database_changed, timeout=10_000):
        window.databases.open_database(str(tmp_path / "first.sqlite"), create=True)
    assert asked == [] and context.annotator is None  # an analyst is never asked
    view = window.view("Annotate")
    assert isinstance(view, AnnotateView)
    qtbot.waitUntil(lambda: "Nobody is annotating" in view.panel.status_label.text(), timeout=5000)
    with qtbot.waitSignal(context.annotator_changed, timeout=10_000):
        QTest.keyClick(view.panel, Qt.Key.Key_3)  # grading starts: who is it?
    assert asked == [f"Welcome to NDCG Studio {__version__}"]
    assert context.annotator is not None and context.annotator.name == "carol"
    assert context.remembered_annotator_name() == "carol"
    window.close()
    context.set_database(None)


def test_import_runs_the_import_service_and_views_reload(
    qtbot: Any,
    main_window: MainWindow,
    ui_data: UiData,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("ndcg_studio.services.importing.service")
    run = tmp_path / "extra.run"
    run.write_text("q2 Q0 d1 1 9.5 extra\nq2 Q0 d10 2 8.0 extra\n", encoding="utf-8")
    monkeypatch.setattr(transfer, "ask_item", lambda *a, **k: ("A run (TREC run file)", True))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(run), ""))
    view = main_window.view("Annotate")
    assert isinstance(view, AnnotateView)
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)
    with qtbot.waitSignal(view.rows_loaded, timeout=10_000):
        main_window.import_file()
    with ui_data.db.transaction() as s:
        names = set(s.execute(select(models.runs.c.name)).scalars())
    assert "extra" in names
    assert view.rows_model.progress_of(ui_data.query["q2"]).pool_size == 5  # d7 d8 d9 + d1 d10
    shown = main_window.statusBar().currentMessage()
    # cut at a word with " …" when the window is narrow, the whole message in the tooltip
    full = main_window.statusBar().toolTip() or shown
    assert full.startswith("extra.run: 2 lines imported") and str(tmp_path) not in full
    assert shown == full or (shown.endswith(" …") and full.startswith(shown[:-2]))


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_shows_a_dialog_and_is_logged(
    qtbot: Any, main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    boxes: list[tuple[str, str]] = []

    def fake_exec(box: QMessageBox) -> int:
        boxes.append((box.windowTitle(), box.text()))
        return int(QMessageBox.StandardButton.Ok)

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    log_path = errors.setup_logging(tmp_path / "app.log")
    uninstall = errors.install_excepthook_only(lambda: main_window)

    class Emitter(QObject):
        fired = Signal()

    def broken_slot() -> None:
        raise RuntimeError("the slot broke")

    emitter = Emitter()
    emitter.fired.connect(broken_slot)
    try:
        emitter.fired.emit()
    finally:
        uninstall()
    assert boxes == [("Unexpected error", "Something went wrong: RuntimeError: the slot broke")]
    logged = log_path.read_text(encoding="utf-8")
    assert "Traceback" in logged and "the slot broke" in logged
    assert main_window.isVisible()  # the app is still there


def test_pyside_keeps_reference_counts(qapp: Any) -> None:
    """PySide6 6.12.0 drops one reference to ``True`` on every ``Signal.emit()`` and one to
    ``None`` on every call of a Python slot from Qt (and every ``QThreadPool`` run). On Python
    3.11, where ``True`` and ``None`` are not immortal, the app then dies with "Fatal Python
    error: bool_dealloc" / "none_dealloc" after a few hundred emits — a few hundred grades in
    the Annotate view. PySide6 6.11.2 is clean. If this fails: pin ``PySide6<6.12``."""
    import sys

    from PySide6.QtCore import QCoreApplication, QTimer

    class Emitter(QObject):
        fired = Signal()

    emitter = Emitter()
    before = sys.getrefcount(True)
    for _ in range(200):
        emitter.fired.emit()
    lost_true = before - sys.getrefcount(True)

    calls = [0]

    def slot() -> None:
        calls[0] += 1

    timer = QTimer()
    timer.setInterval(0)
    timer.timeout.connect(slot)
    before = sys.getrefcount(None)
    timer.start()
    while calls[0] < 200:
        QCoreApplication.processEvents()
    timer.stop()
    lost_none = before - sys.getrefcount(None)
    assert lost_true < 50 and lost_none < 50, (
        f"PySide6 lost {lost_true} references to True in 200 emits and {lost_none} to None in "
        "200 slot calls: this PySide6 build will crash the app (pin PySide6<6.12)"
    )


def _run_gui_until(
    qapp: Any, monkeypatch: pytest.MonkeyPatch, done: Any, **kwargs: Any
) -> tuple[int, MainWindow | None]:
    """Run ``run_gui(**kwargs)``; quit once ``done(window)`` is true (or after 60 s)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ndcg_studio.ui.application import run_gui

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("dora", True))
    seen: list[MainWindow] = []

    def poll() -> None:
        windows = [
            w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
        ]
        if windows and done(windows[0]):
            seen.append(windows[0])
            QApplication.quit()  # run_gui closes and deletes the window itself

    timer = QTimer()
    timer.setInterval(50)
    timer.timeout.connect(poll)
    timer.start()
    QTimer.singleShot(60_000, QApplication.quit)
    try:
        code = run_gui(**kwargs)
    finally:
        timer.stop()
    return code, (seen[0] if seen else None)


def test_run_gui_opens_a_database_and_asks_no_name_before_grading(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "fresh.sqlite"
    asked: list[str] = []

    def create(_parent: Any, _title: str, text: str, *_a: Any) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", create)
    code, window = _run_gui_until(
        qapp,
        monkeypatch,
        lambda w: w.context.database is not None,
        db=str(target),
    )
    assert code == 0 and window is not None
    assert gc.get_freeze_count() == 0  # the start's frozen objects are given back
    assert window.context.annotator is None  # asked when grading starts, not before
    assert target.exists()
    assert len(asked) == 1 and str(target) in asked[0]  # --db to a new file: asked first


def test_a_database_that_does_not_exist_is_created_only_when_the_user_says_so(
    qtbot: Any,
    main_window: MainWindow,
    context: AppContext,
    ui_data: UiData,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--db ~/typo/x.sqlite`` or Open Recent on a moved file: a question (default No); No
    creates neither the folder nor the file and the window keeps the database it had."""
    asked: list[tuple[str, QMessageBox.StandardButton]] = []

    def decline(
        _parent: Any, _title: str, text: str, _buttons: Any, default: Any
    ) -> QMessageBox.StandardButton:
        asked.append((text, default))
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", decline)
    typo = tmp_path / "typo" / "x.sqlite"
    assert main_window.databases.open_database(str(typo)) is None
    assert asked == [
        (
            f"There is no database at {typo}.\n\nCreate a new, empty database there?",
            QMessageBox.StandardButton.No,
        )
    ]
    assert not typo.parent.exists()
    assert context.database is ui_data.db and not context.opening
    assert main_window.status.db_label.text() == "Database: ui.sqlite"
    # an existing file is opened without a question
    assert main_window.databases.open_database(str(ui_data.db.label)) is not None
    assert len(asked) == 1
    qtbot.waitUntil(lambda: not context.opening, timeout=10_000)


def test_run_gui_on_a_missing_database_declined_opens_nothing(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The status bar must not claim a database that was not opened, and the views say so."""
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.No)
    target = tmp_path / "typo" / "x.sqlite"
    code, window = _run_gui_until(
        qapp,
        monkeypatch,
        lambda w: (
            w.status.db_label.text() == "No database"
            and w.windowTitle() == f"NDCG Studio {__version__}"
        ),
        db=str(target),
    )
    assert code == 0 and window is not None
    assert window.context.database is None
    assert not target.parent.exists()


def test_run_gui_demo_loads_cranfield(
    qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ndcg_studio.services.demo")

    def loaded(window: MainWindow) -> bool:
        view = window.view("Annotate")
        return (  # the list with its pools counted (the queries alone come first)
            isinstance(view, AnnotateView)
            and view.rows_model.rowCount() == 225
            and view.rows_model.counted()
        )

    code, window = _run_gui_until(qapp, monkeypatch, loaded, demo=True)
    assert code == 0 and window is not None
    database = window.context.database
    assert database is not None and database.label.endswith("demo.sqlite")
    assert database.label.startswith(os.environ["XDG_DATA_HOME"])  # never the real home
    view = window.view("Annotate")
    assert isinstance(view, AnnotateView)
    assert view.rows_model.query_at(0).pool_size > 0  # two BM25 runs give every pool documents


def test_a_bad_import_file_shows_what_is_wrong_and_writes_nothing(
    qtbot: Any,
    main_window: MainWindow,
    ui_data: UiData,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A user picks a qrels file with grade 7 on line 2: a dialog names file, line and field;
    the database is unchanged and the app keeps running."""
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 0 d1 2\nq1 0 d2 7\n", encoding="utf-8")
    boxes: list[tuple[str, str, str]] = []

    def fake_exec(box: QMessageBox) -> int:
        boxes.append((box.windowTitle(), box.text(), box.informativeText()))
        return int(QMessageBox.StandardButton.Ok)

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    answers = {  # question -> answer
        "What does the file hold?": next(iter(_qrels_label())),
        "Whose judgments are these?": next(iter(transfer.SOURCE_CHOICES)),  # no source
    }
    monkeypatch.setattr(transfer, "ask_item", lambda _w, _t, label, _i: (answers[label], True))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    # whose grades: asked (a qrels file names no annotator), not taken from the file's name
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("dora", True))
    with ui_data.db.transaction() as s:
        before = s.execute(select(func.count()).select_from(models.judgments)).scalar_one()
    main_window.import_file()
    qtbot.waitUntil(lambda: bool(boxes), timeout=10_000)
    title, text, todo = boxes[0]
    assert title == "The file has problems"
    assert "Nothing was written" in todo
    assert "bad.qrels:2: grade" in text + todo
    with ui_data.db.transaction() as s:
        after = s.execute(select(func.count()).select_from(models.judgments)).scalar_one()
    assert after == before
    assert main_window.isVisible()


def _qrels_label() -> list[str]:
    from ndcg_studio.ui.window.transfer import IMPORT_KINDS

    return [IMPORT_KINDS["qrels"][0]]


def test_first_start_on_the_default_database_loads_the_demo(
    qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def loaded(window: MainWindow) -> bool:
        view = window.view("Annotate")
        return (  # the list with its pools counted (the queries alone come first)
            isinstance(view, AnnotateView)
            and view.rows_model.rowCount() == 225
            and view.rows_model.counted()
        )

    code, window = _run_gui_until(qapp, monkeypatch, loaded)
    assert code == 0 and window is not None
    database = window.context.database
    assert database is not None and database.label.endswith("studio.sqlite")
    assert database.label.startswith(os.environ["XDG_DATA_HOME"])


def test_help_load_demo_only_into_an_empty_database(
    qtbot: Any, main_window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    infos: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: infos.append(a[2]))
    main_window.databases.load_demo_into_empty()  # the test database already holds queries
    qtbot.waitUntil(lambda: bool(infos), timeout=5000)
    assert "empty database" in infos[0]


def test_export_report_from_the_app_writes_the_csv(
    qtbot: Any, main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ndcg_studio.ui.window.transfer import EXPORT_KINDS

    out = tmp_path / "report.csv"
    monkeypatch.setattr(transfer, "ask_item", lambda *a, **k: (EXPORT_KINDS["report"], True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    main_window.export_file()
    qtbot.waitUntil(lambda: "Exported" in main_window.statusBar().currentMessage(), timeout=10_000)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("query_id,run,k,ndcg,dcg,idcg,judged_at_k,band")  # header first
    about = json.loads((tmp_path / "report.csv.settings.json").read_text(encoding="utf-8"))
    assert about["what"] == "report" and about["settings"].startswith("k=10 ")


def test_the_import_dialog_needs_a_context_and_a_parent_not_a_main_window(
    qtbot: Any, context: AppContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ast

    source = Path(transfer.__file__).read_text(encoding="utf-8")
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "ndcg_studio.ui.window.main_window" not in imported  # no import cycle
    run = tmp_path / "third.run"
    run.write_text("q1 Q0 d1 1 9.0 third\n", encoding="utf-8")
    parent = QWidget()
    qtbot.addWidget(parent)
    monkeypatch.setattr(transfer, "ask_item", lambda *a, **k: ("A run (TREC run file)", True))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(run), ""))
    messages: list[tuple[str, int]] = []
    with qtbot.waitSignal(context.database_changed, timeout=10_000):
        transfer.import_file(context, parent, lambda text, ms: messages.append((text, ms)))
    qtbot.waitUntil(lambda: bool(messages), timeout=5000)
    assert "third.run" in messages[0][0] and messages[0][1] == 15000
    assert context.last_folder() == str(tmp_path)


def test_a_view_built_on_an_open_database_says_loading_until_its_data_arrive(
    main_window: MainWindow,
) -> None:
    for title in ("Review", "Agreement", "Compare", "Stability"):
        view: Any = main_window.view(title)  # built now, the database open (not "nothing yet")
        assert view.pages.currentWidget() is view.empty and view.empty.text() == "Loading…"
