"""Where machine labels need a human look: the items a correction campaign is made of.

Three selections (``where``), each over the items of the campaign's pool:

- ``humans``: items graded by the machine source and by the humans (annotators of no source or
  of a ``human`` source) whose grades — each side's mean over its annotators — differ by
  ``min_difference`` or more;
- ``machines``: items graded by two or more machine sources (kind ``model``) whose grades differ
  by ``min_difference`` or more (``source`` and ``against``, or any two model sources);
- ``decision``: items only machines graded (no human grade) that could change a run pair's
  decision (an item below every run's top K counts too: its grade moves the ideal DCG): for
  every two of the runs, the order of their mean nDCG@K (as the app scores, every
  annotator's grades by the mean consensus, adjudications winning) is computed with the item's
  grade set to the lowest (0) and the highest (4) grade; an item is chosen when the two orders
  differ for some pair. Only the item's query is rescored (its nDCG@K changes, the others do
  not), with the product's own scoring (:func:`ndcg_studio.domain.metrics.measures.score`).

Annotators stay blind to the machine's grade: a campaign shows each annotator only their own
grade, never another annotator's or source's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, score
from ndcg_studio.io.errors import InputError
from ndcg_studio.services.scoring.load import ScoringRead
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries.judgments import all_grades
from ndcg_studio.storage.queries.names import annotator_names

__all__ = ["WHERE_CHOICES", "Where", "correction_items"]

Where = Literal["humans", "machines", "decision"]
#: The selections of :func:`correction_items`.
WHERE_CHOICES: tuple[Where, ...] = ("humans", "machines", "decision")


def _sides(db: Database) -> tuple[NDArray[Any], list[str], list[str]]:
    """Every judgment, and per judgment its source's name ("" for none) and kind."""
    with db.engine.connect() as conn:
        grades = all_grades(conn)
        names = annotator_names(conn)
        of = source_store.source_of(conn)
    pairs = [of.get(names[int(a)], ("", "human")) for a in grades["annotator"].tolist()]
    return grades, [p[0] for p in pairs], [p[1] for p in pairs]


def _mean_by_item(grades: NDArray[Any], mask: NDArray[np.bool_]) -> dict[tuple[int, int], float]:
    g = grades[mask]
    q = consensus_qrels(g["query"], g["doc"], g["annotator"], g["grade"], method="mean")
    return {
        (int(a), int(b)): float(c)
        for a, b, c in zip(q.query.tolist(), q.doc.tolist(), q.grade.tolist(), strict=True)
    }


def _disagreements(
    db: Database, source: str, against: str | None, where: Where, min_difference: float
) -> set[tuple[int, int]]:
    grades, src, kinds = _sides(db)
    src_a, kinds_a = np.array(src, dtype=object), np.array(kinds, dtype=object)
    mine = _mean_by_item(grades, src_a == source)
    if where == "humans":
        others = [_mean_by_item(grades, kinds_a == "human")]
    else:
        models = sorted({s for s, k in zip(src, kinds, strict=True) if k == "model"} - {source})
        names = [against] if against else models
        others = [_mean_by_item(grades, src_a == name) for name in names]
    out = set()
    for other in others:
        for item, grade in mine.items():
            if item in other and abs(other[item] - grade) >= min_difference - 1e-12:
                out.add(item)
    return out


def _query_qrels(qrels: Qrels, q: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    at = qrels.query == q
    return qrels.doc[at], qrels.grade[at]


def _could_flip(
    lists: RankedLists, q: int, docs: NDArray[np.int64], grades: NDArray[np.float64],
    doc: int, n_runs: int, n_queries: int, params: Any,
) -> NDArray[np.float64]:  # fmt: skip
    """``(2, n_runs)`` nDCG@K of query ``q`` under each run with ``doc`` graded 0 and 4."""
    groups = np.arange(n_runs) * n_queries + q
    keep = np.isin(lists.group, groups)
    remap = np.full(lists.n_groups, -1, dtype=np.int64)
    remap[groups] = np.arange(n_runs)
    sub = RankedLists(
        group=remap[lists.group[keep]], doc=lists.doc[keep], score=lists.score[keep],
        rank=lists.rank[keep], group_query=np.zeros(n_runs, dtype=np.int64),
        doc_key=lists.doc_key,
    )  # fmt: skip
    out = np.zeros((2, n_runs))
    for row, value in enumerate((0.0, 4.0)):
        g = np.where(docs == doc, value, grades)
        out[row] = score(sub, Qrels(np.zeros(len(docs), np.int64), docs, g), params).ndcg
    return out


def _decision_items(
    db: Database, source: str, runs: Sequence[str], settings: ScoringSettings
) -> set[tuple[int, int]]:
    settings = replace(settings, runs=tuple(runs), annotator=None)
    data = ScoringService(db).load(ScoringRead(settings))
    params = replace(settings.params(), err=False)
    n_runs, n_q = len(data.run_names), data.n_queries
    table = score(data.lists, data.qrels, params).ndcg.reshape(n_runs, n_q)
    counted = ~np.isnan(table)
    means = np.nanmean(np.where(counted, table, np.nan), axis=1)
    grades, src, kinds = _sides(db)
    by_id = {int(d): i for i, d in enumerate(data.doc_ids.tolist())}
    q_index = {int(q): i for i, q in enumerate(data.query_ids.tolist())}
    human = {
        (int(a), int(b))
        for a, b, k in zip(grades["query"], grades["doc"], kinds, strict=True)
        if k == "human"
    }
    machine = {
        (int(a), int(b))
        for a, b, s in zip(grades["query"], grades["doc"], src, strict=True)
        if s == source
    }
    out = set()
    for qid, did in sorted(machine - human):
        if qid not in q_index or did not in by_id:
            continue
        q, d = q_index[qid], by_id[did]
        docs, g = _query_qrels(data.qrels, q)
        extremes = _could_flip(data.lists, q, docs, g, d, n_runs, n_q, params)
        n = counted.sum(axis=1)
        old = np.where(counted[:, q], table[:, q], 0.0)
        for a, b in combinations(range(n_runs), 2):
            signs = {
                np.sign(round(float(
                    means[a] + (extremes[r, a] - old[a]) / n[a]
                    - means[b] - (extremes[r, b] - old[b]) / n[b]
                ), 12))
                for r in (0, 1)
            }  # fmt: skip
            if len(signs) > 1:
                out.add((qid, did))
                break
    return out


def correction_items(
    db: Database,
    source: str,
    where: Where,
    *,
    against: str | None = None,
    min_difference: float = 1.0,
    runs: Sequence[str] = (),
    settings: ScoringSettings | None = None,
) -> frozenset[tuple[int, int]]:
    """``(query id, document id)`` of the items the selection ``where`` chooses (see the
    module docstring); the campaign intersects them with its pool.

    Raises:
        InputError: an unknown ``where``; ``source`` (or ``against``) not a model source;
            ``decision`` with fewer than two runs.
    """
    if where not in WHERE_CHOICES:
        raise InputError(f"--where must be one of {', '.join(WHERE_CHOICES)}")
    with db.engine.connect() as conn:
        kinds = {name: kind for name, kind, _ in source_store.sources(conn)}
    for name in filter(None, (source, against)):
        if kinds.get(name) != "model":
            known = ", ".join(sorted(n for n, k in kinds.items() if k == "model")) or "none"
            raise InputError(f"no model source {name!r}; model sources: {known}")
    if where == "decision":
        if len(runs) < 2:
            raise InputError("--where decision compares runs: give two or more")
        return frozenset(_decision_items(db, source, runs, settings or ScoringSettings()))
    return frozenset(_disagreements(db, source, against, where, min_difference))
