"""trec_eval's measures of one run file against one qrels file, without a database.

:func:`evaluate` takes the parsed columns (:mod:`ndcg_studio.io.trec.columns`), joins run and
qrels on (query, document) and scores every query with the project's own measures
(:func:`ndcg_studio.domain.metrics.measures.score`,
:func:`ndcg_studio.domain.metrics.incomplete.incomplete_measures`), so the numbers are those of
``ndcg-studio score`` and of trec_eval. Measures are named and printed as trec_eval 10 does
(``m_*.c``, ``meas_print_single.c``, ``meas_print_final.c``): ``ndcg_cut.5,10`` gives
``ndcg_cut_5`` and ``ndcg_cut_10``; a query line is ``%-22s\\t%s\\t%6.4f`` (integer measures
``%ld``); queries come in byte order of their ids, then the ``all`` lines (``runid``,
``num_q``, then the means; ``num_ret``, ``num_rel``, ``num_rel_ret`` are sums).

Which queries count (trec_eval): those of the qrels that the run also has; with
``complete=True`` (``-c``) every query of the qrels, an absent one scoring as an empty list
(0 for every measure here). Queries only in the run are ignored. ``judged_only`` (``-J``)
removes the run's unjudged documents (no grade >= 0) before anything is computed.

Deliberate differences from trec_eval 10: without ``-c`` a qrels query missing from the run is
skipped (trec_eval 9 and pytrec_eval do so; trec_eval 10 stops with exit 4); with ``-c`` the
``all`` value of ``num_rel`` is the sum of the per-query values (trec_eval's
``te_calc_avg_num_rel`` counts grade > 0 there, ignoring ``-l``); with ``judged_only`` a query
left with no retrieved document has ``iprec_at_recall`` 0 (trec_eval's
``m_iprec_at_recall.c`` divides 0 by 0: ``-nan``); lines with extra fields are refused (as by
``import``), not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.kernels import stable_radix_argsort
from ndcg_studio.domain.metrics.measures import Qrels, RankedLists
from ndcg_studio.io.errors import InputError
from ndcg_studio.io.trec.columns import QrelsColumns, RunColumns
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run
from ndcg_studio.services.evaluation.measures import (
    COUNT_MEASURES,
    MIN_GEO_MEAN,
    Evaluation,
    MeasureSpec,
)
from ndcg_studio.services.evaluation.tables import MeasureTables

__all__ = ["evaluate"]


def _hash_rows(doc: NDArray[np.bytes_], query: NDArray[np.int64]) -> NDArray[np.uint64]:
    """64-bit hash of (query, document bytes) per row (FNV-style mixing of 8-byte words)."""
    n = doc.shape[0]
    width = doc.dtype.itemsize
    padded = -(-width // 8) * 8
    if padded != width:
        doc = doc.astype(f"S{padded}")
    words = doc.view(np.uint64).reshape(n, padded // 8)
    h = query.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        for j in range(words.shape[1]):
            h ^= words[:, j]
            h *= np.uint64(0x100000001B3)
            h ^= h >> np.uint64(29)
    return h


@dataclass(frozen=True, eq=False)
class _Joined:
    """Run and qrels in one document index space (internal)."""

    run_query: NDArray[np.int64]  # run rows' query index in the joint query space
    run_doc: NDArray[np.int64]
    qrels_query: NDArray[np.int64]
    qrels_doc: NDArray[np.int64]
    qrels_grade: NDArray[np.float64]
    doc_key: NDArray[np.int64]
    judged: NDArray[np.bool_]  # per run row: in the qrels with a grade >= 0


def _first_duplicate(keys_sorted: NDArray[np.uint64]) -> bool:
    return bool(keys_sorted.shape[0] > 1 and np.any(keys_sorted[1:] == keys_sorted[:-1]))


def _refuse_duplicates(run: RunColumns | None, qrels: QrelsColumns | None) -> None:
    """Re-read the file with the strict reader: it names the duplicate lines."""
    if run is not None:
        read_trec_run(run.path)
    if qrels is not None:
        read_trec_qrels(qrels.path)


def _sorted_hashes(
    h: NDArray[np.uint64], shift: int
) -> tuple[NDArray[np.uint64], NDArray[np.intp]]:
    """(keys sorted, the row of each): keys are ``h >> shift``; with ``shift`` > 0 each row
    index (< 2**shift) is packed into the bits the shift frees, and one ``np.sort`` of the
    values replaces an ``argsort`` (numpy sorts 64-bit integers with SIMD, argsorts them
    without: several times slower, ``bench_eval.py``)."""
    if shift == 0:
        order = np.argsort(h)
        return h[order], order
    mask = np.uint64((1 << shift) - 1)
    packed = h & ~mask
    packed |= np.arange(h.shape[0], dtype=np.uint64)
    packed.sort()
    order = (packed & mask).astype(np.intp)
    packed >>= np.uint64(shift)
    return packed, order


def _join(run: RunColumns, qrels: QrelsColumns, run_q: NDArray[np.int64]) -> _Joined | None:
    """Hash join on (query, document); None when a hash collision makes it inexact.

    First on the hashes cut to the bits left beside a row index (:func:`_sorted_hashes`), when
    the rows are few enough for the shorter hashes to collide seldom (n² below 2^(64 - index
    bits): under half a colliding pair expected per file); a collision, or a duplicate, then
    costs a second join on the whole hashes, which decides."""
    run_h = _hash_rows(run.doc, run_q)
    qrels_h = _hash_rows(qrels.doc, qrels.query)
    n = max(run_h.shape[0], qrels_h.shape[0], 2)
    shift = (n - 1).bit_length()
    if n * n < 1 << (64 - shift):
        joined = _match(run, qrels, run_q, run_h, qrels_h, shift)
        if joined is not None:
            return joined
    return _match(run, qrels, run_q, run_h, qrels_h, 0)


def _match(
    run: RunColumns,
    qrels: QrelsColumns,
    run_q: NDArray[np.int64],
    run_h: NDArray[np.uint64],
    qrels_h: NDArray[np.uint64],
    shift: int,
) -> _Joined | None:
    """The join of :func:`_join` on the hashes ``>> shift``; None on a collision."""
    qrels_q = qrels.query
    n_run = run_q.shape[0]
    run_sorted, order = _sorted_hashes(run_h, shift)
    if _first_duplicate(run_sorted):
        return None  # a duplicate document, or a collision: the exact path decides
    qrels_sorted, qrels_order = _sorted_hashes(qrels_h, shift)
    if _first_duplicate(qrels_sorted):
        return None
    # sorted needles: searchsorted walks both arrays in order
    at_sorted = np.minimum(np.searchsorted(run_sorted, qrels_sorted), n_run - 1)
    found_sorted = run_sorted[at_sorted] == qrels_sorted
    del qrels_sorted, run_sorted
    at = np.empty_like(at_sorted)
    at[qrels_order] = at_sorted
    found = np.empty(found_sorted.shape[0], dtype=bool)
    found[qrels_order] = found_sorted
    del at_sorted, found_sorted, qrels_order
    run_row = order[at[found]]
    if not (
        np.array_equal(run_q[run_row], qrels_q[found])
        and np.array_equal(run.doc[run_row], qrels.doc[found])
    ):
        return None  # a collision
    judged = np.zeros(n_run, dtype=bool)
    judged[run_row] = qrels.grade[found] >= 0
    # Documents are numbered by the judgments' position in (query, file) order, then the
    # unjudged results: the judgments' (query, document) keys are then sorted already.
    n_qrels = qrels_q.shape[0]
    by_query: NDArray[np.intp] | None = None
    if n_qrels > 1 and not np.all(qrels_q[1:] >= qrels_q[:-1]):
        by_query = stable_radix_argsort(qrels_q, int(qrels_q.max()))
    position = np.arange(n_qrels, dtype=np.int64)
    if by_query is not None:
        position[by_query] = np.arange(n_qrels, dtype=np.int64)
    run_doc = np.arange(n_qrels, n_qrels + n_run, dtype=np.int64)
    run_doc[run_row] = position[found]
    grade = qrels.grade.astype(np.float64)
    return _Joined(
        run_q,
        run_doc,
        qrels_q if by_query is None else qrels_q[by_query],
        position if by_query is None else np.arange(n_qrels, dtype=np.int64),
        grade if by_query is None else grade[by_query],
        np.zeros(n_qrels + n_run, dtype=np.int64),  # filled by _run_order
        judged,
    )


def _by_query_then_score(query: NDArray[np.int64], score_: NDArray[np.float64]) -> NDArray[np.intp]:
    """Permutation sorting rows by query ascending, then score descending (ties: any order).

    When each query's rows are one contiguous block of the file (as runs are written) and the
    blocks are of similar length, each block is one row of a padded matrix sorted row-wise
    (small sorts, in cache); otherwise one sort by score and a stable radix pass by query."""
    n = query.shape[0]
    starts = np.flatnonzero(np.concatenate(([True], query[1:] != query[:-1])))
    lengths = np.diff(np.append(starts, n))
    longest = int(lengths.max())
    block_query = query[starts]
    block_order = np.argsort(block_query)
    # each query one block: no two blocks of one query (a sort, not np.unique, which imports
    # numpy.ma to check for a masked array: part of the command's start, bench_eval.py)
    sorted_query = block_query[block_order]
    one_block_each = not np.any(sorted_query[1:] == sorted_query[:-1])
    if one_block_each and starts.shape[0] * longest <= 2 * n:
        starts, lengths = starts[block_order], lengths[block_order]
        column = np.arange(longest)
        valid = column < lengths[:, None]
        rows = np.where(valid, starts[:, None] + column, 0)
        matrix = np.where(valid, -score_[rows], np.inf)
        within = np.argsort(matrix, axis=1)
        return np.take_along_axis(rows, within, axis=1)[valid]
    by_score = np.argsort(-score_)
    return by_score[stable_radix_argsort(query[by_score], int(query.max()))]


def _run_order(
    run: RunColumns, joined: _Joined, exact_doc_order: bool
) -> tuple[NDArray[np.intp] | None, NDArray[np.int64]]:
    """Run order of the run rows (query, score descending, document id descending in bytes,
    trec_eval ``form_res_rels.c``) as a permutation (None: already so), and the ``doc_key`` that
    orders the tied rows' documents for :class:`RankedLists` (other documents: 0, never
    compared). ``exact_doc_order``: document indices already follow the bytes of the ids."""
    query, score_ = joined.run_query, run.score
    n = query.shape[0]
    n_docs = int(joined.doc_key.shape[0])
    perm: NDArray[np.intp] | None = None
    same = query[1:] == query[:-1]
    if not (np.all(query[1:] >= query[:-1]) and np.all(score_[1:][same] <= score_[:-1][same])):
        perm = _by_query_then_score(query, score_)  # ties are ordered below
        query, score_ = query[perm], score_[perm]
        same = query[1:] == query[:-1]
    if exact_doc_order:
        doc_key = np.arange(n_docs, dtype=np.int64)
    else:
        doc_key = np.zeros(n_docs, dtype=np.int64)
    tie = same & (score_[1:] == score_[:-1])
    if not tie.any():
        return perm, doc_key
    in_run = np.zeros(n, dtype=bool)
    in_run[1:] |= tie
    in_run[:-1] |= tie
    at = np.flatnonzero(in_run)
    rows = at if perm is None else perm[at]
    doc = joined.run_doc[rows]
    if exact_doc_order:
        key = doc
    else:
        _, inverse = np.unique(run.doc[rows], return_inverse=True)
        key = inverse.reshape(-1).astype(np.int64)
        doc_key[doc] = key
    run_id = np.cumsum(np.concatenate(([True], ~tie)))[at]
    if perm is None:
        perm = np.arange(n, dtype=np.intp)
    perm[at] = rows[np.lexsort((-key, run_id))]
    return perm, doc_key


def _join_exact(run: RunColumns, qrels: QrelsColumns, run_q: NDArray[np.int64]) -> _Joined:
    """Join through one sorted table of every document id (exact, slower)."""
    n_run = run_q.shape[0]
    width = max(run.doc.dtype.itemsize, qrels.doc.dtype.itemsize)
    both = np.concatenate([run.doc.astype(f"S{width}"), qrels.doc.astype(f"S{width}")])
    _, inverse = np.unique(both, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int64)
    run_doc, qrels_doc = inverse[:n_run], inverse[n_run:]
    n_docs = int(inverse.max()) + 1 if inverse.size else 1
    qrels_order = np.argsort(qrels.query * n_docs + qrels_doc, kind="stable")
    qrels_key = (qrels.query * n_docs + qrels_doc)[qrels_order]
    if _first_duplicate(qrels_key.view(np.uint64)):
        _refuse_duplicates(None, qrels)
    run_key = run_q * n_docs + run_doc
    if _first_duplicate(np.sort(run_key).view(np.uint64)):
        _refuse_duplicates(run, None)
    at = np.minimum(np.searchsorted(qrels_key, run_key), max(qrels_key.shape[0] - 1, 0))
    judged = (qrels_key[at] == run_key) & (qrels.grade[qrels_order[at]] >= 0)
    return _Joined(
        run_q,
        run_doc,
        qrels.query,
        qrels_doc,
        qrels.grade.astype(np.float64),
        np.arange(n_docs, dtype=np.int64),  # documents are numbered in byte order
        judged,
    )


def evaluate(
    run: RunColumns,
    qrels: QrelsColumns,
    measures: Sequence[MeasureSpec],
    *,
    complete: bool = False,
    relevance_level: int = 1,
    judged_only: bool = False,
    max_docs: int | None = None,
) -> Evaluation:
    """Evaluate a run against qrels with trec_eval's measures, options and conventions.

    Args:
        run, qrels: the two files' columns.
        measures: from :func:`parse_measures`.
        complete: trec_eval ``-c``: queries of the qrels missing from the run count (as 0).
        relevance_level: trec_eval ``-l``: grade >= this is relevant (P, map, recall, bpref,
            recip_rank, num_rel; nDCG's gains do not depend on it, as in trec_eval).
        judged_only: trec_eval ``-J``: drop the run's unjudged documents first.
        max_docs: trec_eval ``-M``: only the first ``max_docs`` documents of each query's
            list (in trec_eval's order) are evaluated.

    Returns:
        An :class:`Evaluation`.

    Raises:
        InputFileError: a document twice for one query in the run, or judged twice in the
            qrels (from the strict readers, naming the lines).
        InputError: no query has both results and judgments (trec_eval refuses too).
    """
    if relevance_level < 1:
        raise InputError(f"-l {relevance_level}: the relevance level must be >= 1")
    lists, judgments, evaluated = _scoring_input(run, qrels, complete, judged_only)
    if max_docs is not None:
        lists = _first_of_each(lists, max_docs)
    tables = MeasureTables(lists, judgments, float(relevance_level))
    cut_families = ("P", "recall", "ndcg_cut", "map_cut", "success")
    cutoffs = {k for s in measures if s.name in cut_families for k in s.cutoffs}
    if cutoffs:
        tables.prepare_cutoffs(cutoffs)
    any_k = next((k for s in measures for k in s.cutoffs if s.name == "ndcg_cut"), 10)
    values: dict[str, NDArray[np.float64]] = {}
    names: list[str] = []
    for spec in measures:
        if spec.name in ("runid", "num_q"):
            continue
        for label, column in tables.columns(spec, any_k).items():
            values[label] = np.nan_to_num(np.asarray(column, dtype=np.float64), nan=0.0)
            names.append(label)
    integer = frozenset(n for n in names if n in COUNT_MEASURES)
    summary = {
        n: float(values[n].sum()) if n in integer else _running_mean(values[n]) for n in names
    }
    if "gm_map" in summary:  # trec_eval m_gm_map.c: the geometric mean of AP, floored
        logs = np.log(np.maximum(values["gm_map"], MIN_GEO_MEAN))
        summary["gm_map"] = float(np.exp(_running_mean(logs))) if logs.size else 0.0
    return Evaluation(
        query_ids=[qrels.query_ids[i] for i in evaluated.tolist()],
        names=names,
        values=values,
        integer=integer,
        runid=run.tag,
        summary=summary,
        show_runid=any(s.name == "runid" for s in measures),
        show_num_q=any(s.name == "num_q" for s in measures),
    )


def _joint_queries(run: RunColumns, qrels: QrelsColumns) -> NDArray[np.int64]:
    """(n,) int64 joint query index of each run row: the qrels' queries first (their order),
    then the run's others."""
    if run.query_ids == qrels.query_ids:  # the same queries (both in byte order): no mapping
        return run.query
    lookup = {q: i for i, q in enumerate(qrels.query_ids)}
    n_qrels_q = len(qrels.query_ids)
    run_to_joint = np.empty(len(run.query_ids), dtype=np.int64)
    extra = 0
    for i, q in enumerate(run.query_ids):
        j = lookup.get(q)
        if j is None:
            j = n_qrels_q + extra
            extra += 1
        run_to_joint[i] = j
    out: NDArray[np.int64] = run_to_joint[run.query]
    return out


def _running_mean(values: NDArray[np.float64]) -> float:
    """The mean of ``values`` (n,) as trec_eval takes it (``te_acc_meas_s``, then
    ``te_calc_avg_meas_s``): added one by one in the queries' order, then divided by n — not
    numpy's pairwise sum, whose last bit can differ and tip the 4th decimal printed; 0.0 for
    n = 0."""
    if values.size == 0:
        return 0.0
    return float(np.add.accumulate(values)[-1] / values.size)


def _scoring_input(
    run: RunColumns, qrels: QrelsColumns, complete: bool, judged_only: bool
) -> tuple[RankedLists, Qrels, NDArray[np.int64]]:
    """The ranked lists (one group per evaluated query, rows in run order), the judgments
    sorted by (query, document), and the evaluated qrels query indices (see :func:`evaluate`).

    Raises:
        InputError: no query has both results and judgments.
    """
    run_q = _joint_queries(run, qrels)
    n_qrels_q = len(qrels.query_ids)
    joined = _join(run, qrels, run_q)
    exact_doc_order = joined is None
    if joined is None:
        joined = _join_exact(run, qrels, run_q)
    # Put the rows in run order once, so that every measure below finds them sorted.
    perm, doc_key = _run_order(run, joined, exact_doc_order)

    in_qrels = joined.run_query < n_qrels_q
    # -J: trec_eval drops documents without a grade >= 0 (form_res_rels.c)
    keep = in_qrels & joined.judged if judged_only else in_qrels
    present = np.zeros(n_qrels_q, dtype=bool)
    present[joined.run_query[in_qrels]] = True
    evaluated = np.arange(n_qrels_q) if complete else np.flatnonzero(present)
    if evaluated.size == 0:
        raise InputError(f"no query has both results in {run.path} and judgments in {qrels.path}")
    # one group per evaluated query (the qrels' queries are in byte order already)
    group_of_query = np.full(n_qrels_q, -1, dtype=np.int64)
    group_of_query[evaluated] = np.arange(evaluated.size)
    run_query, run_doc, run_score = joined.run_query, joined.run_doc, run.score
    if perm is not None:
        rows = perm[keep[perm]]
    elif not keep.all():
        rows = np.flatnonzero(keep)
    else:
        rows = None
    if rows is not None:
        run_query, run_doc, run_score = run_query[rows], run_doc[rows], run_score[rows]
    lists = RankedLists(
        group=group_of_query[run_query],
        doc=run_doc,
        score=run_score,
        rank=np.zeros(run_doc.shape[0], dtype=np.int64),
        group_query=evaluated,
        doc_key=doc_key,
    )
    return lists, _sorted_judgments(joined, doc_key), evaluated


def _first_of_each(lists: RankedLists, n: int) -> RankedLists:
    """The first ``n`` rows of each group of ``lists`` (whose rows are in run order)."""
    if n < 1:
        raise InputError(f"-M {n}: the number of documents per query must be at least 1")
    order = np.argsort(lists.group, kind="stable")
    starts = np.searchsorted(lists.group[order], lists.group[order])
    position = np.empty_like(order)
    position[order] = np.arange(order.shape[0]) - starts
    keep = position < n
    return lists if keep.all() else lists.subset(keep)


def _sorted_judgments(joined: _Joined, doc_key: NDArray[np.int64]) -> Qrels:
    """The joined qrels sorted by (query, document) once, so every measure finds them so."""
    qrels_query, qrels_doc, qrels_grade = joined.qrels_query, joined.qrels_doc, joined.qrels_grade
    n_docs = max(int(doc_key.shape[0]), int(qrels_doc.max()) + 1)
    qrels_key = qrels_query * n_docs + qrels_doc
    if not np.all(qrels_key[1:] > qrels_key[:-1]):
        order = np.argsort(qrels_key)
        qrels_query, qrels_doc, qrels_grade = (
            qrels_query[order],
            qrels_doc[order],
            qrels_grade[order],
        )
    return Qrels(qrels_query, qrels_doc, qrels_grade)
