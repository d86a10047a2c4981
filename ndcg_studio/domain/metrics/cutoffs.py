"""The measures of trec_eval that take cutoffs — P@K, recall@K, nDCG@K and AP@K — at many
cutoffs K at once, in one pass over the ranked rows.

trec_eval computes every cutoff of a measure in one pass over each ranked list; so does this
module: the rows are put in run order and looked up in the qrels once, and each cutoff is a
masked sum of what was computed for the whole list. The definitions are those of
:func:`ndcg_studio.domain.metrics.measures.score` (P@K, nDCG@K) and
:func:`ndcg_studio.domain.metrics.incomplete.incomplete_measures` (recall@K, AP@K), to the last
bit: every sum adds the same terms in the same order (``tests/domain/test_cutoffs.py`` checks
it), so ``ndcg-studio eval`` prints the same digits either way (``benchmarks/bench_eval.py``
guards the speed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.incomplete import cumsum_in_groups
from ndcg_studio.domain.metrics.measures import (
    Qrels,
    RankedLists,
    ScoringParams,
    ideal_dcg,
    index_spaces,
    judgments_of,
    rank_groups,
)

__all__ = ["CutoffMeasures", "cutoff_measures"]


@dataclass(frozen=True, eq=False)
class CutoffMeasures:
    """Per group and cutoff: float64 arrays of shape (n_groups, len(cutoffs)).

    Attributes:
        cutoffs: the cutoffs K, as given.
        precision: P@K = relevant documents in the top K / K.
        recall: relevant documents in the top K / R (0 when R = 0).
        ndcg: DCG@K / IDCG@K with the ideal from every judged document of the query (0 when
            IDCG@K = 0).
        ap: AP cut at K (trec_eval ``map_cut.K``), divided by R.
        n_returned: (n_groups,) int64 documents in each list (trec_eval ``num_ret``).
        rr: (n_groups,) 1 / the rank of the first relevant document of the whole list, 0 when
            none (``recip_rank``).
        ndcg_whole: (n_groups,) nDCG of the whole list (``ndcg``).
        Every value but ``n_returned`` is NaN for a query with no judgment.
    """

    cutoffs: tuple[int, ...]
    precision: NDArray[np.float64]
    recall: NDArray[np.float64]
    ndcg: NDArray[np.float64]
    ap: NDArray[np.float64]
    n_returned: NDArray[np.int64]
    rr: NDArray[np.float64]
    ndcg_whole: NDArray[np.float64]


def cutoff_measures(
    lists: RankedLists, qrels: Qrels, params: ScoringParams, cutoffs: Sequence[int]
) -> CutoffMeasures:
    """P@K, recall@K, nDCG@K and AP@K of every group at every cutoff in ``cutoffs``, with the
    list lengths, RR and nDCG of the whole lists, in one pass.

    SOURCE: trec_eval ``m_P.c``, ``m_recall.c``, ``m_ndcg_cut.c``, ``m_map_cut.c``; the gain,
    relevance threshold and run order of ``params`` (its ``k`` and ``ideal`` are not used: the
    ideal is from the judged documents, as ``ndcg_cut``).

    Args:
        lists: the ranked lists (n results, n_groups groups).
        qrels: one grade per judged (query, document).
        params: gain, relevance threshold and run order.
        cutoffs: the cutoffs K >= 1.

    Returns:
        A :class:`CutoffMeasures` of (n_groups, len(cutoffs)) arrays.

    Raises:
        ValueError: a cutoff below 1, a document twice in one ranked list, or two grades for
            one (query, document).
    """
    if any(k < 1 for k in cutoffs):
        raise ValueError(f"cutoffs must be >= 1, got {list(cutoffs)}")
    n_groups = lists.n_groups
    n_queries, n_docs = index_spaces(lists, qrels)
    ranked = rank_groups(lists, params)
    rows = ranked.rows(np.arange(ranked.group.shape[0], dtype=np.intp))
    group, pos = ranked.group, ranked.pos
    judgments = judgments_of(qrels, params, n_queries, n_docs)
    _judged, grade, gain = judgments.lookup(lists.group_query[group], lists.doc[rows])
    relevant = grade >= params.relevance_threshold  # NaN compares False
    # the terms of every sum, once: discounted gains, and precision at each relevant document
    discounted = gain / np.log2(pos + 2.0)
    found = cumsum_in_groups(relevant.astype(np.float64), group)
    precision_at_rel = np.where(relevant, found / (pos + 1.0), 0.0)
    qrels_relevant = qrels.grade >= params.relevance_threshold
    r_count = np.bincount(qrels.query[qrels_relevant], minlength=n_queries)[lists.group_query]
    r_safe = np.maximum(r_count, 1).astype(np.float64)
    has_judgments = np.bincount(qrels.query, minlength=n_queries)[lists.group_query] > 0
    shape = (n_groups, len(cutoffs))
    precision, recall, ndcg, ap = (np.zeros(shape) for _ in range(4))

    def ndcg_of(top: NDArray[np.bool_] | slice, k: int | None) -> NDArray[np.float64]:
        dcg = np.bincount(group[top], weights=discounted[top], minlength=n_groups)
        idcg = ideal_dcg(qrels.query, judgments.gain, judgments.level, n_queries, k)
        idcg = idcg[lists.group_query]
        positive = idcg > 0
        return np.asarray(np.where(positive, dcg / np.where(positive, idcg, 1.0), 0.0))

    for j, k in enumerate(cutoffs):
        top = pos < k
        g_top = group[top]
        n_rel = np.bincount(g_top[relevant[top]], minlength=n_groups)
        precision[:, j] = n_rel / float(k)
        recall[:, j] = n_rel / r_safe
        ndcg[:, j] = ndcg_of(top, k)
        ap[:, j] = np.bincount(g_top, weights=precision_at_rel[top], minlength=n_groups) / r_safe
    ndcg_whole = ndcg_of(slice(None), None)
    # the first relevant row of each group (rows are in run order, groups ascending)
    rel_rows = np.flatnonzero(relevant)
    rel_groups, first = np.unique(group[rel_rows], return_index=True)
    rr = np.zeros(n_groups)
    rr[rel_groups] = 1.0 / (pos[rel_rows[first]] + 1.0)
    for column in (precision, recall, ndcg, ap, ndcg_whole, rr):
        column[~has_judgments] = np.nan
    return CutoffMeasures(
        tuple(cutoffs), precision, recall, ndcg, ap, ranked.n_returned, rr, ndcg_whole
    )
