"""The order of a ranked list, in one home: trec_eval's rule as positions stored with each
result (:func:`trec_positions`), the byte order of document ids that breaks ties
(:func:`doc_order_key`), and the vectorised sort of many lists at once that
:func:`ndcg_studio.domain.metrics.measures.score` uses (:func:`order_rows`).

SOURCE: trec_eval 10.0 ``form_res_rels.c`` (``comp_sim_docno``): results of a query are sorted
by score descending, ties broken by docno descending (``strcmp`` byte order); the file's rank
column is ignored. Scores are float64 here (trec_eval 9.0.8 and pytrec_eval read float32, which
makes scores 1e-8 apart tie).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.metrics.kernels import Grouping, argsort_int, stable_radix_argsort

_I64 = np.int64


def trec_positions(group: ArrayLike, score: ArrayLike, doc_key: ArrayLike) -> NDArray[np.int64]:
    """1-based position of every result in its group's list, in trec_eval's order.

    Args:
        group: (n,) int, the ranked list (e.g. a (run, query) pair) each result belongs to.
        score: (n,) float64 finite scores.
        doc_key: (n,) int, each result's document id rank in UTF-8 byte order (for example
            :func:`ndcg_studio.domain.metrics.measures.doc_order_key` of the external ids); larger
            key =
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
    aligned = g.shape == s.shape == k.shape and g.ndim == 1
    if _empty(s, aligned, "group, score and doc_key must be 1-D arrays of the same length"):
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((-k, -s, g))  # primary key last: group, then score desc, then id desc
    return _positions(g, order)


def _empty(score: NDArray[np.float64], aligned: bool, misaligned: str) -> bool:
    """Whether there are no results, after the checks both position functions make.

    Raises:
        ValueError: ``misaligned`` when not ``aligned``; non-finite scores.
    """
    if not aligned:
        raise ValueError(misaligned)
    if not np.isfinite(score).all():
        raise ValueError("scores must be finite")
    return len(score) == 0


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
    (:func:`~ndcg_studio.domain.metrics.measures.doc_order_key`) only for the results whose score
    ties
    within their group, re-sorted among themselves. Equal to :func:`trec_positions` with
    ``doc_order_key(doc_id)`` (tested); faster because most scores do not tie (guarded by the
    run imports of ``benchmarks/bench_end_to_end.py``).

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
    aligned = g.shape == s.shape == (len(doc_id),)
    if _empty(s, aligned, "group, score and doc_id must be 1-D and of the same length"):
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


def doc_order_key(external_ids: Sequence[str]) -> NDArray[np.int64]:
    """Rank external document ids by their UTF-8 byte order (C ``strcmp``, as trec_eval).

    Args:
        external_ids: (n_docs,) document ids.

    Returns:
        (n_docs,) int64: for each id, its position among the distinct ids sorted by UTF-8
        bytes (equal ids get equal keys). UTF-8 byte order equals Unicode code-point order, so
        numpy's code-point sort is used; ids containing NUL fall back to a Python bytes sort.

    Raises:
        ValueError: if an id cannot be encoded as UTF-8 (lone surrogate).
    """
    ids = list(external_ids)
    if not ids:
        return np.zeros(0, dtype=_I64)
    try:
        encoded = [s.encode("utf-8") for s in ids]
    except UnicodeEncodeError as exc:
        raise ValueError(f"document id is not valid UTF-8 text: {exc}") from exc
    if any(b"\x00" in b for b in encoded):
        distinct = sorted(set(encoded))
        position = {b: i for i, b in enumerate(distinct)}
        return np.array([position[b] for b in encoded], dtype=_I64)
    # numpy 'U' strips trailing NUL only; none here, so code-point order == byte order.
    _, inverse = np.unique(np.array(ids, dtype=str), return_inverse=True)
    return np.asarray(inverse, dtype=_I64).reshape(-1)


def order_rows(
    grouping: Grouping,
    group_of_row: NDArray[np.int64],
    value: NDArray[np.float64],
    tie_key: Callable[[NDArray[np.intp]], NDArray[np.int64]],
    n_groups: int,
) -> NDArray[np.intp] | None:
    """Permutation sorting rows by (group asc, value asc, tie key desc); None if already so.

    Sorts ``value`` within each group (row-wise argsort of a padded matrix, or one flat sort
    plus a stable radix pass on the group), then re-sorts the tied runs only (equal group and
    value) by the tie key descending. ``tie_key(rows)`` gives the tie key of those input rows
    (only tied rows are looked up).
    """
    n = value.shape[0]
    if n <= 1:
        return None
    group = grouping.group
    if grouping.perm is None:
        same = group[1:] == group[:-1]
        v0, v1 = value[:-1], value[1:]
        if not np.any(same & (v1 < v0)):
            tied = np.flatnonzero(same & (v1 == v0))
            if tied.size == 0 or np.all(tie_key(tied + 1) < tie_key(tied)):
                return None
    if grouping.use_matrix:
        longest = int(grouping.counts.max())
        rows = np.arange(n, dtype=np.intp) if grouping.perm is None else grouping.perm
        matrix = np.full((n_groups, longest), np.inf)
        matrix[group, grouping.col] = value[rows]
        source = np.full((n_groups, longest), -1, dtype=np.intp)
        source[group, grouping.col] = rows
        within = np.argsort(matrix, axis=1)
        valid = np.arange(longest) < grouping.counts[:, None]
        perm = np.take_along_axis(source, within, axis=1)[valid]
        # ties with the previous element of the same row (padding is +inf, values finite)
        ordered = np.take_along_axis(matrix, within, axis=1)
        tie_matrix = np.zeros((n_groups, longest), dtype=bool)
        np.equal(ordered[:, 1:], ordered[:, :-1], out=tie_matrix[:, 1:])
        tie = tie_matrix[valid][1:]
    else:
        perm = np.argsort(value)
        perm = perm[stable_radix_argsort(group_of_row[perm], n_groups - 1)]
        vs = value[perm]
        tie = (group[1:] == group[:-1]) & (vs[1:] == vs[:-1])
    if tie.any():
        in_run = np.zeros(n, dtype=bool)
        in_run[1:] |= tie
        in_run[:-1] |= tie
        idx = np.flatnonzero(in_run)
        run_id = np.cumsum(np.concatenate(([True], ~tie)))[idx] - 1
        tk = tie_key(perm[idx])
        span = int(tk.max()) + 1
        composite = run_id * span + (span - 1 - tk)
        sub = argsort_int(composite, int(composite.max()))
        perm[idx] = perm[idx][sub]
    return perm
