"""services.verdict: the pair verdict read from a database, against the domain functions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.domain.pooling.strategies import ABChooser, build_pool
from ndcg_studio.domain.verdict.bounds import VerdictInputs, delta_bounds
from ndcg_studio.domain.verdict.estimates import expected_grades, probability_a_better
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.verdict import (
    PairVerdict,
    judgments_to_settle,
    pair_verdict,
    pool_grades,
    pool_judgments,
    verdict_text,
)

# "zeta" sorts after "alpha": A is not the loader's first run
RUN_A, RUN_B = "zeta", "alpha"
N_Q, N_RESULTS, DEPTH = 5, 12, 6


def _collection(
    tmp_path: Path, seed: int, judged_fraction: float
) -> tuple[dict[str, dict[int, list[int]]], dict[tuple[int, int], int]]:
    rng = np.random.default_rng(seed)
    lists: dict[str, dict[int, list[int]]] = {}
    for name in (RUN_A, RUN_B):
        lists[name] = {
            q: rng.choice(30, size=N_RESULTS, replace=False).tolist() for q in range(N_Q)
        }
        lines = [
            f"{q + 1} Q0 D{d} {i + 1} {100 - i} {name}"
            for q, docs in lists[name].items()
            for i, d in enumerate(docs)
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
    pooled = sorted(
        {(q, d) for run in lists.values() for q, docs in run.items() for d in docs[:DEPTH]}
    )
    qrels = {(q, d): int(rng.integers(0, 5)) for q, d in pooled if rng.random() < judged_fraction}
    text = "".join(f"{q + 1} 0 D{d} {g}\n" for (q, d), g in qrels.items())
    (tmp_path / "judge.qrels").write_text(text)
    return lists, qrels


def _load(db: Any, tmp_path: Path) -> None:
    imp = ImportService(db)
    for name in (RUN_A, RUN_B):
        imp.import_run(tmp_path / f"{name}.run")
    imp.import_qrels(tmp_path / "judge.qrels", annotator="judge")


def _oracle_pool(
    lists: dict[str, dict[int, list[int]]], qrels: dict[tuple[int, int], int]
) -> tuple[Any, np.ndarray]:
    """The same pool built directly from the files (run 0 = A)."""
    rows = [
        (r, q, d, i + 1)
        for r, name in enumerate((RUN_A, RUN_B))
        for q, docs in lists[name].items()
        for i, d in enumerate(docs)
    ]
    run, query, doc, rank = (np.array(c, dtype=np.int64) for c in zip(*rows, strict=True))
    pool = build_pool(run, query, doc, rank, n_runs=2, n_queries=N_Q, depth=DEPTH)
    grades = np.array(
        [qrels.get((int(q), int(d)), np.nan) for q, d in zip(pool.query, pool.doc, strict=True)]
    )
    return pool, grades


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_partial_judgments_match_the_domain(db: Any, tmp_path: Path, seed: int) -> None:
    lists, qrels = _collection(tmp_path, seed, judged_fraction=0.4)
    _load(db, tmp_path)
    settings = ScoringSettings(k=5)
    pool, grades = pool_grades(db, settings, RUN_A, RUN_B, DEPTH)
    want_pool, want_grades = _oracle_pool(lists, qrels)

    # document indices differ (database ids): compare (query, rank in A, rank in B, grade)
    def rows(p: Any, g: np.ndarray) -> list[tuple[int, int, int, float]]:
        return sorted(
            zip(
                p.query.tolist(),
                p.rank[0].tolist(),
                p.rank[1].tolist(),
                np.nan_to_num(g, nan=-1.0).tolist(),
                strict=True,
            )
        )

    assert rows(pool, grades) == rows(want_pool, want_grades)  # A is run 0
    # every judgment lies in the pool (as when judging in the app): no query is complete
    assert not pool_judgments(db, settings, RUN_A, RUN_B, DEPTH)[2].any()

    v = pair_verdict(db, settings, RUN_A, RUN_B, depth=DEPTH)
    b = delta_bounds(VerdictInputs(want_pool, want_grades, 5))
    assert (v.pooled, v.judged) == (want_pool.size, len(qrels))
    assert (v.low, v.high) == pytest.approx((b.mean_low, b.mean_high), abs=1e-12)
    assert v.decided == b.decided
    # the Monte Carlo draws follow the pool's document order: the service's own pool
    assert v.p_a_better == probability_a_better(VerdictInputs(pool, grades, 5))
    assert v.to_settle == judgments_to_settle(VerdictInputs(pool, grades, 5))
    # B vs A: the interval mirrors, P(A better) complements (up to ties)
    w = pair_verdict(db, settings, RUN_B, RUN_A, depth=DEPTH)
    assert (w.low, w.high) == pytest.approx((-v.high, -v.low), abs=1e-12)


def test_queries_judged_outside_the_pool_are_taken_as_complete(db: Any, tmp_path: Path) -> None:
    """#17.2: a query with a judgment of a document outside the pool (here D99, returned by
    neither run) has qrels of its own: the estimates read its unjudged documents as not
    relevant (trec_eval); the sound interval stays the one over every grade."""
    _, qrels = _collection(tmp_path, 11, judged_fraction=0.3)
    with (tmp_path / "judge.qrels").open("a") as f:
        f.write("1 0 D99 3\n3 0 D99 2\n")  # queries 0 and 2
    _load(db, tmp_path)
    settings = ScoringSettings(k=5)
    pool, grades, complete = pool_judgments(db, settings, RUN_A, RUN_B, DEPTH)
    assert complete.tolist() == [True, False, True, False, False]
    v = pair_verdict(db, settings, RUN_A, RUN_B, depth=DEPTH)
    b = delta_bounds(VerdictInputs(pool, grades, 5))
    assert (v.low, v.high) == (b.mean_low, b.mean_high)  # (c): not an estimate, unchanged
    assert v.judged == len(qrels)  # the pooled ones
    assert v.p_a_better == probability_a_better(VerdictInputs(pool, grades, 5), complete=complete)
    assert v.to_settle == judgments_to_settle(VerdictInputs(pool, grades, 5), complete=complete)


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_judgments_to_settle_replays_the_ab_order(db: Any, tmp_path: Path, seed: int) -> None:
    lists, qrels = _collection(tmp_path, seed, judged_fraction=0.3)
    pool, grades = _oracle_pool(lists, qrels)
    n = judgments_to_settle(VerdictInputs(pool, grades, 5))
    # replay: the ab order with the judged documents revealed first, expected grades after
    expected = expected_grades(pool, grades)
    chooser = ABChooser(pool, k=5, pairs=[(0, 1)])
    for p in np.flatnonzero(~np.isnan(grades)):
        chooser.reveal(int(p), float(grades[p]))
    order = []
    while (p := chooser.next()) is not None:
        order.append(p)
        chooser.reveal(p, float(expected[p]))
    assert len(order) == int(np.isnan(grades).sum())
    assert n is not None and 0 < n < len(order)  # these seeds: 38, 42, 37 and 28 of 41-47

    def decided_after(m: int) -> bool:
        g = grades.copy()
        g[order[:m]] = expected[order[:m]]
        return delta_bounds(VerdictInputs(pool, g, 5)).decided

    if n is None:
        assert not any(decided_after(m) for m in range(len(order) + 1))
    else:
        assert decided_after(n)
        assert not any(decided_after(m) for m in range(n))


def test_identical_runs_never_settle() -> None:
    # Delta is 0 under every grade: the interval [0, 0] never excludes 0
    rank = np.array([[1, 2, 3], [1, 2, 3]])
    pool = build_pool(
        np.repeat([0, 1], 3),
        np.zeros(6, int),
        np.tile([0, 1, 2], 2),
        rank.ravel(),
        n_runs=2,
        n_queries=1,
        depth=3,
    )
    assert judgments_to_settle(VerdictInputs(pool, np.array([np.nan, 2.0, np.nan]), 3)) is None


def test_everything_judged_is_the_normal_scoring(db: Any, tmp_path: Path) -> None:
    _collection(tmp_path, 10, judged_fraction=1.0)
    _load(db, tmp_path)
    report = ScoringService(db).score(ScoringSettings(k=5))
    mean = {n: float(np.nanmean(report.table.ndcg[report.for_run(n)])) for n in (RUN_A, RUN_B)}
    v = pair_verdict(db, ScoringSettings(k=5), RUN_A, RUN_B, depth=DEPTH)
    assert v.judged == v.pooled
    delta = mean[RUN_A] - mean[RUN_B]
    assert v.low == pytest.approx(delta, abs=1e-12)
    assert v.high == pytest.approx(delta, abs=1e-12)
    assert v.to_settle == 0
    assert v.p_a_better == (1.0 if delta > 0 else 0.0)
    assert v.better == (RUN_A if delta > 0 else RUN_B)


def test_bad_requests(db: Any, tmp_path: Path) -> None:
    _collection(tmp_path, 1, judged_fraction=0.5)
    _load(db, tmp_path)
    with pytest.raises(ValueError, match="depth"):
        pair_verdict(db, ScoringSettings(), RUN_A, RUN_B, depth=0)
    with pytest.raises(ValueError, match="different"):
        pair_verdict(db, ScoringSettings(), RUN_A, RUN_A, depth=5)
    with pytest.raises(LookupError):
        pair_verdict(db, ScoringSettings(), RUN_A, "nope", depth=5)


def _v(**kw: Any) -> PairVerdict:
    base: dict[str, Any] = dict(
        run_a="bm25",
        run_b="title",
        k=10,
        depth=10,
        pooled=1140,
        judged=312,
        low=0.012,
        high=0.08,
        to_settle=0,
        p_a_better=0.97,
    )
    base.update(kw)
    return PairVerdict(**base)


def test_sentences() -> None:
    text = verdict_text(_v())
    assert text.startswith("bm25 better than title — decided after 312 of 1,140 pooled documents")
    assert "∈ [+0.0120, +0.0800]" in text and "P(A better) ≈ 97% (estimate)" in text
    text = verdict_text(_v(low=-0.08, high=-0.01, p_a_better=0.02))
    assert text.startswith("title better than bm25 — decided after 312 of 1,140")
    text = verdict_text(_v(low=-0.05, high=0.02, to_settle=214, p_a_better=0.3))
    assert text.startswith("Not yet decided (312 of 1,140 pooled documents judged, depth 10)")
    assert "about 214 more judgments would settle it at the current rate (estimate" in text
    assert "P(A better) ≈ 30% (estimate)" in text
    assert "about 1 more judgment would" in verdict_text(_v(low=-0.05, to_settle=1))
    text = verdict_text(_v(low=-0.05, to_settle=None))
    assert "would not settle it (estimate)" in text
