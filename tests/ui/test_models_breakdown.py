"""The per-rank breakdown model on trec_eval's test data (query 302, nDCG@10 = 0.7530)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import QueryBreakdown, ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui.models.breakdown import UNJUDGED, BreakdownTableModel
from ndcg_studio.ui.models.table import SORT_ROLE

TREC = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


@pytest.fixture
def trec_db(tmp_path: Path) -> Iterator[Database]:
    """results.test + qrels.rel_level as annotator nist; a second annotator 'ada' disagrees on
    two documents of query 302 (by 3 and by 1 grades)."""
    db = open_database(tmp_path / "trec.sqlite")
    imp = ImportService(db)
    imp.import_run(TREC / "results.test")
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist", grade_map={-1: 0})
    qb = ScoringService(db).breakdown("302", "STANDARD")
    bd = qb.breakdown
    judged = [int(d) for d, g in zip(bd.doc, bd.grade, strict=True) if not math.isnan(g)]
    first, second = qb.doc_external[judged[0]], qb.doc_external[judged[1]]
    grade1 = qb.annotator_grades[judged[0]]["nist"]
    grade2 = qb.annotator_grades[judged[1]]["nist"]
    csv = tmp_path / "ada.csv"
    csv.write_text(
        "query_id,doc_id,annotator,grade\n"
        f"302,{first},ada,{int(grade1 + 3 if grade1 < 2 else grade1 - 3)}\n"
        f"302,{second},ada,{int(grade2 + 1 if grade2 < 4 else grade2 - 1)}\n"
    )
    imp.import_judgments(csv)
    yield db
    db.dispose()


@pytest.fixture
def breakdown(trec_db: Database) -> QueryBreakdown:
    return ScoringService(trec_db).breakdown("302", "STANDARD", ScoringSettings(k=10))


def test_models_pass_qtmodeltester(
    qtmodeltester: Any, qapp: Any, breakdown: QueryBreakdown
) -> None:
    for side in ("run", "ideal"):
        model = BreakdownTableModel(side)  # type: ignore[arg-type]
        qtmodeltester.check(model, force_py=False)
        model.set_breakdown(breakdown)
        qtmodeltester.check(model, force_py=False)


def test_run_side_columns_reproduce_the_breakdown(
    qapp: Any, trec_db: Database, breakdown: QueryBreakdown
) -> None:
    model = BreakdownTableModel("run")
    model.set_breakdown(breakdown)
    bd = breakdown.breakdown
    assert model.rowCount() == 10
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers[:3] == ["Rank", "Document", "Title"]
    assert headers[3:5] == ["ada", "nist"]  # one column per annotator, sorted
    assert headers[-1] == "Cumulative DCG"
    cum = model.column_of("Cumulative DCG")
    values = [model.index(r, cum).data(SORT_ROLE) for r in range(10)]
    np.testing.assert_allclose(values, bd.cumulative_dcg)
    assert values[-1] == pytest.approx(bd.dcg)
    disc = model.column_of("Discount")
    assert model.index(0, disc).data(SORT_ROLE) == pytest.approx(1.0)
    assert model.index(1, disc).data(SORT_ROLE) == pytest.approx(1 / math.log2(3))
    # against nist's grades alone, the table ends at trec_eval's nDCG@10 of 302: 0.7530
    nist = ScoringService(trec_db).breakdown("302", "STANDARD", ScoringSettings(annotator="nist"))
    model.set_breakdown(nist)
    assert model.columnCount() == len(headers) - 1  # one annotator column fewer
    dcg = model.index(9, model.column_of("Cumulative DCG")).data(SORT_ROLE)
    assert dcg / nist.breakdown.idcg == pytest.approx(0.7530, abs=1e-4)


def test_unjudged_documents_read_unjudged_with_gain_zero(qapp: Any, trec_db: Database) -> None:
    qb = ScoringService(trec_db).breakdown("301", "STANDARD", ScoringSettings(k=30))
    model = BreakdownTableModel("run")
    model.set_breakdown(qb)
    grades = qb.breakdown.grade
    unjudged = [r for r in range(30) if math.isnan(grades[r])]
    assert len(unjudged) == 3  # query 301's top 30 in results.test has 3 unjudged documents
    c = model.col_consensus
    for r in unjudged:
        assert model.index(r, c).data() == UNJUDGED
        assert model.index(r, c + 1).data(SORT_ROLE) == 0.0  # gain
        assert model.index(r, c).data(Qt.ItemDataRole.FontRole).italic()
        assert "gain 0" in model.index(r, c).data(Qt.ItemDataRole.ToolTipRole)


def test_disputed_documents_are_highlighted(qapp: Any, breakdown: QueryBreakdown) -> None:
    model = BreakdownTableModel("run")
    model.set_breakdown(breakdown, disputed_range=2)
    disputed = [r for r in range(model.rowCount()) if model.is_disputed(r)]
    assert len(disputed) == 1  # ada differs by 3 on one document, by 1 on the other
    row = disputed[0]
    assert model.index(row, 1).data().startswith("⚠ ")
    assert model.index(row, 1).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert "Disputed" in model.index(row, 1).data(Qt.ItemDataRole.ToolTipRole)
    calm = next(r for r in range(model.rowCount()) if r != row)
    assert model.index(calm, 1).data(Qt.ItemDataRole.BackgroundRole) is None


def test_ideal_side(qapp: Any, breakdown: QueryBreakdown) -> None:
    model = BreakdownTableModel("ideal")
    model.set_breakdown(breakdown)
    bd = breakdown.breakdown
    assert model.rowCount() == len(bd.ideal_rank)
    cum = model.column_of("Cumulative IDCG")
    last = model.index(model.rowCount() - 1, cum).data(SORT_ROLE)
    assert last == pytest.approx(bd.idcg)
    gains = [model.index(r, model.col_consensus + 1).data(SORT_ROLE) for r in range(10)]
    assert gains == sorted(gains, reverse=True)


def test_clearing(qapp: Any, breakdown: QueryBreakdown) -> None:
    model = BreakdownTableModel("run")
    model.set_breakdown(breakdown)
    model.set_breakdown(None)
    assert model.rowCount() == 0
