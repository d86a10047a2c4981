"""Where Annotate's "Next unjudged" (``U``) goes, as pure functions (no Qt, no database).

First the next document of the open pool that has no grade, after the shown one and wrapping
round; else the next query of the list (in the order the list shows it, filtered and sorted)
whose pool has documents and is not complete, wrapping round. The list is read through a
function of its row, so a long list is read only as far as the next unfinished query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class Listed(Protocol):
    """What is needed of a listed query: a
    :class:`~ndcg_studio.services.annotation.service.QueryProgress` has it."""

    @property
    def query_id(self) -> int: ...

    @property
    def pool_size(self) -> int: ...

    @property
    def complete(self) -> bool: ...


def next_in_pool(judged: Sequence[bool], position: int) -> int | None:
    """The row of the next unjudged document after ``position``, wrapping round (the shown
    document itself comes last); None when every document is judged or the pool is empty.

    Args:
        judged: (n,) whether each pooled document has the annotator's grade, pool order.
        position: the shown row, -1 when none is shown (then the search starts at row 0).
    """
    n = len(judged)
    for step in range(1, n + 1):
        row = (position + step) % n
        if not judged[row]:
            return row
    return None


def _unfinished(query: Listed) -> bool:
    return query.pool_size > 0 and not query.complete


def next_unfinished_query(
    count: int, listed: Callable[[int], Listed], current_row: int, current_query: int | None
) -> int | None:
    """The id of the next listed query after ``current_row`` (wrapping round) whose pool has
    documents and is not complete, other than ``current_query``; None when there is none.

    Args:
        count: how many queries the list shows.
        listed: the query shown at a row, ``0 <= row < count``.
        current_row: the row of the open query, -1 when it is not listed (filtered out).
        current_query: the id of the open query (None: no query is open).
    """
    for step in range(1, count + 1):
        query = listed((current_row + step) % count)
        if _unfinished(query) and query.query_id != current_query:
            return query.query_id
    return None


def first_unfinished_query(count: int, listed: Callable[[int], Listed]) -> int | None:
    """The id of the first listed query whose pool has documents and is not complete, else of
    the first listed query; None for an empty list."""
    for row in range(count):
        if _unfinished(query := listed(row)):
            return query.query_id
    return listed(0).query_id if count else None
