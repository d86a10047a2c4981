"""Property tests of score(): a plain per-group reference implementation, bounds, monotonicity.

The reference below is written from the definitions (trec_eval m_ndcg_cut.c / m_ndcg.c,
form_res_rels.c; Chapelle et al. 2009 for ERR) with a Python loop per group and Python's own
byte-string sort for the tie break, independently of the vectorised engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.metrics import kernels
from ndcg_studio.domain.metrics.breakdown import breakdown
from ndcg_studio.domain.metrics.grade_sets import grade_set_table, ndcg_of_each
from ndcg_studio.domain.metrics.measures import (
    Qrels,
    RankedLists,
    ScoringParams,
    rank_groups,
    score,
)
from tests.domain.conftest import Case, make_case

INTEGER_GRADES = [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0]
FRACTIONAL_GRADES = [-1.0, 0.0, 0.5, 1.0, 1.25, 2.0, 2.5, 3.0, 4.0]
SCORES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0]  # few values: many ties
DOC_ALPHABET = "aZzé0_"


# --- reference implementation -----------------------------------------------------------------


def ref_gain(grade: float | None, gain: str | Mapping[int, float]) -> float:
    if grade is None or grade < 0:
        return 0.0
    if gain == "linear":
        return grade
    if gain == "exponential":
        return 2.0**grade - 1.0
    assert isinstance(gain, Mapping)
    return float(gain.get(int(grade), grade))


def ref_dcg(gains: Sequence[float]) -> float:
    return sum(g / math.log2(r + 1) for r, g in enumerate(gains, start=1))


def reference(case: Case, params: ScoringParams) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {
        name: []
        for name in (
            "ndcg",
            "dcg",
            "idcg",
            "cg",
            "precision",
            "rr",
            "rr_at_k",
            "err",
            "judged_at_k",
            "n_returned",
            "n_judged_query",
            "idcg_zero",
            "has_judgments",
        )
    }
    for query, items in case.groups:
        ranked = sorted(items, key=lambda it: it[0].encode("utf-8"), reverse=True)
        if params.order == "score":
            ranked = sorted(ranked, key=lambda it: -it[1])
        else:
            ranked = sorted(ranked, key=lambda it: it[2])  # type: ignore[misc]
        grades = [case.judgments.get((query, it[0])) for it in ranked]
        gains = [ref_gain(g, params.gain) for g in grades]
        depth = len(ranked) if params.k is None else params.k
        top_grades, top_gains = grades[:depth], gains[:depth]
        query_grades = [g for (q, _), g in case.judgments.items() if q == query]
        if params.ideal == "judged":
            pool = [ref_gain(g, params.gain) for g in query_grades]
        else:
            pool = list(gains)
        ideal = sorted((g for g in pool if g > 0), reverse=True)
        if params.k is not None:  # no cutoff: trec_eval ``ndcg`` keeps the whole ideal list
            ideal = ideal[: params.k]
        dcg, idcg = ref_dcg(top_gains), ref_dcg(ideal)
        has = len(query_grades) > 0
        thr = params.relevance_threshold
        relevant = [g is not None and g >= thr for g in grades]
        first = next((r for r, rel in enumerate(relevant, start=1) if rel), None)
        err, decay = 0.0, 1.0
        for r, g in enumerate(top_grades, start=1):
            clipped = min(max(g if g is not None else 0.0, 0.0), params.err_max_grade)
            stop = (2.0**clipped - 1.0) / 2.0**params.err_max_grade
            err += decay * stop / r
            decay *= 1.0 - stop
        n_rel_top = sum(relevant[:depth])
        if params.k is not None:
            precision = n_rel_top / params.k
        else:
            precision = n_rel_top / len(ranked) if ranked else 0.0
        nan = math.nan
        out["ndcg"].append((dcg / idcg if idcg > 0 else 0.0) if has else nan)
        out["dcg"].append(dcg)
        out["idcg"].append(idcg)
        out["cg"].append(sum(top_gains))
        out["precision"].append(precision if has else nan)
        out["rr"].append((1.0 / first if first else 0.0) if has else nan)
        out["rr_at_k"].append((1.0 / first if first and first <= depth else 0.0) if has else nan)
        out["err"].append(err if has else nan)
        judged_top = sum(g is not None for g in top_grades)
        out["judged_at_k"].append(judged_top / len(top_grades) if top_grades else nan)
        out["n_returned"].append(len(ranked))
        out["n_judged_query"].append(len(query_grades))
        out["idcg_zero"].append(has and not idcg > 0)
        out["has_judgments"].append(has)
    return out


# --- strategies -------------------------------------------------------------------------------


@st.composite
def cases(draw: st.DrawFn, *, fractional: bool | None = None) -> Case:
    if fractional is None:
        fractional = draw(st.booleans())
    grade_values = FRACTIONAL_GRADES if fractional else INTEGER_GRADES
    n_queries = draw(st.integers(1, 4))
    doc_ids = draw(
        st.lists(
            st.text(DOC_ALPHABET, min_size=1, max_size=3), min_size=1, max_size=12, unique=True
        )
    )
    queries = [f"q{i}" for i in range(n_queries)]
    judgments: dict[tuple[str, str], float] = {}
    for q in queries:
        judged = draw(st.lists(st.sampled_from(doc_ids), unique=True, max_size=len(doc_ids)))
        for d in judged:
            judgments[(q, d)] = draw(st.sampled_from(grade_values))
    groups: list[tuple[str, list[tuple[str, float, int]]]] = []
    for _run in range(draw(st.integers(1, 3))):
        for q in draw(st.permutations(queries)):
            docs = draw(st.lists(st.sampled_from(doc_ids), unique=True, max_size=len(doc_ids)))
            items = [
                (d, draw(st.sampled_from(SCORES)), draw(st.integers(1, len(docs)))) for d in docs
            ]
            groups.append((q, items))
    return make_case(groups, judgments)


def shuffled(case: Case, perm: Sequence[int]) -> RankedLists:
    p = np.asarray(perm, dtype=np.intp)
    lists = case.lists
    return RankedLists(
        group=lists.group[p],
        doc=lists.doc[p],
        score=lists.score[p],
        rank=lists.rank[p],
        group_query=lists.group_query,
        doc_key=lists.doc_key,
    )


def gains(*, integer: bool, nonnegative: bool) -> st.SearchStrategy[Any]:
    options: list[st.SearchStrategy[Any]] = [st.sampled_from(["linear", "exponential"])]
    if integer:
        low = 0.0 if nonnegative else -2.0
        options.append(
            st.dictionaries(
                st.integers(0, 4),
                # no subnormal gains: dividing by an IDCG of 1e-320 overflows (to +-inf)
                st.floats(low, 10.0, allow_nan=False, allow_infinity=False, allow_subnormal=False),
            )
        )
    return st.one_of(*options)


@st.composite
def params_for(draw: st.DrawFn, case: Case, *, nonnegative: bool = False) -> ScoringParams:
    integer = all(float(g).is_integer() for g in case.judgments.values())
    return ScoringParams(
        k=draw(st.one_of(st.none(), st.integers(1, 14))),
        gain=draw(gains(integer=integer, nonnegative=nonnegative)),
        ideal=draw(st.sampled_from(["judged", "list"])),
        order=draw(st.sampled_from(["score", "rank"])),
        relevance_threshold=draw(st.sampled_from([0.5, 1.0, 2.0, 3.0])),
        err_max_grade=draw(st.sampled_from([1.0, 2.0, 4.0])),
    )


def assert_matches_reference(table: Any, expected: dict[str, list[float]]) -> None:
    for name, values in expected.items():
        got = getattr(table, name)
        np.testing.assert_allclose(
            got.astype(float), np.array(values, dtype=float), rtol=1e-10, atol=1e-12, err_msg=name
        )


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_score_equals_per_group_reference(data: st.DataObject) -> None:
    case = data.draw(cases())
    params = data.draw(params_for(case))
    perm = data.draw(st.permutations(range(case.lists.group.size)))
    expected = reference(case, params)
    assert_matches_reference(score(case.lists, case.qrels, params), expected)
    # Row order of the input does not matter.
    assert_matches_reference(score(shuffled(case, perm), case.qrels, params), expected)
    # Nor does the layout: force the flat-sort path (no padded group matrix).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernels, "_MATRIX_FILL", 0)
        patch.setattr(kernels, "_MATRIX_SLACK", 0)
        assert_matches_reference(score(shuffled(case, perm), case.qrels, params), expected)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_ndcg_under_several_qrels_equals_score_under_each(data: st.DataObject) -> None:
    """Each row of ndcg_of_each is score(...).ndcg to the bit: qrels in any order, subsets,
    other grades, an empty set, and a document judged that no run returned."""
    case = data.draw(cases())
    params = replace(data.draw(params_for(case)), ideal="judged")
    q, d = case.qrels.query, case.qrels.doc
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(q), max_size=len(q))), bool)
    regraded = np.array(
        data.draw(
            st.lists(st.sampled_from([-1.0, 0.0, 1.0, 3.0]), min_size=len(q), max_size=len(q))
        )
    )
    unreturned = int(case.lists.doc_key.shape[0]) + 2  # judged, in no list, beyond doc_key
    extra = Qrels(np.r_[q, 0], np.r_[d, unreturned], np.r_[regraded, 2.0])
    empty = Qrels(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    # custom gains are drawn only for integer grades: every set here has them then
    sets = [case.qrels, Qrels(q[keep], d[keep], regraded[keep]), empty, extra]
    prepared = grade_set_table(case.lists, sets, params)
    ranked = rank_groups(case.lists, params)
    for rows in (
        ndcg_of_each(case.lists, prepared, params),
        ndcg_of_each(case.lists, prepared, params, ranked=ranked),
    ):
        assert rows.shape == (len(sets), case.lists.n_groups)
        for row, qrels in zip(rows, sets, strict=True):
            assert row.tobytes() == score(case.lists, qrels, params).ndcg.tobytes()


def test_ndcg_under_several_qrels_refuses_the_ideal_from_the_list() -> None:
    lists = RankedLists([0], [0], [1.0], [1], [0], [0])
    qrels = Qrels([0], [0], [1.0])
    with pytest.raises(ValueError, match="ideal='judged'"):
        grade_set_table(lists, [qrels], ScoringParams(ideal="list"))
    sets = grade_set_table(lists, [qrels], ScoringParams())
    with pytest.raises(ValueError, match="ideal='judged'"):
        ndcg_of_each(lists, sets, ScoringParams(ideal="list"))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_breakdown_totals_equal_score(data: st.DataObject) -> None:
    case = data.draw(cases())
    params = data.draw(params_for(case))
    table = score(case.lists, case.qrels, params)
    for g in range(case.lists.n_groups):
        got = breakdown(case.lists, case.qrels, g, params)
        np.testing.assert_allclose(got.dcg, table.dcg[g], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got.idcg, table.idcg[g], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got.ndcg, table.ndcg[g], rtol=1e-12, atol=1e-15)
        if got.rank.size:
            assert got.cumulative_dcg[-1] == got.dcg
            np.testing.assert_allclose(got.discounted_gain, got.gain * got.discount, rtol=1e-15)
        if got.ideal_rank.size:
            assert got.ideal_cumulative_dcg[-1] == got.idcg
            assert np.all(np.diff(got.ideal_gain) <= 0)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_ndcg_lies_in_unit_interval_for_nonnegative_gains(data: st.DataObject) -> None:
    case = data.draw(cases())
    params = data.draw(params_for(case, nonnegative=True))
    ndcg = score(case.lists, case.qrels, params).ndcg
    values = ndcg[~np.isnan(ndcg)]
    assert np.all(values >= 0.0)
    assert np.all(values <= 1.0 + 1e-12)


@settings(max_examples=200, deadline=None)
@given(
    grades=st.lists(st.sampled_from([*INTEGER_GRADES, 0.5, 2.5]), min_size=1, max_size=15),
    unjudged=st.integers(0, 4),
    k=st.one_of(st.none(), st.integers(1, 20)),
    exponential=st.booleans(),
)
def test_ideal_order_scores_one(
    grades: list[float], unjudged: int, k: int | None, exponential: bool
) -> None:
    gain = "exponential" if exponential else "linear"
    gain_of = [ref_gain(g, gain) for g in grades]
    assume(max(gain_of) > 0)
    order = sorted(range(len(grades)), key=lambda i: -gain_of[i])
    n = len(grades) + unjudged
    items = [(f"d{i:02d}", float(n - pos)) for pos, i in enumerate(order)]
    items += [(f"u{j}", float(unjudged - j - len(grades))) for j in range(unjudged)]
    judgments = {("q", f"d{i:02d}"): g for i, g in enumerate(grades)}
    case = make_case([("q", items)], judgments)
    for ideal in ("judged", "list"):
        params = ScoringParams(k=k, gain=gain, ideal=ideal)  # type: ignore[arg-type]
        assert score(case.lists, case.qrels, params).ndcg[0] == np.float64(1.0) or np.isclose(
            score(case.lists, case.qrels, params).ndcg[0], 1.0, rtol=0, atol=1e-12
        )


@settings(max_examples=300, deadline=None)
@given(
    grades=st.lists(st.sampled_from([None, *INTEGER_GRADES, 2.5]), min_size=2, max_size=15),
    extra=st.lists(st.sampled_from([1.0, 2.0, 3.0]), max_size=3),
    pair=st.tuples(st.integers(0, 14), st.integers(0, 14)),
    k=st.one_of(st.none(), st.integers(1, 16)),
    gain=st.sampled_from(["linear", "exponential"]),
    ideal=st.sampled_from(["judged", "list"]),
)
def test_moving_a_better_document_down_never_raises_ndcg(
    grades: list[float | None],
    extra: list[float],
    pair: tuple[int, int],
    k: int | None,
    gain: str,
    ideal: str,
) -> None:
    i, j = sorted(p % len(grades) for p in pair)
    assume(i != j)
    gain_of = [ref_gain(g, gain) for g in grades]
    assume(gain_of[i] >= gain_of[j])
    docs = [f"d{x:02d}" for x in range(len(grades))]
    judgments = {("q", d): g for d, g in zip(docs, grades, strict=True) if g is not None}
    judgments |= {("q", f"x{m}"): g for m, g in enumerate(extra)}  # judged, not returned
    assume(judgments)
    scores = [float(len(docs) - x) for x in range(len(docs))]
    swapped = list(scores)
    swapped[i], swapped[j] = scores[j], scores[i]
    params = ScoringParams(k=k, gain=gain, ideal=ideal)  # type: ignore[arg-type]
    before = make_case([("q", list(zip(docs, scores, strict=True)))], judgments)
    after = make_case([("q", list(zip(docs, swapped, strict=True)))], judgments)
    a = score(before.lists, before.qrels, params).ndcg[0]
    b = score(after.lists, after.qrels, params).ndcg[0]
    assert b <= a + 1e-12


# --- grade look-ups -----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    queries=st.lists(st.integers(0, 4), min_size=1, max_size=30),
    grades=st.lists(st.sampled_from(INTEGER_GRADES), min_size=30, max_size=30),
    pairs=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 40)), max_size=60),
)
def test_the_look_up_by_document_finds_what_the_binary_search_finds(
    queries: list[int], grades: list[float], pairs: list[tuple[int, int]]
) -> None:
    """Judgment i of document i (as ``eval`` numbers documents): the gather path of
    ``Judgments.lookup`` gives the judged flags, grades and gains of the searched keys."""
    from dataclasses import replace

    from ndcg_studio.domain.metrics.measures import Qrels, judgments_of

    m = len(queries)
    qrels = Qrels(
        np.sort(np.asarray(queries, dtype=np.int64)),
        np.arange(m, dtype=np.int64),
        np.asarray(grades[:m], dtype=np.float64),
    )
    judgments = judgments_of(qrels, ScoringParams(gain="exponential"), 5, 41)
    assert judgments.query_of_doc is not None  # the gather path is the one taken
    searched = replace(judgments, query_of_doc=None)
    query = np.asarray([q for q, _d in pairs], dtype=np.int64)
    doc = np.asarray([d for _q, d in pairs], dtype=np.int64)
    for got, want in zip(judgments.lookup(query, doc), searched.lookup(query, doc), strict=True):
        np.testing.assert_array_equal(got, want)


def test_the_run_rows_grades_do_not_depend_on_the_gain() -> None:
    """The grades of the results (inferred AP, R-precision, bpref) are looked up whatever the
    gain: an exponential gain refuses grades above 100, the look-up does not."""
    from ndcg_studio.domain.metrics.incomplete import run_rows
    from ndcg_studio.domain.metrics.measures import Qrels

    lists = RankedLists(
        group=np.array([0, 0, 0]),
        doc=np.array([0, 1, 2]),
        score=np.array([3.0, 2.0, 1.0]),
        rank=np.array([1, 2, 3]),
        group_query=np.array([0]),
        doc_key=np.array([0, 1, 2]),
    )
    qrels = Qrels(np.array([0, 0]), np.array([0, 2]), np.array([150.0, 0.0]))
    with pytest.raises(ValueError, match="100"):  # the gain itself refuses the grade
        score(lists, qrels, ScoringParams(gain="exponential"))
    rows = run_rows(lists, qrels, ScoringParams(gain="exponential"))
    np.testing.assert_array_equal(rows.grade, [150.0, np.nan, 0.0])
