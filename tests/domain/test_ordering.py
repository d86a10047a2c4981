"""trec_eval's run order as stored positions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.metrics.ordering import (
    doc_order_key,
    trec_positions,
    trec_positions_of_docs,
)


def test_score_desc_then_docno_desc_per_group() -> None:
    docs = ["b", "a", "c", "x", "y"]
    pos = trec_positions([0, 0, 0, 1, 1], [1.0, 1.0, 2.0, 5.0, 5.0], doc_order_key(docs))
    # group 0: c (2.0) first, then the tie b/a broken by docno descending: b before a
    assert pos.tolist() == [2, 3, 1, 2, 1]


def test_matches_the_rank_column_of_trec_eval_test_data() -> None:
    """results.test's rank column equals trec_eval's order (its SOURCE.md), ties included."""
    from tests.conftest import REPO

    path = REPO / "tests" / "data" / "trec_eval_test" / "results.test"  # the repository's copy
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


def test_positions_of_docs_on_trec_eval_test_data() -> None:
    """The one-sort variant gives results.test's rank column too (it has tied scores)."""
    from tests.conftest import REPO

    path = REPO / "tests" / "data" / "trec_eval_test" / "results.test"  # the repository's copy
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    qids = np.array([int(r[0]) for r in rows])
    pos = trec_positions_of_docs(qids, [float(r[4]) for r in rows], [r[2] for r in rows])
    assert pos.tolist() == [int(r[3]) for r in rows]


@given(
    st.lists(
        st.tuples(
            st.integers(0, 4),
            st.sampled_from([-1.5, -0.0, 0.0, 0.5, 1e-300, 2.0, 1e300]),
            st.text("ab\u00e9\U0001f600", min_size=1, max_size=3),
        ),
        max_size=80,
        unique_by=lambda r: (r[0], r[2]),
    )
)
def test_positions_of_docs_equal_positions_with_every_key(
    rows: list[tuple[int, float, str]],
) -> None:
    """Same positions as trec_positions with doc_order_key of all ids: many ties (few score
    values, -0.0 beside 0.0), non-ASCII ids, empty input."""
    group = np.array([g for g, _, _ in rows], dtype=np.int64)
    score = np.array([s for _, s, _ in rows], dtype=np.float64)
    docs = [d for _, _, d in rows]
    expected = trec_positions(group, score, doc_order_key(docs))
    assert trec_positions_of_docs(group, score, docs).tolist() == expected.tolist()


def test_positions_of_docs_falls_back_when_the_key_would_overflow() -> None:
    group = np.array([2**61, 2**61, 0])
    pos = trec_positions_of_docs(group, [1.0, 1.0, 3.0], ["a", "b", "c"])
    assert pos.tolist() == [2, 1, 1]
    with pytest.raises(ValueError, match="finite"):
        trec_positions_of_docs([0], [float("nan")], ["a"])
    with pytest.raises(ValueError, match="length"):
        trec_positions_of_docs([0, 1], [1.0], ["a"])
