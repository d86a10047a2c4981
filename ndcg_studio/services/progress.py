"""The progress and cancel protocol of the use cases: :mod:`ndcg_studio.progress`, re-exported
under the name the services and views import.

A use case takes ``progress(done, total)`` and ``cancelled() -> bool``; it calls
:func:`checkpoint` between steps, which reports progress and raises
:class:`~ndcg_studio.progress.OperationCancelled` when the caller asked to stop (the use case's
transaction then rolls back, so nothing is written).
"""

from __future__ import annotations

from ndcg_studio.progress import Cancelled, OperationCancelled, Progress, checkpoint

__all__ = ["Cancelled", "OperationCancelled", "Progress", "checkpoint"]
