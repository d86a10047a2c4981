"""The one progress/cancel protocol: io, services and ui share its types and its exception."""

from __future__ import annotations

import pytest

from ndcg_studio import progress


def test_checkpoint_reports_then_stops_when_cancelled() -> None:
    seen: list[tuple[int, int]] = []
    progress.checkpoint(1, 3, lambda d, t: seen.append((d, t)), lambda: False)
    progress.checkpoint(2, 3, None, None)
    assert seen == [(1, 3)]
    with pytest.raises(progress.OperationCancelled):
        progress.checkpoint(3, 3, lambda d, t: seen.append((d, t)), lambda: True)
    assert seen == [(1, 3)]  # a cancelled step reports nothing


def test_every_layer_uses_the_same_protocol() -> None:
    from ndcg_studio.io import errors
    from ndcg_studio.io.reading import ticker

    # one exception type (progress.OperationCancelled): the former reader/writer subclasses are gone
    assert not hasattr(errors, "ImportCancelled") and not hasattr(errors, "ExportCancelled")
    assert ticker.Progress is progress.Progress and ticker.Cancelled is progress.Cancelled


def test_the_gui_worker_has_no_exception_of_its_own() -> None:
    pytest.importorskip("PySide6")
    from ndcg_studio.ui import workers

    # ``Cancelled`` is the callable type of the protocol, no longer an exception of the worker
    assert workers.Cancelled is progress.Cancelled
    assert not isinstance(workers.Cancelled, type)
    assert workers.OperationCancelled is progress.OperationCancelled
