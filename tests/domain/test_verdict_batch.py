"""The relaxation bound for many queries at once equals the per-query one (the oracle,
``verdict._upper_relaxed``) on random pools: every case split (N can or cannot turn positive,
nothing relevant known, no unjudged document, every document judged), fractional grades, ties
of gain and of w, and lists shorter and longer than K."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.domain import verdict
from ndcg_studio.domain.verdict_batch import upper_relaxed_rows


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
        got = upper_relaxed_rows(row, sign * w, g, n_rows, k, top, verdict._ROUNDS)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_rows_in_several_chunks(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ndcg_studio.domain import verdict_batch

    rng = np.random.default_rng(3)
    n_rows, k = 50, 5
    row = np.repeat(np.arange(n_rows), rng.integers(0, 8, n_rows)).astype(np.intp)
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    w = rng.choice(np.r_[0.0, disc], row.size) - rng.choice(np.r_[0.0, disc], row.size)
    g = np.where(rng.random(row.size) < 0.4, rng.integers(0, 5, row.size).astype(float), np.nan)
    want = _one_by_one(row, w, g, n_rows, k, 4.0)
    monkeypatch.setattr(verdict_batch, "_ROWS_PER_CHUNK", 7)
    got = upper_relaxed_rows(row, w, g, n_rows, k, 4.0, verdict._ROUNDS)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert (want != 0).sum() > 10  # the rows are not trivially 0
