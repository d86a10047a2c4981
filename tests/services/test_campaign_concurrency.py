"""Several annotator PROCESSES grading one campaign at once (issue #16.2), on the real PostgreSQL
test server and on SQLite: every item ends at exactly N grades (gold aside), no annotator is
starved, no grade is lost, and the holds of a process killed while holding items are offered
again once they expire. Under the default order (``depth``) and under a pool strategy (``mtf``,
whose order is recomputed from the grades at every request).

Each worker loops: take up to 3 items from its queue (held 60 s), grade them (an item that
reached N grades meanwhile is refused with ItemComplete and skipped), until the campaign has
every non-gold item complete. A seventh process takes 6 items held for only 2 s and is killed
with SIGKILL before grading any: its items must end up graded by the others.

Issue #35.2: six such workers, three in each of two campaigns that pool the same items with
overlap 1, give every item exactly one grade (a grade counts in every campaign that pools the
item, so N is a limit across campaigns).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
import traceback
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import insert, select

from ndcg_studio.storage import models
from ndcg_studio.storage.database import open_database

pytestmark = pytest.mark.slow

N_QUERIES = 12
N_DOCS = 5  # depth-5 pool of one run: 60 items
OVERLAP = 2
WORKERS = 5
DEADLINE = 240.0


def _catalogue(db: Any, n_queries: int = N_QUERIES) -> None:
    """``n_queries`` queries, ``N_DOCS + 1`` documents and run A returning the first ``N_DOCS``
    of them for every query."""
    with db.transaction() as s:
        s.execute(
            insert(models.queries),
            [{"external_id": f"q{i}", "text": f"query {i}"} for i in range(n_queries)],
        )
        s.execute(
            insert(models.documents),
            [{"external_id": f"d{i}", "title": f"T{i}"} for i in range(N_DOCS + 1)],
        )
        s.execute(insert(models.runs), [{"name": "A"}])
        qids = list(s.execute(select(models.queries.c.id).order_by("id")).scalars())
        dids = list(s.execute(select(models.documents.c.id).order_by("id")).scalars())
        rid = s.execute(select(models.runs.c.id)).scalar_one()
        s.execute(
            insert(models.results),
            [
                {
                    "run_id": rid,
                    "query_id": q,
                    "document_id": dids[p],
                    "rank": p + 1,
                    "position": p + 1,
                    "score": 1.0 / (p + 1),
                }
                for q in qids
                for p in range(N_DOCS)
            ],
        )


def _setup(url: str, strategy: str = "depth") -> None:
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec, GoldItem

    db = open_database(url)
    try:
        _catalogue(db)
        CampaignService(db).create(
            CampaignSpec(
                name="race",
                runs=["A"],
                depth=N_DOCS,
                overlap=OVERLAP,
                annotators=[f"w{i}" for i in range(WORKERS)] + ["doomed"],
                gold=[GoldItem("q0", f"d{N_DOCS}", 2), GoldItem("q1", f"d{N_DOCS}", 1)],
                gold_rate=0.1,
                seed=11,
                strategy=strategy,  # type: ignore[arg-type]
            )
        )
    finally:
        db.dispose()


def _worker(url: str, campaign: str, name: str, start: Any, results: Any) -> None:
    try:
        from ndcg_studio.services.campaigns.service import CampaignService
        from ndcg_studio.storage.judgments.items import ItemComplete

        db = open_database(url)
        service = CampaignService(db)
        me = service.annotation.ensure_annotator(name)
        start.wait(timeout=120)
        graded = refused = 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < DEADLINE:
            batch = service.queue(campaign, me.id, 3, hold_seconds=60)
            if not batch:
                info = service.get(campaign)
                if info.complete == info.items:
                    break
                time.sleep(0.3)  # items held by others (e.g. the killed process) may expire
                continue
            for item in batch:
                try:
                    service.grade(
                        campaign,
                        me.id,
                        item.query_id,
                        item.document_id,
                        (item.query_id + item.document_id) % 5,
                        seconds=0.01,
                    )
                    graded += 1
                except ItemComplete:
                    refused += 1
        db.dispose()
        results.put((name, "ok", graded, refused))
    except BaseException:
        results.put((name, "error", traceback.format_exc(), 0))


def _doomed(url: str, ready: Any) -> None:
    from ndcg_studio.services.campaigns.service import CampaignService

    db = open_database(url)
    service = CampaignService(db)
    me = service.annotation.ensure_annotator("doomed")
    service.queue("race", me.id, 6, hold_seconds=2)
    ready.set()
    time.sleep(600)  # killed here, holding its items


@pytest.mark.parametrize("strategy", ["depth", "mtf"])
def test_five_processes_grade_one_campaign_to_exactly_n(db_url: str, strategy: str) -> None:
    _setup(db_url, strategy)
    ctx = mp.get_context("spawn")
    ready = ctx.Event()
    doomed = ctx.Process(target=_doomed, args=(db_url, ready))
    doomed.start()
    assert ready.wait(timeout=120), "the doomed process did not take its items"
    db = open_database(db_url)
    try:
        with db.transaction() as s:
            held = set(
                s.execute(
                    select(models.campaign_leases.c.query_id, models.campaign_leases.c.document_id)
                ).all()
            )
        assert len(held) == 6
        os.kill(doomed.pid, signal.SIGKILL)  # type: ignore[arg-type]
        doomed.join(timeout=30)
        start = ctx.Barrier(WORKERS)
        results = ctx.Queue()
        procs = [
            ctx.Process(target=_worker, args=(db_url, "race", f"w{i}", start, results))
            for i in range(WORKERS)
        ]
        for proc in procs:
            proc.start()
        try:
            outcomes = [results.get(timeout=DEADLINE + 120) for _ in procs]
        finally:
            for proc in procs:
                proc.join(timeout=60)
                if proc.is_alive():  # pragma: no cover - only when a child hangs
                    proc.kill()
        errors = [f"{n}:\n{detail}" for n, status, detail, _ in outcomes if status != "ok"]
        assert not errors, "a worker failed:\n" + "\n".join(errors)
        graded = {n: g for n, _, g, _ in outcomes}
        assert all(g > 0 for g in graded.values()), f"a worker was starved: {graded}"
        ci, j = models.campaign_items, models.judgments
        with db.transaction() as s:
            regular = s.execute(
                select(ci.c.query_id, ci.c.document_id).where(ci.c.gold_grade.is_(None))
            ).all()
            judged = Counter(
                (q, d) for q, d in s.execute(select(j.c.query_id, j.c.document_id)).all()
            )
            history = s.execute(select(models.judgment_history.c.id)).all()
        counts = Counter(judged[(q, d)] for q, d in regular)
        assert counts == Counter({OVERLAP: len(regular)}), counts
        # the killed process's items were re-offered and graded N times (none lost)
        assert all(judged[item] == OVERLAP for item in held if item in set(regular))
        # no grade lost: one history row per stored grade, and every worker's count adds up
        assert len(history) == sum(judged.values())
        gold_grades = sum(n for item, n in judged.items() if item not in set(regular))
        assert sum(graded.values()) == OVERLAP * len(regular) + gold_grades
    finally:
        db.dispose()


SHARED_QUERIES = 20  # with N_DOCS: 100 items, pooled by both campaigns
SHARED_WORKERS = 6


def _setup_shared(url: str) -> None:
    """Campaigns ``one`` and ``two`` over the same pool (run A's top N_DOCS), overlap 1, with
    one seed: both queues walk the items in the same order, so their annotators meet often."""
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec

    db = open_database(url)
    try:
        _catalogue(db, SHARED_QUERIES)
        for name in ("one", "two"):
            CampaignService(db).create(
                CampaignSpec(
                    name=name,
                    runs=["A"],
                    depth=N_DOCS,
                    overlap=1,
                    annotators=[f"w{i}" for i in range(SHARED_WORKERS)],
                    seed=5,
                )
            )
    finally:
        db.dispose()


def test_two_campaigns_pooling_the_same_items_grade_each_once(db_url: str) -> None:
    """Issue 35.2: a grade counts in every campaign that pools the item, so the N grades of an
    item are a limit across campaigns: six processes, three in each of two campaigns over the
    same items with overlap 1, give every item exactly one grade."""
    _setup_shared(db_url)
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(SHARED_WORKERS)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(db_url, ("one", "two")[i % 2], f"w{i}", start, results))
        for i in range(SHARED_WORKERS)
    ]
    for proc in procs:
        proc.start()
    try:
        outcomes = [results.get(timeout=DEADLINE + 120) for _ in procs]
    finally:
        for proc in procs:
            proc.join(timeout=60)
            if proc.is_alive():  # pragma: no cover - only when a child hangs
                proc.kill()
    errors = [f"{n}:\n{detail}" for n, status, detail, _ in outcomes if status != "ok"]
    assert not errors, "a worker failed:\n" + "\n".join(errors)
    db = open_database(db_url)
    try:
        ci, j = models.campaign_items, models.judgments
        with db.transaction() as s:
            items = set(s.execute(select(ci.c.query_id, ci.c.document_id)).all())
            judged = Counter(
                (q, d) for q, d in s.execute(select(j.c.query_id, j.c.document_id)).all()
            )
    finally:
        db.dispose()
    assert len(items) == SHARED_QUERIES * N_DOCS
    over = {item: n for item, n in judged.items() if n > 1}
    assert not over, f"{len(over)} of {len(items)} items got more than one grade: {over}"
    assert set(judged) == items
    assert sum(g for _, _, g, _ in outcomes) == len(items)
