"""Statistics for N runs scored on the same queries: ANOVA, pairwise intervals, corrected p-values.

Input everywhere: ``scores``, a float64 matrix of shape (n_runs, n_queries), row i the
per-query scores (e.g. nDCG@K) of run i on the same queries in the same order. The matrix must
be complete (no NaN): a two-way ANOVA without replication and the topic-blocked permutation
need every run on every query, so callers keep only the queries that every run has a value for.

All resampling is vectorised over resamples (chunks of resamples x queries, or one matrix
product over runs) and is deterministic for a given seed (``numpy.random.default_rng(seed)``).

Sources:

* Two-way ANOVA without replication (runs x queries; :mod:`ndcg_studio.domain.statistics.anova`,
  re-exported here): Sakai (2014), "Statistical reform in information retrieval?", SIGIR
  Forum 48(1); any textbook (e.g. Montgomery, "Design and Analysis of Experiments",
  randomized complete block design).
* Effect size: standardized mean difference Δ / sqrt(V_E), V_E the residual mean square of
  that ANOVA (Sakai 2014, section on effect sizes).
* Paired randomization test: Smucker, Allan & Carterette (2007), CIKM; the same sign-flip test
  as :func:`ndcg_studio.domain.statistics.resampling.paired_randomization_test` (identical p-values
  for the
  same seed; up to three pairs, that test pair by pair, otherwise all pairs at once).
* Topic-blocked randomised Tukey HSD: Carterette (2012), "Multiple testing in statistical
  analysis of systems-based information retrieval experiments", ACM TOIS 30(1), Algorithm 1.
* Holm-Bonferroni: Holm (1979), "A simple sequentially rejective multiple test procedure",
  Scandinavian Journal of Statistics 6(2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ndcg_studio.domain.statistics.anova import AnovaTable, score_matrix, two_way_anova
from ndcg_studio.domain.statistics.resampling import (
    bootstrap_mean_cis,
    check_resamples,
    paired_randomization_test,
    resample_chunks,
    sign_flips,
)

__all__ = [
    "PairwiseComparison",
    "bootstrap_pair_intervals",
    "compare_many",
    "holm_adjust",
    "pair_indices",
    "permuted_run_ranges",
    "randomised_tukey_hsd",
    "randomization_p_values",
]

# Elements of one (permutations x queries x runs) block of the Tukey HSD: small enough for the
# block's passes (mask, sort, gather, sum) to stay in the CPU cache.
_TUKEY_CHUNK_ELEMENTS = 1 << 17
# Up to this many pairs, each pair's interval and randomization test are computed alone: its
# gathers and sign flips cost less than the matrix products of every run's (bench_gui_scale.py
# Compare, the N-run matrix of two runs; bench_multirun.py).
_PAIRS_ONE_BY_ONE = 3
# Statistics within this (relative) of the observed one count as "at least as extreme",
# as in domain.stats.paired_randomization_test.
_TIE = 1e-12


def pair_indices(n_runs: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """All unordered pairs (a, b) with a < b, in row-major order ((0,1), (0,2), ..., (1,2), ...).

    Returns:
        Two (n_runs * (n_runs - 1) / 2,) intp arrays.
    """
    first, second = np.triu_indices(n_runs, k=1)
    return first.astype(np.intp), second.astype(np.intp)


# --------------------------------------------------------------------------------------------
# Pairwise bootstrap intervals and randomization p-values
# --------------------------------------------------------------------------------------------


def bootstrap_pair_intervals(
    scores: ArrayLike, n_resamples: int = 10_000, confidence: float = 0.95, seed: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Paired percentile bootstrap interval of mean(run_a - run_b) for every pair a < b.

    SOURCE: Efron & Tibshirani (1993) ch. 13 (percentile interval); queries are resampled with
    replacement, the same queries for both runs of a pair (Sakai 2006, SIGIR, "Evaluating
    evaluation metrics based on the bootstrap"). One resample of queries serves every pair,
    drawn exactly as :func:`ndcg_studio.domain.statistics.resampling.bootstrap_mean_ci` draws
    it: up to three pairs, each pair's interval is ``bootstrap_mean_ci(scores[a] - scores[b],
    ...)`` (:func:`~ndcg_studio.domain.statistics.resampling.bootstrap_mean_cis`, the picks
    drawn once); with more, the resampled mean of a - b is the difference of the resampled
    means of a and b, so the (resamples x runs) matrix of resampled means is one matrix
    product, and the intervals equal those up to float rounding (tested).

    Args:
        scores: (n_runs >= 2, n_queries >= 2) float, finite.
        n_resamples: number of bootstrap resamples (>= 1).
        confidence: two-sided level in (0, 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        (low, high): two (n_pairs,) float64 arrays in :func:`pair_indices` order.

    Raises:
        ValueError: bad matrix (see :func:`two_way_anova`), n_resamples < 1 or confidence
            outside (0, 1).
    """
    x = score_matrix(scores)
    check_resamples(n_resamples)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    r, n = x.shape
    a, b = pair_indices(r)
    if len(a) <= _PAIRS_ONE_BY_ONE:
        pairs = zip(a.tolist(), b.tolist(), strict=True)
        cis = bootstrap_mean_cis([x[i] - x[j] for i, j in pairs], n_resamples, confidence, seed)
        return np.array([ci.low for ci in cis]), np.array([ci.high for ci in cis])
    rng = np.random.default_rng(seed)
    means = np.empty((n_resamples, r), dtype=np.float64)
    xt = np.ascontiguousarray(x.T)
    done = 0
    for size in resample_chunks(n_resamples, n):
        picks = rng.integers(0, n, size=(size, n))
        offsets = (np.arange(size, dtype=np.int64) * n)[:, None]
        counts = np.bincount((picks + offsets).ravel(), minlength=size * n).reshape(size, n)
        means[done : done + size] = (counts @ xt) / n
        done += size
    deltas = means[:, a] - means[:, b]
    alpha = 1.0 - confidence
    low, high = np.quantile(deltas, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def randomization_p_values(
    scores: ArrayLike, n_resamples: int = 10_000, seed: int = 0
) -> NDArray[np.float64]:
    """Two-sided paired randomization (sign-flip) test of every pair a < b, uncorrected.

    SOURCE: Smucker, Allan & Carterette (2007), CIKM. Same test, same random sign patterns
    and same p-values as :func:`ndcg_studio.domain.statistics.resampling.paired_randomization_test`
    applied to
    each pair with the same seed (tested): up to three pairs it is that test, pair by pair;
    with more, for a sign pattern s, mean(s * (a - b)) = mean(s * a) - mean(s * b), so one
    (patterns x runs) matrix product serves every pair (the statistics equal up to float
    rounding). Exact enumeration when 2**n_queries <= n_resamples; otherwise p = (count + 1) /
    (n_resamples + 1).

    Args:
        scores: (n_runs >= 2, n_queries >= 2) float, finite.
        n_resamples: number of random sign patterns (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        (n_pairs,) float64 p-values in (0, 1], :func:`pair_indices` order.

    Raises:
        ValueError: bad matrix or n_resamples < 1.
    """
    x = score_matrix(scores)
    check_resamples(n_resamples)
    r, n = x.shape
    a, b = pair_indices(r)
    if len(a) <= _PAIRS_ONE_BY_ONE:
        pairs = zip(a.tolist(), b.tolist(), strict=True)
        tests = [paired_randomization_test(x[i], x[j], n_resamples, seed) for i, j in pairs]
        return np.asarray(tests, dtype=np.float64)
    observed = np.abs((x[a] - x[b]).mean(axis=1))
    threshold = observed - _TIE * np.maximum(1.0, observed)
    xt = np.ascontiguousarray(x.T)
    if n < 63 and (1 << n) <= n_resamples:
        patterns = (np.arange(1 << n, dtype=np.int64)[:, None] >> np.arange(n)) & 1
        signed = ((1.0 - 2.0 * patterns) @ xt) / n
        stats = np.abs(signed[:, a] - signed[:, b])
        hits = np.count_nonzero(stats >= threshold, axis=0)
        return np.asarray(hits / float(1 << n), dtype=np.float64)
    count = np.zeros(a.shape[0], dtype=np.int64)
    one = np.float64(1.0).view(np.uint64)
    for flips in sign_flips(n, n_resamples, seed):
        signs = np.bitwise_or(flips, one, out=flips).view(np.float64)  # 1 - 2 * pattern
        signed = (signs @ xt) / n
        stats = np.abs(signed[:, a] - signed[:, b])
        count += np.count_nonzero(stats >= threshold, axis=0)
    return np.asarray((count + 1) / (n_resamples + 1.0), dtype=np.float64)


# --------------------------------------------------------------------------------------------
# Multiple comparisons
# --------------------------------------------------------------------------------------------


def permuted_run_ranges(
    scores: ArrayLike, n_permutations: int = 1000, seed: int = 0
) -> NDArray[np.float64]:
    """max - min of the run means after permuting the run labels within every query.

    SOURCE: Carterette (2012), ACM TOIS 30(1), Algorithm 1 (the null distribution of the
    randomised Tukey HSD). Each permutation shuffles, independently for every query, which run
    gets which of that query's r scores, uniformly among the r! orders: sort r random keys
    whose lowest ``bits`` bits (bit length of r - 1) are replaced by 0..r-1 and read the run
    indices back from those bits. Keys are unsigned ``width``-bit integers, width = 32 for
    r <= 16 and 64 above, taken from ``rng.bit_generator.random_raw``: each permutation uses
    the next ceil(n_queries * n_runs * width / 64) raw 64-bit words, viewed as width-bit keys,
    the first n_queries * n_runs of them laid out as (n_queries, n_runs) (so the draws do not
    depend on how permutations are grouped into chunks). In permutation p, run i receives the
    score of the run in the low bits of the i-th smallest key of query j. Equal random high
    bits (probability about r**2 / 2**(width - bits + 1) per query and permutation, below 2e-7
    for r = 10) break towards the lower run index.

    Args:
        scores: (n_runs >= 2, n_queries >= 2) float, finite.
        n_permutations: number of permutations (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        (n_permutations,) float64 ranges of the permuted run means.

    Raises:
        ValueError: bad matrix or n_permutations < 1.
    """
    x = score_matrix(scores)
    check_resamples(n_permutations, "n_permutations")
    r, n = x.shape
    bits = max(1, (r - 1).bit_length())
    key_type: type[np.unsignedinteger[Any]] = np.uint32 if bits <= 4 else np.uint64
    per_raw = 2 if key_type is np.uint32 else 1
    sort_runs = None if r == 2 else _RunSort(x, bits, key_type)
    rng = np.random.default_rng(seed)
    ranges = np.empty(n_permutations, dtype=np.float64)
    size = max(1, _TUKEY_CHUNK_ELEMENTS // (n * r))
    done = 0
    while done < n_permutations:
        size = min(size, n_permutations - done)
        words = -(-(n * r) // per_raw)  # raw words per permutation
        raw = rng.bit_generator.random_raw(size * words)
        keys = raw.view(key_type).reshape(size, words * per_raw)[:, : n * r].reshape(size, n, r)
        picked = _two_runs_permuted(keys, x) if sort_runs is None else sort_runs.permuted(keys)
        sums = np.einsum("pjr->pr", picked)
        ranges[done : done + size] = (sums.max(axis=1) - sums.min(axis=1)) / n
        done += size
    return ranges


class _RunSort:
    """The sort and gather of :func:`permuted_run_ranges` for three runs or more: the
    scores laid out query by query and each query's offset in that layout, prepared once a
    call (two runs take :func:`_two_runs_permuted`, which needs neither)."""

    def __init__(
        self, x: NDArray[np.float64], bits: int, key_type: type[np.unsignedinteger[Any]]
    ) -> None:
        r, n = x.shape
        self.flat = np.ascontiguousarray(x.T).ravel()  # query j's scores at j*r .. j*r + r-1
        self.low = key_type((1 << bits) - 1)
        self.runs = np.arange(r, dtype=key_type)
        self.index_type: type[np.signedinteger[Any]] = np.int32 if n * r < 2**31 else np.intp
        self.row_start = (np.arange(n, dtype=self.index_type) * r)[:, None]

    def permuted(self, keys: NDArray[np.unsignedinteger[Any]]) -> NDArray[np.float64]:
        """(size, n, r) float64 each query's scores in the order of its (size, n, r) random
        keys (sorted in place): the run in the low bits of the i-th smallest key gives slot i."""
        keys &= ~self.low
        keys |= self.runs
        keys.sort(axis=2)
        keys &= self.low
        source = keys.astype(self.index_type)
        source += self.row_start
        return np.take(self.flat, source)


def _two_runs_permuted(
    keys: NDArray[np.unsignedinteger[Any]], x: NDArray[np.float64]
) -> NDArray[np.float64]:
    """(size, n, 2) float64 the two runs' scores of each query in the order of their (size, n,
    2) random keys, as the sort of :func:`permuted_run_ranges` gives it: run 1 first when its
    key is the smaller without the low bit (run 0 first on a tie, the low bits being 0 and
    1). One comparison instead of the sort and the gather (bench_gui_scale.py Compare, the
    N-run matrix of two runs)."""
    swap = (keys[:, :, 0] >> 1) > (keys[:, :, 1] >> 1)
    picked = np.empty(keys.shape)
    for slot in (0, 1):
        np.copyto(picked[:, :, slot], x[slot])
        np.copyto(picked[:, :, slot], x[1 - slot], where=swap)
    return picked


def randomised_tukey_hsd(
    scores: ArrayLike, n_permutations: int = 1000, seed: int = 0
) -> NDArray[np.float64]:
    """Topic-blocked randomised Tukey HSD: adjusted p-value of every pair a < b.

    SOURCE: Carterette (2012), "Multiple testing in statistical analysis of systems-based
    information retrieval experiments", ACM TOIS 30(1), Algorithm 1: permute the run labels
    within each query B times (:func:`permuted_run_ranges`); the adjusted p-value of a pair is
    the share of permutations whose range of run means (max - min) is >= the pair's observed
    |mean delta|. The observed labelling counts as one of the permutations, so
    p = (count + 1) / (B + 1) and never 0 (Phipson & Smyth 2010, as in
    :func:`ndcg_studio.domain.statistics.resampling.paired_randomization_test`). Ranges within 1e-12
    (relative) of |delta| count as >=. Controls the family-wise error rate over all pairs;
    unlike ``scipy.stats.tukey_hsd`` (one-way, independent groups) it keeps the pairing of runs
    by query.

    Args:
        scores: (n_runs >= 2, n_queries >= 2) float, finite.
        n_permutations: B >= 1.
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        (n_pairs,) float64 adjusted p-values in (0, 1], :func:`pair_indices` order.

    Raises:
        ValueError: bad matrix or n_permutations < 1.
    """
    x = score_matrix(scores)
    ranges = np.sort(permuted_run_ranges(x, n_permutations, seed))
    a, b = pair_indices(x.shape[0])
    observed = np.abs(x[a].mean(axis=1) - x[b].mean(axis=1))
    threshold = observed - _TIE * np.maximum(1.0, observed)
    at_least = ranges.shape[0] - np.searchsorted(ranges, threshold, side="left")
    return np.asarray((at_least + 1) / (ranges.shape[0] + 1.0), dtype=np.float64)


def holm_adjust(p_values: ArrayLike) -> NDArray[np.float64]:
    """Holm-Bonferroni adjusted p-values of one family of tests.

    SOURCE: Holm (1979), Scand. J. Statist. 6(2): with the m p-values sorted ascending
    p_(1) <= ... <= p_(m), p_adj(i) = min(1, max_{k <= i} (m - k + 1) p_(k)). Equal to
    ``statsmodels.stats.multitest.multipletests(p, method='holm')[1]`` (tested).

    Args:
        p_values: (m,) float in [0, 1]; NaN entries are left out of the family and stay NaN.

    Returns:
        (m,) float64 adjusted p-values in the input order.

    Raises:
        ValueError: not 1-D or a value outside [0, 1].
    """
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"p_values must be 1-D, got shape {p.shape}")
    valid = ~np.isnan(p)
    if np.any((p[valid] < 0) | (p[valid] > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    out = np.full(p.shape, np.nan)
    family = p[valid]
    m = family.shape[0]
    if m == 0:
        return out
    order = np.argsort(family, kind="stable")
    scaled = (m - np.arange(m)) * family[order]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    out[valid] = adjusted
    return out


# --------------------------------------------------------------------------------------------
# Everything at once
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PairwiseComparison:
    """All pairs of N runs; pair arrays are (n_pairs,) in :func:`pair_indices` order (a < b).

    Attributes:
        anova: the two-way ANOVA table of the score matrix.
        run_a, run_b: intp run indices of each pair.
        mean_a, mean_b: float64 mean score of each run over the queries.
        delta: float64 mean_a - mean_b.
        ci_low, ci_high: float64 paired bootstrap interval of delta
            (:func:`bootstrap_pair_intervals`).
        effect_size: float64 delta / sqrt(anova.ms_residual) (Sakai 2014); +-inf when the
            residual variance is 0 and delta != 0, NaN when both are 0.
        p: float64 uncorrected paired randomization p-value (:func:`randomization_p_values`).
        p_tukey: float64 randomised Tukey HSD adjusted p-value over all pairs
            (:func:`randomised_tukey_hsd`).
        p_holm: float64 Holm-adjusted p over the family of pairs that involve a baseline;
            NaN for the other pairs and when no baseline is given.
        baselines: the baseline run indices (sorted, distinct).
        n_queries: number of queries.
    """

    anova: AnovaTable
    run_a: NDArray[np.intp]
    run_b: NDArray[np.intp]
    mean_a: NDArray[np.float64]
    mean_b: NDArray[np.float64]
    delta: NDArray[np.float64]
    ci_low: NDArray[np.float64]
    ci_high: NDArray[np.float64]
    effect_size: NDArray[np.float64]
    p: NDArray[np.float64]
    p_tukey: NDArray[np.float64]
    p_holm: NDArray[np.float64]
    baselines: tuple[int, ...]
    n_queries: int


def compare_many(
    scores: ArrayLike,
    *,
    baselines: Sequence[int] = (),
    n_resamples: int = 10_000,
    n_permutations: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairwiseComparison:
    """ANOVA, pairwise deltas with intervals, effect sizes and corrected p-values of N runs.

    SOURCE: see the module docstring (Sakai 2014; Smucker et al. 2007; Carterette 2012;
    Holm 1979). Every component uses its own ``default_rng(seed)``, so each equals the
    component function called with the same seed.

    Args:
        scores: (n_runs >= 2, n_queries >= 2) float, finite.
        baselines: run indices compared with every other run under Holm's correction (the
            family = all distinct pairs involving at least one baseline).
        n_resamples: bootstrap resamples and randomization sign patterns (>= 1).
        n_permutations: permutations of the randomised Tukey HSD (>= 1).
        confidence: level of the bootstrap interval, in (0, 1).
        seed: seed of every random draw.

    Returns:
        A :class:`PairwiseComparison`.

    Raises:
        ValueError: bad matrix or parameters, or a baseline index outside [0, n_runs).
    """
    x = score_matrix(scores)
    r, n = x.shape
    chosen = _baselines(baselines, r)
    anova = two_way_anova(x)
    a, b = pair_indices(r)
    means = x.mean(axis=1)
    delta = means[a] - means[b]
    low, high = bootstrap_pair_intervals(x, n_resamples, confidence, seed)
    with np.errstate(divide="ignore", invalid="ignore"):
        effect = delta / math.sqrt(anova.ms_residual)
    p = randomization_p_values(x, n_resamples, seed)
    p_tukey = randomised_tukey_hsd(x, n_permutations, seed)
    in_family = np.isin(a, chosen) | np.isin(b, chosen)
    p_holm = holm_adjust(np.where(in_family, p, np.nan))
    return PairwiseComparison(
        anova=anova,
        run_a=a,
        run_b=b,
        mean_a=means[a],
        mean_b=means[b],
        delta=delta,
        ci_low=low,
        ci_high=high,
        effect_size=np.asarray(effect, dtype=np.float64),
        p=p,
        p_tukey=p_tukey,
        p_holm=p_holm,
        baselines=chosen,
        n_queries=n,
    )


def _baselines(baselines: Sequence[int], n_runs: int) -> tuple[int, ...]:
    """The baseline run indices, sorted and distinct.

    Raises:
        ValueError: an index outside [0, n_runs).
    """
    chosen = tuple(sorted({int(i) for i in baselines}))
    for index in chosen:
        if not 0 <= index < n_runs:
            raise ValueError(f"baseline run index {index} out of range [0, {n_runs})")
    return chosen
