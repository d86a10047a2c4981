"""Krippendorff's alpha from the coincidence matrix: overall and per group.

The bootstrap interval and alpha without each annotator are in
:mod:`ndcg_studio.domain.agreement.alpha_intervals`; they reuse the internals below.

SOURCE of every formula: K. Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability",
Annenberg School for Communication, Departmental Papers 43 (section "C. Data with missing values,
any number of observers"); checked against the reference implementation ``krippendorff.alpha``
(pypi package ``krippendorff`` 0.9, module ``krippendorff.krippendorff``).

With ``n_uc`` the number of grades ``c`` given to item ``u`` and ``m_u = sum_c n_uc``, only items
with ``m_u >= 2`` are *pairable*; the others are dropped. Then::

    o_ck = sum_u (n_uc * n_uk - [c == k] * n_uc) / (m_u - 1)      coincidence matrix (V x V)
    n_c  = sum_k o_ck,  n = sum_c n_c                               pairable values
    D_o  = sum_ck o_ck * delta2_ck / n                              observed disagreement
    D_e  = sum_ck n_c * n_k * delta2_ck / (n * (n - 1))             expected disagreement
    alpha = 1 - D_o / D_e

with the metric differences ``delta2`` of the level of measurement (values ``v_c`` increasing):

    nominal   [c != k]
    ordinal   (sum_{g=c..k} n_g - (n_c + n_k) / 2) ** 2     (uses the marginal frequencies n_g)
    interval  (v_c - v_k) ** 2
    ratio     ((v_c - v_k) / (v_c + v_k)) ** 2              (0 when v_c + v_k == 0, as the package)

Alpha does not depend on values of the domain that nobody used (their n_c is 0), so an explicit
``values`` domain changes only the shape of the returned coincidence matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.agreement.ratings import Ratings, encode_grades
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.vocabulary import ALPHA_LEVELS, Level

__all__ = [
    "LEVELS",
    "REASON_EMPTY",
    "REASON_NO_PAIRABLE",
    "REASON_ONE_VALUE",
    "AlphaResult",
    "GroupAlphaResult",
    "alpha",
    "alpha_by_group",
]

LEVELS: tuple[Level, ...] = ALPHA_LEVELS

REASON_EMPTY = QT_TRANSLATE_NOOP("Agreement", "empty: no grades")
REASON_NO_PAIRABLE = QT_TRANSLATE_NOOP("Agreement", "no item has two or more grades")
REASON_ONE_VALUE = QT_TRANSLATE_NOOP(
    "Agreement", "only one distinct grade: expected disagreement is 0"
)
# reason_code -> text; code 0 means alpha is defined.
_REASONS: tuple[str | None, ...] = (None, REASON_EMPTY, REASON_NO_PAIRABLE, REASON_ONE_VALUE)
_REASON_ARRAY = np.array(_REASONS, dtype=object)


@dataclass(frozen=True, eq=False)
class AlphaResult:
    """Krippendorff's alpha of one set of ratings.

    Attributes:
        value: alpha in ``(-inf, 1]`` (1 = perfect agreement, 0 = chance); NaN when undefined.
        level: level of measurement used.
        n_items: number of pairable items (items with >= 2 grades).
        n_pairable_values: ``n``, the number of grades in pairable items.
        observed_disagreement: ``D_o`` (NaN when ``n < 2``).
        expected_disagreement: ``D_e`` (NaN when ``n < 2``; 0 when only one value was used).
        undefined_reason: None when ``value`` is defined, else a sentence saying why.
        values: ``(V,) float64`` value domain (increasing).
        coincidences: ``(V, V) float64`` coincidence matrix ``o_ck``; it sums to ``n``.
    """

    value: float
    level: Level
    n_items: int
    n_pairable_values: int
    observed_disagreement: float
    expected_disagreement: float
    undefined_reason: str | None
    values: NDArray[np.float64]
    coincidences: NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class GroupAlphaResult:
    """Krippendorff's alpha of several data sets at once (per group, or leaving one annotator out).

    All arrays have shape ``(G,)``: ``G = n_groups`` for :func:`alpha_by_group`,
    ``G = n_annotators`` for :func:`.agreement_alpha_ci.alpha_leave_one_out` (entry ``a`` = alpha
    without annotator a).

    Attributes:
        level: level of measurement used.
        value: ``float64`` alpha, NaN where undefined.
        n_items: ``int64`` pairable items.
        n_pairable_values: ``int64`` grades in pairable items.
        observed_disagreement: ``float64`` ``D_o`` (NaN when fewer than 2 pairable values).
        expected_disagreement: ``float64`` ``D_e`` (NaN when fewer than 2 pairable values).
        reason_code: ``int8``: 0 defined, 1 empty, 2 no pairable item, 3 only one distinct grade.
        undefined_reason: per entry None or the sentence (same texts as :class:`AlphaResult`).
    """

    level: Level
    value: NDArray[np.float64]
    n_items: NDArray[np.int64]
    n_pairable_values: NDArray[np.int64]
    observed_disagreement: NDArray[np.float64]
    expected_disagreement: NDArray[np.float64]
    reason_code: NDArray[np.int8]
    undefined_reason: tuple[str | None, ...] = field(repr=False)

    def __len__(self) -> int:
        return int(self.value.shape[0])


# --------------------------------------------------------------------------------------------
# internals


def _check_level(level: str) -> Level:
    for known in LEVELS:
        if level == known:
            return known
    raise ValueError(f"level must be one of {LEVELS}, got {level!r}")


def prepare(
    ratings: Ratings, level: str, values: ArrayLike | None
) -> tuple[Level, NDArray[np.int64], NDArray[np.float64]]:
    checked = _check_level(level)
    codes, domain = encode_grades(ratings.grade, values)
    if checked == "ratio" and domain.size and domain[0] < 0:
        raise ValueError("the ratio level needs non-negative values (a ratio scale has a true 0)")
    return checked, codes, domain


def item_counts(
    item: NDArray[np.int64], codes: NDArray[np.int64], n_items: int, n_values: int
) -> NDArray[np.float64]:
    """``(V, n_items)`` value counts ``n_uc``, value-major (float64, exact for counts < 2**53).

    The value-major layout keeps every per-value row contiguous: the per-item products below are
    V row operations over all items instead of slow broadcasts over a trailing axis of length V.
    """
    flat = np.bincount(codes * n_items + item, minlength=n_values * n_items)
    return flat.reshape(n_values, n_items).astype(np.float64)


def outer_rows(
    out: NDArray[np.float64],
    left: NDArray[np.float64],
    right: NDArray[np.float64],
    diagonal: NDArray[np.float64],
) -> None:
    """Fill ``out[c*V + k] = left[c] * right[k]`` minus ``diagonal[c]`` where ``c == k``.

    ``left``, ``right``, ``diagonal`` are ``(V, P)``; ``out`` is ``(V*V, P)``. With
    ``left = diagonal = w n`` and ``right = n`` this is ``w_u (n_uc n_uk - [c == k] n_uc)``, the
    coincidence contribution of every item (Krippendorff 2011). Loops over the V values only.
    """
    n_values = left.shape[0]
    for c in range(n_values):
        block = out[c * n_values : (c + 1) * n_values]
        np.multiply(right, left[c], out=block)
        block[c] -= diagonal[c]


def pair_weight(m: NDArray[np.float64], drop: int) -> NDArray[np.float64]:
    """``1 / (m - drop - 1)`` where ``m - drop >= 2`` else 0: the weight of a pairable item."""
    size = m - drop
    out = np.zeros_like(m)
    np.divide(1.0, size - 1.0, out=out, where=size >= 2)
    return out


def _fixed_delta(level: Level, values: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(V, V)`` metric differences for the nominal, interval and ratio levels."""
    diff = values[:, None] - values[None, :]
    if level == "nominal":
        nominal: NDArray[np.float64] = (diff != 0).astype(np.float64)
        return nominal
    if level == "interval":
        square: NDArray[np.float64] = diff * diff
        return square
    total = values[:, None] + values[None, :]
    ratio = np.zeros_like(diff)
    np.divide(diff, total, out=ratio, where=total != 0)
    return ratio * ratio


def _ordinal_delta(marginals: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(G, V, V)`` ordinal metric differences from ``(G, V)`` marginals ``n_c``.

    ``sum_{g=c..k} n_g - (n_c + n_k)/2 = S_k - S_c + (n_c - n_k)/2`` with ``S`` the cumulative sum;
    the sign flips for ``c > k`` and disappears in the square.
    """
    cumulative = np.cumsum(marginals, axis=-1)
    inner = (
        cumulative[:, None, :]
        - cumulative[:, :, None]
        + (marginals[:, :, None] - marginals[:, None, :]) / 2.0
    )
    return inner * inner


@dataclass(frozen=True)
class _Sums:
    value: NDArray[np.float64]
    observed: NDArray[np.float64]
    expected: NDArray[np.float64]
    n_values: NDArray[np.float64]
    reason_code: NDArray[np.int8]


def alpha_from_sums(
    coincidences: NDArray[np.float64],
    marginals: NDArray[np.float64],
    has_ratings: NDArray[np.bool_],
    values: NDArray[np.float64],
    level: Level,
) -> _Sums:
    """Alpha of ``G`` data sets from ``(G, V, V)`` coincidences and ``(G, V)`` marginals."""
    n = marginals.sum(axis=-1)
    if level == "ordinal":
        delta = _ordinal_delta(marginals)
        observed_sum = np.einsum("gck,gck->g", coincidences, delta)
        expected_sum = np.einsum("gc,gk,gck->g", marginals, marginals, delta)
    else:
        fixed = _fixed_delta(level, values)
        observed_sum = np.einsum("gck,ck->g", coincidences, fixed)
        expected_sum = np.einsum("gc,gk,ck->g", marginals, marginals, fixed)
    # Sums of per-item terms can end a hair below 0 after subtractions (leave-one-out).
    observed_sum = np.maximum(observed_sum, 0.0)
    pairable = n >= 2
    observed = np.full(n.shape, np.nan)
    expected = np.full(n.shape, np.nan)
    np.divide(observed_sum, n, out=observed, where=pairable)
    np.divide(expected_sum, n * (n - 1.0), out=expected, where=pairable)
    defined = pairable & (expected_sum > 0)
    value = np.full(n.shape, np.nan)
    np.divide(observed, expected, out=value, where=defined)
    np.subtract(1.0, value, out=value, where=defined)
    reason = np.zeros(n.shape, dtype=np.int8)
    reason[pairable & ~defined] = 3
    reason[~pairable] = 2
    reason[~has_ratings] = 1
    return _Sums(value, observed, expected, n, reason)


def group_result(
    level: Level, sums: _Sums, n_pairable_items: NDArray[np.float64]
) -> GroupAlphaResult:
    return GroupAlphaResult(
        level=level,
        value=sums.value,
        n_items=np.rint(n_pairable_items).astype(np.int64),
        n_pairable_values=np.rint(sums.n_values).astype(np.int64),
        observed_disagreement=sums.observed,
        expected_disagreement=sums.expected,
        reason_code=sums.reason_code,
        undefined_reason=tuple(_REASON_ARRAY[sums.reason_code].tolist()),
    )


def pairable_contributions(
    counts: NDArray[np.float64],
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Pairable items and their ``(V*V + V + 1, P)`` contributions, rows [o_u | n_u | 1]."""
    n_values = counts.shape[0]
    m = counts.sum(axis=0)
    rows = np.flatnonzero(m >= 2)
    sub = counts[:, rows]
    weighted = sub * pair_weight(m[rows], 0)
    square = n_values * n_values
    table = np.empty((square + n_values + 1, rows.size))
    outer_rows(table[:square], weighted, sub, weighted)
    table[square : square + n_values] = sub
    table[-1] = 1.0
    return rows, table


# --------------------------------------------------------------------------------------------
# public API


def alpha(ratings: Ratings, level: Level, *, values: ArrayLike | None = None) -> AlphaResult:
    """Krippendorff's alpha with missing data and any number of annotators per item.

    Args:
        ratings: the judgments (long format).
        level: ``"nominal"``, ``"ordinal"``, ``"interval"`` or ``"ratio"``. There is no default on
            purpose: ``krippendorff.alpha`` defaults to interval, relevance grades are ordinal.
        values: optional value domain (strictly increasing); default the grades present.

    Returns:
        :class:`AlphaResult`. Undefined cases return ``value = NaN`` with ``undefined_reason``
        ("empty: no grades", "no item has two or more grades", "only one distinct grade: expected
        disagreement is 0"); they never raise and never divide by zero.

    Raises:
        ValueError: unknown level, a grade outside ``values``, negative values at the ratio level.

    SOURCE: Krippendorff (2011), see the module docstring. Cost O(n + n_items * V^2) time,
    O(n_items * V) memory.
    """
    checked, codes, domain = prepare(ratings, level, values)
    n_values = domain.size
    counts = item_counts(ratings.item, codes, ratings.n_items, n_values)
    m = counts.sum(axis=0)
    pairable = m >= 2
    weighted = counts * pair_weight(m, 0)
    coincidences = weighted @ counts.T
    coincidences[np.diag_indices(n_values)] -= weighted.sum(axis=1)
    marginals = counts @ pairable.astype(np.float64)
    n_pairable_items = np.array([float(pairable.sum())])
    sums = alpha_from_sums(
        coincidences[None],
        marginals[None],
        np.array([ratings.n_ratings > 0]),
        domain,
        checked,
    )
    return AlphaResult(
        value=float(sums.value[0]),
        level=checked,
        n_items=int(n_pairable_items[0]),
        n_pairable_values=int(sums.n_values[0]),
        observed_disagreement=float(sums.observed[0]),
        expected_disagreement=float(sums.expected[0]),
        undefined_reason=_REASONS[int(sums.reason_code[0])],
        values=domain,
        coincidences=coincidences,
    )


def alpha_by_group(
    ratings: Ratings,
    group_of_item: ArrayLike,
    n_groups: int,
    level: Level,
    *,
    values: ArrayLike | None = None,
) -> GroupAlphaResult:
    """Krippendorff's alpha of every group of items separately (e.g. per query), vectorised.

    Each group is its own reliability study: its own coincidence matrix and, at the ordinal level,
    its own marginal frequencies. The per-group coincidence matrices and marginals are bincounts
    over the group index of the per-item contributions (one bincount per cell, ``V*V + V + 1`` of
    them), with no Python loop over groups or items.

    Args:
        ratings: the judgments.
        group_of_item: ``(n_items,)`` integer group of every item, in ``[0, n_groups)``.
        n_groups: number of groups G.
        level: level of measurement.
        values: optional value domain, as for :func:`alpha`.

    Returns:
        :class:`GroupAlphaResult` with arrays of shape ``(n_groups,)``; a group without grades is
        "empty", one without pairable items "no item has two or more grades".

    Raises:
        ValueError: ``group_of_item`` of the wrong shape or out of range, or as for :func:`alpha`.

    SOURCE: Krippendorff (2011) per group. Equal to calling :func:`alpha` on each group (tested).
    """
    checked, codes, domain = prepare(ratings, level, values)
    groups = np.asarray(group_of_item)
    if groups.shape != (ratings.n_items,):
        raise ValueError(f"group_of_item must have shape ({ratings.n_items},), got {groups.shape}")
    if groups.size and groups.dtype.kind not in "iu":
        raise TypeError(f"group_of_item must hold integer codes, got dtype {groups.dtype}")
    groups = groups.astype(np.int64, copy=False)
    n_groups = int(n_groups)
    if n_groups < 0 or (groups.size and (groups.min() < 0 or groups.max() >= n_groups)):
        raise ValueError(f"group_of_item must lie in [0, {n_groups})")
    n_values = domain.size
    counts = item_counts(ratings.item, codes, ratings.n_items, n_values)
    m = counts.sum(axis=0)
    rows = np.flatnonzero(m >= 2)
    sub = counts[:, rows]
    weighted = sub * pair_weight(m[rows], 0)
    group = groups[rows]
    square = n_values * n_values
    sums = np.empty((n_groups, square + n_values + 1))
    # one bincount per coincidence cell / marginal, not per group; each cell's contributions
    # (those of pairable_contributions) made in one reused row, not a (V*V + V + 1, P) table
    # (bench_gui_scale.py Agreement)
    cell = np.empty(rows.size)
    for c in range(n_values):
        for k in range(n_values):
            np.multiply(sub[k], weighted[c], out=cell)
            if c == k:
                cell -= weighted[c]
            sums[:, c * n_values + k] = np.bincount(group, weights=cell, minlength=n_groups)
        sums[:, square + c] = np.bincount(group, weights=sub[c], minlength=n_groups)
    sums[:, -1] = np.bincount(group, minlength=n_groups)
    coincidences = sums[:, :square].reshape(n_groups, n_values, n_values)
    marginals = sums[:, square : square + n_values]
    n_pairable_items = sums[:, -1]
    has_ratings = np.bincount(groups[ratings.item], minlength=n_groups) > 0
    result = alpha_from_sums(coincidences, marginals, has_ratings, domain, checked)
    return group_result(checked, result, n_pairable_items)
