"""Scoring use cases: NDCG@K and its parts for every (query, run), summaries, comparisons,
per-rank breakdowns and per-annotator spread.

Data flow: the database is read with bulk numpy reads (:mod:`ndcg_studio.storage.bulk`),
database ids are mapped to dense indices, annotators' grades are reduced to one consensus grade
per (query, document) by :func:`ndcg_studio.domain.consensus.consensus_qrels`, and everything is
scored at once by :func:`ndcg_studio.domain.metrics.score`.

Run order: each result's ``position`` (its place in trec_eval's order: score descending, ties
by document id descending) is computed at import by the domain; scoring then orders by it, or by
the file's rank column with ``order="rank"``.

Groups: every selected run × every query that has a result in a selected run or a judgment. A
query with judgments that a run did not return scores 0 for that run (trec_eval ``-c``,
ir-measures); a query without judgments has no nDCG (NaN, written empty) and is left out of means.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Connection, Select, func, select

from ndcg_studio.domain.bands import Band, BandThresholds, band_labels, band_of
from ndcg_studio.domain.breakdown import Breakdown, breakdown
from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.incomplete import IncompleteTable, incomplete_measures
from ndcg_studio.domain.metrics import (
    Qrels,
    RankedLists,
    ScoreTable,
    ScoringParams,
    score,
)
from ndcg_studio.domain.stats import MeanCI, RunComparison, bootstrap_mean_ci, compare_runs
from ndcg_studio.io.errors import InputError
from ndcg_studio.services._cells import nan_to_none
from ndcg_studio.services.progress import Cancelled, Progress, checkpoint
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import column_by_id, fetch_array, id_map
from ndcg_studio.storage.database import Database
from ndcg_studio.vocabulary import ConsensusMethod

#: First columns of ``ndcg-studio score --format csv``, in this order (then :data:`EXTRA_COLUMNS`).
SCORE_COLUMNS = ("query_id", "run", "k", "ndcg", "dcg", "idcg", "judged_at_k", "band")
EXTRA_COLUMNS = (
    "cg",
    "p_at_k",
    "rr",
    "err",
    "n_returned",
    "n_judgments",
    "n_annotators",
    "idcg_zero",
)
#: Columns of the measures for incomplete judgments (``score --measures all``), after
#: :data:`EXTRA_COLUMNS` (:mod:`ndcg_studio.domain.incomplete`).
INCOMPLETE_COLUMNS = ("ndcg_condensed", "ap", "recall", "bpref", "rbp", "rbp_residual")
#: RBP's persistence and gain in those columns.
RBP_PERSISTENCE = 0.8
RBP_GAIN: Literal["binary", "graded"] = "binary"

#: results as read for scoring; ``position`` holds the order column (trec_eval position, or the
#: file's rank with ``order="rank"``)
_RESULT_DTYPE = [
    ("run", "i8"),
    ("query", "i8"),
    ("doc", "i8"),
    ("position", "i8"),
    ("score", "f8"),
]
_JUDGMENT_DTYPE = [("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "f8")]
_JUDGMENT_READ_DTYPE = [("query", "i8"), ("doc", "i8"), ("grade", "f8")]
_ADJUDICATION_DTYPE = [("query", "i8"), ("doc", "i8"), ("grade", "f8")]


@dataclass(frozen=True)
class ScoringSettings:
    """What to score and how. Defaults follow trec_eval ``ndcg_cut.10``.

    Attributes:
        k: cutoff K >= 1.
        gain: ``linear`` (gain = grade) or ``exponential`` (2**grade - 1).
        custom_gains: gain per grade (overrides ``gain``), like trec_eval ``ndcg.0=0,1=1,2=3``.
        ideal: ``judged`` (IDCG from all judged documents of the query) or ``list`` (from the
            returned list only).
        order: ``score`` (trec_eval) or ``rank`` (the file's rank column).
        consensus: how several annotators' grades become one (an adjudicated grade wins).
        annotator: score against this annotator's grades only (no consensus, no adjudication).
        runs: run names to score (None: all runs).
        relevance_threshold: grade >= threshold is relevant for P@K and RR.
        bands: quality band thresholds.
    """

    k: int = 10
    gain: Literal["linear", "exponential"] = "linear"
    custom_gains: Mapping[int, float] | None = None
    ideal: Literal["judged", "list"] = "judged"
    order: Literal["score", "rank"] = "score"
    consensus: ConsensusMethod = "mean"
    annotator: str | None = None
    runs: tuple[str, ...] | None = None
    relevance_threshold: float = 1.0
    bands: BandThresholds = field(default_factory=BandThresholds)

    def params(self) -> ScoringParams:
        """The domain parameters (positions already encode the run order, hence ``rank``)."""
        gain: Any = dict(self.custom_gains) if self.custom_gains else self.gain
        return ScoringParams(
            k=self.k,
            gain=gain,
            ideal=self.ideal,
            order="rank",
            relevance_threshold=self.relevance_threshold,
        )

    def describe(self) -> str:
        """One line naming every setting, for report headers: enough to reproduce a report."""
        gain = (
            "custom " + ",".join(f"{g}:{v:g}" for g, v in sorted(self.custom_gains.items()))
            if self.custom_gains
            else self.gain
        )
        who = f"annotator={self.annotator}" if self.annotator else f"consensus={self.consensus}"
        runs = ",".join(self.runs) if self.runs else "all"
        b = self.bands
        return (
            f"k={self.k} gain={gain} ideal={self.ideal} order={self.order} {who} runs={runs} "
            f"relevance_threshold={self.relevance_threshold:g} bands={b.excellent:g}/{b.good:g}/"
            f"{b.fair:g}/{b.poor:g}"
        )


@dataclass(frozen=True, eq=False)
class ScoringData:
    """Everything read from the database for one scoring, as dense-index numpy arrays.

    Attributes:
        query_ids: (n_queries,) int64 database ids of the scored queries (ascending).
        query_external: external ids of those queries.
        run_ids: (n_runs,) int64 database ids of the runs (in name order); run_names likewise.
        doc_ids: (n_docs,) int64 database ids of the documents seen.
        lists: the ranked lists, one group per (run, query): group = run_index * n_queries + q.
            Positions encode the run order; ``lists.score`` holds the run's scores only when
            whole lists were read (``truncated_at`` None), else zeros.
        qrels: one grade per judged (query, document) after consensus/adjudication.
        judgments: the raw judgments (query index, doc index, annotator id, grade).
        n_annotators: (n_queries,) int64 distinct annotators who judged each query.
        n_returned: (n_groups,) int64 length of each group's whole list (counted in SQL).
        truncated_at: K when ``lists`` holds only each list's top K (default ideal), else None.
        order_column: ``position`` (trec_eval order) or ``rank`` (the file's rank column).
    """

    query_ids: NDArray[np.int64]
    query_external: list[str]
    run_ids: NDArray[np.int64]
    run_names: list[str]
    doc_ids: NDArray[np.int64]
    lists: RankedLists
    qrels: Qrels
    judgments: NDArray[Any]
    n_annotators: NDArray[np.int64]
    n_returned: NDArray[np.int64]
    truncated_at: int | None = None
    order_column: str = "position"

    @property
    def n_queries(self) -> int:
        return int(self.query_ids.shape[0])


@dataclass(frozen=True, eq=False)
class ScoreReport:
    """NDCG@K and its parts for every (run, query) group; arrays have shape (n_groups,).

    Groups are ordered run by run (run names ascending), queries by database id within a run.
    ``incomplete`` holds the measures for incomplete judgments of the same groups when they
    were asked for (``ScoringService.score(measures=True)``), else None.
    """

    settings: ScoringSettings
    query_external: list[str]
    query_ids: NDArray[np.int64]
    run_names: list[str]
    group_run: NDArray[np.int64]
    group_query: NDArray[np.int64]
    table: ScoreTable
    band: NDArray[np.int8]
    n_annotators: NDArray[np.int64]
    incomplete: IncompleteTable | None = None

    def __len__(self) -> int:
        return len(self.table)

    def run_of(self, group: int) -> str:
        return self.run_names[int(self.group_run[group])]

    def query_of(self, group: int) -> str:
        return self.query_external[int(self.group_query[group])]

    def columns(self) -> tuple[str, ...]:
        extra = INCOMPLETE_COLUMNS if self.incomplete is not None else ()
        return SCORE_COLUMNS + EXTRA_COLUMNS + extra

    def column_values(self) -> list[list[str] | NDArray[Any]]:
        """The :meth:`columns`, each an array or list of length ``len(self)``: float64 arrays
        with NaN where a value is undefined (no judgments), int64/bool arrays, lists of str."""
        t = self.table
        judged = t.has_judgments
        extra = self.incomplete
        measures = [getattr(extra, c) for c in INCOMPLETE_COLUMNS] if extra is not None else []
        return [
            [self.query_external[int(q)] for q in self.group_query.tolist()],
            [self.run_names[int(r)] for r in self.group_run.tolist()],
            np.full(len(self), self.settings.k, dtype=np.int64),
            t.ndcg,
            np.where(judged, t.dcg, np.nan),
            np.where(judged, t.idcg, np.nan),
            t.judged_at_k,
            band_labels(self.band).tolist(),
            np.where(judged, t.cg, np.nan),
            t.precision,
            t.rr,
            t.err,
            t.n_returned,
            t.n_judged_query,
            self.n_annotators,
            t.idcg_zero,
            *measures,
        ]

    def rows(self) -> Iterator[tuple[Any, ...]]:
        """Rows in :meth:`columns` order; NaN values (no judgments) become None."""

        def cells(values: list[str] | NDArray[Any]) -> list[Any]:
            if isinstance(values, np.ndarray) and values.dtype == np.float64:
                return [nan_to_none(v) for v in values.tolist()]
            return values.tolist() if isinstance(values, np.ndarray) else values

        yield from zip(*(cells(c) for c in self.column_values()), strict=True)

    def for_run(self, run: str) -> NDArray[np.intp]:
        """Group indices of one run, in query order."""
        return np.flatnonzero(self.group_run == self.run_names.index(run))


@dataclass(frozen=True)
class RunSummary:
    """Mean nDCG@K of one run with its 95% bootstrap interval and coverage."""

    run: str
    ndcg: MeanCI
    n_queries: int
    n_without_judgments: int
    n_missing_from_run: int
    n_idcg_zero: int
    band_counts: dict[str, int]


class ScoringService:
    """Scores the database's runs. Stateless; each call opens its own connection."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---------------------------------------------------------------- loading
    def load(
        self,
        settings: ScoringSettings,
        *,
        query_ids: Sequence[int] | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ScoringData:
        """Read results and judgments for ``settings`` (optionally only some queries).

        Raises:
            LookupError: an unknown run or annotator name (the message lists the known ones).
        """
        with self.db.engine.connect() as conn:
            return _load(conn, settings, query_ids, progress, cancelled)

    # ---------------------------------------------------------------- scoring
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
                result is read instead of each list's top K: about twice the time of nDCG
                alone on 10,000 queries x 100 results.
        """
        settings = settings or ScoringSettings()
        with self.db.engine.connect() as conn:
            data = _load(conn, settings, None, progress, cancelled, whole=measures)
            table = _complete_rr(
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

    def breakdown(
        self, query_external: str, run: str, settings: ScoringSettings | None = None
    ) -> QueryBreakdown:
        """The per-rank table of one (query, run), with every annotator's grade per document."""
        settings = replace(settings or ScoringSettings(), runs=(run,))
        with self.db.engine.connect() as conn:
            qid = conn.execute(
                select(models.queries.c.id).where(models.queries.c.external_id == query_external)
            ).scalar_one_or_none()
            if qid is None:
                raise LookupError(f"unknown query {query_external!r}")
            data = _load(conn, settings, [qid], None, None)
            if data.n_queries == 0:
                raise LookupError(
                    f"query {query_external!r} has no results in run {run!r} and no judgments"
                )
            bd = breakdown(data.lists, data.qrels, 0, settings.params())
            doc_ids = data.doc_ids
            docs = {
                int(r.id): (r.external_id, r.title)
                for r in conn.execute(
                    select(
                        models.documents.c.id,
                        models.documents.c.external_id,
                        models.documents.c.title,
                    ).where(models.documents.c.id.in_([int(d) for d in doc_ids]))
                )
            }
            annotators = id_map(conn, models.annotators, "name")
        per_doc: dict[int, dict[str, float]] = {}
        for row in data.judgments:
            per_doc.setdefault(int(row["doc"]), {})[annotators[int(row["annotator"])]] = float(
                row["grade"]
            )
        return QueryBreakdown(
            query=query_external,
            run=run,
            settings=settings,
            breakdown=bd,
            doc_external=[docs[int(d)][0] for d in doc_ids],
            doc_title=[docs[int(d)][1] for d in doc_ids],
            annotator_grades=per_doc,
            annotators=sorted({annotators[int(a)] for a in np.unique(data.judgments["annotator"])}),
        )

    def query_texts(self, query_ids: Sequence[int]) -> list[str]:
        """The text of each query, by database id, in the order given ('' for an unknown id).

        Args:
            query_ids: database ids (e.g. ``ScoreReport.query_ids``), any length (see
                :func:`ndcg_studio.storage.bulk.column_by_id`).
        """
        ids = [int(i) for i in query_ids]
        with self.db.engine.connect() as conn:
            texts = column_by_id(conn, models.queries, ids, "text")
        return [str(texts.get(i) or "") for i in ids]

    def per_annotator_ndcg(
        self,
        settings: ScoringSettings | None = None,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> tuple[ScoreReport, dict[str, NDArray[np.float64]]]:
        """nDCG of every group against each annotator's own grades, beside the consensus.

        Returns the consensus report and ``{annotator: (n_groups,) nDCG}`` (NaN where that
        annotator judged nothing of the query), so the spread of nDCG caused by disagreement
        (max - min over annotators) is visible per (query, run).
        """
        settings = settings or ScoringSettings()
        data = self.load(settings, progress=progress, cancelled=cancelled)
        report = score_data(data, settings)
        with self.db.engine.connect() as conn:
            names = id_map(conn, models.annotators, "name")
        out: dict[str, NDArray[np.float64]] = {}
        j = data.judgments
        for aid in np.unique(j["annotator"]).tolist():
            mask = j["annotator"] == aid
            qrels = Qrels(query=j["query"][mask], doc=j["doc"][mask], grade=j["grade"][mask])
            out[names[int(aid)]] = score(data.lists, qrels, settings.params()).ndcg
            checkpoint(0, 0, None, cancelled)
        return report, out


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


def score_data(
    data: ScoringData, settings: ScoringSettings, table: ScoreTable | None = None
) -> ScoreReport:
    """Score loaded data (pure computation, no database), or wrap an already computed table.

    With lists read only down to K (``data.truncated_at``), RR may be too low for lists whose
    first relevant document lies below K and ``n_returned`` is taken from the SQL count:
    :meth:`ScoringService.score` completes both.
    """
    if table is None:
        table = score(data.lists, data.qrels, settings.params())
        if data.truncated_at is not None:
            table = replace(table, n_returned=data.n_returned)
    n_q = data.n_queries
    n_groups = data.lists.n_groups
    group_run = np.arange(n_groups, dtype=np.int64) // max(n_q, 1)
    return ScoreReport(
        settings=settings,
        query_external=data.query_external,
        query_ids=data.query_ids,
        run_names=data.run_names,
        group_run=group_run,
        group_query=data.lists.group_query,
        table=table,
        band=band_of(table.ndcg, settings.bands),
        n_annotators=data.n_annotators[data.lists.group_query]
        if n_q
        else np.zeros(0, dtype=np.int64),
    )


#: Bootstrap budget: resamples x queries drawn per run mean (about 1 s on this machine).
_BOOTSTRAP_BUDGET = 20_000_000
#: From this many (run, query) values on, summarize resamples runs on parallel threads.
_PARALLEL_FROM = 20_000


def bootstrap_resamples(n_queries: int) -> int:
    """Resamples for a run mean's interval: 10,000, fewer for very many queries so that the
    cost stays bounded, never fewer than 1,000 (10,000 up to 2,000 queries; 1,000 from
    20,000 queries on)."""
    return max(1_000, min(10_000, _BOOTSTRAP_BUDGET // max(n_queries, 1)))


def summarize(report: ScoreReport, *, seed: int = 0) -> list[RunSummary]:
    """Per-run mean nDCG@K with a 95% percentile-bootstrap interval over queries
    (:func:`bootstrap_resamples` resamples).

    Runs with many queries are resampled on several threads at once (numpy releases the GIL
    while it draws, gathers and averages; each run has its own seeded generator, so the
    intervals are the same as one after another): two runs of 100,000 queries 0.92 → 0.49 s on
    two cores.
    """
    out = []
    t = report.table
    labels = [b.label for b in sorted(Band, reverse=True)]
    groups = [report.for_run(run) for run in report.run_names]
    per_run = [t.ndcg[idx] for idx in groups]

    def interval(ndcg: NDArray[np.float64]) -> MeanCI:
        return bootstrap_mean_ci(ndcg, n_resamples=bootstrap_resamples(len(ndcg)), seed=seed)

    if len(per_run) > 1 and sum(len(v) for v in per_run) >= _PARALLEL_FROM:
        with ThreadPoolExecutor(max_workers=min(len(per_run), os.cpu_count() or 1)) as pool:
            intervals = list(pool.map(interval, per_run))
    else:
        intervals = [interval(v) for v in per_run]
    for run, idx, ci in zip(report.run_names, groups, intervals, strict=True):
        judged = t.has_judgments[idx]
        codes = report.band[idx]
        counts = {label: 0 for label in labels}
        for label in band_labels(codes[codes >= 0]).tolist():
            counts[label] += 1
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


def measure_means(report: ScoreReport) -> dict[str, dict[str, float]]:
    """Per run, the mean of each :data:`INCOMPLETE_COLUMNS` measure over the queries with
    judgments (NaN when there is none); empty when the report has no such measures."""
    if report.incomplete is None:
        return {}
    out: dict[str, dict[str, float]] = {}
    for run in report.run_names:
        idx = report.for_run(run)
        judged = report.incomplete.has_judgments[idx]
        out[run] = {
            c: float(getattr(report.incomplete, c)[idx][judged].mean())
            if judged.any()
            else float("nan")
            for c in INCOMPLETE_COLUMNS
        }
    return out


def describe_measures(settings: ScoringSettings) -> str:
    """One note stating each measure's relevance threshold and parameters."""
    t = f"{settings.relevance_threshold:g}"
    return (
        f"ndcg_condensed = nDCG'@{settings.k} (unjudged documents removed first; same gain and "
        f"ideal as ndcg; trec_eval -J); ap = average precision over the whole list, relevant = "
        f"grade >= {t} (trec_eval map); recall = recall@{settings.k}, relevant = grade >= {t}; "
        f"bpref: relevant = grade >= {t}, judged non-relevant = 0 <= grade < {t} (Buckley & "
        f"Voorhees 2004); rbp = rank-biased precision, p = {RBP_PERSISTENCE:g}, {RBP_GAIN} gain "
        f"(relevant = grade >= {t}; Moffat & Zobel 2008); rbp_residual = the most rbp could "
        "still rise if every unjudged and unreturned document were relevant; empty = the query "
        "has no judgment"
    )


def compare(report: ScoreReport, run_a: str, run_b: str, *, seed: int = 0) -> RunComparison:
    """Paired comparison of two runs over the queries both have a value for.

    Raises:
        LookupError: a run that is not in the report.
    """
    for run in (run_a, run_b):
        if run not in report.run_names:
            raise LookupError(f"unknown run {run!r}; known: {', '.join(report.run_names)}")
    a = report.table.ndcg[report.for_run(run_a)]
    b = report.table.ndcg[report.for_run(run_b)]
    return compare_runs(a, b, seed=seed)


# -------------------------------------------------------------------- loading helpers
def _lookup(names: dict[int, str], wanted: Sequence[str], what: str) -> list[int]:
    by_name = {v: k for k, v in names.items()}
    missing = [w for w in wanted if w not in by_name]
    if missing:
        known = ", ".join(sorted(by_name)) or "none"
        raise LookupError(f"unknown {what} {', '.join(map(repr, missing))}; known: {known}")
    return [by_name[w] for w in wanted]


def _lookup_table(ids: NDArray[np.int64]) -> NDArray[np.int64]:
    """Lookup table database id -> position of that id in ``ids`` (-1 for other ids)."""
    lookup = np.full(int(ids.max(initial=0)) + 1, -1, dtype=np.int64)
    lookup[ids] = np.arange(len(ids), dtype=np.int64)
    return lookup


def _dense(*arrays: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Sorted distinct database ids of ``arrays`` and a lookup table id -> dense index (-1 for
    absent ids). O(n + max id): faster than ``np.unique`` + ``searchsorted`` on millions of rows."""
    top = max((int(a.max()) for a in arrays if len(a)), default=-1)
    present = np.zeros(top + 1, dtype=bool)
    for a in arrays:
        present[a] = True
    ids = np.flatnonzero(present).astype(np.int64)
    return ids, _lookup_table(ids)


def _fetch_results(conn: Connection, stmt: Select[Any]) -> NDArray[Any]:
    """Rows of ``stmt`` (run, query, document, order column[, score]) as ``_RESULT_DTYPE``;
    ``score`` is 0 where the statement does not select it."""
    read = fetch_array(conn, stmt, _RESULT_DTYPE[: len(stmt.selected_columns)])
    full = len(read.dtype.names or ()) == len(_RESULT_DTYPE)
    return read if full else _widened(read, _RESULT_DTYPE)


def _widened(rows: NDArray[Any], dtype: Any, **constant: int) -> NDArray[Any]:
    """``rows`` in the structured ``dtype``: its fields copied by name, the others set to
    ``constant[name]`` or 0. (A field-by-field copy: ~7x faster on a million rows than
    ``numpy.lib.recfunctions.require_fields``.)"""
    out = np.zeros(len(rows), dtype=dtype)
    for name in rows.dtype.names or ():
        out[name] = rows[name]
    for name, value in constant.items():
        out[name] = value
    return out


def _check_ranks_order(conn: Connection, run_ids: Sequence[int]) -> None:
    """Refuse ``order="rank"`` for a run whose rank column cannot order it.

    Raises:
        InputError: the first such run's reason, ``FILE:LINE: rank: ...`` as found on import.
    """
    runs = models.runs
    stmt = select(runs.c.name, runs.c.rank_problem).where(runs.c.rank_problem.is_not(None))
    if run_ids:
        stmt = stmt.where(runs.c.id.in_(list(run_ids)))
    for name, problem in conn.execute(stmt.order_by(runs.c.name)):
        raise InputError(f"{problem} (run {name!r}: --order rank is not possible)")


def _load(
    conn: Connection,
    settings: ScoringSettings,
    query_ids: Sequence[int] | None,
    progress: Progress | None,
    cancelled: Cancelled | None,
    *,
    whole: bool = False,
) -> ScoringData:
    """Read and index everything one scoring needs.

    With the default ideal (all judged documents) only results within the cutoff are read
    (``position <= K`` or ``rank <= K``), with each list's length counted in SQL; the lists of
    groups whose first relevant document lies below K are read in full afterwards (for RR, see
    :func:`_complete_rr`). ``ideal="list"`` needs every result and reads them all.
    ``whole=True`` reads every result too, without the run's scores (measures that look
    below K, :mod:`ndcg_studio.services.incomplete`).
    """
    r, j, a = models.results, models.judgments, models.adjudications
    run_names_by_id = id_map(conn, models.runs, "name")
    if settings.runs:
        run_ids = _lookup(run_names_by_id, settings.runs, "run")
    else:
        run_ids = sorted(run_names_by_id, key=lambda i: run_names_by_id[i])
    run_names = [run_names_by_id[i] for i in run_ids]
    checkpoint(0, 4, progress, cancelled)

    order_col = r.c.position if settings.order == "score" else r.c.rank
    if settings.order == "rank":
        _check_ranks_order(conn, run_ids)
    # The per-query view (breakdown) and the whole-list measures read whole lists; scoring
    # everything reads the top K — by position: ranks as written may start anywhere and leave
    # gaps, so ``rank <= K`` is not the top K.
    truncated = (
        settings.ideal == "judged" and query_ids is None and settings.order == "score" and not whole
    )
    # Scoring orders by position (or rank); only whole lists (the breakdown shows them) read the
    # run's scores: integer columns alone are read much faster (see fetch_array).
    stmt = select(r.c.run_id, r.c.query_id, r.c.document_id, order_col)
    if not truncated and not whole:
        stmt = stmt.add_columns(r.c.score)
    count_stmt = select(r.c.run_id, r.c.query_id, func.count()).group_by(r.c.run_id, r.c.query_id)
    if settings.runs:
        # Some runs: found through the (run, query, rank) index. All runs: no filter, so SQLite
        # scans the clustered table in order (4x faster than an index lookup per result).
        stmt = stmt.where(r.c.run_id.in_(run_ids))
        count_stmt = count_stmt.where(r.c.run_id.in_(run_ids))
    # One annotator in the database (or scoring against one): no annotator column to read.
    single_annotator: int | None = None
    if settings.annotator is not None:
        (single_annotator,) = _lookup(
            id_map(conn, models.annotators, "name"), [settings.annotator], "annotator"
        )
    else:
        only = conn.execute(select(func.min(models.annotators.c.id)).having(func.count() == 1))
        single_annotator = only.scalar()
    jstmt = select(j.c.query_id, j.c.document_id, j.c.grade)
    if single_annotator is None:
        jstmt = jstmt.add_columns(j.c.annotator_id)
    else:
        jstmt = jstmt.where(j.c.annotator_id == single_annotator)
    astmt = select(a.c.query_id, a.c.document_id, a.c.grade)
    if query_ids is not None:
        stmt = stmt.where(r.c.query_id.in_(list(query_ids)))
        count_stmt = count_stmt.where(r.c.query_id.in_(list(query_ids)))
        jstmt = jstmt.where(j.c.query_id.in_(list(query_ids)))
        astmt = astmt.where(a.c.query_id.in_(list(query_ids)))
    if truncated:
        stmt = stmt.where(order_col <= settings.k)

    res = np.zeros(0, _RESULT_DTYPE)
    if run_ids:
        res = _fetch_results(conn, stmt)
    counts = (
        fetch_array(conn, count_stmt, [("run", "i8"), ("query", "i8"), ("n", "i8")])
        if run_ids
        else np.zeros(0, [("run", "i8"), ("query", "i8"), ("n", "i8")])
    )
    checkpoint(1, 4, progress, cancelled)
    if single_annotator is None:
        jud = fetch_array(conn, jstmt, [*_JUDGMENT_READ_DTYPE, ("annotator", "i8")])
    else:
        read = fetch_array(conn, jstmt, _JUDGMENT_READ_DTYPE)
        jud = _widened(read, _JUDGMENT_DTYPE, annotator=single_annotator)
    adj = (
        fetch_array(conn, astmt, _ADJUDICATION_DTYPE)
        if settings.annotator is None
        else np.zeros(0, _ADJUDICATION_DTYPE)
    )
    checkpoint(2, 4, progress, cancelled)

    query_ids_arr, q_lookup = _dense(counts["query"], jud["query"], adj["query"])
    doc_ids, d_lookup = _dense(res["doc"], jud["doc"], adj["doc"])
    n_q, n_runs = len(query_ids_arr), len(run_ids)
    run_lookup = _lookup_table(np.array(run_ids, dtype=np.int64))
    lists = RankedLists(
        group=run_lookup[res["run"]] * n_q + q_lookup[res["query"]],
        doc=d_lookup[res["doc"]],
        score=res["score"],
        rank=res["position"],
        group_query=np.tile(np.arange(n_q, dtype=np.int64), n_runs),
        doc_key=np.zeros(len(doc_ids), dtype=np.int64),
    )
    n_returned = np.zeros(n_q * n_runs, dtype=np.int64)
    n_returned[run_lookup[counts["run"]] * n_q + q_lookup[counts["query"]]] = counts["n"]
    jq, jd = q_lookup[jud["query"]], d_lookup[jud["doc"]]
    adjudicated = None
    if len(adj):
        adjudicated = Qrels(
            query=q_lookup[adj["query"]], doc=d_lookup[adj["doc"]], grade=adj["grade"]
        )
    if adjudicated is None and len(jud) and jud["annotator"].min() == jud["annotator"].max():
        # One annotator: each item has one grade (a unique constraint), which every consensus
        # method returns unchanged; skip the per-item reduction.
        qrels = Qrels(query=jq, doc=jd, grade=jud["grade"])
    else:
        qrels = consensus_qrels(
            jq,
            jd,
            jud["annotator"],
            jud["grade"],
            method=settings.consensus,
            adjudicated=adjudicated,
        )
    _, a_index = _dense(jud["annotator"])
    n_a = int(a_index.max(initial=-1)) + 1
    seen = np.zeros(n_q * max(n_a, 1), dtype=bool)
    seen[jq * n_a + a_index[jud["annotator"]]] = True
    n_annotators = seen.reshape(n_q, max(n_a, 1)).sum(axis=1).astype(np.int64)
    names = id_map(conn, models.queries)
    checkpoint(3, 4, progress, cancelled)
    judgments = np.zeros(len(jud), dtype=_JUDGMENT_DTYPE)
    judgments["query"], judgments["doc"] = jq, jd
    judgments["annotator"], judgments["grade"] = jud["annotator"], jud["grade"]
    return ScoringData(
        query_ids=query_ids_arr,
        query_external=[names[int(q)] for q in query_ids_arr],
        run_ids=np.array(run_ids, dtype=np.int64),
        run_names=run_names,
        doc_ids=doc_ids,
        lists=lists,
        qrels=qrels,
        judgments=judgments,
        n_annotators=n_annotators,
        n_returned=n_returned,
        truncated_at=settings.k if truncated else None,
        order_column="position" if settings.order == "score" else "rank",
    )


def _complete_rr(
    db_conn: Connection, data: ScoringData, table: ScoreTable, settings: ScoringSettings
) -> ScoreTable:
    """Fill in RR (and n_returned) for lists that were read only down to K.

    RR needs the first relevant document of the WHOLE list: for the groups with no relevant
    document in their top K but a longer list, the rest of their lists is read and those groups
    are scored again in full.
    """
    n_returned = data.n_returned
    if data.truncated_at is None:
        return table
    k = data.truncated_at
    need = np.flatnonzero(table.has_judgments & (table.rr == 0) & (n_returned > k))
    rr = table.rr.copy()
    if len(need):
        r = models.results
        order_col = r.c.position if data.order_column == "position" else r.c.rank
        n_q = data.n_queries
        runs, queries = need // max(n_q, 1), need % max(n_q, 1)
        wanted = set(
            zip(data.run_ids[runs].tolist(), data.query_ids[queries].tolist(), strict=True)
        )
        rest = _fetch_results(
            db_conn,
            select(r.c.run_id, r.c.query_id, r.c.document_id, order_col).where(
                r.c.run_id.in_(sorted({w[0] for w in wanted})),
                r.c.query_id.in_(sorted({w[1] for w in wanted})),
                order_col > k,
            ),
        )
        q_lookup, run_lookup = _lookup_table(data.query_ids), _lookup_table(data.run_ids)
        group = run_lookup[rest["run"]] * n_q + q_lookup[rest["query"]]
        keep = np.isin(group, need)
        rest, group = rest[keep], group[keep]
        doc_ids, d_lookup = _dense(data.doc_ids, rest["doc"])
        old = np.searchsorted(doc_ids, data.doc_ids)
        in_need = np.isin(data.lists.group, need)
        full = RankedLists(
            group=np.concatenate([data.lists.group[in_need], group]),
            doc=np.concatenate([old[data.lists.doc[in_need]], d_lookup[rest["doc"]]]),
            score=np.concatenate([data.lists.score[in_need], rest["score"]]),
            rank=np.concatenate([data.lists.rank[in_need], rest["position"]]),
            group_query=data.lists.group_query,
            doc_key=np.zeros(len(doc_ids), dtype=np.int64),
        )
        qrels = Qrels(query=data.qrels.query, doc=old[data.qrels.doc], grade=data.qrels.grade)
        rr[need] = score(full, qrels, settings.params()).rr[need]
    return replace(table, rr=rr, n_returned=n_returned)
