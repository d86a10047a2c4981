"""Worker jobs outliving their window, tasks outliving their callers."""

from __future__ import annotations

import threading
import weakref
from typing import Any

from ndcg_studio.ui import workers


def test_a_job_whose_signals_were_deleted_finishes_quietly() -> None:
    """The window (and with it the task's signals) closed while the job ran: the job's
    emissions find nobody and are dropped, instead of raising in the worker thread."""
    import shiboken6

    from ndcg_studio.ui.workers import TaskSignals, _Job

    signals = TaskSignals()
    job = _Job(lambda progress, cancelled: 42, signals, threading.Event())
    shiboken6.delete(signals)
    job()  # raised RuntimeError("Signal source has been deleted") before
    assert job.result == 42


def test_a_task_nobody_keeps_is_released_once_delivered_and_let_go(qtbot: Any) -> None:
    """A task the caller dropped lives until its outcome is delivered, its worker has let go of
    its signals and its slot has returned; then it is released (no task is kept for ever)."""
    results: list[int] = []
    ref = weakref.ref(workers.run_task(lambda _p, _c: 1, on_success=results.append))
    qtbot.waitUntil(lambda: results == [1], timeout=5000)
    qtbot.waitUntil(lambda: ref() is None, timeout=5000)
    assert workers.running_tasks() == 0 and not workers._delivered


def test_a_task_is_not_released_inside_its_own_slot(qtbot: Any) -> None:
    """An event loop nested in the success callback (a modal dialog's) does not release the
    task whose slot is running: dropping its last reference there deleted its QObjects under
    PySide's slot call (the segfault of test_stress_workers)."""
    seen: list[bool] = []

    def nested_loop(_result: int) -> None:
        qtbot.wait(50)  # _release_delivered runs meanwhile
        seen.append(ref() is not None and ref() in workers._delivered)

    ref = weakref.ref(workers.run_task(lambda _p, _c: 1, on_success=nested_loop))
    qtbot.waitUntil(lambda: seen == [True], timeout=5000)
    qtbot.waitUntil(lambda: ref() is None, timeout=5000)


def test_time_left_is_said_once_the_rate_means_something(qapp: Any) -> None:
    from ndcg_studio.ui.workers import time_left

    assert time_left(1.0, 50, 100) == ""  # under 2 s: the first steps' rate misleads
    assert time_left(10.0, 0, 100) == ""
    assert time_left(10.0, 100, 100) == ""  # done
    assert time_left(10.0, 50, 100) == "About 10 s left"
    assert time_left(60.0, 25, 100) == "About 3 min left"
    assert time_left(3600.0, 10, 100) == "About 9.0 h left"
