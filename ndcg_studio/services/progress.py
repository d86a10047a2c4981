"""Progress and cancel callbacks shared by the long-running use cases.

A use case takes ``progress(done, total)`` and ``cancelled() -> bool``; it calls
:func:`checkpoint` between steps, which reports progress and raises
:class:`~ndcg_studio.io.errors.OperationCancelled` when the caller asked to stop (the use case's
transaction then rolls back, so nothing is written).
"""

from __future__ import annotations

from collections.abc import Callable

from ndcg_studio.io.errors import OperationCancelled

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]

__all__ = ["Cancelled", "OperationCancelled", "Progress", "checkpoint"]


def checkpoint(
    done: int, total: int, progress: Progress | None, cancelled: Cancelled | None
) -> None:
    """Report ``done`` of ``total`` steps and stop with OperationCancelled if asked to."""
    if cancelled is not None and cancelled():
        raise OperationCancelled("cancelled")
    if progress is not None:
        progress(done, total)
