"""Slow, obviously-correct reference implementations used as oracles by the agreement tests.

They follow the textbook definitions with Python loops and exact ``Fraction`` arithmetic, sharing no
code with ``ndcg_studio.domain.agreement.summary``. The tests in this module check the oracles
themselves
against the published values and the reference packages, so that an oracle bug cannot hide.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from hypothesis import strategies as st

from ndcg_studio.domain.agreement.ratings import Ratings

NAN = float("nan")

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers x 12
# units with missing values (also in the docstring of krippendorff.alpha). Rows = observers.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]
# The values printed in the paper (3 decimals).
KRIPPENDORFF_2011_ALPHA = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def ratings_from_matrix(matrix: list[list[float]] | np.ndarray) -> Ratings:
    """Long-format ratings from an annotators x items matrix with NaN = missing."""
    data = np.asarray(matrix, dtype=np.float64)
    annotator, item = np.nonzero(~np.isnan(data))
    return Ratings(item, annotator, data[annotator, item], data.shape[1], data.shape[0])


def units_of(ratings: Ratings) -> list[list[float]]:
    """The grades of every item (in row order), as plain Python lists."""
    units: list[list[float]] = [[] for _ in range(ratings.n_items)]
    for item, grade in zip(ratings.item.tolist(), ratings.grade.tolist(), strict=True):
        units[item].append(grade)
    return units


def reference_alpha(units: list[list[float]], level: str) -> Fraction | None:
    """Krippendorff's alpha straight from Krippendorff (2011), exact; None when undefined."""
    pairable = [[Fraction(v) for v in unit] for unit in units if len(unit) >= 2]
    if not pairable:
        return None
    values = sorted({v for unit in pairable for v in unit})
    coincidence: dict[tuple[Fraction, Fraction], Fraction] = {}
    for unit in pairable:
        for i, c in enumerate(unit):
            for j, k in enumerate(unit):
                if i != j:
                    coincidence[c, k] = coincidence.get((c, k), Fraction(0)) + Fraction(
                        1, len(unit) - 1
                    )
    n_c = {c: sum(coincidence.get((c, k), Fraction(0)) for k in values) for c in values}
    n = sum(n_c.values())

    def delta(c: Fraction, k: Fraction) -> Fraction:
        if level == "nominal":
            return Fraction(int(c != k))
        if level == "ordinal":
            low, high = min(c, k), max(c, k)
            between = sum(n_c[g] for g in values if low <= g <= high)
            return (between - (n_c[c] + n_c[k]) / 2) ** 2
        if level == "interval":
            return (c - k) ** 2
        return ((c - k) / (c + k)) ** 2 if c + k != 0 else Fraction(0)

    observed = sum(o * delta(c, k) for (c, k), o in coincidence.items())
    expected = sum(n_c[c] * n_c[k] * delta(c, k) for c in values for k in values)
    if expected == 0:
        return None
    return 1 - (n - 1) * observed / expected


def reference_cohen(first: list[float], second: list[float], weights: str | None) -> float:
    """Cohen's (weighted) kappa of two equally long grade lists, weights by grade distance."""
    n = len(first)
    rows = Counter(first)
    cols = Counter(second)
    values = sorted(set(first) | set(second))

    def weight(c: float, k: float) -> float:
        if weights is None:
            return float(c != k)
        return abs(c - k) if weights == "linear" else (c - k) ** 2

    observed = sum(weight(c, k) for c, k in zip(first, second, strict=True)) / n
    expected = sum(rows[c] * cols[k] * weight(c, k) for c in values for k in values) / n / n
    return 1.0 - observed / expected if expected else NAN


@st.composite
def ratings_strategy(
    draw: st.DrawFn,
    max_items: int = 8,
    max_annotators: int = 5,
    grades: tuple[float, ...] = (0.0, 1.0, 2.0, 3.0, 4.0),
) -> Ratings:
    """Random small ratings: every (item, annotator) cell present or missing."""
    n_items = draw(st.integers(0, max_items))
    n_annotators = draw(st.integers(1, max_annotators))
    cells = n_items * n_annotators
    present = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    chosen = draw(st.lists(st.sampled_from(grades), min_size=cells, max_size=cells))
    matrix = np.full((n_annotators, n_items), np.nan)
    flat = matrix.reshape(-1)
    for index, (keep, grade) in enumerate(zip(present, chosen, strict=True)):
        if keep:
            flat[index] = grade
    return ratings_from_matrix(matrix)


# --------------------------------------------------------------------------------------------
# the oracles against the published values and the reference packages


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_reference_alpha_reproduces_krippendorff_2011(level: str) -> None:
    units = units_of(ratings_from_matrix(KRIPPENDORFF_2011))
    value = reference_alpha(units, level)
    assert value is not None
    assert round(float(value), 3) == KRIPPENDORFF_2011_ALPHA[level]
    package = krippendorff.alpha(reliability_data=KRIPPENDORFF_2011, level_of_measurement=level)
    assert float(value) == pytest.approx(package, abs=1e-12)


def test_reference_alpha_undefined_cases() -> None:
    assert reference_alpha([], "nominal") is None
    assert reference_alpha([[1.0], [2.0]], "interval") is None
    assert reference_alpha([[2.0, 2.0], [2.0, 2.0, 2.0]], "ordinal") is None


def test_reference_cohen_matches_sklearn() -> None:
    from sklearn.metrics import cohen_kappa_score

    first = [0, 1, 2, 2, 4, 3, 1, 0, 2, 4]
    second = [0, 2, 2, 1, 4, 4, 1, 1, 2, 3]
    for weights in (None, "linear", "quadratic"):
        ours = reference_cohen(first, second, weights)
        theirs = cohen_kappa_score(first, second, labels=[0, 1, 2, 3, 4], weights=weights)
        assert math.isclose(ours, theirs, abs_tol=1e-12)
