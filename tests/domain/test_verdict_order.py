"""The ``ab`` walk as one sort (verdict_order.ab_walk_order) proposes what the chooser's heap
proposes (``ABChooser.walk``, the oracle) — with ties of weight, weights of 0, fractional and
integer grades, queries judged whole — and the walk falls back to the chooser when it says the
order is not a sort."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.pooling.strategies import ABChooser, Pool, build_pool
from ndcg_studio.domain.verdict import order as verdict_order
from ndcg_studio.domain.verdict import settle as verdict_settle
from ndcg_studio.domain.verdict.bounds import VerdictInputs, delta_bounds
from ndcg_studio.domain.verdict.estimates import expected_grades
from ndcg_studio.domain.verdict.order import ab_walk_order


def chooser_order(pool: Pool, grades: np.ndarray, expected: np.ndarray, k: int) -> list[int]:
    chooser = ABChooser(pool, k=k, pairs=[(0, 1)])
    for p in np.flatnonzero(~np.isnan(grades)).tolist():
        chooser.reveal(p, float(grades[p]))
    return chooser.walk(expected.tolist(), pool.size + 1)


def random_pool(rng: np.random.Generator, n_queries: int, length: int, overlap: bool) -> Pool:
    """Two runs; with ``overlap`` they share documents at the same ranks (weight 0, and many
    equal weights)."""
    run, query, doc, rank = [], [], [], []
    for q in range(n_queries):
        a = rng.choice(3 * length, size=length, replace=False)
        b = a.copy() if overlap and rng.random() < 0.5 else rng.permutation(a)
        if not overlap:
            b = rng.choice(3 * length, size=length, replace=False)
        for r, docs in ((0, a), (1, b)):
            run += [r] * length
            query += [q] * length
            doc += docs.tolist()
            rank += list(range(1, length + 1))
    arrays = (np.array(x, dtype=np.int64) for x in (run, query, doc, rank))
    return build_pool(*arrays, n_runs=2, n_queries=n_queries, depth=length)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_queries=st.integers(1, 15),
    length=st.integers(1, 9),
    k=st.integers(1, 12),
    judged=st.floats(0.0, 1.0),
    fractional=st.booleans(),
    overlap=st.booleans(),
)
def test_the_sort_proposes_what_the_chooser_proposes(
    seed: int,
    n_queries: int,
    length: int,
    k: int,
    judged: float,
    fractional: bool,
    overlap: bool,
) -> None:
    rng = np.random.default_rng(seed)
    pool = random_pool(rng, n_queries, length, overlap)
    grades = rng.integers(0, 5, pool.size).astype(float)
    if fractional:
        grades = np.round(grades + rng.choice([0.0, 1 / 3, -1 / 3], pool.size), 12).clip(0, 4)
    grades[rng.random(pool.size) >= judged] = np.nan
    complete = rng.random(n_queries) < 0.2
    expected = expected_grades(pool, grades, complete=complete)
    got = ab_walk_order(pool, grades, expected, k)
    assert got is not None
    assert got.tolist() == chooser_order(pool, grades, expected, k)


def test_nothing_to_walk_when_everything_is_judged() -> None:
    pool = random_pool(np.random.default_rng(1), 4, 5, False)
    grades = np.ones(pool.size)
    got = ab_walk_order(pool, grades, grades, 5)
    assert got is not None and got.size == 0


def test_the_walk_falls_back_to_the_chooser(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the order is not a sort (ab_walk_order gives None) the chooser walks: same count."""
    rng = np.random.default_rng(6)
    pool = random_pool(rng, 40, 8, False)
    grades = rng.integers(0, 5, pool.size).astype(float)
    grades[rng.random(pool.size) >= 0.3] = np.nan
    inputs = VerdictInputs(pool, grades, 5, max_grade=4.0, integer_grades=False)
    b = delta_bounds(inputs)
    args = (inputs, expected_grades(pool, grades), b)
    want = verdict_settle.settle_steps(*args)
    assert want is not None and want > 100
    monkeypatch.setattr(verdict_settle, "ab_walk_order", lambda *a, **kw: None)
    monkeypatch.setattr(verdict_settle, "_FIRST_BLOCK", 4)
    got = verdict_settle.settle_steps(*args)
    assert got == want


@pytest.mark.parametrize("rows", [1, 3, 7])
def test_the_scales_in_blocks_of_queries_give_the_same_order(
    monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    """The scales are computed a block of queries at a time (peak memory): any block size
    gives the chooser's order (blocks of 1 and 3 split every column of 40 queries)."""
    rng = np.random.default_rng(11)
    pool = random_pool(rng, 40, 8, True)
    grades = rng.integers(0, 5, pool.size).astype(float)
    grades[rng.random(pool.size) >= 0.3] = np.nan
    expected = expected_grades(pool, grades)
    monkeypatch.setattr(verdict_order, "_ROWS", rows)
    got = ab_walk_order(pool, grades, expected, 5)
    assert got is not None and len(got) > 100
    assert got.tolist() == chooser_order(pool, grades, expected, 5)
