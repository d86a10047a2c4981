"""Does the disagreement change the decision? nDCG@K under every annotator, source and consensus
rule, its spread per (query, run), and the stability of the runs' order.

Grade sets (see :mod:`ndcg_studio.domain.stability`):

* ``annotator``: each annotator's own grades, for the annotators with enough coverage: at least
  ``min_coverage`` (default 0.5) of the top K of **every** selected run, over all queries, graded
  by that annotator (an annotator who judged only one run's results would rank that run on
  grades the others never had). The annotators left out are named in the report with their
  coverage. The *spread* uses every annotator (no threshold): an annotator counts for a
  (query, run) when they graded any document of that query's pool (every run's top K).
* ``source``: each judgment source's grades (its annotators reduced by the consensus rule of
  the settings, no adjudication), and the annotators of no source together as ``humans``.
* ``consensus``: every consensus rule (mean, median, majority, max, min) over all annotators,
  with the adjudicated grades winning, as the app scores.

Kendall's tau is tau-b (ties as ``scipy.stats.kendalltau``), tau_AP the mean of both directions
(Yilmaz, Aslam & Robertson 2008); significance is the paired randomization test already used to
compare two runs (Smucker et al. 2007) at alpha 0.05.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.measures import Qrels, score
from ndcg_studio.domain.stability import GradeSet, ndcg_spread, stability
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.agreement import DisputedItem
from ndcg_studio.services.judges.trust import mixed_notes
from ndcg_studio.services.scoring.load import ScoringData, ScoringRead
from ndcg_studio.services.scoring.report import ScoreReport, score_data
from ndcg_studio.services.scoring.service import ScoringService, ndcg_in_parts
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.report import (
    BY_CHOICES,
    CONSENSUS_RULES,
    DEFAULT_MIN_COVERAGE,
    DEFAULT_SOURCE,
    By,
    Source,
    SourceAgreement,
    SourceKind,
    SpreadReport,
    StabilityReport,
)
from ndcg_studio.services.stability.sets import (
    annotator_qrels,
    coverage_of,
    group_sources,
    item_keys,
    pooled_queries,
    positions_in,
    rule_qrels,
    source_agreement,
    source_consensus,
)
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries import names as name_reads

if TYPE_CHECKING:
    from sqlalchemy import Connection

__all__ = ["StabilityService", "assign_source"]


def _grades_of(name: str) -> str:
    """ "ada's grades", "humans' grades"."""
    return f"{name}' grades" if name.endswith("s") else f"{name}'s grades"


@dataclass
class _GradeSets:
    """The grade sets of one stability question, their qrels, and who was left out."""

    sets: list[GradeSet] = field(default_factory=list)
    qrels: list[Qrels] = field(default_factory=list)
    coverage: dict[str, float] = field(default_factory=dict)
    excluded: list[str] = field(default_factory=list)
    agreement: list[SourceAgreement] = field(default_factory=list)

    def add(self, grade_set: GradeSet, qrels: Qrels) -> None:
        self.sets.append(grade_set)
        self.qrels.append(qrels)


class StabilityService:
    """Sources, per-annotator nDCG and ranking stability of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.scoring = ScoringService(db)

    # ------------------------------------------------------------------ sources
    def sources(self) -> list[Source]:
        """Every source with its annotators, by name."""
        with self.db.engine.connect() as conn:
            rows = source_store.sources(conn)
        return [Source(name, kind, members) for name, kind, members in rows]  # type: ignore[arg-type]

    def source_of(self) -> dict[str, tuple[str, str]]:
        """``{annotator: (source, kind)}``; annotators of no source are ``(humans, human)``."""
        with self.db.engine.connect() as conn:
            return source_store.source_of(conn)

    def set_source(
        self,
        annotators: Sequence[str],
        source: str,
        kind: SourceKind = "human",
        *,
        conn: Connection | None = None,
    ) -> None:
        """Put ``annotators`` into ``source`` (created with ``kind`` if missing; an existing
        source keeps its kind unless ``kind`` differs, then the kind is updated).

        Raises:
            ValueError: an unknown kind, or the reserved name ``humans``.
            LookupError: an unknown annotator.
        """
        if conn is None:
            with self.db.engine.begin() as own:
                assign_source(own, annotators, source, kind)
        else:
            assign_source(conn, annotators, source, kind)

    # ------------------------------------------------------------------ spread
    def spread(
        self,
        settings: ScoringSettings | None = None,
        *,
        query_ids: Sequence[int] | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        loaded: tuple[ScoreReport, ScoringData] | None = None,
    ) -> SpreadReport:
        """nDCG@K of every (query, run) under each annotator and each source, and the min-max.

        An annotator's value for a (query, run) is NaN unless they graded a document of the
        query's pool (every selected run's top K); a source's is NaN unless it graded any
        document of the query. Equals scoring with ``annotator=NAME`` where defined.
        ``query_ids``: only these queries (database ids).

        ``loaded``: a report and the data it was scored from with these settings and every
        annotator (Review's first stage): used as they are, nothing is read or scored again
        but each annotator's and source's grades (``bench_gui_scale.py`` Review).
        """
        settings = replace(settings or ScoringSettings(), annotator=None)
        if loaded is None:
            read = ScoringRead(settings, query_ids=query_ids)
            data = self.scoring.load(read, progress=progress, cancelled=cancelled)
            report = score_data(data, settings)
        else:
            report, data = loaded
        with self.db.engine.connect() as conn:
            names = name_reads.annotator_names(conn)
            source_of = source_store.source_of(conn)
        sets: list[str] = []
        kinds: list[str] = []
        qrels_sets: list[Qrels] = []
        known: list[NDArray[np.bool_]] = []  # per set: the groups it has a value for, or none
        pooled = pooled_queries(data, settings.k)
        for aid, qrels in annotator_qrels(data):
            judged = np.zeros((data.n_queries,), dtype=bool)
            judged[pooled[1][positions_in(pooled[0], item_keys(data, qrels))]] = True
            sets.append(names[aid])
            kinds.append("annotator")
            qrels_sets.append(qrels)
            known.append(judged[data.lists.group_query])
        sources = group_sources(source_of, names, data)
        if len(sources) > 1:
            for name, mask in sources.items():
                sets.append(f"source:{name}")
                kinds.append("source")
                qrels_sets.append(source_consensus(data, mask, settings))
        checkpoint(0, 0, None, cancelled)
        params = replace(settings.params(), err=False)  # nDCG only
        # in four parts: a quarter of the temporaries at the peak (bench_gui_scale Review)
        values = ndcg_in_parts(data.lists, qrels_sets, params, 4, cancelled=cancelled)
        for row, mask in enumerate(known):
            values[row, ~mask] = np.nan
        low, high = ndcg_spread(values)
        return SpreadReport(report, sets, kinds, values, low, high)

    def query_spread(
        self, query: str, run: str, settings: ScoringSettings | None = None
    ) -> dict[str, float]:
        """``{annotator or source:NAME: nDCG@K}`` of one (query, run), as in :meth:`spread`
        (the sets with a value only).

        Raises:
            LookupError: an unknown query or run.
        """
        with self.db.engine.connect() as conn:
            qid = name_reads.query_id(conn, query)
        if qid is None:
            raise LookupError(f"unknown query {query!r}")
        spread = self.spread(settings, query_ids=[int(qid)])
        rep = spread.report
        if run not in rep.run_names or not len(rep):
            raise LookupError(f"unknown run {run!r}; known: {', '.join(rep.run_names)}")
        return spread.by_group(int(rep.for_run(run)[0]))

    def score_source(
        self,
        source: str,
        settings: ScoringSettings | None = None,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ScoreReport:
        """Score every (run, query) against one source's grades alone (its annotators reduced
        by ``settings.consensus``, no adjudication), like ``annotator=NAME`` for an annotator.
        ``humans`` names the annotators of no source. ``n_annotators`` still counts everyone.

        Raises:
            LookupError: an unknown source.
        """
        settings = replace(settings or ScoringSettings(), annotator=None)
        with self.db.engine.connect() as conn:
            names = name_reads.annotator_names(conn)
            source_of = source_store.source_of(conn)
        # whole lists (the load of ideal="list"): RR needs each list's first relevant document,
        # which may lie below K; the nDCG@K of the settings' own ideal is the same either way
        whole = replace(settings, ideal="list")
        data = self.scoring.load(ScoringRead(whole), progress=progress, cancelled=cancelled)
        sources = group_sources(source_of, names, data, always=True)
        if source not in sources:
            raise LookupError(f"unknown source {source!r}; known: {', '.join(sources)}")
        data = replace(data, qrels=source_consensus(data, sources[source], settings))
        return score_data(data, settings, score(data.lists, data.qrels, settings.params()))

    def by_annotator_rows(self, spread: SpreadReport) -> Iterator[tuple[Any, ...]]:
        """Long rows :data:`BY_ANNOTATOR_COLUMNS`, one per (query, run, annotator) with a value,
        in the report's group order, annotators by name."""
        source_of = self.source_of()
        rep = spread.report
        per = spread.annotator_values()
        for g in range(len(rep)):
            for name, values in per.items():
                v = float(values[g])
                if not np.isnan(v):
                    src, kind = source_of.get(name, (DEFAULT_SOURCE, "human"))
                    yield (rep.query_of(g), rep.run_of(g), name, src, kind, rep.settings.k, v)

    # ------------------------------------------------------------------ stability
    def stability(
        self,
        by: By,
        settings: ScoringSettings | None = None,
        *,
        min_coverage: float = DEFAULT_MIN_COVERAGE,
        alpha: float = 0.05,
        n_resamples: int = 10_000,
        test: bool = True,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> StabilityReport:
        """Run orders under every grade set of kind ``by`` (see the module docstring).

        ``test=False`` skips the significance tests (p-values NaN; what a quick view needs).

        Raises:
            ValueError: unknown ``by``, ``min_coverage`` outside [0, 1].
            LookupError: an unknown run.
        """
        if by not in BY_CHOICES:
            raise ValueError(f"by must be one of {', '.join(BY_CHOICES)}, got {by!r}")
        if not 0.0 <= min_coverage <= 1.0:
            raise ValueError(f"min_coverage must lie in [0, 1], got {min_coverage}")
        settings = replace(settings or ScoringSettings(), annotator=None)
        # only nDCG@K: no count of every whole list (ScoringService.load's ``lengths``)
        read = ScoringRead(settings, lengths=False, lean=True)
        data = self.scoring.load(read, progress=progress, cancelled=cancelled)
        grade_sets = self._grade_sets(by, settings, data, min_coverage)
        sets, qrels_list = grade_sets.sets, grade_sets.qrels
        params = replace(settings.params(), err=False)  # nDCG only
        n_q, n_runs = data.n_queries, len(data.run_names)

        def scored(done: int, total: int) -> None:  # the tests and the report are left
            if progress is not None:
                progress(done, total + 1)

        # in two parts (ndcg_in_parts): half the temporaries at the peak
        values = ndcg_in_parts(
            data.lists, qrels_list, params, progress=scored, cancelled=cancelled
        ).reshape(len(sets), n_runs, n_q)
        result = stability(
            sets, data.run_names, values, alpha=alpha, n_resamples=n_resamples, seed=0, test=test
        )
        return StabilityReport(
            by=by,
            settings=settings,
            result=result,
            coverage=grade_sets.coverage,
            excluded=grade_sets.excluded,
            min_coverage=min_coverage,
            agreement=grade_sets.agreement,
            mixed=tuple(mixed_notes(self.db)) if by == "source" else (),
        )

    def _grade_sets(
        self, by: By, settings: ScoringSettings, data: ScoringData, min_coverage: float
    ) -> _GradeSets:
        """The grade sets of kind ``by`` and their qrels (see :meth:`stability`)."""
        with self.db.engine.connect() as conn:
            names = name_reads.annotator_names(conn)
            source_of = source_store.source_of(conn)
        out = _GradeSets()
        if by == "annotator":
            cover = coverage_of(data, settings.k)
            for aid, qrels in annotator_qrels(data):
                name = names[aid]
                out.coverage[name] = cover(qrels)
                if out.coverage[name] + 1e-12 < min_coverage:
                    out.excluded.append(name)
                    continue
                out.add(GradeSet(name, _grades_of(name)), qrels)
        elif by == "source":
            sources = group_sources(source_of, names, data)
            for name, mask in sources.items():
                out.add(GradeSet(name, _grades_of(name)), source_consensus(data, mask, settings))
            out.agreement = source_agreement(list(sources), out.qrels)
        else:
            for rule in CONSENSUS_RULES:
                qrels = rule_qrels(self.scoring, settings, rule, data)
                out.add(GradeSet(rule, f"the {rule} consensus"), qrels)
        return out

    # ------------------------------------------------------------------ correction queue
    def source_disputes(
        self, source_a: str, source_b: str, *, min_difference: float = 2.0
    ) -> list[DisputedItem]:
        """Items whose grades under two sources differ by ``min_difference`` or more (largest
        first): the correction queue, in the disputed list's own item type. A source's grade of
        an item is its annotators' consensus (the settings' default rule, mean).

        Raises:
            LookupError: an unknown source (``humans`` names the annotators of no source).
        """
        settings = ScoringSettings(k=1)  # only the judgments are needed
        with self.db.engine.connect() as conn:
            names = name_reads.annotator_names(conn)
            source_of = source_store.source_of(conn)
        data = self.scoring.load(ScoringRead(settings))
        sources = group_sources(source_of, names, data, always=True)
        for s in (source_a, source_b):
            if s not in sources:
                raise LookupError(f"unknown source {s!r}; known: {', '.join(sorted(sources))}")
        qa = source_consensus(data, sources[source_a], settings)
        qb = source_consensus(data, sources[source_b], settings)
        ka, kb = item_keys(data, qa), item_keys(data, qb)
        common, ia, ib = np.intersect1d(ka, kb, return_indices=True)
        diff = np.abs(qa.grade[ia] - qb.grade[ib])
        keep = np.flatnonzero(diff >= min_difference - 1e-12)
        keep = keep[np.argsort(-diff[keep], kind="stable")]
        n_docs = max(len(data.doc_ids), 1)
        doc_ids = data.doc_ids[common[keep] % n_docs]
        with self.db.engine.connect() as conn:
            dnames = name_reads.document_external_ids(conn, doc_ids.tolist())
        out = []
        for i in keep.tolist():
            q, d = int(common[i]) // n_docs, int(common[i]) % n_docs
            qid, did = int(data.query_ids[q]), int(data.doc_ids[d])
            grades = {source_a: float(qa.grade[ia[i]]), source_b: float(qb.grade[ib[i]])}
            out.append(
                DisputedItem(
                    query_id=qid,
                    document_id=did,
                    query_external=data.query_external[q],
                    doc_external=dnames[did],
                    grades=grades,
                    range=float(diff[i]),
                    mean=float(np.mean(list(grades.values()))),
                )
            )
        return out


def assign_source(
    conn: Connection, annotators: Sequence[str], source: str, kind: str = "human"
) -> None:
    """Put ``annotators`` into ``source`` within the caller's transaction (see
    :meth:`StabilityService.set_source`; the write is
    :func:`ndcg_studio.storage.sources.assign_source`).

    Raises:
        ValueError: an unknown kind, or the reserved name ``humans``.
        LookupError: an unknown annotator.
    """
    if kind not in source_store.SOURCE_KINDS:
        raise ValueError(f"source kind must be one of {', '.join(source_store.SOURCE_KINDS)}")
    if source == DEFAULT_SOURCE:
        raise ValueError(f"{DEFAULT_SOURCE!r} names the annotators of no source")
    source_store.assign_source(conn, annotators, source, kind)
