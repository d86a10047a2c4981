"""The verdict's numbers equal those of a slow, straightforward formulation kept here: the
bounds query by query (``bounds._upper_relaxed`` / ``upper_one``), the walk by the chooser's
heap re-bounding one query per judgment, P(A better) by ``ndcg_matrix`` draw by draw — on
seeded random pools with ties of grade and of rank weight, unjudged documents, queries with no
judged document, complete queries and K larger than the lists."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_studio.domain.pooling.strategies import ABChooser, Pool, build_pool
from ndcg_studio.domain.verdict.bounds import VerdictInputs, delta_bounds, excludes_zero, upper_one
from ndcg_studio.domain.verdict.estimates import (
    expected_grades,
    ndcg_matrix,
    probability_a_better,
    rank_buckets,
)
from ndcg_studio.domain.verdict.order import ab_walk_order
from ndcg_studio.domain.verdict.settle import settle_steps


def slow_bounds(pool: Pool, g: np.ndarray, k: int, top: float, integer: bool) -> np.ndarray:
    """(2, n_queries) low and high of each query with a pooled document, one query at a time."""
    w_all = np.zeros(pool.size)
    for r, sign in ((0, 1.0), (1, -1.0)):
        rank = pool.rank[r]
        inside = (rank >= 1) & (rank <= k)
        w_all[inside] += sign / np.log2(rank[inside] + 1.0)
    out = np.zeros((2, pool.n_queries))
    for q in np.unique(pool.query).tolist():
        here = pool.query == q
        w, gq = w_all[here], g[here]
        known = ~np.isnan(gq)
        gk = np.maximum(gq[known], 0.0)
        out[1, q] = upper_one(w[known], gk, w[~known], k, top, integer)
        out[0, q] = -upper_one(-w[known], gk, -w[~known], k, top, integer)
    return out


def slow_walk(
    pool: Pool, grades: np.ndarray, expected: np.ndarray, k: int, top: float, integer: bool
) -> tuple[int | None, list[int]]:
    """The count to settle and the order of the whole walk: propose, give the expected grade,
    re-bound every query, test the means."""
    g = grades.copy()
    queries = np.unique(pool.query)
    b = slow_bounds(pool, g, k, top, integer)[:, queries]
    chooser = ABChooser(pool, k=k, pairs=[(0, 1)])
    for p in np.flatnonzero(~np.isnan(g)).tolist():
        chooser.reveal(p, float(g[p]))
    count: int | None = 0 if excludes_zero(b[0].mean(), b[1].mean()) else None
    order: list[int] = []
    while (p := chooser.next()) is not None:
        g[p] = expected[p]
        chooser.reveal(p, float(expected[p]))
        order.append(p)
        if count is None:
            b = slow_bounds(pool, g, k, top, integer)[:, queries]
            if excludes_zero(b[0].mean(), b[1].mean()):
                count = len(order)
    return count, order


def slow_probability(
    pool: Pool, grades: np.ndarray, k: int, complete: np.ndarray, samples: int, seed: int
) -> float:
    g = grades.copy()
    g[complete[pool.query] & np.isnan(g)] = 0.0
    evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    rng = np.random.default_rng(seed)
    b = rank_buckets(pool)
    known = ~np.isnan(g)
    unknown = np.flatnonzero(~known)
    judged = np.maximum(g[known], 0.0)
    wins = 0
    for _ in range(samples):
        draw = g.copy()
        for bucket in np.unique(b[unknown]).tolist():
            at = unknown[b[unknown] == bucket]
            source = np.maximum(g[known & (b == bucket)], 0.0)
            if len(judged) == 0:
                draw[at] = 0.0
            else:
                draw[at] = rng.choice(source if len(source) else judged, size=len(at))
        nd = ndcg_matrix(pool, draw, k)
        wins += float((nd[0, evaluated] - nd[1, evaluated]).mean()) > 0
    return wins / samples


def random_case(seed: int) -> tuple[Pool, np.ndarray, int, np.ndarray, bool]:
    """Lists of 1-7 documents (K up to 9: often larger than the lists), shared documents at
    equal or other ranks (ties of weight), grades on a third-step grid (ties of grade), some
    queries judged not at all, some judged whole, some complete."""
    rng = np.random.default_rng(seed)
    n_q = int(rng.integers(1, 9))
    run, query, doc, rank = [], [], [], []
    for q in range(n_q):
        a = rng.choice(12, size=int(rng.integers(1, 8)), replace=False)
        b = (
            a.copy()
            if rng.random() < 0.2
            else rng.choice(12, size=int(rng.integers(1, 8)), replace=False)
        )
        for r, docs in ((0, a), (1, b)):
            run += [r] * len(docs)
            query += [q] * len(docs)
            doc += docs.tolist()
            rank += list(range(1, len(docs) + 1))
    arrays = (np.array(x, dtype=np.int64) for x in (run, query, doc, rank))
    pool = build_pool(*arrays, n_runs=2, n_queries=n_q, depth=7)
    integer = bool(rng.random() < 0.3)
    grid = np.arange(5.0) if integer else np.arange(13) / 3.0
    grades = rng.choice(grid, pool.size)
    grades[rng.random(pool.size) < rng.random()] = np.nan
    for q in np.flatnonzero(rng.random(n_q) < 0.3):  # queries with no judged document
        grades[pool.query == q] = np.nan
    complete = rng.random(n_q) < 0.2
    return pool, grades, int(rng.integers(1, 10)), complete, integer


@pytest.mark.parametrize("seed", range(40))
def test_the_verdict_numbers_equal_the_slow_formulation(seed: int) -> None:
    pool, grades, k, complete, integer = random_case(seed)
    inputs = VerdictInputs(pool, grades, k, integer_grades=integer)
    b = delta_bounds(inputs)
    want = slow_bounds(pool, grades, k, 4.0, integer)
    np.testing.assert_allclose(b.low, want[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(b.high, want[1], rtol=0, atol=1e-12)
    expected = expected_grades(pool, grades, complete=complete)
    count, order = slow_walk(pool, grades, expected, k, 4.0, integer)
    assert settle_steps(inputs, expected, b) == count
    walked = ab_walk_order(pool, grades, expected, k)
    assert walked is None or walked.tolist() == order
    p = probability_a_better(inputs, samples=30, seed=seed, complete=complete)
    assert p == slow_probability(pool, grades, k, complete, 30, seed)
