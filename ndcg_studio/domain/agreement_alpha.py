"""Krippendorff's alpha from the coincidence matrix: overall, per group, bootstrap, leave-one-out.

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

from ndcg_studio.domain.agreement_ratings import Ratings, encode_grades
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.vocabulary import ALPHA_LEVELS, Level

__all__ = [
    "LEVELS",
    "REASON_EMPTY",
    "REASON_NO_PAIRABLE",
    "REASON_ONE_VALUE",
    "AlphaInterval",
    "AlphaResult",
    "GroupAlphaResult",
    "Level",
    "alpha",
    "alpha_bootstrap",
    "alpha_by_group",
    "alpha_leave_one_out",
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

# Work arrays of the vectorised paths are processed in chunks of about this many float64 cells.
_CHUNK_CELLS = 1 << 22
#: draw kind counts (multinomial) when the items are at least this many times more than their kinds
_KINDS_PER_ITEM_DRAW = 8


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
    ``G = n_annotators`` for :func:`alpha_leave_one_out` (entry ``a`` = alpha without annotator a).

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


@dataclass(frozen=True, eq=False)
class AlphaInterval:
    """Percentile bootstrap confidence interval of Krippendorff's alpha, resampling items.

    Attributes:
        value: the point estimate (alpha of the data), NaN when undefined.
        low, high: interval bounds (NaN when no resample had a defined alpha).
        confidence: confidence level in (0, 1), e.g. 0.95.
        n_resamples: number of bootstrap resamples drawn.
        n_defined: resamples whose alpha was defined (a resample can draw items that all carry
            one and the same grade); the interval uses only these.
        seed: seed of ``numpy.random.default_rng`` (same seed and data -> same interval).
        samples: ``(n_resamples,) float64`` alpha of every resample, NaN where undefined.
        undefined_reason: None, or why there is no interval.
        method: how resamples were drawn (always items, see :func:`alpha_bootstrap`).
    """

    value: float
    low: float
    high: float
    confidence: float
    n_resamples: int
    n_defined: int
    seed: int
    samples: NDArray[np.float64] = field(repr=False)
    undefined_reason: str | None
    method: str = "percentile bootstrap over pairable items, with replacement"


# --------------------------------------------------------------------------------------------
# internals


def _check_level(level: str) -> Level:
    for known in LEVELS:
        if level == known:
            return known
    raise ValueError(f"level must be one of {LEVELS}, got {level!r}")


def _prepare(
    ratings: Ratings, level: str, values: ArrayLike | None
) -> tuple[Level, NDArray[np.int64], NDArray[np.float64]]:
    checked = _check_level(level)
    codes, domain = encode_grades(ratings.grade, values)
    if checked == "ratio" and domain.size and domain[0] < 0:
        raise ValueError("the ratio level needs non-negative values (a ratio scale has a true 0)")
    return checked, codes, domain


def _item_counts(
    item: NDArray[np.int64], codes: NDArray[np.int64], n_items: int, n_values: int
) -> NDArray[np.float64]:
    """``(V, n_items)`` value counts ``n_uc``, value-major (float64, exact for counts < 2**53).

    The value-major layout keeps every per-value row contiguous: the per-item products below are
    V row operations over all items instead of slow broadcasts over a trailing axis of length V.
    """
    flat = np.bincount(codes * n_items + item, minlength=n_values * n_items)
    return flat.reshape(n_values, n_items).astype(np.float64)


def _outer_rows(
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


def _pair_weight(m: NDArray[np.float64], drop: int) -> NDArray[np.float64]:
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


def _alpha_from_sums(
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


def _group_result(
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


def _pairable_contributions(
    counts: NDArray[np.float64],
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Pairable items and their ``(V*V + V + 1, P)`` contributions, rows [o_u | n_u | 1]."""
    n_values = counts.shape[0]
    m = counts.sum(axis=0)
    rows = np.flatnonzero(m >= 2)
    sub = counts[:, rows]
    weighted = sub * _pair_weight(m[rows], 0)
    square = n_values * n_values
    table = np.empty((square + n_values + 1, rows.size))
    _outer_rows(table[:square], weighted, sub, weighted)
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
    checked, codes, domain = _prepare(ratings, level, values)
    n_values = domain.size
    counts = _item_counts(ratings.item, codes, ratings.n_items, n_values)
    m = counts.sum(axis=0)
    pairable = m >= 2
    weighted = counts * _pair_weight(m, 0)
    coincidences = weighted @ counts.T
    coincidences[np.diag_indices(n_values)] -= weighted.sum(axis=1)
    marginals = counts @ pairable.astype(np.float64)
    n_pairable_items = np.array([float(pairable.sum())])
    sums = _alpha_from_sums(
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
    checked, codes, domain = _prepare(ratings, level, values)
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
    counts = _item_counts(ratings.item, codes, ratings.n_items, n_values)
    rows, table = _pairable_contributions(counts)
    group = groups[rows]
    sums = np.empty((n_groups, table.shape[0]))
    for j in range(table.shape[0]):  # one bincount per coincidence cell / marginal, not per group
        sums[:, j] = np.bincount(group, weights=table[j], minlength=n_groups)
    square = n_values * n_values
    coincidences = sums[:, :square].reshape(n_groups, n_values, n_values)
    marginals = sums[:, square : square + n_values]
    n_pairable_items = sums[:, -1]
    has_ratings = np.bincount(groups[ratings.item], minlength=n_groups) > 0
    result = _alpha_from_sums(coincidences, marginals, has_ratings, domain, checked)
    return _group_result(checked, result, n_pairable_items)


def _count_kinds(counts: NDArray[np.float64]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Group items by their value counts.

    Args:
        counts: ``(V, P)`` value counts of P items (whole numbers as float64).

    Returns:
        ``(kind_of, first)``: ``(P,)`` kind of each item (0 .. K-1) and ``(K,)`` one item of each
        kind. Items of one kind have the same coincidence contribution, so a resample's sum over
        items is a sum over the K kinds weighted by how often each kind was drawn: with a few
        annotators and grades K is small (3 annotators, 5 grades: at most 35 pairable kinds)
        and the resamples cost a (B, K) instead of a (B, P) matrix product.
    """
    n_values, n_items = counts.shape
    if n_items == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    whole = counts.astype(np.int64)
    base = int(whole.max()) + 1
    if n_values * np.log2(base) < 62:  # one integer key per item
        key = np.zeros(n_items, dtype=np.int64)
        for row in whole:
            key *= base
            key += row
        _, first, kind_of = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, kind_of = np.unique(whole.T, axis=0, return_index=True, return_inverse=True)
    return kind_of.reshape(-1).astype(np.intp), first.astype(np.intp)


def _kind_draws(
    rng: np.random.Generator, kind_of: NDArray[np.intp], share: NDArray[np.float64], size: int
) -> NDArray[np.float64]:
    """``(size, K)`` how many items of each kind ``size`` resamples of P items drew: one
    multinomial(P, share) draw per resample — the law of the kind counts of P uniform draws with
    replacement, at the cost of K instead of P draws."""
    counts = rng.multinomial(kind_of.size, share, size=size)
    return np.asarray(counts, dtype=np.float64)


def _item_draws(
    rng: np.random.Generator, kind_of: NDArray[np.intp], n_kinds: int, size: int
) -> NDArray[np.float64]:
    """``(size, K)`` the same counts from P uniform item draws per resample (when the items are
    of so many kinds that K binomial draws would cost more than P integer draws)."""
    n_items = kind_of.size
    drawn = kind_of[rng.integers(0, n_items, size=(size, n_items))]
    drawn += (np.arange(size) * n_kinds)[:, None]
    counts = np.bincount(drawn.ravel(), minlength=size * n_kinds)
    return counts.reshape(size, n_kinds).astype(np.float64)


def alpha_bootstrap(
    ratings: Ratings,
    level: Level,
    *,
    values: ArrayLike | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> AlphaInterval:
    """Percentile bootstrap confidence interval of Krippendorff's alpha, resampling ITEMS.

    Every resample draws the P pairable items with replacement and recomputes alpha from the
    weighted sum of per-item coincidence contributions: ``O_b = M_b @ C`` with ``M`` the
    ``(n_resamples, P)`` count matrix and ``C`` the ``(P, V*V+V)`` contributions [o_u | n_u];
    marginals and (ordinal) metric differences are recomputed per resample. Items with the same
    value counts (a "kind") have the same contribution, so only how many items of each of the K
    kinds a resample holds matters. Those counts are drawn directly, one
    ``rng.multinomial(P, share of each kind)`` per resample — exactly their law under P uniform
    draws with replacement — when the items are at least 8 times more than their kinds (3
    annotators, 5 grades: K <= 35); otherwise P uniform item draws per resample
    (``rng.integers(0, P)``) are counted per kind. The interval is the ``(1-confidence)/2`` and
    ``(1+confidence)/2`` quantiles (numpy's default linear interpolation) of the defined
    resampled alphas.

    Resampling items keeps each item's grades together (the judgments of one item are dependent),
    the common choice for agreement studies. Krippendorff's own bootstrap (Hayes & Krippendorff
    2007, "Answering the call for a standard reliability measure for coding data", Communication
    Methods and Measures 1(1)) instead resamples pairable values from the coincidence matrix; it
    gives somewhat different intervals and is not what this function does.

    Args:
        ratings: the judgments.
        level: level of measurement.
        values: optional value domain.
        n_resamples: number of resamples B (>= 1), default 1000.
        confidence: in (0, 1), default 0.95.
        seed: seed of ``numpy.random.default_rng``; the result is a deterministic function of
            (data, level, n_resamples, seed).

    Returns:
        :class:`AlphaInterval`; NaN bounds with a reason when alpha itself is undefined.

    Raises:
        ValueError: ``n_resamples < 1``, ``confidence`` outside (0, 1), or as for :func:`alpha`.

    Cost: B * K binomial draws (or B * P integer draws) and O(B * K * V^2) flops, in chunks of
    about 4M cells; ``benchmarks/bench_agreement.py`` and ``bench_gui_scale.py`` (Agreement)
    measure it.
    """
    if n_resamples < 1:
        raise ValueError("n_resamples must be >= 1")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must lie in (0, 1)")
    point = alpha(ratings, level, values=values)
    checked = point.level
    samples = np.full(n_resamples, np.nan)

    def interval(low: float, high: float, n_defined: int, reason: str | None) -> AlphaInterval:
        return AlphaInterval(
            value=point.value,
            low=low,
            high=high,
            confidence=confidence,
            n_resamples=n_resamples,
            n_defined=n_defined,
            seed=seed,
            samples=samples,
            undefined_reason=reason,
        )

    if point.undefined_reason is not None:
        return interval(np.nan, np.nan, 0, point.undefined_reason)
    codes, domain = encode_grades(ratings.grade, values)
    n_values = domain.size
    counts = _item_counts(ratings.item, codes, ratings.n_items, n_values)
    rows, table = _pairable_contributions(counts)
    kind_of, kinds = _count_kinds(counts[:, rows])
    # (K, V*V + V): one contribution per kind of item (same value counts, same contribution)
    contributions = np.ascontiguousarray(table[:-1, kinds].T)
    n_pairable, n_kinds = rows.size, kinds.size
    square = n_values * n_values
    rng = np.random.default_rng(seed)
    by_kind = n_kinds * _KINDS_PER_ITEM_DRAW <= n_pairable
    share = np.bincount(kind_of, minlength=n_kinds) / n_pairable
    chunk = max(1, min(n_resamples, _CHUNK_CELLS // (n_kinds if by_kind else n_pairable)))
    has_ratings = np.ones(chunk, dtype=np.bool_)
    for start in range(0, n_resamples, chunk):  # loop over chunks of resamples
        size = min(chunk, n_resamples - start)
        weights = (
            _kind_draws(rng, kind_of, share, size)
            if by_kind
            else _item_draws(rng, kind_of, n_kinds, size)
        )
        summed = weights @ contributions
        result = _alpha_from_sums(
            summed[:, :square].reshape(size, n_values, n_values),
            summed[:, square:],
            has_ratings[:size],
            domain,
            checked,
        )
        samples[start : start + size] = result.value
    defined = samples[~np.isnan(samples)]
    if defined.size == 0:
        reason = QT_TRANSLATE_NOOP("Agreement", "no resample had a defined alpha")
        return interval(np.nan, np.nan, 0, reason)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(defined, [tail, 1.0 - tail])
    return interval(float(low), float(high), int(defined.size), None)


def alpha_leave_one_out(
    ratings: Ratings, level: Level, *, values: ArrayLike | None = None
) -> GroupAlphaResult:
    """Alpha of everyone else, for each annotator: entry ``a`` is alpha without annotator ``a``.

    Vectorised over annotators. Removing the judgment (item u, grade g) changes item u's coincidence
    contribution ``w(m) P(f)`` (``f = n_u``, ``m = m_u``, ``P(f) = f f^T - diag(f)``,
    ``w(m) = 1/(m-1)`` for ``m >= 2`` else 0) to ``w(m-1) P(f - e_g)``; the difference is::

        (w(m) - w(m-1)) P(f)  +  w(m-1) (f e_g^T + e_g f^T - 2 e_g e_g^T)

    The first term depends on the item only, the second on the item and the grade. Both are summed
    per annotator with dense 0/1 incidence matrices (annotator x item, and (annotator, grade) x
    item) times per-item features -- BLAS matrix products, in blocks of annotators so that a block
    holds at most ~4M cells; with more than ~4M / V items, one bincount per feature instead -- and
    subtracted from the full coincidence matrix. Equal to
    :func:`alpha` on ``ratings.select(ratings.annotator != a)`` up to rounding (tested at 1e-9).

    Args:
        ratings: the judgments.
        level: level of measurement.
        values: optional value domain (default: the grades present in ALL the data, so that every
            entry uses the same domain; alpha does not depend on unused values anyway).

    Returns:
        :class:`GroupAlphaResult` of shape ``(n_annotators,)``. An annotator without judgments gets
        the overall alpha.

    Raises:
        ValueError: as for :func:`alpha`.

    SOURCE: Krippendorff (2011) coincidences, applied to each reduced data set.
    """
    checked, codes, domain = _prepare(ratings, level, values)
    n_values = domain.size
    n_items = ratings.n_items
    n_annotators = ratings.n_annotators
    square = n_values * n_values
    counts = _item_counts(ratings.item, codes, n_items, n_values)
    m = counts.sum(axis=0)
    w_full = _pair_weight(m, 0)
    w_reduced = _pair_weight(m, 1)
    only_pair = (m == 2).astype(np.float64)
    # Per-item features, feature-major: rows [(w - w') P(f) | f [m == 2] | [m == 2]].
    item_features = np.empty((square + n_values + 1, n_items))
    step = counts * (w_full - w_reduced)
    _outer_rows(item_features[:square], step, counts, step)
    item_features[square : square + n_values] = counts * only_pair
    item_features[-1] = only_pair
    # Per-(item, grade) features: rows [w' f | [m >= 3] | w'].
    grade_features = np.empty((n_values + 2, n_items))
    grade_features[:n_values] = counts * w_reduced
    grade_features[n_values] = m >= 3
    grade_features[n_values + 1] = w_reduced
    item_sums = np.zeros((n_annotators, item_features.shape[0]))
    grade_sums = np.zeros((n_annotators, n_values, grade_features.shape[0]))
    if n_values * n_items <= _CHUNK_CELLS:
        block = max(1, _CHUNK_CELLS // max(1, n_values * n_items))
        for first in range(0, n_annotators, block):  # blocks of annotators, usually just one
            last = min(first + block, n_annotators)
            rows = (ratings.annotator >= first) & (ratings.annotator < last)
            local = ratings.annotator[rows] - first
            item = ratings.item[rows]
            incidence = np.zeros((last - first, n_items))
            incidence[local, item] = 1.0
            item_sums[first:last] = incidence @ item_features.T
            incidence = np.zeros(((last - first) * n_values, n_items))
            incidence[local * n_values + codes[rows], item] = 1.0
            grade_sums[first:last] = (incidence @ grade_features.T).reshape(
                last - first, n_values, -1
            )
    else:  # too many items for dense incidence rows: one bincount per feature instead
        slot = ratings.annotator * n_values + codes
        for j in range(item_features.shape[0]):
            item_sums[:, j] = np.bincount(
                ratings.annotator, weights=item_features[j, ratings.item], minlength=n_annotators
            )
        for j in range(grade_features.shape[0]):
            grade_sums[:, :, j] = np.bincount(
                slot, weights=grade_features[j, ratings.item], minlength=n_annotators * n_values
            ).reshape(n_annotators, n_values)
    z = grade_sums[:, :, :n_values]  # z[a, g, k] = sum over a's grades g of w' f_k
    change = item_sums[:, :square].reshape(n_annotators, n_values, n_values)
    change = change + z + z.transpose(0, 2, 1)
    diagonal = np.arange(n_values)
    change[:, diagonal, diagonal] -= 2.0 * grade_sums[:, :, n_values + 1]
    marginal_change = item_sums[:, square : square + n_values] + grade_sums[:, :, n_values]
    pairable = m >= 2
    weighted = counts * w_full
    total = weighted @ counts.T
    total[diagonal, diagonal] -= weighted.sum(axis=1)
    coincidences = total[None] - change
    marginals = np.rint(counts @ pairable.astype(np.float64) - marginal_change)
    n_pairable_items = np.rint(float(pairable.sum()) - item_sums[:, -1])
    remaining = ratings.n_ratings - np.bincount(ratings.annotator, minlength=n_annotators)
    result = _alpha_from_sums(coincidences, marginals, remaining > 0, domain, checked)
    return _group_result(checked, result, n_pairable_items)
