"""The Annotate pool in the order of what decides A vs B (services.pool_order, pool(order=))."""

from __future__ import annotations

import math

import pytest

from ndcg_studio.services.annotation.pool_order import PoolOrder
from ndcg_studio.storage.database import Database
from tests.services.test_annotation import RESULTS, Data, build


@pytest.fixture
def data(db: Database) -> Data:
    return build(db)


def _expected(query: str, k: int, a: str, b: str, shuffled: list[str]) -> list[str]:
    """|1/log2(rank_A + 1) - 1/log2(rank_B + 1)| within the top k, largest first; ties in the
    shuffled order (computed here from the fixture's lists, not by the service)."""

    def disc(run: str, doc: str) -> float:
        docs = RESULTS.get((run, query), [])
        rank = docs.index(doc) + 1 if doc in docs else 0
        return 1.0 / math.log2(rank + 1) if 1 <= rank <= k else 0.0

    weight = {d: abs(disc(a, d) - disc(b, d)) for d in shuffled}
    return sorted(shuffled, key=lambda d: (-weight[d], shuffled.index(d)))


@pytest.mark.parametrize("k", [1, 3, 5, 10])
def test_ab_order_puts_what_decides_the_pair_first(data: Data, k: int) -> None:
    q1 = data.query["q1"]
    shuffled = data.service.pool(q1, None, 10)
    ordered = data.service.pool(q1, None, 10, PoolOrder("bm25", "dense", k))
    names = [it.external_id for it in shuffled]
    want = _expected("q1", k, "bm25", "dense", names)
    assert [it.external_id for it in ordered] == want
    # the same blind items, reordered
    assert sorted(ordered, key=lambda it: names.index(it.external_id)) == shuffled
    if k == 5:  # d4, d5 in both lists: |1 - 1/log2 5| > 1/log2 5 (d7) > |1/log2 3 - 1/log2 6|
        assert want.index("d4") < want.index("d7") < want.index("d5")
    # the pair's direction does not matter (|.|)
    assert data.service.pool(q1, None, 10, PoolOrder("dense", "bm25", k)) == ordered


def test_ab_order_changes_the_shuffle_and_respects_the_depth(data: Data) -> None:
    q1 = data.query["q1"]
    names = [it.external_id for it in data.service.pool(q1, None, 10)]
    ordered = [
        it.external_id for it in data.service.pool(q1, None, 10, PoolOrder("bm25", "dense", 2))
    ]
    assert ordered[:2] in (["d1", "d4"], ["d4", "d1"]) and ordered != names
    shallow = data.service.pool(q1, None, 2, PoolOrder("bm25", "dense", 10))
    assert {it.external_id for it in shallow} == {"d1", "d2", "d4", "d5"}


def test_unknown_run_keeps_the_shuffled_order(data: Data) -> None:
    q1 = data.query["q1"]
    shuffled = data.service.pool(q1, None, 10)
    assert data.service.pool(q1, None, 10, PoolOrder("gone", "also-gone", 10)) == shuffled


def test_pool_order_text_round_trip_and_damage() -> None:
    order = PoolOrder("bm25 title", "dense", 20)
    assert PoolOrder.from_text(order.to_text()) == order
    for bad in (
        "",
        "shuffled",
        "[1, 2]",
        '{"order": "depth"}',
        '{"order": "ab", "run_a": "x", "run_b": "x", "k": 10}',
        '{"order": "ab", "run_a": "x", "run_b": "y", "k": 0}',
        '{"order": "ab", "run_a": "x", "run_b": "y", "k": true}',
        '{"order": "ab", "run_a": "x", "k": 10}',
    ):
        assert PoolOrder.from_text(bad) is None, bad
