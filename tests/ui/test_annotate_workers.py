"""The background-task helper the views use for database work, and the error reporting."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton, QWidget

from ndcg_studio.progress import OperationCancelled
from ndcg_studio.ui import errors, workers
from ndcg_studio.ui.workers import run_task


def test_the_result_arrives_on_the_gui_thread(qtbot: Any) -> None:
    seen: list[tuple[int, bool]] = []
    progress: list[tuple[int, int]] = []

    def work(report: Any, _cancelled: Any) -> int:
        report(1, 2)
        report(2, 2)
        return 42

    task = run_task(
        work,
        on_success=lambda r: seen.append(
            (r, threading.current_thread() is threading.main_thread())
        ),
        on_progress=lambda d, t: progress.append((d, t)),
    )
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    assert seen == [(42, True)]
    assert progress[-1] == (2, 2)
    assert workers.running_tasks() == 0


def test_an_exception_is_delivered_as_failure_never_only_printed(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    failures: list[BaseException] = []
    task = run_task(lambda _p, _c: 1 / 0, on_failure=failures.append)
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    assert len(failures) == 1 and isinstance(failures[0], ZeroDivisionError)

    shown: list[tuple[BaseException, str | None]] = []
    monkeypatch.setattr(
        errors, "show_error", lambda exc, parent=None, action=None: shown.append((exc, action))
    )
    task = run_task(lambda _p, _c: {}["missing"], label="Loading")
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    assert [(type(e), a) for e, a in shown] == [(KeyError, "Loading")]


def test_cancel_drops_the_result_and_a_new_task_replaces_the_old(qtbot: Any) -> None:
    results: list[str] = []
    release = threading.Event()

    def slow(_p: Any, cancelled: Any) -> str:
        release.wait(5)
        return "old"

    old = run_task(slow, on_success=results.append)
    new = run_task(lambda _p, _c: "new", on_success=results.append, replaces=old)
    assert old.is_cancelled()
    release.set()
    qtbot.waitUntil(lambda: old.done and new.done, timeout=5000)
    assert results == ["new"]


def test_a_function_may_stop_by_raising(qtbot: Any) -> None:
    outcomes: list[object] = []

    def work(_p: Any, _c: Any) -> None:
        raise OperationCancelled("stop")

    task = run_task(work, on_success=outcomes.append, on_failure=outcomes.append)
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    assert outcomes == []


def test_a_long_task_shows_a_progress_dialog_whose_cancel_stops_it(qtbot: Any) -> None:
    owner = QWidget()
    qtbot.addWidget(owner)
    owner.show()
    results: list[object] = []

    def long_work(report: Any, cancelled: Any) -> str:
        for i in range(500):  # at most 5 s
            if cancelled():
                raise OperationCancelled
            report(i, 500)
            time.sleep(0.01)
        return "finished"

    task = run_task(long_work, on_success=results.append, owner=owner, label="Importing…")

    def dialog() -> QProgressDialog | None:
        found = [w for w in QApplication.topLevelWidgets() if isinstance(w, QProgressDialog)]
        return next((d for d in found if d.isVisible()), None)

    qtbot.waitUntil(lambda: dialog() is not None, timeout=4000)
    box = dialog()
    assert box is not None and box.labelText() == "Importing…"
    cancel_button = box.findChild(QPushButton)
    assert cancel_button is not None and cancel_button.text() == "Cancel"
    cancel_button.click()
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    assert results == []
    assert task.is_cancelled()


def test_callbacks_are_skipped_when_the_owner_is_gone(qtbot: Any) -> None:
    owner = QWidget()
    results: list[int] = []
    release = threading.Event()
    task = run_task(lambda _p, _c: release.wait(5) and 1, on_success=results.append, owner=owner)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not _alive(owner), timeout=2000)
    release.set()
    qtbot.waitUntil(lambda: task.done, timeout=5000)
    assert results == []


def _alive(widget: QWidget) -> bool:
    import shiboken6

    return shiboken6.isValid(widget)


def test_describe_gives_specific_advice_for_database_trouble() -> None:
    from sqlalchemy.exc import OperationalError

    from ndcg_studio.storage.database import DatabaseVersionError
    from ndcg_studio.storage.resilience import ConnectionLost, WriteRefused

    locked = OperationalError("UPDATE judgments", {}, Exception("database is locked"))
    assert errors.describe(locked).title == "The database is busy"
    lost = errors.describe(ConnectionLost("db.example.org/relevance", "your last grade"))
    assert lost.title == "Lost the connection to the database server"
    assert "NOT saved" in lost.what
    newer = errors.describe(DatabaseVersionError("written by a newer version"))
    assert "newer version" in newer.todo
    refused = errors.describe(WriteRefused("refused the change: login alice may change only …"))
    assert refused.title == "Not allowed for your login" and "owner" in refused.todo
    other = errors.describe(RuntimeError("boom"), action="Saving the grade")
    assert other.title == "Unexpected error" and "while saving the grade" in other.what
    assert str(errors.log_file()) in other.todo


def test_a_grade_on_a_read_only_file_is_told_in_plain_words(tmp_path: Any) -> None:
    """The error a grade meets on a database SQLite opened read-only (as on a read-only
    mount, where even root cannot write): plain words naming the file, no SQL, not
    "unexpected"."""
    import sqlalchemy

    from ndcg_studio.storage.database import open_database

    path = tmp_path / "studio.sqlite"
    open_database(path).dispose()
    engine = sqlalchemy.create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    with pytest.raises(sqlalchemy.exc.OperationalError) as caught, engine.begin() as conn:
        conn.execute(sqlalchemy.text("INSERT INTO annotators (name) VALUES ('ann')"))
    engine.dispose()
    report = errors.describe(caught.value, "Saving the grade", str(path))
    assert "nexpected" not in report.title + report.what + report.todo, report
    assert "INSERT" not in report.what and "read-only" in report.what, report
    assert str(path) in report.what, report


def test_a_task_that_finishes_while_its_dialog_takes_a_step_is_left_alone(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window-modal progress dialog runs the event loop inside ``setValue``: the task may be
    delivered there (its dialog let go). The progress step then stops without touching the
    dialog again or reporting progress after the result."""
    owner = QWidget()
    qtbot.addWidget(owner)
    owner.show()
    release = threading.Event()
    progress: list[tuple[int, int]] = []
    task = run_task(
        lambda report, _c: release.wait(5),
        on_progress=lambda d, t: progress.append((d, t)),
        owner=owner,
        label="Loading",
    )
    qtbot.waitUntil(lambda: task._dialog is not None, timeout=4000)

    def step_and_finish(dialog: QProgressDialog, value: int) -> None:
        task._finish()  # as the nested event loop would deliver it

    monkeypatch.setattr(QProgressDialog, "setValue", step_and_finish)
    task._on_progress_signal(1, 2)  # raised AttributeError on the dialog let go
    assert progress == []
    release.set()
