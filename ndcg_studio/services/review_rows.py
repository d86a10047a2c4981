"""What the Review view shows, computed below ``ui`` (no Qt; the CLI and tests use it as is).

:func:`load_review` scores every (query, run), summarises per run and gathers the query texts,
per-query agreement and nDCG spread into a :class:`ReviewData` (it runs on a worker thread);
:class:`ReviewRows` holds the table's columns as numpy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.bands import BandThresholds
from ndcg_studio.services.agreement import AgreementService, QueryAgreement
from ndcg_studio.services.annotation import AnnotationService, DatabaseCounts
from ndcg_studio.services.progress import Cancelled, Progress
from ndcg_studio.services.scoring import (
    RunSummary,
    ScoreReport,
    ScoringService,
    ScoringSettings,
    summarize,
)
from ndcg_studio.storage.database import Database


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
        text: str query texts.
        thresholds: the band thresholds used (for tooltips).
        spread: float64 max - min of nDCG@K over the annotators and sources
            (:meth:`ndcg_studio.services.stability.StabilityService.spread`); None: not
            computed (NaN everywhere).
        text_key: int64 rank of the case-folded text in the locale's collation (the Text
            column's sort key) and haystack: ``str`` folded ``query + "\x1f" + text`` (what the
            search box matches); None: computed by the table model when first needed. The GUI
            fills both in its worker (``ui.models.scores.with_text_keys``: the collation is
            Qt's), so the GUI thread does not (``bench_gui_scale.py``, Review).
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
    text: NDArray[np.str_]
    thresholds: BandThresholds = field(default_factory=BandThresholds)
    spread: NDArray[np.float64] | None = None
    text_key: NDArray[np.int64] | None = None
    haystack: NDArray[np.str_] | None = None

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
            text=np.asarray(list(texts), dtype=str)[gq] if n_q else np.zeros(0, dtype=str),
            thresholds=report.settings.bands,
            spread=spread,
        )


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


def load_review(
    db: Database,
    settings: ScoringSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    source: str | None = None,
    agreement: bool = True,
) -> ReviewData:
    """Score every (query, run), summarise per run, read query texts and per-query agreement.

    ``agreement=False``: leave the per-query alpha, disputed and spread columns for
    :func:`load_review_agreement` (what the view shows first arrives first).

    ``source``: score against that judgment source's grades alone
    (:meth:`StabilityService.score_source`); a source the database no longer has scores with
    every annotator (``ReviewData.source`` says which was used).

    Runs on a worker thread (no Qt); raises ``OperationCancelled`` when ``cancelled()``.
    """
    from ndcg_studio.services.stability import DEFAULT_SOURCE, StabilityService

    scoring = ScoringService(db)
    stability = StabilityService(db)
    sources = (DEFAULT_SOURCE, *(s.name for s in stability.sources()))
    if source not in sources:
        source = None
    if source is None:
        report = scoring.score(settings, progress=progress, cancelled=cancelled)
    else:
        report = stability.score_source(source, settings, progress=progress, cancelled=cancelled)
    if len(report) == 0:
        counts = AnnotationService(db).counts()
        return ReviewData(report, [], ReviewRows.empty(), counts, sources, source)
    summaries = summarize(report)
    if cancelled is not None and cancelled():
        from ndcg_studio.services.progress import OperationCancelled

        raise OperationCancelled("cancelled")
    texts = scoring.query_texts(report.query_ids.tolist())
    if not agreement:
        rows = ReviewRows.from_report(report, texts)
        return ReviewData(report, summaries, rows, None, sources, source, complete=False)
    overview, spread = load_review_agreement(db, settings, report, cancelled)
    rows = ReviewRows.from_report(report, texts, overview, spread)
    return ReviewData(report, summaries, rows, None, sources, source)


def load_review_agreement(
    db: Database, settings: ScoringSettings, report: ScoreReport, cancelled: Cancelled | None
) -> tuple[QueryAgreement, NDArray[np.float64] | None]:
    """The per-query agreement and the nDCG spread over annotators of ``report``'s rows (None:
    one annotator, or the database changed meanwhile). Worker thread."""
    from ndcg_studio.services.stability import StabilityService

    overview = AgreementService(db).query_overview()
    spread = None
    if int(report.n_annotators.max(initial=0)) > 1:  # one annotator: no spread
        sp = StabilityService(db).spread(settings, cancelled=cancelled)
        same = sp.report.run_names == report.run_names and len(sp.report) == len(report)
        spread = sp.spread if same else None  # None: the database changed meanwhile
    return overview, spread
