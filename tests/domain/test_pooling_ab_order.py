"""The ``ab`` chooser's heap of query heads (lazy invalidation) judges in EXACTLY the order of
the former scan of every query's heap per proposal, kept here as the oracle: the full judging
order on random pools with many tied weights, with documents revealed before the walk (as
``services.verdict.judgments_to_settle`` does) and grades that move each query's scale."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.pooling.strategies import (
    ABChooser,
    Pool,
    build_pool,
    discounts,
    judging_order,
)


class ScanABChooser:
    """The ``ab`` chooser as it was: each ``next`` scans every query's heap (quadratic)."""

    def __init__(
        self,
        pool: Pool,
        *,
        k: int,
        pairs: Sequence[tuple[int, int]] | None = None,
        seed: int = 0,
    ) -> None:
        if pairs is None:
            pairs = [(a, b) for a in range(pool.n_runs) for b in range(a + 1, pool.n_runs)]
        disc = discounts(pool.rank, k)
        weight = np.zeros(pool.size)
        for a, b in pairs:
            weight += np.abs(disc[a] - disc[b])
        self._k = k
        self._ideal_disc = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
        tie = np.random.default_rng(seed).permutation(pool.size)
        self._heaps: list[list[tuple[float, int, int]]] = [[] for _ in range(pool.n_queries)]
        for p in np.lexsort((tie, -weight)).tolist():
            self._heaps[int(pool.query[p])].append((-float(weight[p]), int(tie[p]), p))
        for h in self._heaps:
            heapq.heapify(h)
        self._query = pool.query
        self._revealed: list[list[float]] = [[] for _ in range(pool.n_queries)]
        self._scale = np.ones(pool.n_queries)
        self._judged = np.zeros(pool.size, dtype=bool)

    def next(self) -> int | None:
        best: tuple[float, int, int] | None = None
        for q, h in enumerate(self._heaps):
            while h and self._judged[h[0][2]]:
                heapq.heappop(h)
            if h:
                cand = (h[0][0] / self._scale[q], h[0][1], h[0][2])
                if best is None or cand < best:
                    best = cand
        return None if best is None else best[2]

    def reveal(self, p: int, grade: float) -> None:
        self._judged[p] = True
        q = int(self._query[p])
        self._revealed[q].append(max(float(grade), 0.0))
        top = sorted(self._revealed[q], reverse=True)[: self._k]
        ideal = float(np.dot(top, self._ideal_disc[: len(top)]))
        self._scale[q] = max(ideal, 1.0)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Pool, list[float], list[int], int, int, list[tuple[int, int]]]:
    """A random pool (runs share documents, so many weights tie, and some are 0), a grade per
    pooled document (fractional ones too), documents revealed first, k, seed and pairs."""
    n_runs = draw(st.integers(2, 4))
    n_queries = draw(st.integers(1, 7))
    n_docs = draw(st.integers(1, 9))
    run, query, doc, rank = [], [], [], []
    for r in range(n_runs):
        for q in range(n_queries):
            docs = draw(st.permutations(range(n_docs)))[: draw(st.integers(0, n_docs))]
            for i, d in enumerate(docs):
                run.append(r)
                query.append(q)
                doc.append(d)
                rank.append(i + 1)
    arrays = (np.array(a, dtype=np.int64) for a in (run, query, doc, rank))
    pool = build_pool(*arrays, n_runs=n_runs, n_queries=n_queries, depth=draw(st.integers(1, 6)))
    grade = st.one_of(st.integers(-1, 4).map(float), st.sampled_from([0.5, 1.0 / 3, 2.75]))
    grades = draw(st.lists(grade, min_size=pool.size, max_size=pool.size))
    first = draw(st.lists(st.integers(0, max(pool.size - 1, 0)), max_size=pool.size))
    first = sorted(set(first)) if pool.size else []
    k = draw(st.integers(1, 5))
    all_pairs = [(a, b) for a in range(n_runs) for b in range(a + 1, n_runs)]
    pairs = draw(st.lists(st.sampled_from(all_pairs), min_size=1, max_size=3, unique=True))
    return pool, grades, first, k, draw(st.integers(0, 3)), pairs


def _walk(chooser: ABChooser | ScanABChooser, grades: list[float], first: list[int]) -> list[int]:
    """Reveal ``first`` (not proposed by the chooser), then judge to the end; the order."""
    for p in first:
        chooser.reveal(p, grades[p])
    order: list[int] = []
    while (p := chooser.next()) is not None:
        assert chooser.next() == p  # asking again proposes the same document
        order.append(p)
        chooser.reveal(p, grades[p])
    return order


@settings(max_examples=300, deadline=None)
@given(cases())
def test_heap_of_heads_judges_in_the_scan_order(
    case: tuple[Pool, list[float], list[int], int, int, list[tuple[int, int]]],
) -> None:
    pool, grades, first, k, seed, pairs = case
    want = _walk(ScanABChooser(pool, k=k, pairs=pairs, seed=seed), grades, first)
    got = _walk(ABChooser(pool, k=k, pairs=pairs, seed=seed), grades, first)
    assert got == want
    assert sorted(got + first) == list(range(pool.size))


@settings(max_examples=100, deadline=None)
@given(cases())
def test_default_pairs_and_judging_order(
    case: tuple[Pool, list[float], list[int], int, int, list[tuple[int, int]]],
) -> None:
    pool, grades, _, k, seed, _ = case
    want = judging_order(ScanABChooser(pool, k=k, seed=seed), lambda p: grades[p])
    got = judging_order(ABChooser(pool, k=k, seed=seed), lambda p: grades[p])
    assert got.tolist() == want.tolist()


def test_ties_follow_the_seeded_shuffle_across_queries() -> None:
    # four identical queries: every weight ties across queries, so only the tie order decides
    lists = [[0, 1, 2]] * 4, [[2, 1, 0]] * 4
    run, query, doc, rank = [], [], [], []
    for r, per_query in enumerate(lists):
        for q, docs in enumerate(per_query):
            for i, d in enumerate(docs):
                run.append(r)
                query.append(q)
                doc.append(d)
                rank.append(i + 1)
    arrays = (np.array(a, dtype=np.int64) for a in (run, query, doc, rank))
    pool = build_pool(*arrays, n_runs=2, n_queries=4, depth=3)
    for seed in range(5):
        want = judging_order(ScanABChooser(pool, k=3, seed=seed), lambda p: 0.0)
        got = judging_order(ABChooser(pool, k=3, seed=seed), lambda p: 0.0)
        assert got.tolist() == want.tolist()
        # the same weights in every query: the order is not simply query by query
        assert pool.query[got[:4]].tolist() != [0, 0, 0, 0]


@settings(max_examples=200, deadline=None)
@given(cases(), st.integers(1, 5))
def test_walk_is_next_and_reveal_in_a_loop(
    case: tuple[Pool, list[float], list[int], int, int, list[tuple[int, int]]], limit: int
) -> None:
    pool, grades, first, k, seed, pairs = case
    want = _walk(ScanABChooser(pool, k=k, pairs=pairs, seed=seed), grades, first)
    chooser = ABChooser(pool, k=k, pairs=pairs, seed=seed)
    for p in first:
        chooser.reveal(p, grades[p])
    got: list[int] = []
    while step := chooser.walk(grades, limit):
        assert len(step) <= limit
        got += step
        if want[len(got) : len(got) + 1]:  # next and walk can be mixed
            assert chooser.next() == want[len(got)]
    assert got == want


def test_the_heap_is_compacted_without_changing_the_order() -> None:
    # revealing 2,000 judged documents first leaves more stale entries than valid ones
    rng = np.random.default_rng(5)
    n_queries, length = 300, 10
    run, query, doc, rank = [], [], [], []
    for r in range(2):
        for q in range(n_queries):
            picked = rng.choice(2 * length, size=length, replace=False)
            run += [r] * length
            query += [q] * length
            doc += picked.tolist()
            rank += list(range(1, length + 1))
    arrays = (np.array(a, dtype=np.int64) for a in (run, query, doc, rank))
    pool = build_pool(*arrays, n_runs=2, n_queries=n_queries, depth=length)
    grades = rng.choice([0.0, 1.0, 2.0, 4.0, 1 / 3], pool.size).tolist()
    first = sorted(rng.choice(pool.size, size=2000, replace=False).tolist())
    chooser = ABChooser(pool, k=5, pairs=[(0, 1)], seed=2)
    want = _walk(ScanABChooser(pool, k=5, pairs=[(0, 1)], seed=2), grades, first)
    for p in first:
        chooser.reveal(p, grades[p])
    assert len(chooser._heap) < n_queries + 1024  # compacted (2,300 entries without)
    got = []
    while step := chooser.walk(grades, 64):
        got += step
    assert got == want


@given(st.lists(st.integers(-5, 5), max_size=30))
def test_distinct_is_np_unique(values: list[int]) -> None:
    from ndcg_studio.domain.metrics.kernels import distinct

    a = np.array(values, dtype=np.int64)
    assert distinct(a).tolist() == np.unique(a).tolist()
