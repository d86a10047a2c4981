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
    monkeypatch.setattr(verdict_batch, "_CELLS_PER_CHUNK", 7 * 8)
    got = upper_relaxed_rows(row, w, g, n_rows, k, 4.0, verdict.ROUNDS)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert (want != 0).sum() > 10  # the rows are not trivially 0


def _positive_rows_every_round(c, w_all, gk, known, unknown, by_gain, k, top, rounds):  # type: ignore[no-untyped-def]
    """verdict_batch._positive_rows without its stop: every row through every round (the
    oracle of the rows that stop once their maximiser repeats)."""
    from ndcg_studio.domain.pooling.strategies import discounts
    from ndcg_studio.domain.verdict.batch import _compact, _ranks, _ratio_rows, _row_sums

    width = gk.shape[1]
    d = np.zeros(width + 1)
    kk = min(k, width)
    d[:kk] = discounts(np.arange(1, k + 1), k)[:kk]
    rank_known = _ranks(known, by_gain)
    at_top = known & (gk >= top)
    n_top, n_known = at_top.sum(axis=1), known.sum(axis=1)
    w, real = _compact(unknown & (w_all > 0), w_all)
    by_w = np.argsort(np.where(real, -w, np.inf), axis=1, kind="stable")
    rank_w = np.empty_like(by_w)
    np.put_along_axis(rank_w, by_w, np.arange(w.shape[1])[None, :], axis=1)
    best = np.full(len(c), np.inf)
    x = np.zeros(w.shape, dtype=bool)
    for _ in range(rounds):
        n_x = x.sum(axis=1)
        place = rank_known + n_x[:, None] * ~at_top
        a = _row_sums(np.where(known, d[np.minimum(place, width)], 0.0) * gk)
        above = _ranks(x, by_w)
        place_x = np.where(x, n_top[:, None] + above, (n_known + n_x)[:, None] + rank_w - above)
        e = np.where(real, d[np.minimum(place_x, width)], 0.0)
        r, x = _ratio_rows(c, a, w, e, real, top)
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
