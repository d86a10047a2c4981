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
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Connection, delete, select

from ndcg_studio.domain.agreement import Ratings, alpha, pairwise_cohen_kappa
from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.metrics import Qrels, score
from ndcg_studio.domain.stability import GradeSet, StabilityResult, ndcg_spread, stability
from ndcg_studio.services.agreement import DisputedItem
from ndcg_studio.services.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.scoring import (
    ScoreReport,
    ScoringData,
    ScoringService,
    ScoringSettings,
    _complete_rr,  # completes RR of lists read down to K, as ScoringService.score does
    _load,
    score_data,
)
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import id_map
from ndcg_studio.storage.database import Database
from ndcg_studio.vocabulary import GRADES

By = Literal["annotator", "source", "consensus"]
BY_CHOICES: tuple[By, ...] = ("annotator", "source", "consensus")
SourceKind = Literal["human", "vendor", "model"]
CONSENSUS_RULES = ("mean", "median", "majority", "max", "min")
#: The grade set of the annotators that belong to no source.
DEFAULT_SOURCE = "humans"
DEFAULT_MIN_COVERAGE = 0.5

#: First columns of ``ndcg-studio stability --format csv``.
STABILITY_COLUMNS = (
    "set_a",
    "set_b",
    "kendall_tau",
    "tau_ap",
    "n_runs",
    "flipped_pairs",
    "significance_flips",
)
#: Columns of ``ndcg-studio score --by-annotator`` (long format).
BY_ANNOTATOR_COLUMNS = ("query_id", "run", "annotator", "source", "kind", "k", "ndcg")


@dataclass(frozen=True)
class Source:
    """A judgment source and its annotators (names ascending)."""

    name: str
    kind: SourceKind
    annotators: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class SpreadReport:
    """nDCG@K of every (run, query) group under each annotator and each source.

    Attributes:
        report: the consensus report (the groups, their order and the settings).
        sets: the grade sets, annotators first (names ascending), then sources (``source:NAME``).
        kinds: per set ``annotator`` or ``source``.
        values: float64[n_sets, n_groups]; NaN where the set graded nothing of the group's
            query pool (annotators) or of the query (sources).
        low, high: float64[n_groups] min and max over the sets (NaN: no set has a value).
    """

    report: ScoreReport
    sets: list[str]
    kinds: list[str]
    values: NDArray[np.float64]
    low: NDArray[np.float64]
    high: NDArray[np.float64]

    @property
    def spread(self) -> NDArray[np.float64]:
        """float64[n_groups] ``high - low`` (0 with one set, NaN with none)."""
        return self.high - self.low

    def annotator_values(self) -> dict[str, NDArray[np.float64]]:
        """``{annotator: float64[n_groups]}`` (the annotator sets only)."""
        return {
            s: self.values[i]
            for i, (s, k) in enumerate(zip(self.sets, self.kinds, strict=True))
            if k == "annotator"
        }

    def by_group(self, group: int) -> dict[str, float]:
        """``{set: nDCG}`` of one group, the sets with a value only."""
        return {
            s: float(self.values[i, group])
            for i, s in enumerate(self.sets)
            if not np.isnan(self.values[i, group])
        }


@dataclass(frozen=True, eq=False)
class SourceAgreement:
    """Label agreement of two sources on the items both graded.

    Attributes:
        source_a, source_b: names.
        n_shared: items graded by both.
        kappa_linear: Cohen's kappa with linear weights (NaN when undefined).
        alpha: Krippendorff's alpha, ordinal, over the two sources (NaN when undefined).
        confusion: int64[5, 5], rows = a's grade 0..4, columns = b's (grades rounded to the
            nearest integer, halves up, when a source's consensus is fractional).
        n_two_apart: items whose grades differ by two or more (the correction queue).
    """

    source_a: str
    source_b: str
    n_shared: int
    kappa_linear: float
    alpha: float
    confusion: NDArray[np.int64]
    n_two_apart: int


@dataclass(frozen=True, eq=False)
class StabilityReport:
    """The run orders under every grade set of one kind and what they say.

    Attributes:
        by: the kind of grade sets.
        settings: the scoring settings (K, gains, consensus rule of the sources).
        result: orders, tau, flips and verdicts (:class:`ndcg_studio.domain.stability.
            StabilityResult`).
        coverage: per annotator (``by="annotator"``) the smallest share of a run's top K they
            graded; empty otherwise.
        excluded: the annotators below ``min_coverage``.
        min_coverage: the threshold used.
        agreement: label agreement of every two sources (``by="source"``), else empty.
    """

    by: By
    settings: ScoringSettings
    result: StabilityResult
    coverage: dict[str, float]
    excluded: list[str]
    min_coverage: float
    agreement: list[SourceAgreement]

    def describe(self) -> str:
        """The settings line of the CSV's settings file."""
        return (
            f"by={self.by} min_coverage={self.min_coverage:g} alpha={self.result.alpha:g} "
            f"n_resamples={self.result.n_resamples} {self.settings.describe()}"
        )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        """One row per pair of grade sets, :data:`STABILITY_COLUMNS`."""
        r = self.result
        for p in r.pairs:
            sig = []
            for v in r.verdicts:
                if v.significant[p.set_a] != v.significant[p.set_b]:
                    sig.append(r.order_label(p.set_a, v.run_a, v.run_b))
            yield (
                r.sets[p.set_a].name,
                r.sets[p.set_b].name,
                _cell(p.kendall_tau),
                _cell(p.tau_ap),
                p.n_runs,
                r.flipped_label(p),
                "|".join(sig),
            )

    def notes(self) -> list[str]:
        """Notes for the settings file: who was left out, and the sentence for two runs."""
        out = [
            "kendall_tau is tau-b (ties as scipy.stats.kendalltau); tau_ap is the mean of "
            "tau_AP in both directions (Yilmaz, Aslam & Robertson 2008); flipped_pairs lists "
            "run pairs ordered oppositely (in set_a's order); significance_flips the run pairs "
            f"whose paired randomization test at alpha {self.result.alpha:g} says different "
            "things under the two sets"
        ]
        if self.excluded:
            cov = ", ".join(f"{a} {self.coverage[a]:.0%}" for a in self.excluded)
            out.append(
                f"annotators below {self.min_coverage:.0%} coverage of every run's top "
                f"{self.settings.k} left out: {cov}"
            )
        for x in self.agreement:
            rows = "; ".join(
                f"{g}: " + " ".join(str(int(c)) for c in x.confusion[g]) for g in GRADES
            )
            out.append(
                f"{x.source_a} vs {x.source_b}: {x.n_shared} items, kappa_linear "
                f"{x.kappa_linear:.4f}, alpha_ordinal {x.alpha:.4f}, {x.n_two_apart} two grades "
                f"or more apart; confusion ({x.source_a}'s grade: {x.source_b}'s 0 1 2 3 4) {rows}"
            )
        if len(self.result.runs) == 2 and len(self.result.sets):
            out.append(self.result.sentence(*self.result.runs))
        return out


def _grades_of(name: str) -> str:
    """ "ada's grades", "humans' grades"."""
    return f"{name}' grades" if name.endswith("s") else f"{name}'s grades"


def _cell(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


class StabilityService:
    """Sources, per-annotator nDCG and ranking stability of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.scoring = ScoringService(db)

    # ------------------------------------------------------------------ sources
    def sources(self) -> list[Source]:
        """Every source with its annotators, by name."""
        s, m, a = models.sources, models.annotator_sources, models.annotators
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(s.c.id, s.c.name, s.c.kind).order_by(s.c.name)).all()
            members = conn.execute(
                select(m.c.source_id, a.c.name).join(a, a.c.id == m.c.annotator_id)
            ).all()
        names: dict[int, list[str]] = {}
        for sid, name in members:
            names.setdefault(int(sid), []).append(str(name))
        return [Source(str(r.name), r.kind, tuple(sorted(names.get(int(r.id), [])))) for r in rows]

    def source_of(self) -> dict[str, tuple[str, str]]:
        """``{annotator: (source, kind)}``; annotators of no source are ``(humans, human)``."""
        with self.db.engine.connect() as conn:
            return _source_of(conn)

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
    ) -> SpreadReport:
        """nDCG@K of every (query, run) under each annotator and each source, and the min-max.

        An annotator's value for a (query, run) is NaN unless they graded a document of the
        query's pool (every selected run's top K); a source's is NaN unless it graded any
        document of the query. Equals scoring with ``annotator=NAME`` where defined.
        ``query_ids``: only these queries (database ids).
        """
        settings = replace(settings or ScoringSettings(), annotator=None)
        data = self.scoring.load(
            settings, query_ids=query_ids, progress=progress, cancelled=cancelled
        )
        report = score_data(data, settings)
        with self.db.engine.connect() as conn:
            names = id_map(conn, models.annotators, "name")
            source_of = _source_of(conn)
        sets: list[str] = []
        kinds: list[str] = []
        rows: list[NDArray[np.float64]] = []
        pooled = _pooled_queries(data, settings.k)
        for aid, qrels in _annotator_qrels(data):
            values = score(data.lists, qrels, settings.params()).ndcg
            judged = np.zeros((data.n_queries,), dtype=bool)
            judged[np.unique(pooled[1][np.isin(pooled[0], _keys(data, qrels))])] = True
            sets.append(names[aid])
            kinds.append("annotator")
            rows.append(np.where(judged[data.lists.group_query], values, np.nan))
            checkpoint(0, 0, None, cancelled)
        sources = _group_sources(source_of, names, data)
        if len(sources) > 1:
            for name, mask in sources.items():
                qrels = _consensus(data, mask, settings)
                sets.append(f"source:{name}")
                kinds.append("source")
                rows.append(score(data.lists, qrels, settings.params()).ndcg)
        values = np.stack(rows) if rows else np.zeros((0, len(report)))
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
            qid = conn.execute(
                select(models.queries.c.id).where(models.queries.c.external_id == query)
            ).scalar_one_or_none()
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
            names = id_map(conn, models.annotators, "name")
            source_of = _source_of(conn)
            data = _load(conn, settings, None, progress, cancelled)
            sources = _group_sources(source_of, names, data, always=True)
            if source not in sources:
                raise LookupError(f"unknown source {source!r}; known: {', '.join(sources)}")
            data = replace(data, qrels=_consensus(data, sources[source], settings))
            table = _complete_rr(
                conn, data, score(data.lists, data.qrels, settings.params()), settings
            )
        return score_data(data, settings, table)

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
        data = self.scoring.load(settings, progress=progress, cancelled=cancelled)
        with self.db.engine.connect() as conn:
            names = id_map(conn, models.annotators, "name")
            source_of = _source_of(conn)
        params = settings.params()
        sets: list[GradeSet] = []
        qrels_list: list[Qrels] = []
        coverage: dict[str, float] = {}
        excluded: list[str] = []
        agreement: list[SourceAgreement] = []
        if by == "annotator":
            cover = _coverage(data, settings.k)
            for aid, qrels in _annotator_qrels(data):
                name = names[aid]
                coverage[name] = cover(qrels)
                if coverage[name] + 1e-12 < min_coverage:
                    excluded.append(name)
                    continue
                sets.append(GradeSet(name, _grades_of(name)))
                qrels_list.append(qrels)
        elif by == "source":
            sources = _group_sources(source_of, names, data)
            for name, mask in sources.items():
                sets.append(GradeSet(name, _grades_of(name)))
                qrels_list.append(_consensus(data, mask, settings))
            agreement = _source_agreement(list(sources), qrels_list)
        else:
            for rule in CONSENSUS_RULES:
                sets.append(GradeSet(rule, f"the {rule} consensus"))
                qrels_list.append(_rule_qrels(self.scoring, settings, rule, data))
        n_q, n_runs = data.n_queries, len(data.run_names)
        values = np.full((len(sets), n_runs, n_q), np.nan)
        for i, qrels in enumerate(qrels_list):
            values[i] = score(data.lists, qrels, params).ndcg.reshape(n_runs, n_q)
            checkpoint(i + 1, len(sets) + 1, progress, cancelled)
        result = stability(
            sets, data.run_names, values, alpha=alpha, n_resamples=n_resamples, seed=0, test=test
        )
        return StabilityReport(
            by=by,
            settings=settings,
            result=result,
            coverage=coverage,
            excluded=excluded,
            min_coverage=min_coverage,
            agreement=agreement,
        )

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
            names = id_map(conn, models.annotators, "name")
            source_of = _source_of(conn)
            qnames = id_map(conn, models.queries)
            dnames = id_map(conn, models.documents)
        data = self.scoring.load(settings)
        sources = _group_sources(source_of, names, data, always=True)
        for s in (source_a, source_b):
            if s not in sources:
                raise LookupError(f"unknown source {s!r}; known: {', '.join(sorted(sources))}")
        qa = _consensus(data, sources[source_a], settings)
        qb = _consensus(data, sources[source_b], settings)
        ka, kb = _keys(data, qa), _keys(data, qb)
        common, ia, ib = np.intersect1d(ka, kb, return_indices=True)
        diff = np.abs(qa.grade[ia] - qb.grade[ib])
        keep = np.flatnonzero(diff >= min_difference - 1e-12)
        keep = keep[np.argsort(-diff[keep], kind="stable")]
        n_docs = max(len(data.doc_ids), 1)
        out = []
        for i in keep.tolist():
            q, d = int(common[i]) // n_docs, int(common[i]) % n_docs
            qid, did = int(data.query_ids[q]), int(data.doc_ids[d])
            grades = {source_a: float(qa.grade[ia[i]]), source_b: float(qb.grade[ib[i]])}
            out.append(
                DisputedItem(
                    query_id=qid,
                    document_id=did,
                    query_external=qnames[qid],
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
    :meth:`StabilityService.set_source`)."""
    if kind not in models.SOURCE_KINDS:
        raise ValueError(f"source kind must be one of {', '.join(models.SOURCE_KINDS)}")
    if source == DEFAULT_SOURCE:
        raise ValueError(f"{DEFAULT_SOURCE!r} names the annotators of no source")
    s, m = models.sources, models.annotator_sources
    by_name = {v: k for k, v in id_map(conn, models.annotators, "name").items()}
    missing = [a for a in annotators if a not in by_name]
    if missing:
        raise LookupError(f"unknown annotator {', '.join(map(repr, missing))}")
    row = conn.execute(select(s.c.id, s.c.kind).where(s.c.name == source)).first()
    if row is None:
        sid = conn.execute(s.insert().values(name=source, kind=kind).returning(s.c.id)).scalar_one()
    else:
        sid = row.id
        if row.kind != kind:
            conn.execute(s.update().where(s.c.id == sid).values(kind=kind))
    ids = [by_name[a] for a in annotators]
    if ids:
        conn.execute(delete(m).where(m.c.annotator_id.in_(ids)))
        conn.execute(m.insert(), [{"annotator_id": i, "source_id": sid} for i in ids])


# ------------------------------------------------------------------------------ helpers
def _source_of(conn: Connection) -> dict[str, tuple[str, str]]:
    s, m, a = models.sources, models.annotator_sources, models.annotators
    rows = conn.execute(
        select(a.c.name, s.c.name, s.c.kind)
        .join(m, m.c.annotator_id == a.c.id)
        .join(s, s.c.id == m.c.source_id)
    ).all()
    return {str(r[0]): (str(r[1]), str(r[2])) for r in rows}


def _annotator_qrels(data: ScoringData) -> Iterator[tuple[int, Qrels]]:
    """Each annotator's own judgments (database id, qrels), in id order."""
    j = data.judgments
    for aid in np.unique(j["annotator"]).tolist():
        mask = j["annotator"] == aid
        yield int(aid), Qrels(query=j["query"][mask], doc=j["doc"][mask], grade=j["grade"][mask])


def _keys(data: ScoringData, qrels: Qrels) -> NDArray[np.int64]:
    return np.asarray(qrels.query, dtype=np.int64) * max(len(data.doc_ids), 1) + np.asarray(
        qrels.doc, dtype=np.int64
    )


def _pooled_queries(data: ScoringData, k: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(item key, query index) of every document in some run's top K (distinct)."""
    lists = data.lists
    top = lists.rank <= k
    q = lists.group_query[lists.group[top]]
    keys = np.unique(q * max(len(data.doc_ids), 1) + lists.doc[top])
    return keys, keys // max(len(data.doc_ids), 1)


def _coverage(data: ScoringData, k: int) -> Any:
    """A function qrels -> the smallest share, over the runs, of a run's top K (all queries)
    that the qrels grade (1.0 for a run with no results)."""
    lists = data.lists
    top = lists.rank <= k
    n_q = max(data.n_queries, 1)
    run = lists.group[top] // n_q
    keys = lists.group_query[lists.group[top]] * max(len(data.doc_ids), 1) + lists.doc[top]
    n_runs = len(data.run_names)

    def cover(qrels: Qrels) -> float:
        graded = np.isin(keys, _keys(data, qrels))
        totals = np.bincount(run, minlength=n_runs)
        hits = np.bincount(run, weights=graded, minlength=n_runs)
        shares = np.where(totals > 0, hits / np.maximum(totals, 1), 1.0)
        return float(shares.min()) if n_runs else 0.0

    return cover


def _group_sources(
    source_of: dict[str, tuple[str, str]],
    names: dict[int, str],
    data: ScoringData,
    *,
    always: bool = False,
) -> dict[str, NDArray[np.bool_]]:
    """``{source: judgment mask}``: ``humans`` (annotators of no source, when any judged;
    ``always``: even when empty) first, then the sources by name."""
    j = data.judgments
    label = np.array(
        [source_of.get(names[int(a)], (DEFAULT_SOURCE, ""))[0] for a in j["annotator"].tolist()],
        dtype=object,
    )
    out: dict[str, NDArray[np.bool_]] = {}
    if always or (label == DEFAULT_SOURCE).any():
        out[DEFAULT_SOURCE] = label == DEFAULT_SOURCE
    for name in sorted({v[0] for v in source_of.values()}):
        out[name] = label == name
    return out


def _consensus(data: ScoringData, mask: NDArray[np.bool_], settings: ScoringSettings) -> Qrels:
    j = data.judgments[mask]
    return consensus_qrels(
        j["query"], j["doc"], j["annotator"], j["grade"], method=settings.consensus
    )


def _rule_qrels(
    scoring: ScoringService, settings: ScoringSettings, rule: str, data: ScoringData
) -> Qrels:
    """The qrels of one consensus rule with adjudications winning, as the app scores."""
    if rule == settings.consensus:
        return data.qrels
    other = scoring.load(replace(settings, consensus=rule))  # type: ignore[arg-type]
    if other.n_queries != data.n_queries or len(other.doc_ids) != len(data.doc_ids):
        raise RuntimeError("the database changed while it was read; try again")
    return other.qrels


def _source_agreement(names: list[str], qrels: list[Qrels]) -> list[SourceAgreement]:
    """Cohen's kappa (linear), ordinal alpha and the confusion matrix of every two sources."""
    out = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            ka = np.asarray(qrels[a].query, np.int64) * (1 << 32) + np.asarray(qrels[a].doc)
            kb = np.asarray(qrels[b].query, np.int64) * (1 << 32) + np.asarray(qrels[b].doc)
            _, ia, ib = np.intersect1d(ka, kb, return_indices=True)
            ga, gb = qrels[a].grade[ia], qrels[b].grade[ib]
            n = int(ia.size)
            ratings = Ratings(
                item=np.concatenate([np.arange(n), np.arange(n)]).astype(np.int64),
                annotator=np.repeat(np.array([0, 1], dtype=np.int64), n),
                grade=np.concatenate([ga, gb]),
                n_items=n,
                n_annotators=2,
            )
            kappa = float(pairwise_cohen_kappa(ratings).kappa_linear[0]) if n else np.nan
            alpha_value = float(alpha(ratings, "ordinal").value) if n else np.nan
            ra = np.clip(np.floor(ga + 0.5), 0, 4).astype(np.int64)
            rb = np.clip(np.floor(gb + 0.5), 0, 4).astype(np.int64)
            confusion = np.zeros((5, 5), dtype=np.int64)
            np.add.at(confusion, (ra, rb), 1)
            out.append(
                SourceAgreement(
                    source_a=names[a],
                    source_b=names[b],
                    n_shared=n,
                    kappa_linear=kappa,
                    alpha=alpha_value,
                    confusion=confusion,
                    n_two_apart=int(np.count_nonzero(np.abs(ga - gb) >= 2 - 1e-12)),
                )
            )
    return out
