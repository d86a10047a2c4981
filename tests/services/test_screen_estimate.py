"""The estimate Compare and Review show: the human sample is every query the humans judged on
each machine-graded item; an interval from 12 such queries, "not decided" below; a ``ppi``
campaign's draw instead when there is one (its active estimate once the draw is judged)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ndcg_studio.domain.estimation.ppi import MIN_HUMAN_QUERIES, MeanEstimate, estimate_mean
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.types import CampaignSpec
from ndcg_studio.services.estimation.sentence import pair_sentence
from ndcg_studio.services.estimation.service import EstimateRequest, estimate
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.screens.estimate import screen_estimate
from ndcg_studio.storage.database import Database, open_database

N_QUERIES, N_DOCS = 20, 4


def grades() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    human = rng.integers(0, 4, size=(N_QUERIES, N_DOCS))
    machine = np.clip(human + rng.integers(-1, 2, size=human.shape), 0, 3)
    return human, machine


def ndcg3(g: np.ndarray, order: list[int]) -> np.ndarray:
    """nDCG@3 per query of the run that ranks the documents ``order``, linear gain."""
    disc = 1 / np.log2(np.arange(2, 5))
    dcg = (g[:, order[:3]] * disc).sum(axis=1)
    ideal = (-np.sort(-g, axis=1)[:, :3] * disc).sum(axis=1)
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1), 0.0)


ORDERS = {"a": [0, 1, 2, 3], "b": [3, 2, 1, 0]}


def build(path: Path, human_queries: int, with_humans: bool = True) -> Database:
    """Runs a and b over every query, the machine source ``bot``'s grades on every pooled
    item, the human ``nist``'s on the first ``human_queries`` queries whole and on one item of
    the next query (judged in part: not in the sample)."""
    db = open_database(path / "estimate.sqlite")
    imp = ImportService(db)
    for name, order in ORDERS.items():
        lines = [
            f"q{q:02d} Q0 D{q}-{d} {i + 1} {10 - i} {name}"
            for q in range(N_QUERIES)
            for i, d in enumerate(order)
        ]
        (path / f"{name}.run").write_text("\n".join(lines) + "\n")
        imp.import_run(path / f"{name}.run")
    human, machine = grades()
    m_lines = [f"q{q:02d} 0 D{q}-{d} {machine[q, d]}" for q in range(N_QUERIES) for d in range(4)]
    (path / "bot.qrels").write_text("\n".join(m_lines) + "\n")
    imp.import_qrels(path / "bot.qrels", annotator="llm", source="bot", source_kind="model")
    if with_humans:
        h_lines = [
            f"q{q:02d} 0 D{q}-{d} {human[q, d]}" for q in range(human_queries) for d in range(4)
        ]
        h_lines.append(f"q{human_queries:02d} 0 D{human_queries}-0 {human[human_queries, 0]}")
        (path / "nist.qrels").write_text("\n".join(h_lines) + "\n")
        imp.import_qrels(path / "nist.qrels", annotator="nist")
    return db


@pytest.fixture
def decided(tmp_path: Path) -> Iterator[Database]:
    db = build(tmp_path, 14)
    yield db
    db.dispose()


def test_the_complete_queries_give_an_interval(decided: Database) -> None:
    shown = screen_estimate(decided, "", 3, ("a", "b"))
    assert shown.shown and shown.sources == ("bot",) and shown.source == "bot"
    report = shown.report
    assert report is not None
    assert (report.n_human, report.n_queries) == (14, N_QUERIES)
    human, machine = grades()
    sample = np.arange(14)
    for run, e in report.runs:
        y, f = ndcg3(human, ORDERS[run]), ndcg3(machine, ORDERS[run])
        want = estimate_mean(y[sample], f[sample], f)
        assert e.enough
        assert (e.estimate, e.low, e.high) == pytest.approx((want.estimate, want.low, want.high))
    (pair,) = report.pairs
    y = ndcg3(human, ORDERS["a"]) - ndcg3(human, ORDERS["b"])
    f = ndcg3(machine, ORDERS["a"]) - ndcg3(machine, ORDERS["b"])
    want = estimate_mean(y[sample], f[sample], f)
    assert (pair.a, pair.b) == ("a", "b")
    assert (pair.estimate.low, pair.estimate.high) == pytest.approx((want.low, want.high))
    assert pair.verdict == (0 if want.low <= 0 <= want.high else np.sign(want.estimate))
    # every run without a pair (Review)
    every = screen_estimate(decided, "bot", 3).report
    assert every is not None and [r for r, _ in every.runs] == ["a", "b"] and not every.pairs


def test_fewer_human_queries_are_not_decided(tmp_path: Path) -> None:
    db = build(tmp_path, MIN_HUMAN_QUERIES - 2)
    try:
        report = screen_estimate(db, "bot", 3, ("a", "b")).report
    finally:
        db.dispose()
    assert report is not None and report.n_human == MIN_HUMAN_QUERIES - 2
    (pair,) = report.pairs
    assert not pair.estimate.enough and pair.verdict == 0
    assert np.isnan(pair.estimate.low) and "too few human-judged queries" in pair.estimate.note


def test_nothing_shown_without_humans_or_complete_queries(tmp_path: Path) -> None:
    db = build(tmp_path, 0, with_humans=False)
    try:
        assert not screen_estimate(db, "bot", 3, ("a", "b")).shown
    finally:
        db.dispose()
    (tmp_path / "partial").mkdir()
    db = build(tmp_path / "partial", 0)  # one human grade, no query judged whole
    try:
        shown = screen_estimate(db, "bot", 3, ("a", "b"))
    finally:
        db.dispose()
    assert shown.shown and shown.report is None


def ppi_campaign(db: Database, name: str, seed: int, judged: bool) -> None:
    """A campaign ``name`` in the ``ppi`` order for the pair (a, b) (machine source ``bot``, 14
    queries expected, overlap 2: the machine's grade and a human's); with ``judged`` the human
    ``ann`` grades every drawn query's pool with the humans' grades of :func:`grades`."""
    service = CampaignService(db)
    spec = CampaignSpec(
        name=name,
        runs=["a", "b"],
        depth=4,
        overlap=2,
        annotators=["ann"],
        sample=14,
        seed=seed,
        gold_rate=0.0,
        strategy="ppi",
        pair=("a", "b"),
        k=3,
        machine="bot",
    )
    service.create(spec)
    if judged:
        human, _machine = grades()
        ann = service.annotation.ensure_annotator("ann").id
        while items := service.queue(name, ann, 8):
            for item in items:
                q, d = int(item.query[1:]), int(item.document.split("-")[1])
                service.grade(name, ann, item.query_id, item.document_id, int(human[q, d]))


def test_a_ppi_campaign_of_the_pair_is_the_sample_once_its_draw_is_judged(
    tmp_path: Path,
) -> None:
    db = build(tmp_path, 0)  # one human grade, no query judged whole
    try:
        ppi_campaign(db, "first", 5, judged=False)
        for pair in (("a", "b"), ("b", "a"), None):  # either way round; Review: any pair
            waiting = screen_estimate(db, "bot", 3, pair)
            assert waiting.shown and waiting.report is None and waiting.campaign == "first"
            assert waiting.draw is not None and waiting.draw.drawn > 0
            assert waiting.draw.complete == 0 and not waiting.draw.ready
        ppi_campaign(db, "second", 6, judged=True)  # made later: the one shown
        shown = screen_estimate(db, "bot", 3, ("a", "b"))
        every = screen_estimate(db, "bot", 3)
        request = EstimateRequest(
            machine_source="bot", k=3, runs=("a", "b"), pairs=(("a", "b"),), campaign="second"
        )
        want = estimate(db, request)
    finally:
        db.dispose()
    assert shown.campaign == every.campaign == "second"
    assert shown.draw is not None and shown.draw.ready
    report = shown.report
    assert report is not None and report.n_human == shown.draw.drawn == want.n_human
    assert report.n_queries == want.n_queries == N_QUERIES
    (pair,), (direct,) = report.pairs, want.pairs
    assert (pair.estimate.low, pair.estimate.high, pair.verdict) == (
        direct.estimate.low,
        direct.estimate.high,
        direct.verdict,
    )
    assert every.report is not None and [r for r, _ in every.report.runs] == ["a", "b"]
    assert dict(every.report.runs)["a"].estimate == dict(want.runs)["a"].estimate


@pytest.mark.parametrize(("human_se", "clause"), [(0.1, False), (0.2, True)])
def test_the_sentence_says_how_many_queries_only_when_the_machine_saves_some(
    human_se: float, clause: bool
) -> None:
    e = MeanEstimate.of((0.05, 0.1, 0.8), (0.04, human_se), 0.06, 20, 200, 0.95)
    text = pair_sentence("a", "b", 0, e, "bot", 0.4)
    assert ("human grades alone would need about" in text) is clause, text
    if clause:  # 20 · (0.2 / 0.1)² − 20 = 60
        assert "about 60 more queries for the same width" in text, text
    assert "about 0 more" not in text
