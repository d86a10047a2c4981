"""The verdict: sound Delta nDCG bounds (exhaustive enumeration), estimates, nDCG on a pool.

Oracle for every nDCG here: :func:`ndcg_studio.domain.metrics.measures.score` (trec_eval ndcg_cut),
itself tested against trec_eval.
"""

from __future__ import annotations

import itertools
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoringParams, score
from ndcg_studio.domain.pooling.strategies import Pool, build_pool
from ndcg_studio.domain.verdict import bounds as verdict
from ndcg_studio.domain.verdict.bounds import VerdictInputs, delta_bounds, query_delta_bounds
from ndcg_studio.domain.verdict.estimates import expected_grades, ndcg_matrix, probability_a_better


def _random_runs(
    rng: np.random.Generator, n_runs: int, n_queries: int, n_docs: int, length: int
) -> tuple[np.ndarray, ...]:
    run, query, doc, rank = [], [], [], []
    for r in range(n_runs):
        for q in range(n_queries):
            picked = rng.choice(n_docs, size=length, replace=False)
            run += [r] * length
            query += [q] * length
            doc += picked.tolist()
            rank += list(range(1, length + 1))
    return tuple(np.array(a, dtype=np.int64) for a in (run, query, doc, rank))


def _oracle_ndcg(
    run: np.ndarray,
    query: np.ndarray,
    doc: np.ndarray,
    rank: np.ndarray,
    pool: Pool,
    grades: np.ndarray,
    k: int,
    n_runs: int,
) -> np.ndarray:
    """(n_runs, n_queries) nDCG@K by metrics.score with qrels = the pooled grades."""
    n_q = pool.n_queries
    n_docs = int(max(doc.max(), pool.doc.max(initial=0))) + 1
    lists = RankedLists(
        group=run * n_q + query,
        doc=doc,
        score=-rank.astype(float),
        rank=rank,
        group_query=np.tile(np.arange(n_q), n_runs),
        doc_key=np.arange(n_docs),
    )
    table = score(lists, Qrels(pool.query, pool.doc, grades), ScoringParams(k=k, order="rank"))
    return np.nan_to_num(table.ndcg).reshape(n_runs, n_q)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(1, 5),
    length=st.integers(2, 6),
    judged_fraction=st.floats(0.0, 1.0),
)
def test_bounds_contain_every_grade_assignment(
    seed: int, k: int, length: int, judged_fraction: float
) -> None:
    rng = np.random.default_rng(seed)
    n_runs = 2
    run, query, doc, rank = _random_runs(rng, n_runs, 1, 8, length)
    pool = build_pool(run, query, doc, rank, n_runs=n_runs, n_queries=1, depth=length)
    truth = rng.integers(0, 5, size=pool.size).astype(float)
    grades = truth.copy()
    hidden = rng.random(pool.size) >= judged_fraction
    # at most 5 unjudged documents: 5**5 assignments
    hidden[np.flatnonzero(hidden)[5:]] = False
    grades[hidden] = np.nan
    lo, hi = query_delta_bounds(VerdictInputs(pool, grades, k), 0)
    with mock.patch.object(verdict, "_MAX_ENUMERATION", 0):  # the relaxation bound
        relaxed_lo, relaxed_hi = query_delta_bounds(VerdictInputs(pool, grades, k), 0)
    unknown = np.flatnonzero(hidden)
    deltas = []
    for assignment in itertools.product(range(5), repeat=len(unknown)):
        g = grades.copy()
        g[unknown] = assignment
        nd = _oracle_ndcg(run, query, doc, rank, pool, g, k, n_runs)
        deltas.append(nd[0, 0] - nd[1, 0])
    # exact by enumeration of the non-dominated assignments
    assert lo == pytest.approx(min(deltas), abs=1e-12)
    assert hi == pytest.approx(max(deltas), abs=1e-12)
    # sound relaxation
    assert relaxed_lo <= min(deltas) + 1e-12
    assert max(deltas) <= relaxed_hi + 1e-12
    if not len(unknown):
        assert lo == pytest.approx(deltas[0], abs=1e-12)
        assert hi == pytest.approx(deltas[0], abs=1e-12)


def test_bounds_are_tight_on_a_hand_example() -> None:
    """Run A has an unjudged document at rank 1, B at rank 2; everything else judged 0 except
    a grade-2 document at rank 2 of A / rank 1 of B. Max Delta: unjudged = 4
    (A: 4 + 2/log2 3, B: 2 + 4/log2 3, ideal 4 + 2/log2 3); min: unjudged = 0."""
    run = np.array([0, 0, 1, 1])
    query = np.zeros(4, dtype=np.int64)
    doc = np.array([0, 1, 1, 0])
    rank = np.array([1, 2, 1, 2])
    pool = build_pool(run, query, doc, rank, n_runs=2, n_queries=1, depth=2)
    grades = np.array([np.nan, 2.0])
    lo, hi = query_delta_bounds(VerdictInputs(pool, grades, 10), 0)
    d2 = 1 / np.log2(3)
    best = ((4 + 2 * d2) - (2 + 4 * d2)) / (4 + 2 * d2)
    worst = (2 * d2 - 2) / 2
    assert hi == pytest.approx(best, abs=1e-12)
    assert lo == pytest.approx(worst, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 12), depth=st.integers(1, 15))
def test_ndcg_matrix_equals_metrics_score(seed: int, k: int, depth: int) -> None:
    rng = np.random.default_rng(seed)
    n_runs, n_q = 3, 4
    run, query, doc, rank = _random_runs(rng, n_runs, n_q, 40, 15)
    pool = build_pool(run, query, doc, rank, n_runs=n_runs, n_queries=n_q, depth=depth)
    grades = rng.integers(-1, 5, size=pool.size).astype(float)
    grades[rng.random(pool.size) < 0.3] += 0.5  # fractional (mean consensus)
    got = ndcg_matrix(pool, grades, k)
    want = _oracle_ndcg(run, query, doc, rank, pool, grades, k, n_runs)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_mean_bounds_and_decision() -> None:
    rng = np.random.default_rng(3)
    run, query, doc, rank = _random_runs(rng, 2, 5, 30, 10)
    pool = build_pool(run, query, doc, rank, n_runs=2, n_queries=5, depth=10)
    truth = rng.integers(0, 5, size=pool.size).astype(float)
    full = delta_bounds(VerdictInputs(pool, truth, 10))
    nd = ndcg_matrix(pool, truth, 10)
    assert full.mean_low == pytest.approx(float((nd[0] - nd[1]).mean()), abs=1e-12)
    assert full.mean_high == pytest.approx(full.mean_low, abs=1e-12)
    assert full.decided == (abs(full.mean_low) > 0)
    none = delta_bounds(VerdictInputs(pool, np.full(pool.size, np.nan), 10))
    assert none.mean_low < 0 < none.mean_high and not none.decided
    assert none.mean_low >= -1 and none.mean_high <= 1


def test_expected_grades_and_estimate() -> None:
    rng = np.random.default_rng(5)
    run, query, doc, rank = _random_runs(rng, 2, 3, 30, 10)
    pool = build_pool(run, query, doc, rank, n_runs=2, n_queries=3, depth=10)
    nothing = np.full(pool.size, np.nan)
    np.testing.assert_array_equal(expected_grades(pool, nothing), np.zeros(pool.size))
    grades = nothing.copy()
    grades[:5] = 4.0
    filled = expected_grades(pool, grades)
    assert np.isfinite(filled).all() and (filled[5:] > 0).all() and (filled[5:] <= 4).all()
    # run 0 = run 1: never strictly better
    same = build_pool(
        np.r_[run[run == 0], run[run == 0] + 1],
        np.r_[query[run == 0], query[run == 0]],
        np.r_[doc[run == 0], doc[run == 0]],
        np.r_[rank[run == 0], rank[run == 0]],
        n_runs=2,
        n_queries=3,
        depth=10,
    )
    g = np.full(same.size, np.nan)
    g[::2] = 3.0
    assert probability_a_better(VerdictInputs(same, g, 10), samples=50) == 0.0
    p = probability_a_better(VerdictInputs(pool, grades, 10), samples=50, seed=1)
    assert 0.0 <= p <= 1.0
    assert p == probability_a_better(VerdictInputs(pool, grades, 10), samples=50, seed=1)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 5))
def test_fractional_grades_use_a_bound_sound_on_the_whole_box(seed: int, k: int) -> None:
    """A mean consensus can hide 2.5: with integer_grades=False every grade on a half-step
    grid of [0, 4] (9^3 assignments) lies inside."""
    rng = np.random.default_rng(seed)
    run, query, doc, rank = _random_runs(rng, 2, 1, 8, 5)
    pool = build_pool(run, query, doc, rank, n_runs=2, n_queries=1, depth=5)
    grades = rng.integers(0, 9, size=pool.size) / 2.0
    unknown = rng.choice(pool.size, size=min(3, pool.size), replace=False)
    grades[unknown] = np.nan
    lo, hi = query_delta_bounds(VerdictInputs(pool, grades, k, integer_grades=False), 0)
    for assignment in itertools.product(np.arange(9) / 2.0, repeat=len(unknown)):
        g = grades.copy()
        g[unknown] = assignment
        nd = _oracle_ndcg(run, query, doc, rank, pool, g, k, 2)
        assert lo - 1e-12 <= nd[0, 0] - nd[1, 0] <= hi + 1e-12


def test_estimate_is_certain_when_everything_is_judged_and_follows_the_evidence() -> None:
    rng = np.random.default_rng(9)
    run, query, doc, rank = _random_runs(rng, 2, 4, 30, 10)
    pool = build_pool(run, query, doc, rank, n_runs=2, n_queries=4, depth=10)
    truth = rng.integers(0, 5, size=pool.size).astype(float)
    nd = ndcg_matrix(pool, truth, 10)
    a_better = float((nd[0] - nd[1]).mean()) > 0
    assert probability_a_better(VerdictInputs(pool, truth, 10), samples=20) == float(a_better)
    # A's top 3 documents judged 4, B's top 3 judged 0 (where not shared): A very likely better
    grades = np.full(pool.size, np.nan)
    grades[(pool.rank[0] >= 1) & (pool.rank[0] <= 3)] = 4.0
    b_top = (pool.rank[1] >= 1) & (pool.rank[1] <= 3) & np.isnan(grades)
    grades[b_top] = 0.0
    assert probability_a_better(VerdictInputs(pool, grades, 10), samples=100, seed=2) > 0.9


def _cranfield_style(n_queries: int, mirror: bool = False) -> tuple[Pool, np.ndarray]:
    """Qrels judged apart from the pool (Cranfield): per query 3 relevant documents (grade 3)
    that A ranks 1-3 and B ranks 11-13 below 10 documents nobody judged, and a fourth relevant
    document neither run returned. ``mirror``: every odd query swaps A's and B's lists."""
    run, query, doc, rank = [], [], [], []
    qrels: dict[tuple[int, int], float] = {}
    for q in range(n_queries):
        relevant = [0, 1, 2]
        a = relevant + list(range(10, 17))
        b = list(range(20, 30)) + relevant
        if mirror and q % 2:
            a, b = b, a
        for r, docs in enumerate((a, b)):
            run += [r] * len(docs)
            query += [q] * len(docs)
            doc += docs
            rank += list(range(1, len(docs) + 1))
        qrels.update({(q, d): 3.0 for d in relevant})
        qrels[(q, 99)] = 3.0  # judged, outside every run: the qrels are not this pool's
    arrays = (np.array(x, dtype=np.int64) for x in (run, query, doc, rank))
    pool = build_pool(*arrays, n_runs=2, n_queries=n_queries, depth=10)
    grades = np.array(
        [qrels.get((int(q), int(d)), np.nan) for q, d in zip(pool.query, pool.doc, strict=True)]
    )
    return pool, grades


def test_estimates_take_independent_qrels_as_complete() -> None:
    """#17.2: judged documents that are all relevant made every unjudged one look relevant
    (B's 10 unjudged top documents drawn from grades of 3): P(A better) was small while A
    finds every relevant document and B none in its top 10. Taken as complete (trec_eval),
    the estimate follows the evidence; the sound interval does not change."""
    pool, grades = _cranfield_style(20)
    complete = np.ones(pool.n_queries, dtype=bool)
    fair = probability_a_better(VerdictInputs(pool, grades, 10), samples=200, seed=3)
    assert fair < 0.5  # the old reading: misleading
    p = probability_a_better(
        VerdictInputs(pool, grades, 10), samples=200, seed=3, complete=complete
    )
    assert p > 0.95
    filled = expected_grades(pool, grades, complete=complete)
    np.testing.assert_array_equal(filled, np.where(np.isnan(grades), 0.0, grades))
    # partly complete: the known zeros of the complete queries pull the rank-bucket estimate
    # of the others toward the true rate of relevance (3 relevant of 23 pooled: 0.39 on
    # average), though the open queries' own judged documents still bias it up
    half = np.arange(pool.n_queries) < 10
    mixed = expected_grades(pool, grades, complete=half)
    open_unjudged = np.isnan(grades) & ~half[pool.query]
    assert mixed[open_unjudged].mean() < 1.0
    assert (expected_grades(pool, grades)[open_unjudged] > 2.0).all()
    # (c) the sound interval is not an estimate: it ignores the assumption
    b = delta_bounds(VerdictInputs(pool, grades, 10))
    assert b.mean_low < 0 < b.mean_high


def test_estimate_of_a_symmetric_case_is_about_one_half() -> None:
    """Mirrored queries (odd ones swap A and B), half of the pairs complete: every draw's
    difference is as likely negative as positive, so P(A better) ~ 1/2."""
    pool, grades = _cranfield_style(40, mirror=True)
    complete = (np.arange(pool.n_queries) // 2) % 2 == 0
    p = probability_a_better(
        VerdictInputs(pool, grades, 10), samples=400, seed=4, complete=complete
    )
    assert 0.4 < p < 0.6
