"""Rank-by-rank DCG and ideal DCG of one ranked list: what the Review view's breakdown and the
Query detail show (SOURCE: as :func:`ndcg_studio.domain.metrics.measures.score`, whose totals it
reproduces).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.measures import (
    Judgments,
    Qrels,
    RankedLists,
    RankedRows,
    ScoringParams,
    index_spaces,
    judgments_of,
    rank_groups,
)

__all__ = ["Breakdown", "breakdown"]

_I64 = np.int64
_F64 = np.float64


@dataclass(frozen=True, eq=False)
class Breakdown:
    """Per-rank table of one group's DCG and of its ideal list (what the UI shows).

    Run-list columns have one row per rank 1..min(K, n_returned); ideal columns one row per
    rank 1..min(K, number of ideal documents). Arrays are 1-D.

    Attributes:
        group, query: the group index and its query index.
        k: the cutoff (None = whole list).
        rank: int64 rank from 1.
        doc: int64 document index.
        grade: float64 grade, NaN when unjudged.
        gain: float64 gain (0 when unjudged or negative grade).
        discount: float64 1 / log2(rank + 1).
        discounted_gain: float64 gain / log2(rank + 1).
        cumulative_dcg: float64 running DCG; its last value equals ``dcg``.
        ideal_rank, ideal_doc, ideal_grade, ideal_gain, ideal_discount,
        ideal_discounted_gain, ideal_cumulative_dcg: the same for the ideal list (ideal
            documents: judged documents of the query with gain > 0, or the returned documents
            with gain > 0 for ``ideal="list"``; sorted by gain descending, then grade
            descending, then document index ascending).
        dcg, idcg: totals (equal to :func:`score`'s up to float rounding, |diff| < 1e-12
            relative).
        ndcg: dcg / idcg; 0 when idcg = 0 and the query has judgments; NaN without judgments.
        idcg_zero, has_judgments: as in :class:`ScoreTable`.
    """

    group: int
    query: int
    k: int | None
    rank: NDArray[np.int64]
    doc: NDArray[np.int64]
    grade: NDArray[np.float64]
    gain: NDArray[np.float64]
    discount: NDArray[np.float64]
    discounted_gain: NDArray[np.float64]
    cumulative_dcg: NDArray[np.float64]
    ideal_rank: NDArray[np.int64]
    ideal_doc: NDArray[np.int64]
    ideal_grade: NDArray[np.float64]
    ideal_gain: NDArray[np.float64]
    ideal_discount: NDArray[np.float64]
    ideal_discounted_gain: NDArray[np.float64]
    ideal_cumulative_dcg: NDArray[np.float64]
    dcg: float
    idcg: float
    ndcg: float
    idcg_zero: bool
    has_judgments: bool


def _table(
    prefix: str, docs: NDArray[np.int64], grades: NDArray[np.float64], gains: NDArray[np.float64]
) -> tuple[dict[str, NDArray[Any]], float]:
    """The per-rank columns of an ordered list, as :class:`Breakdown` names them after
    ``prefix`` (``""`` for the run's list, ``"ideal_"`` for the ideal list), and its DCG
    (plain loop)."""
    size = docs.shape[0]
    discount = np.empty(size, dtype=_F64)
    discounted = np.empty(size, dtype=_F64)
    running = np.empty(size, dtype=_F64)
    total = 0.0
    for i in range(size):
        den = math.log2(i + 2.0)
        discount[i] = 1.0 / den
        discounted[i] = gains[i] / den
        total += discounted[i]
        running[i] = total
    columns = {
        "rank": np.arange(1, size + 1, dtype=_I64),
        "doc": docs,
        "grade": grades,
        "gain": gains,
        "discount": discount,
        "discounted_gain": discounted,
        "cumulative_dcg": running,
    }
    return {prefix + name: column for name, column in columns.items()}, total


def breakdown(
    lists: RankedLists, qrels: Qrels, group: int, params: ScoringParams | None = None
) -> Breakdown:
    """Rank-by-rank DCG and ideal DCG of one group (SOURCE: as :func:`score`).

    Args:
        lists, qrels, params: as for :func:`score`.
        group: the group index, 0 <= group < n_groups.

    Returns:
        A :class:`Breakdown`; its totals agree with ``score(lists, qrels, params)``.

    Raises:
        IndexError: group out of range.
        ValueError: as :func:`score`, for this group's list and its query's judgments.
    """
    if params is None:
        params = ScoringParams()
    if not 0 <= group < lists.n_groups:
        raise IndexError(f"group {group} out of range [0, {lists.n_groups})")
    query = int(lists.group_query[group])
    sub_lists, sub_qrels = _one_group(lists, qrels, group, query)
    n_queries, n_docs = index_spaces(sub_lists, sub_qrels)
    ranked = rank_groups(sub_lists, params)
    judgments = judgments_of(sub_qrels, params, n_queries, n_docs)
    all_docs, all_grades, all_gains = _run_list(sub_lists, ranked, judgments, query)
    depth = all_docs.shape[0] if params.k is None else params.k
    docs, grades, gains = all_docs[:depth], all_grades[:depth], all_gains[:depth]
    run_columns, dcg = _table("", docs, grades, gains)
    judged = (sub_qrels.doc, sub_qrels.grade, judgments.gain)
    candidates = judged if params.ideal == "judged" else (all_docs, all_grades, all_gains)
    ideal_columns, idcg = _table("ideal_", *_ideal_list(*candidates, params.k))
    has_judgments = bool(sub_qrels.query.shape[0])
    ndcg = (dcg / idcg if idcg > 0 else 0.0) if has_judgments else math.nan
    return Breakdown(
        group=group,
        query=query,
        k=params.k,
        **run_columns,
        **ideal_columns,
        dcg=dcg,
        idcg=idcg,
        ndcg=ndcg,
        idcg_zero=has_judgments and not idcg > 0,
        has_judgments=has_judgments,
    )


def _one_group(
    lists: RankedLists, qrels: Qrels, group: int, query: int
) -> tuple[RankedLists, Qrels]:
    """The ranked list of ``group`` alone (as group 0) and the judgments of its ``query``."""
    mine = lists.group == group
    sub_lists = RankedLists(
        group=np.zeros(int(mine.sum()), dtype=_I64),
        doc=lists.doc[mine],
        score=lists.score[mine],
        rank=lists.rank[mine],
        group_query=np.array([query], dtype=_I64),
        doc_key=lists.doc_key,
    )
    judged_here = qrels.query == query
    sub_qrels = Qrels(
        query=qrels.query[judged_here], doc=qrels.doc[judged_here], grade=qrels.grade[judged_here]
    )
    return sub_lists, sub_qrels


def _run_list(
    sub_lists: RankedLists, ranked: RankedRows, judgments: Judgments, query: int
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]:
    """(document, grade or NaN, gain or 0) of the whole one-group list, in run order."""
    rows = ranked.rows(np.arange(ranked.group.shape[0], dtype=np.intp))  # run order
    all_docs = sub_lists.doc[rows]
    _, all_grades, all_gains = judgments.lookup(np.full(rows.shape[0], query, _I64), all_docs)
    return all_docs, all_grades, all_gains


def _ideal_list(
    doc: NDArray[np.int64], grade: NDArray[np.float64], gain: NDArray[np.float64], k: int | None
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]:
    """The ideal list from candidate documents: gain > 0, sorted by gain descending, then grade
    descending, then document index ascending; cut at K."""
    keep = gain > 0
    doc, grade, gain = doc[keep], grade[keep], gain[keep]
    ideal_order = np.lexsort((doc, -grade, -gain))
    if k is not None:
        ideal_order = ideal_order[:k]
    return doc[ideal_order], grade[ideal_order], gain[ideal_order]
