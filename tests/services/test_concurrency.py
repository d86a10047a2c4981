"""Concurrent writers: annotator PROCESSES grading (and leads adjudicating) the same items at once,
on SQLite (WAL + busy timeout) and on the real PostgreSQL test server.

Each process runs :class:`AnnotationService` on its own :class:`Database` and writes a fixed
plan of ``(query, document, grade)``; every write carries a note ``"<process tag>:<call index>"``
so each history row can be traced back to the exact call that made it. Afterwards the test checks,
for every item:

- exactly one stored row (the unique constraint and our count agree);
- the history has exactly one row per call, no more, no less;
- the history is a *chain*: in id order each row's ``old_grade``/``old_note`` equals the previous
  row's ``new_grade``/``new_note`` (first row: None). A lost update (two writers reading the same
  old value) breaks the chain, so this is the serialisation check;
- each process's own calls appear in the history in the order it made them, with its grades;
- the stored grade and note are the chain's last ``new_*`` values, and for an item only one
  process writes, the last grade of that process's plan.
"""

from __future__ import annotations

import multiprocessing as mp
import random
import time
import traceback
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from sqlalchemy import func, insert, select

from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database

pytestmark = pytest.mark.slow

annotation = pytest.importorskip(
    "ndcg_studio.services.annotation.service", reason="the annotation service is not written yet"
)

N_QUERIES = 30
N_DOCS_PER_QUERY = 80  # 2,400 items
WRITES_PER_ANNOTATOR = 3_000
CONTENDED_ITEMS = 150  # same annotator / same adjudication in both processes
CONTENDED_WRITES = 1_000
START_TIMEOUT = 120.0

Key = tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    """What one worker process does: ``writes`` in order, as ``annotator`` (``adjudicate``:
    as the adjudicator ``by``)."""

    url: str
    tag: str
    annotator: str
    kind: Literal["grade", "adjudicate"]
    writes: list[tuple[int, int, int]]  # (query_id, document_id, grade)


def _worker(plan: Plan, start: Any, results: Any) -> None:
    """Process body: open, register the annotator, wait for the other process, write the plan."""
    try:
        database = open_database(plan.url)
        try:
            service = annotation.AnnotationService(database)
            me = service.ensure_annotator(plan.annotator)
            start.wait(timeout=START_TIMEOUT)
            t0 = time.perf_counter()
            for i, (query_id, document_id, grade) in enumerate(plan.writes):
                note = f"{plan.tag}:{i}"
                if plan.kind == "grade":
                    service.set_grade(me.id, query_id, document_id, grade, note=note)
                else:
                    service.set_adjudication(query_id, document_id, grade, by=me.id, note=note)
            elapsed = time.perf_counter() - t0
        finally:
            database.dispose()
        results.put((plan.tag, "ok", elapsed, me.id))
    except BaseException:
        results.put((plan.tag, "error", traceback.format_exc(), None))


def run_processes(plans: list[Plan]) -> dict[str, tuple[float, int]]:
    """Run every plan in its own spawned process, started together; ``{tag: (seconds, annotator
    id)}``. Fails the test with the child's traceback if any process raised."""
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(len(plans))
    results = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(p, start, results)) for p in plans]
    for proc in procs:
        proc.start()
    try:
        outcomes = [results.get(timeout=600) for _ in procs]
    finally:
        for proc in procs:
            proc.join(timeout=60)
            if proc.is_alive():  # pragma: no cover - only when a child hangs
                proc.kill()
    errors = [f"{tag}:\n{detail}" for tag, status, detail, _ in outcomes if status != "ok"]
    assert not errors, "a writer process failed:\n" + "\n".join(errors)
    assert [proc.exitcode for proc in procs] == [0] * len(procs)
    return {tag: (elapsed, annotator_id) for tag, _, elapsed, annotator_id in outcomes}


@pytest.fixture
def items(db_url: str) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """The database URL with N_QUERIES × N_DOCS_PER_QUERY (query id, document id) items."""
    database = open_database(db_url)
    try:
        with database.engine.begin() as conn:
            conn.execute(
                insert(models.queries),
                [{"external_id": f"q{i}", "text": f"query {i}"} for i in range(N_QUERIES)],
            )
            conn.execute(
                insert(models.documents),
                [
                    {"external_id": f"d{i}", "title": "", "text": "", "url": ""}
                    for i in range(N_QUERIES * N_DOCS_PER_QUERY)
                ],
            )
            qids = list(conn.execute(select(models.queries.c.id).order_by("id")).scalars())
            dids = list(conn.execute(select(models.documents.c.id).order_by("id")).scalars())
    finally:
        database.dispose()
    pairs = [
        (qids[i // N_DOCS_PER_QUERY], did) for i, did in enumerate(dids)
    ]  # each document belongs to one query's pool
    yield db_url, pairs


def _plan_writes(
    rng: random.Random, items: list[tuple[int, int]], n_writes: int
) -> list[tuple[int, int, int]]:
    """Every item once in a shuffled order, then re-grades of random items up to ``n_writes``."""
    first = rng.sample(items, len(items))
    again = [rng.choice(items) for _ in range(n_writes - len(items))]
    return [(q, d, rng.randint(0, 4)) for q, d in first + again]


def _history(database: Database, kind: str) -> list[Any]:
    h = models.judgment_history
    with database.engine.connect() as conn:
        return list(conn.execute(select(h).where(h.c.kind == kind).order_by(h.c.id)).all())


def check_history(
    rows: list[Any], plans: list[Plan], key_of: Any, stored: dict[Any, tuple[Any, Any]]
) -> None:
    """The checks listed in the module docstring, for one kind of history."""
    calls: dict[str, list[tuple[Key, int]]] = {}
    for plan in plans:
        calls[plan.tag] = [((q, d), g) for q, d, g in plan.writes]
    assert len(rows) == sum(len(p.writes) for p in plans)  # one history row per call
    notes = [r.new_note for r in rows]
    assert len(set(notes)) == len(notes)  # no call recorded twice
    by_key: dict[Key, list[Any]] = defaultdict(list)
    for row in rows:
        by_key[key_of(row)].append(row)
    seen_by_process: dict[str, list[int]] = defaultdict(list)
    for key, chain in by_key.items():
        previous: tuple[int | None, str | None] = (None, None)
        for row in chain:
            assert (row.old_grade, row.old_note) == previous, f"lost update at {key}"
            previous = (row.new_grade, row.new_note)
            tag, index = row.new_note.split(":")
            seen_by_process[tag].append(int(index))
            assert calls[tag][int(index)] == ((row.query_id, row.document_id), row.new_grade)
        assert stored[key] == previous, f"stored value is not the last write at {key}"
    assert set(stored) == set(by_key)  # no stored row without history, none missing
    for tag, indices in seen_by_process.items():
        per_key_order: dict[Key, list[int]] = defaultdict(list)
        for i in indices:
            per_key_order[calls[tag][i][0]].append(i)
        assert all(order == sorted(order) for order in per_key_order.values())
        assert sorted(indices) == list(range(len(calls[tag])))


def test_two_annotators_grade_overlapping_items_at_once(
    items: tuple[str, list[tuple[int, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Alice and Bob, each in a process, 3,000 set_grade calls each over overlapping items
    (1,600 items shared), re-grading some of them."""
    url, pairs = items
    rng = random.Random(20_240_601)
    n_items = len(pairs) * 5 // 6  # 2,000 items each, overlapping in the middle 1,600
    alice = Plan(
        url, "alice", "alice", "grade", _plan_writes(rng, pairs[:n_items], WRITES_PER_ANNOTATOR)
    )
    bob = Plan(
        url, "bob", "bob", "grade", _plan_writes(rng, pairs[-n_items:], WRITES_PER_ANNOTATOR)
    )
    timing = run_processes([alice, bob])

    database = open_database(url)
    try:
        j = models.judgments
        with database.engine.connect() as conn:
            stored_rows = conn.execute(
                select(j.c.annotator_id, j.c.query_id, j.c.document_id, j.c.grade, j.c.note)
            ).all()
            n_distinct = conn.execute(
                select(func.count()).select_from(
                    select(j.c.annotator_id, j.c.query_id, j.c.document_id).distinct().subquery()
                )
            ).scalar()
        rows = _history(database, "judgment")
    finally:
        database.dispose()
    stored = {(r.annotator_id, r.query_id, r.document_id): (r.grade, r.note) for r in stored_rows}
    assert len(stored_rows) == n_distinct == 2 * n_items  # every grade stored exactly once
    for plan in (alice, bob):
        annotator_id = timing[plan.tag][1]
        last = {(q, d): g for q, d, g in plan.writes}  # the last grade this process wrote
        assert {(q, d): stored[(annotator_id, q, d)][0] for q, d in last} == last
    check_history(rows, [alice, bob], lambda r: (r.annotator_id, r.query_id, r.document_id), stored)
    with capsys.disabled():
        print(
            f"\n[{url.split(':')[0]}] 2 annotator processes × {WRITES_PER_ANNOTATOR} set_grade: "
            + ", ".join(
                f"{tag} {t:.2f} s ({1000 * t / WRITES_PER_ANNOTATOR:.2f} ms/grade)"
                for tag, (t, _) in timing.items()
            )
        )


def test_one_annotator_in_two_processes_never_loses_an_update(
    items: tuple[str, list[tuple[int, int]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """The same annotator open twice (two windows, or a shared login) hammering the same 150
    items: every write lands on the one row per item, serialised, none lost."""
    url, pairs = items
    rng = random.Random(7)
    hot = rng.sample(pairs, CONTENDED_ITEMS)
    plans = [
        Plan(url, f"p{i}", "carol", "grade", _plan_writes(rng, hot, CONTENDED_WRITES))
        for i in range(2)
    ]
    timing = run_processes(plans)
    assert timing["p0"][1] == timing["p1"][1]  # ensure_annotator raced and agreed
    database = open_database(url)
    try:
        j = models.judgments
        with database.engine.connect() as conn:
            stored_rows = conn.execute(select(j.c.query_id, j.c.document_id, j.c.grade, j.c.note))
            stored = {(r.query_id, r.document_id): (r.grade, r.note) for r in stored_rows}
        rows = _history(database, "judgment")
    finally:
        database.dispose()
    assert len(stored) == CONTENDED_ITEMS
    check_history(rows, plans, lambda r: (r.query_id, r.document_id), stored)
    with capsys.disabled():
        print(
            f"\n[{url.split(':')[0]}] 1 annotator in 2 processes × {CONTENDED_WRITES} set_grade on "
            f"{CONTENDED_ITEMS} items: "
            + ", ".join(f"{tag} {t:.2f} s" for tag, (t, _) in timing.items())
        )


def test_two_leads_adjudicate_the_same_items_later_write_wins(
    items: tuple[str, list[tuple[int, int]]],
) -> None:
    """Two people adjudicating the same items at once: one adjudication per item, equal to the
    chronologically last write (the end of the history chain); both people's decisions are all
    in the history, attributed to them."""
    if not hasattr(annotation.AnnotationService, "set_adjudication"):
        pytest.fail("AnnotationService.set_adjudication is missing")
    url, pairs = items
    rng = random.Random(11)
    hot = rng.sample(pairs, CONTENDED_ITEMS // 3)
    plans = [
        Plan(url, f"lead{i}", f"lead {i}", "adjudicate", _plan_writes(rng, hot, 300))
        for i in range(2)
    ]
    timing = run_processes(plans)
    database = open_database(url)
    try:
        a = models.adjudications
        with database.engine.connect() as conn:
            stored_rows = conn.execute(
                select(a.c.query_id, a.c.document_id, a.c.grade, a.c.note, a.c.adjudicator_id)
            ).all()
        rows = _history(database, "adjudication")
    finally:
        database.dispose()
    stored = {(r.query_id, r.document_id): (r.grade, r.note) for r in stored_rows}
    assert len(stored_rows) == len(hot)
    check_history(rows, plans, lambda r: (r.query_id, r.document_id), stored)
    ids = {tag: annotator_id for tag, (_, annotator_id) in timing.items()}
    for row in rows:  # attributed to whoever made the call
        assert row.changed_by == ids[row.new_note.split(":")[0]]
        assert row.annotator_id is None
    for r in stored_rows:  # the adjudicator is the one who wrote last
        assert r.adjudicator_id == ids[r.note.split(":")[0]]


def test_later_adjudication_wins_and_both_are_in_the_history(db: Database) -> None:
    """The sequential rule, spelled out: lead A says 3, then lead B says 1 → 1 by B."""
    with db.engine.begin() as conn:
        conn.execute(insert(models.queries), [{"external_id": "q", "text": ""}])
        conn.execute(
            insert(models.documents), [{"external_id": "d", "title": "", "text": "", "url": ""}]
        )
    service = annotation.AnnotationService(db)
    lead_a = service.ensure_annotator("lead A")
    lead_b = service.ensure_annotator("lead B")
    with db.engine.connect() as conn:
        query_id = conn.execute(select(models.queries.c.id)).scalar_one()
        document_id = conn.execute(select(models.documents.c.id)).scalar_one()
    service.set_adjudication(query_id, document_id, 3, by=lead_a.id)
    change = service.set_adjudication(query_id, document_id, 1, by=lead_b.id)
    assert (change.old_grade, change.new_grade) == (3, 1)
    a = models.adjudications
    with db.engine.connect() as conn:
        final = conn.execute(select(a.c.grade, a.c.adjudicator_id)).one()
    assert tuple(final) == (1, lead_b.id)
    history = [
        (h.kind, h.old_grade, h.new_grade, h.changed_by)
        for h in service.history(query_id, document_id)
    ]
    assert history == [
        ("adjudication", None, 3, lead_a.id),
        ("adjudication", 3, 1, lead_b.id),
    ]
