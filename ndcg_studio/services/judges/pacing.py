"""A bound on the request rate shared by a job's workers: at most ``rate`` requests start per
second, evenly spaced (the next start is one interval after the previous one, whichever worker
asks)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["Pacer"]


class Pacer:
    """Space request starts ``1 / rate`` seconds apart across threads.

    Args:
        rate: requests per second (> 0), or None for no bound.
        clock, sleep: injectable for tests (defaults: ``time.monotonic``, ``time.sleep``).

    Raises:
        ValueError: a rate <= 0.
    """

    def __init__(
        self,
        rate: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if rate is not None and not rate > 0:
            raise ValueError(f"rate must be > 0 requests per second, got {rate}")
        self.interval = 0.0 if rate is None else 1.0 / rate
        self._clock, self._sleep = clock, sleep
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        """Block until this caller may start a request."""
        if self.interval == 0.0:
            return
        with self._lock:
            now = self._clock()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            self._sleep(start - now)
