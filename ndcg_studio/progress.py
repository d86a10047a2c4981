"""The one progress and cancel protocol of every long operation (file readers and writers, use
cases, GUI tasks).

A long operation takes ``progress(done, total)`` (:data:`Progress`) and ``cancelled() -> bool``
(:data:`Cancelled`); when ``cancelled()`` becomes True it stops by raising
:class:`OperationCancelled`: a reader has then returned nothing, a writer has removed its
temporary file and left any old file intact, a use case's transaction has rolled back (nothing
written), and a GUI task ends quietly. :func:`checkpoint` does both between steps.

Standard library only and importing nothing from the project, so io, services and ui share it
(``pyproject.toml``'s import-linter contracts keep it at the bottom of the layers).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Cancelled", "OperationCancelled", "Progress", "checkpoint"]

#: ``progress(done, total)``: ``done`` of ``total`` units (each operation names its units).
Progress = Callable[[int, int], None]
#: ``cancelled() -> bool``: polled at the progress points; True makes the operation raise
#: :class:`OperationCancelled`.
Cancelled = Callable[[], bool]


class OperationCancelled(Exception):
    """The user cancelled a long operation (raised when ``cancelled()`` returns True)."""


def checkpoint(
    done: int, total: int, progress: Progress | None, cancelled: Cancelled | None
) -> None:
    """Report ``done`` of ``total`` steps and stop with OperationCancelled if asked to."""
    if cancelled is not None and cancelled():
        raise OperationCancelled("cancelled")
    if progress is not None:
        progress(done, total)
