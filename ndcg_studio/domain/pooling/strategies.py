"""Pools and the order in which their documents are judged (pure numpy, no database).

A *pool* is the set of (query, document) pairs found in the top ``depth`` results of any run
(TREC depth-D pooling). Each strategy here only chooses the ORDER in which the pooled documents
are shown to the annotator; the annotator stays blind (never sees runs, ranks or scores).

Strategies (``STRATEGIES``):

* ``depth``: every pooled document, shuffled with a seed: the baseline (today's Annotate pool).
* ``mtf``: move-to-front pooling, Cormack, Palmer & Clarke, "Efficient construction of large
  test collections", SIGIR 1998, doi:10.1145/290941.291009.
* ``bandit``: discounted MaxMean, our reading of the non-stationary MaxMean of Losada, Parapar &
  Barreiro, "Multi-armed bandits for adjudicating documents in pooling-based evaluation of
  information retrieval systems", IP&M 53(5) 2017, doi:10.1016/j.ipm.2017.04.005 (its
  discount λ and free rewards are parameters, :class:`BanditParams`; a last-judgment-only
  variant beside it). On the fairness and reusability of bandit-built pools: Voorhees, "On
  building fair and reusable test collections using bandit techniques", CIKM 2018.
* ``ab``: for runs A and B and cutoff K, judge first the documents whose grade can move
  Delta DCG@K the most, |discount in A - discount in B| (each 0 beyond K), adapted to nDCG:
  Carterette, Allan & Sitaraman, "Minimal test collections for retrieval evaluation",
  SIGIR 2006, doi:10.1145/1148170.1148219.

``mtf`` and ``bandit`` are adaptive (the next document depends on the grades revealed so far):
every strategy is a *chooser* with ``next() -> int | None`` (the pool index to judge next, None
when the pool is exhausted) and ``reveal(p, grade)``. :func:`judging_order` drives a chooser
with known grades (the simulator). ``mtf`` and ``bandit`` work per query and take turns over
the queries (round robin), as both papers adjudicate each query's pool separately.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.kernels import distinct

__all__ = [
    "STRATEGIES",
    "ABChooser",
    "BanditParams",
    "Chooser",
    "DepthChooser",
    "MaxMeanChooser",
    "MoveToFrontChooser",
    "Pool",
    "Strategy",
    "build_pool",
    "discounts",
    "judging_order",
    "make_chooser",
    "pair_weights",
]

Strategy = Literal["depth", "mtf", "bandit", "ab"]
STRATEGIES: tuple[Strategy, ...] = ("depth", "mtf", "bandit", "ab")


@dataclass(frozen=True, eq=False)
class Pool:
    """The pooled (query, document) pairs and their ranks in every run.

    Attributes:
        query: (P,) int64 dense query index of each pooled document (sorted ascending).
        doc: (P,) int64 document index of each pooled document (ascending within a query).
        rank: (n_runs, P) int64 rank (1 = top) of the document in each run's list for its
            query over the WHOLE list (not only the top ``depth``), 0 when the run did not
            return it.
        depth: the pool depth D >= 1.
        n_queries: number of query indices (queries without a pooled document are allowed).
    """

    query: NDArray[np.int64]
    doc: NDArray[np.int64]
    rank: NDArray[np.int64]
    depth: int
    n_queries: int

    @property
    def size(self) -> int:
        """Number of pooled documents P."""
        return int(self.query.shape[0])

    @property
    def n_runs(self) -> int:
        return int(self.rank.shape[0])


def build_pool(
    run: NDArray[np.int64],
    query: NDArray[np.int64],
    doc: NDArray[np.int64],
    rank: NDArray[np.int64],
    *,
    n_runs: int,
    n_queries: int,
    depth: int,
    queries: NDArray[np.bool_] | None = None,
) -> Pool:
    """Depth-``depth`` pool of ranked results.

    Args:
        run, query, doc, rank: (n,) int64 one row per result: run index 0..n_runs-1, query
            index 0..n_queries-1, document index >= 0, rank >= 1 in that run's list (trec_eval
            order); a (run, query, doc) must not repeat.
        depth: pool depth D >= 1: a (query, doc) is pooled when some run ranks it <= D.
        queries: optional (n_queries,) bool mask: pool only these queries.

    Raises:
        ValueError: depth < 1, mismatched lengths, ranks < 1, or a repeated (run, query, doc).
    """
    if depth < 1:
        raise ValueError(f"pool depth must be >= 1, got {depth}")
    run, query, doc, rank = (np.asarray(a, dtype=np.int64) for a in (run, query, doc, rank))
    if not (run.shape == query.shape == doc.shape == rank.shape) or run.ndim != 1:
        raise ValueError("run, query, doc and rank must be 1-D arrays of the same length")
    if rank.size and rank.min() < 1:
        raise ValueError("ranks must be >= 1")
    n_docs = int(doc.max(initial=-1)) + 1
    key = query * max(n_docs, 1) + doc
    top = rank <= depth
    if queries is not None:
        top &= np.asarray(queries, dtype=bool)[query]
    # distinct by sorting: np.unique hashes first, much slower here (bench_gui_scale Compare)
    pooled = distinct(key[top])
    rank_matrix = np.zeros((n_runs, len(pooled)), dtype=np.int64)
    pos = np.searchsorted(pooled, key)
    inside = pos < len(pooled)
    inside[inside] = pooled[pos[inside]] == key[inside]
    cell = run[inside] * len(pooled) + pos[inside]
    if len(distinct(cell)) != len(cell):
        raise ValueError("a document appears twice in one run's list for one query")
    rank_matrix.reshape(-1)[cell] = rank[inside]
    return Pool(
        query=pooled // max(n_docs, 1),
        doc=pooled % max(n_docs, 1),
        rank=rank_matrix,
        depth=int(depth),
        n_queries=int(n_queries),
    )


def discounts(rank: NDArray[np.int64], k: int) -> NDArray[np.float64]:
    """1/log2(rank + 1) for 1 <= rank <= k, else 0 (not returned, or beyond the cutoff)."""
    r = np.asarray(rank, dtype=np.float64)
    out = np.zeros(r.shape, dtype=np.float64)
    inside = (r >= 1) & (r <= k)
    out[inside] = 1.0 / np.log2(r[inside] + 1.0)
    return out


def pair_weights(
    pool: Pool, k: int, pairs: Sequence[tuple[int, int]] | None = None
) -> NDArray[np.float64]:
    """How much one unit of gain of each pooled document moves DCG_A@K - DCG_B@K, summed over
    pairs of runs (A, B).

    SOURCE: Carterette, Allan & Sitaraman (2006), doi:10.1145/1148170.1148219, adapted to
    nDCG (:class:`ABChooser`): for a pair of runs (A, B), |disc_A(p) - disc_B(p)| with
    disc = :func:`discounts` at cutoff K; with several pairs the weights add up, in the order
    of ``pairs``.

    Args:
        pool: the pool (its (n_runs, P) ranks).
        k: cutoff K >= 1.
        pairs: the (A, B) run indices compared; None = every pair A < B of the pool's runs.

    Returns:
        (P,) float64 weights >= 0, in pool order.
    """
    if pairs is None:
        pairs = [(a, b) for a in range(pool.n_runs) for b in range(a + 1, pool.n_runs)]
    disc = discounts(pool.rank, k)
    weight = np.zeros(pool.size)
    for a, b in pairs:
        weight += np.abs(disc[a] - disc[b])
    return weight


class Chooser(Protocol):
    """An ordering strategy: ``next()`` proposes a pool index, ``reveal`` reports its grade."""

    def next(self) -> int | None: ...

    def reveal(self, p: int, grade: float) -> None: ...


class DepthChooser:
    """Baseline: every pooled document in a seeded random order (numpy ``default_rng(seed)``)."""

    def __init__(self, pool: Pool, *, seed: int = 0) -> None:
        self._order = np.random.default_rng(seed).permutation(pool.size).tolist()
        self._i = 0

    def next(self) -> int | None:
        return self._order[self._i] if self._i < len(self._order) else None

    def reveal(self, p: int, grade: float) -> None:
        if self._i < len(self._order) and self._order[self._i] == p:
            self._i += 1


class _PerQueryRuns:
    """Each query's pooled documents in each run's order (ranks <= depth), and what is judged."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.lists: list[list[list[int]]] = []  # [query][run] -> pool indices by rank
        self.judged = np.zeros(pool.size, dtype=bool)
        self.grade = np.zeros(pool.size, dtype=np.float64)
        starts = np.searchsorted(pool.query, np.arange(pool.n_queries + 1))
        for q in range(pool.n_queries):
            lo, hi = int(starts[q]), int(starts[q + 1])
            per_run = []
            for r in range(pool.n_runs):
                ranks = pool.rank[r, lo:hi]
                inside = np.flatnonzero((ranks >= 1) & (ranks <= pool.depth))
                per_run.append((lo + inside[np.argsort(ranks[inside], kind="stable")]).tolist())
            self.lists.append(per_run)
        self.cursor = [[0] * pool.n_runs for _ in range(pool.n_queries)]
        self.queries = [q for q in range(pool.n_queries) if starts[q + 1] > starts[q]]
        self.turn = 0

    def head(self, q: int, r: int) -> int | None:
        """The first not yet judged document of run r for query q (advancing past judged ones)."""
        lst, c = self.lists[q][r], self.cursor[q]
        while c[r] < len(lst) and self.judged[lst[c[r]]]:
            c[r] += 1
        return lst[c[r]] if c[r] < len(lst) else None


class _RoundRobin:
    """Shared driver: the queries take turns; each query's own rule picks its document."""

    relevant_from: float = 1.0

    def __init__(self, pool: Pool) -> None:
        self.state = _PerQueryRuns(pool)
        self._pending: int | None = None

    def _pick(self, q: int) -> int | None:
        raise NotImplementedError

    def next(self) -> int | None:
        if self._pending is not None:
            return self._pending
        s = self.state
        while s.queries:
            s.turn %= len(s.queries)
            q = s.queries[s.turn]
            p = self._pick(q)
            if p is None:
                s.queries.pop(s.turn)
                continue
            self._pending = p
            return p
        return None

    def reveal(self, p: int, grade: float) -> None:
        s = self.state
        s.judged[p] = True
        s.grade[p] = grade
        self._update(int(s.pool.query[p]), p, grade >= self.relevant_from)
        if self._pending == p:
            self._pending = None
            s.turn += 1

    def _update(self, q: int, p: int, relevant: bool) -> None:
        raise NotImplementedError


class MoveToFrontChooser(_RoundRobin):
    """Move-to-front pooling (Cormack, Palmer & Clarke 1998, doi:10.1145/290941.291009).

    Per query, every run starts with the same priority. The run of highest priority (ties: the
    lowest run index, so runs are visited in turn) gives its highest-ranked unjudged document;
    a relevant document (grade >= ``relevant_from``, default 1) keeps the run where it is, so
    its next document follows; a non-relevant one lowers the run's priority by one. Documents
    already judged through another run are skipped. A run whose pool documents are all judged
    drops out.
    """

    def __init__(self, pool: Pool, *, relevant_from: float = 1.0) -> None:
        super().__init__(pool)
        self.relevant_from = relevant_from
        self._priority = np.zeros((pool.n_queries, pool.n_runs), dtype=np.int64)
        self._source: dict[int, int] = {}

    def _pick(self, q: int) -> int | None:
        prio = self._priority[q].copy()
        for _ in range(self.state.pool.n_runs):
            r = int(np.argmax(prio))
            if prio[r] == np.iinfo(np.int64).min:
                break
            p = self.state.head(q, r)
            if p is not None:
                self._source[p] = r
                return p
            prio[r] = np.iinfo(np.int64).min
            self._priority[q, r] = np.iinfo(np.int64).min  # exhausted
        return None

    def _update(self, q: int, p: int, relevant: bool) -> None:
        r = self._source.pop(p, None)
        if r is not None and not relevant:
            self._priority[q, r] -= 1


@dataclass(frozen=True)
class BanditParams:
    """The free choices of the ``bandit`` order (:class:`MaxMeanChooser`).

    Attributes:
        discount: λ in (0, 1], the weight of older rewards (1: stationary MaxMean); default 0.9.
        free_reward: a run's document already judged through another run counts as that run's
            reward (True, default) or is skipped without one.
        last_only: the last-judgment-only variant: an arm's estimate is its last reward alone,
            and after a hit the same run is pulled again while it keeps hitting (``discount``
            is then not used).
    """

    discount: float = 0.9
    free_reward: bool = True
    last_only: bool = False

    def describe(self) -> str:
        """``discounted MaxMean (λ 0.9, free rewards)`` or ``last-judgment MaxMean (…)``."""
        free = "free rewards" if self.free_reward else "no free rewards"
        if self.last_only:
            return f"last-judgment MaxMean ({free})"
        return f"discounted MaxMean (λ {self.discount:g}, {free})"


class MaxMeanChooser(_RoundRobin):
    """Discounted MaxMean bandit, our reading of the non-stationary variant (Losada, Parapar &
    Barreiro, "Multi-armed bandits for adjudicating documents in pooling-based evaluation of
    information retrieval systems", IP&M 53(5) 2017, doi:10.1016/j.ipm.2017.04.005; first in
    "Feeling lucky? Multi-armed bandits for ordering judgements in pooling-based evaluation",
    SAC 2016).

    The rule as implemented, per query (each query's pool is adjudicated separately; the
    queries take turns, :class:`_RoundRobin`):

    * every run is an arm with a Beta(1, 1) prior on the probability that its next document is
      relevant (relevant: grade >= ``relevant_from``, default 1);
    * the arm of highest posterior mean ``(1 + rel) / (2 + rel + nonrel)`` is pulled: its
      highest-ranked unjudged document (ranks <= the pool depth) is judged next; ties go to the
      lowest run index;
    * non-stationary: relevance thins out down a ranking, so older rewards of an arm are
      discounted: on each reward ``rel <- lam * rel + r`` and ``nonrel <- lam * nonrel +
      (1 - r)`` with ``lam = discount`` (default 0.9; ``lam = 1`` is the stationary MaxMean);
      ``last_only``: ``rel, nonrel <- r, 1 - r`` (the last reward alone), ties going to the
      run pulled last, so a run that hit is pulled again;
    * a run's document already judged through another run is not judged again: with
      ``free_reward`` (default) its known grade is that run's reward at no cost, and the arm is
      chosen again; without, it is skipped;
    * a run whose pooled documents are all judged drops out; the query is done when every run
      has.

    Two public re-implementations disagree with each other and with this rule on the
    non-stationary part (one keeps only the last judgment and stays on a run after a hit — the
    ``last_only`` variant; one uses a window of 50 rewards with 10 % exploration; neither gives
    a free reward), hence the parameters and the name "discounted MaxMean".

    What could NOT be verified, and why: only the abstracts of both papers (and of Voorhees,
    "On building fair and reusable test collections using bandit techniques", CIKM 2018, on
    NIST's use in TREC 2017 Common Core) were reachable when this was checked (2026-11-23:
    the search tool's page store holds each paper's first page only, and no public
    implementation of MM-NS was found in its code index). The abstract of the IP&M paper
    confirms five stationary and two non-stationary bandit methods, not their formulas. So the
    prior, the exact form and value of the non-stationary discount, the tie-breaking, the
    treatment of documents judged through another run, and what happens to an exhausted run
    follow the description above (our reading of MaxMean as the Bayesian posterior mean of a
    Bernoulli arm) and are unverified against the paper's section and equation; the tests
    (tests/domain/test_pooling.py) check this rule on hand-worked examples, not the paper's
    numbers.
    """

    def __init__(
        self,
        pool: Pool,
        *,
        discount: float = 0.9,
        relevant_from: float = 1.0,
        free_reward: bool = True,
        last_only: bool = False,
    ) -> None:
        if not 0.0 < discount <= 1.0:
            raise ValueError(f"bandit discount must be in (0, 1], got {discount}")
        super().__init__(pool)
        self.relevant_from = relevant_from
        self.discount = 0.0 if last_only else discount
        self.free_reward = free_reward
        self.last_only = last_only
        self._last = np.full(pool.n_queries, -1, dtype=np.int64)
        self._rel = np.zeros((pool.n_queries, pool.n_runs))
        self._non = np.zeros((pool.n_queries, pool.n_runs))
        self._live = np.ones((pool.n_queries, pool.n_runs), dtype=bool)
        self._source: dict[int, int] = {}

    def _reward(self, q: int, r: int, relevant: bool) -> None:
        lam = self.discount
        self._rel[q, r] = lam * self._rel[q, r] + float(relevant)
        self._non[q, r] = lam * self._non[q, r] + float(not relevant)

    def _pick(self, q: int) -> int | None:
        s = self.state
        while self._live[q].any():
            mean = (1.0 + self._rel[q]) / (2.0 + self._rel[q] + self._non[q])
            mean[~self._live[q]] = -1.0
            r = int(np.argmax(mean))
            last = int(self._last[q])
            if self.last_only and last >= 0 and self._live[q, last] and mean[last] == mean[r]:
                r = last  # stay on the run that hit
            lst, c = s.lists[q][r], s.cursor[q]
            consumed = False
            # documents already judged via another run: free rewards for this run (or skipped)
            while c[r] < len(lst) and s.judged[lst[c[r]]]:
                if self.free_reward:
                    self._reward(q, r, bool(s.grade[lst[c[r]]] >= self.relevant_from))
                    consumed = True
                c[r] += 1
            if c[r] >= len(lst):
                self._live[q, r] = False
                continue
            if consumed:
                continue  # the estimates changed: choose again
            self._source[lst[c[r]]] = r
            return lst[c[r]]
        return None

    def _update(self, q: int, p: int, relevant: bool) -> None:
        r = self._source.pop(p, None)
        if r is not None:
            self._reward(q, r, relevant)
            self.state.cursor[q][r] += 1
            self._last[q] = r


class ABChooser:
    """Runs A and B (or several pairs): the unjudged document whose grade can move the
    difference of mean nDCG@K the most first (Carterette, Allan & Sitaraman 2006,
    doi:10.1145/1148170.1148219, adapted to nDCG).

    Weight of pooled document p of query q for a pair (A, B):
    ``|disc_A(p) - disc_B(p)| / max(IDCG_q(revealed), 1)``, disc = 1/log2(rank + 1) within
    the cutoff K, else 0. Delta nDCG_q = Delta DCG_q / IDCG_q, and the IDCG is unknown until
    the query is judged: the ideal DCG of the grades revealed so far stands in for it (at
    least 1, the smallest ideal DCG of a query with a relevant document), so a query whose
    known ideal grows sends its remaining documents back. With several pairs the weights add
    up. Ties, and the documents of weight 0 (they only change IDCG), follow a seeded shuffle.

    Each query's documents keep a fixed order (weight descending, tie), so a heap holds each
    query's first unjudged one, keyed (-weight / scale_q, tie); an entry made stale by a reveal
    in its query is skipped when it surfaces: O(log n_queries) per proposal instead of a scan
    of every query (quadratic at 100,000 queries: bench_gui_scale Compare).
    """

    def __init__(
        self,
        pool: Pool,
        *,
        k: int,
        pairs: Sequence[tuple[int, int]] | None = None,
        seed: int = 0,
    ) -> None:
        weight = pair_weights(pool, k, pairs)
        self._k = k
        self._ideal_disc = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
        tie = np.random.default_rng(seed).permutation(pool.size)
        query = np.asarray(pool.query, dtype=np.int64)
        # every query's documents by (weight descending, tie), the queries one after another
        order = np.lexsort((tie, -weight, query))
        self._order: list[int] = order.tolist()
        self._neg_weight: list[float] = (-weight).tolist()
        self._tie: list[int] = tie.tolist()
        ends = np.cumsum(np.bincount(query, minlength=pool.n_queries)[: pool.n_queries])
        self._end: list[int] = ends.tolist()
        self._cursor: list[int] = [0, *self._end[:-1]] if pool.n_queries else []
        self._query: list[int] = query.tolist()
        self._top: list[list[float]] = [[] for _ in range(pool.n_queries)]
        self._scale: list[float] = [1.0] * pool.n_queries
        self._version: list[int] = [0] * pool.n_queries
        self._judged = bytearray(pool.size)
        self._heap: list[tuple[float, int, int, int, int]] = []
        self._ideal: dict[tuple[float, ...], float] = {}  # top grades -> their ideal DCG
        self._stale = 0  # entries on the heap that no longer are their query's head (at most)
        for q in range(pool.n_queries):
            entry = self._head(q)
            if entry is not None:
                self._heap.append(entry)
        heapq.heapify(self._heap)

    def _head(self, q: int) -> tuple[float, int, int, int, int] | None:
        """Query q's entry: its first unjudged document under its current scale (None: all
        judged); the judged documents before it are skipped for good."""
        i, end = self._cursor[q], self._end[q]
        order, judged = self._order, self._judged
        while i < end and judged[order[i]]:
            i += 1
        self._cursor[q] = i
        if i == end:
            return None
        p = order[i]
        return (self._neg_weight[p] / self._scale[q], self._tie[p], p, q, self._version[q])

    def next(self) -> int | None:
        heap, version = self._heap, self._version
        while heap and heap[0][4] != version[heap[0][3]]:
            heapq.heappop(heap)
        return heap[0][2] if heap else None

    def reveal(self, p: int, grade: float) -> None:
        self._judged[p] = 1
        q = self._query[p]
        # the top K grades revealed in q, descending (what sorting all of them would keep)
        top = self._top[q]
        g = max(float(grade), 0.0)
        i = len(top)
        while i and top[i - 1] < g:
            i -= 1
        top.insert(i, g)
        del top[self._k :]
        key = tuple(top)
        ideal = self._ideal.get(key)
        if ideal is None:
            ideal = self._ideal[key] = float(np.dot(top, self._ideal_disc[: len(top)]))
        self._scale[q] = max(ideal, 1.0)
        heap, stale = self._heap, self._version[q]
        self._version[q] = stale + 1
        entry = self._head(q)
        if heap and heap[0][3] == q and heap[0][4] == stale:
            # q's entry is on top (p was proposed): replace it rather than leave it stale
            if entry is None:
                heapq.heappop(heap)
            else:
                heapq.heapreplace(heap, entry)
        else:
            if entry is not None:
                heapq.heappush(heap, entry)
            # q's former entry is left stale: when they are half the heap (revealing the
            # judged documents first leaves one per judgment), keep the valid ones only
            self._stale += 1
            if self._stale > 1024 and 2 * self._stale > len(heap):
                version = self._version
                heap[:] = [e for e in heap if e[4] == version[e[3]]]
                heapq.heapify(heap)
                self._stale = 0

    def walk(self, grades: Sequence[float], limit: int) -> list[int]:
        """Up to ``limit`` rounds of ``p = next(); reveal(p, grades[p])`` (the proposals, in
        order), in one loop: the verdict walks a million of them at 100,000 queries."""
        out: list[int] = []
        heap, version, query = self._heap, self._version, self._query
        top_of, scale, cache, k = self._top, self._scale, self._ideal, self._k
        pop, replace = heapq.heappop, heapq.heapreplace
        while len(out) < limit:
            while heap and heap[0][4] != version[heap[0][3]]:
                pop(heap)
            if not heap:
                break
            p = heap[0][2]
            out.append(p)
            # reveal(p, grades[p]), with q's entry on top of the heap
            self._judged[p] = 1
            q = query[p]
            top = top_of[q]
            g = max(float(grades[p]), 0.0)
            i = len(top)
            while i and top[i - 1] < g:
                i -= 1
            top.insert(i, g)
            del top[k:]
            key = tuple(top)
            ideal = cache.get(key)
            if ideal is None:
                ideal = cache[key] = float(np.dot(top, self._ideal_disc[: len(top)]))
            scale[q] = max(ideal, 1.0)
            version[q] += 1
            entry = self._head(q)
            if entry is None:
                pop(heap)
            else:
                replace(heap, entry)
        return out


def make_chooser(
    strategy: Strategy,
    pool: Pool,
    *,
    k: int = 10,
    seed: int = 0,
    pairs: Sequence[tuple[int, int]] | None = None,
    bandit: BanditParams | None = None,
) -> Chooser:
    """The chooser of ``strategy`` (one of :data:`STRATEGIES`); ``bandit``: the parameters of
    ``bandit`` (None: the defaults of :class:`BanditParams`).

    Raises:
        ValueError: unknown strategy.
    """
    if strategy == "depth":
        return DepthChooser(pool, seed=seed)
    if strategy == "mtf":
        return MoveToFrontChooser(pool)
    if strategy == "bandit":
        b = bandit or BanditParams()
        return MaxMeanChooser(
            pool, discount=b.discount, free_reward=b.free_reward, last_only=b.last_only
        )
    if strategy == "ab":
        return ABChooser(pool, k=k, pairs=pairs, seed=seed)
    raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")


def judging_order(chooser: Chooser, grade_of: Callable[[int], float]) -> NDArray[np.int64]:
    """Drive ``chooser`` to the end, revealing ``grade_of(p)`` after each proposal.

    Returns the (P,) int64 order in which pool indices were judged (each exactly once).
    """
    order: list[int] = []
    seen: set[int] = set()
    while (p := chooser.next()) is not None:
        if p in seen:
            raise RuntimeError(f"strategy proposed pool index {p} twice")
        seen.add(p)
        order.append(p)
        g = grade_of(p)
        chooser.reveal(p, g if math.isfinite(g) else 0.0)
    return np.asarray(order, dtype=np.int64)
