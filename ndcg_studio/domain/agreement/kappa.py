"""Fleiss' kappa (many annotators, same number per item) and pairwise Cohen's kappa.

SOURCES:
    J. L. Fleiss (1971), "Measuring nominal scale agreement among many raters", Psychological
    Bulletin 76(5), 378-382; reference implementation ``statsmodels.stats.inter_rater.fleiss_kappa``
    (method "fleiss").
    J. Cohen (1960), "A coefficient of agreement for nominal scales"; J. Cohen (1968), "Weighted
    kappa"; reference implementation ``sklearn.metrics.cohen_kappa_score``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.agreement.ratings import Ratings, encode_grades
from ndcg_studio.translatable import QT_TRANSLATE_NOOP

__all__ = [
    "REASON_KAPPA_CHANCE_ONE",
    "REASON_NO_SHARED",
    "FleissResult",
    "PairwiseKappa",
    "fleiss_kappa",
    "pairwise_cohen_kappa",
]

REASON_NO_SHARED = QT_TRANSLATE_NOOP("Agreement", "no shared items")
REASON_KAPPA_CHANCE_ONE = QT_TRANSLATE_NOOP(
    "Agreement",
    "chance agreement is 1: both annotators gave every shared item one and the same grade",
)
_BLOCK_CELLS = 1 << 22
_PAIR_REASONS = np.array([None, REASON_NO_SHARED, REASON_KAPPA_CHANCE_ONE], dtype=object)

PairField = Literal["kappa", "kappa_linear", "kappa_quadratic", "n_shared", "percent_agreement"]
_PAIR_FIELDS: tuple[PairField, ...] = get_args(PairField)


@dataclass(frozen=True)
class FleissResult:
    """Fleiss' kappa.

    Attributes:
        value: kappa (1 = perfect agreement, 0 = chance), NaN when undefined.
        n_items: items with at least one grade (the ones Fleiss' kappa is computed on).
        n_raters: grades per item when it is the same for every item, else 0.
        observed_agreement: ``P_bar``, mean pairwise agreement of the items (NaN when undefined).
        expected_agreement: ``P_e = sum_j p_j^2`` (NaN when undefined).
        min_grades, max_grades: fewest and most grades of an item (0 when there are none).
        undefined_reason: None, or why kappa is NaN.
    """

    value: float
    n_items: int
    n_raters: int
    observed_agreement: float
    expected_agreement: float
    min_grades: int
    max_grades: int
    undefined_reason: str | None


def fleiss_kappa(ratings: Ratings, *, values: ArrayLike | None = None) -> FleissResult:
    """Fleiss' kappa over the items that have at least one grade.

    With ``n_ij`` the number of grades j of item i, the same ``m`` grades per item and N items::

        P_i = (sum_j n_ij^2 - m) / (m (m - 1)),  P_bar = mean_i P_i
        p_j = sum_i n_ij / (N m),                P_e = sum_j p_j^2
        kappa = (P_bar - P_e) / (1 - P_e)

    Grades are categories (nominal); the annotators of two items may differ (Fleiss 1971).

    Args:
        ratings: the judgments.
        values: optional value domain (does not change the result; validates the grades).

    Returns:
        :class:`FleissResult`; NaN with a reason when there are no grades, when items have
        different numbers of grades ("items have between 1 and 10 grades; Fleiss' kappa needs the
        same number for every item"), when every item has one grade, or when only one grade was
        used (P_e = 1). Never raises for these.

    Raises:
        ValueError: a grade outside ``values``.

    SOURCE: Fleiss (1971) eqs. 2-9; statsmodels ``fleiss_kappa``.
    """
    codes, domain = encode_grades(ratings.grade, values)
    n_values = domain.size
    flat = np.bincount(ratings.item * n_values + codes, minlength=ratings.n_items * n_values)
    counts = flat.reshape(ratings.n_items, n_values)
    per_item = counts.sum(axis=1)
    rated = per_item > 0
    n_items = int(rated.sum())
    if n_items == 0:
        empty = QT_TRANSLATE_NOOP("Agreement", "empty: no grades")
        return FleissResult(np.nan, 0, 0, np.nan, np.nan, 0, 0, empty)
    low = int(per_item[rated].min())
    high = int(per_item[rated].max())
    if low != high:
        reason = (
            f"items have between {low} and {high} grades; "
            "Fleiss' kappa needs the same number for every item"
        )
        return FleissResult(np.nan, n_items, 0, np.nan, np.nan, low, high, reason)
    m = low
    if m < 2:
        reason = QT_TRANSLATE_NOOP(
            "Agreement", "every item has one grade; Fleiss' kappa needs at least two per item"
        )
        return FleissResult(np.nan, n_items, m, np.nan, np.nan, low, high, reason)
    table = counts[rated].astype(np.float64)
    p_items = ((table * table).sum(axis=1) - m) / (m * (m - 1.0))
    observed = float(p_items.mean())
    proportions = table.sum(axis=0) / (n_items * m)
    expected = float((proportions * proportions).sum())
    if expected >= 1.0:
        reason = QT_TRANSLATE_NOOP("Agreement", "only one distinct grade: chance agreement is 1")
        return FleissResult(np.nan, n_items, m, observed, expected, low, high, reason)
    value = (observed - expected) / (1.0 - expected)
    return FleissResult(value, n_items, m, observed, expected, low, high, None)


@dataclass(frozen=True, eq=False)
class PairwiseKappa:
    """Cohen's kappa between every two annotators a < b on the items both graded.

    Arrays have shape ``(P,)`` with ``P = A (A - 1) / 2`` pairs in the order (0,1), (0,2), ...,
    (0,A-1), (1,2), ... (``A = n_annotators``) — or, when ``A * V`` exceeds
    :data:`DENSE_PAIR_LIMIT` (crowdsourcing: thousands of workers), only the pairs that share at
    least one item, in the same order (the others would all be "no shared items").

    Attributes:
        n_annotators: A.
        values: ``(V,) float64`` value domain the weights were computed on.
        annotator_a, annotator_b: ``int64`` annotator codes of the pair, ``a < b``.
        n_shared: ``int64`` items graded by both.
        percent_agreement: ``float64`` percentage (0..100) of shared items with the same grade;
            NaN when ``n_shared == 0``.
        kappa: ``float64`` unweighted Cohen's kappa; NaN when undefined.
        kappa_linear: weighted kappa, disagreement weight ``|v_c - v_k|``.
        kappa_quadratic: weighted kappa, disagreement weight ``(v_c - v_k)^2``.
        reason_code: ``int8`` 0 defined, 1 no shared items, 2 chance agreement is 1.
        undefined_reason: per pair None or the sentence.
    """

    n_annotators: int
    values: NDArray[np.float64]
    annotator_a: NDArray[np.int64]
    annotator_b: NDArray[np.int64]
    n_shared: NDArray[np.int64]
    percent_agreement: NDArray[np.float64]
    kappa: NDArray[np.float64]
    kappa_linear: NDArray[np.float64]
    kappa_quadratic: NDArray[np.float64]
    reason_code: NDArray[np.int8]
    undefined_reason: tuple[str | None, ...] = field(repr=False)

    def __len__(self) -> int:
        return int(self.annotator_a.shape[0])

    def matrix(self, field: PairField = "kappa") -> NDArray[np.float64]:
        """A symmetric ``(A, A) float64`` matrix of one field (diagonal NaN), e.g. for a heat map.

        Raises:
            ValueError: unknown field.
        """
        if field not in _PAIR_FIELDS:
            raise ValueError(f"unknown field {field!r}")
        data = np.asarray(getattr(self, field), dtype=np.float64)
        out = np.full((self.n_annotators, self.n_annotators), np.nan)
        out[self.annotator_a, self.annotator_b] = data
        out[self.annotator_b, self.annotator_a] = data
        return out


def _confusion_gram(
    ratings: Ratings, codes: NDArray[np.int64], n_values: int
) -> NDArray[np.float64]:
    """``(A*V, A*V)`` Gram matrix ``X^T X`` of one-hot judgments ``X`` (items x (annotator, grade)).

    Entry ``[a*V + c, b*V + k]`` counts the items to which annotator a gave grade c and annotator b
    gave grade k: for a != b, the confusion matrix of the pair. Computed as BLAS products over
    blocks of items (each block at most ~4M cells; usually one block), no loop over items or pairs.
    float32 blocks are exact: a block has fewer than 2**24 items.
    """
    width = ratings.n_annotators * n_values
    gram = np.zeros((width, width))
    if width == 0 or ratings.n_ratings == 0:
        return gram
    column = ratings.annotator * n_values + codes
    block = max(1, _BLOCK_CELLS // width)
    for first in range(0, ratings.n_items, block):  # blocks of items
        last = min(first + block, ratings.n_items)
        rows = (ratings.item >= first) & (ratings.item < last)
        onehot = np.zeros((last - first, width), dtype=np.float32)
        onehot[ratings.item[rows] - first, column[rows]] = 1.0
        gram += onehot.T @ onehot
    return gram


#: Largest ``A * V`` (annotators x grade values) for which every pair is listed and the
#: confusion matrices come from one dense ``(A V, A V)`` Gram matrix (4096: 128 MB); above it only
#: pairs sharing an item are formed, item by item.
DENSE_PAIR_LIMIT = 4096


def _shared_confusions(
    ratings: Ratings, codes: NDArray[np.int64], n_values: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """``(pair_a, pair_b, confusion)`` of the annotator pairs a < b sharing at least one item,
    sorted by (a, b); ``confusion`` is ``(P, V, V)`` counts. Memory O(sum over items of m_u^2)."""
    order = np.lexsort((ratings.annotator, ratings.item))
    item, annotator, code = ratings.item[order], ratings.annotator[order], codes[order]
    n = item.size
    if n < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros((0, n_values, n_values))
    starts = np.flatnonzero(np.concatenate(([True], item[1:] != item[:-1])))
    counts = np.diff(np.append(starts, n))
    after = np.repeat(starts + counts, counts) - np.arange(n) - 1  # later rows of my item
    firsts, seconds = [], []
    for gap in range(1, int(counts.max())):
        i = np.flatnonzero(after >= gap)
        firsts.append(i)
        seconds.append(i + gap)
    i = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.int64)
    j = np.concatenate(seconds) if seconds else np.zeros(0, dtype=np.int64)
    n_annotators = np.int64(ratings.n_annotators)
    keys, pair = np.unique(annotator[i] * n_annotators + annotator[j], return_inverse=True)
    cell = (pair.reshape(-1) * n_values + code[i]) * n_values + code[j]
    confusion = np.bincount(cell, minlength=keys.size * n_values * n_values).astype(np.float64)
    return (
        (keys // n_annotators).astype(np.int64),
        (keys % n_annotators).astype(np.int64),
        confusion.reshape(keys.size, n_values, n_values),
    )


def pairwise_cohen_kappa(ratings: Ratings, *, values: ArrayLike | None = None) -> PairwiseKappa:
    """Cohen's kappa, unweighted and weighted, for every pair of annotators on their shared items.

    For a pair with ``V x V`` confusion counts ``O`` over its n shared items, ``E_ck = r_c s_k / n``
    (row and column totals) and disagreement weights ``W``::

        kappa_W = 1 - sum(W * O) / sum(W * E)

    with ``W = 1 - I`` (unweighted), ``|v_c - v_k|`` (linear) or ``(v_c - v_k)^2`` (quadratic).
    The weights use grade DISTANCES, so a grade nobody used cannot change the value; with equally
    spaced grades 0..4 this equals ``sklearn.metrics.cohen_kappa_score(a, b, labels=[0, 1, 2, 3, 4],
    weights=...)`` (sklearn weighs by label POSITIONS: without ``labels`` an unused grade shifts
    them). Cohen's kappa is symmetric in a and b.

    Args:
        ratings: the judgments.
        values: optional value domain (weights depend only on the grade values, not the domain).

    Returns:
        :class:`PairwiseKappa` over all ``A (A-1) / 2`` pairs. Undefined cases get NaN and a
        reason: no shared items; chance agreement 1 (both gave every shared item one and the same
        grade, so ``sum(W * E) = 0``).

    Raises:
        ValueError: a grade outside ``values``.

    All confusion matrices come from one Gram matrix ``X^T X`` of the one-hot judgments ``X``
    (items x (annotator, grade)): O(n_items (A V)^2) flops in BLAS, O((A V)^2) memory.

    SOURCE: Cohen (1960, 1968); sklearn ``cohen_kappa_score``.
    """
    codes, domain = encode_grades(ratings.grade, values)
    pair_a, pair_b, confusion = _pair_confusions(ratings, codes, domain.size)
    n_pairs = pair_a.size
    n_shared = confusion.sum(axis=(1, 2))
    has_shared = n_shared > 0
    kappas, defined = _weighted_kappas(confusion, n_shared, domain)
    agree = np.trace(confusion, axis1=1, axis2=2)
    percent = np.full(n_pairs, np.nan)
    np.divide(100.0 * agree, n_shared, out=percent, where=has_shared)
    reason = np.zeros(n_pairs, dtype=np.int8)
    reason[has_shared & ~defined] = 2
    reason[~has_shared] = 1
    return PairwiseKappa(
        n_annotators=ratings.n_annotators,
        values=domain,
        annotator_a=pair_a,
        annotator_b=pair_b,
        n_shared=np.rint(n_shared).astype(np.int64),
        percent_agreement=percent,
        kappa=kappas["kappa"],
        kappa_linear=kappas["kappa_linear"],
        kappa_quadratic=kappas["kappa_quadratic"],
        reason_code=reason,
        undefined_reason=tuple(_PAIR_REASONS[reason].tolist()),
    )


def _pair_confusions(
    ratings: Ratings, codes: NDArray[np.int64], n_values: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """(annotator a, annotator b, (P, V, V) confusion counts) of every pair: rows = a's grade,
    columns = b's; from the Gram matrix, or pair by pair over shared items when it is large."""
    n_annotators = ratings.n_annotators
    if n_annotators * n_values > DENSE_PAIR_LIMIT:
        return _shared_confusions(ratings, codes, n_values)
    pair_a, pair_b = np.triu_indices(n_annotators, k=1)
    pair_a = pair_a.astype(np.int64)
    pair_b = pair_b.astype(np.int64)
    gram = _confusion_gram(ratings, codes, n_values)
    blocks = gram.reshape(n_annotators, n_values, n_annotators, n_values)
    return pair_a, pair_b, blocks[pair_a, :, pair_b, :]


def _weighted_kappas(
    confusion: NDArray[np.float64], n_shared: NDArray[np.float64], domain: NDArray[np.float64]
) -> tuple[dict[str, NDArray[np.float64]], NDArray[np.bool_]]:
    """``kappa_W = 1 - sum(W * O) / sum(W * E)`` of every pair for the three weights, and
    where it is defined (shared items and chance agreement below 1); NaN elsewhere."""
    n_pairs = confusion.shape[0]
    rows = confusion.sum(axis=2)
    cols = confusion.sum(axis=1)
    has_shared = n_shared > 0
    expected = np.zeros_like(confusion)
    np.divide(
        rows[:, :, None] * cols[:, None, :],
        n_shared[:, None, None],
        out=expected,
        where=has_shared[:, None, None],
    )
    distance = np.abs(domain[:, None] - domain[None, :])
    weights = {
        "kappa": (distance != 0).astype(np.float64),
        "kappa_linear": distance,
        "kappa_quadratic": distance * distance,
    }
    # Chance agreement is 1 exactly when E lies on the diagonal: sum(W * E) == 0 for every W.
    off_diagonal = np.einsum("pck,ck->p", expected, weights["kappa"])
    defined = has_shared & (off_diagonal > 0)
    kappas: dict[str, NDArray[np.float64]] = {}
    for name, weight in weights.items():
        observed_sum = np.einsum("pck,ck->p", confusion, weight)
        expected_sum = np.einsum("pck,ck->p", expected, weight)
        value = np.full(n_pairs, np.nan)
        np.divide(observed_sum, expected_sum, out=value, where=defined)
        np.subtract(1.0, value, out=value, where=defined)
        kappas[name] = value
    return kappas, defined
