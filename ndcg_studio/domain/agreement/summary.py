"""Inter-annotator agreement on graded relevance judgments (pure numpy).

Public entry points (all take a :class:`Ratings`, the judgments in long format):

* :func:`alpha` -- Krippendorff's alpha (nominal, ordinal, interval, ratio) with missing data;
  :func:`alpha_by_group` per query, :func:`alpha_bootstrap` confidence interval (items resampled),
  :func:`alpha_leave_one_out` alpha without each annotator.
* :func:`fleiss_kappa` -- Fleiss' kappa when every item has the same number of grades.
* :func:`pairwise_cohen_kappa` -- Cohen's kappa (unweighted, linear, quadratic) per annotator pair.
* :func:`item_spread` -- per item count, mean, median, min, max, range, std, disputed flag.
* :func:`agreement_summary` -- all of the above in one :class:`AgreementSummary`.

Undefined statistics are NaN with a human-readable ``undefined_reason``; they never raise. The
formulas and their sources are in the docstrings of the modules ``agreement_alpha``,
``agreement_alpha_ci``, ``agreement_kappa`` and ``agreement_spread``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.agreement.alpha import (
    AlphaResult,
    GroupAlphaResult,
    alpha,
    alpha_by_group,
)
from ndcg_studio.domain.agreement.alpha_intervals import (
    AlphaInterval,
    alpha_bootstrap,
    alpha_leave_one_out,
)
from ndcg_studio.domain.agreement.kappa import (
    FleissResult,
    PairwiseKappa,
    fleiss_kappa,
    pairwise_cohen_kappa,
)
from ndcg_studio.domain.agreement.ratings import Ratings, encode_grades
from ndcg_studio.domain.agreement.spread import ItemSpread, item_spread
from ndcg_studio.vocabulary import DEFAULT_DISPUTED_RANGE, Level

__all__ = ["AgreementSummary", "agreement_summary"]


@dataclass(frozen=True, eq=False)
class AgreementSummary:
    """Everything the agreement view shows, computed on one value domain.

    Attributes:
        level: level of measurement of every alpha.
        values: ``(V,) float64`` value domain (increasing).
        n_items, n_annotators, n_ratings, n_queries: sizes of the data.
        alpha: overall Krippendorff's alpha.
        alpha_ci: bootstrap interval of ``alpha`` (items resampled).
        fleiss: Fleiss' kappa over all judged items (NaN with a reason unless every item has the
            same number of grades).
        pairwise: Cohen's kappas of every annotator pair, ``A (A-1) / 2`` entries.
        per_query: alpha of every query, arrays ``(n_queries,)``.
        leave_one_out: alpha without each annotator, arrays ``(n_annotators,)``.
        spread: per-item spread, arrays ``(n_items,)``.
    """

    level: Level
    values: NDArray[np.float64]
    n_items: int
    n_annotators: int
    n_ratings: int
    n_queries: int
    alpha: AlphaResult
    alpha_ci: AlphaInterval
    fleiss: FleissResult
    pairwise: PairwiseKappa
    per_query: GroupAlphaResult
    leave_one_out: GroupAlphaResult
    spread: ItemSpread


def agreement_summary(
    ratings: Ratings,
    level: Level,
    item_query: ArrayLike,
    n_queries: int,
    *,
    values: ArrayLike | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    disputed_range: float = DEFAULT_DISPUTED_RANGE,
) -> AgreementSummary:
    """Overall alpha with its bootstrap CI, Fleiss' kappa, pairwise Cohen's kappas, per-query
    alpha, leave-one-annotator-out alpha and per-item spread.

    Args:
        ratings: the judgments; an item is a (query, document) pair.
        level: level of measurement for every alpha (relevance grades: ``"ordinal"``).
        item_query: ``(n_items,)`` integer query of every item, in ``[0, n_queries)``.
        n_queries: number of queries.
        values: value domain, e.g. ``[0, 1, 2, 3, 4]``; default the grades present. Fixing it makes
            the coincidence matrix shape stable across data sets; no statistic depends on it.
        n_resamples, confidence, seed: bootstrap settings (see :func:`alpha_bootstrap`).
        disputed_range: threshold of :func:`item_spread`.

    Returns:
        :class:`AgreementSummary`.

    Raises:
        ValueError: as the individual functions.
    """
    _, domain = encode_grades(ratings.grade, values)
    return AgreementSummary(
        level=level,
        values=domain,
        n_items=ratings.n_items,
        n_annotators=ratings.n_annotators,
        n_ratings=ratings.n_ratings,
        n_queries=int(n_queries),
        alpha=alpha(ratings, level, values=domain),
        alpha_ci=alpha_bootstrap(
            ratings,
            level,
            values=domain,
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
        ),
        fleiss=fleiss_kappa(ratings, values=domain),
        pairwise=pairwise_cohen_kappa(ratings, values=domain),
        per_query=alpha_by_group(ratings, item_query, n_queries, level, values=domain),
        leave_one_out=alpha_leave_one_out(ratings, level, values=domain),
        spread=item_spread(ratings, disputed_range=disputed_range),
    )
