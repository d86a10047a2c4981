"""Start-up of the desktop app at scale: how long until the main window is usable.

Data: the database of ``bench_annotation.py`` (100,000 queries, 2,000,000 results in 2 runs,
1,000,000 judgments by one annotator; built once and reused with ``--keep PATH``).

A fresh Python process (offscreen Qt platform) is timed from its launch (the parent's clock):

- window shown: the main window is on screen (the database opens in a worker meanwhile);
- queries listed: the Annotate view's query list shows all 100,000 queries with progress;
- first pool: the first query's documents are shown, ready for a keystroke — "usable";
- Review loaded: the Review tab scored every (query, run) (a worker; 200,000 rows);
- sort: sorting the Review table (200,000 rows) by nDCG, then by query text.

Target: usable within 2 s of start; sorting under 200 ms.

Run: ``python benchmarks/bench_startup.py [--queries 100000] [--keep PATH]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, os, sys, time
t0 = float(os.environ["BENCH_T0"])
marks = {}
def mark(name):
    marks.setdefault(name, time.time() - t0)
from PySide6.QtCore import QCoreApplication, QSettings, QTimer, Qt
from PySide6.QtWidgets import QApplication
from ndcg_studio.ui.application import APP_NAME, ORGANIZATION
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.window.main_window import MainWindow
from ndcg_studio.ui.models.scores import COL_NDCG, COL_TEXT
QCoreApplication.setOrganizationName(ORGANIZATION)
QCoreApplication.setApplicationName(APP_NAME)
QSettings().setValue("user/annotator", "ann")
app = QApplication([])
context = AppContext()
window = MainWindow(context)
annotate = window.view("Annotate")
review = window.view("Review")
annotate.rows_loaded.connect(lambda: mark("queries listed"))
def on_query(_):
    mark("first pool (usable)")
    window.tabs.setCurrentWidget(review)
annotate.query_loaded.connect(on_query)
def on_review():
    mark("Review loaded")
    header = review.table.horizontalHeader()
    for column, name in ((COL_NDCG, "sort by nDCG"), (COL_TEXT, "sort by query text")):
        start = time.perf_counter()
        review.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
        app.processEvents()
        marks[name + " (s)"] = time.perf_counter() - start
    marks["review rows"] = review.model.rowCount()
    print(json.dumps(marks))
    app.quit()
review.data_loaded.connect(on_review)
window.resize(1280, 800)
window.show()
app.processEvents()
mark("window shown")
QTimer.singleShot(0, lambda: window.databases.open_database(os.environ["BENCH_DB"]))
QTimer.singleShot(120_000, app.quit)
app.exec()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="build the database once at PATH and reuse it")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_annotation import build

    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "startup.sqlite"
        if not path.exists():
            build(path, args.queries).dispose()
        sys.path.insert(0, str(Path(__file__).parent))
        from bench_gui_scale import prepare

        prepare(path)  # bytecode and the file's first check, as after a user's first start
        env = {
            **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
            "QT_QPA_PLATFORM": "offscreen",
            "XDG_CONFIG_HOME": str(Path(tmp) / "config"),
            "XDG_DATA_HOME": str(Path(tmp) / "data"),
            "BENCH_DB": str(path),
        }
        env["BENCH_T0"] = repr(time.time())
        out = subprocess.run(
            [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True
        ).stdout
    marks = json.loads(out.strip().splitlines()[-1])
    width = max(len(k) for k in marks)
    print(f"{'since process start':<{width}}  seconds")
    for name, value in marks.items():
        print(
            f"{name:<{width}}  {value:8.3f}"
            if isinstance(value, float)
            else f"{name:<{width}}  {value}"
        )


if __name__ == "__main__":
    main()
