"""Measures for incomplete judgments against trec_eval, pytrec_eval/ir-measures and a plain loop.

* tests/data/trec_eval_test/out.test.aql: ``trec_eval -m all_trec -q -l2 qrels.rel_level
  results.test`` (map, map_cut.K, recall.K, bpref, rbp and rbp_resid with trec_eval's p = 0.9;
  threshold 2; the qrels hold -1 grades).
* tests/data/trec_dl19_passage/expected.trec_eval.q.all_trec.txt: ``trec_eval -c -q -m all_trec``
  on TREC DL 2019 passage, BM25 top 1000 (threshold 1).
* /work/shared/data/trec_dl19_passage/expected.trec_eval.q.l2.cutoffs.txt (``-l 2``) and
  /work/shared/data/trec_eval_test/out.test.aq (binary qrels.test); skipped without
  /work/shared.
trec_eval prints 4 decimals: tolerance 1e-4 (half a unit of the last digit plus rounding).
pytrec_eval (trec_eval 9 compiled in) and ir-measures on the same data: 1e-9.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.metrics.incomplete import (
    incomplete_measures,
    inferred_ap,
    ndcg_rel,
    recall_precision,
    run_rows,
)
from ndcg_studio.domain.metrics.measures import ScoringParams, score
from tests.domain.conftest import make_case
from tests.domain.test_cutoffs import cases
from tests.domain.test_metrics_trec_eval import DL19, TE, Trec

SHARED_DL19 = Path("/work/shared/data/trec_dl19_passage")
SHARED_TE = Path("/work/shared/data/trec_eval_test")
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
TOL = 1e-4


def read_trec_eval(path: Path) -> dict[str, dict[str, float]]:
    """``trec_eval -q`` output -> {measure: {query id or 'all': value}} (numeric lines only)."""
    out: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        measure, query, value = line.split()
        try:
            out.setdefault(measure, {})[query] = float(value)
        except ValueError:
            continue
    return out


def assert_per_query(values: np.ndarray, ids: list[str], expected: dict[str, float]) -> None:
    got = dict(zip(ids, values.tolist(), strict=True))
    for query, value in expected.items():
        if query == "all":
            assert float(np.nanmean(values)) == pytest.approx(value, abs=TOL)
        else:
            assert got[query] == pytest.approx(value, abs=TOL), query


def check_against_trec_eval(data: Trec, expected: dict[str, dict[str, float]], level: int) -> None:
    whole = incomplete_measures(
        data.lists, data.qrels, ScoringParams(k=None, relevance_threshold=level)
    )
    assert_per_query(whole.ap, data.group_ids, expected["map"])
    assert_per_query(whole.bpref, data.group_ids, expected["bpref"])
    graded = incomplete_measures(
        data.lists,
        data.qrels,
        ScoringParams(k=None, relevance_threshold=level),
        persistence=0.9,
        rbp_gain="graded",
    )
    assert_per_query(graded.rbp, data.group_ids, expected["rbp"])
    # trec_eval's rbp_resid leaves the tail out (reports 0) when nothing is unjudged
    trec_resid = np.where(graded.n_unjudged > 0, graded.rbp_residual, 0.0)
    assert_per_query(trec_resid, data.group_ids, expected["rbp_resid"])
    for k in CUTOFFS:
        table = incomplete_measures(
            data.lists, data.qrels, ScoringParams(k=k, relevance_threshold=level)
        )
        assert_per_query(table.ap_at_k, data.group_ids, expected[f"map_cut_{k}"])
        assert_per_query(table.recall, data.group_ids, expected[f"recall_{k}"])
        np.testing.assert_array_equal(table.ap, whole.ap)


def test_trec_eval_test_suite_graded_with_minus_one_grades() -> None:
    data = Trec(TE / "results.test", TE / "qrels.rel_level", all_qrels_queries=False)
    expected = read_trec_eval(TE / "out.test.aql")
    table = incomplete_measures(data.lists, data.qrels, ScoringParams(relevance_threshold=2))
    assert (table.n_unjudged > 0).all()  # the residual is compared on real holes
    check_against_trec_eval(data, expected, level=2)


@pytest.mark.skipif(not SHARED_TE.is_dir(), reason="needs /work/shared/data/trec_eval_test")
def test_trec_eval_test_suite_binary() -> None:
    # out.test.aq = trec_eval -a -q qrels.test results.test: binary qrels, threshold 1
    data = Trec(SHARED_TE / "results.test", SHARED_TE / "qrels.test", all_qrels_queries=True)
    check_against_trec_eval(data, read_trec_eval(SHARED_TE / "out.test.aq"), level=1)


def test_trec_dl19_all_trec() -> None:
    data = Trec(
        DL19 / "run.bm25-default.dl19.txt", DL19 / "qrels.dl19-passage.txt", all_qrels_queries=True
    )
    check_against_trec_eval(data, read_trec_eval(DL19 / "expected.trec_eval.q.all_trec.txt"), 1)


@pytest.mark.skipif(not SHARED_DL19.is_dir(), reason="needs /work/shared/data/trec_dl19_passage")
def test_trec_dl19_threshold_two() -> None:
    data = Trec(
        SHARED_DL19 / "run.bm25-default.dl19.txt",
        SHARED_DL19 / "qrels.dl19-passage.txt",
        all_qrels_queries=True,
    )
    expected = read_trec_eval(SHARED_DL19 / "expected.trec_eval.q.l2.cutoffs.txt")
    for k in (10, 100):
        table = incomplete_measures(
            data.lists, data.qrels, ScoringParams(k=k, relevance_threshold=2)
        )
        assert_per_query(table.ap_at_k, data.group_ids, expected[f"map_cut_{k}"])
    table = incomplete_measures(
        data.lists, data.qrels, ScoringParams(k=1000, relevance_threshold=2)
    )
    assert_per_query(table.recall, data.group_ids, expected["recall_1000"])


# --- pytrec_eval and ir-measures on real data (1e-9) ------------------------------------------


@pytest.fixture(scope="module")
def dl19() -> Trec:
    return Trec(
        DL19 / "run.bm25-default.dl19.txt", DL19 / "qrels.dl19-passage.txt", all_qrels_queries=True
    )


def trec_dicts(data: Trec) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    qrels: dict[str, dict[str, int]] = {}
    for q, d, g in zip(data.qrels.query, data.qrels.doc, data.qrels.grade, strict=True):
        qrels.setdefault(data.query_ids[q], {})[data.doc_ids[d]] = int(g)
    run: dict[str, dict[str, float]] = {}
    for g, d, s in zip(data.lists.group, data.lists.doc, data.lists.score, strict=True):
        run.setdefault(data.group_ids[g], {})[data.doc_ids[d]] = float(s)
    return qrels, run


@pytest.mark.parametrize("level", [1, 2])
def test_pytrec_eval_to_1e9(dl19: Trec, level: int) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = trec_dicts(dl19)
    measures = {"map", "map_cut.10,100", "recall.10,100,1000", "bpref"}
    plain = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)
    judged_only = pytrec_eval.RelevanceEvaluator(
        qrels, {"ndcg_cut.10,100"}, judged_docs_only_flag=True
    ).evaluate(run)
    ids = dl19.group_ids
    for k in (10, 100):
        table = incomplete_measures(
            dl19.lists, dl19.qrels, ScoringParams(k=k, relevance_threshold=level)
        )
        for i, q in enumerate(ids):
            assert table.ap_at_k[i] == pytest.approx(plain[q][f"map_cut_{k}"], abs=1e-9)
            assert table.recall[i] == pytest.approx(plain[q][f"recall_{k}"], abs=1e-9)
            assert table.ndcg_condensed[i] == pytest.approx(
                judged_only[q][f"ndcg_cut_{k}"], abs=1e-9
            )
            assert table.ap[i] == pytest.approx(plain[q]["map"], abs=1e-9)
            assert table.bpref[i] == pytest.approx(plain[q]["bpref"], abs=1e-9)
    # the top 10 of this BM25 run were pooled; deeper, the holes move nDCG' away from nDCG
    condensed = incomplete_measures(dl19.lists, dl19.qrels, ScoringParams(k=100)).ndcg_condensed
    plain_ndcg = score(dl19.lists, dl19.qrels, ScoringParams(k=100)).ndcg
    assert np.sum(np.abs(condensed - plain_ndcg) > 1e-3) >= 10


def test_ir_measures_to_1e9(dl19: Trec) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, Bpref, R, nDCG

    qrels, run = trec_dicts(dl19)
    wanted = [nDCG(judged_only=True) @ 10, AP, AP @ 100, R @ 1000, Bpref, AP(rel=2), Bpref(rel=2)]
    got: dict[tuple[str, str], float] = {}
    for m in ir_measures.iter_calc(wanted, qrels, run):
        got[(str(m.measure), m.query_id)] = m.value
    at10 = incomplete_measures(dl19.lists, dl19.qrels, ScoringParams(k=10))
    at100 = incomplete_measures(dl19.lists, dl19.qrels, ScoringParams(k=100))
    at1000 = incomplete_measures(dl19.lists, dl19.qrels, ScoringParams(k=1000))
    level2 = incomplete_measures(dl19.lists, dl19.qrels, ScoringParams(relevance_threshold=2))
    for i, q in enumerate(dl19.group_ids):
        assert at10.ndcg_condensed[i] == pytest.approx(
            got[("nDCG(judged_only=True)@10", q)], abs=1e-9
        )
        assert at10.ap[i] == pytest.approx(got[("AP", q)], abs=1e-9)
        assert at100.ap_at_k[i] == pytest.approx(got[("AP@100", q)], abs=1e-9)
        assert at1000.recall[i] == pytest.approx(got[("R@1000", q)], abs=1e-9)
        assert at10.bpref[i] == pytest.approx(got[("Bpref", q)], abs=1e-9)
        assert level2.ap[i] == pytest.approx(got[("AP(rel=2)", q)], abs=1e-9)
        assert level2.bpref[i] == pytest.approx(got[("Bpref(rel=2)", q)], abs=1e-9)


# --- a plain loop on random data with every edge case -----------------------------------------


def loop_measures(
    ranked: list[str], grades: dict[str, float], k: int | None, t: float, p: float
) -> dict[str, float]:
    """The definitions of the module docstring, one list, written out."""
    if not grades:
        return dict.fromkeys(("ap", "ap_at_k", "recall", "bpref", "rbp", "rbp_residual"), math.nan)
    big_r = sum(1 for g in grades.values() if g >= t)
    big_n = sum(1 for g in grades.values() if 0 <= g < t)
    cut = len(ranked) if k is None else k
    ap = ap_k = 0.0
    found = found_k = 0
    nonrel = 0
    bpref = rbp = resid = 0.0
    for i, doc in enumerate(ranked):
        g = grades.get(doc)
        judged = g is not None and g >= 0
        if judged and g >= t:  # type: ignore[operator]
            found += 1
            ap += found / (i + 1)
            if i < cut:
                found_k += 1
                ap_k += found / (i + 1)
            bpref += 1.0 if nonrel == 0 else 1.0 - min(nonrel, big_r) / min(big_n, big_r)
            rbp += (1 - p) * p**i
        elif judged:
            nonrel += 1
        if not judged:
            resid += (1 - p) * p**i
    resid += p ** len(ranked)
    div = big_r if big_r else 1
    return {
        "ap": ap / div,
        "ap_at_k": ap_k / div,
        "recall": found_k / div,
        "bpref": bpref / div,
        "rbp": rbp,
        "rbp_residual": resid,
    }


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    k=st.sampled_from([None, 1, 3, 10]),
    threshold=st.sampled_from([1.0, 2.0, 0.5]),
    p=st.sampled_from([0.5, 0.8, 0.95]),
)
def test_against_a_plain_loop(seed: int, k: int | None, threshold: float, p: float) -> None:
    rng = np.random.default_rng(seed)
    docs = [f"d{i:02d}" for i in range(25)]
    groups = []
    judgments: dict[tuple[str, str], float] = {}
    for q in ("q1", "q2", "q3", "q4"):
        for d in docs:
            if q != "q4" and rng.random() < 0.5:  # q4: no judgment at all
                judgments[(q, d)] = float(rng.choice([-1, 0, 0, 1, 2, 3]))
    for q in ("q1", "q2", "q3", "q4"):
        for _ in range(2):  # two runs
            chosen = rng.choice(docs, size=int(rng.integers(0, 12)), replace=False)
            groups.append((q, [(d, float(rng.integers(0, 4))) for d in chosen]))  # ties
    case = make_case(groups, judgments)
    table = incomplete_measures(
        case.lists, case.qrels, ScoringParams(k=k, relevance_threshold=threshold), persistence=p
    )
    for g, (q, items) in enumerate(groups):
        ranked = [
            d for d, _ in sorted(items, key=lambda item: (-item[1], [-ord(c) for c in item[0]]))
        ]
        grades = {d: v for (qq, d), v in judgments.items() if qq == q}
        expected = loop_measures(ranked, grades, k, threshold, p)
        for name, value in expected.items():
            got = getattr(table, name)[g]
            if math.isnan(value):
                assert math.isnan(got), name
            else:
                assert got == pytest.approx(value, abs=1e-12), (name, g)


def test_condensed_ndcg_removes_holes() -> None:
    # d1 relevant, d2 unjudged, d3 relevant: nDCG'@2 ranks d1, d3 -> ideal; plain nDCG@2 does not
    case = make_case(
        [("q", [("d1", 3.0), ("d2", 2.0), ("d3", 1.0)])],
        {("q", "d1"): 1.0, ("q", "d3"): 1.0, ("q", "d9"): 0.0},
    )
    table = incomplete_measures(case.lists, case.qrels, ScoringParams(k=2))
    assert table.ndcg_condensed[0] == pytest.approx(1.0)
    assert score(case.lists, case.qrels, ScoringParams(k=2)).ndcg[0] < 1.0
    assert table.n_unjudged.tolist() == [1]
    assert table.rbp_residual[0] == pytest.approx(0.2 * 0.8 + 0.8**3)


def test_bad_parameters() -> None:
    case = make_case([("q", [("d1", 1.0)])], {("q", "d1"): 1.0})
    with pytest.raises(ValueError, match="persistence"):
        incomplete_measures(case.lists, case.qrels, persistence=1.0)
    with pytest.raises(ValueError, match="rbp_gain"):
        incomplete_measures(case.lists, case.qrels, rbp_gain="exp")  # type: ignore[arg-type]


def test_without_condensed_ndcg_the_other_measures_are_unchanged(dl19: Trec) -> None:
    params = ScoringParams(k=10, relevance_threshold=2)
    full = incomplete_measures(dl19.lists, dl19.qrels, params)
    lean = incomplete_measures(dl19.lists, dl19.qrels, params, condensed=False)
    assert np.isnan(lean.ndcg_condensed).all() and not np.isnan(full.ndcg_condensed).all()
    for name, column in full.as_dict().items():
        if name != "ndcg_condensed":
            np.testing.assert_array_equal(lean.as_dict()[name], column)


@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_rows_found_at_another_threshold_give_the_same_measures(case: object) -> None:
    """:func:`run_rows` counts the relevant documents at its own threshold; measures at another
    threshold count them again, and equal those found without the caller's rows."""
    lists, qrels = case.lists, case.qrels  # type: ignore[attr-defined]
    at_one = run_rows(lists, qrels, ScoringParams(relevance_threshold=1.0))
    at_two = ScoringParams(relevance_threshold=2.0)
    for name in ("inferred_ap", "ndcg_rel"):
        compute = {"inferred_ap": inferred_ap, "ndcg_rel": ndcg_rel}[name]
        np.testing.assert_array_equal(
            compute(lists, qrels, at_two, rows=at_one), compute(lists, qrels, at_two), name
        )
    given_rows = incomplete_measures(lists, qrels, at_two, condensed=False, rows=at_one)
    own = incomplete_measures(lists, qrels, at_two, condensed=False)
    for field in ("ap", "recall", "bpref", "rbp", "n_relevant", "n_nonrelevant"):
        np.testing.assert_array_equal(getattr(given_rows, field), getattr(own, field), field)
    np.testing.assert_array_equal(
        recall_precision(lists, qrels, at_two, rows=at_one)[1],
        recall_precision(lists, qrels, at_two)[1],
    )
