"""Statistics over per-query scores: bootstrap CI of the mean, paired randomization test.

All resampling is vectorised in chunks (a matrix of random indices or signs) and is
deterministic for a given seed (``numpy.random.default_rng(seed)``). NaN values (queries
without judgments) are left out.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "MeanCI",
    "RunComparison",
    "bootstrap_mean_ci",
    "bootstrap_mean_cis",
    "compare_runs",
    "paired_randomization_test",
    "sign_flip_means",
    "sign_flips",
]

# Elements of one resampling matrix (chunk of resamples x queries).
_CHUNK_ELEMENTS = 1 << 21
# Elements of one chunk of sign flips: a chunk's words stay in a core's cache through the
# passes over them (bench_gui_scale.py Compare, the p-value). The statistics do not depend on
# the chunks: the generator's stream runs on across them and each row is its own mean.
_SIGN_FLIP_CHUNK_ELEMENTS = 1 << 17
# Elements of one chunk of bootstrap picks: their gather and row means stay nearer the cache
# (bench_gui_scale.py Review, the intervals). The intervals do not depend on the chunks: bounded
# draws below 2**32 take 32-bit halves that the generator keeps across calls.
_BOOTSTRAP_CHUNK_ELEMENTS = 1 << 19
# |delta| <= this is a tie in compare_runs.
TIE_TOLERANCE = 1e-12


class MeanCI(NamedTuple):
    """Mean with a bootstrap confidence interval; NaN fields when n = 0."""

    mean: float
    low: float
    high: float
    n: int


def _clean(values: ArrayLike, name: str) -> NDArray[np.float64]:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    return array


def check_resamples(n: int, name: str = "n_resamples") -> None:
    """Refuse fewer than one resample (or permutation: ``name`` is the argument's name).

    Raises:
        ValueError: ``n`` < 1, as ``<name> must be >= 1, got <n>``.
    """
    if n < 1:
        raise ValueError(f"{name} must be >= 1, got {n}")


def resample_chunks(total: int, width: int, elements: int | None = None) -> list[int]:
    """Sizes of the resampling chunks: ``total`` resamples of ``width`` queries, each chunk a
    matrix of at most ``elements`` cells (default ``_CHUNK_ELEMENTS``; one home: stability and
    multirun draw the same chunks, so their p-values equal this module's tests)."""
    size = max(1, (_CHUNK_ELEMENTS if elements is None else elements) // max(width, 1))
    return [min(size, total - start) for start in range(0, total, size)]


def bootstrap_mean_ci(
    values: ArrayLike,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> MeanCI:
    """Percentile bootstrap confidence interval of the mean over queries.

    SOURCE: Efron & Tibshirani (1993), "An Introduction to the Bootstrap", ch. 13 (percentile
    interval); queries are resampled with replacement, as in Sakai (2006) "Evaluating
    evaluation metrics based on the bootstrap" (SIGIR).

    Args:
        values: (n,) float per-query scores; NaN entries are ignored.
        n_resamples: number of bootstrap resamples (>= 1).
        confidence: two-sided confidence level in (0, 1).
        seed: seed of ``numpy.random.default_rng``; equal seeds give equal intervals.

    Returns:
        :class:`MeanCI` (mean, low, high, n) where n is the number of non-NaN values; the
        interval is the (1-c)/2 and (1+c)/2 quantiles (linear interpolation) of the resampled
        means. n = 0 gives NaNs; n = 1 gives a zero-width interval.

    Raises:
        ValueError: values not 1-D, n_resamples < 1 or confidence outside (0, 1).
    """
    return _bootstrap([_clean(values, "values")], n_resamples, confidence, seed)[0]


def bootstrap_mean_cis(
    samples: Sequence[ArrayLike],
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[MeanCI]:
    """:func:`bootstrap_mean_ci` of each sample (e.g. each run's per-query scores), equal to
    it to the bit, with the random picks drawn once for all the samples that hold as many
    non-NaN values: the picks depend on that count and the seed alone, and drawing them costs
    more than gathering a sample's values (``bench_gui_scale.py`` Review, the intervals).

    Args:
        samples: (n_i,) float arrays; NaN entries are ignored.
        n_resamples, confidence, seed: as :func:`bootstrap_mean_ci`, for every sample.

    Returns:
        One :class:`MeanCI` per sample, in their order.

    Raises:
        ValueError: a sample not 1-D (naming ``samples[i]``), n_resamples < 1 or confidence
            outside (0, 1).
    """
    arrays = [_clean(values, f"samples[{i}]") for i, values in enumerate(samples)]
    return _bootstrap(arrays, n_resamples, confidence, seed)


def _bootstrap(
    arrays: Sequence[NDArray[np.float64]], n_resamples: int, confidence: float, seed: int
) -> list[MeanCI]:
    """:func:`bootstrap_mean_cis` of checked 1-D arrays."""
    check_resamples(n_resamples)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    data = [array[~np.isnan(array)] for array in arrays]
    out: list[MeanCI] = []
    for values in data:
        n = int(values.shape[0])
        mean = float(values.mean()) if n else math.nan
        out.append(MeanCI(mean, mean, mean, n))  # n = 0: NaNs; n = 1: zero width
    by_count: dict[int, list[int]] = {}
    for i, values in enumerate(data):
        if values.shape[0] > 1:
            by_count.setdefault(int(values.shape[0]), []).append(i)
    alpha = 1.0 - confidence
    for n, members in by_count.items():
        rng = np.random.default_rng(seed)
        means = np.empty((len(members), n_resamples), dtype=np.float64)
        done = 0
        for size in resample_chunks(n_resamples, n, _BOOTSTRAP_CHUNK_ELEMENTS):
            picks = rng.integers(0, n, size=(size, n))
            for row, i in enumerate(members):
                means[row, done : done + size] = data[i][picks].mean(axis=1)
            done += size
        for row, i in enumerate(members):
            low, high = np.quantile(means[row], [alpha / 2.0, 1.0 - alpha / 2.0])
            out[i] = MeanCI(out[i].mean, float(low), float(high), n)
    return out


def paired_randomization_test(
    a: ArrayLike, b: ArrayLike, n_resamples: int = 10_000, seed: int = 0
) -> float:
    """Two-sided paired randomization (sign-flip permutation) test of mean(a - b) = 0.

    SOURCE: Smucker, Allan & Carterette (2007), "A comparison of statistical significance
    tests for information retrieval evaluation" (CIKM): under H0 the labels a/b of each query
    are exchangeable, so each per-query delta keeps or flips its sign with probability 1/2;
    the statistic is |mean delta|.

    When 2**n <= n_resamples all 2**n sign patterns are enumerated and the exact p-value
    is returned. Otherwise random sign patterns are drawn and p = (count + 1) /
    (n_resamples + 1), counting the observed pattern (Phipson & Smyth 2010, "Permutation
    p-values should never be zero"). Statistics within 1e-12 (relative) of the observed one
    count as "at least as extreme", so rounding never hides a tie.

    Args:
        a, b: (n,) float per-query scores of two runs, aligned by query; only queries where
            both are non-NaN are used.
        n_resamples: number of random sign patterns (>= 1).
        seed: seed of ``numpy.random.default_rng``.

    Returns:
        p-value in (0, 1]; NaN when no query is paired. Identical runs give 1.0.

    Raises:
        ValueError: a and b not 1-D of equal length, or n_resamples < 1.
    """
    deltas = _paired_deltas(a, b)[0]
    check_resamples(n_resamples)
    n = int(deltas.shape[0])
    if n == 0:
        return math.nan
    observed = abs(float(deltas.mean()))
    threshold = observed - 1e-12 * max(1.0, observed)
    if n < 63 and (1 << n) <= n_resamples:
        patterns = (np.arange(1 << n, dtype=np.int64)[:, None] >> np.arange(n)) & 1
        signs = 1.0 - 2.0 * patterns
        stats = np.abs((signs * deltas).mean(axis=1))
        return float(np.count_nonzero(stats >= threshold) / (1 << n))
    count = 0
    for stats in sign_flip_means(deltas, n_resamples, seed):
        count += int(np.count_nonzero(stats >= threshold))
    return (count + 1) / (n_resamples + 1)


def sign_flip_means(
    deltas: NDArray[np.float64], n_resamples: int, seed: int
) -> Iterator[NDArray[np.float64]]:
    """|mean(signs * deltas)| of ``n_resamples`` random sign patterns, chunk by chunk
    (:func:`resample_chunks` of ``_SIGN_FLIP_CHUNK_ELEMENTS`` cells): the patterns of
    :func:`sign_flips`, sign = 1 - 2 * pattern, and the means numpy takes of them, to the bit,
    whatever the chunks. Each pattern flips the sign bits of the deltas directly (-1 * d and
    1 * d are -d and d exactly)."""
    n = int(deltas.shape[0])
    bits = np.ascontiguousarray(deltas, dtype=np.float64).view(np.uint64)
    for flips in sign_flips(n, n_resamples, seed, _SIGN_FLIP_CHUNK_ELEMENTS):
        signed = np.bitwise_xor(flips, bits, out=flips).view(np.float64)
        yield np.abs(signed.mean(axis=1))


def sign_flips(
    n: int, n_resamples: int, seed: int, elements: int | None = None
) -> Iterator[NDArray[np.uint64]]:
    """The random sign patterns of ``rng.integers(0, 2, size=(n_resamples, n))``, ``rng =
    default_rng(seed)``, chunk by chunk (:func:`resample_chunks` of ``elements`` cells), each
    chunk a (size, n) uint64 array with bit 63 (a float64's sign bit) set where the pattern is
    1 and every other bit 0: XORed onto the bits of float64 values it multiplies them by 1 - 2
    * pattern, exactly. The patterns do not depend on the chunks.

    Faster than drawing the integers (bench_gui_scale.py Compare, the p-value and the N-run
    matrix): numpy draws each pattern value as the top bit of a 32-bit draw (Lemire's method
    over [0, 2)), and PCG64 gives two 32-bit draws per 64-bit output, the low half first; so
    the raw outputs give the bits. A check of the first draws against ``integers`` on a copy
    of the generator falls back to drawing the integers when numpy draws otherwise.
    """
    rng = np.random.default_rng(seed)
    chunks = resample_chunks(n_resamples, n, elements)
    sign_bit = np.uint64(1 << 63)
    if not _raw_bits_are_integers(seed):
        for size in chunks:
            yield rng.integers(0, 2, size=(size, n)).astype(np.uint64) << np.uint64(63)
        return
    pending: NDArray[np.uint64] = np.zeros(0, dtype=np.uint64)  # a high half left over
    for size in chunks:
        m = size * n
        raw = rng.bit_generator.random_raw((m - len(pending) + 1) // 2)
        halves = np.empty((len(raw), 2), dtype=np.uint64)
        np.left_shift(raw, np.uint64(32), out=halves[:, 0])  # the low half's top bit
        halves[:, 1] = raw  # the high half's top bit is bit 63 already
        stream = np.concatenate([pending, halves.reshape(-1)]) if len(pending) else halves
        stream = stream.reshape(-1)
        pending = stream[m:].copy()
        flips = stream[:m]
        flips &= sign_bit
        yield flips.reshape(size, n)


def _raw_bits_are_integers(seed: int) -> bool:
    """The patterns of :func:`sign_flip_means` from raw outputs are ``integers``' (this
    numpy, this generator), checked on fresh generators of ``seed``."""
    rng = np.random.default_rng(seed)
    if type(rng.bit_generator).__name__ != "PCG64":
        return False
    want = np.random.default_rng(seed).integers(0, 2, size=(3, 43))
    raw = rng.bit_generator.random_raw(65)
    got = np.stack([raw >> np.uint64(31), raw >> np.uint64(63)], axis=1).reshape(-1)[:129]
    return bool(np.array_equal(got & np.uint64(1), want.reshape(-1).astype(np.uint64)))


def _paired_deltas(
    a: ArrayLike, b: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.float64], NDArray[np.float64]]:
    first = _clean(a, "a")
    second = _clean(b, "b")
    if first.shape != second.shape:
        raise ValueError(f"a and b must have the same length: {first.shape} vs {second.shape}")
    paired = ~(np.isnan(first) | np.isnan(second))
    return first[paired] - second[paired], paired, first[paired], second[paired]


@dataclass(frozen=True, eq=False)
class RunComparison:
    """Paired comparison of two runs over the queries where both have a value.

    Attributes:
        paired: (n_queries,) bool, the queries used (both values non-NaN).
        deltas: (n,) float64 a - b for the paired queries, in query order.
        n: number of paired queries.
        mean_a, mean_b, mean_delta: means over the paired queries (NaN when n = 0).
        wins, losses, ties: counts of delta > tol, delta < -tol, |delta| <= tol (tol 1e-12).
        p_value: two-sided paired randomization test (:func:`paired_randomization_test`).
    """

    paired: NDArray[np.bool_]
    deltas: NDArray[np.float64]
    n: int
    mean_a: float
    mean_b: float
    mean_delta: float
    wins: int
    losses: int
    ties: int
    p_value: float


def compare_runs(
    a: ArrayLike, b: ArrayLike, n_resamples: int = 10_000, seed: int = 0, *, test: bool = True
) -> RunComparison:
    """Per-query deltas, wins/losses/ties, mean delta and p-value of run a vs run b.

    SOURCE: randomization test of Smucker et al. (2007), see
    :func:`paired_randomization_test`.

    Args:
        a, b: (n_queries,) float per-query scores aligned by query (NaN = no value).
        n_resamples, seed: passed to :func:`paired_randomization_test`.
        test: False leaves the p-value NaN (the deltas first; the test, the costly part at
            100,000 queries, can follow: ``replace(c, p_value=paired_randomization_test(a,
            b, n_resamples, seed))`` gives the same comparison as ``test=True``).

    Returns:
        A :class:`RunComparison`.

    Raises:
        ValueError: a and b not 1-D of equal length.
    """
    deltas, paired, first, second = _paired_deltas(a, b)
    n = int(deltas.shape[0])
    if n == 0:
        mean_a = mean_b = mean_delta = math.nan
    else:
        mean_a, mean_b, mean_delta = float(first.mean()), float(second.mean()), float(deltas.mean())
    return RunComparison(
        paired=paired,
        deltas=deltas,
        n=n,
        mean_a=mean_a,
        mean_b=mean_b,
        mean_delta=mean_delta,
        wins=int(np.count_nonzero(deltas > TIE_TOLERANCE)),
        losses=int(np.count_nonzero(deltas < -TIE_TOLERANCE)),
        ties=int(np.count_nonzero(np.abs(deltas) <= TIE_TOLERANCE)),
        p_value=(
            paired_randomization_test(a, b, n_resamples=n_resamples, seed=seed)
            if test
            else math.nan
        ),
    )
