"""Compare shows the verdict of services.verdict (in a worker) and switches the Annotate pool to
the order of what decides the pair; Annotate uses that order and stays blind."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings

from ndcg_studio.services.annotation.pool_order import PoolOrder
from ndcg_studio.services.verdict import pair_verdict, verdict_text
from ndcg_studio.storage.database import Database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.compare.view import CompareView
from ndcg_studio.ui.workers import running_tasks
from tests.ui.conftest import RUN_NAMES
from tests.ui.test_compare_view import dl19  # noqa: F401  (fixture)


def _shown(qtbot: Any, view: CompareView) -> str:
    qtbot.waitUntil(
        lambda: view._verdict_task is not None and view._verdict_task.done, timeout=30_000
    )
    return view.decision.text()


def test_verdict_equals_the_service_and_follows_the_pool_depth(
    qtbot: Any,
    qapp: Any,
    dl19: Database,  # noqa: F811
    qsettings: QSettings,
) -> None:
    ctx = AppContext(qsettings)
    ctx.set_database(dl19, None, dispose_previous=False)
    view = CompareView(ctx)
    qtbot.addWidget(view)
    view.resize(1024, 700)
    with qtbot.waitSignal(view.compared, timeout=20_000):
        view.show()
    settings = view.scored.report.settings  # type: ignore[union-attr]
    want = verdict_text(pair_verdict(dl19, settings, "bm25", "noisy", depth=10))
    assert _shown(qtbot, view) == want
    assert "(estimate)" in want and "P(A better)" in want
    ctx.set_setting(S.POOL_DEPTH, 3)
    want = verdict_text(pair_verdict(dl19, settings, "bm25", "noisy", depth=3))
    assert _shown(qtbot, view) == want and "depth 3" in want
    with qtbot.waitSignal(view.compared, timeout=10_000):
        view.swap.click()
    assert _shown(qtbot, view) == verdict_text(
        pair_verdict(dl19, settings, "noisy", "bm25", depth=3)
    )
    # one action: the Annotate pool then shows first what decides this pair
    assert ctx.pool_order is None
    view.judge_button.click()
    assert ctx.pool_order == PoolOrder("noisy", "bm25", settings.k)
    qtbot.waitUntil(lambda: running_tasks() == 0, timeout=10_000)


def test_annotate_uses_the_stored_order_and_stays_blind(
    qtbot: Any, annotate_view: Any, context: Any, ui_data: Any
) -> None:
    q1 = ui_data.query["q1"]
    service = context.annotation_service()
    shuffled = service.pool(q1, ui_data.alice.id, context.pool_depth)
    order = PoolOrder(RUN_NAMES[0], RUN_NAMES[1], 2)
    ordered = service.pool(q1, ui_data.alice.id, context.pool_depth, order)
    assert ordered != shuffled  # this order differs from the shuffle for q1
    context.set_setting(S.POOL_ORDER, order.to_text())
    qtbot.waitUntil(lambda: annotate_view.pool_model.items() == ordered, timeout=5000)
    # blind: no run name appears anywhere in the view's text
    texts = [w.text() for w in annotate_view.findChildren(type(annotate_view.panel.status_label))]
    assert not any(run in t for t in texts for run in RUN_NAMES)
    context.set_setting(S.POOL_ORDER, "")
    qtbot.waitUntil(lambda: annotate_view.pool_model.items() == shuffled, timeout=5000)


def test_menu_switches_the_pool_order(qtbot: Any, main_window: Any) -> None:
    shuffled, ab = main_window.pool_order_actions
    ctx = main_window.context
    compare = main_window.view("Compare")
    main_window.tabs.setCurrentWidget(compare)
    qtbot.waitUntil(lambda: compare.scored is not None, timeout=20_000)
    compare.set_runs(RUN_NAMES[0], RUN_NAMES[1])
    ab.trigger()
    assert ctx.pool_order == PoolOrder(RUN_NAMES[0], RUN_NAMES[1], ctx.k)
    assert ab.isChecked() and not shuffled.isChecked()
    shuffled.trigger()
    assert ctx.pool_order is None and shuffled.isChecked()
    qtbot.waitUntil(lambda: running_tasks() == 0, timeout=10_000)
