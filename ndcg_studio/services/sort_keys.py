"""Sort keys of identifier columns, as numpy arrays (no Qt): what the view data below ``ui``
(:mod:`ndcg_studio.services.agreement_rows`, …) and the table models sort by.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.vocabulary import natural_key as text_natural_key

__all__ = ["dense_ranks", "natural_key"]


def dense_ranks(key: NDArray[Any]) -> NDArray[np.int64]:
    """(n,) int64 rank of each value among the distinct values (equal values, equal ranks):
    one stable argsort, so strings cost a single sort."""
    if key.size == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    steps = np.concatenate([[0], np.cumsum(ordered[1:] != ordered[:-1])]).astype(np.int64)
    ranks = np.empty(key.shape[0], dtype=np.int64)
    ranks[order] = steps
    return ranks


def natural_key(ids: NDArray[Any]) -> NDArray[Any]:
    """A sort key for identifiers, in the natural order (q1, q2, q10) of
    :func:`ndcg_studio.vocabulary.natural_key`: the integers themselves when every id is a
    decimal number, else each id's ``int64`` rank in natural order (equal ids share a rank)."""
    text = ids.astype(str)
    if (
        text.size
        and bool(np.all(np.char.isdecimal(text)))
        and int(np.char.str_len(text).max()) < 18
    ):
        return text.astype(np.int64)
    # the Python key runs once per distinct id, not per row
    unique, inverse = np.unique(text, return_inverse=True)
    order = sorted(range(unique.size), key=lambda i: text_natural_key(str(unique[i])))
    rank = np.empty(unique.size, dtype=np.int64)
    rank[order] = np.arange(unique.size, dtype=np.int64)
    return rank[inverse.reshape(-1)].reshape(text.shape)
