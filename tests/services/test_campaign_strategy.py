"""A campaign's queue under a pooling strategy (#16.1, #17.1): the order is the domain chooser's,
the campaign's rules (overlap, no double work) hold, ``depth`` stays as it was; both databases."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import select

from ndcg_studio.domain.pooling.strategies import build_pool, judging_order, make_chooser
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from tests.services.test_campaigns import build, spec

K = 2


def _true_grade(query_id: int, document_id: int) -> int:
    """A fixed grade per item, some relevant and some not, so mtf and bandit adapt."""
    return (query_id * 7 + document_id * 3) % 5 if (query_id + document_id) % 3 else 0


def _expected(db: Database, strategy: str, seed: int) -> list[tuple[int, int]]:
    """The domain's judging order of the campaign's depth-3 pool of runs A and B, revealing
    the true grades, as (query id, document id)."""
    r, runs = models.results, models.runs
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(runs.c.name, r.c.query_id, r.c.document_id, r.c.position).join(
                runs, runs.c.id == r.c.run_id
            )
        ).all()
    query_ids = sorted({q for _n, q, _d, _p in rows})
    dense = {q: i for i, q in enumerate(query_ids)}
    pool = build_pool(
        np.array([0 if n == "A" else 1 for n, *_ in rows]),
        np.array([dense[q] for _n, q, _d, _p in rows]),
        np.array([d for *_, d, _p in rows]),
        np.array([p for *_, p in rows]),
        n_runs=2,
        n_queries=len(query_ids),
        depth=3,
    )
    items = [(query_ids[q], int(d)) for q, d in zip(pool.query, pool.doc, strict=True)]
    chooser = make_chooser(strategy, pool, k=K, seed=seed, pairs=[(0, 1)])  # type: ignore[arg-type]
    order = judging_order(chooser, lambda p: float(_true_grade(*items[p])))
    return [items[p] for p in order.tolist()]


@pytest.mark.parametrize("strategy", ["mtf", "bandit", "ab"])
def test_the_queue_offers_the_domain_strategys_order(db: Database, strategy: str) -> None:
    build(db)
    service = CampaignService(db)
    extra = {"pair": ("A", "B"), "k": K} if strategy == "ab" else {}
    info = service.create(spec(overlap=1, annotators=["ann"], strategy=strategy, seed=5, **extra))
    assert (info.strategy, info.pair, info.k) == (strategy, extra.get("pair"), extra.get("k"))
    ann = service.annotation.ensure_annotator("ann").id
    offered: list[tuple[int, int]] = []
    while items := service.queue("study", ann, 1):
        item = (items[0].query_id, items[0].document_id)
        offered.append(item)
        service.grade("study", ann, *item, _true_grade(*item))
    expected = _expected(db, strategy, seed=5)
    assert len(expected) == info.items == 16
    assert offered == expected
    # ... which is not the depth order (the seeded shuffle the queue follows without a strategy)
    ci = models.campaign_items
    with db.engine.connect() as conn:
        shuffled = conn.execute(
            select(ci.c.query_id, ci.c.document_id).order_by(ci.c.shuffle)
        ).all()
    assert offered != [tuple(r) for r in shuffled]


def test_a_strategy_keeps_the_campaign_rules_with_overlap_and_several_annotators(
    db: Database,
) -> None:
    build(db)
    service = CampaignService(db)
    service.create(spec(overlap=2, annotators=["ann", "bob", "cid"], strategy="bandit"))
    people = [service.annotation.ensure_annotator(n).id for n in ("ann", "bob", "cid")]
    seen: dict[int, set[tuple[int, int]]] = {p: set() for p in people}
    # bob holds two items: the others are not offered them beyond N - 1 more grades
    held = {(i.query_id, i.document_id) for i in service.queue("study", people[1], 2)}
    busy = True
    while busy:
        busy = False
        for person in people:
            for item in service.queue("study", person, 1):
                key = (item.query_id, item.document_id)
                assert key not in seen[person]  # never an item they judged
                seen[person].add(key)
                service.grade("study", person, *key, _true_grade(*key))
                busy = True
    with db.engine.connect() as conn:
        counts = conn.execute(
            select(models.judgments.c.query_id, models.judgments.c.document_id).select_from(
                models.judgments
            )
        ).all()
    per_item: dict[tuple[int, int], int] = {}
    for q, d in counts:
        per_item[(q, d)] = per_item.get((q, d), 0) + 1
    assert len(per_item) == 16 and set(per_item.values()) == {2}
    assert held <= seen[people[1]]  # bob's holds came back to him first
    assert service.get("study").complete == 16


def test_depth_is_the_default_and_the_strategy_options_are_checked(db: Database) -> None:
    build(db)
    service = CampaignService(db)
    info = service.create(spec())
    assert (info.strategy, info.pair, info.k) == ("depth", None, None)
    for bad, message in (
        ({"strategy": "best"}, "strategy is one of"),
        ({"strategy": "ab"}, "needs --pair"),
        ({"strategy": "ab", "pair": ("A", "A"), "k": 3}, "two different runs"),
        ({"strategy": "ab", "pair": ("A", "C"), "k": 3}, "two different runs"),
        ({"strategy": "ab", "pair": ("A", "B"), "k": 0}, "--k is an integer"),
        ({"strategy": "mtf", "k": 3}, "belong to the ab and ppi strategies"),
    ):
        with pytest.raises(ValueError, match=message):
            service.create(spec(name="x", **bad))
    assert [c.name for c in service.all()] == ["study"]  # nothing written


def test_the_campaign_lock_is_the_one_campaign_grades_take() -> None:
    """Queue reads (storage.judgments.locks.lock_campaign) and campaign grades (the judgment writer)
    must take the same advisory lock, or a grade could land between a queue's read and its
    holds on PostgreSQL."""
    from ndcg_studio.storage.campaigns.records import campaign_lock_key
    from ndcg_studio.storage.judgments.locks import item_lock_key

    for campaign_id in (1, 7, 123456):
        writer_key = item_lock_key("campaign", {"campaign_id": campaign_id})
        assert campaign_lock_key(campaign_id) == writer_key
    assert campaign_lock_key(1) != campaign_lock_key(2)


@pytest.mark.parametrize("strategy", ["mtf", "bandit", "ab"])
def test_first_offered_is_the_choosers_order_less_blocked_then_later(strategy: str) -> None:
    from ndcg_studio.services.campaigns.order import campaign_pool, first_offered

    rng = np.random.default_rng(4)
    query = np.repeat(np.array([3, 8, 9]), 5)
    doc = np.tile(np.arange(5), 3) + 100
    rank = np.stack([np.tile(rng.permutation(5) + 1, 3), np.tile(rng.permutation(5) + 1, 3)])
    pool = campaign_pool(query, doc, rank, depth=5)
    items = list(zip(query.tolist(), doc.tolist(), strict=True))
    grades = {items[i]: float(i % 5) for i in (0, 4, 7)}
    known = [grades.get(item, 0.0) for item in items]
    chooser = make_chooser(strategy, pool, k=3, seed=1, pairs=[(0, 1)])  # type: ignore[arg-type]
    order = [items[p] for p in judging_order(chooser, lambda p: known[p]).tolist()]
    blocked, later = {order[1], order[5]}, {order[0], order[9]}
    args = (pool, strategy, grades, (query, doc), (blocked, later))
    every = first_offered(*args, 15, seed=1, k=3, pairs=[(0, 1)])  # type: ignore[arg-type]
    rest = [i for i in order if i not in blocked | later]
    assert every == [*rest, order[0], order[9]]
    assert first_offered(*args, 3, seed=1, k=3, pairs=[(0, 1)]) == rest[:3]  # type: ignore[arg-type]


def test_an_ab_campaign_without_its_pair_or_k_is_refused_not_served(db: Database) -> None:
    """An ``ab`` campaign whose K or pair was lost (a downgrade below 0007 and back, before
    the downgrade refused) is refused by the queue with a plain line, not served in another
    order."""
    build(db)
    service = CampaignService(db)
    service.create(spec(overlap=1, annotators=["ann"], strategy="ab", pair=("A", "B"), k=K))
    ann = service.annotation.ensure_annotator("ann").id
    with db.transaction() as session:
        session.execute(models.campaigns.update().values(pool_k=None))
    with pytest.raises(ValueError, match="'study' uses the ab order but its pair"):
        service.queue("study", ann, 1)
