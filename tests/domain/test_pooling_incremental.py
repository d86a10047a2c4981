"""The judging order kept between requests (domain/pooling_incremental.py) equals the chooser
replayed from its start (services.campaign_order.first_offered, itself tested against
domain.pooling.judging_order) after any sequence of grade changes, blocks and put-offs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.pooling.incremental import (
    BLOCKED,
    LATER,
    OPEN,
    SKIP,
    IncrementalOrder,
)
from ndcg_studio.domain.pooling.strategies import Pool, judging_order, make_chooser
from ndcg_studio.services.campaigns.order import first_offered


@st.composite
def pools(draw: st.DrawFn) -> Pool:
    n_queries = draw(st.integers(1, 4))
    n_runs = draw(st.integers(2, 3))
    sizes = [draw(st.integers(1, 6)) for _ in range(n_queries)]
    query = np.repeat(np.arange(n_queries), sizes).astype(np.int64)
    rank = np.zeros((n_runs, int(query.size)), dtype=np.int64)
    lo = 0
    for size in sizes:
        for r in range(n_runs):
            places = draw(st.permutations(list(range(1, size + 3))))[:size]
            returned = draw(st.lists(st.booleans(), min_size=size, max_size=size))
            rank[r, lo : lo + size] = [
                p if keep else 0 for p, keep in zip(places, returned, strict=True)
            ]
        lo += size
    doc = np.concatenate([np.arange(s) for s in sizes]).astype(np.int64)
    return Pool(query, doc, rank, draw(st.integers(1, 5)), n_queries)


def _grade_map(pool: Pool, grades: dict[int, float]) -> dict[tuple[int, int], float]:
    return {(int(pool.query[p]), int(pool.doc[p])): g for p, g in grades.items()}


@settings(max_examples=150, deadline=None)
@given(
    strategy=st.sampled_from(["mtf", "bandit", "ab"]),
    pool=pools(),
    seed=st.integers(0, 3),
    data=st.data(),
)
def test_incremental_walks_equal_a_fresh_chooser(
    strategy: str, pool: Pool, seed: int, data: st.DataObject
) -> None:
    order = IncrementalOrder(pool, strategy, k=3, seed=seed, pairs=None)  # type: ignore[arg-type]
    items = (pool.query, pool.doc)
    keys = list(zip(pool.query.tolist(), pool.doc.tolist(), strict=True))
    grades: dict[int, float] = {}
    index = st.integers(0, pool.size - 1)
    for _ in range(data.draw(st.integers(1, 12))):
        for p in data.draw(st.lists(index, max_size=3)):  # grades arrive, change or go
            g = data.draw(st.sampled_from([None, 0.0, 1.0, 2.5, 4.0]))
            grades.pop(p, None) if g is None else grades.__setitem__(p, g)
            order.update(p, grades.get(p, 0.0))
        blocked = set(data.draw(st.lists(index, max_size=pool.size)))
        later = set(data.draw(st.lists(index, max_size=3))) - blocked
        need = data.draw(st.integers(1, 4))

        def status(p: int, blocked: set[int] = blocked, later: set[int] = later) -> int:
            return BLOCKED if p in blocked else LATER if p in later else OPEN

        got, low = order.walk(need, status, lambda p: grades.get(p, 0.0))
        want = first_offered(
            pool,
            strategy,  # type: ignore[arg-type]
            _grade_map(pool, grades),
            items,
            ({keys[p] for p in blocked}, {keys[p] for p in later}),
            need,
            seed=seed,
            k=3,
            pairs=None,
        )
        assert [keys[p] for p in got] == want
        assert low == 0  # nothing was SKIP


@pytest.mark.parametrize("strategy", ["mtf", "bandit", "ab"])
def test_a_walk_past_everything_is_the_judging_order_and_skips_move_the_start(
    strategy: str,
) -> None:
    rng = np.random.default_rng(7)
    query = np.repeat(np.arange(5), 6).astype(np.int64)
    rank = np.stack([np.tile(rng.permutation(6) + 1, 5) for _ in range(3)])
    pool = Pool(query, np.tile(np.arange(6), 5).astype(np.int64), rank, 4, 5)
    grade = rng.integers(0, 5, pool.size).astype(float)
    chooser = make_chooser(strategy, pool, k=3, seed=2)  # type: ignore[arg-type]
    want = judging_order(chooser, lambda p: float(grade[p])).tolist()
    order = IncrementalOrder(pool, strategy, k=3, seed=2)  # type: ignore[arg-type]
    got, low = order.walk(pool.size, lambda p: OPEN, lambda p: float(grade[p]))
    assert got == want and low == 0
    assert order.steps == want[:-1]  # the last one offered is proposed, not revealed
    # the first 4 are passed over for good: the next walk may start after them
    first4 = set(want[:4])
    _got, low = order.walk(1, lambda p: SKIP if p in first4 else OPEN, lambda p: 0.0)
    assert low == 4
    got, low = order.walk(2, lambda p: SKIP if p in first4 else OPEN, lambda p: 0.0, start=4)
    assert got == want[4:6] and low == 4
    # a revealed grade that changes rewinds to its step; the rest replays
    assert order.update(want[2], float(grade[want[2]]) + 1) == 2
    assert len(order.steps) == 2
    assert order.update(want[0], float(grade[want[0]])) is None  # same grade: nothing to do
