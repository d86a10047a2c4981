"""Would the decision change under other grades? Run orders under several grade sets.

A *grade set* is one way of turning judgments into qrels: one annotator's own grades, one
judgment source's (a vendor's, a model's, a team's), or a consensus rule over everyone. Each grade
set gives every (run, query) an nDCG@K; this module compares what the grade sets conclude:

* the spread of nDCG@K per (query, run) over the grade sets (max - min), the column "queries
  whose score depends most on who judged";
* the runs' order by mean nDCG@K under each set, Kendall's tau-b and tau_AP between every two
  orders (:mod:`ndcg_studio.domain.statistics.rank_correlation`), the run pairs whose order flips;
* the run pairs whose *significance* flips: the paired randomization test
  (:func:`ndcg_studio.domain.statistics.resampling.paired_randomization_test`, Smucker et al. 2007)
  finds a
  difference at level alpha under one set and not (or the other way round) under another;
* for two runs, one sentence: "A better than B under 5 of 6 grade sets; flips under ada's grades".

SOURCE: the question and the method (system orderings under different assessors compared by
Kendall's tau) are Voorhees (2000), "Variations in relevance judgments and the measurement of
retrieval effectiveness", IP&M 36(5); tau_AP is Yilmaz, Aslam & Robertson (SIGIR 2008).

Pure numpy, no database.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.statistics.rank_correlation import (
    discordant_pairs,
    kendall_tau_b,
    tau_ap_symmetric,
)
from ndcg_studio.domain.statistics.resampling import paired_randomization_test, resample_chunks

__all__ = [
    "GradeSet",
    "PairStability",
    "RunPairVerdict",
    "StabilityResult",
    "ndcg_spread",
    "run_means",
    "stability",
]

#: Two means closer than this are a tie (the same order either way).
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class GradeSet:
    """One grade set: a short ``name`` (CSV cell, e.g. ``ada``, ``source:vendor``,
    ``consensus:median``) and a ``phrase`` for sentences (``ada's grades``)."""

    name: str
    phrase: str


def run_means(ndcg: ArrayLike) -> NDArray[np.float64]:
    """Mean nDCG@K of each run over the queries with a value (NaN = no judgments: left out).

    Args:
        ndcg: float64[n_runs, n_queries], NaN where the grade set judged nothing of the query.

    Returns:
        float64[n_runs]; NaN for a run without any value.

    Raises:
        ValueError: not 2-D.
    """
    m = np.asarray(ndcg, dtype=np.float64)
    if m.ndim != 2:
        raise ValueError(f"ndcg must be 2-D (runs x queries), got shape {m.shape}")
    have = ~np.isnan(m)
    total = np.where(have, m, 0.0).sum(axis=1)
    count = have.sum(axis=1)
    out = np.full(m.shape[0], np.nan)
    np.divide(total, count, out=out, where=count > 0)
    return out


def ndcg_spread(values: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Min and max over grade sets of each (query, run) nDCG, ignoring NaN.

    Args:
        values: float64[n_sets, n_groups] (NaN where a set judged nothing of the group's query).

    Returns:
        ``(low, high)``, each float64[n_groups]; NaN where no set has a value. The spread is
        ``high - low`` (0 where one set only has a value).
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise ValueError(f"values must be 2-D (sets x groups), got shape {v.shape}")
    have = (~np.isnan(v)).any(axis=0)
    low = np.full(v.shape[1], np.nan)
    high = np.full(v.shape[1], np.nan)
    if v.shape[0]:
        low[have] = np.nanmin(v[:, have], axis=0)
        high[have] = np.nanmax(v[:, have], axis=0)
    return low, high


@dataclass(frozen=True)
class PairStability:
    """Two grade sets' run orders compared.

    Attributes:
        set_a, set_b: indices into :attr:`StabilityResult.sets`.
        kendall_tau: tau-b between the runs' means (ties as in ``scipy.stats.kendalltau``);
            NaN when fewer than 2 runs have a mean under both or one set ties every run.
        tau_ap: symmetric tau_AP (mean of both directions), NaN when fewer than 2 runs.
        n_runs: runs with a mean under both sets.
        flipped: run index pairs ``(i, j)`` that set a orders i above j and set b j above i.
    """

    set_a: int
    set_b: int
    kendall_tau: float
    tau_ap: float
    n_runs: int
    flipped: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class RunPairVerdict:
    """What each grade set says about two runs i < j.

    Attributes:
        run_a, run_b: run indices, ``run_a < run_b``.
        delta: float64[n_sets] mean nDCG of a minus b over their paired queries (NaN: none).
        p_value: float64[n_sets] paired randomization test (NaN when untested or no query).
        direction: int8[n_sets] +1 a better, -1 b better, 0 tie or no value.
        significant: int8[n_sets] direction where ``p_value < alpha``, else 0.
    """

    run_a: int
    run_b: int
    delta: NDArray[np.float64]
    p_value: NDArray[np.float64]
    direction: NDArray[np.int8]
    significant: NDArray[np.int8]

    @property
    def order_flips(self) -> bool:
        """Some set says a > b and another b > a."""
        return bool((self.direction > 0).any() and (self.direction < 0).any())

    @property
    def significance_flips(self) -> bool:
        """The sets disagree on the test's verdict (a sig. better / b sig. better / neither),
        among the sets with a value."""
        have = ~np.isnan(self.delta)
        return len(set(self.significant[have].tolist())) > 1


@dataclass(frozen=True, eq=False)
class StabilityResult:
    """Run orders under every grade set and how they differ.

    Attributes:
        sets: the grade sets, in the order given.
        runs: the run names.
        means: float64[n_sets, n_runs] mean nDCG@K (NaN: no value).
        pairs: every two sets a < b (``n_sets (n_sets - 1) / 2`` entries, in (0,1), (0,2)... order).
        verdicts: every two runs i < j.
        alpha: the significance level used.
    """

    sets: tuple[GradeSet, ...]
    runs: tuple[str, ...]
    means: NDArray[np.float64]
    pairs: tuple[PairStability, ...]
    verdicts: tuple[RunPairVerdict, ...]
    alpha: float
    n_resamples: int = field(default=10_000)

    def tau_matrix(self, which: str = "kendall_tau") -> NDArray[np.float64]:
        """Symmetric float64[n_sets, n_sets] of ``kendall_tau`` or ``tau_ap`` (diagonal 1)."""
        n = len(self.sets)
        out = np.eye(n)
        for p in self.pairs:
            out[p.set_a, p.set_b] = out[p.set_b, p.set_a] = getattr(p, which)
        return out

    def flipped_label(self, pair: PairStability) -> str:
        """``A>B|C>D``: the flipped run pairs, each in set a's order."""
        return "|".join(self.order_label(pair.set_a, i, j) for i, j in pair.flipped)

    def order_label(self, set_index: int, i: int, j: int) -> str:
        """``A>B`` with A the run that grade set ``set_index`` puts first."""
        if self.means[set_index, i] >= self.means[set_index, j]:
            return f"{self.runs[i]}>{self.runs[j]}"
        return f"{self.runs[j]}>{self.runs[i]}"

    def verdict(self, run_a: str, run_b: str) -> RunPairVerdict:
        """The verdict of two runs by name (either order).

        Raises:
            LookupError: an unknown run, or the same run twice.
        """
        for run in (run_a, run_b):
            if run not in self.runs:
                raise LookupError(f"unknown run {run!r}; known: {', '.join(self.runs)}")
        i, j = sorted((self.runs.index(run_a), self.runs.index(run_b)))
        for v in self.verdicts:
            if (v.run_a, v.run_b) == (i, j):
                return v
        raise LookupError(f"{run_a!r} and {run_b!r} are the same run")

    def sentence(self, run_a: str, run_b: str) -> str:
        """ "A better than B under 5 of 6 grade sets; flips under ada's grades".

        A is the run better under more sets (``run_a`` when as many say each). Sets with no
        value for the pair do not count in "of N"; a tie counts in N but not as "better", and
        is named after "tied under". No flip: "...; never flips".
        """
        v = self.verdict(run_a, run_b)
        have = ~np.isnan(v.delta)
        n = int(have.sum())
        first, second = v.run_a, v.run_b
        a_wins = int((v.direction > 0).sum())
        b_wins = int((v.direction < 0).sum())
        sign = 1
        if b_wins > a_wins or (b_wins == a_wins and self.runs[v.run_b] == run_a):
            first, second, sign = v.run_b, v.run_a, -1
        better = a_wins if sign > 0 else b_wins
        flips = [self.sets[s].phrase for s in np.flatnonzero(v.direction == -sign).tolist()]
        ties = [self.sets[s].phrase for s in np.flatnonzero(have & (v.direction == 0)).tolist()]
        text = (
            f"{self.runs[first]} better than {self.runs[second]} under {better} of {n} grade sets"
        )
        text += f"; flips under {_join(flips)}" if flips else "; never flips"
        if ties:
            text += f"; tied under {_join(ties)}"
        return text


#: Sign patterns are cached up to this many cells per query count (16 MB of float64).
_CACHE_CELLS = 2_000_000


class _RandomizationTests:
    """:func:`~ndcg_studio.domain.statistics.resampling.paired_randomization_test` for many delta
    vectors.

    That test seeds its generator afresh on every call, so every call with the same seed,
    number of resamples and number of queries flips the same sign patterns; drawing them costs
    two thirds of a test. Here they are drawn once per query count (in the same chunks, from
    the same generator) and reused, so each p-value is exactly the one the test returns
    (tests/domain/test_stability.py checks it); above :data:`_CACHE_CELLS` the test is called.
    """

    def __init__(self, n_resamples: int, seed: int) -> None:
        self.n_resamples = n_resamples
        self.seed = seed
        self._signs: dict[int, list[NDArray[np.float64]]] = {}

    def _patterns(self, n: int) -> list[NDArray[np.float64]]:
        signs = self._signs.get(n)
        if signs is None:
            if n < 63 and (1 << n) <= self.n_resamples:  # every pattern, as the test does
                patterns = (np.arange(1 << n, dtype=np.int64)[:, None] >> np.arange(n)) & 1
                signs = [np.asarray(1.0 - 2.0 * patterns, dtype=np.float64)]
            else:
                rng = np.random.default_rng(self.seed)
                signs = [
                    np.asarray(1.0 - 2.0 * rng.integers(0, 2, size=(size, n)), dtype=np.float64)
                    for size in resample_chunks(self.n_resamples, n)
                ]
            self._signs[n] = signs
        return signs

    def p_value(self, a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
        """The test's p-value of paired ``a`` and ``b`` (no NaN)."""
        n = int(a.size)
        if n == 0 or n * self.n_resamples > _CACHE_CELLS:
            return paired_randomization_test(a, b, n_resamples=self.n_resamples, seed=self.seed)
        deltas = a - b
        observed = abs(float(deltas.mean()))
        threshold = observed - 1e-12 * max(1.0, observed)
        exact = n < 63 and (1 << n) <= self.n_resamples
        count = sum(
            int(np.count_nonzero(np.abs((signs * deltas).mean(axis=1)) >= threshold))
            for signs in self._patterns(n)
        )
        return count / (1 << n) if exact else (count + 1) / (self.n_resamples + 1)


def _join(words: list[str]) -> str:
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def stability(
    sets: list[GradeSet],
    runs: list[str],
    ndcg: ArrayLike,
    *,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int = 0,
    test: bool = True,
) -> StabilityResult:
    """Compare the run orders and significance verdicts of several grade sets.

    Args:
        sets: the n_sets grade sets.
        runs: the n_runs run names.
        ndcg: float64[n_sets, n_runs, n_queries] nDCG@K of every (run, query) under each set;
            NaN where the set has no judgment of the query (left out of the means and tests).
        alpha: significance level of the paired randomization test, in (0, 1).
        n_resamples, seed: of
        :func:`ndcg_studio.domain.statistics.resampling.paired_randomization_test`
            (the same seed for every set, so two equal sets give equal p-values).
        test: run the significance tests (False: p-values NaN, no significance flips).

    Returns:
        A :class:`StabilityResult`. tau-b is computed over the runs that have a mean under both
        sets (normally all).

    Raises:
        ValueError: shapes that do not match ``sets`` and ``runs``, alpha outside (0, 1).
    """
    values = np.asarray(ndcg, dtype=np.float64)
    if values.shape[:2] != (len(sets), len(runs)) or values.ndim != 3:
        raise ValueError(
            f"ndcg must have shape ({len(sets)}, {len(runs)}, n_queries), got {values.shape}"
        )
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    means = np.stack([run_means(m) for m in values]) if len(sets) else np.zeros((0, len(runs)))
    pairs = [_pair_stability(means, a, b) for a, b in combinations(range(len(sets)), 2)]
    tests = _RandomizationTests(n_resamples, seed) if test else None
    verdicts = [
        _run_pair_verdict(values, i, j, alpha, tests) for i, j in combinations(range(len(runs)), 2)
    ]
    return StabilityResult(
        sets=tuple(sets),
        runs=tuple(runs),
        means=means,
        pairs=tuple(pairs),
        verdicts=tuple(verdicts),
        alpha=alpha,
        n_resamples=n_resamples,
    )


def _pair_stability(means: NDArray[np.float64], a: int, b: int) -> PairStability:
    """tau-b, tau_AP and the flipped run pairs of grade sets a and b, over the runs with a mean
    under both."""
    both = ~(np.isnan(means[a]) | np.isnan(means[b]))
    idx = np.flatnonzero(both)
    x, y = means[a, idx], means[b, idx]
    n = int(idx.size)
    return PairStability(
        set_a=a,
        set_b=b,
        kendall_tau=kendall_tau_b(x, y) if n >= 2 else math.nan,
        tau_ap=tau_ap_symmetric(x, y) if n >= 2 else math.nan,
        n_runs=n,
        flipped=tuple((int(idx[i]), int(idx[j])) for i, j in discordant_pairs(x, y)),
    )


def _run_pair_verdict(
    values: NDArray[np.float64],
    i: int,
    j: int,
    alpha: float,
    tests: _RandomizationTests | None,
) -> RunPairVerdict:
    """Runs i vs j under every grade set: mean difference over the paired queries, its
    direction, and (with ``tests``) the randomization p-value and the significant direction."""
    n_sets = values.shape[0]
    delta = np.full(n_sets, np.nan)
    p = np.full(n_sets, np.nan)
    for s in range(n_sets):
        a, b = values[s, i], values[s, j]
        paired = ~(np.isnan(a) | np.isnan(b))
        if paired.any():
            delta[s] = float(np.mean(a[paired] - b[paired]))
            if tests is not None:
                p[s] = tests.p_value(a[paired], b[paired])
    direction = np.where(
        np.isnan(delta), 0, np.where(np.abs(delta) <= TIE_TOLERANCE, 0, np.sign(delta))
    ).astype(np.int8)
    significant = np.where(p < alpha, direction, 0).astype(np.int8)
    return RunPairVerdict(i, j, delta, p, direction, significant)
