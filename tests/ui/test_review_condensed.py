"""Review's nDCG vs nDCG′ page: the model holds the service's nDCG and nDCG′ side by side, flags
rows by |nDCG′ − nDCG| > threshold, passes qtmodeltester; the page loads when shown.

Data: TREC DL 2019 BM25 top 1000 (tests/data), whose top 100 holds unjudged passages (its top
10 is fully judged). The values themselves are checked against trec_eval ``-J`` in the
domain's and IncompleteService's tests; here the page must show exactly the report's nDCG and
nDCG′.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models.condensed import (
    COL_CONDENSED,
    COL_GAP,
    COL_NDCG,
    COL_QUERY,
    COL_RUN,
    CondensedRows,
    CondensedTableModel,
)
from ndcg_studio.ui.models.table import SORT_ROLE
from ndcg_studio.ui.views.review.view import ReviewView

DL19 = Path(__file__).resolve().parents[1] / "data" / "trec_dl19_passage"


@pytest.fixture
def dl19(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "dl19.sqlite")
    imp = ImportService(db)
    imp.import_run(DL19 / "run.bm25-default.dl19.txt", name="bm25")
    imp.import_qrels(DL19 / "qrels.dl19-passage.txt", annotator="nist")
    yield db
    db.dispose()


@pytest.fixture
def report(dl19: Database) -> ScoreReport:
    return ScoringService(dl19).score(ScoringSettings(k=100), measures=True)


def test_rows_and_flags(qapp: Any, qtmodeltester: Any, report: ScoreReport) -> None:
    rows = CondensedRows.from_report(report)
    assert len(rows) == 43
    assert report.incomplete is not None
    np.testing.assert_array_equal(rows.ndcg, report.table.ndcg)
    np.testing.assert_array_equal(rows.condensed, report.incomplete.ndcg_condensed)
    model = CondensedTableModel()
    qtmodeltester.check(model, force_py=False)
    model.set_rows(rows)
    qtmodeltester.check(model, force_py=False)
    assert model.rowCount() == 43
    for r in range(model.rowCount()):
        ndcg = model.index(r, COL_NDCG).data(SORT_ROLE)
        condensed = model.index(r, COL_CONDENSED).data(SORT_ROLE)
        assert model.index(r, COL_GAP).data(SORT_ROLE) == pytest.approx(condensed - ndcg)
        assert model.index(r, COL_RUN).data() == "bm25"
    expected = int((np.abs(rows.gap) > 0.1).sum())
    assert 0 < expected < 43  # the top 100 of some queries holds unjudged passages
    model.set_threshold(0.1, only_flagged=True)
    qtmodeltester.check(model, force_py=False)
    assert model.rowCount() == expected
    flagged = {model.index(r, COL_QUERY).data() for r in range(model.rowCount())}
    for r in range(model.rowCount()):
        assert abs(model.index(r, COL_GAP).data(SORT_ROLE)) > 0.1
        assert model.index(r, COL_GAP).data(Qt.ItemDataRole.BackgroundRole) is not None
    model.set_threshold(0.1, only_flagged=False)
    assert model.rowCount() == 43
    for r in range(43):
        shaded = model.index(r, COL_GAP).data(Qt.ItemDataRole.BackgroundRole) is not None
        assert shaded == (model.index(r, COL_QUERY).data() in flagged)
    with pytest.raises(ValueError, match="measures=True"):
        CondensedRows.from_report(replace(report, incomplete=None))


def test_the_review_page_loads_when_shown(
    qtbot: Any, qapp: Any, dl19: Database, qsettings: QSettings
) -> None:
    ctx = AppContext(qsettings)
    ctx.set_database(dl19, None, dispose_previous=False)
    # after the database: scoring settings belong to it (the pools hold every top 10: no gap
    # at K = 10)
    ctx.set_setting(S.K, 100)
    view = ReviewView(ctx)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    with qtbot.waitSignal(view.data_loaded, timeout=20_000):
        view.show()
    panel = view.condensed
    assert panel.model.rowCount() == 0  # hidden page: not loaded yet
    with qtbot.waitSignal(panel.data_loaded, timeout=20_000):
        view.lower_tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: not panel.is_loading(), timeout=20_000)
    assert panel.model.rowCount() == 43
    n = int(panel.model.rows.flagged(0.1).sum())
    assert f"<b>{n:,}</b> of 43 judged (query, run) rows differ by more than 0.1" in (
        panel.summary.text()
    )
    panel.only_flagged.setChecked(True)
    assert panel.model.rowCount() == n
    panel.threshold.setValue(0.5)
    assert panel.model.rowCount() == int(panel.model.rows.flagged(0.5).sum()) < n
