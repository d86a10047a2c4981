"""Compare shows the deltas and the means first (rows_shown, no p-value or interval yet, each
saying it is computing), then the paired randomization test and the runs' intervals
(compared): the same numbers as the services computed in one go."""

from __future__ import annotations

import math
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.compare import compare_rows, load_scores
from ndcg_studio.storage.database import Database
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.compare.view import CompareView
from tests.ui.test_compare_view import dl19  # noqa: F401  (fixture)


def test_deltas_first_then_the_test_and_the_intervals(
    qtbot: Any,
    qapp: Any,
    dl19: Database,  # noqa: F811
    qsettings: QSettings,
) -> None:
    ctx = AppContext(qsettings)
    ctx.set_database(dl19, None, dispose_previous=False)
    view = CompareView(ctx)
    qtbot.addWidget(view)
    first: dict[str, Any] = {}

    def on_rows() -> None:  # what is on screen when the first rows are announced
        c = view.model.rows.comparison
        first.update(
            p=c.p_value if c is not None else None,
            ci=view.summary_labels["A.ci"].text(),
            mean=view.summary_labels["A.mean"].text(),
            significance=view.significance.text(),
            rows=view.model.rowCount(),
        )

    view.rows_shown.connect(on_rows)
    with qtbot.waitSignal(view.compared, timeout=30_000):
        view.show()
    scored = load_scores(dl19, ScoringSettings())
    want = compare_rows(scored, "bm25", "noisy")
    assert want.comparison is not None
    summary = scored.summaries["bm25"]
    # first: the deltas and the mean, the p-value and the interval still computing
    assert first["rows"] == len(want) == 43
    assert first["p"] is not None and math.isnan(first["p"])
    assert first["ci"] == "95% CI computing…"
    assert f"<b>{summary.ndcg.mean:.4f}</b>" in first["mean"]
    assert "computing" in first["significance"]
    # then: the same p-value and interval as in one go
    c = view.model.rows.comparison
    assert c is not None and c.p_value == pytest.approx(want.comparison.p_value, abs=0)
    low, high = summary.ndcg.low, summary.ndcg.high
    assert view.summary_labels["A.ci"].text() == f"95% CI {low:.4f} – {high:.4f}"
    assert "Paired randomization test" in view.significance.text()
    assert view.summary_labels["A.mean"].text() == first["mean"]
    qtbot.waitUntil(lambda: not view.is_loading(), timeout=60_000)


def test_the_verdict_starts_after_the_matrix(
    qtbot: Any,
    qapp: Any,
    dl19: Database,  # noqa: F811
    qsettings: QSettings,
) -> None:
    """The N-run matrix and the verdict one after the other (their memory peaks would stack):
    while the matrix computes no verdict runs and the view is loading; the verdict then comes
    from the scoring read (no second read of the database), as pair_verdict reads it."""
    from ndcg_studio.services.verdict import pair_verdict, verdict_text

    ctx = AppContext(qsettings)
    ctx.set_database(dl19, None, dispose_previous=False)
    view = CompareView(ctx)
    qtbot.addWidget(view)
    seen: dict[str, Any] = {}

    def on_compared() -> None:
        task = view.matrix.task
        seen.update(matrix=task is not None and not task.done, verdict=view._verdict_task)
        seen.update(loading=view.is_loading())

    view.compared.connect(on_compared)
    with qtbot.waitSignal(view.compared, timeout=30_000):
        view.show()
    assert seen == {"matrix": True, "verdict": None, "loading": True}
    with qtbot.waitSignal(view.matrix.computed, timeout=60_000):
        pass
    qtbot.waitUntil(lambda: not view.is_loading(), timeout=60_000)
    assert view._verdict_task is not None and view._verdict_task.done
    assert view.scored is not None and view.scored.pool_source is not None
    settings, depth = view.scored.report.settings, ctx.pool_depth
    want = pair_verdict(dl19, settings, "bm25", "noisy", depth=depth)
    assert view.decision.text() == verdict_text(want)
