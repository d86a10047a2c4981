"""The relaxation bound for many queries at once equals the per-query one (the oracle,
``verdict._upper_relaxed``) on random pools: every case split (N can or cannot turn positive,
nothing relevant known, no unjudged document, every document judged), fractional grades, ties
of gain and of w, and lists shorter and longer than K."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain.verdict import bounds as verdict
from ndcg_studio.domain.verdict.batch import upper_relaxed_rows


@st.composite
def rows(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, float]:
    n_rows = draw(st.integers(1, 12))
    k = draw(st.integers(1, 6))
    top = draw(st.sampled_from([4.0, 3.0, 4.5]))
    # w from differences of a few discounts (ties and zeros are common), grades with NaN
    disc = [0.0, *(1.0 / np.log2(np.arange(2, k + 2))).tolist()]
    row, w, g = [], [], []
    for r in range(n_rows):
        for _ in range(draw(st.integers(0, 9))):
            row.append(r)
            w.append(draw(st.sampled_from(disc)) - draw(st.sampled_from(disc)))
            g.append(draw(st.sampled_from([np.nan, np.nan, 0.0, 1.0, 2.0, 4.0, 2.5, -1.0])))
    return (
        np.array(row, dtype=np.intp),
        np.array(w, dtype=float),
        np.array(g, dtype=float),
        n_rows,
        k,
        top,
    )


def _one_by_one(row, w, g, n_rows, k, top):  # type: ignore[no-untyped-def]
    out = np.zeros(n_rows)
    for r in range(n_rows):
        here = row == r
        if not here.any():
            continue
        known = ~np.isnan(g[here])
        gk = np.maximum(g[here][known], 0.0)
        out[r] = verdict._upper_relaxed(w[here][known], gk, w[here][~known], k, top)
    return out


@settings(max_examples=400, deadline=None)
@given(rows())
def test_rows_equal_the_per_query_relaxation(case) -> None:  # type: ignore[no-untyped-def]
    row, w, g, n_rows, k, top = case
    for sign in (1.0, -1.0):  # the upper bound and (minus) the lower one
        want = _one_by_one(row, sign * w, g, n_rows, k, top)
        got = upper_relaxed_rows(row, sign * w, g, n_rows, k, top, verdict.ROUNDS)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_rows_in_several_chunks(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ndcg_studio.domain.verdict import batch as verdict_batch

    rng = np.random.default_rng(3)
    n_rows, k = 50, 5
    row = np.repeat(np.arange(n_rows), rng.integers(0, 8, n_rows)).astype(np.intp)
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    w = rng.choice(np.r_[0.0, disc], row.size) - rng.choice(np.r_[0.0, disc], row.size)
    g = np.where(rng.random(row.size) < 0.4, rng.integers(0, 5, row.size).astype(float), np.nan)
    want = _one_by_one(row, w, g, n_rows, k, 4.0)
    monkeypatch.setattr(verdict_batch, "_ROWS_PER_CHUNK", 7)
    got = upper_relaxed_rows(row, w, g, n_rows, k, 4.0, verdict.ROUNDS)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert (want != 0).sum() > 10  # the rows are not trivially 0


def _positive_rows_every_round(c, g_known, known_real, w, w_real, k, top, rounds):  # type: ignore[no-untyped-def]
    """verdict_batch._positive_rows as it was: every row through every round (the oracle of
    the rows that stop once their maximiser repeats)."""
    from ndcg_studio.domain.pooling.strategies import discounts
    from ndcg_studio.domain.verdict.batch import _ratio_rows

    n_rows, mk = g_known.shape
    width = mk + w.shape[1]
    d = discounts(np.arange(1, k + 1), k)
    kk = min(k, width)
    real = np.concatenate([known_real, w_real], axis=1)
    neg_tiebreak = np.concatenate([np.full((n_rows, mk), -np.inf), -w], axis=1)
    g0 = np.where(known_real, g_known, 0.0)
    rows = np.arange(n_rows)[:, None]
    best = np.full(n_rows, np.inf)
    x = np.zeros(w.shape)
    for _ in range(rounds):
        gains = np.where(real, np.concatenate([g_known, x], axis=1), -np.inf)
        order = np.lexsort((neg_tiebreak, -gains), axis=1)[:, :kk]
        e_all = np.zeros((n_rows, width))
        e_all[rows, order] = np.where(np.take_along_axis(real, order, 1), d[:kk], 0.0)
        a = (e_all[:, :mk] * g0).sum(axis=1)
        r, x = _ratio_rows(c, a, w, e_all[:, mk:], w_real, top)
        best = np.minimum(best, r)
    return np.asarray(np.minimum(best, 1.0), dtype=np.float64)


@pytest.mark.parametrize("seed", range(8))
def test_rows_that_stop_refining_give_the_same_bounds_to_the_bit(monkeypatch, seed) -> None:  # type: ignore[no-untyped-def]
    from ndcg_studio.domain.verdict import batch as verdict_batch

    rng = np.random.default_rng(seed)
    n_rows, k = 400, int(rng.integers(2, 11))
    row = np.repeat(np.arange(n_rows), rng.integers(0, 16, n_rows)).astype(np.intp)
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    w = rng.choice(np.r_[0.0, disc], row.size) - rng.choice(np.r_[0.0, disc], row.size)
    g = rng.integers(0, 13, row.size) / 3.0  # a mean of 3 annotators' grades
    g[rng.random(row.size) < rng.random()] = np.nan
    got = upper_relaxed_rows(row, w, g, n_rows, k, 4.0, verdict.ROUNDS)
    low = upper_relaxed_rows(row, -w, g, n_rows, k, 4.0, verdict.ROUNDS)
    monkeypatch.setattr(verdict_batch, "_positive_rows", _positive_rows_every_round)
    assert got.tobytes() == upper_relaxed_rows(row, w, g, n_rows, k, 4.0, verdict.ROUNDS).tobytes()
    assert low.tobytes() == upper_relaxed_rows(row, -w, g, n_rows, k, 4.0, verdict.ROUNDS).tobytes()
    assert len(np.unique(got)) > 20
