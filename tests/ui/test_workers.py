"""Worker jobs outliving their window."""

from __future__ import annotations

import threading


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
