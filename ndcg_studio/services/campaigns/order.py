"""The order a campaign's queue offers its pool in, under a pooling strategy other than ``depth``.

``mtf``, ``bandit`` and ``ab`` are the choosers of :mod:`ndcg_studio.domain.pooling.strategies`
(papers
cited there: Cormack, Palmer & Clarke 1998; Losada, Parapar & Barreiro 2017; Carterette, Allan &
Sitaraman 2006). The campaign's pool (its non-gold items, fixed at creation) becomes a
:class:`~ndcg_studio.domain.pooling.strategies.Pool` whose ranks are the items' places in the
campaign's runs;
:func:`first_offered` then drives the chooser with the grades known now:

- an item with at least one grade (any annotator, any route) is revealed with the mean of its
  grades (-1 counted as 0);
- an item without a grade is revealed as 0 (not relevant) *for the ordering only*: the adaptive
  strategies move on to other runs instead of waiting for it, which is what several annotators
  judging at once need; when its real grade arrives, the next queue call rewinds the order to it.

So with one annotator, overlap 1, grading what the queue offers one item at a time, the queue
offers exactly :func:`~ndcg_studio.domain.pooling.strategies.judging_order` with the true grades
(tested).
The queue keeps the campaign's rules: it offers, in this order, only the items that still need
grades (fewer than N grades plus others' holds, never one the annotator graded, could not judge or
holds already), items put off ("later") after the others; the annotator's own holds come first
and gold items are mixed in as for ``depth``. Blind: only the order changes.

**Kept between requests.** :func:`rebuilt_items` computes this answer afresh (every grade read,
the chooser replayed from its start: linear in the pool). :func:`strategy_items`, which the queue
calls, gives the same answer (tested, ``tests/services/test_campaign_strategy_state.py``) from a
state kept per process and campaign (:class:`_State`): the order as an
:class:`~ndcg_studio.domain.pooling.incremental.IncrementalOrder`, every grade of the pool, and
per annotator the step the walk may start from. Each request reads the items whose judgments
changed since the last one (``judgment_history`` ids, see :meth:`_State.sync`) and their
judgments, rewinds the order where a grade it used moved, and walks on: its work follows what
changed, not the pool (``benchmarks/bench_campaign_strategy.py``). The state is keyed by the
database, the campaign (id, creation time, strategy, depth, K, seed) and its runs; aggregates of
its pool ranks are compared with a fresh SQL aggregate every :data:`RECHECK_SECONDS`, so a run
re-imported with other places, in any process, rebuilds it within that time.

``depth`` keeps the campaign's own rule (fewest grades first, seeded shuffle among equals), read
level by level in SQL (:func:`ndcg_studio.storage.campaigns.queue.fewest_grades_first`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling.incremental import BLOCKED, LATER, OPEN, SKIP, IncrementalOrder
from ndcg_studio.domain.pooling.strategies import Pool, Strategy, make_chooser
from ndcg_studio.storage.campaigns import queue as cq
from ndcg_studio.storage.campaigns import reads as cr
from ndcg_studio.storage.campaigns import records as cs

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["campaign_pool", "first_offered", "rebuilt_items", "strategy_items"]

Item = tuple[int, int]


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


def _item_status(
    graded_by: Collection[int],
    other_holds: int,
    annotator: int,
    overlap: int,
    *,
    held: bool,
    mark: str | None,
) -> int:
    """The queue's rule for one non-gold item and ``annotator``, as the walk's status
    (:mod:`~ndcg_studio.domain.pooling.incremental`): :data:`SKIP` when the annotator graded it
    or its grades (``graded_by``: who graded it) reach ``overlap`` — for good, until a grade is
    cleared; :data:`BLOCKED` when the annotator holds it (``held``) or could not judge it
    (``mark``), or its load (grades plus ``other_holds``, the other annotators' live holds)
    reaches ``overlap``; else :data:`LATER` when put off, :data:`OPEN` otherwise. The queue's SQL
    states the same rule (:mod:`ndcg_studio.storage.campaigns.queue`)."""
    n = len(graded_by)
    if annotator in graded_by or n >= overlap:
        return SKIP
    if held or mark == "cant_judge" or n + other_holds >= overlap:
        return BLOCKED
    return LATER if mark == "later" else OPEN


def _offer(
    judged: list[tuple[int, int, int, int]],
    marks: Mapping[Item, str],
    leases: list[tuple[int, int, int]],
    annotator_id: int,
    overlap: int,
) -> tuple[dict[Item, float], tuple[set[Item], set[Item]]]:
    """(``{item: mean grade}`` of the graded items, -1 as 0; the items the annotator may be
    offered: (still needing grades, put off "later")) under the queue's rules
    (:func:`_item_status`; only items with a grade, a mark or a lease can be blocked)."""
    total: dict[Item, float] = {}
    graded_by: dict[Item, set[int]] = {}
    for q, d, a, g in judged:
        total[(q, d)] = total.get((q, d), 0.0) + max(g, 0)
        graded_by.setdefault((q, d), set()).add(a)
    grades = {item: total[item] / len(graded_by[item]) for item in total}
    mine: set[Item] = set()
    others: dict[Item, int] = {}
    for q, d, a in leases:
        if a == annotator_id:
            mine.add((q, d))
        else:
            others[(q, d)] = others.get((q, d), 0) + 1
    blocked: set[Item] = set()
    later: set[Item] = set()
    for item in graded_by.keys() | mine | others.keys() | marks.keys():
        status = _item_status(
            graded_by.get(item, ()),
            others.get(item, 0),
            annotator_id,
            overlap,
            held=item in mine,
            mark=marks.get(item),
        )
        if status in (SKIP, BLOCKED):
            blocked.add(item)
        elif status == LATER:
            later.add(item)
    return grades, (blocked, later)


# ---------------------------------------------------------------------------- state
#: Seconds between two checks of a state's pool ranks (:func:`cq.pool_fingerprint`: a run
#: re-imported with other places rebuilds the state). On PostgreSQL, also the period of a full
#: re-read of the grades: see :meth:`_State.sync`.
RECHECK_SECONDS = 30.0
#: PostgreSQL: how far back (seconds) each sync re-reads the history, for transactions that
#: commit a smaller history id after a larger one was seen.
LOOKBACK_SECONDS = 60.0
#: Above this many changed items a sync re-reads every grade of the campaign (one read).
FULL_READ_ITEMS = 20_000

_STATES: dict[tuple[Any, ...], _State] = {}
_STATES_LOCK = threading.Lock()


def ab_pair(
    row: Any, runs: list[tuple[str, int, str | None]]
) -> tuple[list[tuple[int, int]] | None, int]:
    """The ``ab`` order's pair (indices of runs A and B in ``runs``) and its cutoff K; for the
    other orders ``(None, 10)`` (K unused).

    Raises:
        ValueError: an ``ab`` campaign without both runs of its pair or without K (a state no
            version of the app writes; the queue refuses it rather than serve another order).
    """
    if row.pool_strategy != "ab":
        return None, 10
    side = {s: r for r, (_n, _i, s) in enumerate(runs) if s is not None}
    if set(side) != {"a", "b"} or row.pool_k is None:
        raise ValueError(
            f"campaign {row.name!r} uses the ab order but its pair of runs or its cutoff K is "
            "missing; create the campaign again with --strategy ab --pair A B --k K"
        )
    return [(side["a"], side["b"])], int(row.pool_k)


class _State:
    """One campaign's strategy order in this process: the pool, every grade of its items as
    ``{pool index: {annotator id: grade}}``, the :class:`IncrementalOrder`, each annotator's
    start of walk, and the judgment history id up to which grades were read."""

    def __init__(self, session: Session, row: Any, runs: list[tuple[str, int, str | None]]) -> None:
        run_ids = [i for _n, i, _s in runs]
        self.fingerprint = cq.pool_fingerprint(session, row.id, run_ids)
        query, doc, rank = cq.pool_ranks(session, row.id, run_ids)
        self.checked = time.monotonic()
        self.items = list(zip(query.tolist(), doc.tolist(), strict=True))
        self.index = {item: p for p, item in enumerate(self.items)}
        pairs, k = ab_pair(row, runs)
        self.order = IncrementalOrder(
            campaign_pool(query, doc, rank, row.pool_depth),
            row.pool_strategy,
            k=k,
            seed=int(row.seed or 0),
            pairs=pairs,
        )
        self.low: dict[int, int] = {}
        self.lock = threading.Lock()
        self.serial = cr.serial_commits(session)
        self.judges: dict[int, dict[int, int]] = {}
        self._full_read(session, row.id)

    def _full_read(self, session: Session, campaign: int) -> None:
        high = cr.history_high_water(session)
        rows = cr.campaign_judgments(session, campaign)
        changed = set(self.judges) | {self.index[(q, d)] for q, d, _a, _g in rows}
        self._apply(changed, rows)
        self.syncs = [(time.monotonic(), high)]
        self.read_all = time.monotonic()

    def grade_of(self, p: int) -> float:
        """The mean of ``p``'s grades (-1 as 0), 0 without a grade (see the module docstring)."""
        graded = self.judges.get(p)
        if not graded:
            return 0.0
        return sum(float(max(g, 0)) for g in graded.values()) / len(graded)

    def _apply(self, changed: set[int], rows: list[tuple[int, int, int, int]]) -> None:
        """``changed`` pool indices now have exactly the judgments ``rows``: store them and
        rewind the order where a revealed grade moved."""
        fresh: dict[int, dict[int, int]] = {}
        for q, d, a, g in rows:
            p = self.index.get((q, d))
            if p is not None:
                fresh.setdefault(p, {})[a] = g
        for p in changed:
            if fresh.get(p):
                self.judges[p] = fresh[p]
            else:
                self.judges.pop(p, None)
            step = self.order.step_of(p)
            if step >= 0:
                self.order.update(p, self.grade_of(p))
                for a, low in self.low.items():
                    self.low[a] = min(low, step)

    def sync(self, session: Session, campaign: int) -> None:
        """Read the grades written since the last sync (by history id); on PostgreSQL re-read
        the last :data:`LOOKBACK_SECONDS` of history too, and everything every
        :data:`RECHECK_SECONDS` (a transaction may commit an older id late)."""
        now = time.monotonic()
        if not self.serial and now - self.read_all > RECHECK_SECONDS:
            self._full_read(session, campaign)
            return
        upto = cr.history_high_water(session)
        after = self.syncs[-1][1]
        if not self.serial:
            older = [h for t, h in self.syncs if now - t >= LOOKBACK_SECONDS]
            after = older[-1] if older else self.syncs[0][1]
            self.syncs = self.syncs[max(len(older) - 1, 0) :]
        if upto > after:
            items = [i for i in cr.changed_items(session, after, upto) if i in self.index]
            if len(items) > FULL_READ_ITEMS:
                self._full_read(session, campaign)
                return
            changed = {self.index[item] for item in items}
            self._apply(changed, cr.item_judgments(session, items) if items else [])
        self.syncs.append((now, upto))

    def status(
        self,
        annotator: int,
        overlap: int,
        marks: Mapping[Item, str],
        leases: list[tuple[int, int, int]],
    ) -> Callable[[int], int]:
        """The walk's ``status(p)`` under the queue's rules (:func:`_item_status`)."""
        index, judges = self.index, self.judges
        mine: set[int] = set()
        others: dict[int, int] = {}
        for q, d, a in leases:
            p = index.get((q, d))
            if p is not None and a == annotator:
                mine.add(p)
            elif p is not None:
                others[p] = others.get(p, 0) + 1
        marked = {index[i]: s for i, s in marks.items() if i in index}
        no_grades: dict[int, int] = {}

        def status(p: int) -> int:
            return _item_status(
                judges.get(p, no_grades),
                others.get(p, 0),
                annotator,
                overlap,
                held=p in mine,
                mark=marked.get(p),
            )

        return status


def _state(session: Session, row: Any) -> _State:
    """The campaign's state in this process, built or rebuilt when missing or stale (its
    key: the database, the campaign's id, creation time, strategy and runs; its pool ranks
    are checked every :data:`RECHECK_SECONDS`)."""
    runs = cs.campaign_runs(session, row.id)
    key = (
        cr.database_key(session),
        row.id,
        str(row.created_at),
        row.pool_strategy,
        row.pool_depth,
        row.pool_k,
        row.seed,
        tuple(runs),
    )
    with _STATES_LOCK:
        state = _STATES.get(key)
    if state is not None and time.monotonic() - state.checked > RECHECK_SECONDS:
        fingerprint = cq.pool_fingerprint(session, row.id, [i for _n, i, _s in runs])
        state.checked = time.monotonic()
        if fingerprint != state.fingerprint:
            state = None
    if state is None:
        state = _State(session, row, runs)
        with _STATES_LOCK:
            if len(_STATES) >= 8:
                _STATES.clear()
            _STATES[key] = state
    return state


def strategy_items(
    session: Session, row: Any, annotator_id: int, now: datetime, need: int
) -> list[Item]:
    """The first ``need`` items the annotator may be offered, in the strategy's order, put-off
    ones last: :func:`rebuilt_items`' answer, from the campaign's state kept between requests
    (``benchmarks/bench_campaign_strategy.py``). Called under the campaign's lock."""
    state = _state(session, row)
    with state.lock:
        state.sync(session, row.id)
        marks, leases = cr.open_marks_and_leases(session, row.id, annotator_id, now)
        status = state.status(annotator_id, row.overlap, marks, leases)
        start = state.low.get(annotator_id, 0)
        picked, state.low[annotator_id] = state.order.walk(need, status, state.grade_of, start)
        return [state.items[p] for p in picked]


def rebuilt_items(
    session: Session, row: Any, annotator_id: int, now: datetime, need: int
) -> list[Item]:
    """:func:`strategy_items` computed afresh: every grade read, the chooser replayed from its
    start (the reference the kept state is tested against)."""
    runs = cs.campaign_runs(session, row.id)
    query, doc, rank = cq.pool_ranks(session, row.id, [i for _n, i, _s in runs])
    pairs, k = ab_pair(row, runs)
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
        k=k,
        pairs=pairs,
    )
