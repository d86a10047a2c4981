"""The ``ppi`` campaign order (issue 31 point 3): the draw of queries is stored and reproducible,
the queue finishes one query's pool before the next, and ``estimate --campaign`` is the active
estimate (Zrnic & Candès 2024) on the stored design; both databases."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import select

from ndcg_studio.app import main
from ndcg_studio.domain.estimation.active import (
    active_mean,
    draw_queries,
    estimate_active_mean,
    inclusion_probabilities,
)
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.setup import PPI_UNIFORM_SHARE
from ndcg_studio.services.campaigns.types import CampaignSpec
from ndcg_studio.services.estimation.service import (
    DrawNotComplete,
    EstimateRequest,
    estimate,
    machine_values,
)
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database

N_QUERIES, N_DOCS, K, SAMPLE = 40, 4, 3, 16
ORDERS = {"a": [0, 1, 2, 3], "b": [3, 2, 1, 0]}


def _grades() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    human = rng.integers(0, 4, size=(N_QUERIES, N_DOCS))
    machine = np.clip(human + rng.integers(-1, 2, size=human.shape), 0, 3)
    return human, machine


def _ndcg(grades: np.ndarray, order: list[int]) -> np.ndarray:
    """nDCG@K of a run with this document order per query, linear gain, ideal over the pool."""
    disc = 1 / np.log2(np.arange(2, K + 2))
    dcg = (grades[:, order[:K]] * disc).sum(axis=1)
    ideal = (-np.sort(-grades, axis=1)[:, :K] * disc).sum(axis=1)
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1), 0.0)


@pytest.fixture
def study(db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[Database]:
    """Runs a and b over every query (4 documents each), the machine source ``bot``'s grades
    (the humans' with noise), no human grade yet."""
    for name, order in ORDERS.items():
        lines = [
            f"q{q:02d} Q0 D{q}-{d} {i + 1} {10 - i} {name}"
            for q in range(N_QUERIES)
            for i, d in enumerate(order)
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
        assert main(["--db", db_url, "import", "run", str(tmp_path / f"{name}.run")]) == 0
    _human, machine = _grades()
    lines = [f"q{q:02d} 0 D{q}-{d} {machine[q, d]}" for q in range(N_QUERIES) for d in range(4)]
    (tmp_path / "llm.qrels").write_text("\n".join(lines) + "\n")
    argv = ["import", "qrels", str(tmp_path / "llm.qrels"), "--annotator", "llm"]
    assert main(["--db", db_url, *argv, "--source", "bot", "--source-kind", "model"]) == 0
    capsys.readouterr()
    database = open_database(db_url)
    try:
        yield database
    finally:
        database.dispose()


def _spec(name: str = "active", seed: int = 3, **extra: object) -> CampaignSpec:
    values: dict[str, object] = {
        "name": name,
        "runs": ["a", "b"],
        "depth": 4,
        "overlap": 2,  # the machine's grade counts toward the overlap: one human grade more
        "annotators": ["ann"],
        "sample": SAMPLE,
        "seed": seed,
        "gold_rate": 0.0,
        "strategy": "ppi",
        "pair": ("a", "b"),
        "k": K,
        "machine": "bot",
    }
    values.update(extra)
    return CampaignSpec(**values)  # type: ignore[arg-type]


def _draw(db: Database, name: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(query external ids, π, ξ) stored for the campaign, by external id."""
    c, cq, q = models.campaigns, models.campaign_queries, models.queries
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(q.c.external_id, cq.c.inclusion_probability, cq.c.sampled)
            .join(cq, cq.c.query_id == q.c.id)
            .join(c, c.c.id == cq.c.campaign_id)
            .where(c.c.name == name)
            .order_by(q.c.external_id)
        ).all()
    return (
        [str(r[0]) for r in rows],
        np.array([r[1] for r in rows], dtype=float),
        np.array([r[2] for r in rows], dtype=bool),
    )


def _item_queries(db: Database, name: str) -> set[str]:
    c, ci, q = models.campaigns, models.campaign_items, models.queries
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(q.c.external_id)
            .join(ci, ci.c.query_id == q.c.id)
            .join(c, c.c.id == ci.c.campaign_id)
            .where(c.c.name == name)
        ).scalars()
        return {str(r) for r in rows}


def test_the_campaign_stores_pi_summing_to_the_sample_and_a_seeded_draw(study: Database) -> None:
    service = CampaignService(study)
    info = service.create(_spec())
    assert info.strategy == "ppi"
    queries, pi, xi = _draw(study, "active")
    assert len(queries) == N_QUERIES
    assert pi.sum() == pytest.approx(SAMPLE, abs=1e-9)
    assert np.all((pi > 0) & (pi <= 1))
    # π from the machine's |ΔnDCG@K(a, b)|, ξ from the campaign's seed
    names, values = machine_values(study, "bot", K, ("a", "b"))
    weight = dict(zip(names, np.abs(values[0] - values[1]).tolist(), strict=True))
    expected = inclusion_probabilities(
        [weight[q] for q in queries], SAMPLE, uniform_share=PPI_UNIFORM_SHARE
    )
    np.testing.assert_allclose(pi, expected, rtol=0, atol=1e-12)
    assert np.array_equal(xi, draw_queries(pi, 3))
    assert len(set(pi.round(9))) > 2  # not uniform: the machine's differences weigh
    # the items are the pools of the drawn queries only, whole (4 documents each)
    drawn = {q for q, x in zip(queries, xi, strict=True) if x}
    assert _item_queries(study, "active") == drawn
    assert info.items == 4 * len(drawn)
    # the same seed draws the same queries; another seed, others
    service.create(_spec(name="again"))
    assert np.array_equal(_draw(study, "again")[2], xi)
    service.create(_spec(name="other", seed=4))
    assert not np.array_equal(_draw(study, "other")[2], xi)


def test_ppi_needs_its_machine_source_pair_and_k(study: Database) -> None:
    service = CampaignService(study)
    for missing in ("machine", "pair", "k"):
        with pytest.raises(ValueError, match="needs --machine SOURCE, --pair A B and --k K"):
            service.create(_spec(**{missing: None}))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="belongs to the ppi strategy"):
        service.create(_spec(strategy="depth", pair=None, k=None))
    with pytest.raises(LookupError, match="unknown source 'nobody'"):
        service.create(_spec(machine="nobody"))
    assert service.all() == []


def _judge_all(service: CampaignService, name: str, limit: int) -> list[tuple[int, int]]:
    """Take the queue ``limit`` items at a time and grade each with the humans' grade; the
    offered items in order."""
    human, _machine = _grades()
    ann = service.annotation.ensure_annotator("ann").id
    offered: list[tuple[int, int]] = []
    while items := service.queue(name, ann, limit):
        for item in items:
            offered.append((item.query_id, item.document_id))
            q, d = int(item.query[1:]), int(item.document.split("-")[1])
            service.grade(name, ann, item.query_id, item.document_id, int(human[q, d]))
    return offered


def test_the_queue_finishes_one_query_before_the_next_by_decreasing_pi(study: Database) -> None:
    service = CampaignService(study)
    service.create(_spec())
    offered = _judge_all(service, "active", limit=3)
    q = models.queries
    with study.engine.connect() as conn:
        external = {int(i): str(e) for i, e in conn.execute(select(q.c.id, q.c.external_id))}
    queries, pi, xi = _draw(study, "active")
    blocks = [
        external[qi] for i, (qi, _d) in enumerate(offered) if i == 0 or offered[i - 1][0] != qi
    ]
    assert len(blocks) == len(set(blocks)) == int(xi.sum())  # one block per query
    by_pi = dict(zip(queries, pi, strict=True))
    assert [by_pi[b] for b in blocks] == sorted((by_pi[b] for b in blocks), reverse=True)
    assert len(offered) == len(set(offered)) == 4 * int(xi.sum())


def test_the_estimate_waits_for_every_drawn_query_then_is_active_mean(study: Database) -> None:
    service = CampaignService(study)
    service.create(_spec())
    request = EstimateRequest(machine_source="bot", campaign="active", k=K, pairs=(("a", "b"),))
    ann = service.annotation.ensure_annotator("ann").id
    first = service.queue("active", ann, 1)[0]
    service.grade("active", ann, first.query_id, first.document_id, 1)
    with pytest.raises(DrawNotComplete, match=r"of its \d+ drawn queries are not judged"):
        estimate(study, request)
    _judge_all(service, "active", limit=5)
    report = estimate(study, request)
    human, machine = _grades()
    queries, pi, xi = _draw(study, "active")
    rows = [int(q[1:]) for q in queries]
    f = {r: _ndcg(machine, order)[rows] for r, order in ORDERS.items()}
    # the first offered item was graded 1, whatever the humans' grade
    q0, d0 = int(first.query[1:]), int(first.document.split("-")[1])
    fixed = human.copy()
    fixed[q0, d0] = 1
    y = {r: _ndcg(fixed, order)[rows] for r, order in ORDERS.items()}
    assert report.n_queries == N_QUERIES and report.n_human == int(xi.sum())
    for name, e in report.runs:
        est, se, lam = active_mean(y[name], f[name], xi, pi)
        assert e.estimate == pytest.approx(float(est), abs=1e-12)
        assert e.se == pytest.approx(float(se), abs=1e-12)
        assert e.lam == pytest.approx(float(lam), abs=1e-12)
    pair = report.pairs[0].estimate
    direct = estimate_active_mean(y["a"] - y["b"], f["a"] - f["b"], xi, pi)
    assert (pair.estimate, pair.low, pair.high) == pytest.approx(
        (direct.estimate, direct.low, direct.high), abs=1e-12
    )


def test_another_order_is_refused_with_the_reason(study: Database) -> None:
    CampaignService(study).create(_spec(strategy="depth", pair=None, k=None, machine=None))
    request = EstimateRequest(machine_source="bot", campaign="active", k=K)
    with pytest.raises(ValueError, match=r"order depth.*no random sample"):
        estimate(study, request)


def test_the_active_interval_covers_the_all_human_mean(study: Database) -> None:
    """Seeded simulation on synthetic data with a known truth: 300 draws of the ppi design
    (π from the machine's |Δ|, ξ from each draw's seed) over 400 queries whose machine value is
    the human one with noise; the 95 % interval covers the mean of the human values in at
    least 90 % of the draws."""
    rng = np.random.default_rng(2024)
    n, n_expected, reps = 400, 40, 300
    y = rng.normal(0.05, 0.2, size=n)  # per-query ΔnDCG under the humans
    f = y + rng.normal(0, 0.08, size=n)  # under the machine
    pi = inclusion_probabilities(np.abs(f), n_expected, uniform_share=PPI_UNIFORM_SHARE)
    covered = widths = 0.0
    for seed in range(reps):
        xi = draw_queries(pi, seed)
        e = estimate_active_mean(np.where(xi, y, np.nan), f, xi, pi)
        covered += e.low <= y.mean() <= e.high
        widths += (e.high - e.low) / (e.human_only_high - e.human_only_low)
    assert covered / reps >= 0.90
    assert widths / reps < 1  # narrower than the human-only (Horvitz–Thompson) interval


def test_the_status_counts_the_drawn_queries_and_agrees_with_the_estimate(
    study: Database,
) -> None:
    service = CampaignService(study)
    service.create(_spec())
    queries, pi, xi = _draw(study, "active")
    by_queue = sorted(
        (q for q, x in zip(queries, xi, strict=True) if x), key=lambda q: -pi[queries.index(q)]
    )
    draw = service.status("active").draw
    assert draw is not None
    assert (draw.queries, draw.drawn, draw.complete) == (N_QUERIES, int(xi.sum()), 0)
    assert draw.expected == pytest.approx(SAMPLE, abs=1e-9)
    assert draw.unfinished == tuple(by_queue) and not draw.ready
    # one whole query judged by the humans (the first of the queue): one complete, the rest
    # named, the first being the queue's next
    human, _machine = _grades()
    ann = service.annotation.ensure_annotator("ann").id
    for item in service.queue("active", ann, 4):
        q, d = int(item.query[1:]), int(item.document.split("-")[1])
        service.grade("active", ann, item.query_id, item.document_id, int(human[q, d]))
    draw = service.status("active").draw
    assert draw is not None and draw.complete == 1
    assert draw.unfinished == tuple(by_queue[1:])
    request = EstimateRequest(machine_source="bot", campaign="active", k=K)
    with pytest.raises(DrawNotComplete, match=f"{len(by_queue) - 1} of its {len(by_queue)} drawn"):
        estimate(study, request)
    _judge_all(service, "active", limit=5)
    draw = service.status("active").draw
    assert draw is not None and draw.ready and draw.complete == draw.drawn
    estimate(study, request)  # ready: the estimate agrees
    # the other orders have no draw
    service.create(_spec(name="plain", strategy="depth", pair=None, k=None, machine=None))
    assert service.status("plain").draw is None


def test_the_cli_status_says_how_far_the_draw_is(
    study: Database, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    service = CampaignService(study)
    service.create(_spec())
    draw = service.status("active").draw
    assert draw is not None
    assert main(["--db", db_url, "campaign", "status", "active", "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert (
        f"note: active: ppi draw: drawn {draw.drawn} of {N_QUERIES} queries ({SAMPLE} expected), "
        f"0 complete; {draw.drawn} drawn queries unfinished, first: {draw.unfinished[0]}"
    ) in err
    _judge_all(service, "active", limit=5)
    assert main(["--db", db_url, "campaign", "status", "active"]) == 0
    err = capsys.readouterr().err
    assert f"drawn {draw.drawn} of {N_QUERIES} queries ({SAMPLE} expected), " in err
    assert f"{draw.drawn} complete; estimate ready" in err
