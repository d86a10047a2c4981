"""sign_flip_means (the paired randomization test's statistics from the generator's raw
outputs, in its own chunks) equals the former draw of ``rng.integers(0, 2, size=(size, n))``
in the chunks of :func:`resample_chunks`, kept here as the oracle: the same statistics to the
bit and the same p-values, for chunk sizes that leave half a raw output over and chunks that
differ from the oracle's, and through the fallback."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.statistics import resampling as stats
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
