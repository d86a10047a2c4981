"""Quality bands of nDCG values: excellent / good / fair / poor / bad (pure numpy).

The bands are a reading aid, not a measure: a value v falls in the highest band whose lower
threshold t satisfies v >= t (defaults: excellent >= 0.9, good >= 0.8, fair >= 0.7,
poor >= 0.6, bad below). NaN (a query without judgments) has no band.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "NO_BAND",
    "Band",
    "BandThresholds",
    "band_labels",
    "band_of",
    "band_of_value",
]

#: Code returned by :func:`band_of` for NaN (no band).
NO_BAND = -1
# Values are rounded to this many decimals before comparison so float noise such as
# 0.8999999999999999 (for a true 0.9) does not drop a query into the band below.
_DECIMALS = 12


class Band(IntEnum):
    """Quality band; the integer value is the code returned by :func:`band_of` (ordered)."""

    BAD = 0
    POOR = 1
    FAIR = 2
    GOOD = 3
    EXCELLENT = 4

    @property
    def label(self) -> str:
        """Lower-case English label, e.g. ``"excellent"``."""
        return self.name.lower()


@dataclass(frozen=True)
class BandThresholds:
    """Lower thresholds of the bands, on the nDCG scale [0, 1].

    Attributes:
        excellent, good, fair, poor: lower bounds (inclusive); values below ``poor`` are bad.

    Raises:
        ValueError: a threshold outside [0, 1] or not finite, or the four not strictly
            decreasing (excellent > good > fair > poor).
    """

    excellent: float = 0.9
    good: float = 0.8
    fair: float = 0.7
    poor: float = 0.6

    def __post_init__(self) -> None:
        values = (self.excellent, self.good, self.fair, self.poor)
        for name, value in zip(("excellent", "good", "fair", "poor"), values, strict=True):
            if not (isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= 1):
                raise ValueError(f"band threshold {name} must be a number in [0, 1], got {value!r}")
        if not (self.excellent > self.good > self.fair > self.poor):
            raise ValueError(
                "band thresholds must be strictly decreasing: excellent > good > fair > poor, "
                f"got {values}"
            )

    def ascending(self) -> NDArray[np.float64]:
        """(4,) float64 thresholds poor, fair, good, excellent."""
        return np.array([self.poor, self.fair, self.good, self.excellent], dtype=np.float64)


_DEFAULT = BandThresholds()


def band_of(ndcg: ArrayLike, thresholds: BandThresholds = _DEFAULT) -> NDArray[np.int8]:
    """Band code of every value (vectorised).

    Args:
        ndcg: array-like of float nDCG values, any shape; NaN allowed.
        thresholds: the band thresholds.

    Returns:
        int8 array of the same shape: a :class:`Band` value (0 = bad .. 4 = excellent), or
        :data:`NO_BAND` (-1) for NaN. Comparison is v >= threshold after rounding v to 12
        decimals (so exactly 0.9 is excellent and 0.8999 is good).
    """
    values = np.asarray(ndcg, dtype=np.float64)
    nan = np.isnan(values)
    rounded = np.round(np.where(nan, 0.0, values), _DECIMALS)
    codes = np.searchsorted(thresholds.ascending(), rounded, side="right").astype(np.int8)
    codes[nan] = NO_BAND
    return codes


_LABELS = np.array([b.label for b in Band] + [""], dtype=object)


def band_labels(codes: ArrayLike) -> NDArray[np.str_]:
    """Labels of band codes: ``"bad"`` .. ``"excellent"``, ``""`` for :data:`NO_BAND`.

    Args:
        codes: integer codes from :func:`band_of`, any shape.

    Returns:
        str array of the same shape.

    Raises:
        ValueError: a code outside -1..4.
    """
    array = np.asarray(codes, dtype=np.int64)
    if array.size and (array.min() < NO_BAND or array.max() > max(Band)):
        raise ValueError("band codes must lie in -1..4")
    # Index -1 (NO_BAND) picks the trailing "" label.
    return np.asarray(_LABELS[array], dtype=str)


def band_of_value(ndcg: float, thresholds: BandThresholds = _DEFAULT) -> Band | None:
    """Band of one value, None for NaN (same rule as :func:`band_of`)."""
    code = int(band_of(np.array([ndcg]), thresholds)[0])
    return None if code == NO_BAND else Band(code)
