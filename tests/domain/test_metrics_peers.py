"""score() against peer implementations on random data.

* ir-measures with its pytrec_eval provider (trec_eval semantics): nDCG@K, nDCG, P@K, RR,
  with tied scores, -1 grades, queries missing from the run (scored 0) and run queries
  without judgments (skipped there, NaN here).
* ir-measures' gdeval provider (TREC Web track gdeval.pl, bundled with ir-measures; needs
  perl): exponential-gain nDCG@K and ERR@K (g_max = 4).
* ir-measures' Judged@K (divides by min(K, list length) like ours; its ties go by docno
  ascending, so that comparison uses distinct scores).
* scikit-learn ``ndcg_score`` for ``ideal="list"`` (distinct scores: it averages over ties).
"""

from __future__ import annotations

import math
import shutil
from typing import Any

import numpy as np
import pytest

from ndcg_studio.domain.metrics.measures import ScoringParams, score
from tests.domain.conftest import Case, make_case

ir_measures = pytest.importorskip("ir_measures")
sklearn_metrics = pytest.importorskip("sklearn.metrics")


def random_case(
    seed: int,
    *,
    n_queries: int = 30,
    n_docs: int = 60,
    ties: bool = True,
    grades: tuple[int, ...] = (-1, 0, 0, 1, 2, 3),
    missing: int = 3,
    unjudged_queries: int = 2,
) -> tuple[Case, dict[str, dict[str, float]], list[Any]]:
    """One run over numeric query ids. Returns the case, the run dict and ir-measures qrels.

    The last ``missing`` judged queries get no results (empty groups); the last
    ``unjudged_queries`` run queries have no judgments.
    """
    rng = np.random.default_rng(seed)
    docs = [f"D{rng.integers(0, 10**6):06d}" for _ in range(n_docs)]
    docs = sorted(set(docs))
    queries = [str(100 + i) for i in range(n_queries)]
    judged_queries = queries[: n_queries - unjudged_queries]
    judgments: dict[tuple[str, str], float] = {}
    for q in judged_queries:
        for d in rng.choice(docs, size=int(rng.integers(1, len(docs) // 2)), replace=False):
            judgments[(q, str(d))] = float(rng.choice(grades))
    run: dict[str, dict[str, float]] = {}
    groups = []
    for i, q in enumerate(queries):
        if i in range(n_queries - unjudged_queries - missing, n_queries - unjudged_queries):
            groups.append((q, []))
            continue
        size = int(rng.integers(1, len(docs)))
        chosen = [str(d) for d in rng.choice(docs, size=size, replace=False)]
        if ties:
            values = np.round(rng.integers(0, 8, size=size) / 4.0, 2)
        else:
            values = rng.permutation(size) + rng.random() / 2
        run[q] = {d: float(s) for d, s in zip(chosen, values, strict=True)}
        groups.append((q, list(run[q].items())))
    qrels = [ir_measures.Qrel(q, d, int(g)) for (q, d), g in judgments.items()]
    return make_case(groups, judgments), run, qrels


def per_query(measure: Any, qrels: list[Any], run: dict[str, dict[str, float]], provider: Any):
    return {m.query_id: m.value for m in provider.iter_calc([measure], qrels, run)}


def assert_same(
    case: Case,
    ours: np.ndarray,
    theirs: dict[str, float],
    tol: float,
    skipped: float = math.nan,
) -> None:
    """Equal on the queries the peer reports; ``skipped`` (NaN: no value) on the others."""
    checked = 0
    for g, (query, _) in enumerate(case.groups):
        if query in theirs:
            assert ours[g] == pytest.approx(theirs[query], abs=tol), query
            checked += 1
        else:  # the peer skips queries without judgments
            assert case.lists.group_query[g] not in case.qrels.query
            np.testing.assert_equal(ours[g], skipped, err_msg=query)
    assert checked >= 10


@pytest.mark.parametrize("seed", range(6))
def test_against_pytrec_eval_provider(seed: int) -> None:
    case, run, qrels = random_case(seed)
    provider = ir_measures.pytrec_eval
    for k in (1, 5, 10, 20, None):
        measure = ir_measures.nDCG @ k if k else ir_measures.nDCG
        table = score(case.lists, case.qrels, ScoringParams(k=k))
        assert_same(case, table.ndcg, per_query(measure, qrels, run, provider), 1e-9)
    for k, rel in ((5, 1), (10, 1), (10, 2)):
        table = score(case.lists, case.qrels, ScoringParams(k=k, relevance_threshold=rel))
        measure = ir_measures.P(rel=rel) @ k
        assert_same(case, table.precision, per_query(measure, qrels, run, provider), 1e-9)
        measure = ir_measures.RR(rel=rel)
        assert_same(case, table.rr, per_query(measure, qrels, run, provider), 1e-9)
    # the empty groups exist and score 0, as the peer's "missing from the run" queries
    empty = np.flatnonzero(score(case.lists, case.qrels).n_returned == 0)
    assert empty.size == 3


@pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval.pl needs perl")
@pytest.mark.parametrize("seed", range(4))
def test_exponential_ndcg_and_err_against_gdeval(seed: int) -> None:
    case, run, qrels = random_case(seed, grades=(-1, 0, 0, 1, 2, 3, 4), missing=0)
    provider = ir_measures.gdeval
    for k in (1, 5, 10, 20):
        table = score(case.lists, case.qrels, ScoringParams(k=k, gain="exponential"))
        measure = ir_measures.nDCG(dcg="exp-log2") @ k
        theirs = per_query(measure, qrels, run, provider)
        # gdeval reports only queries with a positive judgment, rounded to 5 decimals.
        for g, (query, _) in enumerate(case.groups):
            if query in theirs:
                assert table.ndcg[g] == pytest.approx(theirs[query], abs=6e-6), (k, query)
            else:
                assert table.idcg_zero[g] or not table.has_judgments[g]
        theirs = per_query(ir_measures.ERR @ k, qrels, run, provider)
        for g, (query, _) in enumerate(case.groups):
            if query in theirs:
                assert table.err[g] == pytest.approx(theirs[query], abs=6e-6), (k, query)


@pytest.mark.parametrize("seed", range(3))
def test_judged_at_k_against_ir_measures(seed: int) -> None:
    case, run, qrels = random_case(seed, ties=False, missing=0)
    for k in (5, 10, 50):
        table = score(case.lists, case.qrels, ScoringParams(k=k))
        theirs = per_query(ir_measures.Judged @ k, qrels, run, ir_measures.judged)
        # a query without judgments has nothing judged: 0 here (a coverage measure)
        assert_same(case, table.judged_at_k, theirs, 1e-12, skipped=0.0)


@pytest.mark.parametrize("seed", range(5))
def test_list_ideal_against_sklearn_ndcg_score(seed: int) -> None:
    case, _run, _ = random_case(seed, ties=False, grades=(0, 0, 1, 2, 3, 4), missing=0)
    for k in (1, 3, 10, None):
        table = score(case.lists, case.qrels, ScoringParams(k=k, ideal="list"))
        checked = 0
        for g, (query, items) in enumerate(case.groups):
            if len(items) < 2 or not table.has_judgments[g]:
                continue
            y_true = [[case.judgments.get((query, d), 0.0) for d, _ in items]]
            y_score = [[s for _, s in items]]
            expected = sklearn_metrics.ndcg_score(y_true, y_score, k=k)
            assert table.ndcg[g] == pytest.approx(expected, abs=1e-12), (k, query)
            checked += 1
        assert checked >= 10
