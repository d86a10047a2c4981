"""Render every view of the main window offscreen to ``docs/screenshots/<view>.png`` (1280×800).

The database is the Cranfield demo (``ndcg_studio.services.demo.load_demo``) in a temporary
folder, with a sample annotator who has judged part of a few pools, so the pictures show real
text, partial progress, a highlighted grade and a note. Nothing in the user's own settings or
data directories is touched.

Run: python scripts/screenshots.py [--out docs/screenshots] [--only Annotate] [--dark]
[--size 1024x700] [--lang zh_CN|ru]
(``--dark``: a dark Fusion palette, files named ``<view>-dark.png``, to check that everything
stays readable in a dark theme. ``--size``: the window size, default 1280x800; another size
adds it to the names, e.g. ``review-1024x700.png``, the smallest screen the app is laid out for.)

To add a view: it appears automatically (one PNG per tab of ``MainWindow``); to bring it into
an interesting state first, add a function to ``PREPARE`` (tab title -> fn(window, data)).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from PySide6.QtCore import QCoreApplication, QSettings, QThreadPool  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from ndcg_studio.services.annotation.service import AnnotationService  # noqa: E402
from ndcg_studio.services.annotation.types import AnnotatorInfo  # noqa: E402
from ndcg_studio.storage.database import Database, open_database  # noqa: E402
from ndcg_studio.ui import workers  # noqa: E402
from ndcg_studio.ui.context import AppContext  # noqa: E402
from ndcg_studio.ui.theme import apply_theme  # noqa: E402
from ndcg_studio.ui.window.main_window import VIEWS, MainWindow  # noqa: E402

SIZE = (1280, 800)


def parse_size(text: str) -> tuple[int, int]:
    """``"1024x700"`` -> (1024, 700)."""
    width, _, height = text.lower().partition("x")
    try:
        return int(width), int(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r}: expected WIDTHxHEIGHT") from None


def suffix(dark: bool, size: tuple[int, int], lang: str = "en") -> str:
    """The part of a file name that says how it was rendered: "", "-dark", "-1024x700-dark",
    "-zh_CN"."""
    sized = "" if size == SIZE else f"-{size[0]}x{size[1]}"
    return sized + ("-dark" if dark else "") + ("" if lang == "en" else f"-{lang}")


SAMPLE_ANNOTATOR = "alice"


def settle(app: QApplication, timeout: float = 30.0) -> None:
    """Process events until no background task is running (then a few more rounds)."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 5:
        app.processEvents()
        idle = (
            workers.running_tasks() == 0 and QThreadPool.globalInstance().activeThreadCount() == 0
        )
        quiet = quiet + 1 if idle else 0
        time.sleep(0.02)
    for _ in range(5):
        app.processEvents()


def build_demo(folder: Path) -> Database:
    """The Cranfield demo database, plus the sample annotator's partial judgments: the
    Cleverdon grades of the pooled documents of queries 1–6 (all of query 1, part of the
    others), and one note."""
    from ndcg_studio.services.demo import DEMO_ANNOTATOR, load_demo

    db = open_database(folder / "demo.sqlite")
    load_demo(db)
    service = AnnotationService(db)
    alice = service.ensure_annotator(SAMPLE_ANNOTATOR)
    cleverdon = service.ensure_annotator(DEMO_ANNOTATOR)
    progress = service.query_progress(alice.id, 10)
    last_graded = None
    for n, query in enumerate(progress[:6]):
        pool = service.pool(query.query_id, cleverdon.id, 10)
        share = len(pool) if n == 0 else len(pool) * (6 - n) // 8
        for item in pool[:share]:
            service.set_grade(alice.id, query.query_id, item.document_id, item.grade or 0)
        if n == 1 and share:
            last_graded = (query.query_id, pool[share - 1].document_id)
    if last_graded is not None:  # the document prepare_annotate shows
        service.set_note(
            alice.id, *last_graded, "Only the first part (low-speed handling) is on topic."
        )
    return db


def prepare_annotate(window: MainWindow, app: QApplication) -> None:
    """Query 2, on a judged document (the legend shows its grade)."""
    from ndcg_studio.ui.views.annotate.view import AnnotateView

    view = window.view("Annotate")
    assert isinstance(view, AnnotateView)
    rows = view.rows_model.rows()
    if len(rows) > 1:
        view.loader.open_query(rows[1].query_id)
        settle(app)
        judged = [i for i, it in enumerate(view.pool_items()) if it.grade is not None]
        view.pool.pool_table.setFocus()
        if judged:
            view.show_position(judged[-1])
    view.panel.setFocus()
    saved = QCoreApplication.translate("Grader", "Saved ✓ %1")  # as after a grade
    view.panel.status_label.setText(saved.replace("%1", "10:42:07"))


PREPARE: dict[str, Callable[[MainWindow, QApplication], None]] = {
    "Annotate": prepare_annotate,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--only", action="append", help="only this view (repeatable)")
    parser.add_argument("--dark", action="store_true", help="render with a dark palette")
    parser.add_argument(
        "--size", type=parse_size, default=SIZE, help="window size WIDTHxHEIGHT (1280x800)"
    )
    parser.add_argument("--lang", choices=("en", "zh_CN", "ru"), default="en", help="language")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationDisplayName("NDCG Studio")
    if args.dark:
        apply_theme("dark", app)
    from ndcg_studio.ui.language import apply_language

    apply_language(args.lang)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = build_demo(folder)
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        context = AppContext(settings)
        annotator: AnnotatorInfo = AnnotationService(db).ensure_annotator(SAMPLE_ANNOTATOR)
        context.set_database(db, annotator)
        window = MainWindow(context)
        window.resize(*args.size)
        window.show()
        settle(app)
        written: list[Path] = []
        for index, (title, _factory) in enumerate(VIEWS):  # English keys: tab texts are translated
            if args.only and title not in args.only:
                continue
            window.tabs.setCurrentIndex(index)
            settle(app)
            prepare: Any = PREPARE.get(title)
            if prepare is not None:
                prepare(window, app)
                settle(app)
            if (window.width(), window.height()) != args.size:
                # a view can widen the window for a moment while it loads (Stability in Russian
                # grew to 1204 px, then needed 977): the picture is of the size asked for
                print(
                    f"{title}: window grew to {window.width()}x{window.height()}", file=sys.stderr
                )
                window.resize(*args.size)
                settle(app)
            path = args.out / f"{title.lower()}{suffix(args.dark, args.size, args.lang)}.png"
            window.grab().save(str(path))
            written.append(path)
        window.close()
        context.set_database(None)
        settle(app)
    for path in written:
        print(path)
    return 0


# ---------------------------------------------------------------------- analyst views
# (Review, Query detail, Agreement, Compare.) A second annotator "ada" re-grades every one of
# Cleverdon's judgments with a fixed seed (60% the same, 32% one grade off, 8% two off) so the
# agreement statistics, disputed items and per-query alpha have something to show.
SECOND_ANNOTATOR = "ada"


def _extra_args() -> argparse.Namespace:
    """The --out, --dark and --size of main(), for pictures that are not a tab."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--size", type=parse_size, default=SIZE)
    parser.add_argument("--lang", default="en")
    known, _ = parser.parse_known_args()
    return known


def _extra_path(name: str) -> Path:
    """Where a picture that is not a tab goes: the same --out, --dark and --size as main()."""
    known = _extra_args()
    return Path(known.out) / f"{name}{suffix(known.dark, known.size, known.lang)}.png"


def add_second_annotator(db: Database, folder: Path, seed: int = 7) -> None:
    """Import ada's grades: Cleverdon's, perturbed by a fixed-seed random step."""
    import csv

    import numpy as np
    from sqlalchemy import select

    from ndcg_studio.services.demo import DEMO_ANNOTATOR
    from ndcg_studio.services.importing.service import ImportService
    from ndcg_studio.storage import models

    j, q, d, a = models.judgments, models.queries, models.documents, models.annotators
    stmt = (
        select(q.c.external_id, d.c.external_id, j.c.grade)
        .join(q, q.c.id == j.c.query_id)
        .join(d, d.c.id == j.c.document_id)
        .join(a, a.c.id == j.c.annotator_id)
        .where(a.c.name == DEMO_ANNOTATOR)
        .order_by(j.c.id)
    )
    with db.engine.connect() as conn:
        rows = conn.execute(stmt).all()
    rng = np.random.default_rng(seed)
    path = folder / f"{SECOND_ANNOTATOR}.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["query_id", "doc_id", "annotator", "grade"])
        for query, doc, grade in rows:
            r = rng.random()
            step = 0 if r < 0.6 else 1 if r < 0.92 else 2
            new = int(np.clip(grade + step * rng.choice([-1, 1]), 0, 4))
            writer.writerow([query, doc, SECOND_ANNOTATOR, new])
    ImportService(db).import_judgments(path)


def prepare_review(window: MainWindow, app: QApplication) -> None:
    """Add ada's grades, rescore; then render the Query detail of a disputed, well-ranked row."""
    from PySide6.QtCore import Qt

    from ndcg_studio.ui.models import scores as M
    from ndcg_studio.ui.views.review.view import ReviewView

    context = window.context
    db = context.require_database()
    with tempfile.TemporaryDirectory() as tmp:
        add_second_annotator(db, Path(tmp))
    context.notify_judgments_changed(None)
    view = window.view("Review")
    assert isinstance(view, ReviewView)
    view.reload()
    settle(app)
    # the detail: a disputed query with a good nDCG, so both curves and a highlight show
    view.disputed_only.setChecked(True)
    view.model.sort(M.COL_NDCG, Qt.SortOrder.DescendingOrder)
    if view.model.rowCount():
        dialog = view.open_detail(min(2, view.model.rowCount() - 1))
        dialog.resize(*_extra_args().size)
        settle(app)
        dialog.grab().save(str(_extra_path("query_detail")))
        dialog.close()
    view.disputed_only.setChecked(False)
    view.table.sortByColumn(M.COL_NDCG, Qt.SortOrder.AscendingOrder)
    view.table.scrollToTop()
    settle(app)


def prepare_agreement(window: MainWindow, app: QApplication) -> None:
    """Adjudicate the second disputed item so the history and the Final column show one."""
    from ndcg_studio.ui.views.agreement.view import AgreementView

    view = window.view("Agreement")
    assert isinstance(view, AgreementView)
    if view.disputed_model.rowCount() > 1:
        view.disputed_table.selectRow(1)
        settle(app)
        view.adjudicate(3)
        settle(app)


# ---------------------------------------------------------------------- Stability
# A third run (reciprocal rank fusion of the two BM25 runs, k = 60) and a simulated model judge
# "gpt-judge" (source kind model) that grades every document of every run's top 10: Cleverdon's
# grade where he judged (30% one grade off, seeded), else 0 (85%), 1 (10%) or 2 (5%).
MODEL_JUDGE = "gpt-judge"


def add_fusion_run_and_model_judge(db: Database, folder: Path, seed: int = 18) -> None:
    """Import the fusion run and the model judge's grades (with an explanation column)."""
    import csv

    import numpy as np
    from sqlalchemy import select

    from ndcg_studio.services.demo import DEMO_ANNOTATOR
    from ndcg_studio.services.importing.service import ImportService
    from ndcg_studio.storage import models

    r, q, d, run = models.results, models.queries, models.documents, models.runs
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(run.c.name, q.c.external_id, d.c.external_id, r.c.position)
            .join(run, run.c.id == r.c.run_id)
            .join(q, q.c.id == r.c.query_id)
            .join(d, d.c.id == r.c.document_id)
        ).all()
        j, a = models.judgments, models.annotators
        graded = {
            (str(qq), str(dd)): int(g)
            for qq, dd, g in conn.execute(
                select(q.c.external_id, d.c.external_id, j.c.grade)
                .join(q, q.c.id == j.c.query_id)
                .join(d, d.c.id == j.c.document_id)
                .join(a, a.c.id == j.c.annotator_id)
                .where(a.c.name == DEMO_ANNOTATOR)
            )
        }
    fused: dict[str, dict[str, float]] = {}
    pool: set[tuple[str, str]] = set()
    for _, qq, dd, pos in rows:
        fused.setdefault(qq, {})
        fused[qq][dd] = fused[qq].get(dd, 0.0) + 1.0 / (60 + pos)
        if pos <= 10:
            pool.add((qq, dd))
    run_path = folder / "rrf.run"
    with run_path.open("w") as f:
        for qq in sorted(fused, key=int):
            ranked = sorted(fused[qq].items(), key=lambda t: (-t[1], t[0]))[:100]
            for rank, (dd, score) in enumerate(ranked, start=1):
                f.write(f"{qq} Q0 {dd} {rank} {score:.6f} bm25-rrf\n")
                if rank <= 10:
                    pool.add((qq, dd))
    ImportService(db).import_run(run_path)
    rng = np.random.default_rng(seed)
    path = folder / f"{MODEL_JUDGE}.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["query_id", "doc_id", "annotator", "grade", "explanation"])
        for qq, dd in sorted(pool):
            if (qq, dd) in graded:
                g = graded[(qq, dd)]
                if rng.random() < 0.3:
                    g = int(np.clip(g + rng.choice([-1, 1]), 0, 4))
            else:
                g = int(rng.choice(3, p=[0.85, 0.10, 0.05]))
            writer.writerow([qq, dd, MODEL_JUDGE, g, f"simulated judge: grade {g}"])
    ImportService(db).import_judgments(path, source="gpt-judge", source_kind="model")


def prepare_stability(window: MainWindow, app: QApplication) -> None:
    """ada (if Review did not add her yet), the fusion run and the model judge; run orders by
    annotator at 20% coverage (Cleverdon's qrels list about a quarter of each top 10)."""
    from sqlalchemy import select

    from ndcg_studio.storage import models
    from ndcg_studio.ui.views.stability import StabilityView

    context = window.context
    db = context.require_database()
    with db.engine.connect() as conn:
        names = set(conn.execute(select(models.annotators.c.name)).scalars())
    with tempfile.TemporaryDirectory() as tmp:
        if SECOND_ANNOTATOR not in names:
            add_second_annotator(db, Path(tmp))
        add_fusion_run_and_model_judge(db, Path(tmp))
    view = window.view("Stability")
    assert isinstance(view, StabilityView)
    view.coverage.setValue(20)
    context.notify_judgments_changed(None)
    view.reload()
    settle(app, timeout=120)
    view.run_a.setCurrentText("bm25-rrf")
    view.run_b.setCurrentText("bm25-fulltext")
    settle(app)


PREPARE["Review"] = prepare_review
PREPARE["Agreement"] = prepare_agreement
PREPARE["Stability"] = prepare_stability

if __name__ == "__main__":
    sys.exit(main())
