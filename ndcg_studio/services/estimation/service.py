"""Estimate every run's mean nDCG@K or another per-query measure (and pair differences) from a
machine source's grades on every pooled item and the humans' grades on a uniform sample of
queries.

Reading: :func:`~ndcg_studio.services.scoring.load.load_scoring_data` reads the runs' lists and
every judgment once; the judgments are split into the machine source's (its annotators, reduced
per item by the mean) and the humans' (``human_annotator``'s, else every annotator in no source
or in a source of kind ``human``, reduced by ``human_consensus``; adjudications are not read),
and the lists are scored under each by :func:`~ndcg_studio.domain.metrics.measures.score` with
the scoring's settings (trec_eval ``ndcg_cut.K``, linear gain, the ideal from all judged
documents of the query).

The queries: every query with machine grades (N). The human sample: the listed queries (n),
each of which must have human grades on every item the machine graded (a query judged only in
part would score as if its unjudged items were not relevant); without a list (the views), every
query the humans judged so completely (:func:`complete_queries`), taken as a uniform sample.
The estimates are those of :func:`ndcg_studio.domain.estimation.ppi.estimate_mean` (PPI++; per
pair on the per-query differences) and the pairs are decided by
:func:`ndcg_studio.domain.estimation.decision.decide_pairs` (Holm when the pairs involve more
than two runs).

With a ``ppi`` campaign instead of a list (active sampling, Zrnic & Candès 2024): the queries
are the campaign's (N, every query its draw covered), the human sample the queries it drew
(ξ_i = 1, each with its stored inclusion probability π_i), and the estimates those of
:func:`ndcg_studio.domain.estimation.active.estimate_active_mean` (inverse-probability
weighting). A drawn query counts once its pool is judged to the campaign's overlap with a
human grade on every item; until every drawn query is, the estimate is refused
(:class:`DrawNotComplete`): the queries finished first are those of the largest π (the queue's
order) and those the annotators happened to reach, not the drawn sample, and no known
probability describes them, so leaving the unfinished ones out (or re-weighting the finished
ones) would give an interval without a guarantee.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.estimation.active import estimate_active_mean
from ndcg_studio.domain.estimation.decision import decide_pairs
from ndcg_studio.domain.estimation.ppi import MeanEstimate, estimate_mean
from ndcg_studio.domain.metrics.measures import Qrels, score
from ndcg_studio.io.errors import InputError, InputFileError, ParseIssue
from ndcg_studio.io.query_list import QueryList
from ndcg_studio.services.estimation.sentence import verdict_words
from ndcg_studio.services.judges.trust import machine_trust
from ndcg_studio.services.scoring.load import ScoringData, ScoringRead, load_scoring_data
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries.names import annotator_names
from ndcg_studio.vocabulary import ConsensusMethod

__all__ = [
    "ESTIMATE_COLUMNS",
    "MEASURES",
    "DrawNotComplete",
    "EstimateReport",
    "EstimateRequest",
    "NoHumanQueries",
    "PairEstimate",
    "complete_queries",
    "estimate",
    "machine_values",
    "report_rows",
]

#: The per-query measures an estimate may be of (:class:`~ndcg_studio.domain.metrics.measures.
#: ScoreTable` attributes; RR of the whole list is not among them: only each list's top K is
#: read).
MEASURES = ("ndcg", "dcg", "precision", "rr_at_k", "err")

#: The first columns of ``estimate --format csv`` (names fixed: checks outside the suite read
#: them), then the extra ones.
ESTIMATE_COLUMNS = (
    "run",
    "estimate",
    "low",
    "high",
    "human_only",
    "human_only_low",
    "human_only_high",
    "machine_only",
    "human_queries",
    "queries",
    "lambda",
    "se",
    "extra_human_queries",
    "p_adjusted",
    "verdict",
    "note",
)


@dataclass(frozen=True)
class EstimateRequest:
    """What to estimate.

    Attributes:
        machine_source: the name of a source of kind ``model`` (or ``vendor``).
        human_queries: the queries the humans judged completely, a uniform sample (None: every
            query with human grades on each item the machine graded, taken as one).
        k: the cutoff K of nDCG@K (>= 1).
        human_annotator: only this annotator's grades are the humans' (None: every human's,
            reduced by ``human_consensus``).
        human_consensus: how several humans' grades of an item become one.
        confidence: the two-sided level of the intervals, in (0, 1).
        runs: the runs to estimate (None: all).
        pairs: run pairs (A, B) whose difference A − B is estimated and decided.
        measure: the per-query measure at K (one of :data:`MEASURES`).
        campaign: a campaign in the ``ppi`` order whose draw of queries is the human sample
            (instead of ``human_queries``; module docstring).
    """

    machine_source: str
    human_queries: QueryList | None = None
    k: int = 10
    human_annotator: str | None = None
    human_consensus: ConsensusMethod = "mean"
    confidence: float = 0.95
    runs: tuple[str, ...] | None = None
    pairs: tuple[tuple[str, str], ...] = ()
    measure: str = "ndcg"
    campaign: str | None = None


class NoHumanQueries(InputError):
    """No query has human grades on every item the machine source graded (no sample given)."""


class DrawNotComplete(InputError):
    """A query the ``ppi`` campaign drew is not judged completely yet (module docstring)."""


@dataclass(frozen=True)
class _Design:
    """The ``ppi`` campaign's design over the dense query indices of the scoring."""

    population: NDArray[np.intp]
    drawn: NDArray[np.bool_]
    pi: NDArray[np.float64]


@dataclass(frozen=True)
class PairEstimate:
    """The estimate of mean(A − B), its Holm-adjusted p-value (the plain one for two runs; NaN
    without enough human queries) and the verdict: 1 A better, -1 B better, 0 not decided."""

    a: str
    b: str
    estimate: MeanEstimate
    p_adjusted: float
    verdict: int


@dataclass(frozen=True)
class EstimateReport:
    """Every run's estimate (in run-name order) and every pair's, with what they rest on:
    the machine source and its linear-weighted Cohen's kappa with the humans over every item
    both graded (NaN when none), how many queries in all (N) and human-judged (n), and whether
    Holm's correction was applied to the pairs."""

    request: EstimateRequest
    runs: list[tuple[str, MeanEstimate]]
    pairs: list[PairEstimate]
    kappa_linear: float
    n_queries: int
    n_human: int
    holm: bool


def estimate(db: Database, request: EstimateRequest) -> EstimateReport:
    """Estimate every run and pair of ``request`` (module docstring).

    Raises:
        LookupError: an unknown source, annotator or run (the message lists the known ones).
        InputError: the source is not a machine's, the named annotator is a machine's, or no
            grades on one side.
        InputFileError: a listed query unknown, without machine or human grades, or with
            machine-graded items the humans did not grade (``FILE:LINE: query: …`` each).
        NoHumanQueries: no list given, and no query judged completely by the humans.
        ValueError: ``confidence`` outside (0, 1) or an unknown measure.
    """
    if request.measure not in MEASURES:
        raise ValueError(f"unknown measure {request.measure!r}; one of {', '.join(MEASURES)}")
    runs = request.runs
    if runs is not None and request.pairs:
        runs = tuple(dict.fromkeys([*runs, *(r for p in request.pairs for r in p)]))
    settings = ScoringSettings(k=request.k, runs=runs)
    campaign = None if request.campaign is None else _campaign_rows(db, request.campaign)
    with db.engine.connect() as conn:
        names = annotator_names(conn)
        machines = _machine_annotators(source_store.sources(conn), request.machine_source)
        of = source_store.source_of(conn)
        data = load_scoring_data(conn, ScoringRead(settings))
    _check_pairs(request.pairs, data.run_names)
    who = [names[int(a)] for a in data.judgments["annotator"].tolist()]
    machine = np.array([w in machines for w in who], dtype=bool)
    human = _human_mask(who, of, request.human_annotator, names)
    m_qrels = _qrels(data, machine, "mean", f"source {request.machine_source!r}")
    h_qrels = _qrels(data, human, request.human_consensus, "the humans")
    params = settings.params()
    m_table, h_table = score(data.lists, m_qrels, params), score(data.lists, h_qrels, params)
    n_runs, n_q = len(data.run_names), data.n_queries
    m_ndcg = getattr(m_table, request.measure).reshape(n_runs, n_q)
    h_ndcg = getattr(h_table, request.measure).reshape(n_runs, n_q)
    if campaign is not None:
        design = _campaign_design(campaign, data, human)
        return _active_report(
            request, data, (h_ndcg, m_ndcg), design, _kappa(db, request.machine_source)
        )
    population = np.flatnonzero(_judged_queries(m_qrels, n_q))
    if request.human_queries is None:
        sample = complete_queries(m_qrels, h_qrels, n_q, len(data.doc_ids))
        if not len(sample):
            raise NoHumanQueries(
                f"no query has human grades on every item source {request.machine_source!r} "
                "graded (the humans must judge a query's whole pool)"
            )
    else:
        sample = _sample(request.human_queries, data, m_qrels, h_qrels)
    out_runs = [
        (name, _one(h_ndcg[r], m_ndcg[r], sample, population, request.confidence))
        for r, name in enumerate(data.run_names)
        if request.runs is None or name in request.runs
    ]
    index = {name: r for r, name in enumerate(data.run_names)}
    pair_estimates = [
        _one(
            h_ndcg[index[a]] - h_ndcg[index[b]],
            m_ndcg[index[a]] - m_ndcg[index[b]],
            sample,
            population,
            request.confidence,
        )
        for a, b in request.pairs
    ]
    return EstimateReport(
        request=request,
        runs=out_runs,
        pairs=_decided(request, pair_estimates),
        kappa_linear=_kappa(db, request.machine_source),
        n_queries=len(population),
        n_human=len(sample),
        holm=len({r for p in request.pairs for r in p}) > 2,
    )


def _decided(request: EstimateRequest, estimates: list[MeanEstimate]) -> list[PairEstimate]:
    """The pairs of ``request`` with their estimates, decided (Holm beyond two runs)."""
    adjusted, verdict = decide_pairs(
        np.array([e.estimate for e in estimates]),
        np.array([e.p_value for e in estimates]),
        request.confidence,
        len({r for p in request.pairs for r in p}),
    )
    return [
        PairEstimate(a, b, e, float(p), int(v))
        for (a, b), e, p, v in zip(request.pairs, estimates, adjusted, verdict, strict=True)
    ]


@dataclass(frozen=True)
class _Campaign:
    """A ``ppi`` campaign's name, overlap, draw (query id, external id, π, drawn) and the
    number of grades of each of its items (query id, document id, grades)."""

    name: str
    overlap: int
    draw: list[tuple[int, str, float, bool]]
    counts: list[tuple[int, int, int]]


def _campaign_rows(db: Database, name: str) -> _Campaign:
    """What the estimate reads of the campaign ``name``.

    Raises:
        LookupError: no such campaign; InputError: not a ``ppi`` campaign.
    """
    # the campaign store (and the ORM) only for a campaign: Compare imports this module to
    # build the window (tests/ui/test_startup.py)
    from ndcg_studio.storage.campaigns import records as campaign_store

    with db.transaction() as session:
        row = campaign_store.campaign_row(session, name)
        draw = campaign_store.campaign_queries(session, row.id)
        counts = campaign_store.item_grade_counts_of(session, row.id)
    if row.pool_strategy != "ppi" or not draw:
        raise InputError(
            f"campaign {name!r} offers its items in order {row.pool_strategy}: the queries it "
            "had judged completely are no random sample, so no valid interval rests on them; "
            "give --human-queries FILE (a uniform sample of queries), or create a campaign "
            "with --strategy ppi"
        )
    return _Campaign(name, int(row.overlap), draw, counts)


def _campaign_design(campaign: _Campaign, data: ScoringData, human: NDArray[np.bool_]) -> _Design:
    """The ``ppi`` campaign's draw on the scoring's queries, every drawn query checked complete.

    Raises:
        InputError: a query of the draw without results in these runs; DrawNotComplete: a
            drawn query not judged completely.
    """
    name, draw, counts = campaign.name, campaign.draw, campaign.counts
    dense = {int(q): i for i, q in enumerate(data.query_ids.tolist())}
    absent = [e for q, e, _p, _s in draw if q not in dense]
    if absent:
        raise InputError(
            f"campaign {name!r}: query {absent[0]!r} of its draw has no results in these runs"
        )
    j = data.judgments[human]
    by_humans = set(
        zip(
            data.query_ids[j["query"]].tolist(),
            data.doc_ids[j["doc"]].tolist(),
            strict=True,
        )
    )
    unfinished: set[int] = set()
    for q, d, n in counts:
        if n < campaign.overlap or (q, d) not in by_humans:
            unfinished.add(q)
    late = [e for q, e, _p, s in draw if s and q in unfinished]
    if late:
        n_drawn = sum(s for _q, _e, _p, s in draw)
        raise DrawNotComplete(
            f"campaign {name!r}: {len(late)} of its {n_drawn} drawn queries are not judged "
            f"completely yet (every pooled item to the overlap {campaign.overlap}, with a human "
            f"grade), first {late[0]!r}; the estimate waits for all of them (the queries "
            "finished first are not the drawn sample)"
        )
    return _Design(
        population=np.array([dense[q] for q, _e, _p, _s in draw], dtype=np.intp),
        drawn=np.array([s for _q, _e, _p, s in draw], dtype=bool),
        pi=np.array([p for _q, _e, p, _s in draw], dtype=np.float64),
    )


def _active_report(
    request: EstimateRequest,
    data: ScoringData,
    values: tuple[NDArray[np.float64], NDArray[np.float64]],
    design: _Design,
    kappa: float,
) -> EstimateReport:
    """Every run and pair of ``request`` estimated on ``design`` (module docstring)."""
    h, m = values
    pop = design.population

    def one(y: NDArray[np.float64], f: NDArray[np.float64]) -> MeanEstimate:
        return estimate_active_mean(y[pop], f[pop], design.drawn, design.pi, request.confidence)

    index = {name: r for r, name in enumerate(data.run_names)}
    runs = [
        (name, one(h[r], m[r]))
        for r, name in enumerate(data.run_names)
        if request.runs is None or name in request.runs
    ]
    pairs = [one(h[index[a]] - h[index[b]], m[index[a]] - m[index[b]]) for a, b in request.pairs]
    return EstimateReport(
        request=request,
        runs=runs,
        pairs=_decided(request, pairs),
        kappa_linear=kappa,
        n_queries=len(pop),
        n_human=int(design.drawn.sum()),
        holm=len({r for p in request.pairs for r in p}) > 2,
    )


def machine_values(
    db: Database, machine_source: str, k: int, runs: Sequence[str]
) -> tuple[list[str], NDArray[np.float64]]:
    """Each run's nDCG@K per query under the machine source's grades (reduced per item by the
    mean; 0 on a query the source did not grade), as :func:`estimate` scores them.

    Returns:
        (query external ids, (len(runs), n_queries) float64 in the order of ``runs``).

    Raises:
        LookupError: an unknown source or run; InputError: not a machine source, or no grades.
    """
    settings = ScoringSettings(k=k, runs=tuple(runs))
    with db.engine.connect() as conn:
        names = annotator_names(conn)
        machines = _machine_annotators(source_store.sources(conn), machine_source)
        data = load_scoring_data(conn, ScoringRead(settings))
    missing = [r for r in runs if r not in data.run_names]
    if missing:
        raise LookupError(f"unknown run {missing[0]!r}; known: {', '.join(data.run_names)}")
    who = [names[int(a)] for a in data.judgments["annotator"].tolist()]
    machine = np.array([w in machines for w in who], dtype=bool)
    m_qrels = _qrels(data, machine, "mean", f"source {machine_source!r}")
    table = score(data.lists, m_qrels, settings.params())
    ndcg = table.ndcg.reshape(len(data.run_names), data.n_queries)
    order = [data.run_names.index(r) for r in runs]
    return list(data.query_external), np.asarray(ndcg[order], dtype=np.float64)


def _one(
    y: NDArray[np.float64],
    f: NDArray[np.float64],
    sample: NDArray[np.intp],
    population: NDArray[np.intp],
    confidence: float,
) -> MeanEstimate:
    return estimate_mean(y[sample], f[sample], f[population], confidence)


def _machine_annotators(rows: Sequence[tuple[str, str, tuple[str, ...]]], name: str) -> set[str]:
    """The annotators of the machine source ``name``.

    Raises:
        LookupError: no such source; InputError: a source of kind ``human`` or no annotators.
    """
    by_name = {source: (kind, members) for source, kind, members in rows}
    if name not in by_name:
        known = ", ".join(sorted(by_name)) or "none"
        raise LookupError(f"unknown source {name!r}; known: {known}")
    kind, members = by_name[name]
    if kind == "human":
        raise InputError(f"source {name!r} is of kind human: name a machine source")
    if not members:
        raise InputError(f"source {name!r} has no annotators (no grades)")
    return set(members)


def _human_mask(
    who: list[str],
    of: dict[str, tuple[str, str]],
    annotator: str | None,
    names: dict[int, str],
) -> NDArray[np.bool_]:
    """Which judgments are the humans' (``annotator``'s, else every human's).

    Raises:
        LookupError: an unknown annotator; InputError: the annotator is a machine's.
    """
    if annotator is None:
        return np.array([of.get(w, ("", "human"))[1] == "human" for w in who], dtype=bool)
    if annotator not in set(names.values()):
        known = ", ".join(sorted(set(names.values()))) or "none"
        raise LookupError(f"unknown annotator {annotator!r}; known: {known}")
    source, kind = of.get(annotator, ("", "human"))
    if kind != "human":
        raise InputError(f"annotator {annotator!r} belongs to the {kind} source {source!r}")
    return np.array([w == annotator for w in who], dtype=bool)


def _check_pairs(pairs: Sequence[tuple[str, str]], run_names: Sequence[str]) -> None:
    for a, b in pairs:
        for r in (a, b):
            if r not in run_names:
                known = ", ".join(run_names) or "none"
                raise LookupError(f"unknown run {r!r}; known: {known}")
        if a == b:
            raise InputError(f"--pair {a} {b}: a run against itself")


def _qrels(data: ScoringData, mask: NDArray[np.bool_], method: ConsensusMethod, what: str) -> Qrels:
    j = data.judgments[mask]
    if not len(j):
        raise InputError(f"{what}: no grades in the database")
    return consensus_qrels(j["query"], j["doc"], j["annotator"], j["grade"], method=method)


def _judged_queries(qrels: Qrels, n_q: int) -> NDArray[np.bool_]:
    judged = np.zeros(n_q, dtype=bool)
    judged[qrels.query] = True
    return judged


def _sample(listed: QueryList, data: ScoringData, machine: Qrels, human: Qrels) -> NDArray[np.intp]:
    """Dense indices of the listed queries, checked (see :func:`estimate`'s errors)."""
    index = {q: i for i, q in enumerate(data.query_external)}
    missing_per_query = _missing_per_query(machine, human, data.n_queries, len(data.doc_ids))
    machine_per_query = np.bincount(machine.query, minlength=data.n_queries)
    human_per_query = np.bincount(human.query, minlength=data.n_queries)
    issues: list[ParseIssue] = []
    chosen: list[int] = []
    for qid, line in zip(listed.ids, listed.lines, strict=True):
        q = index.get(qid)
        problem = ""
        if q is None:
            problem = f"query {qid!r} is not in the database"
        elif machine_per_query[q] == 0:
            problem = f"query {qid!r} has no grades from the machine source"
        elif human_per_query[q] == 0:
            problem = f"query {qid!r} has no human grades"
        elif missing_per_query[q]:
            problem = (
                f"query {qid!r}: {missing_per_query[q]} of {machine_per_query[q]} machine-graded "
                "items have no human grade (the humans must judge the query's whole pool)"
            )
        if problem:
            issues.append(ParseIssue(listed.path, line, "query", problem))
        else:
            chosen.append(int(q))  # type: ignore[arg-type]
    if issues:
        raise InputFileError(issues[:20], truncated=len(issues) > 20)
    return np.array(chosen, dtype=np.intp)


def _missing_per_query(machine: Qrels, human: Qrels, n_q: int, n_docs: int) -> NDArray[np.intp]:
    """(n_q,) how many machine-graded items of each query have no human grade."""
    n_docs = max(n_docs, int(machine.doc.max(initial=0)) + 1, int(human.doc.max(initial=0)) + 1)
    machine_items = machine.query * n_docs + machine.doc
    human_items = human.query * n_docs + human.doc
    missing = machine_items[~np.isin(machine_items, human_items)] // n_docs
    return np.bincount(missing, minlength=n_q).astype(np.intp)


def complete_queries(machine: Qrels, human: Qrels, n_q: int, n_docs: int) -> NDArray[np.intp]:
    """Dense indices (ascending) of the queries with machine grades whose every machine-graded
    item has a human grade: the human sample when none is listed (the views). They are a
    uniform sample only if the humans chose them regardless of the runs and the grades; the
    estimate takes them as one."""
    machine_per_query = np.bincount(machine.query, minlength=n_q)
    missing = _missing_per_query(machine, human, n_q, n_docs)
    return np.flatnonzero((machine_per_query > 0) & (missing == 0)).astype(np.intp)


def _kappa(db: Database, source: str) -> float:
    for agreement in machine_trust(db):
        if agreement.source_b == source:
            return float(agreement.kappa_linear)
    return math.nan


def report_rows(report: EstimateReport) -> list[list[Any]]:
    """The rows of ``estimate`` in :data:`ESTIMATE_COLUMNS` order: every run, then every pair
    (``run`` is ``A - B``); NaN stays NaN (the writer leaves it empty)."""
    rows: list[list[Any]] = []
    for name, e in report.runs:
        rows.append([name, *_numbers(e), math.nan, "", e.note])
    for p in report.pairs:
        words = verdict_words(p.a, p.b, p.verdict) if p.estimate.enough else ""
        rows.append([f"{p.a} - {p.b}", *_numbers(p.estimate), p.p_adjusted, words, p.estimate.note])
    return rows


def _numbers(e: MeanEstimate) -> list[Any]:
    return [
        e.estimate,
        e.low,
        e.high,
        e.human_only,
        e.human_only_low,
        e.human_only_high,
        e.machine_only,
        e.n_human,
        e.n_queries,
        e.lam,
        e.se,
        e.extra_human_queries,
    ]
