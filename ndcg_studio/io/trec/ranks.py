"""The rank column of a TREC run: kept where it can order the run, never refused.

trec_eval ignores the rank field (``get_trec_results.c``: "the rank field is ignored here") and
orders by score; the app keeps a rank that is an integer fitting 32 bits (PostgreSQL's
``integer``) for ``--order rank`` and says why when the column cannot order the run (see
:attr:`ndcg_studio.io.trec.readers.RunFile.rank_problem`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.reading.columns import (
    ASCII_INTEGER,
    hashed_duplicate_pairs,
    in_int64,
    mix_hash,
    plain_ascii,
    string_hashes,
)

__all__ = ["duplicate_rank_problem", "rank_column"]

#: The most negative and one past the largest rank kept (32-bit, PostgreSQL's ``integer``).
_RANK_LOW, _RANK_HIGH = -(2**31), 2**31


def rank_column(
    text: list[str], line: NDArray[np.int64], query_id: list[str], plain: bool
) -> tuple[NDArray[np.int64], NDArray[np.bool_], str | None]:
    """The rank column: ``(rank, usable, problem)``, see
    :class:`~ndcg_studio.io.trec.readers.RunFile`.

    ``problem`` is ``LINE: rank: ...`` (the caller puts the file name first), or None.
    ``plain``: the file is known to hold only ASCII and no ``_`` (else checked here)."""
    n = len(text)
    usable = np.ones(n, dtype=bool)
    rank: NDArray[np.int64] | None = None
    if plain or plain_ascii(text):
        try:
            rank = in_int64(text)
        except (ValueError, OverflowError, TypeError):
            rank = None
    if rank is None:  # some rank is not a plain integer (or is out of 64 bits): value by value
        rank = np.zeros(n, dtype=np.int64)
        for i, value in enumerate(text):
            if ASCII_INTEGER.fullmatch(value) and _RANK_LOW <= int(value) < _RANK_HIGH:
                rank[i] = int(value)
            else:
                usable[i] = False
    usable &= (rank >= _RANK_LOW) & (rank < _RANK_HIGH)
    rank[~usable] = 0
    first_bad = int(np.argmin(usable)) if not usable.all() else -1
    problem = None
    if first_bad >= 0:
        problem = (
            f"{line[first_bad]}: rank: {text[first_bad]!r} is not an integer in "
            f"[{_RANK_LOW}, {_RANK_HIGH - 1}], so the rank column cannot order the run "
            "(trec_eval ignores it; score by score, the default)"
        )
    else:
        ranks = rank
        for row, first in hashed_duplicate_pairs(
            mix_hash(string_hashes(query_id), rank), lambda i: (query_id[i], int(ranks[i]))
        ):
            problem = duplicate_rank_problem(
                int(line[row]), int(rank[row]), query_id[row], int(line[first])
            )
            break
    return rank, usable, problem


def duplicate_rank_problem(line: int, rank: int, query: str, first: int) -> str:
    """``LINE: rank: ...`` for a rank repeated within a query (the caller puts the file name
    first; see :attr:`~ndcg_studio.io.trec.readers.RunFile.rank_problem`)."""
    return (
        f"{line}: rank: rank {rank} appears twice for query {query!r} (duplicate of line "
        f"{first}), so the rank column cannot order the run (trec_eval ignores it; score by "
        "score, the default)"
    )
