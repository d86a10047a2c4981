"""One grade per (query, document) from several annotators' judgments (pure numpy).

Input is long format, one row per (query, document, annotator) judgment; output is a
:class:`~ndcg_studio.domain.metrics.measures.Qrels` ready for scoring. Vectorised: rows are sorted
by
(query, document, grade) and reduced per item with ``ufunc.reduceat``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.metrics.measures import Qrels
from ndcg_studio.vocabulary import CONSENSUS_METHODS, ConsensusMethod

__all__ = ["consensus_qrels"]


def _int_array(values: ArrayLike, name: str) -> NDArray[np.int64]:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name} must hold integer indices")
    out = np.asarray(array, dtype=np.int64)
    if out.size and out.min() < 0:
        raise ValueError(f"{name} must be >= 0")
    return out


def consensus_qrels(
    query: ArrayLike,
    doc: ArrayLike,
    annotator: ArrayLike,
    grade: ArrayLike,
    *,
    method: ConsensusMethod = "mean",
    adjudicated: Qrels | None = None,
) -> Qrels:
    """Reduce several annotators' grades to one grade per judged (query, document).

    Methods (per item, over the grades of its annotators; NaN grades = no judgment, dropped):
        ``mean``: arithmetic mean (may be fractional, e.g. 2.5; the scoring engine accepts it
            with linear or exponential gains).
        ``median``: the median; with an even count, the mean of the two middle grades.
        ``majority``: the most frequent grade; when several grades are equally frequent, the
            lower median of those tied grades (two tied: the lower one; three: the middle
            one). Conservative by construction: an even split never rounds up.
        ``max`` / ``min``: the highest / lowest grade.
    An adjudicated grade, when given for an item, replaces the consensus; items that have only
    an adjudicated grade are included.

    Negative grades (trec_eval's -1, "judged non-relevant"): beside other grades they count as
    0 (not relevant) — the mean of -1 and 2 is 1, their min is 0; an item whose grades are all
    negative gets -1, so it stays judged non-relevant (gain 0 under every gain setting, even
    custom gains giving grade 0 a gain, and outside the ideal list). Our own rule: -1 and 0
    say the same about relevance, and only a custom gain for 0 tells them apart.

    SOURCE: common practice for multi-assessor relevance labels (mean or median of graded
    labels; majority vote over crowd workers, e.g. Alonso & Mizzaro 2012, "Using crowdsourcing
    for TREC relevance assessment", Information Processing & Management 48(6)); the tie rule
    of ``majority`` is our own choice, documented above.

    Args:
        query, doc, annotator: (n,) int indices >= 0 of each judgment.
        grade: (n,) float grades (NaN = missing, dropped).
        method: one of ``mean``, ``median``, ``majority``, ``max``, ``min``.
        adjudicated: optional final grades, one per (query, document).

    Returns:
        :class:`Qrels` sorted by (query, document), one row per item with at least one grade.

    Raises:
        ValueError: unknown method, arrays of different lengths or not 1-D, negative indices,
            infinite grades, or one annotator grading the same item twice.
    """
    if method not in CONSENSUS_METHODS:
        raise ValueError(f"method must be one of {CONSENSUS_METHODS}, got {method!r}")
    q, d, _, g = _sorted_judgments(query, doc, annotator, grade)
    item_q, item_d, item_grade = _item_grades(q, d, g, method)
    if adjudicated is not None and adjudicated.query.size:
        item_q, item_d, item_grade = _apply_adjudication(item_q, item_d, item_grade, adjudicated)
    return Qrels(query=item_q, doc=item_d, grade=item_grade)


def _sorted_judgments(
    query: ArrayLike, doc: ArrayLike, annotator: ArrayLike, grade: ArrayLike
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """The judgments with a grade (NaN dropped), checked and sorted by (query, doc, annotator).

    Raises:
        ValueError: as :func:`consensus_qrels` (shapes, indices, infinite grades, an annotator
            grading one item twice).
    """
    q = _int_array(query, "query")
    d = _int_array(doc, "doc")
    a = _int_array(annotator, "annotator")
    g = np.asarray(grade, dtype=np.float64)
    if g.ndim != 1 or not (q.shape == d.shape == a.shape == g.shape):
        raise ValueError("query, doc, annotator and grade must be 1-D of the same length")
    if np.isinf(g).any():
        raise ValueError("grades must be finite or NaN (missing)")
    present = ~np.isnan(g)
    q, d, a, g = q[present], d[present], a[present], g[present]

    order = _lexsort3(q, d, a)
    q, d, a, g = q[order], d[order], a[order], g[order]
    if q.size > 1:
        same = (q[1:] == q[:-1]) & (d[1:] == d[:-1]) & (a[1:] == a[:-1])
        if same.any():
            i = int(np.flatnonzero(same)[0])
            raise ValueError(
                f"annotator {int(a[i])} graded query {int(q[i])}, document {int(d[i])} "
                "more than once"
            )
    return q, d, a, g


def _lexsort3(
    first: NDArray[np.int64], second: NDArray[np.int64], third: NDArray[np.int64]
) -> NDArray[np.intp]:
    """The permutation of ``np.lexsort((third, second, first))`` for non-negative integer keys.

    One stable sort of the combined key ``(first * n2 + second) * n3 + third`` when it fits in
    63 bits (the same permutation: both sorts are stable and the combined key orders as the
    three keys do), faster than ``lexsort``'s three passes on a million judgments
    (``bench_gui_scale.py`` Review; timings in ``benchmarks/README.md``); else ``lexsort``
    itself.
    """
    if first.size == 0:
        return np.zeros(0, dtype=np.intp)
    n2, n3 = int(second.max()) + 1, int(third.max()) + 1
    if (int(first.max()) + 1) * n2 * n3 >= 1 << 63:
        return np.lexsort((third, second, first))
    return np.argsort((first * n2 + second) * n3 + third, kind="stable")


def _item_grades(
    q: NDArray[np.int64],
    d: NDArray[np.int64],
    g: NDArray[np.float64],
    method: ConsensusMethod,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """(query, doc, consensus grade) of each item, sorted by (query, doc); negative grades as
    in :func:`consensus_qrels`."""
    # Within each item, grades ascending (needed by median and majority).
    level = g.astype(np.int64)
    if g.size and np.array_equal(level, g):  # integer grades: one combined key (see _lexsort3)
        order = _lexsort3(q, d, level - level.min())
    else:
        order = np.lexsort((g, d, q))
    q, d, g = q[order], d[order], g[order]
    if not q.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    new_item = np.concatenate(([True], (q[1:] != q[:-1]) | (d[1:] != d[:-1])))
    starts = np.flatnonzero(new_item)
    counts = np.diff(np.append(starts, q.size))
    if (g < 0).any():  # trec_eval's -1 (judged non-relevant)
        all_negative = g[starts + counts - 1] < 0
        item_grade = _reduce(np.maximum(g, 0.0), starts, counts, method)
        item_grade[all_negative] = -1.0
    else:
        item_grade = _reduce(g, starts, counts, method)
    return q[starts], d[starts], item_grade


def _reduce(
    g: NDArray[np.float64],
    starts: NDArray[np.intp],
    counts: NDArray[np.intp],
    method: ConsensusMethod,
) -> NDArray[np.float64]:
    """One value per item from grades sorted by (item, grade)."""
    if method == "mean":
        return np.asarray(np.add.reduceat(g, starts) / counts, dtype=np.float64)
    if method == "max":
        return np.asarray(np.maximum.reduceat(g, starts), dtype=np.float64)
    if method == "min":
        return np.asarray(np.minimum.reduceat(g, starts), dtype=np.float64)
    if method == "median":
        low = starts + (counts - 1) // 2
        high = starts + counts // 2
        return np.asarray((g[low] + g[high]) / 2.0, dtype=np.float64)
    # majority: runs of equal grades within an item.
    n = g.shape[0]
    item_of_row = np.repeat(np.arange(starts.shape[0]), counts)
    new_run = np.ones(n, dtype=bool)
    new_run[1:] = (g[1:] != g[:-1]) | (item_of_row[1:] != item_of_row[:-1])
    run_starts = np.flatnonzero(new_run)
    run_len = np.diff(np.append(run_starts, n))
    run_item = item_of_row[run_starts]
    best = np.maximum.reduceat(
        run_len, np.flatnonzero(np.concatenate(([True], np.diff(run_item) != 0)))
    )
    is_mode = run_len == best[run_item]
    mode_runs = run_starts[is_mode]  # tied modes, grade ascending within each item
    mode_item = run_item[is_mode]
    n_modes = np.bincount(mode_item, minlength=starts.shape[0])
    first_mode = np.cumsum(n_modes) - n_modes
    pick = first_mode + (n_modes - 1) // 2
    return np.asarray(g[mode_runs[pick]], dtype=np.float64)


def _apply_adjudication(
    item_q: NDArray[np.int64],
    item_d: NDArray[np.int64],
    item_grade: NDArray[np.float64],
    adjudicated: Qrels,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """Adjudicated grades win; items only adjudicated are added. Output sorted by item."""
    all_q = np.concatenate((adjudicated.query, item_q))
    all_d = np.concatenate((adjudicated.doc, item_d))
    all_g = np.concatenate((adjudicated.grade, item_grade))
    source = np.concatenate(
        (np.zeros(adjudicated.query.size, dtype=np.int64), np.ones(item_q.size, dtype=np.int64))
    )
    order = np.lexsort((source, all_d, all_q))  # adjudicated first within an item
    all_q, all_d, all_g, source = all_q[order], all_d[order], all_g[order], source[order]
    first = np.ones(all_q.size, dtype=bool)
    first[1:] = (all_q[1:] != all_q[:-1]) | (all_d[1:] != all_d[:-1])
    dup_adjudicated = ~first & (source == 0)
    if dup_adjudicated.any():
        i = int(np.flatnonzero(dup_adjudicated)[0])
        raise ValueError(
            f"two adjudicated grades for query {int(all_q[i])}, document {int(all_d[i])}"
        )
    return all_q[first], all_d[first], all_g[first]
