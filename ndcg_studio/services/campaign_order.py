"""The order a campaign's queue offers its pool in, under a pooling strategy other than ``depth``.

``mtf``, ``bandit`` and ``ab`` are the choosers of :mod:`ndcg_studio.domain.pooling` (papers
cited there: Cormack, Palmer & Clarke 1998; Losada, Parapar & Barreiro 2017; Carterette, Allan &
Sitaraman 2006). The campaign's pool (its non-gold items, fixed at creation) becomes a
:class:`~ndcg_studio.domain.pooling.Pool` whose ranks are the items' places in the campaign's runs;
:func:`first_offered` then drives the chooser with the grades known now:

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

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling import Pool, Strategy, make_chooser
from ndcg_studio.storage import campaign_queue as cq
from ndcg_studio.storage import campaigns as cs

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["campaign_pool", "first_offered", "strategy_items"]


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


def first_offered(
    pool: Pool,
    strategy: Strategy,
    grades: Mapping[tuple[int, int], float],
    item_ids: tuple[NDArray[np.int64], NDArray[np.int64]],
    offer: tuple[set[tuple[int, int]], set[tuple[int, int]]],
    need: int,
    *,
    seed: int,
    k: int = 10,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> list[tuple[int, int]]:
    """The first ``need`` items to offer in ``strategy``'s order: the items in neither set of
    ``offer`` = (blocked, put off "later"), then those put off, each in the order
    the chooser gives when each proposed item is revealed with its mean grade in ``grades``
    (an item without a grade as 0; ``item_ids``: the pool's (query, doc) ids; ``k`` and
    ``pairs``, run row indices, are the ``ab`` strategy's). The chooser is driven only until
    ``need`` open items are found (the whole pool when there are fewer)."""
    query, doc = item_ids
    items = list(zip(query.tolist(), doc.tolist(), strict=True))
    blocked, later = offer
    first: list[tuple[int, int]] = []
    last: list[tuple[int, int]] = []
    chooser = make_chooser(strategy, pool, k=k, seed=seed, pairs=pairs)
    while (p := chooser.next()) is not None:
        item = items[p]
        if item in later:
            last.append(item)
        elif item not in blocked:
            first.append(item)
            if len(first) >= need:
                return first
        grade = grades.get(item, math.nan)
        chooser.reveal(p, grade if math.isfinite(grade) else 0.0)
    return (first + last)[:need]


def strategy_items(
    session: Session, row: Any, annotator_id: int, now: datetime, need: int
) -> list[tuple[int, int]]:
    """The first ``need`` items the annotator may be offered, in the strategy's order, put-off
    ones last (see :func:`first_offered`)."""
    runs = cs.campaign_runs(session, row.id)
    query, doc, rank = cq.pool_ranks(session, row.id, [i for _n, i, _s in runs], row.created_at)
    pairs = None
    if row.pool_strategy == "ab":
        side = {s: r for r, (_n, _i, s) in enumerate(runs) if s is not None}
        pairs = [(side["a"], side["b"])] if len(side) == 2 else []
    judged, marks, leases = cq.offer_inputs(session, row.id, annotator_id, now)
    grades, offer = _offer(judged, marks, leases, annotator_id, row.overlap)
    return first_offered(
        campaign_pool(query, doc, rank, row.pool_depth),
        row.pool_strategy,
        grades,
        (query, doc),
        offer,
        need,
        seed=int(row.seed or 0),
        k=int(row.pool_k or 10),
        pairs=pairs,
    )


Item = tuple[int, int]


def _offer(
    judged: list[tuple[int, int, int, int]],
    marks: Mapping[Item, str],
    leases: list[tuple[int, int, int]],
    annotator_id: int,
    overlap: int,
) -> tuple[dict[Item, float], tuple[set[Item], set[Item]]]:
    """(``{item: mean grade}`` of the graded items, -1 as 0; the items the annotator may be
    offered: (still needing grades, put off "later")) under the queue's rules: load (grades +
    other annotators' live holds) below ``overlap``, not graded, marked "can't judge" or held
    by the annotator (only items with a grade, a mark or a lease can be blocked)."""
    total: dict[Item, float] = {}
    load: dict[Item, int] = {}
    blocked: set[Item] = set()
    for q, d, a, g in judged:
        total[(q, d)] = total.get((q, d), 0.0) + max(g, 0)
        load[(q, d)] = load.get((q, d), 0) + 1
        if a == annotator_id:
            blocked.add((q, d))
    grades = {item: total[item] / load[item] for item in total}
    for q, d, a in leases:
        if a == annotator_id:
            blocked.add((q, d))
        else:
            load[(q, d)] = load.get((q, d), 0) + 1
    blocked |= {item for item, n in load.items() if n >= overlap}
    blocked |= {item for item, state in marks.items() if state == "cant_judge"}
    later = {item for item, state in marks.items() if state == "later"} - blocked
    return grades, (blocked, later)
