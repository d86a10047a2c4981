"""NDCG@K and companion measures for many ranked lists at once (pure numpy, vectorised).

Defaults reproduce trec_eval's ``ndcg_cut.K`` (usnistgov/trec_eval ``m_ndcg_cut.c``, run order
from ``form_res_rels.c``); the options cover trec_eval's ``ndcg`` with per-grade gains
(``m_ndcg.c``), exponential gains (Burges et al. 2005, "Learning to rank using gradient
descent", ICML) and scikit-learn's ideal-from-the-returned-list convention
(``sklearn.metrics.ndcg_score``).

Vocabulary: a *group* is one ranked list, the results of one run for one query. The services
layer maps database ids to dense integer indices (query 0..n_queries-1, document
0..n_docs-1, group 0..n_groups-1) and passes plain arrays; nothing here knows about ids,
files or databases.

Definitions (rank r counts from 1 in run order; K is the cutoff):

* gain(grade): ``linear`` g = grade; ``exponential`` g = 2**grade - 1; or a mapping
  grade -> gain (like ``trec_eval -m ndcg.1=3,2=9``; grades missing from the mapping keep
  gain = grade, as in trec_eval ``setup_gains``). Negative grades (trec_eval's -1) and
  unjudged documents have gain 0. Unlike trec_eval, gains are compared as real numbers: its
  ``comp_rel_gain`` truncates gain differences to ``int``, which yields nDCG 0 for gains such
  as ``1=0.9,2=0.5`` (we return the true value).
* discount(r) = 1 / log2(r + 1).
* DCG@K = sum over r <= K of gain_r / log2(r + 1), over the run's list in run order.
* IDCG@K (``ideal="judged"``, trec_eval): the same sum over the gains > 0 of *all* judged
  documents of the query, sorted by gain descending, cut at K. ``ideal="list"``
  (scikit-learn): the gains of the documents of the returned list (unjudged = 0), sorted
  descending, cut at K.
* nDCG@K = DCG@K / IDCG@K; 0 with ``idcg_zero=True`` when the query has judgments but
  IDCG = 0; NaN when the query has no judgment at all (callers leave it out of means, like
  trec_eval, which skips queries absent from the qrels). A query that has judgments but no
  returned document scores 0 (trec_eval ``-c``, ir-measures).
* Run order: score descending, ties by document external id descending in byte order
  (trec_eval ``form_res_rels.c`` ``comp_sim_docno``); the rank column of the file is ignored.
  Scores are float64 (trec_eval 10 reads doubles; trec_eval 9 and pytrec_eval read float32, so
  scores closer than ~1e-7 relative can tie there and not here).

This module keeps the definitions of the measures; the ideal list (IDCG) and the discount live
in :mod:`ndcg_studio.domain.metrics.ideal`, the run order in
:mod:`ndcg_studio.domain.metrics.ordering`, the sort kernels in
:mod:`ndcg_studio.domain.metrics.kernels` and the
rank-by-rank table of one list in :mod:`ndcg_studio.domain.metrics.breakdown`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.ideal import discount_denominators, ideal_dcg, integer_levels
from ndcg_studio.domain.metrics.kernels import (
    group_rows,
    has_duplicates,
    segmented_exclusive_cumsum,
    sort_int,
)
from ndcg_studio.domain.metrics.ordering import order_rows

__all__ = [
    "GainSpec",
    "Qrels",
    "RankedLists",
    "ScoreTable",
    "ScoringParams",
    "dcg_and_cg",
    "gains_of_grades",
    "ndcg_from",
    "score",
]

GainSpec = Literal["linear", "exponential"] | Mapping[int, float]

_I64 = np.int64
_F64 = np.float64
# Exponential gain 2**grade - 1 for grades up to this (sums of 2**1023 would overflow).
_MAX_EXP_GRADE = 100.0
# ERR: 1 - R must stay representable (R = 1 - 2**-g_max).
_MAX_ERR_GRADE = 50.0


# --------------------------------------------------------------------------------------------
# Parameters and inputs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoringParams:
    """How to score: cutoff K, gain, ideal list, run order and thresholds.

    Attributes:
        k: cutoff K >= 1 (ranks 1..K count), or ``None`` for no cutoff (trec_eval ``ndcg``:
            DCG over the whole list, IDCG over all relevant judged documents; P and judged
            are then taken over the whole returned list).
        gain: ``"linear"`` (gain = grade, trec_eval), ``"exponential"`` (2**grade - 1,
            Burges et al. 2005) or a mapping grade -> gain (integer grades >= 0, finite gains;
            grades absent from the mapping keep gain = grade, trec_eval ``m_ndcg.c``). Gains
            may be 0 or negative (trec_eval allows it): negative gains lower the DCG and are
            never in the ideal list.
        ideal: ``"judged"`` (IDCG from all judged documents of the query, trec_eval,
            ir-measures) or ``"list"`` (IDCG from the returned list only, scikit-learn).
        order: ``"score"`` (score descending, ties by external id descending in byte order,
            trec_eval) or ``"rank"`` (the file's rank column ascending, ties by external id
            descending).
        relevance_threshold: grade >= threshold makes a document relevant for P@K and RR
            (trec_eval ``-l``, default 1). Must be finite and > 0.
        err_max_grade: g_max of ERR (Chapelle et al. 2009); grades above it are clipped to it.
            Must be in (0, 50].
        err: compute ERR@K; False leaves it NaN (a view that does not show it saves a large
            share of the scoring time; ``bench_gui_scale.py`` Review).

    Raises:
        ValueError: on any invalid value (K < 1, unknown option, non-integer or negative
            grade key, non-finite gain, threshold <= 0, ...).
    """

    k: int | None = 10
    gain: GainSpec = "linear"
    ideal: Literal["judged", "list"] = "judged"
    order: Literal["score", "rank"] = "score"
    relevance_threshold: float = 1.0
    err_max_grade: float = 4.0
    err: bool = True

    def __post_init__(self) -> None:
        k = self.k
        if k is not None:
            if isinstance(k, bool) or not isinstance(k, int | np.integer):
                raise ValueError(f"cutoff K must be an int >= 1 or None, got {k!r}")
            if k < 1:
                raise ValueError(f"cutoff K must be >= 1, got {k}")
            object.__setattr__(self, "k", int(k))
        gain = self.gain
        if isinstance(gain, str):
            if gain not in ("linear", "exponential"):
                raise ValueError(f"gain must be 'linear', 'exponential' or a mapping, got {gain!r}")
        elif isinstance(gain, Mapping):
            clean: dict[int, float] = {}
            for grade, value in gain.items():
                if isinstance(grade, bool) or not isinstance(grade, int | np.integer):
                    raise ValueError(f"custom gain keys must be integer grades, got {grade!r}")
                if grade < 0:
                    raise ValueError(
                        f"custom gain for negative grade {grade}: negative grades never gain"
                    )
                fvalue = float(value)
                if not math.isfinite(fvalue):
                    raise ValueError(f"custom gain for grade {grade} must be finite: {value!r}")
                clean[int(grade)] = fvalue
            object.__setattr__(self, "gain", MappingProxyType(dict(sorted(clean.items()))))
        else:
            raise ValueError(f"gain must be 'linear', 'exponential' or a mapping, got {gain!r}")
        if self.ideal not in ("judged", "list"):
            raise ValueError(f"ideal must be 'judged' or 'list', got {self.ideal!r}")
        if self.order not in ("score", "rank"):
            raise ValueError(f"order must be 'score' or 'rank', got {self.order!r}")
        threshold = float(self.relevance_threshold)
        if not (math.isfinite(threshold) and threshold > 0):
            raise ValueError(f"relevance_threshold must be finite and > 0, got {threshold}")
        object.__setattr__(self, "relevance_threshold", threshold)
        gmax = float(self.err_max_grade)
        if not (math.isfinite(gmax) and 0 < gmax <= _MAX_ERR_GRADE):
            raise ValueError(f"err_max_grade must be in (0, {_MAX_ERR_GRADE}], got {gmax}")
        object.__setattr__(self, "err_max_grade", gmax)

    def __hash__(self) -> int:
        gain = self.gain
        gain_key = gain if isinstance(gain, str) else tuple(gain.items())
        return hash(
            (
                self.k,
                gain_key,
                self.ideal,
                self.order,
                self.relevance_threshold,
                self.err_max_grade,
                self.err,
            )
        )


def _as_1d(values: object, dtype: type[np.generic], name: str) -> NDArray[np.generic]:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if dtype is _I64:
        integral = array.size == 0 or np.issubdtype(array.dtype, np.integer)
        if not integral and (
            not np.issubdtype(array.dtype, np.floating) or not np.all(array == np.round(array))
        ):
            raise ValueError(f"{name} must hold integers")
        return np.asarray(array, dtype=_I64)
    return np.asarray(array, dtype=dtype)


@dataclass(frozen=True, eq=False)
class RankedLists:
    """All results of one or more runs, grouped by (run, query) "group".

    Attributes (converted to the dtypes below on construction; no copy when already so):
        group: (n,) int64, group index 0..n_groups-1 of each result.
        doc: (n,) int64, document index 0..len(doc_key)-1 of each result.
        score: (n,) float64, the run's score (finite).
        rank: (n,) int64, the rank column of the file (used only with ``order="rank"``).
        group_query: (n_groups,) int64, query index of each group. Groups may have no result
            (a run that returned nothing for a query): they score 0 when the query has relevant
            judgments.
        doc_key: (n_docs,) int64, position of each document's external id in byte order, used
            to break score ties by id descending (build it with :func:`doc_order_key`). Keys are
            expected to be distinct; equal keys leave the tie order unspecified.

    Raises:
        ValueError: on shape mismatch, negative or out-of-range indices, non-finite scores.
    """

    group: NDArray[np.int64]
    doc: NDArray[np.int64]
    score: NDArray[np.float64]
    rank: NDArray[np.int64]
    group_query: NDArray[np.int64]
    doc_key: NDArray[np.int64]

    def __post_init__(self) -> None:
        for name, dtype in (
            ("group", _I64),
            ("doc", _I64),
            ("score", _F64),
            ("rank", _I64),
            ("group_query", _I64),
            ("doc_key", _I64),
        ):
            object.__setattr__(self, name, _as_1d(getattr(self, name), dtype, name))
        n = self.group.shape[0]
        for name in ("doc", "score", "rank"):
            if getattr(self, name).shape[0] != n:
                raise ValueError(f"{name} has {getattr(self, name).shape[0]} rows, group has {n}")
        n_groups = self.group_query.shape[0]
        if n:
            if self.group.min() < 0 or self.group.max() >= n_groups:
                raise ValueError(f"group indices must lie in [0, {n_groups})")
            if self.doc.min() < 0 or self.doc.max() >= self.doc_key.shape[0]:
                raise ValueError(
                    f"doc indices must lie in [0, {self.doc_key.shape[0]}) (length of doc_key)"
                )
            if not np.isfinite(self.score).all():
                raise ValueError("scores must be finite (no NaN or inf)")
        if n_groups and self.group_query.min() < 0:
            raise ValueError("group_query must hold query indices >= 0")
        if self.doc_key.size and self.doc_key.min() < 0:
            raise ValueError("doc_key must be >= 0")

    @property
    def n_groups(self) -> int:
        """Number of groups (ranked lists), including empty ones."""
        return int(self.group_query.shape[0])

    def subset(self, keep: NDArray[np.bool_]) -> RankedLists:
        """The same ranked lists with only the results where ``keep`` ((n,) bool) is True, in
        their order; the groups, their queries and the document keys are unchanged (an emptied
        group stays, with no result). Checked as on construction."""
        per_result = ("group", "doc", "score", "rank")
        return replace(self, **{name: getattr(self, name)[keep] for name in per_result})


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments, ONE grade per judged (query, document): consensus already applied.

    Attributes:
        query: (m,) int64 query index >= 0.
        doc: (m,) int64 document index >= 0 (same index space as ``RankedLists.doc``; judged
            documents that no run returned may have indices beyond ``len(doc_key)``).
        grade: (m,) float64 finite grade; fractional grades (a mean consensus) are allowed;
            negative grades (trec_eval -1) count as judged but never gain.

    Raises:
        ValueError: on shape mismatch, negative indices or non-finite grades. Duplicate
            (query, document) pairs are reported by :func:`score`.
    """

    query: NDArray[np.int64]
    doc: NDArray[np.int64]
    grade: NDArray[np.float64]

    def __post_init__(self) -> None:
        object.__setattr__(self, "query", _as_1d(self.query, _I64, "query"))
        object.__setattr__(self, "doc", _as_1d(self.doc, _I64, "doc"))
        object.__setattr__(self, "grade", _as_1d(self.grade, _F64, "grade"))
        m = self.query.shape[0]
        if self.doc.shape[0] != m or self.grade.shape[0] != m:
            raise ValueError("query, doc and grade must have the same length")
        if m:
            if self.query.min() < 0 or self.doc.min() < 0:
                raise ValueError("query and doc indices must be >= 0")
            if not np.isfinite(self.grade).all():
                raise ValueError("grades must be finite (no NaN or inf)")


@dataclass(frozen=True, eq=False)
class ScoreTable:
    """Per-group measures; every attribute is an (n_groups,) array.

    Attributes:
        ndcg: float64 nDCG@K in [0, 1] for non-negative gains; NaN when the query has no
            judgment; 0 when IDCG = 0 (see ``idcg_zero``).
        dcg: float64 DCG@K (gain units).
        idcg: float64 ideal DCG@K (gain units).
        cg: float64 cumulative gain of the top K (sum of gains, no discount).
        precision: float64 P@K = #(top-K documents with grade >= threshold) / K (divided by K
            even for shorter lists, trec_eval ``P.K``; by the list length when K is None,
            0 for an empty list). NaN when the query has no judgment.
        rr: float64 reciprocal rank of the first document with grade >= threshold in the
            WHOLE list (MRR when averaged), 0 if none. NaN when the query has no judgment.
        rr_at_k: float64 the same, 0 when that document is below rank K.
        err: float64 ERR@K (Chapelle et al. 2009, CIKM, "Expected reciprocal rank for graded
            relevance"): sum_r 1/r R_r prod_{i<r} (1 - R_i), R = (2**g - 1) / 2**g_max with
            g = grade clipped to [0, g_max] (unjudged: R = 0). NaN when the query has no
            judgment.
        judged_at_k: float64 fraction of the top min(K, n_returned) documents that have a
            judgment (any grade, negative included): a short, fully judged list gives 1.0.
            NaN for an empty list.
        n_returned: int64 number of documents in the group's list.
        n_judged_query: int64 number of judgments of the group's query.
        idcg_zero: bool, the query has judgments but IDCG = 0 (nDCG reported as 0).
        has_judgments: bool, the query has at least one judgment (``n_judged_query > 0``).
    """

    ndcg: NDArray[np.float64]
    dcg: NDArray[np.float64]
    idcg: NDArray[np.float64]
    cg: NDArray[np.float64]
    precision: NDArray[np.float64]
    rr: NDArray[np.float64]
    rr_at_k: NDArray[np.float64]
    err: NDArray[np.float64]
    judged_at_k: NDArray[np.float64]
    n_returned: NDArray[np.int64]
    n_judged_query: NDArray[np.int64]
    idcg_zero: NDArray[np.bool_]
    has_judgments: NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.ndcg.shape[0])

    def as_dict(self) -> dict[str, NDArray[np.generic]]:
        """The columns by name (same arrays, no copy)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def gains_of_grades(grade: NDArray[np.float64], gain: GainSpec) -> NDArray[np.float64]:
    """Gain of each grade (SOURCE: trec_eval ``m_ndcg.c`` setup_gains; Burges et al. 2005).

    Args:
        grade: (m,) float64 grades; negative grades gain 0.
        gain: ``"linear"`` (grade), ``"exponential"`` (2**grade - 1) or a mapping
            grade -> gain (grades missing from it keep gain = grade).

    Returns:
        (m,) float64 gains.

    Raises:
        ValueError: custom gains with a non-integer grade; exponential gain with a grade above
            100.
    """
    grade = np.asarray(grade, dtype=_F64)
    positive = grade > 0
    if isinstance(gain, str):
        if gain == "linear":
            return np.where(positive, grade, 0.0)
        if grade.size and grade.max() > _MAX_EXP_GRADE:
            raise ValueError(f"exponential gain overflows for grades above {_MAX_EXP_GRADE}")
        # exp2 is exact for integer grades (gains 1, 3, 7, 15 like ``ndcg.1=1,2=3,3=7``).
        return np.where(positive, np.exp2(np.where(positive, grade, 0.0)) - 1.0, 0.0)
    if grade.size and not np.all(grade == np.floor(grade)):
        bad = grade[grade != np.floor(grade)][0]
        raise ValueError(f"custom gains need integer grades, got grade {bad}")
    out = np.where(positive, grade, 0.0)
    for level, value in gain.items():
        out[grade == level] = value
    return out


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def _duplicate_error(lists: RankedLists) -> ValueError:
    n_docs = int(lists.doc_key.shape[0])
    key = lists.group * n_docs + lists.doc
    srt = np.sort(key)
    dup = np.unique(srt[1:][srt[1:] == srt[:-1]])
    g, d = int(dup[0] // n_docs), int(dup[0] % n_docs)
    more = f" ({dup.shape[0] - 1} more duplicate pairs)" if dup.shape[0] > 1 else ""
    return ValueError(
        f"duplicate document in a ranked list: group {g} (query index "
        f"{int(lists.group_query[g])}) returns document index {d} more than once{more}"
    )


def index_spaces(lists: RankedLists, qrels: Qrels) -> tuple[int, int]:
    """(n_queries, n_docs) covering both inputs; checks (query, doc) keys fit in int64."""
    m = qrels.query.shape[0]
    n_queries = 1 + max(
        int(lists.group_query.max()) if lists.n_groups else -1,
        int(qrels.query.max()) if m else -1,
    )
    n_docs = 1 + max(int(lists.doc_key.shape[0]) - 1, int(qrels.doc.max()) if m else -1)
    if n_queries * n_docs >= 1 << 62:
        raise ValueError("too many queries x documents for 64-bit (query, document) keys")
    return n_queries, max(n_docs, 1)


@dataclass(frozen=True, eq=False)
class RankedRows:
    """The ranked lists in run order (internal). Position i of run order holds input row
    ``order[i]`` (or i when ``order`` is None)."""

    order: NDArray[np.intp] | None
    group: NDArray[np.int64]  # (n,) group at each run-order position (grouped, ascending)
    pos: NDArray[np.int64]  # (n,) 0-based rank within the group
    n_returned: NDArray[np.int64]  # (n_groups,)

    def rows(self, at: NDArray[np.intp]) -> NDArray[np.intp]:
        """Input rows at the given run-order positions."""
        return at if self.order is None else self.order[at]


def rank_groups(lists: RankedLists, params: ScoringParams) -> RankedRows:
    """Check duplicates and put every group in run order (SOURCE: trec_eval form_res_rels.c)."""
    n_groups = lists.n_groups
    grouping = group_rows(lists.group, n_groups)
    if has_duplicates(grouping, lists.doc, int(lists.doc_key.shape[0])):
        raise _duplicate_error(lists)
    value = -lists.score if params.order == "score" else lists.rank.astype(_F64)

    def tie_key(rows: NDArray[np.intp]) -> NDArray[np.int64]:
        return lists.doc_key[lists.doc[rows]]

    order = order_rows(grouping, lists.group, value, tie_key, n_groups)
    # Run order is grouped like the grouping: same group and position at every index.
    return RankedRows(order, grouping.group, grouping.col, grouping.counts)


@dataclass(frozen=True, eq=False)
class Judgments:
    """Judgments sorted by (query, doc) key for lookups, with their gains (internal)."""

    key_sorted: NDArray[np.int64]  # (m,) sorted query * n_docs + doc
    perm: NDArray[np.intp] | None  # sorted position -> qrels row (None: already sorted)
    grade: NDArray[np.float64]  # (m,) qrels order
    gain: NDArray[np.float64]  # (m,) qrels order
    level: NDArray[np.int64] | None  # (m,) integer grade levels, if small integers
    n_docs: int
    #: (m,) the query of each judgment when judgment i is of document i (documents numbered
    #: by judgment, as ``eval`` numbers them): a pair is then found by its document alone
    query_of_doc: NDArray[np.int64] | None = None

    def lookup(
        self, query: NDArray[np.int64], doc: NDArray[np.int64]
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64], NDArray[np.float64]]:
        """(judged, grade or NaN, gain or 0) of (query, doc) pairs, each ``(n,)``."""
        size = query.shape[0]
        if self.key_sorted.shape[0] == 0 or size == 0:
            return np.zeros(size, dtype=bool), np.full(size, np.nan), np.zeros(size, dtype=_F64)
        judged, source = self._find(query, doc)
        grade = np.where(judged, self.grade[source], np.nan)
        gain = np.where(judged, self.gain[source], 0.0)
        return judged, grade, gain

    def grades(self, query: NDArray[np.int64], doc: NDArray[np.int64]) -> NDArray[np.float64]:
        """(n,) float64 grade of each (query, doc) pair, NaN when not judged: the grades of
        :meth:`lookup` without its gains (``bench_eval.py --set shared``)."""
        if self.key_sorted.shape[0] == 0 or query.shape[0] == 0:
            return np.full(query.shape[0], np.nan)
        judged, source = self._find(query, doc)
        return np.where(judged, self.grade[source], np.nan)

    def _find(
        self, query: NDArray[np.int64], doc: NDArray[np.int64]
    ) -> tuple[NDArray[np.bool_], NDArray[np.intp]]:
        """(judged, the judgment row of each pair where judged); at least one judgment."""
        m = self.key_sorted.shape[0]
        if self.query_of_doc is not None:
            # a gather instead of a binary search per pair (bench_eval.py)
            source = np.minimum(doc, m - 1)
            judged = (doc < m) & (self.query_of_doc[source] == query)
            return judged, source
        key = query * self.n_docs + doc
        at = np.searchsorted(self.key_sorted, key)
        np.minimum(at, m - 1, out=at)
        judged = self.key_sorted[at] == key
        return judged, at if self.perm is None else self.perm[at]


def judgments_of(qrels: Qrels, params: ScoringParams, n_queries: int, n_docs: int) -> Judgments:
    """``qrels`` sorted by their ``query * n_docs + doc`` key for look-ups, with their gains
    under ``params.gain`` and integer grade levels (when the grades are small integers).

    Raises:
        ValueError: two grades for one (query, document); custom gains with non-integer
            grades (:func:`gains_of_grades`).
    """
    m = qrels.query.shape[0]
    key = qrels.query * n_docs + qrels.doc
    perm: NDArray[np.intp] | None = None
    if m > 1 and not np.all(key[1:] > key[:-1]):
        key, perm = sort_int(key, n_queries * n_docs)
        dup = key[1:] == key[:-1]
        if dup.any():
            first = int(key[1:][dup][0])
            raise ValueError(
                f"qrels hold more than one grade for query index {first // n_docs}, "
                f"document index {first % n_docs}: apply a consensus first"
            )
    # judgment i of document i: the keys are sorted and distinct, and nothing else is needed
    one_each = perm is None and bool(np.array_equal(qrels.doc, np.arange(m)))
    return Judgments(
        key_sorted=key,
        perm=perm,
        grade=qrels.grade,
        gain=gains_of_grades(qrels.grade, params.gain),
        level=integer_levels(qrels.grade),
        n_docs=n_docs,
        query_of_doc=qrels.query if one_each else None,
    )


def _first_relevant(
    group: NDArray[np.int64], pos: NDArray[np.int64], relevant: NDArray[np.bool_], n_groups: int
) -> NDArray[np.int64]:
    """0-based rank of the first relevant row of each group (-1 if none); rows in run order."""
    rel = np.flatnonzero(relevant)
    rel_group = group[rel]
    first = np.ones(rel.shape[0], dtype=bool)
    first[1:] = rel_group[1:] != rel_group[:-1]
    out = np.full(n_groups, -1, dtype=_I64)
    out[rel_group[first]] = pos[rel[first]]
    return out


def score(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams | None = None,
    *,
    ranked: RankedRows | None = None,
) -> ScoreTable:
    """nDCG@K and companion measures of every group, all groups at once (no per-group loop).

    SOURCE: trec_eval ``m_ndcg_cut.c`` / ``m_ndcg.c`` (nDCG, Järvelin & Kekäläinen 2002,
    ACM TOIS 20(4)), ``form_res_rels.c`` (run order), ``m_P.c`` (P@K), ``m_recip_rank.c``
    (RR); Chapelle et al. 2009 (ERR). See the module docstring for the exact definitions.

    Only the top-K results are looked up in the qrels, plus the deeper results of groups whose
    top K holds no relevant document (for RR) and, with ``ideal="list"``, all results.

    Args:
        lists: the ranked lists (n results, n_groups groups).
        qrels: one grade per judged (query, document).
        params: scoring options (default: trec_eval ``ndcg_cut.10``).
        ranked: ``rank_groups(lists, params)`` when the same lists are scored under several
            qrels (the run order does not depend on the grades): ranked once, not per qrels.

    Returns:
        A :class:`ScoreTable` of (n_groups,) arrays.

    Raises:
        ValueError: a document occurs twice in one ranked list (naming the group), the qrels
            hold two grades for one (query, document), custom gains with non-integer grades,
            or index spaces too large for 64-bit keys.
    """
    if params is None:
        params = ScoringParams()
    n_groups = lists.n_groups
    n_queries, n_docs = index_spaces(lists, qrels)
    if ranked is None:
        ranked = rank_groups(lists, params)
    judgments = judgments_of(qrels, params, n_queries, n_docs)
    seen = _look_up(lists, ranked, judgments, params)
    top = seen.top
    g_top, pos_top = seen.group[top], seen.pos[top]
    dcg, cg = dcg_and_cg(g_top, pos_top, seen.gain[top], ranked, params.k, n_groups)
    idcg = _ideal_of(lists, qrels, judgments, seen, params, n_queries)
    n_judged_query = np.bincount(qrels.query, minlength=n_queries).astype(_I64)[lists.group_query]
    has_judgments = n_judged_query > 0
    ndcg = ndcg_from(dcg, idcg, has_judgments)
    precision, rr, rr_at_k = _precision_and_rr(lists, ranked, judgments, seen, params)
    err = _err_at_k(g_top, pos_top, seen.grade[top], params, n_groups)
    # Judged fraction of the top min(K, n_returned).
    n_judged_top = np.bincount(g_top[seen.judged[top]], minlength=n_groups)
    denominator = np.minimum(ranked.n_returned, seen.cut)
    judged_at_k = np.where(denominator > 0, n_judged_top / np.maximum(denominator, 1), np.nan)
    for column in (precision, rr, rr_at_k, err):
        column[~has_judgments] = np.nan
    return ScoreTable(
        ndcg=ndcg.astype(_F64),
        dcg=dcg.astype(_F64),
        idcg=idcg.astype(_F64),
        cg=cg.astype(_F64),
        precision=precision.astype(_F64),
        rr=rr.astype(_F64),
        rr_at_k=rr_at_k.astype(_F64),
        err=err.astype(_F64),
        judged_at_k=judged_at_k.astype(_F64),
        n_returned=ranked.n_returned,
        n_judged_query=n_judged_query,
        idcg_zero=has_judgments & ~(idcg > 0),
        has_judgments=has_judgments,
    )


def dcg_and_cg(
    group: NDArray[np.int64],
    pos: NDArray[np.int64],
    gain: NDArray[np.float64],
    ranked: RankedRows,
    k: int | None,
    n_groups: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(n_groups,) float64 DCG@K and CG@K of every group from its top-K rows: ``group``,
    ``pos`` (0-based rank) and ``gain``, each (m,), in run order (``ranked``: the lists'
    :func:`rank_groups`; its longest list bounds the discounts). Each group's sum is
    ``np.bincount``'s, in row order: the one DCG every nDCG here divides (trec_eval
    ``m_ndcg_cut.c``)."""
    longest = int(ranked.n_returned.max()) if n_groups and ranked.group.shape[0] else 0
    if k is not None:
        longest = min(longest, k)
    log_den = discount_denominators(longest)
    dcg = np.bincount(group, weights=gain / log_den[pos], minlength=n_groups)
    cg = np.bincount(group, weights=gain, minlength=n_groups)
    return np.asarray(dcg, dtype=_F64), np.asarray(cg, dtype=_F64)


def ndcg_from(
    dcg: NDArray[np.float64], idcg: NDArray[np.float64], has_judgments: NDArray[np.bool_]
) -> NDArray[np.float64]:
    """(n,) float64 nDCG = DCG / IDCG of (n,) float64 ``dcg`` and ``idcg``: 0 where IDCG <= 0,
    NaN where ``has_judgments`` ((n,) bool) is False (the query has no judgment)."""
    positive_idcg = idcg > 0
    # Over/invalid only with absurd custom gains (1e-320 -> inf, 1e308 sums -> inf/inf = NaN).
    with np.errstate(over="ignore", invalid="ignore"):
        ndcg = np.where(positive_idcg, dcg / np.where(positive_idcg, idcg, 1.0), 0.0)
    ndcg[~has_judgments] = np.nan
    return ndcg


@dataclass(frozen=True, eq=False)
class _Seen:
    """The results :func:`score` looks up in the qrels (internal): run-order positions ``at``
    (the top K, or every result when ``every``) with their group, 0-based rank and judgment."""

    every: bool  # every result was looked up (no cutoff, or the ideal from the list)
    cut: int  # positions < cut count: K, or n + 1 without a cutoff
    at: NDArray[np.intp]
    group: NDArray[np.int64]
    pos: NDArray[np.int64]
    judged: NDArray[np.bool_]
    grade: NDArray[np.float64]  # NaN when unjudged
    gain: NDArray[np.float64]  # 0 when unjudged
    top: NDArray[np.bool_]  # the position is within the cutoff


def _look_up(
    lists: RankedLists, ranked: RankedRows, judgments: Judgments, params: ScoringParams
) -> _Seen:
    """Judgments of the results that matter: the top K, or all with ``ideal="list"``/no K."""
    k = params.k
    every = k is None or params.ideal == "list"
    n = ranked.group.shape[0]
    cut = k if k is not None else n + 1
    at = np.arange(n, dtype=np.intp) if every else np.flatnonzero(ranked.pos < cut)
    group_at, pos_at = ranked.group[at], ranked.pos[at]
    judged, grade, gain = judgments.lookup(lists.group_query[group_at], lists.doc[ranked.rows(at)])
    return _Seen(every, cut, at, group_at, pos_at, judged, grade, gain, pos_at < cut)


def _ideal_of(
    lists: RankedLists,
    qrels: Qrels,
    judgments: Judgments,
    seen: _Seen,
    params: ScoringParams,
    n_queries: int,
) -> NDArray[np.float64]:
    """(n_groups,) IDCG@K: from all judged documents of the query, or from the returned list."""
    if params.ideal == "judged":
        idcg_query = ideal_dcg(qrels.query, judgments.gain, judgments.level, n_queries, params.k)
        return idcg_query[lists.group_query]
    level = None  # every result was looked up
    if judgments.level is not None:
        level = np.full(seen.at.shape[0], -1, dtype=_I64)
        level[seen.judged] = np.maximum(seen.grade[seen.judged], -1.0).astype(_I64)
    return ideal_dcg(seen.group, seen.gain, level, lists.n_groups, params.k)


def _precision_and_rr(
    lists: RankedLists,
    ranked: RankedRows,
    judgments: Judgments,
    seen: _Seen,
    params: ScoringParams,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(n_groups,) P@K, RR and RR@K (grade >= threshold; NaN = unjudged compares False)."""
    n_groups, n_returned, cut = lists.n_groups, ranked.n_returned, seen.cut
    threshold = params.relevance_threshold
    relevant_at = seen.grade >= threshold
    n_rel_top = np.bincount(seen.group[seen.top][relevant_at[seen.top]], minlength=n_groups)
    if params.k is not None:
        precision = n_rel_top / float(params.k)
    else:
        precision = np.where(n_returned > 0, n_rel_top / np.maximum(n_returned, 1), 0.0)
    first_pos = _first_relevant(seen.group, seen.pos, relevant_at, n_groups)
    if not seen.every:
        # Groups with no relevant document in the top K: look deeper.
        deeper = (first_pos < 0) & (n_returned > cut)
        if deeper.any():
            more = np.flatnonzero(deeper[ranked.group] & (ranked.pos >= cut))
            _, grade_more, _ = judgments.lookup(
                lists.group_query[ranked.group[more]], lists.doc[ranked.rows(more)]
            )
            found_deeper = _first_relevant(
                ranked.group[more], ranked.pos[more], grade_more >= threshold, n_groups
            )
            first_pos = np.where(first_pos >= 0, first_pos, found_deeper)
    found = first_pos >= 0
    rr = np.zeros(n_groups, dtype=_F64)
    rr[found] = 1.0 / (first_pos[found] + 1.0)
    rr_at_k = np.where(found & (first_pos < cut), rr, 0.0)
    return np.asarray(precision, dtype=_F64), rr, rr_at_k


def _err_at_k(
    group: NDArray[np.int64],
    pos: NDArray[np.int64],
    grade: NDArray[np.float64],
    params: ScoringParams,
    n_groups: int,
) -> NDArray[np.float64]:
    """(n_groups,) ERR@K (Chapelle et al. 2009) from the top-K rows in run order; NaN
    everywhere when ``params.err`` is False."""
    if not params.err:
        return np.full(n_groups, np.nan)
    g_max = params.err_max_grade
    clipped = np.clip(np.nan_to_num(grade, nan=0.0), 0.0, g_max)
    stop = (np.exp2(clipped) - 1.0) / 2.0**g_max
    if not stop.size:
        return np.zeros(n_groups, dtype=_F64)
    seg_start = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    log_continue = segmented_exclusive_cumsum(np.log1p(-stop), seg_start)
    weights = stop * np.exp(log_continue) / (pos + 1.0)
    return np.asarray(np.bincount(group, weights=weights, minlength=n_groups), dtype=_F64)
