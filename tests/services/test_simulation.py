"""The simulator: exact at the end (equal to normal scoring), sound on the way, read-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import select

from ndcg_studio.domain.pooling.strategies import STRATEGIES
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.simulation import SIMULATION_COLUMNS, load_problem, simulate
from ndcg_studio.storage import models

RUNS = ("r1", "r2", "r3")


def _write_collection(
    tmp_path: Path, seed: int, depth: int, *, outside: bool
) -> tuple[list[Path], Path]:
    """3 runs x 6 queries x 15 results; qrels judge EVERY document of the depth pool (some 0),
    and with ``outside`` also documents no run ranks within the depth (ignored by the pool)."""
    rng = np.random.default_rng(seed)
    runs: list[Path] = []
    pooled: set[tuple[int, int]] = set()
    below: set[tuple[int, int]] = set()
    for name in RUNS:
        path = tmp_path / f"{name}.run"
        lines = []
        for q in range(1, 7):
            docs = rng.choice(40, size=15, replace=False)
            for i, d in enumerate(docs):
                lines.append(f"{q} Q0 D{d} {i + 1} {100 - i} {name}")
                (pooled if i < depth else below).add((q, int(d)))
        path.write_text("\n".join(lines) + "\n")
        runs.append(path)
    qrels = tmp_path / "judge.qrels"
    lines = [f"{q} 0 D{d} {rng.integers(0, 5)}" for q, d in sorted(pooled)]
    if outside:
        extra = sorted(below - pooled) + [(q, 100 + q) for q in range(1, 7)]
        lines += [f"{q} 0 D{d} 4" for q, d in extra]
    qrels.write_text("\n".join(lines) + "\n")
    return runs, qrels


def _load(db: Any, runs: list[Path], qrels: Path) -> None:
    imp = ImportService(db)
    for path in runs:
        imp.import_run(path)
    imp.import_qrels(qrels, annotator="judge")


def _snapshot(db: Any) -> list[Any]:
    with db.engine.connect() as conn:
        return [
            sorted(conn.execute(select(t)).all())
            for t in (models.results, models.judgments, models.runs, models.queries)
        ]


@pytest.mark.parametrize(("depth", "k"), [(5, 10), (10, 5), (15, 15)])
def test_final_numbers_equal_normal_scoring(db: Any, tmp_path: Path, depth: int, k: int) -> None:
    runs, qrels = _write_collection(tmp_path, seed=depth * 7 + k, depth=depth, outside=False)
    _load(db, runs, qrels)
    report = ScoringService(db).score(ScoringSettings(k=k))
    want = np.array(
        [np.nanmean(report.table.ndcg[report.for_run(name)]) for name in RUNS], dtype=float
    )
    before = _snapshot(db)
    problem = load_problem(db, list(RUNS), depth=depth, k=k)
    assert problem.run_names == list(RUNS)
    for strategy in STRATEGIES:
        result = simulate(problem, strategy, step=7, seed=3)
        np.testing.assert_allclose(result.final_means, want, rtol=0, atol=1e-12)
        np.testing.assert_allclose(result.truth_means, want, rtol=0, atol=1e-12)
        first, last = result.rows[0], result.rows[-1]
        assert len(first) == len(SIMULATION_COLUMNS)
        assert first[1] == 0 and last[1] == problem.pool.size
        assert [r[1] for r in result.rows[1:-1]] == list(range(7, problem.pool.size, 7))
        assert last[3] == 3  # every pair correct
        assert last[5] == pytest.approx(0.0, abs=1e-12)
        assert result.decided_wrong == 0
        assert result.pair_correct.shape == (len(result.rows), 3)
        assert result.pair_correct[-1].all() and result.pair_decided[-1].sum() == last[2]
        assert (result.pair_correct.sum(axis=1) == [r[3] for r in result.rows]).all()
        assert sorted(result.order.tolist()) == list(range(problem.pool.size))
    assert _snapshot(db) == before  # never writes


def test_judgments_outside_the_pool_are_ignored(tmp_path: Path, sqlite_url: str) -> None:
    from ndcg_studio.storage.database import open_database

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    rows = []
    for sub, outside in (("a", False), ("b", True)):
        db = open_database(f"sqlite:///{tmp_path / sub / 'x.sqlite'}")
        try:
            runs, qrels = _write_collection(tmp_path / sub, seed=11, depth=5, outside=outside)
            _load(db, runs, qrels)
            problem = load_problem(db, list(RUNS), depth=5, k=10)
            rows.append(simulate(problem, "mtf", step=5, seed=0).rows)
        finally:
            db.dispose()
    assert repr(rows[0]) == repr(rows[1])  # (NaN tau at 0 judgments: compare as text)


def test_bad_arguments(db: Any, tmp_path: Path) -> None:
    runs, qrels = _write_collection(tmp_path, seed=1, depth=5, outside=False)
    _load(db, runs, qrels)
    with pytest.raises(ValueError, match="two different runs"):
        load_problem(db, ["r1", "r1"], depth=5)
    with pytest.raises(ValueError, match="depth"):
        load_problem(db, ["r1", "r2"], depth=0)
    with pytest.raises(LookupError):
        load_problem(db, ["r1", "nope"], depth=5)
    problem = load_problem(db, ["r1", "r2"], depth=5)
    with pytest.raises(ValueError, match="step"):
        simulate(problem, "depth", step=0)
    with pytest.raises(ValueError, match="strategy"):
        simulate(problem, "random", step=1)  # type: ignore[arg-type]
