"""Per-annotator statistics of a judging campaign (pure numpy): consensus of the others,
leniency, weighted Cohen's kappa with that consensus, gold accuracy.

Grades are integers 0–4; trec_eval's -1 ("judged non-relevant") counts as 0 here, as it does
beside other grades in :mod:`ndcg_studio.domain.consensus`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "GoldAccuracy",
    "KappaWeights",
    "gold_accuracy",
    "lower_median",
    "others_consensus",
    "weighted_kappa",
]

KappaWeights = Literal["none", "linear", "quadratic"]


def lower_median(grades: ArrayLike) -> int:
    """The lower median of integer grades (with an even count the lower of the two middle ones):
    an integer consensus that never rounds an even split up.

    Raises:
        ValueError: no grades.
    """
    values = np.sort(np.asarray(grades, dtype=np.int64))
    if values.size == 0:
        raise ValueError("the median of no grades is undefined")
    return int(values[(values.size - 1) // 2])


def weighted_kappa(
    a: ArrayLike, b: ArrayLike, labels: ArrayLike, weights: KappaWeights = "quadratic"
) -> float:
    """Cohen's weighted kappa of two paired label sequences over the category list ``labels``.

    ``kappa = 1 - sum(w * O) / sum(w * E)`` with ``O`` the observed confusion matrix of the pairs
    (``(L, L)`` over ``labels`` in order), ``E`` the outer product of its marginals divided by
    the number of pairs, and disagreement weights ``w[i, j]`` = 0 on the diagonal and 1 off it
    (``none``), ``|i - j|`` (``linear``) or ``(i - j)²`` (``quadratic``), ``i, j`` the positions
    in ``labels``. SOURCE: Cohen (1968), "Weighted kappa", Psychological Bulletin 70(4); the
    same as scikit-learn's ``cohen_kappa_score(a, b, labels=labels, weights=…)``.

    Args:
        a, b: ``(n,)`` labels, each one of ``labels``.
        labels: ``(L,)`` the categories, in order (ordinal position drives the weights).

    Returns:
        kappa in ``[-1, 1]``; NaN when there are no pairs or the expected disagreement is 0
        (one category only: kappa is undefined, scikit-learn returns NaN with a warning).

    Raises:
        ValueError: ``a`` and ``b`` differ in length, or hold a value not in ``labels``.
    """
    x, y = np.asarray(a), np.asarray(b)
    cats = np.asarray(labels)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"a and b must be 1-D of equal length, got {x.shape} and {y.shape}")
    if x.size == 0:
        return float("nan")
    index = {value.item(): i for i, value in enumerate(cats)}
    try:
        xi = np.fromiter((index[v] for v in x.tolist()), dtype=np.int64, count=x.size)
        yi = np.fromiter((index[v] for v in y.tolist()), dtype=np.int64, count=y.size)
    except KeyError as exc:
        raise ValueError(f"label {exc.args[0]!r} is not one of {cats.tolist()}") from exc
    n_labels = cats.size
    observed = np.bincount(xi * n_labels + yi, minlength=n_labels * n_labels).astype(np.float64)
    observed = observed.reshape(n_labels, n_labels)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / x.size
    i, j = np.indices((n_labels, n_labels))
    if weights == "none":
        w = (i != j).astype(np.float64)
    elif weights == "linear":
        w = np.abs(i - j).astype(np.float64)
    elif weights == "quadratic":
        w = ((i - j) ** 2).astype(np.float64)
    else:
        raise ValueError(f"weights is 'none', 'linear' or 'quadratic', not {weights!r}")
    denominator = float((w * expected).sum())
    if denominator == 0.0:
        return float("nan")
    return 1.0 - float((w * observed).sum()) / denominator


@dataclass(frozen=True, slots=True)
class GoldAccuracy:
    """How often an annotator matched the known grades of gold items.

    ``exact`` and ``within_one`` are fractions in [0, 1] of ``n`` gold items (NaN when n = 0).
    """

    n: int
    exact: float
    within_one: float


def gold_accuracy(grades: ArrayLike, gold: ArrayLike) -> GoldAccuracy:
    """Exact and within-one-grade agreement of ``grades`` with the ``gold`` grades (paired ``(n,)``
    integer arrays; -1 counts as 0).

    Raises:
        ValueError: the arrays differ in shape.
    """
    g = np.maximum(np.asarray(grades, dtype=np.int64), 0)
    k = np.maximum(np.asarray(gold, dtype=np.int64), 0)
    if g.shape != k.shape:
        raise ValueError(f"grades and gold differ in shape: {g.shape} and {k.shape}")
    if g.size == 0:
        return GoldAccuracy(0, float("nan"), float("nan"))
    diff = np.abs(g - k)
    return GoldAccuracy(int(g.size), float(np.mean(diff == 0)), float(np.mean(diff <= 1)))


def others_consensus(
    item: NDArray[np.int64], annotator: NDArray[np.int64], grade: NDArray[np.int64], who: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For every item ``who`` graded that at least one other annotator graded too: ``who``'s grade
    and the others' consensus (:func:`lower_median` of their grades).

    Args:
        item, annotator, grade: ``(n,)`` int64 long-format judgments (one per item and annotator).
        who: the annotator code.

    Returns:
        ``(own, consensus)``, two ``(m,)`` int64 arrays in item order.
    """
    grade = np.maximum(grade, 0)
    mine = annotator == who
    own_by_item = dict(zip(item[mine].tolist(), grade[mine].tolist(), strict=True))
    others: dict[int, list[int]] = {}
    for it, g in zip(item[~mine].tolist(), grade[~mine].tolist(), strict=True):
        if it in own_by_item:
            others.setdefault(it, []).append(g)
    keys = sorted(others)
    own = np.array([own_by_item[k] for k in keys], dtype=np.int64)
    consensus = np.array([lower_median(others[k]) for k in keys], dtype=np.int64)
    return own, consensus
