"""compare_report_runs: N runs from the database, checked against the domain on the same matrix."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from ndcg_studio.domain.statistics.multirun import compare_many
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.multirun import PAIR_COLUMNS, compare_report_runs
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings


@pytest.fixture
def three_runs(db: Any, tmp_path: Path) -> Any:
    rng = np.random.default_rng(5)
    docs = [f"d{i:02d}" for i in range(20)]
    qrels = []
    for q in range(25):  # q24 has no judgment: left out of the comparison
        if q < 24:
            qrels += [f"q{q:02d} 0 {d} {int(rng.integers(0, 3))}" for d in docs[:12]]
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    ImportService(db).import_qrels(tmp_path / "qrels.txt", annotator="a")
    for name, shift in (("base", 0.0), ("better", 0.6), ("same", 0.0)):
        lines = []
        for q in range(25):
            score = rng.random(20) + shift * (np.arange(20) < 12)
            order = np.argsort(-score, kind="stable")
            for rank, i in enumerate(order.tolist(), start=1):
                lines.append(f"q{q:02d} Q0 {docs[i]} {rank} {score[i]:.6f} {name}")
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n")
        ImportService(db).import_run(path)
    return db


def test_three_runs_against_the_domain(three_runs: Any) -> None:
    report = ScoringService(three_runs).score(ScoringSettings(k=5))
    result = compare_report_runs(report, ["base", "better", "same"], n_resamples=2000, seed=3)
    assert result.n_queries == 24 and result.n_dropped == 1
    assert "q24" not in result.query_external
    matrix = np.vstack([report.table.ndcg[report.for_run(r)] for r in ["base", "better", "same"]])
    expected = compare_many(matrix[:, :24], n_resamples=2000, seed=3)
    np.testing.assert_array_equal(result.comparison.p_tukey, expected.p_tukey)
    rows = list(result.rows("tukey"))
    assert len(rows) == 3 and len(rows[0]) == len(PAIR_COLUMNS)
    assert [r[:2] for r in rows] == [("base", "better"), ("base", "same"), ("better", "same")]
    for row in rows:
        assert row[4] == pytest.approx(row[2] - row[3])
        assert row[5] <= row[4] <= row[6]
        assert row[9] >= row[8] - 0.02
    # the better run stands out, the two others do not
    assert rows[0][9] < 0.05 and rows[2][9] < 0.05 and rows[1][9] > 0.05
    assert 0 < result.min_detectable_delta < 1
    # the current query count is just enough for the smallest detectable delta
    assert result.queries_needed(result.min_detectable_delta * 1.0001).n_queries <= 24
    assert result.queries_needed(result.min_detectable_delta / 2).n_queries > 24


def test_baseline_rows_put_the_baseline_first(three_runs: Any) -> None:
    report = ScoringService(three_runs).score(ScoringSettings(k=5))
    result = compare_report_runs(
        report, ["better", "base", "same"], baselines=["base"], n_resamples=1000
    )
    rows = list(result.rows("holm"))
    assert [r[:2] for r in rows] == [("base", "better"), ("base", "same")]
    assert rows[0][4] < 0  # base - better
    assert rows[0][5] <= rows[0][4] <= rows[0][6]
    holm = multipletests([r[8] for r in rows], method="holm")[1]
    np.testing.assert_allclose([r[9] for r in rows], holm)
    plain = compare_report_runs(report, ["better", "base", "same"], n_resamples=1000)
    with pytest.raises(ValueError, match="baseline"):
        list(plain.rows("holm"))
    with pytest.raises(LookupError):
        compare_report_runs(report, ["base", "nope"])
    with pytest.raises(LookupError):
        compare_report_runs(report, ["base", "same"], baselines=["better"])
    with pytest.raises(ValueError):
        compare_report_runs(report, ["base", "base"])
    assert not math.isnan(result.min_detectable_delta)
