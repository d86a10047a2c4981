"""The way from launch to the current tab's first rows (issue #20 point 1): what the window
leaves for first use, what runs before PySide6, and what the open step does not wait for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.base import RELOAD_DELAY_MS
from ndcg_studio.ui.views.stability import StabilityView
from ndcg_studio.ui.window.main_window import MainWindow
from tests.ui.conftest import UiData

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, tmp_path: Path) -> str:
    """Run ``code`` in a fresh interpreter (offscreen Qt, settings under ``tmp_path``)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_window_is_built_without_the_modules_of_file_transfer_dialogs_and_other_views(
    tmp_path: Path,
) -> None:
    out = _python(
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from ndcg_studio.ui.context import AppContext\n"
        "from ndcg_studio.ui.window.main_window import MainWindow\n"
        "app = QApplication([])\n"
        "window = MainWindow(AppContext())\n"
        "print(' '.join(sorted(sys.modules)))\n",
        tmp_path,
    )
    loaded = set(out.split())
    assert "ndcg_studio.ui.window.main_window" in loaded  # the check itself ran
    for module in (
        "ndcg_studio.ui.window.transfer",
        "ndcg_studio.services.exporting.service",
        "ndcg_studio.services.importing.service",
        "ndcg_studio.services.campaigns.service",
        "ndcg_studio.ui.dialogs.campaign",
        "ndcg_studio.ui.views.campaign.dashboard",
        "ndcg_studio.ui.views.review.view",  # the analysts' views: built when first shown
        "ndcg_studio.ui.views.agreement.view",
        "ndcg_studio.ui.views.compare.view",
        "ndcg_studio.ui.views.stability",
        "sqlalchemy.orm",
        "scipy",  # no view's first rows need it; the estimates import it when they compute
    ):
        assert module not in loaded, f"{module} is imported to build the window"


def test_import_before_qt_imports_no_qt_and_what_the_views_need_from_services(
    tmp_path: Path,
) -> None:
    out = _python(
        "import sys\n"
        "from ndcg_studio.ui.application import import_before_qt\n"
        "import_before_qt()\n"
        "before = set(sys.modules)\n"
        "print(int(any(m.startswith(('PySide6', 'shiboken6')) for m in before)))\n"
        "import ndcg_studio.ui.window.main_window\n"  # and the views it builds on first show:
        "import ndcg_studio.ui.views.review.view, ndcg_studio.ui.views.agreement.view\n"
        "import ndcg_studio.ui.views.compare.view, ndcg_studio.ui.views.stability\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n",
        tmp_path,
    )
    qt_first, after = out.splitlines()
    assert qt_first == "0"
    late = [
        m for m in after.split() if m.startswith(("ndcg_studio.services", "numpy", "sqlalchemy"))
    ]
    assert late == [], "imported only after PySide6 (add them to application._BEFORE_QT)"


def test_opening_a_database_does_not_wait_for_its_table_counts(
    qtbot: Any, main_window: MainWindow, context: AppContext, tmp_path: Path, monkeypatch: Any
) -> None:
    counted: list[int] = []
    original = AnnotationService.counts

    def counts(self: AnnotationService) -> Any:
        counted.append(1)
        return original(self)

    monkeypatch.setattr(AnnotationService, "counts", counts)
    with qtbot.waitSignal(context.database_changed, timeout=10_000):
        main_window.databases.open_database(str(tmp_path / "other.sqlite"), create=True)
    assert counted == []  # neither the worker nor the status bar, yet
    qtbot.waitUntil(lambda: "0 queries" in main_window.status.counts_label.text(), timeout=5000)
    assert counted == [1]


@pytest.mark.parametrize("first", [True, False])
def test_a_views_first_load_from_a_new_database_is_not_delayed(
    qtbot: Any, context: AppContext, ui_data: UiData, first: bool
) -> None:
    view = StabilityView(context)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view._task is not None and not view.is_loading(), timeout=10_000)
    if first:
        context.set_database(ui_data.db, context.annotator, dispose_previous=False)
    else:
        context.notify_judgments_changed(None)
    assert view._timer.isActive()
    assert view._timer.interval() == (0 if first else RELOAD_DELAY_MS)
    qtbot.waitUntil(lambda: not view._timer.isActive() and not view.is_loading(), timeout=10_000)
