"""Every tab of the desktop app at scale (issue #20 point 1): seconds to first rows, RSS, sort ms.

Data (SQLite file, built once with Core bulk inserts, seed fixed; keep it outside the repo):
100,000 queries, 500,000 documents, 2 runs x 10 results per query (2,000,000 results; the runs
share 5 of their 10 documents per query), and 3 annotators who each graded the same 3-4 pooled
documents of every query, in both runs' lists (333,334 items, 1,000,002 judgments): grade =
clip(true grade + noise).

For each tab a fresh Python process (offscreen Qt platform) opens the main window with that tab
current, opens the database and is timed from its launch (the parent's clock):

- ``first rows``: the tab shows its data (Annotate: the query list, its pools counted after,
  ``pools counted``, and ``first pool (usable)``: a query's documents shown, ready for a grade
  key; Review: the table and
  headline numbers; Agreement: the headline alpha and alpha per query; Compare: the per-query
  deltas of the two runs and their means; Stability: the report);
- ``complete``: everything the tab streams in after that has arrived (Annotate: its texts ranked
  for sorting; Agreement: the interval, alpha without each annotator, the disputed list; Compare:
  also marks when its p-value with the runs' intervals, its N-run matrix and its verdict arrive;
  same as first rows for a tab that does not stream); the sorts are timed after it;
- ``CPU s``: user + system seconds of the GUI process (all its threads) at first rows and at
  complete — less sensitive than wall time to the other jobs on a shared machine;
- ``RSS`` / ``peak RSS`` of the GUI process (``/proc/self/status`` VmRSS / VmHWM) when the
  window is shown, at first rows, and when complete,
  and RSS split into anonymous memory (RssAnon: the process's own data) and file-backed pages
  (RssFile: shared libraries and SQLite's memory map of the database file);
- ``peak RSS by stage`` (Review): the highest RSS sampled while the first stage, the
  intervals and the agreement columns are computed;
- ``GUI stall``: the longest gap between two ticks of a 10 ms timer on the GUI thread from the
  window shown to complete (what a user feels as a frozen window);
- ``sort ms``: sorting the tab's big table by each of two columns (``sortByColumn`` +
  ``processEvents``), and ``filter ms`` (Review: a search text) — the target is 200 ms.

Before timing, the package is compiled to bytecode and the database file opened once
(:func:`prepare`), as on a user's machine after the first start.

Run: ``python benchmarks/bench_gui_scale.py --keep /tmp/gui100k.sqlite [--tabs Review ...]``;
``--profile DIR`` runs each child under ``py-spy record`` (raw collapsed stacks, all threads)
into ``DIR/TAB.txt``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TABS = ("Annotate", "Review", "Agreement", "Compare", "Stability")

CHILD = r"""
import json, os, sys, time
t0 = float(os.environ["BENCH_T0"])
tab = os.environ["BENCH_TAB"]
marks = {}
def mark(name):
    marks.setdefault(name, round(time.time() - t0, 3))
def rss():
    fields = dict(
        line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line
    )
    keys = ("VmRSS", "VmHWM", "RssAnon", "RssFile")
    return {k: int(fields[k].split()[0]) // 1024 for k in keys}
import gc
from ndcg_studio import app as entry  # as console_main and run_gui start the app
getattr(entry, "quiet_blas_threads", lambda: None)()
gc.disable()
from ndcg_studio.ui import application  # its Qt-free imports before PySide6
getattr(application, "import_before_qt", lambda: None)()
from PySide6.QtCore import QCoreApplication, QElapsedTimer, QSettings, QTimer, Qt
from PySide6.QtWidgets import QApplication
from ndcg_studio.ui.application import APP_NAME, ORGANIZATION
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.window.main_window import MainWindow
gc.freeze()
gc.enable()
QCoreApplication.setOrganizationName(ORGANIZATION)
QCoreApplication.setApplicationName(APP_NAME)
QSettings().setValue("user/annotator", "ann1")
app = QApplication([])
context = AppContext()
window = MainWindow(context)
view = window.view(tab)
window.tabs.setCurrentWidget(view)
stall = {"last": None, "max": 0.0, "on": True}
def tick():
    now = time.perf_counter()
    if stall["on"] and stall["last"] is not None:
        stall["max"] = max(stall["max"], now - stall["last"])
    stall["last"] = now
ticker = QTimer()
ticker.setInterval(10)
ticker.timeout.connect(tick)

def timed_ms(fn):
    start = time.perf_counter()
    fn()
    app.processEvents()
    return round((time.perf_counter() - start) * 1000, 1)

def sorts(table, columns):
    for column in columns:
        name = table.model().headerData(column, Qt.Orientation.Horizontal) or column
        for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
            marks[f"sort {name} {order.name[:-5].lower()} (ms)"] = timed_ms(
                lambda: table.sortByColumn(column, order)
            )

def finish():
    mark("complete")
    cpu = os.times()
    marks["CPU s at complete"] = round(cpu.user + cpu.system, 2)
    stall["on"] = False
    marks["GUI stall (ms)"] = round(stall["max"] * 1000)
    marks.update({f"{k} (MB)": v for k, v in rss().items()})
    measure()
    print(json.dumps(marks), flush=True)
    os._exit(0)  # do not wait for workers still running (Compare's verdict)

def review_stage_peaks():
    # Review: the highest RSS while each stage runs (its worker's peak is what VmHWM holds)
    import threading
    peaks = marks.setdefault("peak RSS by stage (MB)", {})
    def sample():
        statm, page = open("/proc/self/statm"), os.sysconf("SC_PAGE_SIZE")
        while True:
            statm.seek(0)
            now = int(statm.read().split()[1]) * page // 2**20
            d = view.data
            stage = ("first" if d is None else "intervals" if not d.intervals
                     else "agreement" if not d.complete else "done")
            peaks[stage] = max(peaks.get(stage, 0), now)
            time.sleep(0.002)
    threading.Thread(target=sample, daemon=True).start()

def complete_when(done, limit=60.0):
    # a tab that streams: poll until its late parts are in (or give up after ``limit`` s)
    started = time.perf_counter()
    def poll():
        if done():
            finish()
        elif time.perf_counter() - started > limit:
            marks["complete"] = f"not within {limit:.0f} s of first rows"
            finish()
        else:
            QTimer.singleShot(20, poll)
    poll()

def measure():
    if tab == "Annotate":
        t = view.queries.query_table
        marks["rows"] = t.model().rowCount()
        sorts(t, (1, 2))
    elif tab == "Review":
        marks["rows"] = view.model.rowCount()
        from ndcg_studio.ui.models.scores import COL_NDCG, COL_TEXT
        sorts(view.table, (COL_NDCG, COL_TEXT))
        marks["filter 'wing' (ms)"] = timed_ms(lambda: view.search.setText("1234"))
        marks["filtered rows"] = view.model.rowCount()
        marks["filter cleared (ms)"] = timed_ms(lambda: view.search.setText(""))
    elif tab == "Agreement":
        t = view.query_table
        marks["rows"] = t.model().rowCount()
        sorts(t, (0, 1))
        marks["disputed rows"] = view.disputed_table.model().rowCount()
        sorts(view.disputed_table, (0,))
    elif tab == "Compare":
        marks["rows"] = view.table.model().rowCount()
        sorts(view.table, (0, 3))
    elif tab == "Stability":
        marks["rows"] = view.pairs.model().rowCount()

def first():
    if "first rows" in marks:  # a tab may show its rows again (Annotate: counted)
        return
    mark("first rows")
    cpu = os.times()
    marks["CPU s at first rows"] = round(cpu.user + cpu.system, 2)
    at = rss()
    marks["RSS / peak at first rows (MB)"] = f"{at['VmRSS']} / {at['VmHWM']}"
    if tab == "Compare":  # when each later part arrives, then all of them
        view.compared.connect(lambda: mark("p-value and intervals"))
        view.matrix.computed.connect(lambda: mark("N-run matrix"))

        def compare_done():
            task = view._verdict_task
            if task is not None and task.done:
                mark("verdict")
            return not view.is_loading()

        complete_when(compare_done, limit=240.0)
    elif tab == "Review":  # its second stage ends with data_loaded
        complete_when(lambda: loaded["all"], limit=240.0)
    elif tab in ("Agreement", "Annotate"):  # Annotate ranks its texts for sorting after
        complete_when(lambda: not view.is_loading(), limit=240.0)
    else:
        finish()

if tab != "Annotate":  # the Annotate list, when it is loaded while another tab is current
    window.view("Annotate").rows_loaded.connect(lambda: mark("Annotate list loaded (hidden)"))
def first_pool(*_):  # Annotate usable: a query's documents shown, ready for a grade key
    if "first pool (usable)" not in marks:
        mark("first pool (usable)")
        cpu = os.times()
        marks["CPU s at first pool"] = round(cpu.user + cpu.system, 2)

if tab == "Annotate":  # the list, then its pools counted and the first unfinished query open
    view.rows_shown.connect(first)
    view.query_loaded.connect(first_pool)
    view.rows_loaded.connect(lambda: mark("pools counted"))
elif tab == "Review":
    review_stage_peaks()
    loaded = {"all": False}
    view.data_loaded.connect(lambda: loaded.update(all=True))
    getattr(view, "rows_shown", view.data_loaded).connect(first)
elif tab == "Agreement":
    getattr(view, "rows_shown", view.data_loaded).connect(first)  # headline; the rest streams
elif tab == "Compare":  # the deltas and means first (rows_shown), the p-value etc. later
    getattr(view, "rows_shown", view.compared).connect(first)
elif tab == "Stability":
    view.shown_report.connect(first)
window.resize(1280, 800)
window.show()
app.processEvents()
mark("window shown")
cpu = os.times()
marks["CPU s at window shown"] = round(cpu.user + cpu.system, 2)
at = rss()
marks["RSS / peak at window shown (MB)"] = f"{at['VmRSS']} / {at['VmHWM']}"
ticker.start()
QTimer.singleShot(0, lambda: window.databases.open_database(os.environ["BENCH_DB"]))
QTimer.singleShot(300_000, app.quit)
app.exec()
"""


def build(path: Path, n_queries: int, seed: int = 0) -> None:
    """Create the benchmark database at ``path`` unless it already holds ``n_queries``."""
    from scale_db import insert_catalogue, insert_results, open_or_check

    from ndcg_studio.storage import models
    from ndcg_studio.storage.bulk.columns import bulk_insert

    db, built = open_or_check(path, n_queries)
    if built:
        db.dispose()
        return
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    judged: list[tuple[int, int, int]] = []  # (query, document, true grade)

    def judge(q: int, docs: list[int]) -> None:
        # documents of both runs: run a ranks docs[0:10], run b docs[5:15] (scale_db), so
        # docs[0] is a's only, docs[5] both runs', docs[10] b's only — Compare is two-sided
        for d in (docs[0], docs[5], docs[10], docs[1])[: 3 + (q % 3 == 1)]:
            judged.append((q, d, rnd.randrange(5)))

    def judgments(annotators: list[int]) -> Any:
        now = models.utcnow()
        for q, d, true in judged:
            for a in annotators:
                noise = rnd.choice((-1, 0, 0, 0, 1))
                yield (q, d, a, min(4, max(0, true + noise)), now, now)

    with db.engine.begin() as conn:
        insert_catalogue(conn, n_queries)
        insert_results(conn, rnd, n_queries, judge)
        annotators = [
            conn.execute(
                models.annotators.insert().values(name=f"ann{i}").returning(models.annotators.c.id)
            ).scalar_one()
            for i in (1, 2, 3)
        ]
        n = bulk_insert(
            conn,
            models.judgments,
            ["query_id", "document_id", "annotator_id", "grade", "created_at", "updated_at"],
            judgments(annotators),
        )
    db.dispose()
    print(f"built {path}: {n:,} judgments in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def run_tab(tab: str, db: Path, tmp: Path, profile: Path | None) -> dict[str, Any]:
    """One fresh GUI process with ``tab`` current; its marks."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "data"),
        "BENCH_DB": str(db),
        "BENCH_TAB": tab,
    }
    cmd = [sys.executable, "-c", CHILD]
    if profile is not None:
        profile.mkdir(parents=True, exist_ok=True)
        out = profile / f"{tab}.txt"
        cmd = ["py-spy", "record", "--format", "raw", "--threads", "-r", "100", "-o", str(out)]
        cmd += ["--", sys.executable, "-c", CHILD]
    env["BENCH_T0"] = repr(time.time())
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        raise SystemExit(f"{tab}: exit {done.returncode}\n{done.stderr[-3000:]}")
    return dict(json.loads(lines[-1]))


def prepare(path: Path) -> None:
    """What an installed app has before its first start, done before timing: the package's
    bytecode (pip compiles an installed package; an editable install under
    ``PYTHONDONTWRITEBYTECODE`` would compile every module at every start), and the database
    file checked once (``open_database`` checks a file page by page on its first open after a
    change, then remembers it as sound)."""
    import compileall

    from ndcg_studio.storage.database import open_database

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "ndcg_studio", quiet=1)
    open_database(path).dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="build the database once at PATH and reuse it")
    parser.add_argument("--tabs", nargs="+", choices=TABS, default=list(TABS))
    parser.add_argument("--profile", type=Path, help="py-spy raw profiles of each child here")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "gui.sqlite"
        build(path, args.queries)
        prepare(path)
        load = os.getloadavg()[0]
        print(f"{args.queries:,} queries; 1-minute load {load:.1f} at start", flush=True)
        for tab in args.tabs:
            marks = run_tab(tab, path, Path(tmp), args.profile)
            print(f"\n{tab}", flush=True)
            for name, value in marks.items():
                print(f"  {name:<36} {value}", flush=True)


if __name__ == "__main__":
    main()
