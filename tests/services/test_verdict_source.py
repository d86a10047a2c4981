"""The verdict from the scoring read the Compare view already made (PoolSource, from
load_report) is the verdict of its own read (pair_verdict without a source, the oracle): same
interval, count, estimate and pool; a third run with queries and documents of its own, two
annotators (fractional consensus grades), a judgment outside the pool; a pool deeper than
the read falls back to reading."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.domain.metrics.measures import Qrels
from ndcg_studio.domain.pooling.strategies import build_pool, discounts
from ndcg_studio.services import verdict
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.compare import load_report
from ndcg_studio.services.verdict import PoolSource, pair_verdict, pool_judgments

RUNS = ("zeta", "alpha", "mid")  # "zeta" sorts last: A is not the loader's first run
N_Q, N_RESULTS = 6, 12


def _load(db: Any, tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    imp = ImportService(db)
    for name in RUNS:
        # "mid" has a query of its own (7) and documents no other run returns (D40-D59)
        queries = range(1, N_Q + 2) if name == "mid" else range(1, N_Q + 1)
        top = 60 if name == "mid" else 40
        lines = [
            f"{q} Q0 D{d} {i + 1} {100 - i} {name}"
            for q in queries
            for i, d in enumerate(rng.choice(top, size=N_RESULTS, replace=False).tolist())
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
        imp.import_run(tmp_path / f"{name}.run")
    for annotator in ("ann1", "ann2"):
        pairs = {
            (int(q), int(d))
            for q, d in zip(rng.integers(1, N_Q + 2, 60), rng.integers(0, 40, 60), strict=True)
        }
        text = "".join(f"{q} 0 D{d} {int(rng.integers(0, 5))}\n" for q, d in sorted(pairs))
        (tmp_path / f"{annotator}.qrels").write_text(text + "2 0 D99 3\n")
        imp.import_qrels(tmp_path / f"{annotator}.qrels", annotator=annotator)


@pytest.mark.parametrize(("seed", "k", "depth"), [(1, 6, 6), (2, 6, 3), (3, 10, 5), (4, 5, 5)])
def test_the_scoring_read_gives_the_same_verdict(
    db: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, k: int, depth: int
) -> None:
    _load(db, tmp_path, seed)
    settings = ScoringSettings(k=k)
    source = load_report(db, settings).pool_source
    assert source is not None and source.truncated_at == k  # the view's read: top K only
    for a, b in (("zeta", "alpha"), ("alpha", "mid")):
        want = pair_verdict(db, settings, a, b, depth=depth)
        pool_w, grades_w, complete_w = pool_judgments(db, settings, a, b, depth)
        pool_s, grades_s, complete_s = source.pool_judgments(a, b, depth)
        assert pool_s.size == pool_w.size and pool_s.size > 0
        assert np.array_equal(grades_s, grades_w, equal_nan=True)
        # ranks below K are not read (0 here): the discounts, all the verdict uses, are equal
        assert np.array_equal(discounts(pool_s.rank, k), discounts(pool_w.rank, k))
        assert complete_s.sum() == complete_w.sum() > 0  # query 2's D99 is outside the pool
        with monkeypatch.context() as patch:  # the source is used: no second read
            patch.setattr(verdict, "pool_judgments", _no_read)
            got = pair_verdict(db, settings, a, b, depth=depth, source=source)
        for field in fields(want):
            assert getattr(got, field.name) == getattr(want, field.name), field.name


def test_a_pool_deeper_than_the_read_is_read(db: Any, tmp_path: Path) -> None:
    _load(db, tmp_path, 5)
    settings = ScoringSettings(k=4)
    source = load_report(db, settings).pool_source
    assert source is not None and not source.covers("zeta", "alpha", 8)
    want = pair_verdict(db, settings, "zeta", "alpha", depth=8)
    got = pair_verdict(db, settings, "zeta", "alpha", depth=8, source=source)
    assert got.__dict__ == want.__dict__
    with pytest.raises(ValueError, match="does not hold"):
        source.pool_judgments("zeta", "alpha", 8)
    with pytest.raises(ValueError, match="different"):
        source.pool_judgments("zeta", "zeta", 2)


def _no_read(*_: object) -> None:
    raise AssertionError("the verdict read the database again")


@pytest.mark.parametrize("parts", [1, 2, 3, 7])
def test_the_pool_in_parts_is_the_pool_of_every_row(parts: int) -> None:
    """PoolSource pools a range of queries at a time (peak memory): the same arrays as one
    build_pool of the two runs' rows, whatever the number of parts (more parts than queries
    included), run order and a third run in the read."""
    rng = np.random.default_rng(parts)
    n_q, runs = 5, ("x", "y", "z")
    group, doc, rank = [], [], []
    for r in range(len(runs)):
        for q in range(n_q):
            n = int(rng.integers(0, 9))
            group += [r * n_q + q] * n
            doc += rng.choice(12, size=n, replace=False).tolist()
            rank += list(range(1, n + 1))
    g, d, rk = (np.array(a, dtype=np.int64) for a in (group, doc, rank))
    source = PoolSource(
        group=g,
        doc=d,
        rank=rk,
        group_query=np.arange(len(runs) * n_q, dtype=np.int64) % n_q,
        qrels=Qrels(
            query=np.zeros(0, dtype=np.int64),
            doc=np.zeros(0, dtype=np.int64),
            grade=np.zeros(0),
        ),
        n_queries=n_q,
        run_names=runs,
        truncated_at=None,
    )
    for a, b in ((0, 2), (2, 1)):
        got = source._pool_in_parts(a, b, 4, parts)
        rows = (g // n_q == a) | (g // n_q == b)
        want = build_pool(
            np.where(g[rows] // n_q == a, 0, 1),
            g[rows] % n_q,
            d[rows],
            rk[rows],
            n_runs=2,
            n_queries=n_q,
            depth=4,
        )
        assert got.size > 0
        for name in ("query", "doc", "rank"):
            assert getattr(got, name).tolist() == getattr(want, name).tolist(), name
        assert (got.depth, got.n_queries) == (want.depth, want.n_queries)
