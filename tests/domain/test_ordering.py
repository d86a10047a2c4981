"""trec_eval's run order as stored positions."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.metrics import doc_order_key
from ndcg_studio.domain.ordering import trec_positions


def test_score_desc_then_docno_desc_per_group() -> None:
    docs = ["b", "a", "c", "x", "y"]
    pos = trec_positions([0, 0, 0, 1, 1], [1.0, 1.0, 2.0, 5.0, 5.0], doc_order_key(docs))
    # group 0: c (2.0) first, then the tie b/a broken by docno descending: b before a
    assert pos.tolist() == [2, 3, 1, 2, 1]


def test_matches_the_rank_column_of_trec_eval_test_data() -> None:
    """results.test's rank column equals trec_eval's order (its SOURCE.md), ties included."""
    from tests.conftest import SHARED_DATA

    path = SHARED_DATA / "trec_eval_test" / "results.test"
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    qids = np.array([int(r[0]) for r in rows])
    pos = trec_positions(qids, [float(r[4]) for r in rows], doc_order_key([r[2] for r in rows]))
    assert pos.tolist() == [int(r[3]) for r in rows]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3)), max_size=60))
def test_positions_agree_with_python_sort(rows: list[tuple[int, int]]) -> None:
    docs = [f"d{i:03d}" for i in range(len(rows))]
    group = [g for g, _ in rows]
    score = [float(s) for _, s in rows]
    pos = trec_positions(group, score, doc_order_key(docs))
    for g in set(group):
        members = [i for i in range(len(rows)) if group[i] == g]
        expected = sorted(members, key=lambda i: (-score[i], [-ord(c) for c in docs[i]]))
        assert [int(pos[i]) for i in expected] == list(range(1, len(members) + 1))
