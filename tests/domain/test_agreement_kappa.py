"""Fleiss' kappa and pairwise Cohen's kappa: published examples, reference packages, edge cases."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from ndcg_studio.domain.agreement.kappa import (
    REASON_KAPPA_CHANCE_ONE,
    REASON_NO_SHARED,
    fleiss_kappa,
    pairwise_cohen_kappa,
)
from ndcg_studio.domain.agreement.ratings import Ratings
from tests.domain.test_agreement_oracles import (
    ratings_from_matrix,
    ratings_strategy,
    reference_cohen,
)

# Fleiss' kappa worked example (Wikipedia "Fleiss' kappa"; also the example of Cardillo's MATLAB
# fleiss.m): 10 subjects, 14 raters, 5 categories; n_ij = raters putting subject i in category j.
# Published: P_bar = 0.378, P_e = 0.213, kappa = 0.210.
FLEISS_WIKIPEDIA = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)

# Altman (1991) "Practical Statistics for Medical Research" pp. 403-405 (data of Boyd et al. 1982;
# also the Stata manual's `kap` example): two radiologists, 85 xeromammograms, categories normal,
# benign, suspected cancer, cancer. Rows radiologist A, columns radiologist B.
# Published: kappa = 0.473, weighted kappa (linear weights 1 - |i-j|/(k-1)) = 0.568.
ALTMAN_RADIOLOGISTS = np.array(
    [
        [21, 12, 0, 0],
        [4, 17, 1, 0],
        [3, 9, 15, 2],
        [0, 0, 0, 1],
    ]
)


def ratings_from_counts(table: np.ndarray) -> Ratings:
    """Fleiss-form counts (subjects x categories) -> ratings; rater r of a subject = annotator r."""
    item, annotator, grade = [], [], []
    for subject, row in enumerate(table):
        slot = 0
        for category, count in enumerate(row):
            for _ in range(int(count)):
                item.append(subject)
                annotator.append(slot)
                grade.append(category)
                slot += 1
    return Ratings.from_arrays(item, annotator, grade)


def ratings_from_confusion(table: np.ndarray) -> Ratings:
    """A two-rater confusion table -> ratings of annotators 0 (rows) and 1 (columns)."""
    first, second = [], []
    for c, row in enumerate(table):
        for k, count in enumerate(row):
            first += [c] * int(count)
            second += [k] * int(count)
    n = len(first)
    return Ratings.from_arrays(
        np.r_[np.arange(n), np.arange(n)], np.r_[np.zeros(n, int), np.ones(n, int)], first + second
    )


# --------------------------------------------------------------------------------------------
# Fleiss


def test_fleiss_wikipedia_example() -> None:
    result = fleiss_kappa(ratings_from_counts(FLEISS_WIKIPEDIA))
    assert round(result.value, 3) == 0.210
    assert round(result.observed_agreement, 3) == 0.378
    assert round(result.expected_agreement, 3) == 0.213
    assert result.value == pytest.approx(sm_fleiss_kappa(FLEISS_WIKIPEDIA), abs=1e-12)
    assert (result.n_items, result.n_raters) == (10, 14)
    assert result.undefined_reason is None


def test_fleiss_unequal_number_of_grades() -> None:
    ratings = Ratings.from_arrays(
        [0, 0, 1, 1, 1, 2] + [3] * 10, [0, 1, 0, 1, 2, 0, *range(10)], [1] * 6 + [2] * 10
    )
    result = fleiss_kappa(ratings)
    assert math.isnan(result.value)
    assert result.undefined_reason == (
        "items have between 1 and 10 grades; Fleiss' kappa needs the same number for every item"
    )
    assert (result.min_grades, result.max_grades) == (1, 10)


def test_fleiss_undefined_cases_do_not_divide_by_zero() -> None:
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        empty = fleiss_kappa(Ratings.from_arrays([], [], [], n_items=3, n_annotators=2))
        assert math.isnan(empty.value)
        assert empty.undefined_reason == "empty: no grades"
        single = fleiss_kappa(Ratings.from_arrays([0, 1, 2], [0, 0, 1], [1, 2, 3]))
        assert math.isnan(single.value)
        assert single.undefined_reason is not None
        assert "one grade" in single.undefined_reason
        same = fleiss_kappa(Ratings.from_arrays([0, 0, 1, 1], [0, 1, 0, 1], [2, 2, 2, 2]))
        assert math.isnan(same.value)
        assert same.undefined_reason == "only one distinct grade: chance agreement is 1"


def test_fleiss_ignores_items_without_grades_and_unused_values() -> None:
    base = ratings_from_counts(FLEISS_WIKIPEDIA)
    padded = Ratings(base.item * 2, base.annotator, base.grade, 20, base.n_annotators)
    result = fleiss_kappa(padded, values=[0, 1, 2, 3, 4, 5, 6])
    assert result.value == pytest.approx(sm_fleiss_kappa(FLEISS_WIKIPEDIA), abs=1e-12)
    assert result.n_items == 10


def test_fleiss_random_complete_data_matches_statsmodels() -> None:
    rng = np.random.default_rng(7)
    wide = rng.integers(0, 5, size=(60, 4))  # 60 items x 4 raters
    item = np.repeat(np.arange(60), 4)
    annotator = np.tile(np.arange(4), 60)
    ratings = Ratings.from_arrays(item, annotator, wide.ravel())
    table, _ = aggregate_raters(wide)
    assert fleiss_kappa(ratings).value == pytest.approx(sm_fleiss_kappa(table), abs=1e-12)


# --------------------------------------------------------------------------------------------
# Cohen


def test_altman_radiologists() -> None:
    result = pairwise_cohen_kappa(ratings_from_confusion(ALTMAN_RADIOLOGISTS))
    assert len(result) == 1
    assert round(float(result.kappa[0]), 3) == 0.473
    assert round(float(result.kappa_linear[0]), 3) == 0.568
    assert result.n_shared[0] == 85
    assert result.percent_agreement[0] == pytest.approx(100 * 54 / 85)
    a, b = [], []
    for c, row in enumerate(ALTMAN_RADIOLOGISTS):
        for k, count in enumerate(row):
            a += [c] * int(count)
            b += [k] * int(count)
    for field, weights in (
        ("kappa", None),
        ("kappa_linear", "linear"),
        ("kappa_quadratic", "quadratic"),
    ):
        expected = cohen_kappa_score(a, b, weights=weights)
        assert float(getattr(result, field)[0]) == pytest.approx(expected, abs=1e-12)


def test_weights_use_grade_distance_not_label_positions() -> None:
    # grade 2 unused: sklearn without labels treats 3 and 4 as "one and two steps above 1"
    a = [0, 1, 3, 4, 4, 0, 1, 3, 1, 0]
    b = [0, 1, 4, 4, 3, 1, 1, 3, 0, 0]
    ratings = Ratings.from_arrays(list(range(10)) * 2, [0] * 10 + [1] * 10, a + b)
    result = pairwise_cohen_kappa(ratings)
    for field, weights in (("kappa_linear", "linear"), ("kappa_quadratic", "quadratic")):
        full_scale = cohen_kappa_score(a, b, labels=[0, 1, 2, 3, 4], weights=weights)
        positions = cohen_kappa_score(a, b, weights=weights)
        assert float(getattr(result, field)[0]) == pytest.approx(full_scale, abs=1e-12)
        assert abs(full_scale - positions) > 1e-3  # the trap exists
    np.testing.assert_array_equal(result.values, [0, 1, 3, 4])


@settings(max_examples=150, deadline=None)
@given(ratings=ratings_strategy(max_items=10, max_annotators=4))
def test_pairwise_matches_reference_and_sklearn(ratings: Ratings) -> None:
    result = pairwise_cohen_kappa(ratings)
    matrix = ratings.to_matrix()
    assert len(result) == ratings.n_annotators * (ratings.n_annotators - 1) // 2
    for p, (a, b) in enumerate(zip(result.annotator_a, result.annotator_b, strict=True)):
        assert a < b
        shared = ~np.isnan(matrix[a]) & ~np.isnan(matrix[b])
        assert result.n_shared[p] == shared.sum()
        first, second = matrix[a, shared].tolist(), matrix[b, shared].tolist()
        if not first:
            assert result.undefined_reason[p] == REASON_NO_SHARED
            assert math.isnan(result.kappa[p])
            assert math.isnan(result.percent_agreement[p])
            continue
        agree = np.mean(np.array(first) == np.array(second))
        assert result.percent_agreement[p] == pytest.approx(100 * agree)
        for field, weights in (
            ("kappa", None),
            ("kappa_linear", "linear"),
            ("kappa_quadratic", "quadratic"),
        ):
            expected = reference_cohen(first, second, weights)
            ours = float(getattr(result, field)[p])
            if math.isnan(expected):
                assert math.isnan(ours)
                assert result.undefined_reason[p] == REASON_KAPPA_CHANCE_ONE
            else:
                assert ours == pytest.approx(expected, abs=1e-9)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    sk = cohen_kappa_score(first, second, labels=[0, 1, 2, 3, 4], weights=weights)
                assert ours == pytest.approx(sk, abs=1e-9)


def test_pairwise_undefined_cases_and_matrix() -> None:
    # annotators 0 and 1 share items 0-1 (both always grade 2); annotator 2 shares nothing with 0
    ratings = Ratings.from_arrays([0, 1, 0, 1, 2, 3], [0, 0, 1, 1, 2, 2], [2, 2, 2, 2, 1, 3])
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        result = pairwise_cohen_kappa(ratings)
    assert result.annotator_a.tolist() == [0, 0, 1]
    assert result.annotator_b.tolist() == [1, 2, 2]
    assert result.n_shared.tolist() == [2, 0, 0]
    assert result.undefined_reason == (REASON_KAPPA_CHANCE_ONE, REASON_NO_SHARED, REASON_NO_SHARED)
    assert result.percent_agreement[0] == 100.0
    assert np.isnan(result.kappa_quadratic).all()
    shared = result.matrix("n_shared")
    np.testing.assert_array_equal(shared, shared.T)
    assert shared[0, 1] == 2
    assert np.isnan(np.diag(shared)).all()
    with pytest.raises(ValueError, match="unknown field"):
        result.matrix("alpha")  # type: ignore[arg-type]


def test_pairwise_large_data_uses_several_item_blocks() -> None:
    rng = np.random.default_rng(5)
    n_items, n_annotators = 30_000, 30  # 30 * 5 columns -> more than one block of 4M cells
    truth = rng.integers(0, 5, size=n_items)
    grades = np.clip(truth[None, :] + rng.integers(-1, 2, size=(n_annotators, n_items)), 0, 4)
    grades = grades.astype(float)
    grades[rng.random(grades.shape) < 0.5] = np.nan
    ratings = ratings_from_matrix(grades)
    result = pairwise_cohen_kappa(ratings)
    for p in (0, 17, len(result) - 1):
        a, b = result.annotator_a[p], result.annotator_b[p]
        shared = ~np.isnan(grades[a]) & ~np.isnan(grades[b])
        expected = cohen_kappa_score(
            grades[a, shared], grades[b, shared], labels=[0, 1, 2, 3, 4], weights="quadratic"
        )
        assert result.kappa_quadratic[p] == pytest.approx(expected, abs=1e-9)
        assert result.n_shared[p] == shared.sum()
