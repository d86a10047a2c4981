"""The lead's dashboard of a campaign, computed from the rows
:func:`ndcg_studio.storage.campaigns.reads.dashboard_rows` reads (definitions:
:meth:`ndcg_studio.services.campaigns.service.CampaignService.status`)."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.alpha import alpha
from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.campaign_stats import gold_accuracy, others_consensus, weighted_kappa
from ndcg_studio.services.campaigns.types import (
    AnnotatorStatus,
    CampaignInfo,
    CampaignStatus,
    DrawProgress,
    MarkedItem,
    QueryStatus,
)
from ndcg_studio.vocabulary import GRADES

if TYPE_CHECKING:
    from ndcg_studio.storage.campaigns.reads import DashboardRows

Ints = NDArray[np.int64]


def dashboard(
    info: CampaignInfo,
    people: list[tuple[int, str]],
    rows: DashboardRows,
    threshold: float,
    draw: DrawProgress | None = None,
) -> CampaignStatus:
    """The :class:`CampaignStatus` of the campaign ``info`` for its annotators ``people``
    ((id, name) pairs) from ``rows``; ``threshold``: the gold warning's exact accuracy;
    ``draw``: the ``ppi`` order's drawn queries (:func:`draw_progress`)."""
    regular = [r for r in rows.judged if r.gold_grade is None]
    item_code: dict[tuple[int, int], int] = {}
    for r in regular:
        item_code.setdefault((r.query_id, r.document_id), len(item_code))
    it = np.array([item_code[(r.query_id, r.document_id)] for r in regular], dtype=np.int64)
    an = np.array([r.annotator_id for r in regular], dtype=np.int64)
    gr = np.maximum(np.array([r.grade for r in regular], dtype=np.int64), 0)
    annotators = [
        _annotator(person_id, person, rows, (it, an, gr), threshold) for person_id, person in people
    ]
    marks = [
        MarkedItem(
            rows.names[s.annotator_id],
            rows.queries[s.query_id],
            rows.documents[s.document_id],
            s.state,
            s.reason,
        )
        for s in rows.states
        if s.state != "graded"
    ]
    return CampaignStatus(info, annotators, _per_query(rows, info.overlap), marks, draw)


def draw_progress(
    draw: list[tuple[int, str, float, bool]], items: list[tuple[int, int, bool]], overlap: int
) -> DrawProgress:
    """The :class:`DrawProgress` of a ``ppi`` campaign from its ``draw`` ((query id, external
    id, π, drawn) per query) and its non-gold ``items`` ((query id, grades, a human graded it)):
    a drawn query is complete when each of its items has ``overlap`` grades or more and a human
    grade, as :func:`ndcg_studio.services.estimation.service.estimate` asks (with the humans of
    its default: annotators in no source or in one of kind ``human``)."""
    unfinished_ids = {q for q, n, human in items if n < overlap or not human}
    drawn = [(q, e, p) for q, e, p, s in draw if s]
    late = sorted(((-p, q, e) for q, e, p in drawn if q in unfinished_ids))
    return DrawProgress(
        queries=len(draw),
        drawn=len(drawn),
        expected=sum(p for _q, _e, p, _s in draw),
        complete=len(drawn) - len(late),
        unfinished=tuple(e for _p, _q, e in late),
    )


def _per_query(rows: DashboardRows, overlap: int) -> list[QueryStatus]:
    count: dict[tuple[int, int], int] = {}
    for r in rows.judged:
        if r.gold_grade is None:
            count[(r.query_id, r.document_id)] = count.get((r.query_id, r.document_id), 0) + 1
    per_query: dict[str, list[int]] = {}
    for qi, di, qe in rows.items:
        entry = per_query.setdefault(qe, [0, 0])
        entry[1] += 1
        entry[0] += int(count.get((qi, di), 0) >= overlap)
    return [QueryStatus(qe, c, t) for qe, (c, t) in sorted(per_query.items())]


def _annotator(
    person_id: int,
    person: str,
    rows: DashboardRows,
    agreement: tuple[Ints, Ints, Ints],
    threshold: float,
) -> AnnotatorStatus:
    """One annotator's row: work counts from ``rows``, statistics from ``agreement`` (dense
    item codes, annotator ids and grades 0–4 of every non-gold judgment)."""
    mine = [r for r in rows.judged if r.annotator_id == person_id]
    my_states = [s for s in rows.states if s.annotator_id == person_id]
    touched = {(r.query_id, r.document_id) for r in mine}
    touched |= {(s.query_id, s.document_id) for s in my_states}
    touched |= {(q, d) for q, d, a in rows.leases if a == person_id}
    seconds = [s.seconds for s in my_states if s.state == "graded" and s.seconds is not None]
    distribution = np.bincount(
        np.maximum(np.array([r.grade for r in mine], dtype=np.int64), 0), minlength=5
    )[:5]
    leniency, kappa, alpha_without = _agreement(person_id, *agreement)
    gold = [(r.grade, r.gold_grade) for r in mine if r.gold_grade is not None]
    accuracy = gold_accuracy([g for g, _ in gold], [k for _, k in gold])
    return AnnotatorStatus(
        annotator=person,
        assigned=len(touched),
        done=len(mine),
        cant_judge=sum(s.state == "cant_judge" for s in my_states),
        later=sum(s.state == "later" for s in my_states),
        median_seconds=statistics.median(seconds) if seconds else float("nan"),
        leniency=leniency,
        kappa_vs_others=kappa,
        alpha_without=alpha_without,
        gold_exact=accuracy.exact,
        gold_within_one=accuracy.within_one,
        gold_n=accuracy.n,
        grades=tuple(int(x) for x in distribution),
        gold_warning=accuracy.n > 0 and accuracy.exact < threshold,
    )


def _agreement(person_id: int, it: Ints, an: Ints, gr: Ints) -> tuple[float, float, float]:
    """(leniency, quadratic-weighted kappa with the others' consensus, ordinal alpha without
    the annotator); NaN where undefined."""
    own, consensus = (
        others_consensus(it, an, gr, person_id)
        if it.size
        else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    )
    others = an != person_id
    ratings = Ratings.from_arrays(it[others], an[others], gr[others].astype(np.float64))
    alpha_value = (
        alpha(ratings, "ordinal", values=np.array(GRADES, dtype=np.float64)).value
        if others.any()
        else float("nan")
    )
    leniency = float(np.mean(own - consensus)) if own.size else float("nan")
    return leniency, weighted_kappa(own, consensus, GRADES, "quadratic"), float(alpha_value)
