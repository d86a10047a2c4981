"""The Compare view shows the service's paired comparison (wins/losses/ties, p-value)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCharts import QBarSet
from PySide6.QtCore import QSettings

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.report import compare
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.compare.view import CompareView

DATA = Path(__file__).resolve().parents[1] / "data"
DL19 = DATA / "trec_dl19_passage"


def shuffled_run(path: Path, seed: int) -> Path:
    """The DL19 BM25 run with each query's scores perturbed (a second, different run)."""
    rng = np.random.default_rng(seed)
    lines = []
    for line in (DL19 / "run.bm25-default.dl19.txt").read_text().splitlines():
        q, q0, doc, rank, score, _tag = line.split()
        lines.append(f"{q} {q0} {doc} {rank} {float(score) + rng.normal(0, 1.5):.6f} noisy")
    out = path / "noisy.run"
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture
def dl19(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "dl19.sqlite")
    imp = ImportService(db)
    imp.import_run(DL19 / "run.bm25-default.dl19.txt", name="bm25")
    imp.import_run(shuffled_run(tmp_path, 1), name="noisy")
    imp.import_qrels(DL19 / "qrels.dl19-passage.txt", annotator="nist")
    yield db
    db.dispose()


@pytest.fixture
def view(qtbot: Any, qapp: Any, dl19: Database, qsettings: QSettings) -> CompareView:
    ctx = AppContext(qsettings)
    ctx.set_database(dl19, None, dispose_previous=False)
    v = CompareView(ctx)
    qtbot.addWidget(v)
    v.resize(1280, 800)
    with qtbot.waitSignal(v.compared, timeout=20_000):
        v.show()
    return v


def test_wins_losses_ties_equal_the_service(view: CompareView, dl19: Database) -> None:
    report = ScoringService(dl19).score(ScoringSettings())
    expected = compare(report, "bm25", "noisy")
    rows = view.model.rows
    assert (rows.run_a, rows.run_b) == ("bm25", "noisy")
    c = rows.comparison
    assert c is not None
    assert (c.wins, c.losses, c.ties, c.n) == (
        expected.wins,
        expected.losses,
        expected.ties,
        expected.n,
    )
    assert c.p_value == pytest.approx(expected.p_value)
    text = view.verdict.text()
    assert f"A better on <b>{expected.wins}</b>" in text
    assert f"B better on <b>{expected.losses}</b>" in text
    assert f"ties {expected.ties}" in text
    assert f"{expected.mean_delta:+.4f}" in text
    assert "Paired randomization test" in view.significance.text()
    assert view.model.rowCount() == expected.n == 43
    # the chart's bars hold the same deltas (A-better bars positive, B-better negative)
    sets = [s for series in view.chart.bar_series(view.chart.chart()) for s in series.barSets()]
    assert all(isinstance(s, QBarSet) for s in sets)
    a_bars = [sets[0].at(i) for i in range(sets[0].count())]
    b_bars = [sets[1].at(i) for i in range(sets[1].count())]
    assert sum(v > 0 for v in a_bars) == expected.wins
    assert sum(v < 0 for v in b_bars) == expected.losses
    assert sum(a_bars) + sum(b_bars) == pytest.approx(float(expected.deltas.sum()))


def test_swap_mirrors_the_comparison(qtbot: Any, view: CompareView) -> None:
    before = view.model.rows.comparison
    assert before is not None
    with qtbot.waitSignal(view.compared, timeout=10_000):
        view.swap.click()
    after = view.model.rows.comparison
    assert after is not None
    assert (after.wins, after.losses, after.ties) == (before.losses, before.wins, before.ties)
    assert view.summary_labels["A.run"].text() == "<b>noisy</b>"


def test_changing_k_recompares(qtbot: Any, view: CompareView, dl19: Database) -> None:
    with qtbot.waitSignal(view.compared, timeout=20_000):
        view.context.set_setting(S.K, 20)
    expected = compare(ScoringService(dl19).score(ScoringSettings(k=20)), "bm25", "noisy")
    c = view.model.rows.comparison
    assert c is not None and (c.wins, c.losses) == (expected.wins, expected.losses)
    assert view.model.rows.k == 20


def test_one_run_shows_a_message(
    qtbot: Any, qapp: Any, tmp_path: Path, qsettings: QSettings
) -> None:
    db = open_database(tmp_path / "one.sqlite")
    ImportService(db).import_run(DL19 / "run.bm25-default.dl19.txt", name="bm25")
    ctx = AppContext(qsettings)
    ctx.set_database(db, None, dispose_previous=False)
    v = CompareView(ctx)
    qtbot.addWidget(v)
    task = v.reload()
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    assert v.pages.currentIndex() == 0 and "two runs" in v.empty.text()
    db.dispose()


def test_model_passes_qtmodeltester(qtmodeltester: Any, view: CompareView) -> None:
    qtmodeltester.check(view.model, force_py=False)
