"""Rank-biased overlap (RBO) of two ranked lists without ties.

SOURCE: W. Webber, A. Moffat, J. Zobel, "A similarity measure for indefinite rankings", ACM
TOIS 28(4), 2010. With ``X_d`` the number of documents the two lists share in their first ``d``
places and persistence ``p`` in (0, 1):

* :func:`rbo_ext`: the extrapolated RBO, eq. 32 (eq. 30 when both lists have the same length),
  for a shorter list ``S`` of length ``s`` and a longer ``L`` of length ``l``::

      RBO_EXT = (1-p)/p * ( sum_{d=1..l} X_d/d p^d + sum_{d=s+1..l} X_s (d-s)/(s d) p^d )
                + ( (X_l - X_s)/l + X_s/s ) p^l

  where, below depth ``s``, ``X_d`` counts the documents of ``S`` (all ``s`` of them) found in
  the first ``d`` of ``L``.
* :func:`rbo_min` and :func:`rbo_residual`: the bounds of section 4.1 (eq. 11 and eq. 13) on
  the RBO of the infinite rankings whose first ``k`` places are seen, for two prefixes of one
  length ``k``: ``RBO_MIN <= RBO <= RBO_MIN + RBO_RES``; with ``f = 2k - X_k``::

      RBO_MIN = (1-p)/p * ( sum_{d=1..k} (X_d - X_k)/d p^d - X_k ln(1-p) )
      RBO_RES = p^f + (1-p)/p * ( sum_{d=k+1..f} 2(d-k)/d p^d
                                  - X_k ( -ln(1-p) - sum_{d=1..f} p^d/d ) )

Every function is symmetric in its two lists and returns a float in [0, 1]: 1 for two equal
non-empty lists, 0 for two disjoint ones (and for one empty list beside a non-empty one; two
empty lists are equal: 1).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["rbo_ext", "rbo_min", "rbo_residual"]


def _check(a: Sequence[Hashable], b: Sequence[Hashable], p: float) -> None:
    if not 0.0 < p < 1.0:
        raise ValueError(f"persistence p must be in (0, 1), got {p}")
    for name, items in (("a", a), ("b", b)):
        if len(set(items)) != len(items):
            raise ValueError(f"list {name} repeats a document; RBO here is for lists without ties")


def _overlaps(short: Sequence[Hashable], long: Sequence[Hashable]) -> NDArray[np.int64]:
    """``X_d`` for d = 1..len(long): (len(long),) int64, the documents of ``short``'s first
    ``min(d, len(short))`` places found in ``long``'s first ``d`` places."""
    seen_s: set[Hashable] = set()
    seen_l: set[Hashable] = set()
    x = np.zeros(len(long), dtype=np.int64)
    shared = 0
    for d, item in enumerate(long):
        if d < len(short):
            s_item = short[d]
            if s_item == item:
                shared += 1
            else:
                shared += (s_item in seen_l) + (item in seen_s)
            seen_s.add(s_item)
        else:
            shared += item in seen_s
        seen_l.add(item)
        x[d] = shared
    return x


def rbo_ext(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9) -> float:
    """The extrapolated RBO of ``a`` and ``b`` (eq. 32; module docstring), in [0, 1].

    Raises:
        ValueError: ``p`` not in (0, 1); a list that repeats a document.
    """
    _check(a, b, p)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    s, l = len(short), len(long)  # noqa: E741 (the paper's names)
    if l == 0:
        return 1.0
    if s == 0:
        return 0.0
    x = _overlaps(short, long).astype(np.float64)
    d = np.arange(1, l + 1, dtype=np.float64)
    weights = p**d
    total = float(np.sum(x / d * weights))
    x_s = x[s - 1]
    if l > s:
        tail = d[s:]
        total += float(np.sum(x_s * (tail - s) / (s * tail) * weights[s:]))
    value = (1 - p) / p * total + ((x[l - 1] - x_s) / l + x_s / s) * p**l
    return float(min(1.0, max(0.0, value)))


def _even(a: Sequence[Hashable], b: Sequence[Hashable], p: float) -> NDArray[np.int64]:
    _check(a, b, p)
    if len(a) != len(b):
        raise ValueError(f"the bounds need two prefixes of one length, got {len(a)} and {len(b)}")
    return _overlaps(a, b)


def rbo_min(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9) -> float:
    """The lower bound RBO_MIN (eq. 11) of two prefixes of one length ``k``, in [0, 1]
    (0 for k = 0).

    Raises:
        ValueError: ``p`` not in (0, 1); a repeated document; prefixes of different lengths.
    """
    x = _even(a, b, p).astype(np.float64)
    k = len(x)
    if k == 0:
        return 0.0
    d = np.arange(1, k + 1, dtype=np.float64)
    x_k = x[-1]
    value = (1 - p) / p * (float(np.sum((x - x_k) / d * p**d)) - x_k * math.log(1 - p))
    return float(min(1.0, max(0.0, value)))


def rbo_residual(a: Sequence[Hashable], b: Sequence[Hashable], p: float = 0.9) -> float:
    """The residual RBO_RES (eq. 13) of two prefixes of one length ``k``: how much the unseen
    places could still add to :func:`rbo_min`, in [0, 1] (1 for k = 0).

    Raises:
        ValueError: ``p`` not in (0, 1); a repeated document; prefixes of different lengths.
    """
    x = _even(a, b, p)
    k = len(x)
    x_k = int(x[-1]) if k else 0
    f = 2 * k - x_k
    d = np.arange(1, f + 1, dtype=np.float64)
    head = float(np.sum(2 * (d[k:] - k) / d[k:] * p ** d[k:]))
    tail = -math.log(1 - p) - float(np.sum(p**d / d))
    value = p**f + (1 - p) / p * (head - x_k * tail)
    return min(1.0, max(0.0, value))
