"""What the Review view shows, computed below ``ui`` (no Qt; the CLI and tests use it as is).

:func:`load_review` scores every (query, run), summarises per run and gathers the query texts,
per-query agreement and nDCG spread into a :class:`ReviewData` (it runs on a worker thread);
:class:`ReviewRows` holds the table's columns as numpy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.alpha import alpha_by_group
from ndcg_studio.domain.agreement.disputed import disputed_per_group
from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.agreement.spread import item_spread
from ndcg_studio.domain.bands import BandThresholds
from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.services.agreement import GRADE_SCALE, AgreementService, QueryAgreement
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import DatabaseCounts
from ndcg_studio.services.freed_memory import return_freed_memory
from ndcg_studio.services.scoring.load import ScoringData
from ndcg_studio.services.scoring.report import RunSummary, ScoreReport
from ndcg_studio.services.scoring.service import ScoringService, part_starts, summarize
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.vocabulary import DEFAULT_DISPUTED_RANGE, Level


@dataclass(frozen=True, eq=False)
class ReviewRows:
    """The Review table's data, one entry per (query, run) group; arrays of shape (n,).

    Attributes:
        k: the cutoff K of the scores.
        query: str external query ids.
        query_id: int64 database ids of the queries.
        run: str run names.
        ndcg, dcg, idcg: float64 nDCG@K in [0, 1], DCG@K and IDCG@K in gain units; NaN when
            the query has no judgments.
        band: int8 band codes (:data:`~ndcg_studio.domain.bands.NO_BAND` for NaN nDCG).
        judged_at_k: float64 fraction in [0, 1] of the top K documents that are judged (NaN
            for an empty list).
        n_annotators: int64 annotators who judged the query.
        alpha: float64 Krippendorff's alpha of the query (NaN: undefined, e.g. one annotator).
        n_disputed: int64 disputed documents of the query (grade range >= the threshold).
        text: the query texts, ``str`` objects: from :meth:`from_report` an object array whose
            rows of one query share its text (8 bytes a row, not a fixed width of 4 bytes a
            character: half the memory and less with two runs; ``bench_gui_scale.py`` Review).
        thresholds: the band thresholds used (for tooltips).
        spread: float64 max - min of nDCG@K over the annotators and sources
            (:meth:`ndcg_studio.services.stability.service.StabilityService.spread`); None: not
            computed (NaN everywhere).
        text_key: int64 rank of the case-folded text in the locale's collation (the Text
            column's sort key); haystack: shape (n_distinct,), ``str`` folded
            ``query + "\x1f" + text`` of each distinct query (what the search box matches),
            and haystack_index: int64 (n,) the row's entry in ``haystack`` (per query, not per
            row: half the memory with two runs); None: computed by the table model when first
            needed. The GUI fills them in its worker (``ui.models.scores.with_text_keys``: the
            collation is Qt's), so the GUI thread does not (``bench_gui_scale.py``, Review).
    """

    k: int
    query: NDArray[np.str_]
    query_id: NDArray[np.int64]
    run: NDArray[np.str_]
    ndcg: NDArray[np.float64]
    dcg: NDArray[np.float64]
    idcg: NDArray[np.float64]
    band: NDArray[np.int8]
    judged_at_k: NDArray[np.float64]
    n_annotators: NDArray[np.int64]
    alpha: NDArray[np.float64]
    n_disputed: NDArray[np.int64]
    text: NDArray[np.str_] | NDArray[np.object_]
    thresholds: BandThresholds = field(default_factory=BandThresholds)
    spread: NDArray[np.float64] | None = None
    text_key: NDArray[np.int64] | None = None
    haystack: NDArray[np.str_] | None = None
    haystack_index: NDArray[np.int64] | None = None

    def __len__(self) -> int:
        return int(self.ndcg.shape[0])

    def spread_values(self) -> NDArray[np.float64]:
        """:attr:`spread`, or NaN everywhere when it was not computed."""
        return self.spread if self.spread is not None else np.full(len(self), np.nan)

    @classmethod
    def empty(cls) -> ReviewRows:
        f = np.zeros(0, dtype=np.float64)
        i = np.zeros(0, dtype=np.int64)
        s = np.zeros(0, dtype=str)
        return cls(10, s, i, s, f, f, f, np.zeros(0, np.int8), f, i, f, i, s)

    def with_agreement(
        self,
        report: ScoreReport,
        agreement: QueryAgreement | None,
        spread: NDArray[np.float64] | None,
    ) -> ReviewRows:
        """These rows (of ``report``) with the per-query alpha, disputed counts and spread
        filled in: the columns that arrive after the scores (:func:`load_review_agreement`)."""
        alpha_q, disputed_q = _per_query_agreement(report, agreement)
        gq = report.group_query
        return replace(self, alpha=alpha_q[gq], n_disputed=disputed_q[gq], spread=spread)

    @classmethod
    def from_report(
        cls,
        report: ScoreReport,
        texts: Sequence[str],
        agreement: QueryAgreement | None = None,
        spread: NDArray[np.float64] | None = None,
    ) -> ReviewRows:
        """Rows of every group of ``report``.

        Args:
            report: the scores.
            texts: (n_queries,) text of each query of the report (``report.query_ids`` order).
            agreement: per-query alpha and disputed counts (None: unknown, NaN / 0).
            spread: (n_groups,) nDCG spread over annotators and sources, report order.
        """
        t = report.table
        gq = report.group_query
        n_q = len(report.query_external)
        alpha_q, disputed_q = _per_query_agreement(report, agreement)
        has = t.has_judgments
        return cls(
            k=report.settings.k,
            query=np.asarray(report.query_external, dtype=str)[gq]
            if n_q
            else np.zeros(0, dtype=str),
            query_id=report.query_ids[gq],
            run=np.asarray(report.run_names, dtype=str)[report.group_run]
            if report.run_names
            else np.zeros(0, dtype=str),
            ndcg=t.ndcg,
            dcg=np.where(has, t.dcg, np.nan),
            idcg=np.where(has, t.idcg, np.nan),
            band=report.band,
            judged_at_k=t.judged_at_k,
            n_annotators=report.n_annotators,
            alpha=alpha_q[gq],
            n_disputed=disputed_q[gq],
            text=_as_objects(texts)[gq] if n_q else np.zeros(0, dtype=str),
            thresholds=report.settings.bands,
            spread=spread,
        )


def _as_objects(texts: Sequence[str]) -> NDArray[np.object_]:
    """(n,) object array of the ``str`` of ``texts`` (each row refers to its string)."""
    out = np.empty(len(texts), dtype=object)
    out[:] = [str(t) for t in texts]
    return out


def _per_query_agreement(
    report: ScoreReport, agreement: QueryAgreement | None
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """(n_queries,) alpha (NaN: unknown) and disputed counts in ``report.query_external`` order."""
    n_q = len(report.query_external)
    alpha_q = np.full(n_q, np.nan)
    disputed_q = np.zeros(n_q, dtype=np.int64)
    if agreement is not None:
        where = agreement.by_query()
        for q, name in enumerate(report.query_external):
            i = where.get(name)
            if i is not None:
                alpha_q[q] = agreement.alpha[i]
                disputed_q[q] = agreement.n_disputed[i]
    return alpha_q, disputed_q


@dataclass(frozen=True, eq=False)
class ReviewData:
    """What one Review load produces (crosses from the worker to the GUI thread)."""

    report: ScoreReport
    summaries: list[RunSummary]
    rows: ReviewRows
    #: what the database holds, read only when nothing could be scored (to say what is missing)
    counts: DatabaseCounts | None = None
    #: the judgment sources (``humans`` first), for the source filter
    sources: tuple[str, ...] = ()
    #: the source whose grades the scores are against (None: every annotator's consensus)
    source: str | None = None
    #: False: the per-query alpha, disputed and spread columns are still to come
    #: (:func:`load_review_agreement`)
    complete: bool = True
    #: False: the summaries' intervals are still to come (NaN bounds; :func:`summarize`)
    intervals: bool = True
    #: the data the scores were computed from, kept for the second stage (which then reads
    #: and scores nothing twice); None once it is complete, or when it cannot be reused
    scoring: ScoringData | None = None


def load_review(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    source: str | None = None,
    agreement: bool = True,
) -> ReviewData:
    """Score every (query, run), summarise per run, read query texts and per-query agreement.

    ``agreement=False``: the first stage only — the scores, the per-run means without their
    intervals, the query texts, and the data read (:attr:`ReviewData.scoring`); the per-query
    alpha, disputed and spread columns come from :func:`load_review_agreement` and the
    intervals from :func:`summarize` (what the view shows first arrives first).

    The report is :meth:`ScoringService.score_view`'s (ERR and RR NaN: Review shows neither).

    ``source``: score against that judgment source's grades alone
    (:meth:`StabilityService.score_source`); a source the database no longer has scores with
    every annotator (``ReviewData.source`` says which was used).

    Runs on a worker thread (no Qt); raises ``OperationCancelled`` when ``cancelled()``.
    """
    from ndcg_studio.services.stability.report import DEFAULT_SOURCE
    from ndcg_studio.services.stability.service import StabilityService

    scoring = ScoringService(db)
    stability = StabilityService(db)
    sources = (DEFAULT_SOURCE, *(s.name for s in stability.sources()))
    if source not in sources:
        source = None
    data: ScoringData | None = None
    if source is None:
        # the texts are read beside the results, not after the scoring
        report, data = scoring.score_view(
            settings, progress=progress, cancelled=cancelled, texts=True, threads=2
        )
    else:
        report = stability.score_source(source, settings, progress=progress, cancelled=cancelled)
    if len(report) == 0:
        counts = AnnotationService(db).counts()
        return ReviewData(report, [], ReviewRows.empty(), counts, sources, source)
    if cancelled is not None and cancelled():
        from ndcg_studio.progress import OperationCancelled

        raise OperationCancelled("cancelled")
    if data is not None and data.query_text is not None:
        texts = data.query_text
    else:
        texts = scoring.query_texts(report.query_ids.tolist())
    if not agreement:
        rows = ReviewRows.from_report(report, texts)
        summaries = summarize(report, intervals=False)
        first = ReviewData(report, summaries, rows, None, sources, source, complete=False)
        # the texts are in the rows: the second stage does not keep a list of them too
        kept = None if data is None else replace(data, query_text=None)
        return replace(first, intervals=False, scoring=kept)
    overview, spread = load_review_agreement(db, settings, report, cancelled, data)
    rows = ReviewRows.from_report(report, texts, overview, spread)
    return ReviewData(report, summarize(report), rows, None, sources, source)


def load_review_agreement(
    db: Database,
    settings: ScoringSettings,
    report: ScoreReport,
    cancelled: Cancelled | None,
    scoring: ScoringData | None = None,
) -> tuple[QueryAgreement, NDArray[np.float64] | None]:
    """The per-query agreement and the nDCG spread over annotators of ``report``'s rows (None:
    one annotator, or the database changed meanwhile). Worker thread.

    ``scoring``: the data ``report`` was scored from (:attr:`ReviewData.scoring`); when it
    holds every annotator's judgments (no ``settings.annotator``) both are computed from it,
    with nothing read or scored again; else they are read from the database.
    """
    from ndcg_studio.services.stability.service import StabilityService

    reuse = scoring is not None and settings.annotator is None
    if reuse and scoring is not None:
        overview = query_agreement(scoring)
    else:
        overview = AgreementService(db).query_overview()
    return_freed_memory()  # before the spread's temporaries
    spread = None
    if int(report.n_annotators.max(initial=0)) > 1:  # one annotator: no spread
        loaded = (report, scoring) if reuse and scoring is not None else None
        sp = StabilityService(db).spread(settings, cancelled=cancelled, loaded=loaded)
        same = sp.report.run_names == report.run_names and len(sp.report) == len(report)
        spread = sp.spread if same else None  # None: the database changed meanwhile
    return overview, spread


def query_agreement(
    data: ScoringData,
    level: Level = "ordinal",
    disputed_range: float = DEFAULT_DISPUTED_RANGE,
    *,
    parts: int = 4,
) -> QueryAgreement:
    """:meth:`AgreementService.query_overview` of the judgments ``data`` holds (every
    annotator's, as read for scoring with no ``annotator`` setting): the same arrays, from the
    rows already in memory instead of a second read (``bench_gui_scale.py`` Review).

    Items are the distinct (query, document) pairs in database-id order (dense indices keep
    it), annotators by id, grades below 0 (trec_eval's -1) counted as 0, as there. The alpha
    of each query is its own study: computed for ``parts`` ranges of queries one after the
    other (the same values; a part's coincidence tables at the peak instead of all of them).
    """
    j = data.judgments
    n_docs = max(len(data.doc_ids), 1)
    items, item_index = np.unique(j["query"] * n_docs + j["doc"], return_inverse=True)
    item_q = items // n_docs
    query_index, item_query_index = np.unique(item_q, return_inverse=True)
    annotator_ids, annotator_index = np.unique(j["annotator"], return_inverse=True)
    ratings = Ratings.from_arrays(
        np.asarray(item_index, dtype=np.int64).reshape(-1),
        np.asarray(annotator_index, dtype=np.int64).reshape(-1),
        np.maximum(j["grade"], 0.0),
        len(items),
        len(annotator_ids),
    )
    n_q = len(query_index)
    item_query_index = np.asarray(item_query_index, dtype=np.int64).reshape(-1)
    alpha = _alpha_in_parts(ratings, item_query_index, n_q, level, parts)
    spread = item_spread(ratings, disputed_range=disputed_range)
    return QueryAgreement(
        query_external=[data.query_external[int(q)] for q in query_index],
        alpha=alpha,
        n_items=np.bincount(item_query_index, minlength=n_q).astype(np.int64),
        n_multi=np.bincount(item_query_index[spread.n_grades >= 2], minlength=n_q).astype(np.int64),
        n_disputed=disputed_per_group(spread.disputed, item_query_index, n_q),
    )


def _alpha_in_parts(
    ratings: Ratings, query_of_item: NDArray[np.int64], n_q: int, level: Level, parts: int
) -> NDArray[np.float64]:
    """(n_q,) :func:`alpha_by_group` values of ``ratings`` by query, computed for ``parts``
    ranges of queries one after the other (``query_of_item`` ascending; each query's items and
    grades in their order, so each value is the same)."""
    starts = part_starts(n_q, parts)
    if len(starts) == 1:
        return alpha_by_group(ratings, query_of_item, n_q, level, values=GRADE_SCALE).value
    bounds = [*starts, n_q]  # part i: queries bounds[i] to bounds[i + 1]
    item_bounds = np.searchsorted(query_of_item, bounds)
    out = []
    for part, (first, last) in enumerate(pairwise(bounds)):
        lo, hi = int(item_bounds[part]), int(item_bounds[part + 1])
        rows = np.flatnonzero((ratings.item >= lo) & (ratings.item < hi))
        sub = Ratings.from_arrays(
            ratings.item[rows] - lo,
            ratings.annotator[rows],
            ratings.grade[rows],
            hi - lo,
            ratings.n_annotators,
        )
        result = alpha_by_group(
            sub, query_of_item[lo:hi] - first, last - first, level, values=GRADE_SCALE
        )
        out.append(result.value)
    return np.concatenate(out)
