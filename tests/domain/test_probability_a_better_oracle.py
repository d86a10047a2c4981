"""P(A better) with what every draw shares made once equals the former draw-by-draw
computation through ``ndcg_matrix`` (kept here as the oracle), draw for draw: the same
random grades, the same nDCG (bitwise), the same estimate."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.metrics.ideal import ideal_dcg
from ndcg_studio.domain.pooling.strategies import Pool, build_pool
from ndcg_studio.domain.verdict.bounds import VerdictInputs
from ndcg_studio.domain.verdict.estimates import (
    _add_ideal,
    _known_grades,
    _QueryRows,
    ndcg_matrix,
    probability_a_better,
    rank_buckets,
)


def draw_by_draw(
    pool: Pool, grades: np.ndarray, run_a: int, run_b: int, k: int, samples: int, seed: int
) -> float:
    """probability_a_better as it was."""
    g = _known_grades(pool, grades, None)
    evaluated = np.bincount(pool.query, minlength=pool.n_queries) > 0
    rng = np.random.default_rng(seed)
    b = rank_buckets(pool)
    known = ~np.isnan(g)
    unknown = np.flatnonzero(~known)
    judged = np.maximum(g[known], 0.0)
    sources = {
        int(bucket): np.maximum(g[known & (b == bucket)], 0.0) for bucket in np.unique(b[unknown])
    }
    wins = 0
    for _ in range(samples):
        draw = g.copy()
        if len(unknown):
            if len(judged) == 0:
                draw[unknown] = 0.0
            else:
                for bucket, source in sources.items():
                    at = unknown[b[unknown] == bucket]
                    draw[at] = rng.choice(source if len(source) else judged, size=len(at))
        nd = ndcg_matrix(pool, draw, k)
        delta = float((nd[run_a, evaluated] - nd[run_b, evaluated]).mean())
        wins += delta > 0
    return wins / samples


def _pool(rng: np.random.Generator, n_runs: int, n_queries: int, length: int) -> Pool:
    run, query, doc, rank = [], [], [], []
    for r in range(n_runs):
        for q in range(n_queries):
            n = int(rng.integers(0, length + 1))
            picked = rng.choice(2 * length, size=n, replace=False)
            run += [r] * n
            query += [q] * n
            doc += picked.tolist()
            rank += list(range(1, n + 1))
    arrays = (np.array(a, dtype=np.int64) for a in (run, query, doc, rank))
    return build_pool(*arrays, n_runs=n_runs, n_queries=n_queries, depth=length)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_runs=st.integers(2, 3),
    n_queries=st.integers(1, 15),
    length=st.integers(1, 8),
    k=st.integers(1, 6),
    judged=st.floats(0.0, 1.0),
)
@example(seed=17386, n_runs=2, n_queries=1, length=1, k=1, judged=0.0)  # no query evaluated
def test_the_estimate_equals_the_draw_by_draw_one(
    seed: int, n_runs: int, n_queries: int, length: int, k: int, judged: float
) -> None:
    rng = np.random.default_rng(seed)
    pool = _pool(rng, n_runs, n_queries, length)
    grades = rng.choice([0.0, 1.0, 2.0, 3.0, 4.0, 1 / 3, 2.5, -1.0], pool.size)
    grades[rng.random(pool.size) >= judged] = np.nan
    a, b = 0, n_runs - 1
    want = draw_by_draw(pool, grades, a, b, k, 20, seed % 7)
    assert (
        probability_a_better(VerdictInputs(pool, grades, k, a, b), samples=20, seed=seed % 7)
        == want
    )


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_queries=st.integers(1, 20), k=st.integers(1, 8))
def test_the_ideal_of_each_row_is_bitwise_ideal_dcg(seed: int, n_queries: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    pool = _pool(rng, 2, n_queries, 9)
    gains = np.maximum(rng.choice([0.0, 1.0, 2.0, 4.0, 1 / 3, 2 / 3, 3.5], pool.size), 0.0)
    want = ideal_dcg(pool.query, gains, None, pool.n_queries, k)
    got = np.zeros(pool.n_queries)
    _add_ideal(_QueryRows(pool).matrix(gains), k, got)
    assert got.tolist() == want.tolist()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_runs=st.integers(1, 3), length=st.integers(1, 40))
def test_the_rank_buckets_are_the_former_ones(seed: int, n_runs: int, length: int) -> None:
    """rank_buckets one run at a time, in place, equals the former formula (kept here)."""
    pool = _pool(np.random.default_rng(seed), n_runs, 6, length)
    rank = np.where(pool.rank > 0, pool.rank, np.iinfo(np.int64).max)
    best = np.minimum(rank.min(axis=0), 1 << 40)
    want = np.ceil(np.log2(best.astype(np.float64))).astype(np.int64)
    got = rank_buckets(pool)
    assert got.dtype == np.int64 and got.tolist() == want.tolist()
