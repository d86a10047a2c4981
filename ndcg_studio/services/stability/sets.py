"""The grade sets the stability service compares, built from loaded scoring data (no database):
each annotator's own qrels, each source's consensus, each consensus rule's qrels, the coverage of
an annotator over every run's top K, and the label agreement of two sources.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.alpha import alpha
from ndcg_studio.domain.agreement.kappa import pairwise_cohen_kappa
from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.judges.trust import precision_recall
from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.domain.metrics.measures import Qrels
from ndcg_studio.services.scoring.load import ScoringData, ScoringRead
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.report import DEFAULT_SOURCE, SourceAgreement

__all__ = [
    "annotator_qrels",
    "coverage_of",
    "group_sources",
    "item_keys",
    "pooled_queries",
    "positions_in",
    "rule_qrels",
    "source_agreement",
    "source_consensus",
]


def annotator_qrels(data: ScoringData) -> Iterator[tuple[int, Qrels]]:
    """Each annotator's own judgments (database id, qrels), in id order."""
    j = data.judgments
    # annotator ids are small integers: a count per id, not np.unique over every judgment
    present = np.bincount(np.asarray(j["annotator"], dtype=np.intp)) if len(j) else np.zeros(0)
    for aid in np.flatnonzero(present).tolist():
        mask = j["annotator"] == aid
        yield int(aid), Qrels(query=j["query"][mask], doc=j["doc"][mask], grade=j["grade"][mask])


def item_keys(data: ScoringData, qrels: Qrels) -> NDArray[np.int64]:
    return np.asarray(qrels.query, dtype=np.int64) * max(len(data.doc_ids), 1) + np.asarray(
        qrels.doc, dtype=np.int64
    )


def positions_in(sorted_keys: NDArray[np.int64], keys: NDArray[np.int64]) -> NDArray[np.intp]:
    """Positions in ``sorted_keys`` (sorted, distinct) of the ``keys`` found there: one binary
    search per key, no sort of both arrays as ``np.isin`` does for every annotator
    (bench_gui_scale Stability and Review)."""
    at = np.searchsorted(sorted_keys, keys)
    found = at < len(sorted_keys)
    found[found] = sorted_keys[at[found]] == keys[found]
    return at[found]


def pooled_queries(data: ScoringData, k: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(item key, query index) of every document in some run's top K (distinct)."""
    lists = data.lists
    top = lists.rank <= k
    q = lists.group_query[lists.group[top]]
    keys = distinct(q * max(len(data.doc_ids), 1) + lists.doc[top])
    return keys, keys // max(len(data.doc_ids), 1)


def coverage_of(data: ScoringData, k: int) -> Any:
    """A function qrels -> the smallest share, over the runs, of a run's top K (all queries)
    that the qrels grade (1.0 for a run with no results)."""
    lists = data.lists
    top = lists.rank <= k
    n_q = max(data.n_queries, 1)
    run = lists.group[top] // n_q
    keys = lists.group_query[lists.group[top]] * max(len(data.doc_ids), 1) + lists.doc[top]
    n_runs = len(data.run_names)
    pooled, inverse = np.unique(keys, return_inverse=True)  # once for every annotator

    def cover(qrels: Qrels) -> float:
        marked = np.zeros(len(pooled), dtype=bool)
        marked[positions_in(pooled, item_keys(data, qrels))] = True
        graded = marked[inverse]
        totals = np.bincount(run, minlength=n_runs)
        hits = np.bincount(run, weights=graded, minlength=n_runs)
        shares = np.where(totals > 0, hits / np.maximum(totals, 1), 1.0)
        return float(shares.min()) if n_runs else 0.0

    return cover


def group_sources(
    source_of: dict[str, tuple[str, str]],
    names: dict[int, str],
    data: ScoringData,
    *,
    always: bool = False,
) -> dict[str, NDArray[np.bool_]]:
    """``{source: judgment mask}``: ``humans`` (annotators of no source, when any judged;
    ``always``: even when empty) first, then the sources by name."""
    annotator = np.asarray(data.judgments["annotator"], dtype=np.intp)
    sources = sorted({v[0] for v in source_of.values()})
    code = {name: i for i, name in enumerate([DEFAULT_SOURCE, *sources])}
    code[DEFAULT_SOURCE] = 0  # a source named "humans" and the annotators of none: one set
    # each annotator's source as a small integer, then one gather per judgment instead of a
    # dictionary look-up (bench_gui_scale Review and Stability)
    size = 1 + max(max(names, default=0), int(annotator.max()) if annotator.size else 0)
    code_of = np.zeros(size, dtype=np.intp)
    for aid, name in names.items():
        code_of[aid] = code[source_of.get(name, (DEFAULT_SOURCE, ""))[0]]
    label = code_of[annotator]
    out: dict[str, NDArray[np.bool_]] = {}
    if always or (label == 0).any():
        out[DEFAULT_SOURCE] = label == 0
    for name in sources:
        out[name] = label == code[name]
    return out


def source_consensus(
    data: ScoringData, mask: NDArray[np.bool_], settings: ScoringSettings
) -> Qrels:
    j = data.judgments[mask]
    return consensus_qrels(
        j["query"], j["doc"], j["annotator"], j["grade"], method=settings.consensus
    )


def rule_qrels(
    scoring: ScoringService, settings: ScoringSettings, rule: str, data: ScoringData
) -> Qrels:
    """The qrels of one consensus rule with adjudications winning, as the app scores."""
    if rule == settings.consensus:
        return data.qrels
    other = scoring.load(ScoringRead(replace(settings, consensus=rule)))  # type: ignore[arg-type]
    if other.n_queries != data.n_queries or len(other.doc_ids) != len(data.doc_ids):
        raise RuntimeError("the database changed while it was read; try again")
    return other.qrels


def source_agreement(names: list[str], qrels: list[Qrels]) -> list[SourceAgreement]:
    """Cohen's kappa (unweighted, linear, quadratic), ordinal alpha, the confusion matrix and
    b's per-grade precision and recall against a, of every two sources."""
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
            kappas = pairwise_cohen_kappa(ratings) if n else None
            kappa = float(kappas.kappa_linear[0]) if kappas is not None else np.nan
            alpha_value = float(alpha(ratings, "ordinal").value) if n else np.nan
            ra = np.clip(np.floor(ga + 0.5), 0, 4).astype(np.int64)
            rb = np.clip(np.floor(gb + 0.5), 0, 4).astype(np.int64)
            confusion = np.zeros((5, 5), dtype=np.int64)
            np.add.at(confusion, (ra, rb), 1)
            precision, recall = precision_recall(confusion)
            out.append(
                SourceAgreement(
                    source_a=names[a],
                    source_b=names[b],
                    n_shared=n,
                    kappa_linear=kappa,
                    alpha=alpha_value,
                    confusion=confusion,
                    n_two_apart=int(np.count_nonzero(np.abs(ga - gb) >= 2 - 1e-12)),
                    kappa=float(kappas.kappa[0]) if kappas is not None else np.nan,
                    kappa_quadratic=(
                        float(kappas.kappa_quadratic[0]) if kappas is not None else np.nan
                    ),
                    precision=precision,
                    recall=recall,
                )
            )
    return out
