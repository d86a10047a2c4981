"""Giving freed memory back to the system between the stages of a large computation.

glibc keeps what a thread's ``free`` returned in that thread's malloc arena (only the top of a
heap is given back, and arrays under the mmap threshold, which rises up to 32 MiB as large
arrays are freed, come from the heap): the next stage's peak then stacks on the last stage's
temporaries. ``malloc_trim(0)`` returns every arena's free pages (``bench_gui_scale.py``
Review and Stability, peak RSS). Elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache

__all__ = ["return_freed_memory"]


@cache
def _trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # the interpreter's C library
    except (OSError, AttributeError):  # not glibc
        return None
    return trim


def return_freed_memory() -> None:
    """Return the free memory of every malloc arena to the system (glibc's ``malloc_trim``;
    nothing elsewhere). Costs a few milliseconds, and page faults when the memory is used
    again: call it between stages, not in loops."""
    trim = _trim()
    if trim is not None:
        trim(0)
