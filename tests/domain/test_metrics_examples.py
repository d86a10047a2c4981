"""score() and breakdown() on small hand-worked examples and edge cases."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from ndcg_studio.domain.metrics import kernels
from ndcg_studio.domain.metrics.breakdown import breakdown
from ndcg_studio.domain.metrics.measures import (
    Qrels,
    RankedLists,
    ScoringParams,
    gains_of_grades,
    score,
)
from ndcg_studio.domain.metrics.ordering import doc_order_key
from tests.domain.conftest import Case, make_case


def graded_list(grades: Sequence[float], query: str = "q") -> Case:
    """One list d0, d1, ... in that order (scores descending), every document judged."""
    items = [(f"d{i}", float(len(grades) - i)) for i in range(len(grades))]
    judgments = {(query, f"d{i}"): float(g) for i, g in enumerate(grades)}
    return make_case([(query, items)], judgments)


def dcg(gains: Sequence[float]) -> float:
    return sum(g / math.log2(r + 1) for r, g in enumerate(gains, start=1))


# --- hand-worked nDCG -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grades", "dcg5", "idcg5", "ndcg5"),
    [
        ([3, 2, 5, 0, 1], 7.149, 8.324, 0.859),
        ([4, 2, 0, 1, 3], 6.853, 7.323, 0.936),
        ([4, 1, 3, 4, 0], 7.854, 8.454, 0.929),
    ],
)
@pytest.mark.parametrize("ideal", ["list", "judged"])
def test_hand_worked_examples(
    grades: list[int], dcg5: float, idcg5: float, ndcg5: float, ideal: str
) -> None:
    # Every judged document is in the list, so both ideals agree here.
    case = graded_list(grades)
    table = score(case.lists, case.qrels, ScoringParams(k=5, ideal=ideal))  # type: ignore[arg-type]
    assert table.dcg[0] == pytest.approx(dcg5, abs=1e-3)
    assert table.idcg[0] == pytest.approx(idcg5, abs=1e-3)
    assert table.ndcg[0] == pytest.approx(ndcg5, abs=1e-3)


def test_exponential_gain_of_an_ideal_list_is_one() -> None:
    case = graded_list([3, 2, 1, 0])
    table = score(case.lists, case.qrels, ScoringParams(k=5, gain="exponential", ideal="list"))
    assert table.ndcg[0] == pytest.approx(1.0, abs=1e-12)
    assert table.dcg[0] == pytest.approx(7 + 3 / math.log2(3) + 1 / 2)


def test_judged_ideal_counts_relevant_documents_the_run_missed() -> None:
    # d9 (grade 3) is judged but not returned: it is in the judged ideal, not the list ideal.
    case = make_case(
        [("q", [("d1", 2.0), ("d2", 1.0)])], {("q", "d1"): 1, ("q", "d2"): 2, ("q", "d9"): 3}
    )
    judged = score(case.lists, case.qrels, ScoringParams(k=10))
    listed = score(case.lists, case.qrels, ScoringParams(k=10, ideal="list"))
    assert judged.idcg[0] == pytest.approx(dcg([3, 2, 1]))
    assert listed.idcg[0] == pytest.approx(dcg([2, 1]))
    assert judged.ndcg[0] == pytest.approx(dcg([1, 2]) / dcg([3, 2, 1]))
    assert listed.ndcg[0] == pytest.approx(dcg([1, 2]) / dcg([2, 1]))


def test_k_beyond_the_list_and_k_one() -> None:
    case = make_case(
        [("q", [("a", 3.0), ("b", 2.0)])], {("q", "a"): 1, ("q", "b"): 0, ("q", "c"): 2}
    )
    far = score(case.lists, case.qrels, ScoringParams(k=100))
    assert far.dcg[0] == pytest.approx(1.0)
    assert far.idcg[0] == pytest.approx(dcg([2, 1]))  # min(K, #relevant) = 2 ideal ranks
    one = score(case.lists, case.qrels, ScoringParams(k=1))
    assert one.dcg[0] == pytest.approx(1.0)
    assert one.idcg[0] == pytest.approx(2.0)
    assert one.ndcg[0] == pytest.approx(0.5)
    whole = score(case.lists, case.qrels, ScoringParams(k=None))
    assert whole.ndcg[0] == pytest.approx(far.ndcg[0])


# --- no value / zero --------------------------------------------------------------------------


def test_query_without_judgments_is_nan() -> None:
    case = make_case([("q1", [("a", 1.0)]), ("q2", [("a", 1.0)])], {("q1", "a"): 2})
    table = score(case.lists, case.qrels)
    assert table.ndcg[0] == 1.0
    assert math.isnan(table.ndcg[1])
    for column in (table.precision, table.rr, table.rr_at_k, table.err):
        assert math.isnan(column[1])
    assert not table.has_judgments[1]
    assert not table.idcg_zero[1]
    assert table.dcg[1] == 0.0
    assert table.judged_at_k[1] == 0.0
    assert table.n_judged_query.tolist() == [1, 0]


@pytest.mark.parametrize("grades", [[0, 0], [-1, 0], [-1, -1]])
def test_judgments_without_gain_give_zero_and_flag(grades: list[int]) -> None:
    case = graded_list(grades)
    table = score(case.lists, case.qrels)
    assert table.ndcg[0] == 0.0
    assert table.idcg_zero[0]
    assert table.has_judgments[0]
    assert table.judged_at_k[0] == 1.0  # negative grades are judged
    assert table.rr[0] == 0.0
    assert table.precision[0] == 0.0


def test_empty_group_with_relevant_judgments_scores_zero() -> None:
    case = make_case([("q", [])], {("q", "a"): 2})
    table = score(case.lists, case.qrels)
    assert table.n_returned[0] == 0
    assert table.ndcg[0] == 0.0
    assert not table.idcg_zero[0]
    assert table.idcg[0] == 2.0
    assert math.isnan(table.judged_at_k[0])
    assert table.precision[0] == 0.0
    assert table.rr[0] == 0.0
    assert table.err[0] == 0.0


def test_no_results_and_no_judgments_at_all() -> None:
    lists = RankedLists(
        group=np.zeros(0, np.int64),
        doc=np.zeros(0, np.int64),
        score=np.zeros(0),
        rank=np.zeros(0, np.int64),
        group_query=np.array([0, 1]),
        doc_key=np.zeros(0, np.int64),
    )
    qrels = Qrels(query=np.zeros(0, np.int64), doc=np.zeros(0, np.int64), grade=np.zeros(0))
    table = score(lists, qrels)
    assert len(table) == 2
    assert np.isnan(table.ndcg).all()
    assert table.n_returned.tolist() == [0, 0]


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("matrix", [True, False])
def test_duplicate_document_in_a_list_names_the_group(
    matrix: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not matrix:  # force the flat-sort path
        monkeypatch.setattr(kernels, "_MATRIX_FILL", 0)
        monkeypatch.setattr(kernels, "_MATRIX_SLACK", 0)
    case = make_case(
        [("q1", [("a", 2.0), ("b", 1.0)]), ("q2", [("a", 2.0), ("b", 1.0), ("a", 0.5)])],
        {("q1", "a"): 1},
    )
    with pytest.raises(ValueError, match=r"group 1 \(query index 1\).*document index 0"):
        score(case.lists, case.qrels)
    # the same document in two different groups is fine
    ok = make_case([("q1", [("a", 2.0)]), ("q2", [("a", 2.0)])], {("q1", "a"): 1})
    assert score(ok.lists, ok.qrels).ndcg[0] == 1.0


def test_duplicate_judgment_is_rejected() -> None:
    lists = graded_list([1]).lists
    qrels = Qrels(query=np.array([0, 0]), doc=np.array([0, 0]), grade=np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="more than one grade"):
        score(lists, qrels)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"k": 0},
        {"k": -3},
        {"k": True},
        {"k": 2.5},
        {"gain": "log"},
        {"gain": {1.5: 2.0}},
        {"gain": {-1: 2.0}},
        {"gain": {1: math.inf}},
        {"ideal": "all"},
        {"order": "docno"},
        {"relevance_threshold": 0.0},
        {"relevance_threshold": math.nan},
        {"err_max_grade": 0.0},
        {"err_max_grade": 100.0},
    ],
)
def test_invalid_params(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ScoringParams(**kwargs)  # type: ignore[arg-type]


def test_params_with_custom_gains_are_hashable_and_comparable() -> None:
    a = ScoringParams(gain={2: 3.0, 1: 1.0})
    b = ScoringParams(gain={1: 1.0, 2: 3.0})
    assert a == b
    assert hash(a) == hash(b)
    assert a != ScoringParams(gain={1: 1.0, 2: 4.0})


def test_invalid_arrays() -> None:
    ok = {
        "group": [0],
        "doc": [0],
        "score": [1.0],
        "rank": [1],
        "group_query": [0],
        "doc_key": [0],
    }
    RankedLists(**ok)  # type: ignore[arg-type]
    for change in (
        {"group": [1]},
        {"doc": [1]},
        {"score": [math.nan]},
        {"score": [1.0, 2.0]},
        {"group": [0.5]},
        {"group_query": [-1]},
    ):
        with pytest.raises(ValueError):
            RankedLists(**{**ok, **change})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Qrels(query=[0], doc=[0], grade=[math.nan])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Qrels(query=[0, 1], doc=[0], grade=[1.0])  # type: ignore[arg-type]


# --- gains ------------------------------------------------------------------------------------


def test_gain_functions() -> None:
    grades = np.array([-1.0, 0.0, 1.0, 2.5, 4.0])
    np.testing.assert_allclose(gains_of_grades(grades, "linear"), [0, 0, 1, 2.5, 4])
    np.testing.assert_allclose(gains_of_grades(grades, "exponential"), [0, 0, 1, 2**2.5 - 1, 15])
    custom = gains_of_grades(np.array([-1.0, 0.0, 1.0, 2.0, 3.0]), {0: 0.5, 2: 9.0})
    np.testing.assert_allclose(custom, [0, 0.5, 1, 9, 3])  # unmapped grades keep gain = grade
    with pytest.raises(ValueError, match="integer grades"):
        gains_of_grades(np.array([2.5]), {2: 3.0})


def test_custom_gains_below_one_apart_are_not_truncated() -> None:
    # trec_eval -m ndcg.1=0.9,2=0.5,3=0.1 prints 0.0000 (its gain comparator truncates to int).
    gains = {1: 0.9, 2: 0.5, 3: 0.1}
    ideal = make_case(
        [("q", [("a", 3.0), ("b", 2.0), ("c", 1.0)])], {("q", "a"): 1, ("q", "b"): 2, ("q", "c"): 3}
    )
    table = score(ideal.lists, ideal.qrels, ScoringParams(k=None, gain=gains))
    assert table.ndcg[0] == pytest.approx(1.0, abs=1e-12)
    worst = make_case(
        [("q", [("a", 1.0), ("b", 2.0), ("c", 3.0)])], {("q", "a"): 1, ("q", "b"): 2, ("q", "c"): 3}
    )
    table = score(worst.lists, worst.qrels, ScoringParams(k=None, gain=gains))
    assert table.ndcg[0] == pytest.approx(dcg([0.1, 0.5, 0.9]) / dcg([0.9, 0.5, 0.1]), rel=1e-12)
    assert table.ndcg[0] == pytest.approx(0.6839, abs=1e-4)


def test_custom_gain_for_grade_zero_and_negative_gain() -> None:
    # trec_eval: "Gains are allowed to be 0 or negative, and relevance level 0 can be given a
    # gain." A negative gain lowers the DCG and is never in the ideal list.
    case = make_case(
        [("q", [("a", 3.0), ("b", 2.0), ("c", 1.0)])], {("q", "a"): 0, ("q", "b"): 1, ("q", "c"): 2}
    )
    table = score(case.lists, case.qrels, ScoringParams(k=None, gain={0: 0.5, 2: -1.0}))
    assert table.dcg[0] == pytest.approx(dcg([0.5, 1.0, -1.0]))
    assert table.idcg[0] == pytest.approx(dcg([1.0, 0.5]))


def test_absurd_gains_overflow_quietly() -> None:
    # Warnings from ndcg_studio are errors in this project: none may escape.
    case = graded_list([2, 3])
    tiny = score(case.lists, case.qrels, ScoringParams(k=None, gain={2: -1.0, 3: 5e-324}))
    assert tiny.ndcg[0] == -math.inf
    with pytest.raises(ValueError, match="above 100"):
        score(graded_list([101]).lists, graded_list([101]).qrels, ScoringParams(gain="exponential"))


def test_fractional_grades_from_a_mean_consensus() -> None:
    case = graded_list([2.5, 0.5, 3.0])
    linear = score(case.lists, case.qrels, ScoringParams(k=3))
    assert linear.dcg[0] == pytest.approx(dcg([2.5, 0.5, 3.0]))
    assert linear.idcg[0] == pytest.approx(dcg([3.0, 2.5, 0.5]))
    expo = score(case.lists, case.qrels, ScoringParams(k=3, gain="exponential"))
    gains = [2**2.5 - 1, 2**0.5 - 1, 7.0]
    assert expo.ndcg[0] == pytest.approx(dcg(gains) / dcg(sorted(gains, reverse=True)))
    with pytest.raises(ValueError, match="integer grades"):
        score(case.lists, case.qrels, ScoringParams(gain={1: 2.0}))


# --- run order --------------------------------------------------------------------------------


def test_ties_are_broken_by_document_id_descending_in_byte_order() -> None:
    # Byte order: "Z" (0x5A) < "a" (0x61) < "z" < "é" (0xC3 0xA9). Descending: é, z, a, Z.
    items = [("a", 1.0), ("Z", 1.0), ("é", 1.0), ("z", 1.0)]
    case = make_case([("q", items)], {("q", "é"): 1})
    got = breakdown(case.lists, case.qrels, 0, ScoringParams(k=None))
    assert [case.doc_ids[d] for d in got.doc] == ["é", "z", "a", "Z"]
    assert score(case.lists, case.qrels).rr[0] == 1.0


def test_doc_order_key_is_utf8_byte_order() -> None:
    ids = ["b", "a", "ä", "A", "a1", "", "\U0001f600", "ÿ", "a"]
    key = doc_order_key(ids)
    expected = sorted(set(ids), key=lambda s: s.encode("utf-8"))
    assert [expected[i] for i in key] == ids
    assert key[1] == key[8]
    with_nul = doc_order_key(["a\x00b", "a", "a\x00"])
    assert with_nul.tolist() == [2, 0, 1]


def test_scores_are_float64_not_float32() -> None:
    # 1.0 and 1.0 + 1e-9 tie in float32 (trec_eval 9, pytrec_eval); here "a" (grade 1) wins.
    case = make_case([("q", [("a", 1.0 + 1e-9), ("b", 1.0)])], {("q", "a"): 1})
    assert score(case.lists, case.qrels, ScoringParams(k=1)).ndcg[0] == 1.0


def test_order_by_rank_column() -> None:
    items = [("a", 3.0, 2), ("b", 2.0, 1), ("c", 1.0, 3)]
    case = make_case([("q", items)], {("q", "b"): 1})
    assert score(case.lists, case.qrels, ScoringParams(k=1)).ndcg[0] == 0.0
    assert score(case.lists, case.qrels, ScoringParams(k=1, order="rank")).ndcg[0] == 1.0


def test_unsorted_input_rows_and_interleaved_groups() -> None:
    sorted_case = make_case(
        [("q1", [("a", 3.0), ("b", 2.0), ("c", 1.0)]), ("q2", [("c", 2.0), ("a", 1.0)])],
        {("q1", "b"): 2, ("q1", "c"): 1, ("q2", "a"): 3},
    )
    lists = sorted_case.lists
    perm = np.array([4, 0, 2, 3, 1])
    shuffled = RankedLists(
        group=lists.group[perm],
        doc=lists.doc[perm],
        score=lists.score[perm],
        rank=lists.rank[perm],
        group_query=lists.group_query,
        doc_key=lists.doc_key,
    )
    a = score(lists, sorted_case.qrels).as_dict()
    b = score(shuffled, sorted_case.qrels).as_dict()
    for name, column in a.items():
        np.testing.assert_array_equal(column, b[name], err_msg=name)


# --- companion measures -----------------------------------------------------------------------


def test_precision_divides_by_k_even_for_short_lists() -> None:
    case = graded_list([2, 0, 1])
    assert score(case.lists, case.qrels, ScoringParams(k=10)).precision[0] == pytest.approx(0.2)
    assert score(case.lists, case.qrels, ScoringParams(k=2)).precision[0] == pytest.approx(0.5)
    strict = ScoringParams(k=10, relevance_threshold=2)
    assert score(case.lists, case.qrels, strict).precision[0] == pytest.approx(0.1)
    whole = ScoringParams(k=None)
    assert score(case.lists, case.qrels, whole).precision[0] == pytest.approx(2 / 3)


def test_reciprocal_rank_over_the_whole_list() -> None:
    case = graded_list([0, 0, 2, 1])
    table = score(case.lists, case.qrels, ScoringParams(k=2))
    assert table.rr[0] == pytest.approx(1 / 3)
    assert table.rr_at_k[0] == 0.0
    table = score(case.lists, case.qrels, ScoringParams(k=3))
    assert table.rr_at_k[0] == pytest.approx(1 / 3)
    strict = score(case.lists, case.qrels, ScoringParams(relevance_threshold=2.0))
    assert strict.rr[0] == pytest.approx(1 / 3)
    stricter = score(case.lists, case.qrels, ScoringParams(relevance_threshold=3.0))
    assert stricter.rr[0] == 0.0


def test_err_hand_example() -> None:
    # Chapelle et al. 2009: R = (2^g - 1) / 2^4 -> 3/16, 0, 15/16.
    # ERR = 3/16 + (1/2)(13/16)(0) + (1/3)(13/16)(1)(15/16).
    case = graded_list([2, 0, 4])
    table = score(case.lists, case.qrels, ScoringParams(k=10))
    assert table.err[0] == pytest.approx(3 / 16 + (1 / 3) * (13 / 16) * (15 / 16), rel=1e-12)
    assert score(case.lists, case.qrels, ScoringParams(k=1)).err[0] == pytest.approx(3 / 16)
    # g_max = 2: R = 3/4, 0, 3/4 (grade 4 clipped to 2).
    clipped = score(case.lists, case.qrels, ScoringParams(k=10, err_max_grade=2))
    assert clipped.err[0] == pytest.approx(3 / 4 + (1 / 3) * (1 / 4) * (3 / 4), rel=1e-12)


def test_err_with_many_groups_stays_exact() -> None:
    # The segmented product must restart for every group.
    groups = [(f"q{i}", [("a", 2.0), ("b", 1.0)]) for i in range(300)]
    judgments = {(f"q{i}", d): 4 for i in range(300) for d in ("a", "b")}
    case = make_case(groups, judgments)
    table = score(case.lists, case.qrels)
    r = 15 / 16
    np.testing.assert_allclose(table.err, r + 0.5 * (1 - r) * r, rtol=1e-13)


def test_judged_at_k_and_cg() -> None:
    case = make_case(
        [("q", [("a", 5.0), ("b", 4.0), ("c", 3.0), ("d", 2.0)])],
        {("q", "a"): 2, ("q", "c"): 0, ("q", "d"): 3},
    )
    k3 = score(case.lists, case.qrels, ScoringParams(k=3))
    assert k3.judged_at_k[0] == pytest.approx(2 / 3)
    assert k3.cg[0] == pytest.approx(2.0)
    k10 = score(case.lists, case.qrels, ScoringParams(k=10))
    assert k10.judged_at_k[0] == pytest.approx(3 / 4)  # of min(K, 4) = 4 returned
    assert k10.cg[0] == pytest.approx(5.0)
    assert k10.n_returned[0] == 4


# --- breakdown --------------------------------------------------------------------------------


def test_breakdown_columns_and_totals() -> None:
    case = make_case(
        [("q", [("a", 3.0), ("b", 2.0), ("c", 1.0)])], {("q", "a"): 1, ("q", "c"): 3, ("q", "x"): 2}
    )
    got = breakdown(case.lists, case.qrels, 0, ScoringParams(k=2))
    assert got.rank.tolist() == [1, 2]
    assert [case.doc_ids[d] for d in got.doc] == ["a", "b"]
    np.testing.assert_array_equal(got.grade, [1.0, np.nan])
    np.testing.assert_allclose(got.gain, [1.0, 0.0])
    np.testing.assert_allclose(got.discount, [1.0, 1 / math.log2(3)])
    np.testing.assert_allclose(got.cumulative_dcg, [1.0, 1.0])
    assert [case.doc_ids[d] for d in got.ideal_doc] == ["c", "x"]
    np.testing.assert_allclose(got.ideal_gain, [3.0, 2.0])
    np.testing.assert_allclose(got.ideal_cumulative_dcg, [3.0, 3.0 + 2 / math.log2(3)])
    assert got.ndcg == pytest.approx(1.0 / (3.0 + 2 / math.log2(3)))
    table = score(case.lists, case.qrels, ScoringParams(k=2))
    assert got.dcg == pytest.approx(table.dcg[0], rel=1e-12)
    assert got.idcg == pytest.approx(table.idcg[0], rel=1e-12)


def test_breakdown_of_group_without_judgments_and_range_check() -> None:
    case = make_case([("q1", [("a", 1.0)]), ("q2", [("a", 1.0)])], {("q1", "a"): 2})
    got = breakdown(case.lists, case.qrels, 1)
    assert math.isnan(got.ndcg)
    assert not got.has_judgments
    assert got.ideal_doc.size == 0
    with pytest.raises(IndexError):
        breakdown(case.lists, case.qrels, 2)


@pytest.mark.parametrize("ideal", ["list", "judged"])
def test_err_skipped_leaves_err_nan_and_the_rest_equal(ideal: str) -> None:
    case = make_case(
        [("q", [("d0", 3.0), ("d1", 2.0), ("d2", 1.0)]), ("r", [("d0", 1.0)])],
        {("q", "d0"): 2.0, ("q", "d2"): 4.0, ("s", "d1"): 1.0},
    )
    params = ScoringParams(k=2, ideal=ideal)  # type: ignore[arg-type]
    full = score(case.lists, case.qrels, params)
    lean = score(case.lists, case.qrels, ScoringParams(k=2, ideal=ideal, err=False))  # type: ignore[arg-type]
    assert not np.isnan(full.err[full.has_judgments]).any()
    assert np.isnan(lean.err).all()
    for name in ("ndcg", "dcg", "idcg", "cg", "precision", "rr", "rr_at_k", "judged_at_k"):
        np.testing.assert_array_equal(getattr(lean, name), getattr(full, name))
    assert params != ScoringParams(k=2, ideal=ideal, err=False)  # type: ignore[arg-type]
