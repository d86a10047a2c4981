"""The order of a ranked list: trec_eval's rule, as positions stored with each result.

SOURCE: trec_eval 10.0 ``form_res_rels.c`` (``comp_sim_docno``): results of a query are sorted
by score descending, ties broken by docno descending (``strcmp`` byte order); the file's rank
column is ignored. Scores are float64 here (trec_eval 9.0.8 and pytrec_eval read float32, which
makes scores 1e-8 apart tie).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.metrics import doc_order_key


def trec_positions(group: ArrayLike, score: ArrayLike, doc_key: ArrayLike) -> NDArray[np.int64]:
    """1-based position of every result in its group's list, in trec_eval's order.

    Args:
        group: (n,) int, the ranked list (e.g. a (run, query) pair) each result belongs to.
        score: (n,) float64 finite scores.
        doc_key: (n,) int, each result's document id rank in UTF-8 byte order (for example
            :func:`ndcg_studio.domain.metrics.doc_order_key` of the external ids); larger key =
            larger id, which comes first among equal scores.

    Returns:
        (n,) int64 positions 1..len(list) within each group (unique per group when the
        documents of a group are distinct).

    Raises:
        ValueError: arrays of different lengths or non-finite scores.
    """
    g = np.asarray(group, dtype=np.int64)
    s = np.asarray(score, dtype=np.float64)
    k = np.asarray(doc_key, dtype=np.int64)
    if not (g.shape == s.shape == k.shape) or g.ndim != 1:
        raise ValueError("group, score and doc_key must be 1-D arrays of the same length")
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite")
    n = g.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((-k, -s, g))  # primary key last: group, then score desc, then id desc
    return _positions(g, order)


def _positions(group: NDArray[np.int64], order: NDArray[np.intp]) -> NDArray[np.int64]:
    """1-based position of each result within its group, given ``order`` (all results sorted
    by group, then in list order)."""
    n = len(order)
    g_sorted = group[order]
    starts = np.flatnonzero(np.concatenate(([True], g_sorted[1:] != g_sorted[:-1])))
    first = np.repeat(starts, np.diff(np.append(starts, n)))
    positions = np.empty(n, dtype=np.int64)
    positions[order] = np.arange(n, dtype=np.int64) - first + 1
    return positions


def trec_positions_of_docs(
    group: ArrayLike, score: ArrayLike, doc_id: Sequence[str]
) -> NDArray[np.int64]:
    """:func:`trec_positions` from the document ids themselves, faster on large runs.

    One sort by (group, score descending) — the scores replaced by their rank among the
    distinct scores, so the pair fits one int64 key — and byte-order keys
    (:func:`~ndcg_studio.domain.metrics.doc_order_key`) only for the results whose score ties
    within their group, re-sorted among themselves. Equal to :func:`trec_positions` with
    ``doc_order_key(doc_id)`` (tested); about half its time on a million results, since most
    scores do not tie.

    Args:
        group: (n,) int >= 0, the ranked list each result belongs to.
        score: (n,) float64 finite scores (-0.0 equals 0.0, as in trec_eval).
        doc_id: (n,) document ids (str).

    Returns:
        (n,) int64 positions 1..len(list) within each group.

    Raises:
        ValueError: arrays of different lengths, a negative group or non-finite scores.
    """
    g = np.asarray(group, dtype=np.int64)
    s = np.asarray(score, dtype=np.float64)
    if not (g.shape == s.shape == (len(doc_id),)):
        raise ValueError("group, score and doc_id must be 1-D and of the same length")
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite")
    n = g.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if g.min() < 0:
        raise ValueError("groups must be >= 0")
    distinct, score_rank = np.unique(s, return_inverse=True)
    levels = len(distinct)
    if (int(g.max()) + 1) * levels >= 1 << 62:  # the pair does not fit one key
        return trec_positions(g, s, doc_order_key(doc_id))
    key = g * levels + (levels - 1 - score_rank.reshape(-1))  # group asc, score desc
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    tie = np.flatnonzero(sorted_key[1:] == sorted_key[:-1])
    if len(tie):
        # the slots of tied results: each run of equal keys is contiguous, so sorting those
        # results by (key, docno descending) and putting them back fills the same slots
        slots = np.union1d(tie, tie + 1)
        rows = order[slots]
        doc_key = doc_order_key([doc_id[i] for i in rows.tolist()])
        order[slots] = rows[np.lexsort((-doc_key, key[rows]))]
    return _positions(g, order)
