"""File ▸ Export… of a run comparison: the run names are read in a worker (no query on the GUI
thread), then asked for, then the comparison is written."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog

from ndcg_studio.services.exporting.service import ExportService
from ndcg_studio.ui.window import transfer
from ndcg_studio.ui.window.main_window import MainWindow
from ndcg_studio.ui.window.transfer import EXPORT_KINDS


def test_export_compare_reads_the_runs_off_the_gui_thread(
    qtbot: Any, main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gui = threading.get_ident()
    read_on: list[int] = []
    run_names = ExportService.run_names

    def spy(self: ExportService) -> list[str]:
        read_on.append(threading.get_ident())
        return run_names(self)

    asked: list[list[str]] = []

    def ask(_window: Any, _title: str, label: str, items: list[str]) -> tuple[str, bool]:
        if label == "What to export?":
            return EXPORT_KINDS["compare"], True
        asked.append(list(items))
        return items[0], True

    out = tmp_path / "compare.csv"
    monkeypatch.setattr(ExportService, "run_names", spy)
    monkeypatch.setattr(transfer, "ask_item", ask)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    main_window.export_file()
    qtbot.waitUntil(lambda: "Exported" in main_window.statusBar().currentMessage(), timeout=10_000)
    assert read_on and gui not in read_on
    runs = asked[0]
    assert len(runs) >= 2 and runs == sorted(runs)
    assert asked[1] == runs[1:]  # run B among the others
    header = out.read_text(encoding="utf-8").splitlines()[0]
    assert header == f"query_id,ndcg_{runs[0]},ndcg_{runs[1]},delta"
