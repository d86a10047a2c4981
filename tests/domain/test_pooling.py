"""Pools and judging orders: every strategy judges each pooled document exactly once, and each
follows its paper's rule on small hand-made examples."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.pooling.strategies import (
    STRATEGIES,
    ABChooser,
    MaxMeanChooser,
    MoveToFrontChooser,
    build_pool,
    judging_order,
    make_chooser,
)


def _pool_of(lists: list[list[list[int]]], depth: int):  # type: ignore[no-untyped-def]
    """lists[run][query] = document indices in rank order."""
    run, query, doc, rank = [], [], [], []
    for r, per_query in enumerate(lists):
        for q, docs in enumerate(per_query):
            for i, d in enumerate(docs):
                run.append(r)
                query.append(q)
                doc.append(d)
                rank.append(i + 1)
    arrays = (np.array(a, dtype=np.int64) for a in (run, query, doc, rank))
    return build_pool(*arrays, n_runs=len(lists), n_queries=len(lists[0]), depth=depth)


def test_build_pool_depth_and_ranks() -> None:
    pool = _pool_of([[[5, 6, 7]], [[7, 8, 5]]], depth=2)
    assert pool.doc.tolist() == [5, 6, 7, 8]
    # ranks over the whole list: doc 5 is rank 3 in run 1 (below the depth, still recorded)
    assert pool.rank.tolist() == [[1, 2, 3, 0], [3, 0, 1, 2]]
    with pytest.raises(ValueError, match="depth"):
        _pool_of([[[1]]], depth=0)
    with pytest.raises(ValueError, match="twice"):
        _pool_of([[[1, 1]]], depth=2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 8))
def test_every_strategy_judges_every_pooled_document_once(seed: int, depth: int) -> None:
    rng = np.random.default_rng(seed)
    lists = [[rng.choice(30, size=8, replace=False).tolist() for _ in range(3)] for _ in range(3)]
    pool = _pool_of(lists, depth)
    truth = rng.integers(0, 5, size=pool.size).astype(float)
    for strategy in STRATEGIES:
        order = judging_order(make_chooser(strategy, pool, k=5, seed=seed), truth.__getitem__)
        assert sorted(order.tolist()) == list(range(pool.size)), strategy


def test_move_to_front_stays_on_a_run_while_it_finds_relevant_documents() -> None:
    # run 0: a b c (a, b relevant); run 1: d e f (nothing relevant)
    pool = _pool_of([[[0, 1, 2]], [[3, 4, 5]]], depth=3)
    grade = {0: 2.0, 1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0, 5: 0.0}
    order = judging_order(MoveToFrontChooser(pool), lambda p: grade[int(pool.doc[p])])
    # a, b relevant keep run 0 on top; c lowers it to -1; d lowers run 1 to -1; tie -> run 0
    assert pool.doc[order].tolist() == [0, 1, 2, 3, 4, 5]
    # run 0 starts with a non-relevant document: run 1 gets the next turn
    grade = {0: 0.0, 1: 3.0, 2: 3.0, 3: 0.0, 4: 0.0, 5: 0.0}
    order = judging_order(MoveToFrontChooser(pool), lambda p: grade[int(pool.doc[p])])
    assert pool.doc[order].tolist()[:3] == [0, 3, 1]


def test_maxmean_pulls_the_arm_with_the_best_posterior_mean() -> None:
    pool = _pool_of([[[0, 1, 2, 3]], [[4, 5, 6, 7]]], depth=4)
    relevant = {0, 1, 2, 3}
    grade = {d: (2.0 if d in relevant else 0.0) for d in range(8)}
    order = judging_order(MaxMeanChooser(pool), lambda p: grade[int(pool.doc[p])])
    # run 0 (tie -> lowest index) is relevant every time: its mean stays above 1/2
    assert pool.doc[order].tolist() == [0, 1, 2, 3, 4, 5, 6, 7]
    order = judging_order(MaxMeanChooser(pool), lambda p: 0.0 if int(pool.doc[p]) == 0 else 2.0)
    # a miss on run 0 (mean 1/3) hands the turn to run 1 (mean 1/2)
    assert pool.doc[order].tolist()[:2] == [0, 4]
    with pytest.raises(ValueError):
        MaxMeanChooser(pool, discount=0.0)


def test_maxmean_discount_worked_by_hand() -> None:
    """Run 0 = docs 0..6 graded R R R N N N N, run 1 = docs 10..13 all R (R = 2, N = 0).

    lam = 0.9, posterior mean (1 + rel) / (2 + rel + nonrel), Beta(1, 1) prior:
    both arms start at 1/2, tie -> run 0. After doc 0 (R): rel 1 -> 2/3; doc 1 (R): rel 1.9
    -> 2.9/3.9; doc 2 (R): rel 2.71 -> 3.71/4.71; doc 3 (N): rel 2.439, non 1 -> 0.632;
    doc 4 (N): rel 2.1951, non 1.9 -> 3.1951/6.0951 = 0.524 > 1/2; doc 5 (N): rel 1.97559,
    non 2.71 -> 2.97559/6.68559 = 0.445 < 1/2: run 1 is pulled, stays above 1/2 on its four
    relevant documents, drops out when exhausted, and run 0's doc 6 comes last.
    lam = 1 (stationary): after doc 5 run 0 has rel 3, non 3 -> 4/8 = 1/2, a tie with run 1
    that the lowest index wins: doc 6 (N) -> 4/9, then run 1.
    """
    pool = _pool_of([[[0, 1, 2, 3, 4, 5, 6]], [[10, 11, 12, 13]]], depth=7)
    grade = {0: 2.0, 1: 2.0, 2: 2.0, 3: 0.0, 4: 0.0, 5: 0.0, 6: 0.0}
    grade.update({d: 2.0 for d in (10, 11, 12, 13)})

    def order(discount: float) -> list[int]:
        chooser = MaxMeanChooser(pool, discount=discount)
        return pool.doc[judging_order(chooser, lambda p: grade[int(pool.doc[p])])].tolist()

    assert order(0.9) == [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 6]
    assert order(1.0) == [0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13]
    # the posterior means of the hand computation, from the chooser's own state
    chooser = MaxMeanChooser(pool, discount=0.9)
    for _ in range(6):
        p = chooser.next()
        assert p is not None
        chooser.reveal(p, grade[int(pool.doc[p])])
    rel, non = chooser._rel[0, 0], chooser._non[0, 0]
    assert rel == pytest.approx(1.97559) and non == pytest.approx(2.71)
    assert (1 + rel) / (2 + rel + non) == pytest.approx(2.97559 / 6.68559)


def test_maxmean_counts_documents_judged_through_another_run_for_free() -> None:
    # both runs start with doc 0; after it is judged relevant via run 0, run 1 gets it free
    pool = _pool_of([[[0, 1]], [[0, 2]]], depth=2)
    order = judging_order(MaxMeanChooser(pool), lambda p: 0.0 if int(pool.doc[p]) == 1 else 3.0)
    # run 0: doc 0 (relevant), doc 1 (miss: mean 2/3.. -> run 1 with free reward from doc 0)
    assert pool.doc[order].tolist() == [0, 1, 2]


def test_ab_orders_by_discount_difference_and_ignores_agreeing_documents() -> None:
    # query 0: A = [0, 1, 2], B = [0, 2, 1]; doc 0 at rank 1 in both (weight 0)
    pool = _pool_of([[[0, 1, 2]], [[0, 2, 1]]], depth=3)
    chooser = ABChooser(pool, k=3, seed=0)
    first = chooser.next()
    assert first is not None and int(pool.doc[first]) in (1, 2)
    order = judging_order(ABChooser(pool, k=3, seed=0), lambda p: 1.0)
    assert int(pool.doc[order[-1]]) == 0


def test_ab_prefers_queries_with_a_small_known_ideal() -> None:
    # two identical queries; once query 0 reveals a grade-4 document its weights shrink
    pool = _pool_of([[[0, 1, 2], [0, 1, 2]], [[2, 1, 0], [2, 1, 0]]], depth=3)
    chooser = ABChooser(pool, k=3, seed=0)
    p = chooser.next()
    assert p is not None
    chooser.reveal(p, 4.0)
    q = chooser.next()
    assert q is not None and pool.query[q] != pool.query[p]


def test_unknown_strategy() -> None:
    pool = _pool_of([[[0]]], depth=1)
    with pytest.raises(ValueError, match="unknown strategy"):
        make_chooser("random", pool)  # type: ignore[arg-type]


def test_maxmean_last_judgment_only_stays_on_a_run_that_hits() -> None:
    """Run 0 = R R R N N N N, run 1 = R R R R: the last reward alone — a hit gives 2/3, a miss
    1/3, an untried run 1/2 — so run 0 is pulled until its first miss, run 1 then to its end,
    and run 0's rest last."""
    pool = _pool_of([[[0, 1, 2, 3, 4, 5, 6]], [[10, 11, 12, 13]]], depth=7)
    grade = {0: 2.0, 1: 2.0, 2: 2.0, 3: 0.0, 4: 0.0, 5: 0.0, 6: 0.0}
    grade.update({d: 2.0 for d in (10, 11, 12, 13)})
    chooser = MaxMeanChooser(pool, last_only=True)
    order = pool.doc[judging_order(chooser, lambda p: grade[int(pool.doc[p])])].tolist()
    assert order == [0, 1, 2, 3, 10, 11, 12, 13, 4, 5, 6]


def test_maxmean_free_reward_is_a_parameter() -> None:
    """Document 0 is in both runs and not relevant. Judged through run 0 (mean 1/3), it is a
    free miss for run 1 too (1/3: the tie goes to run 0, document 1) — or, without free
    rewards, run 1 keeps its prior 1/2 and gives document 3."""
    pool = _pool_of([[[0, 1, 2]], [[0, 3, 4]]], depth=3)

    def order(free: bool) -> list[int]:
        chooser = MaxMeanChooser(pool, free_reward=free)
        return pool.doc[judging_order(chooser, lambda p: 0.0)].tolist()

    assert order(True)[:2] == [0, 1]
    assert order(False)[:2] == [0, 3]
    assert sorted(order(False)) == [0, 1, 2, 3, 4]
