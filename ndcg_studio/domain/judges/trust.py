"""How far a machine source's grades can be trusted, from the confusion matrix against humans.

Cohen's kappa (unweighted, linear, quadratic) and Krippendorff's alpha come from the agreement
package (:func:`ndcg_studio.domain.agreement.kappa.pairwise_cohen_kappa`,
:func:`ndcg_studio.domain.agreement.alpha.alpha`); this module adds each grade's precision and
recall, the reading a user correcting machine labels needs ("of the items the model called 3,
how many are 3 for the humans?").
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["precision_recall"]


def precision_recall(confusion: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per-grade precision and recall of the columns' labels against the rows' (the reference).

    Args:
        confusion: ``(G, G)`` counts, rows = the reference's grade (humans), columns = the
            machine's, same grade order.

    Returns:
        ``(precision, recall)``, each ``(G,) float64``: ``C[g, g] / sum_r C[r, g]`` and
        ``C[g, g] / sum_c C[g, c]``; NaN where the machine never gave (precision) or the
        reference never had (recall) grade g.

    Raises:
        ValueError: a matrix that is not square.
    """
    c = np.asarray(confusion, dtype=np.float64)
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError(f"confusion must be square, got shape {c.shape}")
    hits = np.diag(c)
    given, had = c.sum(axis=0), c.sum(axis=1)
    precision = np.full(hits.shape, np.nan)
    recall = np.full(hits.shape, np.nan)
    np.divide(hits, given, out=precision, where=given > 0)
    np.divide(hits, had, out=recall, where=had > 0)
    return precision, recall
