"""Builders shared by the scoring tests: readable (query id, doc id, score) data -> arrays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from ndcg_studio.domain.metrics.measures import Qrels, RankedLists
from ndcg_studio.domain.metrics.ordering import doc_order_key

# One ranked list: (query id, [(doc id, score) or (doc id, score, rank), ...]).
GroupSpec = tuple[str, Sequence[tuple[str, float] | tuple[str, float, int]]]


@dataclass(frozen=True)
class Case:
    """Arrays for the engine plus the external ids they stand for."""

    lists: RankedLists
    qrels: Qrels
    query_ids: list[str]
    doc_ids: list[str]
    groups: list[GroupSpec]
    judgments: dict[tuple[str, str], float]


def make_case(groups: Sequence[GroupSpec], judgments: Mapping[tuple[str, str], float]) -> Case:
    """Build RankedLists/Qrels from external ids. Missing ranks default to list position."""
    query_ids = sorted({q for q, _ in groups} | {q for q, _ in judgments})
    doc_ids = sorted({item[0] for _, items in groups for item in items} | {d for _, d in judgments})
    q_index = {q: i for i, q in enumerate(query_ids)}
    d_index = {d: i for i, d in enumerate(doc_ids)}
    group, doc, score, rank = [], [], [], []
    for g, (_, items) in enumerate(groups):
        for position, item in enumerate(items, start=1):
            group.append(g)
            doc.append(d_index[item[0]])
            score.append(float(item[1]))
            rank.append(int(item[2]) if len(item) > 2 else position)  # type: ignore[misc]
    lists = RankedLists(
        group=np.array(group, dtype=np.int64),
        doc=np.array(doc, dtype=np.int64),
        score=np.array(score, dtype=np.float64),
        rank=np.array(rank, dtype=np.int64),
        group_query=np.array([q_index[q] for q, _ in groups], dtype=np.int64),
        doc_key=doc_order_key(doc_ids),
    )
    qrels = Qrels(
        query=np.array([q_index[q] for q, _ in judgments], dtype=np.int64),
        doc=np.array([d_index[d] for _, d in judgments], dtype=np.int64),
        grade=np.array(list(judgments.values()), dtype=np.float64),
    )
    return Case(lists, qrels, query_ids, doc_ids, list(groups), dict(judgments))


@pytest.fixture(scope="session")
def build() -> Callable[[Sequence[GroupSpec], Mapping[tuple[str, str], float]], Case]:
    """The :func:`make_case` builder (session scope: usable inside hypothesis tests)."""
    return make_case
