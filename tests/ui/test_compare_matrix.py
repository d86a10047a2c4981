"""Compare for N runs: the pair matrix model equals the service's comparison (ordered by mean,
antisymmetric, Tukey or Holm marks), passes qtmodeltester, and the Compare view shows it with
the topic-set-size sentence; a click on a cell shows that pair's per-query deltas."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.multirun import compare_report_runs
from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models.compare_matrix import (
    P_ADJUSTED_ROLE,
    PAIR_ROLE,
    PairMatrix,
    PairMatrixModel,
    marks,
)
from ndcg_studio.ui.models.table import SORT_ROLE, signed
from ndcg_studio.ui.views.compare.view import CompareView

DL19 = Path(__file__).resolve().parents[1] / "data" / "trec_dl19_passage"
NOISE = {"bm25": 0.0, "slight": 0.3, "noisy": 1.5, "wild": 4.0}


def noisy_run(path: Path, name: str, sigma: float, seed: int) -> Path:
    """The DL19 BM25 run with each score perturbed by N(0, sigma)."""
    rng = np.random.default_rng(seed)
    lines = []
    for line in (DL19 / "run.bm25-default.dl19.txt").read_text().splitlines():
        q, q0, doc, rank, score, _tag = line.split()
        lines.append(f"{q} {q0} {doc} {rank} {float(score) + rng.normal(0, sigma):.6f} {name}")
    out = path / f"{name}.run"
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture
def four(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "four.sqlite")
    imp = ImportService(db)
    for seed, (name, sigma) in enumerate(NOISE.items()):
        imp.import_run(noisy_run(tmp_path, name, sigma, seed), name=name)
    imp.import_qrels(DL19 / "qrels.dl19-passage.txt", annotator="nist")
    yield db
    db.dispose()


@pytest.fixture
def report(four: Database) -> ScoreReport:
    return ScoringService(four).score(ScoringSettings())


@pytest.mark.parametrize("baseline", [None, "noisy"])
def test_matrix_equals_the_service(
    qapp: Any, qtmodeltester: Any, report: ScoreReport, baseline: str | None
) -> None:
    result = compare_report_runs(
        report, report.run_names, baselines=[baseline] if baseline else [], n_permutations=200
    )
    matrix = PairMatrix.from_report(result, 10)
    model = PairMatrixModel()
    qtmodeltester.check(model, force_py=False)
    model.set_matrix(matrix)
    qtmodeltester.check(model, force_py=False)
    n = len(NOISE)
    assert model.rowCount() == model.columnCount() == n
    # runs ordered by mean, best first; the diagonal holds the means
    assert list(matrix.means) == sorted(matrix.means, reverse=True)
    for i in range(n):
        assert model.index(i, i).data(SORT_ROLE) == pytest.approx(matrix.means[i])
        assert model.headerData(i, Qt.Orientation.Horizontal) == matrix.runs[i]
    correction = "holm" if baseline else "tukey"
    rows = {(r[0], r[1]): r for r in result.rows(correction)}  # type: ignore[arg-type]
    filled = 0
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            index = model.index(i, j)
            a, b = index.data(PAIR_ROLE)
            row = rows.get((a, b))
            flipped = rows.get((b, a))
            if row is None and flipped is None:
                assert baseline is not None and baseline not in (a, b)
                assert index.data() == "" and np.isnan(index.data(P_ADJUSTED_ROLE))
                continue
            filled += 1
            delta = row[4] if row is not None else -flipped[4]  # type: ignore[index]
            p_adjusted = (row or flipped)[9]  # type: ignore[index]
            assert index.data(SORT_ROLE) == pytest.approx(delta, abs=1e-12)
            assert index.data(P_ADJUSTED_ROLE) == pytest.approx(p_adjusted)
            assert index.data() == f"{signed(delta, 3)} {marks(p_adjusted)}".rstrip()
            # antisymmetric
            assert model.index(j, i).data(SORT_ROLE) == pytest.approx(-delta, abs=1e-12)
    assert filled == (2 * (n - 1) if baseline else n * (n - 1))
    assert matrix.power_sentence.startswith(f"with {result.n_queries} queries you can detect Δ ≥ ")
    # bm25 vs the wild run: a large, significant difference
    wild = matrix.runs.index("wild")
    best = matrix.runs.index("bm25")
    if baseline is None:
        assert "*" in model.index(best, wild).data()


def test_marks() -> None:
    assert [marks(p) for p in (0.0005, 0.005, 0.04, 0.05, float("nan"))] == [
        "***",
        "**",
        "*",
        "",
        "",
    ]


def test_the_view_shows_the_matrix_and_a_click_picks_the_pair(
    qtbot: Any, qapp: Any, four: Database, qsettings: QSettings
) -> None:
    ctx = AppContext(qsettings)
    ctx.set_database(four, None, dispose_previous=False)
    view = CompareView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    with qtbot.waitSignal(view.matrix.computed, timeout=30_000):
        view.show()
    qtbot.waitUntil(lambda: not view.is_loading(), timeout=30_000)
    panel = view.matrix
    matrix = panel.model.matrix
    assert sorted(matrix.runs) == sorted(NOISE)
    assert matrix.correction == "tukey"
    assert panel.power.text().startswith("With 43 queries you can detect Δ ≥ ")
    assert "80% power" in panel.power.text()
    assert "randomised Tukey HSD over all 6 pairs" in panel.legend.text()
    # a click on a cell compares that pair below
    i, j = matrix.runs.index("wild"), matrix.runs.index("bm25")
    rect = panel.table.visualRect(panel.model.index(i, j))
    with qtbot.waitSignal(view.compared, timeout=20_000):
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert (view.run_a.currentText(), view.run_b.currentText()) == ("wild", "bm25")
    assert (view.model.rows.run_a, view.model.rows.run_b) == ("wild", "bm25")
    # a baseline: Holm over its pairs only
    with qtbot.waitSignal(panel.computed, timeout=30_000):
        panel.set_baseline("bm25")
    assert panel.model.matrix.correction == "holm"
    assert "Holm–Bonferroni over the pairs with bm25" in panel.legend.text()
    qtbot.waitUntil(lambda: not view.is_loading(), timeout=30_000)
