"""The walk in blocks (verdict_settle.settle_steps) gives the count of the plain loop it
replaced, kept here as the oracle: propose, give the expected grade, re-bound that query,
test the sums — on random pools, integer and fractional grades, blocks of every size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.pooling.strategies import ABChooser, Pool, build_pool
from ndcg_studio.domain.verdict import settle as verdict_settle
from ndcg_studio.domain.verdict.bounds import (
    VerdictInputs,
    delta_bounds,
    excludes_zero,
    query_delta_bounds,
    query_starts,
)
from ndcg_studio.domain.verdict.estimates import expected_grades


def plain_loop(
    pool: Pool, grades: np.ndarray, k: int, max_grade: float, integer: bool
) -> int | None:
    """judgments_to_settle as it was: one proposal, one re-bound, one test of the sums."""
    g = grades.copy()
    evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    queries = np.flatnonzero(evaluated)
    low, high = np.zeros(pool.n_queries), np.zeros(pool.n_queries)
    starts = query_starts(pool)

    def bounds(q: int) -> None:
        low[q], high[q] = query_delta_bounds(
            VerdictInputs(pool, g, k, max_grade=max_grade, integer_grades=integer), q, starts=starts
        )

    for q in queries.tolist():
        bounds(q)
    n = len(queries)

    def decided() -> bool:
        return excludes_zero(low[queries].sum() / n, high[queries].sum() / n)

    if decided():
        return 0
    expected = expected_grades(pool, g)
    chooser = ABChooser(pool, k=k, pairs=[(0, 1)])
    for judged in np.flatnonzero(~np.isnan(g)).tolist():
        chooser.reveal(judged, float(g[judged]))
    used = 0
    while (p := chooser.next()) is not None:
        g[p] = expected[p]
        chooser.reveal(p, float(expected[p]))
        used += 1
        bounds(int(pool.query[p]))
        if decided():
            return used
    return None


def _pool(rng: np.random.Generator, n_queries: int, length: int, depth: int) -> Pool:
    run, query, doc, rank = [], [], [], []
    for r in range(2):
        for q in range(n_queries):
            picked = rng.choice(2 * length, size=length, replace=False)
            run += [r] * length
            query += [q] * length
            doc += picked.tolist()
            rank += list(range(1, length + 1))
    arrays = (np.array(a, dtype=np.int64) for a in (run, query, doc, rank))
    return build_pool(*arrays, n_runs=2, n_queries=n_queries, depth=depth)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_queries=st.integers(1, 12),
    length=st.integers(1, 6),
    k=st.integers(1, 5),
    judged=st.floats(0.0, 0.9),
    integer=st.booleans(),
    block=st.sampled_from([1, 2, 3, 7, 256]),
)
# every document at grade 10/3: Delta is 0, but w * gain summed over the documents of the
# one query rounds to 3e-17, which once "decided" the verdict
@example(seed=3, n_queries=1, length=4, k=3, judged=0.5, integer=False, block=1)
def test_blocks_count_as_the_plain_loop(
    seed: int,
    n_queries: int,
    length: int,
    k: int,
    judged: float,
    integer: bool,
    block: int,
) -> None:
    rng = np.random.default_rng(seed)
    pool = _pool(rng, n_queries, length, depth=length)
    grades = rng.integers(0, 5, pool.size).astype(float)
    if not integer:
        grades = np.round(grades + rng.choice([0.0, 1 / 3, -1 / 3], pool.size), 12).clip(0, 4)
    grades[rng.random(pool.size) >= judged] = np.nan
    want = plain_loop(pool, grades, k, 4.0, integer)
    b = delta_bounds(VerdictInputs(pool, grades, k, integer_grades=integer))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verdict_settle, "_FIRST_BLOCK", block)
        patch.setattr(verdict_settle, "_MAX_BLOCK", max(block, 4))
        got = verdict_settle.settle_steps(
            VerdictInputs(pool, grades, k, max_grade=4.0, integer_grades=integer),
            expected_grades(pool, grades),
            b,
        )
    assert got == want


@pytest.mark.parametrize("seed", [0, 6, 13])
def test_a_long_walk_is_counted_across_blocks(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pool = _pool(rng, 40, 8, depth=8)
    grades = rng.integers(0, 5, pool.size).astype(float)
    grades[rng.random(pool.size) >= 0.3] = np.nan
    want = plain_loop(pool, grades, 5, 4.0, False)
    assert want is not None and want > 200  # these seeds: 217, 352 and 326 of 337-358
    monkeypatch.setattr(verdict_settle, "_FIRST_BLOCK", 4)
    monkeypatch.setattr(verdict_settle, "_MAX_BLOCK", 16)
    b = delta_bounds(VerdictInputs(pool, grades, 5, integer_grades=False))
    got = verdict_settle.settle_steps(
        VerdictInputs(pool, grades, 5, max_grade=4.0, integer_grades=False),
        expected_grades(pool, grades),
        b,
    )
    assert got == want


def test_equal_grades_at_equal_ranks_are_not_a_decision() -> None:
    """Two runs of different documents, every one graded 10/3: Delta nDCG@3 is 0, whatever
    the rounding of the sum, so the verdict is not decided."""
    pool = build_pool(
        *(np.array(a, dtype=np.int64) for a in ([0, 0, 0, 1, 1, 1], [0] * 6, [0, 1, 2, 3, 4, 5])),
        np.array([1, 2, 3, 1, 2, 3], dtype=np.int64),
        n_runs=2,
        n_queries=1,
        depth=3,
    )
    grades = np.full(pool.size, 10 / 3)
    b = delta_bounds(VerdictInputs(pool, grades, 3, integer_grades=False))
    assert abs(b.mean_low) < 1e-12 and abs(b.mean_high) < 1e-12
    assert not b.decided
