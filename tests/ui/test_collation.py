"""Text columns sort by the locale's collation and filters fold case, under a forced locale
(``QLocale.setDefault``): Russian ``ё`` sorts with ``е`` (not after ``я``), Chinese in pinyin
order under zh_CN, ids naturally; filters match ``Ё``/``ё``/``е`` and upper/lower case."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QCollator, QLocale, Qt

from ndcg_studio.domain.bands import band_of
from ndcg_studio.services.annotation.types import QueryProgress
from ndcg_studio.services.screens.review import ReviewRows
from ndcg_studio.ui.collation import collation_ranks, fold
from ndcg_studio.ui.models.query_progress import QueryFilterProxy, QueryProgressModel
from ndcg_studio.ui.models.scores import COL_QUERY, COL_TEXT, ReviewFilter
from ndcg_studio.ui.models.scores import ScoresTableModel as Scores
from ndcg_studio.ui.models.table import SORT_ROLE

RUSSIAN = ["яблоко", "ёлка", "Ель", "ежевика", "Ёж", "жук", "арбуз", "еда"]
RUSSIAN_SORTED = ["арбуз", "еда", "Ёж", "ежевика", "ёлка", "Ель", "жук", "яблоко"]
CHINESE = ["中国", "北京", "张家界", "阿里", "成都"]
CHINESE_SORTED = ["阿里", "北京", "成都", "张家界", "中国"]  # pinyin a, bei, cheng, zhang, zhong


@pytest.fixture
def locale(request: pytest.FixtureRequest) -> Iterator[QLocale]:
    """The application's default locale forced to ``request.param`` for the test."""
    before = QLocale()
    forced = QLocale(request.param)
    QLocale.setDefault(forced)
    yield forced
    QLocale.setDefault(before)


def in_order(texts: list[str], loc: QLocale | None) -> list[str]:
    ranks = collation_ranks(texts, loc)
    return [texts[i] for i in np.argsort(ranks, kind="stable")]


def test_russian_and_chinese_collation() -> None:
    assert in_order(RUSSIAN, QLocale("ru_RU")) == RUSSIAN_SORTED
    assert sorted(RUSSIAN)[-1] == "ёлка"  # code point order: ё after я
    assert in_order(CHINESE, QLocale("zh_CN")) == CHINESE_SORTED
    assert in_order(["中", "北", "张", "阿"], QLocale("zh_CN")) == ["阿", "北", "张", "中"]
    assert sorted(["中", "北", "张", "阿"]) == ["中", "北", "张", "阿"]  # code points
    assert in_order(["q10", "q2", "Q1"], QLocale("ru_RU")) == ["Q1", "q2", "q10"]  # numeric
    # the C locale (Qt: code points) gets the root collation instead
    assert in_order(["b", "A", "ё", "я", "е"], QLocale.c()) == ["A", "b", "е", "ё", "я"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="аеёжяАЕЁЯ中北张阿 1-20q", max_size=6), max_size=30))
def test_ranks_agree_with_the_collator(texts: list[str]) -> None:
    loc = QLocale("ru_RU")
    ranks = collation_ranks(texts, loc).tolist()
    collator = QCollator(loc)
    collator.setNumericMode(True)
    for i, a in enumerate(texts):
        for j, b in enumerate(texts):
            if a == b:
                assert ranks[i] == ranks[j]
            elif ranks[i] < ranks[j]:
                assert collator.compare(a, b) <= 0, (a, b)
    assert sorted(set(ranks)) == list(range(len(set(texts))))


def review_rows(texts: list[str]) -> ReviewRows:
    n = len(texts)
    ndcg = np.linspace(0.1, 0.9, n)
    return ReviewRows(
        k=10,
        query=np.array([f"q{i + 1}" for i in range(n)]),
        query_id=np.arange(1, n + 1, dtype=np.int64),
        run=np.full(n, "bm25"),
        ndcg=ndcg,
        dcg=ndcg,
        idcg=np.ones(n),
        band=band_of(ndcg),
        judged_at_k=np.ones(n),
        n_annotators=np.ones(n, dtype=np.int64),
        alpha=np.full(n, math.nan),
        n_disputed=np.zeros(n, dtype=np.int64),
        text=np.array(texts),
    )


@pytest.mark.parametrize(
    ("locale", "texts", "expected"),
    [("ru_RU", RUSSIAN, RUSSIAN_SORTED), ("zh_CN", CHINESE, CHINESE_SORTED)],
    indirect=["locale"],
)
def test_review_table_sorts_text_by_collation(
    qapp: Any, qtmodeltester: Any, locale: QLocale, texts: list[str], expected: list[str]
) -> None:
    model = Scores()
    model.set_rows(review_rows(texts))
    qtmodeltester.check(model)
    model.sort(COL_TEXT, Qt.SortOrder.AscendingOrder)
    shown = [model.index(r, COL_TEXT).data() for r in range(model.rowCount())]
    assert shown == expected
    model.sort(COL_TEXT, Qt.SortOrder.DescendingOrder)
    assert [model.index(r, COL_TEXT).data() for r in range(model.rowCount())] == expected[::-1]
    model.sort(COL_QUERY, Qt.SortOrder.AscendingOrder)  # q1 < q2 < … < q10 still
    assert model.index(0, COL_QUERY).data(SORT_ROLE) == "q1"


@pytest.mark.parametrize("locale", ["ru_RU"], indirect=True)
def test_review_filter_folds_cyrillic_case_and_yo(qapp: Any, locale: QLocale) -> None:
    model = Scores()
    model.set_rows(review_rows(RUSSIAN))
    for needle, expected in [
        ("ЁЛКА", {"ёлка"}),
        ("елка", {"ёлка"}),  # е finds ё
        ("ЁЖ", {"Ёж", "ежевика"}),
        ("ель", {"Ель"}),
    ]:
        model.set_filter(dataclasses.replace(ReviewFilter(), text=needle))
        got = {model.index(r, COL_TEXT).data() for r in range(model.rowCount())}
        assert got == expected, needle


@pytest.mark.parametrize(
    ("locale", "texts", "expected"),
    [("ru_RU", RUSSIAN, RUSSIAN_SORTED), ("zh_CN", CHINESE, CHINESE_SORTED)],
    indirect=["locale"],
)
def test_annotate_query_list_sorts_and_filters(
    qapp: Any, qtmodeltester: Any, locale: QLocale, texts: list[str], expected: list[str]
) -> None:
    model = QueryProgressModel()
    model.set_rows([QueryProgress(i + 1, f"q{i + 1}", t, 3, 1) for i, t in enumerate(texts)])
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(model)
    proxy.sort(QueryProgressModel.COL_TEXT, Qt.SortOrder.AscendingOrder)
    assert [r.text for r in model.rows()] == expected
    proxy.set_filter_text("ЁЛКА" if texts is RUSSIAN else "北京")
    visible = [proxy.index(r, 1).data() for r in range(proxy.rowCount())]
    assert visible == (["ёлка"] if texts is RUSSIAN else ["北京"])


def test_fold() -> None:
    assert fold("Ёлка") == fold("ЕЛКА") == "елка"
    assert fold("Straße") == "strasse"
