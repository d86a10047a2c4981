"""nDCG@K of the same ranked lists under several grade sets at once: the qrels of each
annotator, judgment source or consensus rule of one study (the spread over who judged,
:mod:`ndcg_studio.services.stability`), with each result looked up once for every set.

Every value equals :func:`ndcg_studio.domain.metrics.measures.score`'s nDCG under that set to
the bit: the same gains, discounts, sums (:func:`~ndcg_studio.domain.metrics.measures.
dcg_and_cg`) and ideal (:func:`~ndcg_studio.domain.metrics.ideal.ideal_dcg`, trec_eval
``m_ndcg_cut.c``); only the look-up differs — one binary search of each result in the union of
the sets' (query, document) keys, then a gather per set, instead of a binary search per set.
The ideal from the returned list (``ideal="list"``) is not covered: score each set with
:func:`~ndcg_studio.domain.metrics.measures.score`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.ideal import ideal_dcg
from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.domain.metrics.measures import (
    Qrels,
    RankedLists,
    RankedRows,
    ScoringParams,
    dcg_and_cg,
    index_spaces,
    judgments_of,
    ndcg_from,
    rank_groups,
)

__all__ = ["GradeSetTable", "grade_set_table", "ndcg_of_each"]

_I64 = np.int64
_F64 = np.float64


@dataclass(frozen=True, eq=False)
class GradeSetTable:
    """Several qrels over the same ranked lists, prepared once for :func:`ndcg_of_each`
    (the grades of each annotator, source or consensus rule of one study).

    Attributes:
        key: (u,) int64 sorted distinct ``query * n_docs + doc`` keys judged in any set.
        gain: (n_sets, u) float64 gain of each set at each key, 0 where it has no judgment.
        idcg: (n_sets, n_queries) float64 IDCG@K of each query under each set (ideal from the
            judged documents).
        has_judgments: (n_sets, n_queries) bool, the set judges the query.
        n_docs: the document index space of the keys.
    """

    key: NDArray[np.int64]
    gain: NDArray[np.float64]
    idcg: NDArray[np.float64]
    has_judgments: NDArray[np.bool_]
    n_docs: int

    @property
    def n_sets(self) -> int:
        return int(self.gain.shape[0])


def grade_set_table(
    lists: RankedLists, qrels_sets: Sequence[Qrels], params: ScoringParams
) -> GradeSetTable:
    """``qrels_sets`` prepared for scoring ``lists`` (or any part of their groups, with the
    same document keys) under each: every set's keys located once in their union, so scoring
    looks a result up once for all sets instead of once per set (``bench_gui_scale.py``
    Review, the spread over annotators).

    Raises:
        ValueError: ``params.ideal`` is not ``"judged"``, or as :func:`score` (two grades for
            one (query, document), custom gains with non-integer grades, index spaces too
            large for 64-bit keys).
    """
    if params.ideal != "judged":
        raise ValueError(
            "grade_set_table needs ideal='judged' (the ideal from the judged documents)"
        )
    spaces = [index_spaces(lists, qrels) for qrels in qrels_sets]
    n_queries = max((q for q, _ in spaces), default=1 + int(lists.group_query.max(initial=-1)))
    n_docs = max((d for _, d in spaces), default=max(int(lists.doc_key.shape[0]), 1))
    if n_queries * n_docs >= 1 << 62:
        raise ValueError("too many queries x documents for 64-bit (query, document) keys")
    idcg = np.zeros((len(qrels_sets), n_queries), dtype=_F64)
    has = np.zeros((len(qrels_sets), n_queries), dtype=bool)
    keys, gains = [], []  # each set's sorted keys and their gains, nothing more kept
    for row, qrels in enumerate(qrels_sets):
        j = judgments_of(qrels, params, n_queries, n_docs)
        idcg[row] = ideal_dcg(qrels.query, j.gain, j.level, n_queries, params.k)
        has[row] = np.bincount(qrels.query, minlength=n_queries) > 0
        keys.append(j.key_sorted)
        gains.append(j.gain if j.perm is None else j.gain[j.perm])
    key = distinct(np.concatenate(keys or [np.zeros(0, _I64)]))
    gain = np.zeros((len(qrels_sets), key.shape[0]), dtype=_F64)
    for row, (sorted_key, sorted_gain) in enumerate(zip(keys, gains, strict=True)):
        gain[row, np.searchsorted(key, sorted_key)] = sorted_gain
    return GradeSetTable(key, gain, idcg, has, n_docs)


def ndcg_of_each(
    lists: RankedLists,
    sets: GradeSetTable,
    params: ScoringParams,
    *,
    ranked: RankedRows | None = None,
) -> NDArray[np.float64]:
    """(n_sets, n_groups) float64 nDCG@K of ``lists`` under each of ``sets``
    (:func:`grade_set_table`, of these lists or of the lists they are a part of), each row equal to
    ``score(lists, qrels, params).ndcg`` to the bit: the same gains, discounts, sums and
    ideal, with each result looked up once for every set. ``ranked`` as in :func:`score`.

    Raises:
        ValueError: ``params.ideal`` is not ``"judged"``; a document twice in one list.
    """
    if params.ideal != "judged":
        raise ValueError("ndcg_of_each needs ideal='judged' (the ideal from the judged documents)")
    n_groups = lists.n_groups
    if ranked is None:
        ranked = rank_groups(lists, params)
    k = params.k
    n = ranked.group.shape[0]
    at = np.arange(n, dtype=np.intp) if k is None else np.flatnonzero(ranked.pos < k)
    group_at, pos_at = ranked.group[at], ranked.pos[at]
    needle = lists.group_query[group_at] * sets.n_docs + lists.doc[ranked.rows(at)]
    u = sets.key.shape[0]
    where = np.minimum(np.searchsorted(sets.key, needle), max(u - 1, 0))
    judged = sets.key[where] == needle if u else np.zeros(needle.shape[0], dtype=bool)
    out = np.empty((sets.n_sets, n_groups), dtype=_F64)
    for row in range(sets.n_sets):
        gain = np.where(judged, sets.gain[row, where], 0.0) if u else np.zeros(len(needle))
        dcg, _ = dcg_and_cg(group_at, pos_at, gain, ranked, k, n_groups)
        idcg = sets.idcg[row][lists.group_query]
        has = sets.has_judgments[row][lists.group_query]
        out[row] = ndcg_from(dcg, idcg, has)
    return out
