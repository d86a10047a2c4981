"""Sort keys of identifier columns, as numpy arrays (no Qt): what the view data below ``ui``
(:mod:`ndcg_studio.services.screens.agreement`, …) and the table models sort by.
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
    unique, inverse = np.unique(text, return_inverse=True)
    numbers = _numbers_after_prefix(unique)
    if numbers is not None:
        # one prefix, then a number (q1 .. q100000): the number orders them; ties (q01, q1)
        # keep np.unique's code point order, as the stable sort below would
        order: Any = np.argsort(numbers, kind="stable")
    else:  # the Python key runs once per distinct id, not per row
        order = sorted(range(unique.size), key=lambda i: text_natural_key(str(unique[i])))
    rank = np.empty(unique.size, dtype=np.int64)
    rank[order] = np.arange(unique.size, dtype=np.int64)
    return rank[inverse.reshape(-1)].reshape(text.shape)


def _numbers_after_prefix(unique: NDArray[np.str_]) -> NDArray[np.int64] | None:
    """The numbers of ids that are all one digit-free prefix followed by a decimal number
    (their natural order is the numbers'); None for any other set of ids."""
    if unique.size == 0:
        return None
    first = str(unique[0])
    digits = "0123456789"
    prefix = first.rstrip(digits)
    if not prefix or prefix == first or any(ch.isdecimal() for ch in prefix):
        return None
    if not bool(np.all(np.strings.startswith(unique, prefix))):
        return None
    rest = np.strings.slice(unique, len(prefix), None)
    if not bool(np.all(np.strings.lstrip(rest, digits) == "")):
        return None
    lengths = np.strings.str_len(rest)
    if int(lengths.min()) < 1 or int(lengths.max()) >= 18:
        return None
    return rest.astype(np.int64)
