"""Progress and Cancel for the readers: :class:`Ticker` and the size of its steps.

Private to :mod:`ndcg_studio.io`. The readers' progress is in lines (``progress(lines read,
lines in the file)``); the protocol (Progress, Cancelled, OperationCancelled) is the one of
:mod:`ndcg_studio.progress`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from ndcg_studio.progress import Cancelled, OperationCancelled, Progress

#: Smallest number of lines between two progress calls (keeps the per-call overhead negligible).
MIN_CHUNK_LINES = 10_000
#: A reader reports progress at most about this many times per file.
PROGRESS_CALLS = 100


class Ticker:
    """Calls ``progress(done, total)`` and polls ``cancelled()`` at chosen points."""

    def __init__(
        self,
        progress: Progress | None,
        cancelled: Cancelled | None,
        total: int = 0,
    ) -> None:
        self.progress = progress
        self.cancelled = cancelled
        self.total = total

    def check(self) -> None:
        """Raise :class:`OperationCancelled` when the caller asked to stop."""
        if self.cancelled is not None and self.cancelled():
            raise OperationCancelled("import cancelled")

    def tick(self, done: int) -> None:
        """Check for cancellation, then report ``done`` of ``total``."""
        self.check()
        if self.progress is not None:
            self.progress(done, self.total)

    def chunk_size(self) -> int:
        """Lines per step so that a file gives at most ~:data:`PROGRESS_CALLS` calls."""
        return max(MIN_CHUNK_LINES, math.ceil(self.total / PROGRESS_CALLS))

    def lines(self, lines: Sequence[str]) -> Iterator[tuple[int, str]]:
        """``enumerate(lines)``, with progress and Cancel over them.

        Sets :attr:`total` to ``len(lines)``; reports ``0`` (polling Cancel) before the first
        line, ``index`` before every :meth:`chunk_size`-th line, and ``total`` once the last
        line has been consumed, so a caller that reads to the end sees progress reach the total.

        Raises:
            OperationCancelled: ``cancelled()`` returned True at one of those points (nothing
                further is yielded).
        """
        self.total = len(lines)
        step = self.chunk_size()
        self.tick(0)
        for index, raw in enumerate(lines):
            if index and index % step == 0:
                self.tick(index)
            yield index, raw
        self.tick(self.total)
