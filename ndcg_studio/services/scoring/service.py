"""Scoring use cases: NDCG@K and its parts for every (query, run), summaries, comparisons and
the per-rank breakdown of one (query, run).

Data flow: the database is read by :mod:`ndcg_studio.services.scoring.load` (bulk numpy reads
of :mod:`ndcg_studio.storage.queries.scoring_input`, dense indices, consensus grades) and
everything is scored at once by :func:`ndcg_studio.domain.metrics.measures.score`; the report, its
columns and summaries are in :mod:`ndcg_studio.services.scoring.report`. This module is the
entry point and names all of them.

Run order: each result's ``position`` (its place in trec_eval's order: score descending, ties
by document id descending) is computed at import by the domain; scoring then orders by it, or by
the file's rank column with ``order="rank"``.

Groups: every selected run × every query that has a result in a selected run or a judgment. A
query with judgments that a run did not return scores 0 for that run (trec_eval ``-c``,
ir-measures); a query without judgments has no nDCG (NaN, written empty) and is left out of means.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.disputed import grade_range
from ndcg_studio.domain.bands import Band, band_labels
from ndcg_studio.domain.metrics.breakdown import Breakdown, breakdown
from ndcg_studio.domain.metrics.grade_sets import grade_set_table, ndcg_of_each
from ndcg_studio.domain.metrics.incomplete import incomplete_measures
from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.domain.metrics.measures import (
    Qrels,
    RankedLists,
    ScoreTable,
    ScoringParams,
    rank_groups,
    score,
)
from ndcg_studio.domain.statistics.resampling import MeanCI, bootstrap_mean_ci, bootstrap_mean_cis
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.scoring.load import (
    ScoringData,
    ScoringRead,
    complete_rr,
    load_scoring_data,
)
from ndcg_studio.services.scoring.report import (
    RBP_GAIN,
    RBP_PERSISTENCE,
    RunSummary,
    ScoreReport,
    score_data,
)
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries import names

__all__ = [
    "QueryBreakdown",
    "ScoringService",
    "bootstrap_resamples",
    "ndcg_in_parts",
    "part_starts",
    "score_in_parts",
    "summarize",
]


@dataclass(frozen=True, eq=False)
class QueryBreakdown:
    """The per-rank table of one (query, run) plus display data.

    ``breakdown`` holds the run's and the ideal list's per-rank columns (document as a dense
    index into ``doc_external``/``doc_title``); ``annotator_grades`` maps a dense document index
    to ``{annotator name: grade}``.
    """

    query: str
    run: str
    settings: ScoringSettings
    breakdown: Breakdown
    doc_external: list[str]
    doc_title: list[str]
    annotator_grades: dict[int, dict[str, float]]
    annotators: list[str]

    def grade_range(self) -> NDArray[np.float64]:
        """(n_docs,) float64 ``max - min`` of the annotators' grades of each document (dense
        index), NaN for a document nobody graded
        (:func:`ndcg_studio.domain.agreement.disputed.grade_range`); with
        :func:`~ndcg_studio.domain.agreement.disputed.is_disputed` it says which documents are
        disputed."""
        pairs = [(d, g) for d, grades in self.annotator_grades.items() for g in grades.values()]
        doc = np.array([d for d, _ in pairs], dtype=np.int64)
        grade = np.array([g for _, g in pairs], dtype=np.float64)
        return grade_range(doc, grade, len(self.doc_external))


class ScoringService:
    """Scores the database's runs. Stateless; each call opens its own connection."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def load(
        self,
        read: ScoringRead,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ScoringData:
        """Read the results and judgments ``read`` describes
        (:func:`~ndcg_studio.services.scoring.load.load_scoring_data`).

        Raises:
            LookupError: an unknown run or annotator name (the message lists the known ones).
        """
        engine = self.db.engine
        with engine.connect() as conn:
            return load_scoring_data(conn, read, progress, cancelled, engine=engine)

    def score(
        self,
        settings: ScoringSettings | None = None,
        *,
        measures: bool = False,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ScoreReport:
        """Score every (run, query) group. See the module docstring for the groups.

        Args:
            measures: also compute the measures for incomplete judgments
                (:data:`INCOMPLETE_COLUMNS`, ``report.incomplete``; RBP with
                :data:`RBP_PERSISTENCE` and :data:`RBP_GAIN`). They look below K, so every
                result is read instead of each list's top K (``bench_end_to_end.py``).
        """
        settings = settings or ScoringSettings()
        engine = self.db.engine
        with engine.connect() as conn:
            read = ScoringRead(settings, whole=measures)
            data = load_scoring_data(conn, read, progress, cancelled, engine=engine)
            table = complete_rr(
                conn, data, score(data.lists, data.qrels, settings.params()), settings
            )
        report = score_data(data, settings, table)
        if measures:
            extra = incomplete_measures(
                data.lists,
                data.qrels,
                settings.params(),
                persistence=RBP_PERSISTENCE,
                rbp_gain=RBP_GAIN,
            )
            report = replace(report, incomplete=extra)
        checkpoint(4, 4, progress, cancelled)
        return report

    def score_view(
        self,
        settings: ScoringSettings,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        texts: bool = False,
        threads: int = 1,
    ) -> tuple[ScoreReport, ScoringData]:
        """What a view shows first, and the data read for it (a later stage reuses them).

        The report is :meth:`score`'s, except for two measures no view shows from it: ERR is
        not computed and RR not completed below K (both columns NaN; RR@K is there) — the read
        of the rest of the lists and ERR's share of the scoring saved — and ``n_returned``
        counts each list down to K only (min(K, length), no SQL count of every list;
        ``bench_gui_scale.py`` Review). nDCG, DCG, IDCG, CG, P@K, judged@K, which lists
        returned nothing and the other counts are :meth:`score`'s.

        ``texts=True``: the data holds the queries' texts too (``ScoringData.query_text``),
        read beside the results. ``threads``: the groups scored in ``2 * threads`` parts,
        ``threads`` at a time (:func:`score_in_parts`).
        """
        read = ScoringRead(settings, lengths=False, texts=texts, lean=True)
        data = self.load(read, progress=progress, cancelled=cancelled)
        params = replace(settings.params(), err=False)
        table = score_in_parts(data.lists, data.qrels, params, 2 * threads, threads=threads)
        if data.truncated_at is not None:
            table = replace(table, n_returned=data.n_returned)
        unknown = np.full(len(table), np.nan)
        table = replace(table, rr=unknown, err=unknown)
        checkpoint(4, 4, progress, cancelled)
        return score_data(data, settings, table), data

    def breakdown(
        self, query_external: str, run: str, settings: ScoringSettings | None = None
    ) -> QueryBreakdown:
        """The per-rank table of one (query, run), with every annotator's grade per document.

        Raises:
            LookupError: an unknown query, run or annotator, or a query with neither results
                in ``run`` nor judgments.
        """
        settings = replace(settings or ScoringSettings(), runs=(run,))
        with self.db.engine.connect() as conn:
            qid = names.query_id(conn, query_external)
            if qid is None:
                raise LookupError(f"unknown query {query_external!r}")
            data = load_scoring_data(conn, ScoringRead(settings, [qid]))
            if data.n_queries == 0:
                raise LookupError(
                    f"query {query_external!r} has no results in run {run!r} and no judgments"
                )
            docs = names.document_titles(conn, data.doc_ids.tolist())
            annotators = names.annotator_names(conn)
        per_doc: dict[int, dict[str, float]] = {}
        for row in data.judgments:
            per_doc.setdefault(int(row["doc"]), {})[annotators[int(row["annotator"])]] = float(
                row["grade"]
            )
        doc_ids = data.doc_ids.tolist()
        return QueryBreakdown(
            query=query_external,
            run=run,
            settings=settings,
            breakdown=breakdown(data.lists, data.qrels, 0, settings.params()),
            doc_external=[docs[d][0] for d in doc_ids],
            doc_title=[docs[d][1] for d in doc_ids],
            annotator_grades=per_doc,
            annotators=sorted({annotators[int(a)] for a in distinct(data.judgments["annotator"])}),
        )

    def query_texts(self, query_ids: Sequence[int]) -> list[str]:
        """The text of each query, by database id, in the order given ('' for an unknown id).

        Args:
            query_ids: database ids (e.g. ``ScoreReport.query_ids``), any length (see
                :func:`ndcg_studio.storage.queries.names.query_texts`).
        """
        ids = [int(i) for i in query_ids]
        with self.db.engine.connect() as conn:
            texts = names.query_texts(conn, ids)
        return [texts.get(i, "") for i in ids]


def part_starts(n_groups: int, parts: int) -> range:
    """The first group (or query) of each of ``parts`` consecutive ranges of ``n_groups``,
    ceil(n_groups / parts) long each but the last (one range when there are fewer than two a
    part): how scoring, the spread and the per-query alpha cut their work to bound the peak
    memory."""
    if parts < 2 or n_groups < 2 * parts:
        return range(0, max(n_groups, 1), max(n_groups, 1))
    return range(0, n_groups, -(-n_groups // parts))


def _part(lists: RankedLists, starts: range, first: int) -> RankedLists:
    """The groups from ``first`` to the next start, numbered from 0 (made when it is scored:
    one part's copy at a time)."""
    if len(starts) == 1:
        return lists
    last = min(first + starts.step, lists.n_groups)
    group = lists.group
    rows = np.flatnonzero((group >= first) & (group < last))
    return RankedLists(
        group=group[rows] - first,
        doc=lists.doc[rows],
        score=lists.score[rows],
        rank=lists.rank[rows],
        group_query=lists.group_query[first:last],
        doc_key=lists.doc_key,
    )


def score_in_parts(
    lists: RankedLists,
    qrels: Qrels,
    params: ScoringParams,
    parts: int = 2,
    *,
    threads: int = 1,
) -> ScoreTable:
    """:func:`~ndcg_studio.domain.metrics.measures.score` of ``lists`` in ``parts`` ranges of
    groups,
    ``threads`` of them at a time: the same table, bit for bit (each group is scored from its
    own rows, the ideal from its query's qrels), with the temporaries of ``threads`` parts at
    the peak instead of the whole (a view's peak memory), and the parts side by side on
    threads (numpy sorts and gathers without the GIL; ``bench_gui_scale.py`` Review).

    Raises:
        ValueError: as ``score`` (a duplicate document names the group within its part).
    """
    starts = part_starts(lists.n_groups, parts)
    if len(starts) == 1:
        return score(lists, qrels, params)

    def one(first: int) -> ScoreTable:
        return score(_part(lists, starts, first), qrels, params)

    if threads > 1:
        with ThreadPoolExecutor(max_workers=min(threads, os.cpu_count() or 1)) as pool:
            tables = list(pool.map(one, starts))
    else:
        tables = [one(first) for first in starts]
    return ScoreTable(
        **{f.name: np.concatenate([getattr(t, f.name) for t in tables]) for f in fields(ScoreTable)}
    )


def ndcg_in_parts(
    lists: RankedLists,
    qrels_sets: Sequence[Qrels],
    params: ScoringParams,
    parts: int = 2,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> NDArray[np.float64]:
    """(len(qrels_sets), n_groups) float64 nDCG@K of ``lists`` under each qrels, the rows
    equal to ``score_in_parts(lists, qrels, params, parts).ndcg`` bit for bit: each part is put
    in run order once for every qrels (the order does not depend on the grades;
    ``bench_gui_scale.py`` Review and Stability, which score each annotator, source or rule).

    ``progress`` is told (done, total) (part, qrels) pairs.

    Raises:
        ValueError: as ``score``.
        OperationCancelled: ``cancelled()`` between two pairs.
    """
    out = np.empty((len(qrels_sets), lists.n_groups), dtype=np.float64)
    if not qrels_sets or lists.n_groups == 0:
        return out
    starts = part_starts(lists.n_groups, parts)
    total = len(starts) * len(qrels_sets)
    # the ideal from the judged documents: each result looked up once for every qrels
    sets = grade_set_table(lists, qrels_sets, params) if params.ideal == "judged" else None
    for i, first in enumerate(starts):
        part = _part(lists, starts, first)
        ranked = rank_groups(part, params)
        if sets is not None:
            out[:, first : first + part.n_groups] = ndcg_of_each(part, sets, params, ranked=ranked)
            checkpoint((i + 1) * len(qrels_sets), total, progress, cancelled)
            continue
        for row, qrels in enumerate(qrels_sets):
            out[row, first : first + part.n_groups] = score(part, qrels, params, ranked=ranked).ndcg
            checkpoint(i * len(qrels_sets) + row + 1, total, progress, cancelled)
    return out


#: Bootstrap budget: resamples x queries drawn per run mean (bounds the time of a summary;
#: ``bench_scoring_arrays.py``, timings in ``benchmarks/README.md``).
_BOOTSTRAP_BUDGET = 20_000_000
#: From this many (run, query) values on, summarize resamples runs on parallel threads.
_PARALLEL_FROM = 20_000


def bootstrap_resamples(n_queries: int) -> int:
    """Resamples for a run mean's interval: 10,000, fewer for very many queries so that the
    cost stays bounded, never fewer than 1,000 (10,000 up to 2,000 queries; 1,000 from
    20,000 queries on)."""
    return max(1_000, min(10_000, _BOOTSTRAP_BUDGET // max(n_queries, 1)))


def summarize(
    report: ScoreReport, *, seed: int = 0, intervals: bool = True, threads: int | None = None
) -> list[RunSummary]:
    """Per-run mean nDCG@K with a 95% percentile-bootstrap interval over queries
    (:func:`bootstrap_resamples` resamples).

    ``intervals=False``: the means and counts only, the interval's bounds NaN (a view shows
    the means first and the intervals when they arrive; ``bench_gui_scale.py`` Review).

    Runs with many queries are resampled on several threads at once (numpy releases the GIL
    while it draws, gathers and averages; each run has its own seeded generator, so the
    intervals are the same as one after another; ``bench_scoring_arrays.py``); ``threads``
    caps them (None: the cores). ``threads=1``: the runs' picks are drawn once for all runs of
    as many queries (:func:`bootstrap_mean_cis`, the same intervals): less CPU, more wall
    time than the threads on two cores or more.
    """
    out = []
    t = report.table
    labels = [b.label for b in sorted(Band, reverse=True)]
    groups = [report.for_run(run) for run in report.run_names]
    per_run = [t.ndcg[idx] for idx in groups]

    def interval(ndcg: NDArray[np.float64]) -> MeanCI:
        return bootstrap_mean_ci(ndcg, n_resamples=bootstrap_resamples(len(ndcg)), seed=seed)

    if not intervals:
        cis = [_mean_only(v) for v in per_run]
    elif len(per_run) > 1 and sum(len(v) for v in per_run) >= _PARALLEL_FROM and threads != 1:
        workers = min(len(per_run), threads or os.cpu_count() or 1)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            cis = list(pool.map(interval, per_run))
    else:
        by_length: dict[int, list[int]] = {}
        for i, v in enumerate(per_run):
            by_length.setdefault(len(v), []).append(i)
        found: dict[int, MeanCI] = {}
        for length, members in by_length.items():
            shared = bootstrap_mean_cis(
                [per_run[i] for i in members], n_resamples=bootstrap_resamples(length), seed=seed
            )
            found.update(zip(members, shared, strict=True))
        cis = [found[i] for i in range(len(per_run))]
    for run, idx, ci in zip(report.run_names, groups, cis, strict=True):
        judged = t.has_judgments[idx]
        counts = _band_counts(report.band[idx], labels)
        out.append(
            RunSummary(
                run=run,
                ndcg=ci,
                n_queries=int(judged.sum()),
                n_without_judgments=int((~judged).sum()),
                n_missing_from_run=int(((t.n_returned[idx] == 0) & judged).sum()),
                n_idcg_zero=int(t.idcg_zero[idx].sum()),
                band_counts=counts,
            )
        )
    return out


def _band_counts(codes: NDArray[np.int8], labels: list[str]) -> dict[str, int]:
    """``{label: rows}`` of the band ``codes`` (:data:`~ndcg_studio.domain.bands.NO_BAND`
    not counted) in the order of ``labels``: one ``bincount``, not a label per row (the
    first stage of ``bench_gui_scale.py`` Review).

    Raises:
        ValueError: a code that is no band (as :func:`~ndcg_studio.domain.bands.band_labels`).
    """
    known = codes[codes >= 0]
    if len(known) and int(known.max()) > max(Band):
        band_labels(known)  # raises, naming the code
    tally = np.bincount(known.astype(np.intp), minlength=len(Band))
    by_label = {b.label: int(tally[b]) for b in Band}
    return {label: by_label[label] for label in labels}


def _mean_only(ndcg: NDArray[np.float64]) -> MeanCI:
    """The mean of :func:`~ndcg_studio.domain.statistics.resampling.bootstrap_mean_ci` (NaN values
    left out,
    NaN for none) with the interval's bounds NaN (not computed)."""
    values = ndcg[~np.isnan(ndcg)]
    mean = float(values.mean()) if len(values) else float("nan")
    return MeanCI(mean, float("nan"), float("nan"), len(values))
