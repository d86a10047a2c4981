"""Annotate's "Next unjudged" as pure functions (services.next_unjudged), without Qt: the rule
against a brute-force restatement of it (hypothesis) and the cases a person meets."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.services.annotation.next_unjudged import (
    first_unfinished_query,
    next_in_pool,
    next_unfinished_query,
)
from ndcg_studio.services.annotation.types import QueryProgress


def test_next_in_pool_goes_forward_and_wraps() -> None:
    judged = [True, False, True, False]
    assert next_in_pool(judged, 0) == 1
    assert next_in_pool(judged, 1) == 3
    assert next_in_pool(judged, 3) == 1  # wraps past the end
    assert next_in_pool(judged, -1) == 1  # nothing shown: from the top
    assert next_in_pool([True, False], 1) == 1  # only the shown one is left: itself, last
    assert next_in_pool([True, True], 0) is None
    assert next_in_pool([], -1) is None


@given(st.lists(st.booleans(), max_size=12), st.integers(-1, 11))
def test_next_in_pool_is_the_first_unjudged_in_circular_order(
    judged: list[bool], position: int
) -> None:
    position = min(position, len(judged) - 1)
    n = len(judged)
    circle = [(position + s) % n for s in range(1, n + 1)] if n else []
    expected = next((r for r in circle if not judged[r]), None)
    assert next_in_pool(judged, position) == expected


def _queries(*spec: tuple[int, int]) -> list[QueryProgress]:
    """(pool_size, judged) per listed row; ids 10, 11, …"""
    return [QueryProgress(10 + i, f"q{i}", "", size, done) for i, (size, done) in enumerate(spec)]


def test_next_unfinished_query_skips_empty_and_complete_pools_and_wraps() -> None:
    listed = _queries((3, 3), (0, 0), (2, 1), (4, 0))
    get = listed.__getitem__
    assert next_unfinished_query(4, get, 0, 10) == 12  # complete and empty skipped
    assert next_unfinished_query(4, get, 2, 12) == 13
    assert next_unfinished_query(4, get, 3, 13) == 12  # wraps
    assert next_unfinished_query(4, get, -1, None) == 12  # open query filtered out
    assert next_unfinished_query(2, get, 0, 10) is None  # only complete or empty pools
    assert next_unfinished_query(0, get, -1, None) is None


@dataclass(frozen=True)
class Row:
    query_id: int
    pool_size: int
    judged: int

    @property
    def complete(self) -> bool:
        return self.pool_size > 0 and self.judged >= self.pool_size


@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=10),
    st.integers(-1, 9),
)
def test_next_unfinished_query_reads_rows_only_up_to_the_answer(
    spec: list[tuple[int, int]], current: int
) -> None:
    rows = [Row(i, size, min(done, size)) for i, (size, done) in enumerate(spec)]
    current = min(current, len(rows) - 1)
    current_id = rows[current].query_id if current >= 0 else None
    read: list[int] = []

    def listed(row: int) -> Row:
        read.append(row)
        return rows[row]

    found = next_unfinished_query(len(rows), listed, current, current_id)
    n = len(rows)
    circle = [(current + s) % n for s in range(1, n + 1)] if n else []
    todo = [r for r in circle if rows[r].pool_size and not rows[r].complete and r != current]
    assert found == (rows[todo[0]].query_id if todo else None)
    if todo:
        assert read == circle[: circle.index(todo[0]) + 1]


def test_first_unfinished_query() -> None:
    listed = _queries((2, 2), (0, 0), (3, 1))
    assert first_unfinished_query(3, listed.__getitem__) == 12
    assert first_unfinished_query(2, listed.__getitem__) == 10  # none unfinished: the first
    assert first_unfinished_query(0, listed.__getitem__) is None
