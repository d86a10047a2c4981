"""The measures of trec_eval that take cutoffs — P@K, recall@K, nDCG@K and AP@K — at many
cutoffs K at once, in one pass over the ranked rows, with the whole lists' RR, nDCG and AP.

trec_eval computes every cutoff of a measure in one pass over each ranked list; so does this
module: the rows are put in run order and looked up in the qrels once, and each cutoff reads
running sums of what was computed for the whole list. The definitions are those of
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

from ndcg_studio.domain.metrics.ideal import ideal_dcg_at, integer_levels
from ndcg_studio.domain.metrics.incomplete import RunRows, run_rows
from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoringParams, gains_of_grades

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
        ap_whole: (n_groups,) AP of the whole list (``map``), divided by R.
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
    ap_whole: NDArray[np.float64]


def cutoff_measures(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams,
    cutoffs: Sequence[int],
    *,
    rows: RunRows | None = None,
) -> CutoffMeasures:
    """P@K, recall@K, nDCG@K and AP@K of every group at every cutoff in ``cutoffs``, with the
    list lengths, RR, nDCG and AP of the whole lists, in one pass.

    SOURCE: trec_eval ``m_P.c``, ``m_recall.c``, ``m_ndcg_cut.c``, ``m_map_cut.c``,
    ``m_recip_rank.c``, ``m_ndcg.c``, ``m_map.c``; the gain,
    relevance threshold and run order of ``params`` (its ``k`` and ``ideal`` are not used: the
    ideal is from the judged documents, as ``ndcg_cut``).

    Args:
        lists: the ranked lists (n results, n_groups groups).
        qrels: one grade per judged (query, document).
        params: gain, relevance threshold and run order.
        cutoffs: the cutoffs K >= 1.
        rows: :func:`~ndcg_studio.domain.metrics.incomplete.run_rows` of these lists and qrels
            in ``params``' run order, when the caller has them already (found here
            otherwise): the rows are then put in run order and looked up once for this and
            the measures of :mod:`~ndcg_studio.domain.metrics.incomplete`.

    Returns:
        A :class:`CutoffMeasures` of (n_groups, len(cutoffs)) arrays.

    Raises:
        ValueError: a cutoff below 1, a document twice in one ranked list, two grades for one
            (query, document), or gains that refuse a grade
            (:func:`~ndcg_studio.domain.metrics.measures.gains_of_grades`).
    """
    if any(k < 1 for k in cutoffs):
        raise ValueError(f"cutoffs must be >= 1, got {list(cutoffs)}")
    n_groups = lists.n_groups
    if rows is None:
        rows = run_rows(lists, qrels, params)
    ranked, grade, n_queries = rows.ranked, rows.grade, rows.n_queries
    group, pos = ranked.group, ranked.pos
    # the gains of the qrels (for the ideal) and of the rows: the same function of the same
    # grades, 0 for a document not in the qrels (NaN grade)
    qrels_gain = gains_of_grades(qrels.grade, params.gain)
    judged = ~np.isnan(grade)
    gain = np.where(judged, gains_of_grades(np.where(judged, grade, 0.0), params.gain), 0.0)
    relevant = grade >= params.relevance_threshold  # NaN compares False
    # the terms of every sum, once: discounted gains, and precision at each relevant document
    discounted = gain / np.log2(pos + 2.0)
    found, r_count, _n_count, has_judgments = rows.relevance(
        qrels, params.relevance_threshold, lists.group_query
    )
    precision_at_rel = np.where(relevant, found / (pos + 1.0), 0.0)
    r_safe = np.maximum(r_count, 1).astype(np.float64)
    levels = integer_levels(qrels.grade)
    ideal = ideal_dcg_at(qrels.query, qrels_gain, levels, n_queries, [*cutoffs, None])
    ideal = ideal[lists.group_query]
    # each cutoff's sums: columns of running sums, or a masked pass per cutoff
    whole = max(int(ranked.n_returned.max()) if n_groups else 0, 1)
    sums = _PrefixSums.of(group, pos, ranked.n_returned) if len(cutoffs) else None
    sum_at = sums.at if sums is not None else _MaskedSums(group, pos, n_groups).at
    n_rel = sum_at(relevant, cutoffs)
    dcg = sum_at(discounted, [*cutoffs, whole])
    k = np.asarray(cutoffs, dtype=np.float64)
    precision = n_rel / k
    recall = n_rel / r_safe[:, None]
    ndcg = _ratio(dcg[:, :-1], ideal[:, :-1])
    ap_sums = sum_at(precision_at_rel, [*cutoffs, whole])
    ap = ap_sums[:, :-1] / r_safe[:, None]
    ap_whole = ap_sums[:, -1] / r_safe
    ndcg_whole = _ratio(dcg[:, -1], ideal[:, -1])
    rr = _reciprocal_rank(group, pos, relevant, n_groups)
    for column in (precision, recall, ndcg, ap, ndcg_whole, rr, ap_whole):
        column[~has_judgments] = np.nan
    return CutoffMeasures(
        tuple(cutoffs), precision, recall, ndcg, ap, ranked.n_returned, rr, ndcg_whole, ap_whole
    )


def _reciprocal_rank(
    group: NDArray[np.int64], pos: NDArray[np.int64], relevant: NDArray[np.bool_], n_groups: int
) -> NDArray[np.float64]:
    """(n_groups,) float64 1 / rank of each group's first relevant row, 0 without one
    (trec_eval ``m_recip_rank.c``). The rows are in run order, groups ascending; ``pos`` is
    0-based."""
    rel_rows = np.flatnonzero(relevant)
    rel_group = group[rel_rows]
    first = np.flatnonzero(np.concatenate(([True], rel_group[1:] != rel_group[:-1])))
    rr = np.zeros(n_groups)
    if rel_rows.size:
        rr[rel_group[first]] = 1.0 / (pos[rel_rows[first]] + 1.0)
    return rr


@dataclass(frozen=True, eq=False)
class _MaskedSums:
    """Each group's sum of its first K values by one ``bincount`` over the rows ranked < K,
    per cutoff: for lists of very different lengths, where :class:`_PrefixSums` would pad."""

    group: NDArray[np.int64]
    pos: NDArray[np.int64]
    n_groups: int

    def at(self, values: NDArray[np.generic], cutoffs: Sequence[int]) -> NDArray[np.float64]:
        """(n_groups, len(cutoffs)) float64: the sum of each group's first K values, added in
        row order, for each cutoff K."""
        out = np.zeros((self.n_groups, len(cutoffs)))
        weights = np.asarray(values, dtype=np.float64)
        for j, k in enumerate(cutoffs):
            top = self.pos < k
            out[:, j] = np.bincount(self.group[top], weights=weights[top], minlength=self.n_groups)
        return out


def _ratio(dcg: NDArray[np.float64], idcg: NDArray[np.float64]) -> NDArray[np.float64]:
    """DCG / IDCG, 0 where IDCG is 0."""
    positive = idcg > 0
    return np.asarray(np.where(positive, dcg / np.where(positive, idcg, 1.0), 0.0))


@dataclass(frozen=True, eq=False)
class _PrefixSums:
    """Running sums along each group's list, read at any cutoff in O(groups).

    The rows are put in an (n_groups, longest) matrix, each group's list a row padded with
    zeros, and summed along the rows: ``cumsum`` adds left to right, one term at a time, as
    ``bincount`` adds a group's terms in row order, so the sum of the first K terms is the
    same double either way (the zeros of the padding add nothing). Used when the lists are of
    similar length (the padding at most doubles the rows); a cutoff then costs a column read
    instead of a pass over every row (``bench_eval.py --set shared``: nine cutoffs).
    """

    cell: NDArray[np.int64]  # (n,) each row's place in the flattened matrix
    shape: tuple[int, int]

    @classmethod
    def of(
        cls, group: NDArray[np.int64], pos: NDArray[np.int64], n_returned: NDArray[np.int64]
    ) -> _PrefixSums | None:
        n_groups = int(n_returned.shape[0])
        longest = int(n_returned.max()) if n_groups else 0
        if longest == 0 or n_groups * longest > 2 * group.shape[0]:
            return None
        return cls(group * longest + pos, (n_groups, longest))

    def at(self, values: NDArray[np.generic], cutoffs: Sequence[int]) -> NDArray[np.float64]:
        """(n_groups, len(cutoffs)) float64: the sum of each group's first K values (in row
        order) for each cutoff K."""
        matrix = np.zeros(self.shape[0] * self.shape[1], dtype=np.float64)
        matrix[self.cell] = values
        running = np.cumsum(matrix.reshape(self.shape), axis=1)
        del matrix
        columns = [min(k, self.shape[1]) - 1 for k in cutoffs]
        return np.asarray(running[:, columns], dtype=np.float64)
