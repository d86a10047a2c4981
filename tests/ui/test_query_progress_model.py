"""The Annotate query list's columnar model and filter proxy against plain-Python oracles."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPersistentModelIndex, Qt

from ndcg_studio.services.annotation.types import QueryProgress, QueryProgressList
from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.ui.collation import fold
from ndcg_studio.ui.models.query_columns import QueryColumns
from ndcg_studio.ui.models.query_progress import QueryFilterProxy, QueryProgressModel
from ndcg_studio.vocabulary import natural_key
from tests.ui.test_models_compare import report, two_runs  # noqa: F401 - fixtures

M = QueryProgressModel


def _progress_key(r: QueryProgress) -> Any:
    """The order of the list before it became columnar (a Python sort with this key)."""
    share = r.judged / r.pool_size if r.pool_size else 0.0
    return (r.pool_size == 0, share, r.judged - r.pool_size, natural_key(r.external_id))


def _rows(n: int, seed: int) -> list[QueryProgress]:
    rng = np.random.default_rng(seed)
    prefixes = ["q", "Q", "topic-", ""]
    rows = []
    for i in range(n):
        pool = int(rng.integers(0, 6))
        ext = f"{prefixes[int(rng.integers(0, 4))]}{int(rng.integers(0, 3 * n))}-{i}"
        text = " ".join(rng.choice(["wing", "Ёлка", "flow", "heat"], size=2).tolist())
        rows.append(QueryProgress(i + 1, ext, text, pool, int(rng.integers(0, pool + 1))))
    return rows


@settings(max_examples=20, deadline=None)
@given(n=st.integers(0, 60), seed=st.integers(0, 10_000), descending=st.booleans())
def test_sorts_match_python_sorted(qapp: Any, n: int, seed: int, descending: bool) -> None:
    rows = _rows(n, seed)
    model = QueryProgressModel()
    model.set_rows(QueryColumns.from_progress(rows))
    order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
    model.sort(M.COL_QUERY, order)
    expected = sorted(rows, key=lambda r: natural_key(r.external_id), reverse=descending)
    assert model.rows() == expected
    model.sort(M.COL_PROGRESS, order)
    assert model.rows() == sorted(rows, key=_progress_key, reverse=descending)
    assert model.totals() == (
        sum(r.complete for r in rows),
        sum(r.judged for r in rows),
        sum(r.pool_size for r in rows),
    )


def test_columns_are_a_sequence_of_the_rows(qapp: Any) -> None:
    rows = _rows(30, 1)
    cols = QueryColumns.from_progress(rows)
    assert list(cols) == rows
    assert cols[-1] == rows[-1]
    assert cols[2:5] == rows[2:5]
    assert len(QueryColumns.from_progress([])) == 0


def test_the_services_columns_give_the_same_keys_as_its_rows(qapp: Any) -> None:
    rows = _rows(40, 2)
    listed = QueryProgressList(
        query_id=np.array([r.query_id for r in rows], dtype=np.int64),
        external_id=[r.external_id for r in rows],
        text=[r.text for r in rows],
        pool_size=np.array([r.pool_size for r in rows], dtype=np.int64),
        judged=np.array([r.judged for r in rows], dtype=np.int64),
    )
    assert list(listed) == rows and listed[-2] == rows[-2] and listed[3:7] == rows[3:7]
    with pytest.raises(IndexError):
        listed[40]
    fast, slow = QueryColumns.from_progress(listed), QueryColumns.from_progress(rows)
    for name in ("query_id", "pool_size", "judged", "id_rank", "text_rank", "folded"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    assert list(fast) == rows


def test_filter_proxy_matches_the_text_and_follows_the_selection(
    qapp: Any, qtmodeltester: Any
) -> None:
    rows = _rows(200, 7)
    model = QueryProgressModel()
    model.set_rows(rows)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.set_filter_text(" ЕЛКА ")
    shown = [proxy.index(r, 0).data(M.QueryIdRole) for r in range(proxy.rowCount())]
    assert sorted(shown) == [
        r.query_id for r in rows if "елка" in fold(r.external_id) or "елка" in fold(r.text)
    ]
    assert 0 < len(shown) < len(rows)
    # a persistent index (the selection) follows its query through sorts and filter changes
    picked = QPersistentModelIndex(proxy.index(3, 0))
    query_id = picked.data(M.QueryIdRole)
    for column in (M.COL_TEXT, M.COL_PROGRESS, M.COL_QUERY):
        proxy.sort(column, Qt.SortOrder.DescendingOrder)
        assert picked.isValid() and picked.data(M.QueryIdRole) == query_id
        visible = [proxy.index(r, 0).data(M.QueryIdRole) for r in range(proxy.rowCount())]
        in_model_order = [
            q for q in (model.query_at(r).query_id for r in range(model.rowCount())) if q in shown
        ]
        assert visible == in_model_order
    proxy.set_filter_text("")
    assert proxy.rowCount() == len(rows)
    assert picked.data(M.QueryIdRole) == query_id
    qtmodeltester.check(proxy)


def test_hide_complete_hides_a_query_as_it_completes(qapp: Any, qtmodeltester: Any) -> None:
    rows = [QueryProgress(i, f"q{i}", "t", 3, 1) for i in range(1, 6)]
    model = QueryProgressModel()
    model.set_rows(rows)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_hide_complete(True)
    assert proxy.rowCount() == 5
    kept = QPersistentModelIndex(proxy.mapFromSource(model.index(model.row_of(4), 0)))
    changed: list[Any] = []
    proxy.dataChanged.connect(lambda a, b, *_: changed.append((a.row(), b.row())))
    model.set_judged(2, 2)  # still open: one row changes in place
    assert proxy.rowCount() == 5 and len(changed) == 1
    model.set_judged(2, 3)  # complete: hidden
    assert proxy.rowCount() == 4
    assert 2 not in [proxy.index(r, 0).data(M.QueryIdRole) for r in range(4)]
    assert kept.data(M.QueryIdRole) == 4
    assert model.totals() == (1, 7, 15)
    model.adjust_judged(2, -1)  # open again: shown again
    assert proxy.rowCount() == 5
    qtmodeltester.check(proxy)
    qtmodeltester.check(model)


@pytest.mark.parametrize("rows", [[], [QueryProgress(1, "q1", "", 0, 0)]])
def test_small_lists(qapp: Any, qtmodeltester: Any, rows: list[QueryProgress]) -> None:
    model = QueryProgressModel()
    model.set_rows(rows)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_hide_complete(True)
    proxy.set_filter_text("q")
    assert proxy.rowCount() == len(rows)
    assert model.row_of(99) is None and model.progress_of(99) is None
    qtmodeltester.check(proxy)


@settings(max_examples=40, deadline=None)
@given(
    prefix=st.sampled_from(["q", "Q", "topic-", "é"]),
    numbers=st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
    zeros=st.lists(st.integers(0, 2), min_size=40, max_size=40),
    odd=st.sampled_from(["", "q7", "Q7", "q", "q1a", "7"]),
)
def test_table_natural_key_matches_the_python_key(
    prefix: str, numbers: list[int], zeros: list[int], odd: str
) -> None:
    """Ids of one prefix and a number take the numeric fast path; anything else the Python key:
    both give ranks in the order of ``vocabulary.natural_key`` (ties in code point order)."""
    from ndcg_studio.services.screens.sort_keys import natural_key as table_key

    ids = [f"{prefix}{'0' * z}{n}" for n, z in zip(numbers, zeros, strict=False)]
    if odd:
        ids.append(odd)
    ranks = table_key(np.array(ids, dtype=object))
    expected = {t: i for i, t in enumerate(sorted(sorted(set(ids)), key=natural_key))}
    assert ranks.tolist() == [expected[t] for t in ids]


def test_review_rows_keys_made_in_the_worker_sort_and_filter_as_the_model_would(
    qapp: Any,
    report: ScoreReport,  # noqa: F811 - the fixture imported above
) -> None:
    """with_text_keys (the Review worker) precomputes the Text sort key and the search haystack;
    the model given rows without them (computing its own) shows the same rows in the same
    order."""
    from dataclasses import replace

    from ndcg_studio.services.screens.review import ReviewRows
    from ndcg_studio.ui.models.scores import (
        COL_TEXT,
        ReviewFilter,
        ScoresTableModel,
        with_text_keys,
    )

    words = ["Ёлка", "елка", "Wing", "wing flow", "zeta", "Äpfel", "apple", ""]
    texts = [words[i % len(words)] for i in range(len(report.query_external))]
    rows = with_text_keys(ReviewRows.from_report(report, texts))
    assert rows.text_key is not None and rows.haystack is not None
    ours, plain = ScoresTableModel(), ScoresTableModel()
    ours.set_rows(rows)
    plain.set_rows(replace(rows, text_key=None, haystack=None))
    for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
        ours.sort(COL_TEXT, order)
        plain.sort(COL_TEXT, order)
        assert ours.source_rows().tolist() == plain.source_rows().tolist()
    for needle in ("ЕЛКА", "wing", "0", "zz"):
        ours.set_filter(ReviewFilter(text=needle))
        plain.set_filter(ReviewFilter(text=needle))
        assert ours.source_rows().tolist() == plain.source_rows().tolist()


def test_review_agreement_columns_arrive_without_a_reset(
    qapp: Any,
    qtmodeltester: Any,
    report: ScoreReport,  # noqa: F811 - the fixture imported above
) -> None:
    """The second stage of a Review load fills alpha / disputed / spread in place: values as
    from_report would give them, the selection kept, re-sorted and re-filtered by them."""
    from ndcg_studio.services.agreement import QueryAgreement
    from ndcg_studio.services.screens.review import ReviewRows
    from ndcg_studio.ui.models.scores import COL_ALPHA, COL_QUERY, ReviewFilter, ScoresTableModel

    names = list(report.query_external)
    rng = np.random.default_rng(3)
    n = len(names)
    agreement = QueryAgreement(
        names,
        rng.uniform(-0.2, 1, n),
        np.full(n, 5, dtype=np.int64),
        np.full(n, 3, dtype=np.int64),
        rng.integers(0, 3, n).astype(np.int64),
    )
    spread = rng.uniform(0, 1, len(report))
    texts = ["t"] * n
    first = ReviewRows.from_report(report, texts)
    full = ReviewRows.from_report(report, texts, agreement, spread)
    model = ScoresTableModel()
    qtmodeltester.check(model)
    model.set_rows(first)
    model.sort(COL_QUERY, Qt.SortOrder.AscendingOrder)
    picked = QPersistentModelIndex(model.index(5, 0))
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    later = first.with_agreement(report, agreement, spread)
    model.set_agreement_columns(later)
    assert not resets and picked.row() == 5
    np.testing.assert_array_equal(model.rows.alpha, full.alpha)
    np.testing.assert_array_equal(model.rows.n_disputed, full.n_disputed)
    np.testing.assert_array_equal(model.rows.spread_values(), spread)
    # sorted by alpha, or showing disputed queries only: the rows follow the new columns
    model.sort(COL_ALPHA, Qt.SortOrder.DescendingOrder)
    model.set_filter(ReviewFilter(disputed_only=True))
    model.set_rows(first)
    model.set_agreement_columns(later)
    shown = model.source_rows()
    assert shown.tolist() == [
        int(i) for i in np.argsort(-full.alpha, kind="stable") if full.n_disputed[i] > 0
    ]
