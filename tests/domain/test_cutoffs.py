"""Every cutoff in one pass (:func:`cutoff_measures`) equals, to the last bit, the measures one
cutoff at a time (:func:`score` for P@K and nDCG@K, :func:`incomplete_measures` for recall@K
and AP@K), and the whole-list length, RR and nDCG equal :func:`score` without a cutoff, the
whole-list AP :func:`incomplete_measures`: ties, unjudged documents, -1 grades, queries
without judgments or results."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.metrics.cutoffs import cutoff_measures
from ndcg_studio.domain.metrics.incomplete import incomplete_measures, run_rows
from ndcg_studio.domain.metrics.measures import ScoringParams, score
from tests.domain.conftest import make_case

CUTOFFS = (1, 2, 3, 5, 10, 20)


@st.composite
def cases(draw: st.DrawFn) -> object:
    n_queries = draw(st.integers(1, 5))
    groups, judgments = [], {}
    for q in range(n_queries):
        docs = [f"d{i}" for i in range(draw(st.integers(0, 25)))]
        for d in docs:
            if draw(st.booleans()):
                judgments[f"q{q}", d] = float(draw(st.integers(-1, 4)))
        scores = draw(st.lists(st.integers(0, 4), min_size=len(docs), max_size=len(docs)))
        if docs and draw(st.integers(0, 4)):  # some queries return nothing
            groups.append((f"q{q}", [(d, s / 2.0) for d, s in zip(docs, scores, strict=True)]))
    if not groups:
        groups.append(("q0", [("d0", 1.0)]))
    return make_case(groups, judgments)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.array_equal(a, b, equal_nan=True))


@settings(max_examples=200, deadline=None)
@given(
    case=cases(),
    threshold=st.sampled_from([1.0, 2.0]),
    gain=st.sampled_from(["linear", "exponential"]),
)
def test_one_pass_equals_one_cutoff_at_a_time(case: object, threshold: float, gain: str) -> None:
    lists, qrels = case.lists, case.qrels  # type: ignore[attr-defined]
    params = ScoringParams(k=None, relevance_threshold=threshold, gain=gain)  # type: ignore[arg-type]
    table = cutoff_measures(lists, qrels, params, CUTOFFS)
    for j, k in enumerate(CUTOFFS):
        at_k = ScoringParams(k=k, relevance_threshold=threshold, gain=gain)  # type: ignore[arg-type]
        scored = score(lists, qrels, at_k)
        extra = incomplete_measures(lists, qrels, at_k, condensed=False)
        assert _same(table.precision[:, j], scored.precision), k
        assert _same(table.ndcg[:, j], scored.ndcg), k
        assert _same(table.recall[:, j], extra.recall), k
        assert _same(table.ap[:, j], extra.ap_at_k), k
    whole = score(lists, qrels, params)
    assert np.array_equal(table.n_returned, whole.n_returned)
    assert _same(table.rr, whole.rr)
    assert _same(table.ndcg_whole, whole.ndcg)
    assert _same(table.ap_whole, incomplete_measures(lists, qrels, params, condensed=False).ap)
    # the rows found by the caller (run_rows, linear gains): the same table, gains included
    given = cutoff_measures(lists, qrels, params, CUTOFFS, rows=run_rows(lists, qrels, params))
    for name in ("precision", "recall", "ndcg", "ap", "n_returned", "rr", "ndcg_whole", "ap_whole"):
        assert _same(getattr(given, name), getattr(table, name)), name


def test_a_cutoff_below_one_is_refused() -> None:
    case = make_case([("q", [("a", 1.0)])], {("q", "a"): 1.0})
    with pytest.raises(ValueError, match="cutoffs must be >= 1"):
        cutoff_measures(case.lists, case.qrels, ScoringParams(), [0, 5])


@pytest.mark.parametrize(
    "lengths",
    [(20, 20, 19), (40, 1, 1, 1)],  # lists of similar length (running sums), and one long list
)
def test_both_ways_of_summing_equal_score(lengths: tuple[int, ...]) -> None:
    rng = np.random.default_rng(7)
    groups, judgments = [], {}
    for q, n in enumerate(lengths):
        docs = [f"d{i}" for i in range(n)]
        groups.append((f"q{q}", [(d, float(rng.integers(0, 3))) for d in docs]))
        judgments.update({(f"q{q}", d): float(rng.integers(-1, 5)) for d in docs[::2]})
    case = make_case(groups, judgments)
    params = ScoringParams(k=None, gain="exponential")
    table = cutoff_measures(case.lists, case.qrels, params, CUTOFFS)
    for j, k in enumerate(CUTOFFS):
        scored = score(case.lists, case.qrels, ScoringParams(k=k, gain="exponential"))
        assert _same(table.ndcg[:, j], scored.ndcg), k
        assert _same(table.precision[:, j], scored.precision), k
    assert _same(table.ndcg_whole, score(case.lists, case.qrels, params).ndcg)
    whole = incomplete_measures(case.lists, case.qrels, params, condensed=False)
    assert _same(table.ap_whole, whole.ap)
