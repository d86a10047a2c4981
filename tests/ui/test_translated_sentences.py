"""The sentences the GUI builds from numbers (#21.1, phase 2): in English they equal the text the
services and the domain write for the command line, word for word; in Chinese and Russian they
are whole translated sentences (no English word left but names), with Russian's plural forms.

Oracles: :func:`ndcg_studio.services.verdict.verdict_text`,
:meth:`ndcg_studio.services.scoring.multirun.MultiRunReport.power_sentence` (as the view showed it
before
it was translated), :func:`ndcg_studio.services.wording.count`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.services.verdict import PairVerdict, verdict_text
from ndcg_studio.services.wording import count
from ndcg_studio.ui.language import apply_language, counted, label
from ndcg_studio.ui.models.compare_matrix import PairMatrix
from ndcg_studio.ui.views.compare.text import verdict_sentence

#: words of two or more Latin letters that are not names, units or notation
_ENGLISH = re.compile(r"\b(?!nDCG|IDCG|DCG|bm25|run|fusion|noisy)[A-Za-z]{3,}\b")


@pytest.fixture
def lang(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    undo = apply_language(request.param)
    yield request.param
    undo()


def _verdict(
    judged: int = 793, to_settle: int | None = 2552, low: float = -0.6, high: float = 0.6
) -> PairVerdict:
    return PairVerdict(
        run_a="bm25",
        run_b="noisy",
        k=10,
        depth=10,
        pooled=3617,
        judged=judged,
        low=low,
        high=high,
        to_settle=to_settle,
        p_a_better=0.07,
    )


@settings(max_examples=60, deadline=None)
@given(
    judged=st.integers(0, 3617),
    to_settle=st.none() | st.integers(0, 1_000_000),
    low=st.floats(-1, 1),
    width=st.floats(0, 1),
)
def test_the_english_verdict_is_the_services_text(
    qapp: Any, judged: int, to_settle: int | None, low: float, width: float
) -> None:
    v = _verdict(judged, to_settle, low, min(low + width, 1.0))
    assert verdict_sentence(v) == verdict_text(v)


@pytest.mark.parametrize("lang", ["zh_CN", "ru"], indirect=True)
def test_the_verdict_is_translated_whole(lang: str) -> None:
    for v in (_verdict(), _verdict(to_settle=None), _verdict(judged=3617, low=0.1, high=0.3)):
        text = verdict_sentence(v)
        assert _ENGLISH.findall(text) == [], text
        assert re.search(r"3[,\xa0]617", text), text  # the pooled count, grouped


@pytest.mark.parametrize("lang", ["ru"], indirect=True)
def test_russian_counts_take_three_plural_forms(lang: str) -> None:
    assert [counted(n, "judgments") for n in (1, 3, 5, 21, 1837)] == [
        "1 оценка",
        "3 оценки",
        "5 оценок",
        "21 оценка",
        "1\xa0837 оценок",
    ]
    assert "ещё примерно 2\xa0552 оценки" in verdict_sentence(_verdict())
    assert "ещё примерно 1 оценка" in verdict_sentence(_verdict(to_settle=1))


@pytest.mark.parametrize("lang", ["zh_CN"], indirect=True)
def test_chinese_counts(lang: str) -> None:
    assert counted(1837, "judgments") == "1,837 条标注"
    assert counted(1, "queries") == "1 个查询"


def test_english_counts_are_the_services_words(qapp: Any) -> None:
    for noun in ("annotators", "documents", "items", "judgments", "queries", "rows", "runs"):
        for n in (0, 1, 2, 1837):
            assert counted(n, noun) == count(n, noun)


def _matrix(delta: float) -> PairMatrix:
    empty = PairMatrix.empty()
    sentence = (
        f"with 43 queries you can detect Δ ≥ {delta:.3f} at 80% power"
        if math.isfinite(delta)
        else "with 43 queries: the residual variance is 0 (every query moves the runs alike), "
        "so no smallest detectable Δ can be stated"
    )
    return PairMatrix(
        runs=["a", "b"],
        means=np.zeros(2),
        delta=empty.delta,
        ci_low=empty.ci_low,
        ci_high=empty.ci_high,
        effect_size=empty.effect_size,
        p=empty.p,
        p_adjusted=empty.p_adjusted,
        correction="tukey",
        baselines=[],
        n_queries=43,
        n_dropped=0,
        k=10,
        power_sentence=sentence,
        min_detectable_delta=delta,
    )


def test_the_english_power_text_is_the_services_sentence(qtbot: Any) -> None:
    from ndcg_studio.ui.views.compare.matrix import CompareMatrixPanel

    panel = CompareMatrixPanel()
    qtbot.addWidget(panel)
    method = " (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016)."
    for delta in (0.0391, math.nan):
        matrix = _matrix(delta)
        sentence = matrix.power_sentence
        assert panel.power_text(matrix) == sentence[:1].upper() + sentence[1:] + method
    assert panel.power_text(PairMatrix.empty()) == ""


@pytest.mark.parametrize("lang", ["zh_CN", "ru"], indirect=True)
def test_the_power_text_and_the_domains_reasons_are_translated(lang: str, qtbot: Any) -> None:
    from ndcg_studio.domain.agreement.alpha import REASON_NO_PAIRABLE
    from ndcg_studio.domain.agreement.kappa import REASON_NO_SHARED
    from ndcg_studio.ui.views.compare.matrix import CompareMatrixPanel

    panel = CompareMatrixPanel()
    qtbot.addWidget(panel)
    for delta in (0.0391, math.nan):
        text = panel.power_text(_matrix(delta))
        assert "43" in text and _ENGLISH.findall(text) == ["Sakai"], text
    for reason in (REASON_NO_PAIRABLE, REASON_NO_SHARED):
        assert label("Agreement", reason) != reason
