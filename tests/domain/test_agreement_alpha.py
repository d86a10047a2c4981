"""Krippendorff's alpha: published example, reference package, exact oracle, edge cases."""

from __future__ import annotations

import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.agreement.alpha import (
    LEVELS,
    REASON_EMPTY,
    REASON_NO_PAIRABLE,
    REASON_ONE_VALUE,
    alpha,
    alpha_by_group,
)
from ndcg_studio.domain.agreement.alpha_intervals import alpha_bootstrap, alpha_leave_one_out
from ndcg_studio.domain.agreement.ratings import Ratings
from tests.domain.test_agreement_oracles import (
    KRIPPENDORFF_2011,
    KRIPPENDORFF_2011_ALPHA,
    ratings_from_matrix,
    ratings_strategy,
    reference_alpha,
    units_of,
)

TOL = 1e-9


def assert_matches_reference(ratings: Ratings, level: str) -> None:
    ours = alpha(ratings, level)  # type: ignore[arg-type]
    expected = reference_alpha(units_of(ratings), level)
    if expected is None:
        assert math.isnan(ours.value)
        assert ours.undefined_reason is not None
    else:
        assert ours.undefined_reason is None
        assert ours.value == pytest.approx(float(expected), abs=TOL)


# --------------------------------------------------------------------------------------------
# Krippendorff (2011) worked example


@pytest.mark.parametrize("level", LEVELS)
def test_krippendorff_2011_published_values(level: str) -> None:
    ratings = ratings_from_matrix(KRIPPENDORFF_2011)
    result = alpha(ratings, level)  # type: ignore[arg-type]
    assert round(result.value, 3) == KRIPPENDORFF_2011_ALPHA[level]
    package = krippendorff.alpha(reliability_data=KRIPPENDORFF_2011, level_of_measurement=level)
    assert result.value == pytest.approx(package, abs=1e-12)
    exact = reference_alpha(units_of(ratings), level)
    assert exact is not None
    assert result.value == pytest.approx(float(exact), abs=1e-12)
    # 12 units, unit 12 has a single value and is not pairable; 40 pairable values.
    assert result.n_items == 11
    assert result.n_pairable_values == 40
    assert result.coincidences.sum() == pytest.approx(40.0)
    assert result.undefined_reason is None
    assert result.level == level
    # alpha = 1 - D_o / D_e
    assert 1 - result.observed_disagreement / result.expected_disagreement == pytest.approx(
        result.value, abs=1e-12
    )


def test_krippendorff_2011_coincidences() -> None:
    result = alpha(ratings_from_matrix(KRIPPENDORFF_2011), "nominal")
    np.testing.assert_array_equal(result.values, [1, 2, 3, 4, 5])
    o = result.coincidences
    np.testing.assert_allclose(o, o.T, atol=1e-12)
    # marginals n_c: value 1 appears 9 times in pairable units, 2: 13, 3: 10, 4: 5, 5: 3
    np.testing.assert_allclose(o.sum(axis=1), [9, 13, 10, 5, 3], atol=1e-12)
    # unit 1 = (1, 1, 1): 3 * 2 / 2 = 3 coincidences of (1, 1); unit 6 = (1, 2, 3, 4): 1/3 each
    np.testing.assert_allclose(o[0], [7, 4 / 3, 1 / 3, 1 / 3, 0], atol=1e-12)
    # Nominal: D_o = 1 - trace / n = 1 - 32 / 40, D_e = 1 - sum n_c (n_c - 1) / (n (n - 1))
    assert result.observed_disagreement == pytest.approx(1 - np.trace(o) / 40)
    n_c = np.array([9, 13, 10, 5, 3])
    assert result.expected_disagreement == pytest.approx(1 - (n_c * (n_c - 1)).sum() / (40 * 39))


@pytest.mark.parametrize("level", LEVELS)
def test_explicit_value_domain_changes_nothing_but_the_shape(level: str) -> None:
    ratings = ratings_from_matrix(KRIPPENDORFF_2011)
    present = alpha(ratings, level)  # type: ignore[arg-type]
    wide = alpha(ratings, level, values=[0, 1, 2, 3, 4, 5, 6])  # type: ignore[arg-type]
    assert wide.value == pytest.approx(present.value, abs=1e-12)
    assert wide.coincidences.shape == (7, 7)
    package = krippendorff.alpha(
        reliability_data=KRIPPENDORFF_2011,
        level_of_measurement=level,
        value_domain=[0, 1, 2, 3, 4, 5, 6],
    )
    assert wide.value == pytest.approx(package, abs=1e-12)


def test_non_integer_grades() -> None:
    data = np.asarray(KRIPPENDORFF_2011) * 0.5 + 0.25
    ratings = ratings_from_matrix(data)
    for level in LEVELS:
        package = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        assert alpha(ratings, level).value == pytest.approx(package, abs=1e-12)


# --------------------------------------------------------------------------------------------
# edge cases


def test_empty_ratings() -> None:
    empty = Ratings.from_arrays([], [], [], n_items=0, n_annotators=0)
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        for level in LEVELS:
            result = alpha(empty, level)
            assert math.isnan(result.value)
            assert result.undefined_reason == REASON_EMPTY
            assert result.n_items == 0
            assert result.n_pairable_values == 0
        interval = alpha_bootstrap(empty, "ordinal", n_resamples=10)
        assert math.isnan(interval.low)
        assert interval.undefined_reason == REASON_EMPTY
        loo = alpha_leave_one_out(empty, "ordinal")
        assert len(loo) == 0
        groups = alpha_by_group(empty, np.zeros(0, dtype=np.int64), 2, "ordinal")
        assert groups.undefined_reason == (REASON_EMPTY, REASON_EMPTY)


def test_items_without_grades_are_allowed() -> None:
    ratings = Ratings.from_arrays([0, 0, 3, 3], [0, 1, 0, 1], [1, 2, 2, 2], n_items=6)
    assert alpha(ratings, "interval").n_items == 2


def test_one_annotator_only() -> None:
    ratings = Ratings.from_arrays([0, 1, 2, 3], [0, 0, 0, 0], [0, 1, 2, 4])
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        result = alpha(ratings, "ordinal")
        assert math.isnan(result.value)
        assert result.undefined_reason == REASON_NO_PAIRABLE
        assert result.n_items == 0
        loo = alpha_leave_one_out(ratings, "ordinal")
        assert loo.undefined_reason == (REASON_EMPTY,)


def test_item_with_a_single_grade_is_dropped() -> None:
    base = np.array([[0, 1, 2, 3, 4, 2.0], [0, 1, 3, 3, 4, 2], [1, 1, 2, 3, np.nan, np.nan]])
    with_single = np.concatenate([base, [[4], [np.nan], [np.nan]]], axis=1)
    for level in LEVELS:
        a = alpha(ratings_from_matrix(base), level)
        b = alpha(ratings_from_matrix(with_single), level)
        assert b.value == pytest.approx(a.value, abs=1e-12)
        assert b.n_items == a.n_items == 6
        assert b.n_pairable_values == a.n_pairable_values == 16


def test_every_grade_identical_is_undefined_without_division_by_zero() -> None:
    ratings = Ratings.from_arrays([0, 0, 1, 1, 1, 2], [0, 1, 0, 1, 2, 2], [3, 3, 3, 3, 3, 3])
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        for level in LEVELS:
            result = alpha(ratings, level, values=[0, 1, 2, 3, 4])
            assert math.isnan(result.value)
            assert result.undefined_reason == REASON_ONE_VALUE
            assert result.expected_disagreement == 0.0
            assert result.n_items == 2
        boot = alpha_bootstrap(ratings, "ordinal", n_resamples=20)
        assert math.isnan(boot.value)
        assert math.isnan(boot.low)
        assert boot.undefined_reason == REASON_ONE_VALUE
        groups = alpha_by_group(ratings, np.array([0, 1, 1]), 3, "nominal")
        assert groups.undefined_reason == (REASON_ONE_VALUE, REASON_ONE_VALUE, REASON_EMPTY)
        loo = alpha_leave_one_out(ratings, "interval")
        assert loo.reason_code.tolist() == [3, 3, 3]


def test_duplicate_judgment_raises() -> None:
    with pytest.raises(ValueError, match="duplicate judgment: annotator 1 graded item 2"):
        Ratings.from_arrays([0, 2, 1, 2], [0, 1, 1, 1], [1, 2, 3, 4])
    # the sparse path (key space much larger than the data) finds it too
    with pytest.raises(ValueError, match="duplicate judgment: annotator 7 graded item 99999"):
        Ratings.from_arrays([99_999, 99_999], [7, 7], [1, 1], n_items=10**6, n_annotators=10**6)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"item": [0, 1], "annotator": [0], "grade": [1, 2]}, ValueError),
        ({"item": [0, 5], "annotator": [0, 0], "grade": [1, 2], "n_items": 3}, ValueError),
        ({"item": [0, 1], "annotator": [0, -1], "grade": [1, 2]}, ValueError),
        ({"item": [0, 1], "annotator": [0, 0], "grade": [1, np.nan]}, ValueError),
        ({"item": [0.0, 1.0], "annotator": [0, 0], "grade": [1, 2]}, TypeError),
    ],
)
def test_invalid_ratings(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        Ratings.from_arrays(**kwargs)  # type: ignore[arg-type]


def test_invalid_arguments() -> None:
    ratings = ratings_from_matrix(KRIPPENDORFF_2011)
    with pytest.raises(ValueError, match="level must be one of"):
        alpha(ratings, "Ordinal")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"grade 5.0 is not in values"):
        alpha(ratings, "ordinal", values=[0, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="strictly increasing"):
        alpha(ratings, "ordinal", values=[5, 4, 3, 2, 1])
    negative = ratings_from_matrix(np.asarray(KRIPPENDORFF_2011) - 3)
    with pytest.raises(ValueError, match="ratio level"):
        alpha(negative, "ratio")
    with pytest.raises(ValueError, match="group_of_item"):
        alpha_by_group(ratings, np.zeros(5, dtype=np.int64), 1, "ordinal")
    with pytest.raises(ValueError, match="group_of_item"):
        alpha_by_group(ratings, np.full(12, 3), 3, "ordinal")
    with pytest.raises(ValueError, match="n_resamples"):
        alpha_bootstrap(ratings, "ordinal", n_resamples=0)
    with pytest.raises(ValueError, match="confidence"):
        alpha_bootstrap(ratings, "ordinal", confidence=1.0)


# --------------------------------------------------------------------------------------------
# per group, leave one out, bootstrap: against direct computation


@settings(max_examples=150, deadline=None)
@given(ratings=ratings_strategy(), level=st.sampled_from(LEVELS))
def test_alpha_matches_exact_reference(ratings: Ratings, level: str) -> None:
    assert_matches_reference(ratings, level)


@settings(max_examples=100, deadline=None)
@given(
    ratings=ratings_strategy(max_items=12),
    level=st.sampled_from(LEVELS),
    data=st.data(),
)
def test_alpha_by_group_equals_alpha_per_group(
    ratings: Ratings, level: str, data: st.DataObject
) -> None:
    n_groups = data.draw(st.integers(1, 5))
    groups = np.array(
        data.draw(
            st.lists(
                st.integers(0, n_groups - 1), min_size=ratings.n_items, max_size=ratings.n_items
            )
        ),
        dtype=np.int64,
    )
    result = alpha_by_group(ratings, groups, n_groups, level, values=[0, 1, 2, 3, 4])  # type: ignore[arg-type]
    assert len(result) == n_groups
    for g in range(n_groups):
        single = alpha(ratings.select(groups[ratings.item] == g), level, values=[0, 1, 2, 3, 4])  # type: ignore[arg-type]
        assert result.undefined_reason[g] == single.undefined_reason
        assert result.n_items[g] == single.n_items
        assert result.n_pairable_values[g] == single.n_pairable_values
        if single.undefined_reason is None:
            assert result.value[g] == pytest.approx(single.value, abs=TOL)
            assert result.observed_disagreement[g] == pytest.approx(
                single.observed_disagreement, abs=TOL
            )
            assert result.expected_disagreement[g] == pytest.approx(
                single.expected_disagreement, abs=TOL
            )
        else:
            assert math.isnan(result.value[g])


@settings(max_examples=100, deadline=None)
@given(ratings=ratings_strategy(), level=st.sampled_from(LEVELS))
def test_leave_one_out_equals_alpha_without_the_annotator(ratings: Ratings, level: str) -> None:
    result = alpha_leave_one_out(ratings, level, values=[0, 1, 2, 3, 4])  # type: ignore[arg-type]
    assert len(result) == ratings.n_annotators
    for a in range(ratings.n_annotators):
        rest = alpha(ratings.select(ratings.annotator != a), level, values=[0, 1, 2, 3, 4])  # type: ignore[arg-type]
        assert result.undefined_reason[a] == rest.undefined_reason
        assert result.n_items[a] == rest.n_items
        assert result.n_pairable_values[a] == rest.n_pairable_values
        if rest.undefined_reason is None:
            assert result.value[a] == pytest.approx(rest.value, abs=TOL)


def test_leave_one_out_matches_package_on_krippendorff_2011() -> None:
    ratings = ratings_from_matrix(KRIPPENDORFF_2011)
    result = alpha_leave_one_out(ratings, "ordinal")
    data = np.asarray(KRIPPENDORFF_2011)
    for a in range(4):
        package = krippendorff.alpha(
            reliability_data=np.delete(data, a, axis=0),
            level_of_measurement="ordinal",
            value_domain=[1, 2, 3, 4, 5],
        )
        assert result.value[a] == pytest.approx(package, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(ratings=ratings_strategy(), level=st.sampled_from(LEVELS), data=st.data())
def test_alpha_invariant_to_permuting_annotators_and_items(
    ratings: Ratings, level: str, data: st.DataObject
) -> None:
    item_perm = np.array(data.draw(st.permutations(range(ratings.n_items))), dtype=np.int64)
    ann_perm = np.array(data.draw(st.permutations(range(ratings.n_annotators))), dtype=np.int64)
    row_perm = np.array(data.draw(st.permutations(range(ratings.n_ratings))), dtype=np.int64)
    shuffled = Ratings(
        item_perm[ratings.item][row_perm] if ratings.n_ratings else ratings.item,
        ann_perm[ratings.annotator][row_perm] if ratings.n_ratings else ratings.annotator,
        ratings.grade[row_perm] if ratings.n_ratings else ratings.grade,
        ratings.n_items,
        ratings.n_annotators,
    )
    a = alpha(ratings, level)  # type: ignore[arg-type]
    b = alpha(shuffled, level)  # type: ignore[arg-type]
    assert a.undefined_reason == b.undefined_reason
    if a.undefined_reason is None:
        assert b.value == pytest.approx(a.value, abs=TOL)


def _correlated(n_items: int, n_annotators: int, seed: int) -> Ratings:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, size=n_items)
    noisy = truth[None, :] + rng.normal(0, 0.7, size=(n_annotators, n_items))
    grades = np.clip(np.rint(noisy), 0, 4)
    grades[rng.random(grades.shape) < 0.3] = np.nan
    return ratings_from_matrix(grades)


def test_bootstrap_equals_alpha_of_explicitly_resampled_items() -> None:
    """Replays the documented draw (one chunk: rng.integers(0, P, size=(B, P)) over the pairable
    items in increasing item order) and recomputes alpha on the duplicated items."""
    ratings = _correlated(40, 4, seed=3)
    counts = np.bincount(ratings.item, minlength=ratings.n_items)
    pairable_items = np.flatnonzero(counts >= 2)
    n_resamples = 25
    boot = alpha_bootstrap(ratings, "ordinal", n_resamples=n_resamples, seed=11)
    draws = np.random.default_rng(11).integers(
        0, pairable_items.size, size=(n_resamples, pairable_items.size)
    )
    for b in range(n_resamples):
        chosen = pairable_items[draws[b]]
        item, annotator, grade = [], [], []
        for new_item, old_item in enumerate(chosen):
            rows = np.flatnonzero(ratings.item == old_item)
            item.extend([new_item] * rows.size)
            annotator.extend(ratings.annotator[rows].tolist())
            grade.extend(ratings.grade[rows].tolist())
        resampled = Ratings.from_arrays(item, annotator, grade, n_items=chosen.size)
        assert boot.samples[b] == pytest.approx(alpha(resampled, "ordinal").value, abs=TOL)
    defined = boot.samples
    assert boot.low == pytest.approx(np.quantile(defined, 0.025))
    assert boot.high == pytest.approx(np.quantile(defined, 0.975))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from(["nominal", "ordinal", "interval"]))
def test_bootstrap_is_deterministic_and_contains_the_estimate(seed: int, level: str) -> None:
    ratings = _correlated(200, 5, seed=seed % 1000)
    first = alpha_bootstrap(ratings, level, n_resamples=300, seed=seed)  # type: ignore[arg-type]
    again = alpha_bootstrap(ratings, level, n_resamples=300, seed=seed)  # type: ignore[arg-type]
    np.testing.assert_array_equal(first.samples, again.samples)
    assert (first.low, first.high) == (again.low, again.high)
    assert first.value == pytest.approx(alpha(ratings, level).value)  # type: ignore[arg-type]
    assert first.low < first.value < first.high
    assert first.n_defined == 300
    assert first.undefined_reason is None
    other = alpha_bootstrap(ratings, level, n_resamples=300, seed=seed + 1)  # type: ignore[arg-type]
    assert not np.array_equal(other.samples, first.samples)


def test_bootstrap_interval_narrows_with_more_items() -> None:
    small = alpha_bootstrap(_correlated(100, 4, seed=1), "ordinal", n_resamples=400, seed=0)
    large = alpha_bootstrap(_correlated(3000, 4, seed=1), "ordinal", n_resamples=400, seed=0)
    assert large.high - large.low < (small.high - small.low) / 3


@pytest.mark.parametrize("chunk_cells", [2_000, 200, 7])
def test_chunked_paths_give_the_same_results(
    monkeypatch: pytest.MonkeyPatch, chunk_cells: int
) -> None:
    """Small chunk sizes force the multi-block and bincount fallbacks of the vectorised paths.

    With 60 items and 5 values: 2,000 cells -> several annotator blocks of dense incidence rows;
    200 and 7 cells -> the per-feature bincount fallback of leave-one-out, and bootstrap chunks of
    a few resamples.
    """
    from ndcg_studio.domain.agreement import alpha_intervals as agreement_alpha_ci

    ratings = _correlated(60, 9, seed=8)
    expected_loo = alpha_leave_one_out(ratings, "ordinal")
    expected_boot = alpha_bootstrap(ratings, "interval", n_resamples=50, seed=2)
    monkeypatch.setattr(agreement_alpha_ci, "_CHUNK_CELLS", chunk_cells)
    loo = alpha_leave_one_out(ratings, "ordinal")
    np.testing.assert_allclose(loo.value, expected_loo.value, atol=TOL)
    np.testing.assert_array_equal(loo.n_pairable_values, expected_loo.n_pairable_values)
    for a in range(ratings.n_annotators):
        rest = alpha(ratings.select(ratings.annotator != a), "ordinal")
        assert loo.value[a] == pytest.approx(rest.value, abs=TOL)
    boot = alpha_bootstrap(ratings, "interval", n_resamples=50, seed=2)
    assert boot.n_defined == 50
    assert np.isfinite(boot.samples).all()
    if chunk_cells >= 60 * 50:  # one chunk either way: the same draws
        np.testing.assert_allclose(boot.samples, expected_boot.samples, atol=TOL)


def _three_annotators(n_items: int, seed: int) -> Ratings:
    """Every item graded 0-4 by the same 3 annotators: few kinds of items (at most 35)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, size=n_items)
    noise = rng.choice([-1, 0, 0, 0, 1], size=(3, n_items))
    return ratings_from_matrix(np.clip(truth[None, :] + noise, 0, 4).astype(float))


def test_bootstrap_by_kind_equals_alpha_of_explicitly_resampled_items() -> None:
    """Many items of few kinds: the documented draw is one multinomial count of each kind per
    resample (kinds numbered in increasing order of their value-count key); a resample holding
    those counts of one item of each kind has exactly that alpha."""
    ratings = _three_annotators(400, seed=5)
    units = units_of(ratings)
    kinds = sorted({tuple(sorted(unit)) for unit in units})
    assert len(kinds) * 8 <= len(units)  # the multinomial path
    # kind order of the implementation: the key sum(count_v * base**(V-1-v)) ascending
    counts = {k: np.bincount(np.asarray(k, dtype=int), minlength=5) for k in kinds}
    order = sorted(kinds, key=lambda k: tuple(counts[k]))
    share = np.array([sum(tuple(sorted(u)) == k for u in units) for k in order]) / len(units)
    n_resamples = 6
    boot = alpha_bootstrap(ratings, "ordinal", n_resamples=n_resamples, seed=4)
    draws = np.random.default_rng(4).multinomial(len(units), share, size=n_resamples)
    for b in range(n_resamples):
        columns = [list(k) for k, n in zip(order, draws[b], strict=True) for _ in range(n)]
        matrix = np.array(columns, dtype=float).T  # (3 annotators, P items)
        expected = alpha(ratings_from_matrix(matrix), "ordinal").value
        assert boot.samples[b] == pytest.approx(expected, abs=TOL)


def test_bootstrap_by_kind_matches_item_resampling_with_the_reference_package() -> None:
    """The kind counts follow the law of P uniform item draws: the resampled alphas match a
    plain item bootstrap computed with ``krippendorff.alpha`` within the bootstrap's noise
    (means within 4 standard errors, spreads within 25%)."""
    ratings = _three_annotators(300, seed=9)
    matrix = np.array(units_of(ratings), dtype=float).T  # (3, P)
    ours = alpha_bootstrap(ratings, "ordinal", n_resamples=4000, seed=1).samples
    rng = np.random.default_rng(2)
    reference = np.array(
        [
            krippendorff.alpha(
                reliability_data=matrix[:, rng.integers(0, matrix.shape[1], matrix.shape[1])],
                level_of_measurement="ordinal",
            )
            for _ in range(400)
        ]
    )
    spread = reference.std(ddof=1)
    assert abs(ours.mean() - reference.mean()) < 4 * spread / math.sqrt(reference.size)
    assert ours.std(ddof=1) == pytest.approx(spread, rel=0.25)
