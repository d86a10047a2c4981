"""Measures for incomplete judgments and their companions, for many ranked lists at once.

Same inputs and layout as :mod:`ndcg_studio.domain.metrics.measures` (``RankedLists`` grouped by
(run, query) group, one grade per judged (query, document) in ``Qrels``, run order = score
descending then document id descending, trec_eval ``form_res_rels.c``); every measure is an
(n_groups,) array computed for all groups at once.

Vocabulary (trec_eval ``form_res_rels.c``):

* *judged*: the (query, document) pair is in the qrels with a grade >= 0. A negative grade
  (trec_eval's -1) means "in the pool but not judged": it counts as unjudged here, as in
  trec_eval's ``-J``, ``bpref`` and ``rbp_resid`` (so it differs from ``ScoreTable.judged_at_k``,
  which counts every qrels row).
* *relevant*: judged with grade >= ``relevance_threshold`` (trec_eval ``-l``, default 1).
* *judged non-relevant*: judged with 0 <= grade < threshold.
* R = number of relevant judged documents of the query (returned or not); N = number of
  judged non-relevant documents of the query.

Measures (rank r counts from 1 in run order):

* ``ndcg_condensed``: nDCG′@K (Sakai 2007, SIGIR, "Alternatives to bpref"; trec_eval ``-J``
  with ``ndcg_cut.K``): unjudged documents are removed from the list first, the remaining
  ones keep their order, then nDCG@K is computed by :func:`metrics.score` with the same
  parameters (gain, ideal, K).
* ``ap``: average precision over the whole list, trec_eval ``map``: sum over the relevant
  returned documents of (relevant at or above r) / r, divided by R; 0 when R = 0.
* ``ap_at_k``: the same over ranks <= K, still divided by R (trec_eval ``map_cut.K``).
* ``recall``: relevant documents in the top K / R (trec_eval ``recall.K``; whole list when
  K is None); 0 when R = 0.
* ``bpref``: Buckley & Voorhees (2004, SIGIR, "Retrieval evaluation with incomplete
  information") exactly as trec_eval ``m_bpref.c``: unjudged documents are skipped; each
  relevant returned document adds 1 - min(n, R) / min(N, R), n = judged non-relevant
  documents above it (1 when n = 0); the sum is divided by R (0 when R = 0). Over the whole
  list, no cutoff.
* ``rbp``: rank-biased precision (Moffat & Zobel 2008, ACM TOIS 27(1)), (1 - p) sum_r g_r
  p**(r - 1) over the whole list, persistence p (default 0.8). Binary gain by default
  (g = 1 for relevant documents, else 0); ``rbp_gain="graded"`` is trec_eval's ``rbp``:
  g = grade / (largest grade >= 0 judged for the query) when that largest grade exceeds 1,
  else g = grade, for judged documents (threshold not used), 0 for the others.
* ``rbp_residual``: Moffat & Zobel's residual, the most RBP could still rise if every
  unjudged returned document and every document below the list had gain 1:
  (1 - p) sum_{unjudged r} p**(r - 1) + p**n_returned. trec_eval's ``rbp_resid`` is the same
  number but is 0 when the list holds no unjudged document (it leaves out the tail then).

Every measure is NaN when the query has no judgment at all (like ``ScoreTable.ndcg``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.kernels import stable_radix_argsort
from ndcg_studio.domain.metrics.measures import (
    Qrels,
    RankedLists,
    RankedRows,
    ScoringParams,
    index_spaces,
    judgments_of,
    rank_groups,
    score,
)

__all__ = [
    "INFAP_EPSILON",
    "RECALL_LEVELS",
    "IncompleteTable",
    "RunRows",
    "incomplete_measures",
    "inferred_ap",
    "ndcg_rel",
    "recall_precision",
    "run_rows",
]

_F64 = np.float64
_I64 = np.int64


@dataclass(frozen=True, eq=False)
class IncompleteTable:
    """Per-group measures for incomplete judgments; every attribute is an (n_groups,) array.

    Attributes (definitions in the module docstring; float64 in [0, 1] unless stated, NaN
    when the query has no judgment):
        ndcg_condensed: nDCG′@K, unjudged documents removed (trec_eval -J ndcg_cut.K).
        ap: average precision, whole list (trec_eval map).
        ap_at_k: average precision cut at K (trec_eval map_cut.K).
        recall: recall at K (trec_eval recall.K).
        bpref: trec_eval bpref.
        rbp: rank-biased precision with persistence p.
        rbp_residual: RBP residual (unjudged documents of the list plus the tail p**n).
        n_relevant: int64 R, relevant judged documents of the query.
        n_nonrelevant: int64 N, judged non-relevant documents of the query.
        n_unjudged: int64 returned documents of the group that are not judged (grade < 0 or
            absent from the qrels).
        has_judgments: bool, the query has at least one qrels row.
    """

    ndcg_condensed: NDArray[np.float64]
    ap: NDArray[np.float64]
    ap_at_k: NDArray[np.float64]
    recall: NDArray[np.float64]
    bpref: NDArray[np.float64]
    rbp: NDArray[np.float64]
    rbp_residual: NDArray[np.float64]
    n_relevant: NDArray[np.int64]
    n_nonrelevant: NDArray[np.int64]
    n_unjudged: NDArray[np.int64]
    has_judgments: NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.ap.shape[0])

    def as_dict(self) -> dict[str, NDArray[np.generic]]:
        """The columns by name (same arrays, no copy)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def cumsum_in_groups(
    values: NDArray[np.float64], segment: NDArray[np.int64]
) -> NDArray[np.float64]:
    """Inclusive running sum of ``values`` restarting at each new value of ``segment`` (sorted).

    Each row's value is the running sum of the whole array minus that sum before its segment's
    first row (so the same double whichever way the segments are found)."""
    total = np.cumsum(values)
    n = values.shape[0]
    if n == 0:
        return total
    starts = np.flatnonzero(segment[1:] != segment[:-1]) + 1
    starts = np.concatenate(([0], starts))
    base = total[starts] - values[starts]
    # each segment's base over its rows: a repeat, not a gather (bench_eval.py --set shared)
    return np.asarray(total - np.repeat(base, np.diff(starts, append=n)), dtype=_F64)


def incomplete_measures(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams | None = None,
    *,
    persistence: float = 0.8,
    rbp_gain: Literal["binary", "graded"] = "binary",
    condensed: bool = True,
    rows: RunRows | None = None,
) -> IncompleteTable:
    """nDCG′@K, AP, AP@K, Recall@K, bpref, RBP and its residual of every group at once.

    SOURCE: trec_eval ``form_res_rels.c`` (run order, judged/unjudged), ``m_map.c``,
    ``m_map_cut.c``, ``m_recall.c``, ``m_bpref.c``, ``m_rbp.c``, ``m_rbp_resid.c`` and ``-J``;
    Sakai (2007) SIGIR; Buckley & Voorhees (2004) SIGIR; Moffat & Zobel (2008) ACM TOIS. See
    the module docstring for the exact definitions.

    Args:
        lists: the ranked lists (n results, n_groups groups).
        qrels: one grade per judged (query, document).
        params: K (cutoff of nDCG′, AP@K and Recall@K; None = whole list), relevance
            threshold, run order, and the gain and ideal of nDCG′ (default: trec_eval's
            ``ndcg_cut.10``, threshold 1).
        persistence: RBP's p, in (0, 1).
        rbp_gain: ``"binary"`` (relevant = 1) or ``"graded"`` (trec_eval ``rbp``).
        condensed: compute nDCG′ (False: ``ndcg_condensed`` is all NaN, which saves a
            :func:`metrics.score` call when only the other measures are wanted).
        rows: :func:`run_rows` of these lists and qrels in ``params``' run order, when the
            caller has them already (found here otherwise).

    Returns:
        An :class:`IncompleteTable` of (n_groups,) arrays.

    Raises:
        ValueError: p outside (0, 1), unknown rbp_gain, a document twice in one ranked list,
            two grades for one (query, document), or index spaces too large for 64-bit keys.
    """
    _check_rbp(persistence, rbp_gain)
    params, in_order = _in_run_order(lists, qrels, params, rows)
    return _incomplete_table(lists, qrels, params, in_order, persistence, rbp_gain, condensed)


def _incomplete_table(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams,
    in_order: RunRows,
    persistence: float,
    rbp_gain: str,
    condensed: bool,
) -> IncompleteTable:
    """:func:`incomplete_measures` once its options are checked and its rows found."""
    n_groups = lists.n_groups
    ranked, rows, grade, n_queries = (
        in_order.ranked,
        in_order.rows,
        in_order.grade,
        in_order.n_queries,
    )
    n = ranked.group.shape[0]
    group, query_of_group = ranked.group, lists.group_query
    judged = grade >= 0.0  # NaN compares False
    relevant = grade >= params.relevance_threshold
    cut = params.k if params.k is not None else n + 1
    rel_so_far, r_count, n_count, has_judgments = in_order.relevance(
        qrels, params.relevance_threshold, query_of_group
    )
    r_safe = np.maximum(r_count, 1).astype(_F64)
    ap, ap_at_k, recall = _ap_and_recall(
        relevant, rel_so_far, group, ranked.pos, cut, r_safe, n_groups
    )
    bpref = _bpref(relevant, judged & ~relevant, group, r_count, n_count, r_safe, n_groups)
    rbp, rbp_residual, n_unjudged = _rbp(
        grade, judged, relevant, ranked, query_of_group, qrels, n_queries, persistence, rbp_gain
    )
    # nDCG′@K: drop the unjudged results, keep the order, score as usual.
    ndcg_condensed = (
        _condensed_ndcg(lists, qrels, params, rows[judged])
        if condensed
        else np.full(n_groups, np.nan)
    )
    for column in (ap, ap_at_k, recall, bpref, rbp, rbp_residual):
        column[~has_judgments] = np.nan
    return IncompleteTable(
        ndcg_condensed=np.asarray(ndcg_condensed, dtype=_F64),
        ap=ap,
        ap_at_k=ap_at_k,
        recall=recall,
        bpref=bpref,
        rbp=rbp,
        rbp_residual=rbp_residual,
        n_relevant=r_count,
        n_nonrelevant=n_count,
        n_unjudged=n_unjudged,
        has_judgments=has_judgments,
    )


#: The recall levels of trec_eval's ``iprec_at_recall`` (``m_iprec_at_recall.c``), as it reads
#: them from "0.0,0.1,...,1.0" (so 0.1 is the double nearest to one tenth, not 1/10).
RECALL_LEVELS: tuple[float, ...] = tuple(float(f"0.{i}") if i < 10 else 1.0 for i in range(11))


def recall_precision(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams | None = None,
    *,
    rows: RunRows | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """R-precision and the interpolated precision at the 11 standard recall levels, of every
    group at once.

    SOURCE: trec_eval ``m_Rprec.c`` and ``m_iprec_at_recall.c`` (the recall-precision curve of
    Salton & McGill, 1983, as TREC computes it). With R the query's relevant judged documents
    (grade >= ``params.relevance_threshold``) and rank r counted from 1 in run order:
    R-precision = (relevant documents at ranks <= R) / R. The interpolated precision at
    recall level x, as trec_eval 10 computes it: with c = round(x * R) (half away from zero,
    C's ``lround``), the highest precision at any rank from the c-th relevant retrieved
    document on (from the first when c = 0); 0 when fewer than c relevant documents were
    retrieved. Both are 0 when R = 0, NaN when the query has no judgment.

    Args:
        lists: the ranked lists (n results, n_groups groups).
        qrels: one grade per judged (query, document).
        params: the relevance threshold and the run order (``k`` is not used: whole lists).

    Returns:
        ``(r_precision, iprec)``: float64 arrays of shapes (n_groups,) and
        (n_groups, len(:data:`RECALL_LEVELS`)), values in [0, 1].

    Raises:
        ValueError: a document twice in one ranked list, or two grades for one (query, document).
    """
    params, in_order = _in_run_order(lists, qrels, params, rows)
    n_groups = lists.n_groups
    ranked, grade = in_order.ranked, in_order.grade
    group, query_of_group = ranked.group, lists.group_query
    relevant = grade >= params.relevance_threshold
    so_far, r_count, _n_count, has_judgments = in_order.relevance(
        qrels, params.relevance_threshold, query_of_group
    )
    r_safe = np.maximum(r_count, 1).astype(_F64)
    in_top_r = relevant & (ranked.pos < r_count[group])
    r_precision = np.bincount(group[in_top_r], minlength=n_groups) / r_safe
    # the precision and recall at each relevant document (the maxima of precision are there)
    found = so_far[relevant]
    rel_group = group[relevant]
    precision = found / (ranked.pos[relevant] + 1.0)
    # the c-th relevant retrieved document of each group: its place among the relevant rows
    first = np.searchsorted(rel_group, np.arange(n_groups))
    retrieved = np.bincount(rel_group, minlength=n_groups)
    iprec = np.zeros((n_groups, len(RECALL_LEVELS)))
    counts = np.floor(np.multiply.outer(r_count, RECALL_LEVELS) + 0.5).astype(_I64)  # lround
    some = np.flatnonzero(retrieved > 0)
    if some.size:
        # The highest precision from the c-th relevant document to the list's end: the maxima
        # of the segments between the 11 places (non-decreasing, each group's last reaching the
        # next group's first place), then a running maximum over them from the last. Exact (a
        # maximum of the precisions themselves) and without a sort (``bench_eval.py --set
        # shared``).
        n_here = retrieved[some, None]
        place = first[some, None] + np.minimum(np.maximum(counts[some], 1), n_here) - 1
        segment = np.maximum.reduceat(precision, place.reshape(-1)).reshape(place.shape)
        best = np.maximum.accumulate(segment[:, ::-1], axis=1)[:, ::-1]
        iprec[some] = np.where(counts[some] <= n_here, best, 0.0)
    r_precision[~has_judgments] = np.nan
    iprec[~has_judgments] = np.nan
    return r_precision, iprec


#: trec_eval's ``INFAP_EPSILON``, which keeps infAP's ratio defined with nothing judged above
INFAP_EPSILON = 0.00001


@dataclass(frozen=True, eq=False)
class RunRows:
    """The results in run order with their grades, found once and read by several measures
    (``ndcg-studio eval`` asks for many over the same lists: ``bench_eval.py --set shared``).

    Attributes:
        ranked: every group in run order (:func:`~ndcg_studio.domain.metrics.measures.rank_groups`).
        rows: (n,) intp, the input row at each run-order position.
        grade: (n,) float64 grade of each position's document, NaN when not in the qrels.
        n_queries, n_docs: the index spaces of the lists and qrels.
        threshold: the relevance threshold of ``relevant_so_far`` and the counts below.
        relevant_so_far: (n,) float64, the relevant documents (grade >= ``threshold``) at and
            above each position of its list.
        r_count, n_count: (n_groups,) int64, the relevant and the judged non-relevant
            documents of each group's query in the qrels.
        has_judgments: (n_groups,) bool, the group's query has a judgment.
    """

    ranked: RankedRows
    rows: NDArray[np.intp]
    grade: NDArray[np.float64]
    n_queries: int
    n_docs: int
    threshold: float
    relevant_so_far: NDArray[np.float64]
    r_count: NDArray[np.int64]
    n_count: NDArray[np.int64]
    has_judgments: NDArray[np.bool_]

    def relevance(
        self, qrels: Qrels, threshold: float, query_of_group: NDArray[np.int64]
    ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
        """(``relevant_so_far``, ``r_count``, ``n_count``, ``has_judgments``) at ``threshold``:
        those found by :func:`run_rows` when it is theirs (every measure of ``eval`` reads
        them: found once, ``bench_eval.py --set shared``), computed otherwise."""
        if threshold == self.threshold:
            return self.relevant_so_far, self.r_count, self.n_count, self.has_judgments
        relevant = self.grade >= threshold
        so_far = cumsum_in_groups(relevant.astype(_F64), self.ranked.group)
        return so_far, *_query_counts(qrels, threshold, self.n_queries, query_of_group)


def run_rows(lists: RankedLists, qrels: Qrels, params: ScoringParams) -> RunRows:
    """:class:`RunRows` of ``lists`` against ``qrels`` in ``params``' run order, the counts of
    relevant documents at ``params.relevance_threshold`` (its other fields are not used).

    Raises:
        ValueError: a document twice in one ranked list, or two grades for one (query, document).
    """
    n_queries, n_docs = index_spaces(lists, qrels)
    ranked = rank_groups(lists, params)
    rows = ranked.rows(np.arange(ranked.group.shape[0], dtype=np.intp))
    # the grades only: the gain plays no part, and linear gains refuse no grade (an exponential
    # gain refuses grades above 100, which these measures read as they are)
    judgments = judgments_of(qrels, ScoringParams(), n_queries, n_docs)
    doc = lists.doc if ranked.order is None else lists.doc[ranked.order]  # rows in run order
    grade = judgments.grades(lists.group_query[ranked.group], doc)
    threshold = params.relevance_threshold
    relevant_so_far = cumsum_in_groups((grade >= threshold).astype(_F64), ranked.group)
    counts = _query_counts(qrels, threshold, n_queries, lists.group_query)
    return RunRows(ranked, rows, grade, n_queries, n_docs, threshold, relevant_so_far, *counts)


def _in_run_order(
    lists: RankedLists, qrels: Qrels, params: ScoringParams | None, rows: RunRows | None
) -> tuple[ScoringParams, RunRows]:
    """``params`` (trec_eval's defaults when None) and :func:`run_rows` of the lists in its run
    order (``rows`` when the caller has them already).

    Raises:
        ValueError: as :func:`run_rows`.
    """
    if params is None:
        params = ScoringParams()
    return params, rows if rows is not None else run_rows(lists, qrels, params)


def inferred_ap(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams | None = None,
    *,
    rows: RunRows | None = None,
) -> NDArray[np.float64]:
    """Inferred AP of every group: AP estimated from a judged sample of the pool.

    SOURCE: Yilmaz & Aslam (2006), "Estimating average precision with incomplete and imperfect
    judgments", CIKM; as trec_eval 10 computes it (``m_infap.c``). A retrieved document is
    outside the pool (not in the qrels: skipped), in the pool but unjudged (a negative grade in
    the qrels), judged non-relevant (0 <= grade < ``params.relevance_threshold``) or relevant.
    At a relevant document at 0-based rank j with r relevant, n non-relevant and u unjudged
    pooled documents above it: 1 when j = 0, else 1/(j+1) + j/(j+1) · (r+n+u)/j · (r+ε)/(r+n+2ε)
    with ε = :data:`INFAP_EPSILON`; the sum over the relevant documents divided by R.

    Returns:
        (n_groups,) float64 in [0, 1]; 0 when R = 0, NaN when the query has no judgment.
    """
    params, in_order = _in_run_order(lists, qrels, params, rows)
    ranked, grade = in_order.ranked, in_order.grade
    group = ranked.group
    in_qrels = ~np.isnan(grade)
    relevant = in_qrels & (grade >= params.relevance_threshold)
    nonrelevant = in_qrels & (grade >= 0.0) & ~relevant
    unjudged = in_qrels & (grade < 0.0)
    so_far, r_count, _n, has_judgments = in_order.relevance(
        qrels, params.relevance_threshold, lists.group_query
    )
    above_r = so_far[relevant] - 1.0
    above_n = cumsum_in_groups(nonrelevant.astype(_F64), group)[relevant]
    above_u = cumsum_in_groups(unjudged.astype(_F64), group)[relevant]
    j = ranked.pos[relevant].astype(_F64)
    safe_j = np.maximum(j, 1.0)
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((above_r + above_n + above_u) / safe_j) * (
        (above_r + INFAP_EPSILON) / (above_r + above_n + 2 * INFAP_EPSILON)
    )
    term = np.where(j == 0, 1.0, term)
    total = np.bincount(group[relevant], weights=term, minlength=lists.n_groups)
    out = np.where(r_count > 0, total / np.maximum(r_count, 1), total)
    out[~has_judgments] = np.nan
    return np.asarray(out, dtype=_F64)


def ndcg_rel(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams | None = None,
    *,
    rows: RunRows | None = None,
) -> NDArray[np.float64]:
    """nDCG averaged over the relevant documents, of every group (gain = grade).

    SOURCE: trec_eval 10 ``m_ndcg_rel.c`` (Järvelin & Kekäläinen's nDCG, ACM TOIS 2002,
    averaged at relevant documents). With the R documents of positive gain in the qrels: at
    each retrieved document of positive gain at 0-based rank i, DCG@(i+1) / IDCG@(min(i, R-1)+1);
    each of the R minus those retrieved adds DCG of the whole list / IDCG of all R; the sum
    divided by R. The relevance threshold does not apply (gain > 0 is relevant here).

    Returns:
        (n_groups,) float64 in [0, 1]; 0 when R = 0, NaN when the query has no judgment.
    """
    params, in_order = _in_run_order(lists, qrels, params, rows)
    ranked, grade, n_queries = in_order.ranked, in_order.grade, in_order.n_queries
    group = ranked.group
    gain = np.where(grade > 0.0, grade, 0.0)  # NaN, unjudged and 0 gain nothing
    discount = 1.0 / np.log2(ranked.pos + 2.0)
    dcg = cumsum_in_groups(gain * discount, group)
    n_groups = lists.n_groups
    # the ideal of each query: its positive grades, largest first
    positive = qrels.grade > 0.0
    order = _by_query_then_grade_down(qrels.query[positive], qrels.grade[positive], n_queries)
    ideal_query = qrels.query[positive][order]
    ideal_gain = qrels.grade[positive][order]
    start = np.searchsorted(ideal_query, np.arange(n_queries))
    r_of_query = np.bincount(ideal_query, minlength=n_queries)
    place = np.arange(ideal_query.shape[0]) - start[ideal_query]
    ideal = cumsum_in_groups(ideal_gain / np.log2(place + 2.0), ideal_query)
    # the rows of positive gain, in run order; their queries looked up for them only
    hit = np.flatnonzero(gain > 0.0)
    hit_group = group[hit]
    hit_query = lists.group_query[hit_group]
    at = start[hit_query] + np.minimum(ranked.pos[hit], r_of_query[hit_query] - 1)
    at_hits = np.bincount(hit_group, weights=dcg[hit] / ideal[at], minlength=n_groups)
    r = r_of_query[lists.group_query].astype(_F64)
    hits = np.bincount(hit_group, minlength=n_groups).astype(_F64)
    last_dcg = np.zeros(n_groups)
    if group.shape[0]:
        ends = np.flatnonzero(np.concatenate((group[1:] != group[:-1], [True])))
        last_dcg[group[ends]] = dcg[ends]
    full = np.zeros(n_groups)
    has_ideal = r > 0
    full[has_ideal] = ideal[start[lists.group_query[has_ideal]] + r[has_ideal].astype(_I64) - 1]
    ratio = np.zeros(n_groups)
    np.divide(last_dcg, full, out=ratio, where=full > 0)
    total = at_hits + (r - hits) * ratio
    out = np.where((total > 0) & has_ideal, total / np.maximum(r, 1.0), 0.0)
    out[~in_order.relevance(qrels, params.relevance_threshold, lists.group_query)[3]] = np.nan
    return np.asarray(out, dtype=_F64)


def _by_query_then_grade_down(
    query: NDArray[np.int64], grade: NDArray[np.float64], n_queries: int
) -> NDArray[np.intp]:
    """(n,) permutation putting ``query`` ascending, then ``grade`` descending (ties in any
    order: equal grades are equal gains). Integer grades go by one integer key in 16-bit radix
    passes instead of a two-key comparison sort (``bench_eval.py --set shared``, ndcg_rel)."""
    if grade.size == 0:
        return np.zeros(0, dtype=np.intp)
    top = float(grade.max())
    if top >= _MAX_RADIX_GRADE or not np.all(grade == np.floor(grade)):
        return np.lexsort((-grade, query))
    levels = int(top) + 1
    key = query * levels + (levels - 1 - grade.astype(_I64))
    return stable_radix_argsort(key, n_queries * levels - 1)


#: Grades below this sort by :func:`stable_radix_argsort` in :func:`_by_query_then_grade_down`.
_MAX_RADIX_GRADE = 1 << 15


def _check_rbp(persistence: float, rbp_gain: str) -> None:
    """Raise ValueError for a persistence outside (0, 1) or an unknown RBP gain."""
    if not 0.0 < persistence < 1.0:
        raise ValueError(f"RBP persistence must lie in (0, 1), got {persistence}")
    if rbp_gain not in ("binary", "graded"):
        raise ValueError(f"rbp_gain must be 'binary' or 'graded', got {rbp_gain!r}")


def _query_counts(
    qrels: Qrels, threshold: float, n_queries: int, query_of_group: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]:
    """Per group, from its query's qrels: (relevant R, judged non-relevant N, has judgments).

    One ``bincount`` of (query, class) pairs, the classes 0 relevant, 1 judged non-relevant
    and 2 neither (a negative grade), instead of one per count (``bench_eval.py --set
    shared``)."""
    relevant = qrels.grade >= threshold
    nonrelevant = (qrels.grade >= 0.0) & ~relevant
    pair = qrels.query * 3 + 2
    pair -= 2 * relevant
    pair -= nonrelevant
    counts = np.bincount(pair, minlength=3 * n_queries).reshape(-1, 3)[query_of_group]
    r_count = counts[:, 0].astype(_I64)
    n_count = counts[:, 1].astype(_I64)
    return r_count, n_count, np.asarray(counts.any(axis=1), dtype=bool)


def _ap_and_recall(
    relevant: NDArray[np.bool_],
    rel_so_far: NDArray[np.float64],
    group: NDArray[np.int64],
    pos: NDArray[np.int64],
    cut: int,
    r_safe: NDArray[np.float64],
    n_groups: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(n_groups,) AP, AP@K and Recall@K from the rows in run order (trec_eval ``m_map.c``,
    ``m_map_cut.c``, ``m_recall.c``); ``rel_so_far``: :attr:`RunRows.relevant_so_far`."""
    precision_at_rel = np.where(relevant, rel_so_far / (pos + 1.0), 0.0)
    ap = np.bincount(group, weights=precision_at_rel, minlength=n_groups) / r_safe
    in_top = pos < cut
    ap_at_k = (
        np.bincount(group[in_top], weights=precision_at_rel[in_top], minlength=n_groups) / r_safe
    )
    recall = np.bincount(group[in_top & relevant], minlength=n_groups) / r_safe
    return ap, ap_at_k, recall


def _bpref(
    relevant: NDArray[np.bool_],
    nonrelevant: NDArray[np.bool_],
    group: NDArray[np.int64],
    r_count: NDArray[np.int64],
    n_count: NDArray[np.int64],
    r_safe: NDArray[np.float64],
    n_groups: int,
) -> NDArray[np.float64]:
    """(n_groups,) bpref: judged non-relevant documents above each relevant one (trec_eval
    ``m_bpref.c``)."""
    nonrel_so_far = cumsum_in_groups(nonrelevant.astype(_F64), group)
    r_row = r_count[group].astype(_F64)
    denominator = np.minimum(n_count[group], r_count[group]).astype(_F64)
    with np.errstate(divide="ignore", invalid="ignore"):
        penalty = np.minimum(nonrel_so_far, r_row) / denominator
    credit = np.where(nonrel_so_far > 0, 1.0 - penalty, 1.0)
    return np.bincount(group[relevant], weights=credit[relevant], minlength=n_groups) / r_safe


def _rbp(
    grade: NDArray[np.float64],
    judged: NDArray[np.bool_],
    relevant: NDArray[np.bool_],
    ranked: RankedRows,
    query_of_group: NDArray[np.int64],
    qrels: Qrels,
    n_queries: int,
    p: float,
    rbp_gain: str,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
    """(n_groups,) RBP, its residual and the number of unjudged results (trec_eval ``m_rbp.c``,
    ``m_rbp_resid.c``)."""
    group, pos, n_groups = ranked.group, ranked.pos, ranked.n_returned.shape[0]
    weight = (1.0 - p) * np.power(p, pos.astype(_F64))
    if rbp_gain == "binary":
        gain = relevant.astype(_F64)
    else:
        top_grade = np.zeros(n_queries, dtype=_F64)
        non_negative = qrels.grade >= 0.0
        np.maximum.at(top_grade, qrels.query[non_negative], qrels.grade[non_negative])
        scale = top_grade[query_of_group[group]]
        scale = np.where(scale > 1.0, scale, 1.0)
        gain = np.where(judged, np.nan_to_num(grade) / scale, 0.0)
    rbp = np.bincount(group, weights=weight * gain, minlength=n_groups).astype(_F64)
    unjudged = ~judged
    tail = np.power(p, ranked.n_returned.astype(_F64))
    rbp_residual = np.asarray(
        np.bincount(group[unjudged], weights=weight[unjudged], minlength=n_groups) + tail,
        dtype=_F64,
    )
    n_unjudged = np.bincount(group[unjudged], minlength=n_groups).astype(_I64)
    return rbp, rbp_residual, n_unjudged


def _condensed_ndcg(
    lists: RankedLists, qrels: Qrels, params: ScoringParams, judged_rows: NDArray[np.intp]
) -> NDArray[np.float64]:
    """nDCG′@K: :func:`metrics.score` of the lists without their unjudged results."""
    keep = np.zeros(lists.group.shape[0], dtype=bool)
    keep[judged_rows] = True
    return score(lists.subset(keep), qrels, params).ndcg
