"""Quality bands of nDCG values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.bands import (
    NO_BAND,
    Band,
    BandThresholds,
    band_labels,
    band_of,
    band_of_value,
)


def test_default_bands_at_and_around_the_thresholds() -> None:
    values = [1.0, 0.95, 0.9, 0.8999, 0.85, 0.8, 0.7999, 0.7, 0.6999, 0.6, 0.5999, 0.0, math.nan]
    expected = [4, 4, 4, 3, 3, 3, 2, 2, 1, 1, 0, 0, NO_BAND]
    assert band_of(values).tolist() == expected
    assert band_labels(band_of(values)).tolist() == [
        "excellent",
        "excellent",
        "excellent",
        "good",
        "good",
        "good",
        "fair",
        "fair",
        "poor",
        "poor",
        "bad",
        "bad",
        "",
    ]


def test_float_noise_does_not_drop_a_band() -> None:
    noisy = 0.1 + 0.2 + 0.6  # 0.9000000000000001 or 0.8999999999999999 depending on order
    assert band_of_value(0.9 - 1e-15) is Band.EXCELLENT
    assert band_of_value(noisy) is Band.EXCELLENT
    assert band_of_value(0.9 - 1e-9) is Band.GOOD


def test_out_of_range_values_and_shape() -> None:
    codes = band_of(np.array([[-0.5, 1.5], [math.nan, 0.65]]))
    assert codes.shape == (2, 2)
    assert codes.dtype == np.int8
    assert codes.tolist() == [[Band.BAD, Band.EXCELLENT], [NO_BAND, Band.POOR]]


def test_custom_thresholds() -> None:
    t = BandThresholds(excellent=0.95, good=0.85, fair=0.5, poor=0.2)
    assert band_of([0.94, 0.95, 0.5, 0.49, 0.2, 0.19], t).tolist() == [3, 4, 2, 1, 1, 0]
    np.testing.assert_array_equal(t.ascending(), [0.2, 0.5, 0.85, 0.95])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"excellent": 0.8, "good": 0.8},
        {"good": 0.95},
        {"poor": -0.1},
        {"excellent": 1.1},
        {"fair": math.nan},
        {"poor": 0.75},
    ],
)
def test_invalid_thresholds(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        BandThresholds(**kwargs)


def test_enum_labels_and_scalar_helper() -> None:
    assert [b.label for b in Band] == ["bad", "poor", "fair", "good", "excellent"]
    assert Band.EXCELLENT > Band.GOOD
    assert band_of_value(math.nan) is None
    assert band_of_value(0.72) is Band.FAIR
    with pytest.raises(ValueError):
        band_labels([5])


@given(st.lists(st.floats(0, 1), min_size=2, max_size=30))
def test_band_is_monotone_in_the_value(values: list[float]) -> None:
    ordered = np.sort(np.array(values))
    assert np.all(np.diff(band_of(ordered).astype(int)) >= 0)
