"""Benchmark of annotation: the keystroke path, the query list and one pool, at scale.

Data (SQLite file under a temporary directory, built with Core bulk inserts, seed fixed):
100,000 queries, 500,000 documents, 2 runs x 10 results per query (2,000,000 results; the runs
share 5 of their 10 documents per query, so each depth-10 pool has 15 documents), and one
annotator who has judged 10 documents of every query: 1,000,000 judgments.

Measured (wall time, ``time.perf_counter``):

- keystroke → saved-and-advanced: what the Annotate view (shown, offscreen) does on a key 0–4:
  ``AnnotationService.set_grade`` (its own transaction, committed) + the view's refresh of the
  current item, the pool list row and the query's progress row (``AnnotateView.grade_current``)
  + the repaint (``processEvents``), p50/p95/max over 200 grades; the service call alone; and a
  peer in the same run: a plain ORM select-then-insert/update of the judgment in one session,
  without history or locking;
- ``query_progress`` for all 100,000 queries (the query list, loaded in a worker);
- ``pool`` of one query;
- the Qt model: ``QueryProgressModel.set_rows`` + sort by progress on 100,000 rows;
- a judging campaign (issue #16) over ``--campaign-queries`` sampled queries (15 pooled documents
  each, overlap 2; the 1,000,000 judgments stay in the database and count): creating it; the
  campaign keystroke, ``CampaignService.grade`` (with seconds, capacity check, state, lease
  release) + ``queue(limit=1)`` for the next item, p50/p95 over ``--grades``; a queue refill of
  20; the lead's ``status``.

Target: keystroke < 50 ms (then it may run synchronously on the GUI thread).

Run: python benchmarks/bench_annotation.py [--queries 100000] [--grades 200] [--keep PATH]
(``--keep PATH`` builds the database once at PATH and reuses it on later runs.)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

try:
    from ndcg_studio.services.annotation.service import AnnotationService
except ModuleNotFoundError:  # run as a plain script from a checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ndcg_studio.services.annotation.service import AnnotationService

from datetime import datetime

from scale_db import DOCS_PER_RUN, insert_catalogue, insert_results, open_or_check
from sqlalchemy import func, select
from sqlalchemy.orm import DeclarativeBase, Mapped

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import bulk_insert
from ndcg_studio.storage.database import Database


class _PeerBase(DeclarativeBase):
    pass


class JudgmentRow(_PeerBase):
    """The peer's ORM object per row, mapped onto the app's Core table (the app has no ORM)."""

    __table__ = models.judgments

    id: Mapped[int]
    query_id: Mapped[int]
    document_id: Mapped[int]
    annotator_id: Mapped[int]
    grade: Mapped[int]
    note: Mapped[str | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


def build(path: Path, n_queries: int, seed: int = 0) -> Database:
    """Create (or reuse) the benchmark database at ``path``."""
    db, built = open_or_check(path, n_queries)
    if built:
        return db
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    judged: list[tuple[int, list[int]]] = []

    def judge(q: int, docs: list[int]) -> None:
        judged.append((q, docs[:DOCS_PER_RUN]))  # the judged ten: the first ten of the pool

    with db.engine.begin() as conn:
        insert_catalogue(conn, n_queries)
        annotator = conn.execute(
            models.annotators.insert().values(name="bench").returning(models.annotators.c.id)
        ).scalar_one()
        insert_results(conn, rnd, n_queries, judge)
        now = models.utcnow()
        bulk_insert(
            conn,
            models.judgments,
            ["query_id", "document_id", "annotator_id", "grade", "created_at", "updated_at"],
            ((q, d, annotator, rnd.randrange(5), now, now) for q, docs in judged for d in docs),
        )
    print(f"built {path} in {time.perf_counter() - t0:.1f} s")
    return db


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p50 = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"p50 {p50:7.2f}   p95 {p95:7.2f}   max {ms[-1]:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--grades", type=int, default=200)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--campaign-queries", type=int, default=10_000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.sqlite"
        db = build(path, args.queries)
        try:
            run(db, args)
        finally:
            db.dispose()


def run(db: Database, args: argparse.Namespace) -> None:
    svc = AnnotationService(db)
    annotator = svc.ensure_annotator("bench")
    newcomer = svc.ensure_annotator("bench-newcomer")
    with db.transaction() as s:
        n_judgments = s.execute(select(func.count()).select_from(models.judgments)).scalar_one()
    import sqlalchemy
    from PySide6 import QtCore

    print(
        f"database: {args.queries:,} queries, {n_judgments:,} judgments (SQLite "
        f"{db.engine.dialect.server_version_info}); SQLAlchemy {sqlalchemy.__version__}, "
        f"PySide6 {QtCore.__version__}\n"
    )
    rows: list[tuple[str, str]] = []

    t, progress = timed(lambda: svc.query_progress(annotator.id, 10))
    assert len(progress) == args.queries
    rows.append(("query_progress, all queries (s)", f"{t:8.3f}"))
    t, _ = timed(lambda: svc.query_progress(newcomer.id, 10))
    rows.append(("query_progress, annotator with 0 judgments (s)", f"{t:8.3f}"))
    middle = progress[len(progress) // 2].query_id
    t, pool = timed(lambda: svc.pool(middle, annotator.id, 10), repeat=20)
    rows.append((f"pool of one query ({len(pool)} documents) (ms)", f"{t * 1000:8.2f}"))

    # the Qt side: the view on the real database, keystrokes through the real slot
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QApplication

    from ndcg_studio.ui.context import AppContext
    from ndcg_studio.ui.models.query_progress import QueryProgressModel
    from ndcg_studio.ui.views.annotate.view import AnnotateView

    app = QApplication.instance() or QApplication([])
    model = QueryProgressModel()

    def load_model() -> None:
        model.set_rows(progress)
        model.sort(QueryProgressModel.COL_PROGRESS, Qt.SortOrder.AscendingOrder)

    t, _ = timed(load_model)
    rows.append(("QueryProgressModel.set_rows + sort, all queries (s)", f"{t:8.3f}"))

    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "bench.ini"), QSettings.Format.IniFormat)
        context = AppContext(settings)
        context.set_database(db)
        context.set_annotator(newcomer)
        view = AnnotateView(context)
        view.resize(1280, 800)
        view.show()
        view.loader.load_rows_now()  # synchronous load for the benchmark
        app.processEvents()
        rnd = random.Random(1)
        samples: list[float] = []
        handler: list[float] = []
        paint: list[float] = []
        queries = rnd.sample([p.query_id for p in progress], args.grades // 10 + 1)
        done = 0
        for qid in queries:
            view.loader.open_query_now(qid)
            app.processEvents()
            for _ in range(len(view.pool_items())):
                if done == args.grades:
                    break
                t0 = time.perf_counter()
                view.grader.grade_current(rnd.randrange(5))  # what the key press runs
                t1 = time.perf_counter()
                app.processEvents()  # repaint of the card, pool row, progress row
                t2 = time.perf_counter()
                samples.append(t2 - t0)
                handler.append(t1 - t0)
                paint.append(t2 - t1)
                done += 1
        rows.append((f"keystroke → saved + advanced + painted, {done} (ms)", percentiles(samples)))
        rows.append(("  of which grade_current: write + view refresh (ms)", percentiles(handler)))
        rows.append(("  of which repaint (processEvents) (ms)", percentiles(paint)))

        service_only: list[float] = []
        for qid in queries[: max(1, args.grades // 15)]:
            for item in svc.pool(qid, annotator.id, 10):
                t0 = time.perf_counter()
                svc.set_grade(annotator.id, qid, item.document_id, rnd.randrange(5))
                service_only.append(time.perf_counter() - t0)
        rows.append(
            (f"set_grade alone, {len(service_only)} grades (ms)", percentiles(service_only))
        )

        peer: list[float] = []
        for qid in queries[: max(1, args.grades // 15)]:
            for item in svc.pool(qid, annotator.id, 10):
                t0 = time.perf_counter()
                with db.transaction() as s:
                    existing = s.execute(
                        select(JudgmentRow).where(
                            JudgmentRow.annotator_id == annotator.id,
                            JudgmentRow.query_id == qid,
                            JudgmentRow.document_id == item.document_id,
                        )
                    ).scalar_one_or_none()
                    if existing is None:
                        s.add(
                            JudgmentRow(
                                annotator_id=annotator.id,
                                query_id=qid,
                                document_id=item.document_id,
                                grade=rnd.randrange(5),
                            )
                        )
                    else:
                        existing.grade = rnd.randrange(5)
                peer.append(time.perf_counter() - t0)
        rows.append((f"peer: plain ORM upsert, no history ({len(peer)}) (ms)", percentiles(peer)))
        view.close()
        view.deleteLater()
        app.processEvents()
        context.set_database(None)

    rows += bench_campaign(db, args)
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  value")
    print("-" * (width + 50))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def bench_campaign(db: Database, args: argparse.Namespace) -> list[tuple[str, str]]:
    """The campaign keystroke: grade the shown item, then take the next one from the queue."""
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec

    rows: list[tuple[str, str]] = []
    svc = CampaignService(db)
    name = f"bench-{time.time_ns()}"
    n_queries = min(args.campaign_queries, args.queries)
    t0 = time.perf_counter()
    info = svc.create(
        CampaignSpec(
            name=name,
            runs=["run-a", "run-b"],
            depth=10,
            overlap=2,
            annotators=["bench", "bench-campaign"],
            sample=n_queries,
            seed=3,
            gold_rate=0.0,
        )
    )
    rows.append((f"campaign create, {info.items:,} items (s)", f"{time.perf_counter() - t0:8.3f}"))
    me = svc.annotation.ensure_annotator("bench-campaign").id
    rnd = random.Random(2)
    t0 = time.perf_counter()
    shown = svc.queue(name, me, 1)
    first = time.perf_counter() - t0
    keystroke: list[float] = []
    for _ in range(args.grades):
        item = shown[0]
        t0 = time.perf_counter()
        svc.grade(name, me, item.query_id, item.document_id, rnd.randrange(5), seconds=1.0)
        shown = svc.queue(name, me, 1)
        keystroke.append(time.perf_counter() - t0)
    rows.append(("campaign: first queue(limit=1) (ms)", f"{first * 1000:8.2f}"))
    rows.append(
        (
            f"campaign keystroke: grade + queue(limit=1), {len(keystroke)} (ms)",
            percentiles(keystroke),
        )
    )

    def refill() -> None:
        svc.release(me, name)  # else the call returns the items it holds already
        svc.queue(name, me, 20)

    t, _ = timed(refill)
    rows.append(("campaign queue(limit=20) refill (ms)", f"{t * 1000:8.2f}"))
    t, _ = timed(lambda: svc.status(name), repeat=1)
    rows.append(("campaign status (lead's dashboard) (s)", f"{t:8.3f}"))
    return rows


if __name__ == "__main__":
    main()
