"""Fixtures of the GUI tests: a small database under tmp_path, an AppContext on an INI settings
file (never the user's), the Annotate view and the main window; and a guard that fails a test
which leaves work running on the thread pool.

Qt runs on the ``offscreen`` platform (tests/conftest.py). The offscreen plugin warns
"This plugin does not support propagateSizeHints()" whenever a top-level window is shown; that
warning is ignored here (``qt_log_level_fail = WARNING`` would fail every test on it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QThreadPool
from PySide6.QtWidgets import QInputDialog, QMessageBox
from sqlalchemy import insert, select

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import AnnotatorInfo
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database

UI_TESTS = Path(__file__).resolve().parent
RUN_NAMES = ("bm25-secret-run", "dense-secret-run")
OFFSCREEN_WARNING = "This plugin does not support propagateSizeHints()"

# query -> (text, run 1's documents by rank, run 2's documents by rank)
QUERIES = {
    "q1": (
        "What limits the lift of a slender wing at high angles of attack?",
        ["d1", "d2", "d3", "d4"],
        ["d3", "d4", "d5", "d6"],
    ),
    "q2": ("boundary layer transition on a flat plate", ["d7", "d8"], ["d8", "d9"]),
    "q10": ("heat transfer in hypersonic flow", ["d10", "d11"], []),
    "q3": ("a query no run answered", [], []),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if UI_TESTS in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_WARNING))


@pytest.fixture(autouse=True)
def _no_thread_pool_work_left() -> Iterator[None]:
    """Fail a test that leaves tasks running on the global thread pool (napari's guard)."""
    yield
    pool = QThreadPool.globalInstance()
    finished = pool.waitForDone(10_000)
    assert finished and pool.activeThreadCount() == 0, "a test left worker threads running"


@pytest.fixture(autouse=True)
def _no_unexpected_message_box(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message box or input dialog a test did not expect fails it at once instead of waiting,
    modal and unseen offscreen, for a click that never comes (the suite would hang until CI's
    limit). A test that expects one patches it (``QMessageBox.exec``, ``show_error``,
    ``transfer.ask_item``, ``QInputDialog.getText`` …) itself."""

    def refuse(box: QMessageBox) -> int:
        raise AssertionError(
            f"unexpected message box {box.windowTitle()!r}: {box.text()} {box.informativeText()}"
        )

    def refuse_question(*args: object, **kwargs: object) -> object:
        raise AssertionError(f"unexpected input dialog: {args[1:3]}")

    monkeypatch.setattr(QMessageBox, "exec", refuse)
    # the same for the questions a view asks (a test answers them by patching them)
    for name in ("getItem", "getText", "getInt", "getDouble"):
        monkeypatch.setattr(QInputDialog, name, refuse_question)


@pytest.fixture(autouse=True)
def _isolated_logs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """platformdirs puts logs under XDG_STATE_HOME: keep them out of the real home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@dataclass
class UiData:
    db: Database
    query: dict[str, int]
    doc: dict[str, int]
    alice: AnnotatorInfo
    bob: AnnotatorInfo


def build_ui_database(path: Path) -> UiData:
    """4 queries (q3 without results), 11 documents, 2 runs; annotators alice and bob (bob has
    graded d1 for q1 with 4)."""
    db = open_database(path)
    with db.transaction() as s:
        s.execute(
            insert(models.queries),
            [{"external_id": q, "text": text} for q, (text, _a, _b) in QUERIES.items()],
        )
        s.execute(
            insert(models.documents),
            [
                {
                    "external_id": f"d{i}",
                    "title": f"Document title {i}",
                    "text": f"The body of document {i}. " * 20,
                    "url": f"https://example.org/doc/{i}",
                }
                for i in range(1, 12)
            ],
        )
        s.execute(insert(models.runs), [{"name": n} for n in RUN_NAMES])
        qid = dict(s.execute(select(models.queries.c.external_id, models.queries.c.id)).all())
        did = dict(s.execute(select(models.documents.c.external_id, models.documents.c.id)).all())
        rid = dict(s.execute(select(models.runs.c.name, models.runs.c.id)).all())
        rows = []
        for q, (_text, run_a, run_b) in QUERIES.items():
            for run, docs in ((RUN_NAMES[0], run_a), (RUN_NAMES[1], run_b)):
                for rank, d in enumerate(docs, start=1):
                    rows.append(
                        {
                            "run_id": rid[run],
                            "query_id": qid[q],
                            "document_id": did[d],
                            "rank": rank,
                            "position": rank,
                            "score": 10.0 - rank,
                        }
                    )
        s.execute(insert(models.results), rows)
    service = AnnotationService(db)
    alice = service.ensure_annotator("alice")
    bob = service.ensure_annotator("bob")
    service.set_grade(bob.id, qid["q1"], did["d1"], 4, note="bob's private note")
    return UiData(db=db, query=qid, doc=did, alice=alice, bob=bob)


@pytest.fixture
def ui_data(tmp_path: Path) -> Iterator[UiData]:
    data = build_ui_database(tmp_path / "ui.sqlite")
    yield data
    data.db.dispose()


@pytest.fixture
def qsettings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def context(qapp: object, ui_data: UiData, qsettings: QSettings) -> Iterator[object]:
    """An AppContext on the test database with alice annotating."""
    from ndcg_studio.ui.context import AppContext

    ctx = AppContext(qsettings)
    ctx.set_database(ui_data.db, ui_data.alice, dispose_previous=False)
    yield ctx
    ctx.undo_stack.clear()


@pytest.fixture
def annotate_view(qtbot: object, context: object) -> object:
    """The Annotate view, shown, with q1 (the first query) loaded."""
    from ndcg_studio.ui.views.annotate.view import AnnotateView

    view = AnnotateView(context)  # type: ignore[arg-type]
    qtbot.addWidget(view)  # type: ignore[attr-defined]
    view.resize(1200, 760)
    view.show()
    qtbot.waitUntil(lambda: view.current_item() is not None, timeout=5000)  # type: ignore[attr-defined]
    view.panel.setFocus()
    return view


@pytest.fixture
def main_window(qtbot: object, context: object) -> object:
    from ndcg_studio.ui.window.main_window import MainWindow

    window = MainWindow(context)  # type: ignore[arg-type]
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.show()
    return window
