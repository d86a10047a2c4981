"""A strategy's judging order kept between requests and rewound only where a revealed grade changed.

:func:`ndcg_studio.domain.pooling.strategies.judging_order` drives a chooser of
:mod:`ndcg_studio.domain.pooling.strategies` from its start; a campaign's queue asks for the next
item on
every keystroke while the grades keep arriving. :class:`IncrementalOrder` yields the same order
(tested against a fresh chooser, ``tests/domain/test_pooling_incremental.py``) by keeping the
items revealed so far and the grade each was revealed with; when an item's grade changes after it
was revealed, the order is rewound to that item and replayed from there. The work of a request is
then proportional to what changed and to how far the order advances, not to the pool.

It rests on how the three adaptive choosers decompose (each chooser's rule is per query):

* ``mtf`` and ``bandit``: each query's own chooser (:class:`MoveToFrontChooser`,
  :class:`MaxMeanChooser` on that query's items alone) proposes the query's next document from
  the grades of the query's documents only; the queries take turns (round robin) and a query with
  no document left drops out, so the j-th document of query q comes at the fixed place given by
  the key (j, q).
* ``ab``: each query's documents come in a fixed order (weight descending, seeded tie), and the
  next document overall is the query head of smallest (-weight / scale_q, tie), scale_q from the
  grades revealed in q (:class:`ABChooser`).

Both are merges of per-query *lanes* by a key that depends on the lane's own reveals only: a
heap of lane heads reproduces the chooser's pick, and rewinding a lane replays only its query.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.pooling.strategies import (
    MaxMeanChooser,
    MoveToFrontChooser,
    Pool,
    Strategy,
    pair_weights,
)

__all__ = ["BLOCKED", "LATER", "OPEN", "SKIP", "IncrementalOrder"]

#: What a walk's ``status(p)`` may answer: offer the item, pass over it (it is revealed), put it
#: last ("later"), or pass over it for good (the caller's start may move past it).
OPEN, BLOCKED, LATER, SKIP = 0, 1, 2, 3


class _RoundRobinLane:
    """One query of ``mtf``/``bandit``: the chooser of the query's items alone."""

    def __init__(self, make: Callable[[], Any], lo: int, q: int) -> None:
        self._make, self._lo, self._q = make, lo, q
        self.grades: list[float] = []
        self._chooser = make()

    def head(self) -> int | None:
        p = self._chooser.next()
        return None if p is None else self._lo + int(p)

    def key(self) -> tuple[Any, ...]:
        return (len(self.grades), self._q)

    def reveal(self, p: int, grade: float) -> None:
        self._chooser.reveal(p - self._lo, grade)
        self.grades.append(grade)

    def rewind(self, count: int) -> None:
        """Back to the state after the first ``count`` reveals (replayed with their grades)."""
        grades, self.grades = self.grades[:count], []
        self._chooser = self._make()
        for grade in grades:
            p = self.head()
            assert p is not None
            self.reveal(p, grade)


class _ABLane:
    """One query of ``ab``: its documents by (weight descending, tie); the key divides the
    weight by the ideal DCG@K of the grades revealed in the query (at least 1), as
    :class:`ABChooser` does."""

    def __init__(self, order: list[int], weight: NDArray[np.float64], tie: Any, k: int) -> None:
        self._order, self._weight, self._tie, self._k = order, weight, tie, k
        self._ideal_disc = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
        self.grades: list[float] = []
        self._revealed: list[float] = []
        self._scale = np.ones(1)

    def head(self) -> int | None:
        m = len(self.grades)
        return self._order[m] if m < len(self._order) else None

    def key(self) -> tuple[Any, ...]:
        p = self._order[len(self.grades)]
        return (-float(self._weight[p]) / self._scale[0], int(self._tie[p]), p)

    def reveal(self, p: int, grade: float) -> None:
        self.grades.append(grade)
        self._revealed.append(max(float(grade), 0.0))
        top = sorted(self._revealed, reverse=True)[: self._k]
        ideal = float(np.dot(top, self._ideal_disc[: len(top)]))
        self._scale[0] = max(ideal, 1.0)

    def rewind(self, count: int) -> None:
        grades = self.grades[:count]
        self.grades, self._revealed, self._scale = [], [], np.ones(1)
        for grade in grades:
            p = self.head()
            assert p is not None
            self.reveal(p, grade)


class IncrementalOrder:
    """The order of ``make_chooser(strategy, pool, k=k, seed=seed, pairs=pairs)`` for ``mtf``,
    ``bandit`` or ``ab``, kept between walks (see the module docstring).

    Attributes:
        steps: the pool indices revealed so far, in judging order.

    Raises:
        ValueError: another strategy (``depth`` needs no state: its order is fixed).
    """

    def __init__(
        self,
        pool: Pool,
        strategy: Strategy,
        *,
        k: int = 10,
        seed: int = 0,
        pairs: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        if strategy not in ("mtf", "bandit", "ab"):
            raise ValueError(f"no incremental order for strategy {strategy!r}")
        self._pool, self._strategy = pool, strategy
        self._starts = np.searchsorted(pool.query, np.arange(pool.n_queries + 1)).tolist()
        self.steps: list[int] = []
        self._step_of = np.full(pool.size, -1, dtype=np.int64)
        self._grade_at = np.zeros(pool.size, dtype=np.float64)
        self._lanes: dict[int, Any] = {}
        self._version = [0] * pool.n_queries
        self._heap: list[tuple[tuple[Any, ...], int, int]] = []
        if strategy == "ab":
            self._ab_setup(k, seed, pairs)
        for q in range(pool.n_queries):
            if self._starts[q + 1] > self._starts[q]:
                self._heap.append((self._first_key(q), q, 0))
        heapq.heapify(self._heap)

    # ------------------------------------------------------------------ lanes
    def _ab_setup(self, k: int, seed: int, pairs: Sequence[tuple[int, int]] | None) -> None:
        pool = self._pool
        weight = pair_weights(pool, k, pairs)
        tie = np.random.default_rng(seed).permutation(pool.size)
        self._k, self._weight, self._tie = k, weight, tie
        self._ab_order = np.lexsort((tie, -weight, pool.query)).tolist()

    def _first_key(self, q: int) -> tuple[Any, ...]:
        if self._strategy != "ab":
            return (0, q)
        p = self._ab_order[self._starts[q]]
        return (-float(self._weight[p]) / np.float64(1.0), int(self._tie[p]), p)

    def _lane(self, q: int) -> Any:
        lane = self._lanes.get(q)
        if lane is None:
            lo, hi = self._starts[q], self._starts[q + 1]
            if self._strategy == "ab":
                lane = _ABLane(self._ab_order[lo:hi], self._weight, self._tie, self._k)
            else:
                sub = Pool(
                    query=np.zeros(hi - lo, dtype=np.int64),
                    doc=self._pool.doc[lo:hi],
                    rank=self._pool.rank[:, lo:hi],
                    depth=self._pool.depth,
                    n_queries=1,
                )
                kind = MoveToFrontChooser if self._strategy == "mtf" else MaxMeanChooser
                lane = _RoundRobinLane(lambda: kind(sub), lo, q)
            self._lanes[q] = lane
        return lane

    def _peek(self) -> int | None:
        """The next document to reveal (the chooser's pending proposal), None at the end."""
        while self._heap:
            _key, q, version = self._heap[0]
            if version != self._version[q]:
                heapq.heappop(self._heap)
                continue
            p = self._lane(q).head()
            if p is None:
                heapq.heappop(self._heap)
                continue
            return int(p)
        return None

    def _reveal_next(self, p: int, grade: float) -> None:
        _key, q, version = heapq.heappop(self._heap)
        lane = self._lane(q)
        lane.reveal(p, grade)
        self._step_of[p] = len(self.steps)
        self._grade_at[p] = grade
        self.steps.append(p)
        if lane.head() is not None:
            heapq.heappush(self._heap, (lane.key(), q, version))

    # ------------------------------------------------------------------ public
    def step_of(self, p: int) -> int:
        """The step at which pool index ``p`` was revealed, -1 when it was not (yet)."""
        return int(self._step_of[p])

    def update(self, p: int, grade: float) -> int | None:
        """``p``'s grade is now ``grade``: when ``p`` was revealed with another grade, rewind
        the order to the step before it (every later step is replayed on the next walk).
        Returns the step rewound to, or None when nothing changed."""
        step = int(self._step_of[p])
        if step < 0 or self._grade_at[p] == grade:
            return None
        self.rewind(step)
        return step

    def rewind(self, step: int) -> None:
        """Forget the reveals from ``step`` on; each query concerned replays its own earlier
        reveals (the cost is that of the forgotten steps and their queries' items)."""
        if step >= len(self.steps):
            return
        dropped = self.steps[step:]
        del self.steps[step:]
        self._step_of[dropped] = -1
        lost: dict[int, int] = {}
        for p in dropped:
            q = int(self._pool.query[p])
            lost[q] = lost.get(q, 0) + 1
        for q, n in lost.items():
            lane = self._lane(q)
            lane.rewind(len(lane.grades) - n)
            self._version[q] += 1
            if lane.head() is not None:
                heapq.heappush(self._heap, (lane.key(), q, self._version[q]))

    def walk(
        self,
        need: int,
        status: Callable[[int], int],
        grade_of: Callable[[int], float],
        start: int = 0,
    ) -> tuple[list[int], int]:
        """The first ``need`` documents whose ``status`` is :data:`OPEN` in judging order, then
        those :data:`LATER` (``first_offered``'s answer), revealing each document passed over
        with ``grade_of(p)`` as the chooser would.

        ``start``: the steps before it are known to be :data:`SKIP`. Returns (the pool indices,
        the first step at or after ``start`` whose document is not :data:`SKIP`, a start for the
        next walk while nothing changes)."""
        first: list[int] = []
        last: list[int] = []
        low, t = start, start
        while True:
            if t < len(self.steps):
                p = self.steps[t]
            else:
                nxt = self._peek()
                if nxt is None:
                    break
                p = nxt
            s = status(p)
            if s == SKIP and t == low:
                low += 1
            elif s == LATER:
                last.append(p)
            elif s == OPEN:
                first.append(p)
                if len(first) >= need:
                    break
            if t >= len(self.steps):
                self._reveal_next(p, grade_of(p))
            t += 1
        return (first + last)[:need], low
