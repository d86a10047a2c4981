"""File ▸ Export… offers an Excel workbook next to the kind's own format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog

from ndcg_studio.ui.window import transfer
from ndcg_studio.ui.window.main_window import MainWindow
from ndcg_studio.ui.window.transfer import EXPORT_KINDS, XLSX_FILTER, export_format


def test_export_format_follows_the_filter_or_the_suffix() -> None:
    assert export_format("/x/report", XLSX_FILTER) == "xlsx"
    assert export_format("/x/report.XLSX", "CSV (*.csv)") == "xlsx"
    assert export_format("/x/report.csv", "CSV (*.csv)") is None
    assert export_format("/x/qrels.txt", "TREC qrels (*.txt)") is None


@pytest.mark.parametrize("kind", ["report", "qrels"])
def test_export_from_the_app_writes_a_workbook(
    qtbot: Any,
    main_window: MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    offered: list[str] = []

    def save_dialog(*args: Any, **kwargs: Any) -> tuple[str, str]:
        offered.append(args[3])
        return str(tmp_path / kind), XLSX_FILTER  # no suffix typed: the filter decides

    def pick(*args: Any, **kwargs: Any) -> tuple[str, bool]:
        return EXPORT_KINDS[kind], True

    monkeypatch.setattr(QInputDialog, "getItem", pick)
    monkeypatch.setattr(transfer, "ask_item", pick, raising=False)  # its wider dialog, if any
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    main_window.export_file()
    settings = tmp_path / f"{kind}.xlsx.settings.json"  # written last, after the workbook
    qtbot.waitUntil(settings.exists, timeout=10_000)
    assert XLSX_FILTER in offered[0].split(";;")
    book = openpyxl.load_workbook(tmp_path / f"{kind}.xlsx")
    assert book.sheetnames == ["data", "settings"] and book["data"].freeze_panes == "A2"
    header = [c.value for c in book["data"][1]]
    assert header[:2] == ["query_id", "run" if kind == "report" else "doc_id"]
    grades = [r[-1] for r in book["data"].iter_rows(min_row=2, values_only=True)]
    if kind == "qrels":
        assert grades and all(type(g) is int for g in grades)
