"""permuted_run_ranges with two runs orders each query's two keys by min / max instead of
numpy's sort: the ranges of the former sort of every key row (the oracle, copied here) to the
bit, hence the same randomised Tukey HSD p-values."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_studio.domain.statistics import multirun
from ndcg_studio.domain.statistics.multirun import permuted_run_ranges


def sorted_ranges(x: np.ndarray, n_permutations: int, seed: int) -> np.ndarray:
    """The former loop for two runs: 32-bit keys, low bit = run, sorted per query."""
    r, n = x.shape
    flat = np.ascontiguousarray(x.T).ravel()
    low, runs = np.uint32(1), np.arange(r, dtype=np.uint32)
    row_start = (np.arange(n, dtype=np.int32) * r)[:, None]
    rng = np.random.default_rng(seed)
    out = np.empty(n_permutations)
    size = max(1, multirun._TUKEY_CHUNK_ELEMENTS // (n * r))
    done = 0
    while done < n_permutations:
        size = min(size, n_permutations - done)
        words = -(-(n * r) // 2)
        raw = rng.bit_generator.random_raw(size * words)
        keys = raw.view(np.uint32).reshape(size, words * 2)[:, : n * r].reshape(size, n, r)
        keys &= ~low
        keys |= runs
        keys.sort(axis=2)
        keys &= low
        source = keys.astype(np.int32) + row_start
        sums = np.einsum("pjr->pr", np.take(flat, source))
        out[done : done + size] = (sums.max(axis=1) - sums.min(axis=1)) / n
        done += size
    return out


@pytest.mark.parametrize(
    ("n", "seed", "chunk"), [(3, 0, 1 << 17), (7, 1, 8), (1_000, 2, 1 << 17), (30_001, 3, 1 << 17)]
)
def test_two_runs_give_the_ranges_of_the_sort(
    monkeypatch: pytest.MonkeyPatch, n: int, seed: int, chunk: int
) -> None:
    monkeypatch.setattr(multirun, "_TUKEY_CHUNK_ELEMENTS", chunk)
    x = np.random.default_rng(seed).random((2, n))
    x[:, ::3] = 0.5  # ties between the runs
    want = sorted_ranges(x, 300, seed)
    assert permuted_run_ranges(x, 300, seed).tobytes() == want.tobytes()
    assert len(np.unique(want)) > 1
