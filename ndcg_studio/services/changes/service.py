"""The changes from run A to run B per query: overlap@K and Jaccard of the two top K, RBO_EXT
with persistence ``p`` (:func:`~ndcg_studio.domain.changes.rbo.rbo_ext` on the two top K), the
documents that entered and left the top K (and which of those that entered are unjudged), and
ΔnDCG@K = nDCG@K(B) − nDCG@K(A) as :class:`~ndcg_studio.services.scoring.service.ScoringService`
scores them with the same settings.

Queries are those with results in A or B. The overall line averages overlap, Jaccard, RBO and
ΔnDCG over the queries (ΔnDCG over the queries with judgments: NaN elsewhere) and sums the
entered and left documents.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ndcg_studio.domain.changes.overlap import top_change
from ndcg_studio.domain.changes.rbo import rbo_ext
from ndcg_studio.services.campaigns.types import CampaignInfo, CampaignSpec
from ndcg_studio.services.scoring.load import ScoringData
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries.names import document_external_ids

__all__ = ["CHANGE_COLUMNS", "Changes", "ChangesService", "QueryChange"]

#: The columns of :meth:`Changes.rows`.
CHANGE_COLUMNS = (
    "query",
    "overlap",
    "jaccard",
    "rbo",
    "entered",
    "left",
    "entered_unjudged",
    "ndcg_a",
    "ndcg_b",
    "delta_ndcg",
)


@dataclass(frozen=True)
class QueryChange:
    """One query's change from A to B: ``overlap``, ``jaccard``, ``rbo`` in [0, 1]; ``entered``
    and ``left`` (document external ids, in B's and A's order) with ``unjudged`` the entered
    ones without a judgment; ``ndcg_a`` / ``ndcg_b`` in [0, 1] or NaN (no judgments)."""

    query: str
    overlap: float
    jaccard: float
    rbo: float
    entered: tuple[str, ...]
    left: tuple[str, ...]
    unjudged: tuple[str, ...]
    ndcg_a: float
    ndcg_b: float

    @property
    def delta_ndcg(self) -> float:
        """nDCG@K(B) − nDCG@K(A), in [-1, 1]; NaN when the query has no judgments."""
        return self.ndcg_b - self.ndcg_a


@dataclass(frozen=True)
class Changes:
    """The changes from ``run_a`` to ``run_b`` at cutoff ``k`` with RBO persistence ``p``, one
    :class:`QueryChange` per query (ascending by query database id), and ``unjudged_items``:
    the (query id, document id) database ids of the entered documents without a judgment."""

    run_a: str
    run_b: str
    k: int
    p: float
    queries: list[QueryChange]
    unjudged_items: frozenset[tuple[int, int]]

    def overall(self) -> tuple[object, ...]:
        """The overall line in :data:`CHANGE_COLUMNS` order: ``all``, the means of overlap,
        Jaccard, RBO and nDCG (NaN-skipping for nDCG; NaN without queries), the summed
        entered/left/unjudged counts."""

        def mean(values: list[float]) -> float:
            kept = [v for v in values if not math.isnan(v)]
            return float(np.mean(kept)) if kept else math.nan

        q = self.queries
        ndcg_a = mean([c.ndcg_a for c in q if not math.isnan(c.delta_ndcg)])
        ndcg_b = mean([c.ndcg_b for c in q if not math.isnan(c.delta_ndcg)])
        return (
            "all",
            mean([c.overlap for c in q]),
            mean([c.jaccard for c in q]),
            mean([c.rbo for c in q]),
            sum(len(c.entered) for c in q),
            sum(len(c.left) for c in q),
            sum(len(c.unjudged) for c in q),
            ndcg_a,
            ndcg_b,
            ndcg_b - ndcg_a,
        )

    def rows(self) -> list[tuple[object, ...]]:
        """One row per query in :data:`CHANGE_COLUMNS` order (entered and left as counts),
        then :meth:`overall`."""
        per_query: list[tuple[object, ...]] = [
            (
                c.query,
                c.overlap,
                c.jaccard,
                c.rbo,
                len(c.entered),
                len(c.left),
                len(c.unjudged),
                c.ndcg_a,
                c.ndcg_b,
                c.delta_ndcg,
            )
            for c in self.queries
        ]
        return [*per_query, self.overall()]


class ChangesService:
    """Compares two runs of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def changes(self, run_a: str, run_b: str, settings: ScoringSettings, p: float = 0.9) -> Changes:
        """The changes from ``run_a`` to ``run_b`` at ``settings.k`` (module docstring).

        Raises:
            LookupError: an unknown run (the message lists the known ones).
            ValueError: ``p`` not in (0, 1); ``run_a`` and ``run_b`` are one run.
        """
        if not 0.0 < p < 1.0:
            raise ValueError(f"--p must be in (0, 1), got {p}")
        if run_a == run_b:
            raise ValueError(f"compare two different runs, got {run_a!r} twice")
        settings = replace(settings, runs=(run_a, run_b))
        report, data = ScoringService(self.db).score_view(settings)
        with self.db.engine.connect() as conn:
            external = document_external_ids(conn, data.doc_ids)
        tops = _tops(data, settings.k)
        ndcg = dict(
            zip(
                zip(report.group_run.tolist(), report.group_query.tolist(), strict=True),
                report.table.ndcg.tolist(),
                strict=True,
            )
        )
        judged = set(zip(data.qrels.query.tolist(), data.qrels.doc.tolist(), strict=True))
        ia, ib = data.run_names.index(run_a), data.run_names.index(run_b)
        doc_ids = data.doc_ids.tolist()

        def names(docs: Sequence[int]) -> tuple[str, ...]:
            return tuple(external[doc_ids[d]] for d in docs)

        queries: list[QueryChange] = []
        unjudged_items: set[tuple[int, int]] = set()
        for q in range(data.n_queries):
            a, b = tops.get((ia, q), []), tops.get((ib, q), [])
            if not a and not b:
                continue
            change = top_change(a, b, settings.k)
            entered = [int(d) for d in change.entered]  # type: ignore[call-overload]
            left = [int(d) for d in change.left]  # type: ignore[call-overload]
            new = [d for d in entered if (q, d) not in judged]
            unjudged_items.update((int(data.query_ids[q]), int(data.doc_ids[d])) for d in new)
            queries.append(
                QueryChange(
                    query=data.query_external[q],
                    overlap=change.overlap,
                    jaccard=change.jaccard,
                    rbo=rbo_ext(a, b, p),
                    entered=names(entered),
                    left=names(left),
                    unjudged=names(new),
                    ndcg_a=float(ndcg.get((ia, q), math.nan)),
                    ndcg_b=float(ndcg.get((ib, q), math.nan)),
                )
            )
        return Changes(run_a, run_b, settings.k, p, queries, frozenset(unjudged_items))

    def campaign_of_unjudged(
        self, changes: Changes, name: str, annotators: Sequence[str], overlap: int = 1
    ) -> CampaignInfo:
        """A judging campaign ``name`` of the documents that entered B's top K unjudged
        (``changes.unjudged_items``), pooled from run B at depth K, ``overlap`` grades each.

        Raises:
            ValueError: no document entered unjudged; as
                :meth:`~ndcg_studio.services.campaigns.service.CampaignService.create`.
            LookupError: as :meth:`~ndcg_studio.services.campaigns.service.CampaignService.create`.
        """
        if not changes.unjudged_items:
            raise ValueError(
                f"no unjudged document entered the top {changes.k} of {changes.run_b!r}: "
                "no campaign to make"
            )
        spec = CampaignSpec(
            name=name,
            runs=[changes.run_b],
            depth=changes.k,
            overlap=overlap,
            annotators=list(annotators),
            only_items=changes.unjudged_items,
        )
        # the campaign service (and the ORM) only when a campaign is made: Compare imports this
        # module to build the window (tests/ui/test_startup.py)
        from ndcg_studio.services.campaigns.service import CampaignService

        return CampaignService(self.db).create(spec)


def _tops(data: ScoringData, k: int) -> dict[tuple[int, int], list[int]]:
    """``{(run index, query index): document indices of the list's first k, best first}``."""
    lists = data.lists
    order = np.lexsort((lists.rank, lists.group))
    group, doc = lists.group[order], lists.doc[order]
    tops: dict[tuple[int, int], list[int]] = {}
    n = data.n_queries
    for g, d in zip(group.tolist(), doc.tolist(), strict=True):
        top = tops.setdefault((g // n, g % n), [])
        if len(top) < k:
            top.append(d)
    return tops
