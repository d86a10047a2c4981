"""The order a campaign's queue offers its pool in, under a pooling strategy other than ``depth``.

``mtf``, ``bandit`` and ``ab`` are the choosers of :mod:`ndcg_studio.domain.pooling` (papers
cited there: Cormack, Palmer & Clarke 1998; Losada, Parapar & Barreiro 2017; Carterette, Allan &
Sitaraman 2006). The campaign's pool (its non-gold items, fixed at creation) becomes a
:class:`~ndcg_studio.domain.pooling.Pool` whose ranks are the items' places in the campaign's runs;
:func:`strategy_order` then drives the chooser with the grades known now:

- an item with at least one grade (any annotator, any route) is revealed with the mean of its
  grades (-1 counted as 0);
- an item without a grade is revealed as 0 (not relevant) *for the ordering only*: the adaptive
  strategies move on to other runs instead of waiting for it, which is what several annotators
  judging at once need; when its real grade arrives, the next queue call recomputes the order.

So with one annotator, overlap 1, grading what the queue offers one item at a time, the queue
offers exactly :func:`~ndcg_studio.domain.pooling.judging_order` with the true grades (tested).
The queue keeps the campaign's rules: it offers, in this order, only the items that still need
grades (fewer than N grades plus others' holds, never one the annotator graded, could not judge or
holds already), items put off ("later") after the others; the annotator's own holds come first
and gold items are mixed in as for ``depth``. Blind: only the order changes.

``depth`` keeps the campaign's own rule (fewest grades first, seeded shuffle among equals), read
level by level in SQL (:func:`ndcg_studio.storage.campaign_queue.fewest_grades_first`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling import Pool, Strategy, judging_order, make_chooser
from ndcg_studio.storage import campaign_queue as cq
from ndcg_studio.storage import campaigns as cs

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["campaign_pool", "ordered", "strategy_items", "strategy_order"]


def campaign_pool(
    query: NDArray[np.int64], doc: NDArray[np.int64], rank: NDArray[np.int64], depth: int
) -> Pool:
    """The :class:`Pool` of a campaign's items.

    Args:
        query, doc: (P,) int64 query and document ids, sorted by (query, document).
        rank: (n_runs, P) int64 each item's 1-based place in each run (0: not returned).
        depth: the campaign's pool depth.
    """
    queries, dense = np.unique(query, return_inverse=True)
    return Pool(
        query=dense.astype(np.int64).reshape(-1),
        doc=np.asarray(doc, dtype=np.int64),
        rank=np.asarray(rank, dtype=np.int64),
        depth=int(depth),
        n_queries=int(queries.size),
    )


def strategy_order(
    pool: Pool,
    strategy: Strategy,
    known: NDArray[np.float64],
    *,
    seed: int,
    k: int = 10,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> NDArray[np.int64]:
    """The (P,) int64 order of the pool's indices under ``strategy``, revealing ``known[p]``
    ((P,) float64, NaN for an item without a grade, which counts as 0 here) as the chooser
    proposes each item; ``k`` and ``pairs`` (run row indices) are the ``ab`` strategy's.

    Raises:
        ValueError: unknown strategy.
    """
    chooser = make_chooser(strategy, pool, k=k, seed=seed, pairs=pairs)
    return judging_order(chooser, lambda p: float(known[p]))


def ordered(
    pool: Pool,
    strategy: Strategy,
    grades: Mapping[tuple[int, int], float],
    item_ids: tuple[NDArray[np.int64], NDArray[np.int64]],
    *,
    seed: int,
    k: int = 10,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> list[tuple[int, int]]:
    """Every item (query id, document id) of the pool in ``strategy``'s order, given the mean
    grade of the graded items (``grades``); ``item_ids`` are the pool's (query, doc) ids."""
    query, doc = item_ids
    items = list(zip(query.tolist(), doc.tolist(), strict=True))
    known = np.array([grades.get(item, np.nan) for item in items], dtype=np.float64)
    order = strategy_order(pool, strategy, known, seed=seed, k=k, pairs=pairs)
    return [items[p] for p in order.tolist()]


def strategy_items(
    session: Session, row: Any, annotator_id: int, now: datetime
) -> list[tuple[int, int]]:
    """Every item the annotator may be offered, in the strategy's order, put-off ones last."""
    runs = cs.campaign_runs(session, row.id)
    run_ids = [i for _n, i, _s in runs]
    query, doc, rank = cq.pool_ranks(session, row.id, run_ids)
    pairs = None
    if row.pool_strategy == "ab":
        side = {s: r for r, (_n, _i, s) in enumerate(runs) if s is not None}
        pairs = [(side["a"], side["b"])] if len(side) == 2 else []
    order = ordered(
        campaign_pool(query, doc, rank, row.pool_depth),
        row.pool_strategy,
        cq.item_grades(session, row.id),
        (query, doc),
        seed=int(row.seed or 0),
        k=int(row.pool_k or 10),
        pairs=pairs,
    )
    now_rows, put_off = cq.needing_grades(session, row.id, row.overlap, annotator_id, now)
    first, last = set(now_rows), set(put_off)
    return [i for i in order if i in first] + [i for i in order if i in last]
