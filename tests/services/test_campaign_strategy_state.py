"""The strategy queue's state kept between requests (services/campaign_order.py) answers what a
fresh rebuild answers — every grade read, the chooser replayed from its start — after any
sequence of grades, changed and cleared grades, marks and holds by several annotators; and a run
re-imported is noticed. SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert, select

from ndcg_studio.services.campaigns import order as campaign_order
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.storage import models
from ndcg_studio.storage.campaigns import records as cs
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.storage.judgments.items import ItemComplete
from tests.services.test_campaigns import build, spec

PEOPLE = ("ann", "bob", "cid")


def _both(db: Database, annotator: int, need: int) -> tuple[list[tuple[int, int]], ...]:
    """(the kept state's answer, a fresh rebuild's) in one transaction."""
    now = datetime.now(UTC)
    with db.transaction() as session:
        row = cs.campaign_row(session, "study")
        kept = campaign_order.strategy_items(session, row, annotator, now, need)
        fresh = campaign_order.rebuilt_items(session, row, annotator, now, need)
    return kept, fresh


operations = st.lists(
    st.tuples(
        st.sampled_from(["queue", "grade", "clear", "later", "cant_judge", "release"]),
        st.integers(0, 2),  # who
        st.integers(0, 15),  # which of the last offered / of the items
        st.integers(0, 4),  # grade
    ),
    min_size=1,
    max_size=20,
)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    strategy=st.sampled_from(["mtf", "bandit", "ab"]),
    overlap=st.integers(1, 2),
    ops=operations,
)
def test_the_kept_state_equals_a_fresh_rebuild(
    tmp_path_factory: pytest.TempPathFactory, strategy: str, overlap: int, ops: list
) -> None:
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('s') / 'studio.sqlite'}")
    try:
        _run(db, strategy, overlap, ops)
    finally:
        db.dispose()


def _run(db: Database, strategy: str, overlap: int, ops: list) -> None:
    build(db)
    service = CampaignService(db)
    extra = {"pair": ("A", "B"), "k": 2} if strategy == "ab" else {}
    service.create(spec(overlap=overlap, strategy=strategy, seed=3, **extra))
    people = [service.annotation.ensure_annotator(n).id for n in PEOPLE]
    with db.engine.connect() as conn:
        items = [tuple(r) for r in conn.execute(select(models.campaign_items.c[1:3]))]
    offered: list[tuple[int, int]] = []  # grades go to what was offered, clears to what was graded
    graded: list[tuple[int, int, int]] = []
    for op, who, which, grade in ops:
        person = people[who]
        q, d = items[which % len(items)]
        if op == "queue":
            offered += [(i.query_id, i.document_id) for i in service.queue("study", person, 3)]
        elif op == "grade" and offered:
            q, d = offered.pop(which % len(offered))
            try:
                service.grade("study", person, q, d, grade)
                graded.append((person, q, d))
            except ItemComplete:
                pass
        elif op == "clear" and graded:
            service.annotation.set_grade(*graded.pop(which % len(graded)), None)
        elif op == "release":
            service.release(person, "study")
        elif op in ("later", "cant_judge"):
            with contextlib.suppress(ValueError):  # graded: clear first
                service.mark("study", person, q, d, op)
        for other in people:
            kept, fresh = _both(db, other, 1 + which % 4)
            assert kept == fresh


def test_the_queue_follows_a_run_reimported(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    build(db)
    service = CampaignService(db)
    service.create(spec(overlap=1, annotators=["ann"], strategy="mtf"))
    ann = service.annotation.ensure_annotator("ann").id
    before, _ = _both(db, ann, 16)
    r = models.results
    with db.transaction() as s:  # run A re-imported in reverse order
        run_a = s.execute(select(models.runs.c.id).where(models.runs.c.name == "A")).scalar_one()
        rows = [dict(x._mapping) for x in s.execute(select(r).where(r.c.run_id == run_a))]
        s.execute(delete(r).where(r.c.run_id == run_a))
        for x in rows:
            x["position"] = 7 - x["position"]
        s.execute(insert(r), rows)
    kept, fresh = _both(db, ann, 16)
    assert fresh != before  # the new ranks change the order...
    assert kept == before  # ...which the state sees only at its next check of the ranks
    monkeypatch.setattr(campaign_order, "RECHECK_SECONDS", 0.0)
    kept, fresh = _both(db, ann, 16)
    assert kept == fresh
