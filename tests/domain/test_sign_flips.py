"""sign_flip_means (the paired randomization test's statistics from the generator's raw
outputs, in its own chunks) equals the former draw of ``rng.integers(0, 2, size=(size, n))``
in the chunks of :func:`resample_chunks`, kept here as the oracle: the same statistics to the
bit and the same p-values, for chunk sizes that leave half a raw output over and chunks that
differ from the oracle's, and through the fallback; the N-run matrix's p-values, from the
same patterns, equal the ones it drew with ``integers``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.statistics import resampling as stats
from ndcg_studio.domain.statistics.multirun import pair_indices, randomization_p_values
from ndcg_studio.domain.statistics.resampling import (
    paired_randomization_test,
    resample_chunks,
    sign_flip_means,
)


def former_means(deltas: np.ndarray, n_resamples: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for size in resample_chunks(n_resamples, len(deltas)):
        signs = 1.0 - 2.0 * rng.integers(0, 2, size=(size, len(deltas)))
        out.append(np.abs((signs * deltas).mean(axis=1)))
    return out


def former_p(a: np.ndarray, b: np.ndarray, n_resamples: int, seed: int) -> float:
    deltas = a - b
    observed = abs(float(deltas.mean()))
    threshold = observed - 1e-12 * max(1.0, observed)
    count = sum(
        int(np.count_nonzero(s >= threshold)) for s in former_means(deltas, n_resamples, seed)
    )
    return (count + 1) / (n_resamples + 1)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 300),
    n_resamples=st.integers(1, 700),
    chunk=st.sampled_from([7, 64, 1001, 1 << 21]),
    flip_chunk=st.sampled_from([7, 64, 1001, 1 << 17]),
)
def test_the_same_statistics_to_the_bit(
    seed: int, n: int, n_resamples: int, chunk: int, flip_chunk: int
) -> None:
    deltas = np.random.default_rng(seed ^ 1).normal(size=n) * np.random.default_rng(seed).random()
    deltas[:: max(1, n // 5)] = 0.0  # ties and zeros
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats, "_CHUNK_ELEMENTS", chunk)  # odd sizes: half a raw output left over
        patch.setattr(stats, "_SIGN_FLIP_CHUNK_ELEMENTS", flip_chunk)
        want = former_means(deltas, n_resamples, seed)
        got = list(sign_flip_means(deltas, n_resamples, seed))
    assert len(got) == len(stats.resample_chunks(n_resamples, n, flip_chunk))
    assert np.concatenate(got).tobytes() == np.concatenate(want).tobytes()


@pytest.mark.parametrize(("n", "seed"), [(100, 0), (2_001, 3), (20_000, 7)])
def test_the_same_p_values(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.random(n)
    b = a - rng.normal(0.075 / np.sqrt(n), 0.05, n)  # p-values away from 0 and 1
    want = former_p(a, b, 10_000, seed)
    assert 0.001 < want < 1.0
    assert paired_randomization_test(a, b, seed=seed) == want


def test_the_fallback_draws_the_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    deltas = np.random.default_rng(5).normal(size=333)
    want = former_means(deltas, 500, 5)
    monkeypatch.setattr(stats, "_raw_bits_are_integers", lambda seed: False)
    monkeypatch.setattr(stats, "_SIGN_FLIP_CHUNK_ELEMENTS", 1001)  # other chunks than the oracle's
    got = list(sign_flip_means(deltas, 500, 5))
    assert np.concatenate(got).tobytes() == np.concatenate(want).tobytes()


def former_matrix_p_values(x: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """multirun.randomization_p_values as it was: the patterns drawn with ``integers``."""
    r, n = x.shape
    a, b = pair_indices(r)
    observed = np.abs((x[a] - x[b]).mean(axis=1))
    threshold = observed - 1e-12 * np.maximum(1.0, observed)
    xt = np.ascontiguousarray(x.T)
    rng = np.random.default_rng(seed)
    count = np.zeros(a.shape[0], dtype=np.int64)
    for size in resample_chunks(n_resamples, n):
        signs = 1.0 - 2.0 * rng.integers(0, 2, size=(size, n))
        signed = (signs @ xt) / n
        count += np.count_nonzero(np.abs(signed[:, a] - signed[:, b]) >= threshold, axis=0)
    return (count + 1) / (n_resamples + 1.0)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_runs=st.integers(2, 5),
    n=st.integers(10, 200),  # 2**n > n_resamples: drawn, not enumerated
    n_resamples=st.integers(200, 700),
    chunk=st.sampled_from([7, 64, 1001, 1 << 21]),
    fallback=st.booleans(),
)
def test_the_matrix_p_values_are_the_former_ones(
    seed: int, n_runs: int, n: int, n_resamples: int, chunk: int, fallback: bool
) -> None:
    """The N-run matrix's sign patterns from the raw outputs (or the fallback) are the ones
    ``integers`` drew: the same p-values, the ties of equal runs included."""
    x = np.random.default_rng(seed).random((n_runs, n))
    x[-1] = x[0]  # a pair whose every statistic ties with its observed 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats, "_CHUNK_ELEMENTS", chunk)
        want = former_matrix_p_values(x, n_resamples, seed)
        if fallback:
            patch.setattr(stats, "_raw_bits_are_integers", lambda seed: False)
        got = randomization_p_values(x, n_resamples, seed)
    assert got.tolist() == want.tolist()
