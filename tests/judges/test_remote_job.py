"""The machine-judge job against a real OpenAI-compatible server on the loopback interface
(tests/judge_server.py), through the official client, unchanged: retries on 429 (honouring
Retry-After), 500 and time-outs; malformed, truncated and unreadable answers stored with their
raw text and asked again on request; resume without asking twice; a model that changes mid-run
flagged; a refused key stops the job; request budget, rate bound and cancel."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from ndcg_studio.domain.judges.templates import shipped_template
from ndcg_studio.services.judges.items import job_items
from ndcg_studio.services.judges.job import JudgeProgress, plan_job, run_job
from ndcg_studio.services.judges.remote import RemoteJudge
from ndcg_studio.services.judges.source import open_model_source
from ndcg_studio.services.judges.trust import machine_trust, mixed_notes, provenance_of
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.storage.queries.judgments import judgment_rows
from tests.judge_server import JudgeServer
from tests.judges.conftest import GRADES, load_collection

KEY = "sk-test-SECRET-0123456789"


def _judge(url: str, prompt: str = "umbrela", **kw: Any) -> RemoteJudge:
    options: dict[str, Any] = {"api_key": KEY, "timeout": 0.4, "max_retries": 3, **kw}
    return RemoteJudge(url, "judge", shipped_template(prompt), **options)


def _run(db: Database, judge: RemoteJudge, source: str = "llm", **kw: Any) -> JudgeProgress:
    items = job_items(db, runs=["A", "B"], depth=4)
    retry = kw.pop("retry", False)
    plan = plan_job(
        db, source, judge, items, retry=retry, annotator_id=open_model_source(db, source)
    )
    return run_job(db, plan, judge, **kw)


def _labels(db: Database) -> dict[str, Any]:
    j, d = models.judge_labels, models.documents
    with db.engine.connect() as conn:
        rows = conn.execute(select(d.c.external_id, j).join(d, d.c.id == j.c.document_id)).all()
    return {r.external_id: r for r in rows}


@pytest.fixture
def server() -> Iterator[JudgeServer]:
    with JudgeServer(
        GRADES,
        faults={
            "d1": ["429", "429"],
            "d2": ["500", "500"],
            "d3": ["timeout"],
            "d4": ["malformed"],
            "d5": ["truncated"],
            "d6": ["garbage"],
        },
        hang=1.0,
        retry_after="0.3",
    ) as s:
        yield s


def test_faults_are_retried_and_answers_stored_with_provenance(
    judged_db: Database, server: JudgeServer, tmp_path: Path
) -> None:
    state = _run(judged_db, _judge(server.url), concurrency=4)
    assert (state.done, state.graded, state.unparsed, state.failed) == (12, 9, 2, 1)
    # 429 twice, each with Retry-After 0.3 s: three requests, at least 0.3 s apart
    assert server.requests["d1"] == 3
    gaps = [b - a for a, b in zip(server.times["d1"], server.times["d1"][1:], strict=False)]
    assert min(gaps) >= 0.28
    assert server.requests["d2"] == 3 and server.requests["d3"] == 2  # 500 x2, time-out
    labels = _labels(judged_db)
    assert labels["d1"].status == "graded" and labels["d1"].grade == GRADES["d1"]
    assert labels["d4"].status == "failed" and "unreadable response" in labels["d4"].problem
    assert labels["d5"].status == "unparsed" and labels["d5"].raw_answer == "##final "
    assert "cut at max_tokens=100" in labels["d5"].problem
    assert labels["d6"].raw_answer == "I cannot decide on this one."
    d9 = labels["d9"]
    assert d9.model_reported == "judge-v1" and d9.model == "judge"
    assert d9.template_hash == shipped_template("umbrela").digest
    assert d9.prompt_tokens > 100 and d9.completion_tokens == 5
    params = json.loads(d9.params)
    assert params["backend"] == "openai" and params["temperature"] == 0.0
    # the grades are the model source's judgments, exported as such
    with judged_db.engine.connect() as conn:
        exported = judgment_rows(conn)
    mine = [i for i, a in enumerate(exported.annotator) if a == "llm"]
    assert len(mine) == 9
    assert {(exported.source[i], exported.source_kind[i]) for i in mine} == {("llm", "model")}
    # the key went to the server, and nowhere into the database
    assert server.headers[0]["authorization"] == f"Bearer {KEY}"
    judged_db.dispose()
    for f in tmp_path.glob("studio.sqlite*"):
        assert KEY.encode() not in f.read_bytes()


def test_resume_never_asks_twice_and_retry_asks_only_the_unread(
    judged_db: Database, server: JudgeServer
) -> None:
    _run(judged_db, _judge(server.url), concurrency=4)
    first = dict(server.requests)
    again = _run(judged_db, _judge(server.url), concurrency=4)
    assert again.total == 0 and dict(server.requests) == first
    retried = _run(judged_db, _judge(server.url), concurrency=2, retry=True)
    assert retried.total == 3 and retried.graded == 3  # the faults are used up
    asked = {d for d, n in server.requests.items() if n > first.get(d, 0)}
    assert asked == {"d4", "d5", "d6"}
    assert {r.status for r in _labels(judged_db).values()} == {"graded"}


def test_another_template_is_a_new_job_and_a_mix_is_flagged(judged_db: Database) -> None:
    on_both_scales = {d: min(g, 2) for d, g in GRADES.items()}  # thomas asks for 0..2
    with JudgeServer(on_both_scales, faults={"d2": ["garbage"]}) as server:
        _run(judged_db, _judge(server.url), concurrency=4, max_requests=6)
        assert mixed_notes(judged_db) == []
        state = _run(judged_db, _judge(server.url, "thomas"), concurrency=4)
        assert state.total == 12  # the same items, asked again under the new template
        (prov,) = provenance_of(judged_db, "llm")
        assert prov.templates == {f"thomas {shipped_template('thomas').digest[:12]}": 12}
        assert not prov.mixed  # every current label now comes from thomas
        again = _run(judged_db, _judge(server.url), concurrency=4)
    # umbrela resumes where it stopped (6 items; d2's unread answer is not asked again): the
    # judgments of d1-d6 stay thomas's, d7-d12 are umbrela's
    assert again.total == 6
    (prov,) = provenance_of(judged_db, "llm")
    assert sorted(prov.templates.values()) == [6, 6] and prov.mixed
    (note,) = mixed_notes(judged_db)
    assert "'llm'" in note and "thomas" in note and "umbrela" in note


def test_model_switch_mid_run_is_flagged(judged_db: Database) -> None:
    with JudgeServer(GRADES, switch_after=5) as server:
        _run(judged_db, _judge(server.url), concurrency=1)
    (prov,) = provenance_of(judged_db)
    assert prov.models == {"judge-v1": 5, "judge-v2": 7} and prov.mixed


def test_refused_key_stops_the_job(judged_db: Database) -> None:
    with JudgeServer(GRADES, faults={f"d{i}": ["401"] for i in range(1, 13)}) as server:
        state = _run(judged_db, _judge(server.url), concurrency=2)
        assert state.stopped is not None and "refused the key" in state.stopped
        assert state.graded == 0 and sum(server.requests.values()) <= 4


def test_budget_rate_and_cancel(judged_db: Database) -> None:
    with JudgeServer(GRADES, latency=0.05) as server:
        state = _run(judged_db, _judge(server.url), concurrency=4, max_requests=3)
        assert state.requests == 3 and sum(server.requests.values()) == 3
        start = time.monotonic()
        state = _run(judged_db, _judge(server.url, rate=10.0), concurrency=4, max_requests=5)
        assert time.monotonic() - start >= 0.4  # 5 starts, 0.1 s apart
        seen: list[int] = []
        state = _run(
            judged_db,
            _judge(server.url),
            concurrency=1,
            progress=lambda p: seen.append(p.done),
            cancelled=lambda: bool(seen),
        )
        assert state.cancelled and 1 <= state.done < 4
        assert state.eta is not None and state.eta > 0
        graded = [r for r in _labels(judged_db).values() if r.status == "graded"]
        assert len(graded) == 3 + 5 + state.done  # everything answered was stored


def test_trust_against_the_humans(judged_db: Database) -> None:
    with JudgeServer(GRADES) as server:
        _run(judged_db, _judge(server.url), concurrency=4)
    (x,) = machine_trust(judged_db)
    assert (x.source_a, x.source_b, x.n_shared) == ("humans", "llm", 12)
    # the humans differ on d3 (0 vs 3) and d7 (1 vs 3)
    assert x.confusion.sum() == 12 and x.confusion[0, 3] == 1 and x.confusion[1, 3] == 1
    assert x.n_two_apart == 2
    assert x.recall[3] == 1.0 and x.precision[3] == pytest.approx(1 / 3)
    from sklearn.metrics import cohen_kappa_score

    from tests.judges.conftest import HUMAN

    docs = sorted(GRADES)
    human, machine = [HUMAN[d] for d in docs], [GRADES[d] for d in docs]
    assert x.kappa == pytest.approx(cohen_kappa_score(human, machine))
    assert x.kappa_linear == pytest.approx(
        cohen_kappa_score(human, machine, labels=[0, 1, 2, 3, 4], weights="linear")
    )


@pytest.mark.postgres
def test_job_on_postgresql(postgres_server: Any, tmp_path: Path) -> None:
    for url in postgres_server.fresh_database():
        db = open_database(url)
        try:
            load_collection(db, tmp_path)
            with JudgeServer(GRADES, faults={"d2": ["garbage"]}) as server:
                state = _run(db, _judge(server.url), concurrency=4)
                assert (state.graded, state.unparsed) == (11, 1)
                again = _run(db, _judge(server.url), concurrency=4, retry=True)
                assert again.total == 1 and again.graded == 1
            assert len(_labels(db)) == 12
        finally:
            db.dispose()
