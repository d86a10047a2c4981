"""The per-query delta model agrees with the service's paired comparison."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.report import ScoreReport, compare
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.compare import CompareRows
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.models.compare import (
    COL_A,
    COL_B,
    COL_DELTA,
    COL_OUTCOME,
    COL_QUERY,
    DeltaTableModel,
)
from ndcg_studio.ui.models.table import SORT_ROLE

TREC = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


def reversed_run(path: Path) -> Path:
    """results.test with every score negated (the list upside down), tagged REVERSED."""
    lines = []
    for line in (TREC / "results.test").read_text().splitlines():
        q, q0, doc, rank, score, _tag = line.split()
        lines.append(f"{q} {q0} {doc} {rank} {-float(score)} REVERSED")
    out = path / "reversed.run"
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture
def two_runs(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "cmp.sqlite")
    imp = ImportService(db)
    imp.import_run(TREC / "results.test")
    imp.import_run(reversed_run(tmp_path))
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist", grade_map={-1: 0})
    yield db
    db.dispose()


@pytest.fixture
def report(two_runs: Database) -> ScoreReport:
    return ScoringService(two_runs).score(ScoringSettings(k=100))


def test_rows_match_the_comparison(qapp: Any, qtmodeltester: Any, report: ScoreReport) -> None:
    comparison = compare(report, "STANDARD", "REVERSED")
    rows = CompareRows.from_report(report, "STANDARD", "REVERSED", comparison)
    assert len(rows) == comparison.n == 3
    np.testing.assert_allclose(rows.delta, comparison.deltas)
    assert int((rows.outcome > 0).sum()) == comparison.wins
    assert int((rows.outcome < 0).sum()) == comparison.losses
    assert int((rows.outcome == 0).sum()) == comparison.ties
    model = DeltaTableModel()
    qtmodeltester.check(model, force_py=False)
    model.set_rows(rows)
    qtmodeltester.check(model, force_py=False)
    model.sort(COL_DELTA, Qt.SortOrder.DescendingOrder)
    deltas = [model.index(r, COL_DELTA).data(SORT_ROLE) for r in range(3)]
    assert deltas == sorted(deltas, reverse=True)
    for r in range(3):
        a = model.index(r, COL_A).data(SORT_ROLE)
        b = model.index(r, COL_B).data(SORT_ROLE)
        assert a - b == pytest.approx(model.index(r, COL_DELTA).data(SORT_ROLE))
        q = model.index(r, COL_QUERY).data()
        g = report.for_run("STANDARD")[report.query_external.index(q)]
        assert a == pytest.approx(float(report.table.ndcg[g]))
        expected = "A" if a - b > 1e-12 else "B" if a - b < -1e-12 else "tie"
        assert model.index(r, COL_OUTCOME).data() == expected
    assert model.headerData(COL_A, Qt.Orientation.Horizontal) == "nDCG@100 A"
    assert model.index(0, COL_DELTA).data().startswith("+")
