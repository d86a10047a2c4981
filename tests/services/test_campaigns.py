"""Judging campaigns on SQLite and PostgreSQL: creation, the queue with holds and gold, marks that
never become grades, the lead's statistics against independent computations."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from sqlalchemy import insert, select

from ndcg_studio.services.agreement import AgreementService
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.types import CampaignSpec, GoldItem
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judgments.items import ItemComplete

N_QUERIES = 4
N_DOCS = 6  # per query and run


def build(db: Database, *, n_queries: int = N_QUERIES, n_docs: int = N_DOCS) -> None:
    """``n_queries`` queries; runs A and B return ``n_docs`` documents each per query, B's
    shifted by one, so the depth-3 pool of both has 4 documents per query."""
    with db.transaction() as s:
        s.execute(
            insert(models.queries),
            [{"external_id": f"q{i}", "text": f"query {i}"} for i in range(n_queries)],
        )
        s.execute(
            insert(models.documents),
            [{"external_id": f"d{i}", "title": f"T{i}"} for i in range(n_docs + 2)],
        )
        s.execute(insert(models.runs), [{"name": "A"}, {"name": "B"}])
        qid = dict(s.execute(select(models.queries.c.external_id, models.queries.c.id)).all())
        did = dict(s.execute(select(models.documents.c.external_id, models.documents.c.id)).all())
        rid = dict(s.execute(select(models.runs.c.name, models.runs.c.id)).all())
        rows = []
        for q in range(n_queries):
            for run, shift in (("A", 0), ("B", 1)):
                for pos in range(1, n_docs + 1):
                    rows.append(
                        {
                            "run_id": rid[run],
                            "query_id": qid[f"q{q}"],
                            "document_id": did[f"d{pos - 1 + shift}"],
                            "rank": pos,
                            "position": pos,
                            "score": 10.0 - pos,
                        }
                    )
        s.execute(insert(models.results), rows)


def spec(**changes: object) -> CampaignSpec:
    base: dict[str, object] = {
        "name": "study",
        "runs": ["A", "B"],
        "depth": 3,
        "overlap": 2,
        "annotators": ["ann", "bob", "cid"],
        "gold_rate": 0.0,
    }
    base.update(changes)
    return CampaignSpec(**base)  # type: ignore[arg-type]


@pytest.fixture
def service(db: Database) -> CampaignService:
    build(db)
    return CampaignService(db)


def _id(service: CampaignService, name: str) -> int:
    return service.annotation.ensure_annotator(name).id


def test_create_pools_the_runs_top_d_and_lists_it(service: CampaignService) -> None:
    info = service.create(spec(guidelines="# Judge\nby *topic*"))
    assert (info.items, info.gold, info.complete, info.overlap) == (N_QUERIES * 4, 0, 0, 2)
    assert info.runs == ("A", "B") and info.annotators == ("ann", "bob", "cid")
    assert info.guidelines.startswith("# Judge")
    assert [c.name for c in service.all()] == ["study"]
    with pytest.raises(ValueError, match="exists already"):
        service.create(spec())
    with pytest.raises(ValueError, match="no run called 'C'"):
        service.create(spec(name="x", runs=["A", "C"]))
    sampled = service.create(spec(name="sampled", sample=2, seed=7))
    assert sampled.items == 2 * 4
    again = service.create(spec(name="sampled2", sample=2, seed=7))
    assert again.items == sampled.items
    closed = service.close("study")
    assert closed.status == "closed"
    with pytest.raises(ValueError, match="closed"):
        service.queue("study", _id(service, "ann"), 3)


def test_queue_never_double_books_and_stops_at_n_grades(service: CampaignService) -> None:
    service.create(spec(overlap=1))
    ann, bob = _id(service, "ann"), _id(service, "bob")
    first = service.queue("study", ann, 5)
    second = service.queue("study", bob, 5)
    # overlap 1: an item ann holds is not offered to bob
    assert not {(i.query_id, i.document_id) for i in first} & {
        (i.query_id, i.document_id) for i in second
    }
    # asking again returns ann's own holds first, not new items
    assert service.queue("study", ann, 5) == first
    for item in first:
        service.grade("study", ann, item.query_id, item.document_id, 2, seconds=1.5)
    # graded by ann (overlap 1): complete, never offered to anybody again
    everything = service.queue("study", bob, 100)
    assert not {(i.query_id, i.document_id) for i in first} & {
        (i.query_id, i.document_id) for i in everything
    }
    assert len(everything) == N_QUERIES * 4 - 5
    # a grade beyond N is refused, nothing written
    item = first[0]
    with pytest.raises(ItemComplete):
        service.grade("study", bob, item.query_id, item.document_id, 3)
    assert service.get("study").complete == 5


def test_fewest_grades_first_and_expired_holds_are_free(service: CampaignService) -> None:
    service.create(spec(overlap=2))
    ann, bob, cid = (_id(service, n) for n in ("ann", "bob", "cid"))
    held = service.queue("study", ann, 16, hold_seconds=60)
    assert len(held) == 16
    # ann holds everything once; with overlap 2 bob may still take each item once
    bobs = service.queue("study", bob, 16)
    assert len(bobs) == 16
    # now every item is held twice: cid gets nothing
    assert service.queue("study", cid, 16) == []
    # ann's holds expire: cid gets them
    later = models.utcnow() + timedelta(seconds=120)
    assert len(service.queue("study", cid, 16, now=later)) == 16
    # release frees them at once
    assert service.release(bob) == 16
    service.release(cid)
    one = service.queue("study", cid, 1)
    service.grade("study", cid, one[0].query_id, one[0].document_id, 1)
    service.release(ann)
    # fewest grades first: the item cid graded comes last for bob
    order = service.queue("study", bob, 16)
    assert (order[-1].query_id, order[-1].document_id) == (one[0].query_id, one[0].document_id)


def test_gold_is_mixed_in_at_the_rate_and_scored(service: CampaignService) -> None:
    gold = [GoldItem(f"q{q}", "d7", 3) for q in range(N_QUERIES)]  # d7 is in no run
    info = service.create(spec(overlap=1, gold=gold, gold_rate=0.5, seed=3))
    assert info.gold == N_QUERIES
    ann = _id(service, "ann")
    items = service.queue("study", ann, 10)
    golds = [i for i in items if i.document == "d7"]
    assert 1 <= len(golds) <= N_QUERIES and len(items) == 10
    for i in items:
        grade = 3 if i.document == "d7" and i.query == "q0" else 1
        service.grade("study", ann, i.query_id, i.document_id, grade)
    row = next(r for r in service.status("study").annotators if r.annotator == "ann")
    assert row.gold_n == len(golds)
    assert row.gold_exact == pytest.approx(sum(1 for g in golds if g.query == "q0") / len(golds))
    # gold items do not count toward completion (gold aside)
    assert service.get("study").complete == len(items) - len(golds)


def test_cant_judge_and_later_never_enter_scores_or_agreement(
    service: CampaignService, db: Database
) -> None:
    service.create(spec(overlap=3))
    ann, bob, cid = (_id(service, n) for n in ("ann", "bob", "cid"))
    items = service.queue("study", ann, 6)
    # bob and cid grade everything ann will mark, so agreement and scores have data
    for who, grade in ((bob, 2), (cid, 3)):
        for item in items:
            service.grade("study", who, item.query_id, item.document_id, grade)
    scoring, agreement = ScoringService(db), AgreementService(db)
    before = (repr(scoring.score(ScoringSettings())), agreement.per_query_alpha())
    judgments_before = AnnotationService(db).counts().judgments
    service.mark("study", ann, items[0].query_id, items[0].document_id, "cant_judge", "paywall")
    service.mark("study", ann, items[1].query_id, items[1].document_id, "later")
    after = (repr(scoring.score(ScoringSettings())), agreement.per_query_alpha())
    assert before == after
    assert AnnotationService(db).counts().judgments == judgments_before
    # a mark is not a grade: ann's pool shows no grade for the marked documents
    pool = AnnotationService(db).pool(items[0].query_id, ann, 3)
    assert all(p.grade is None for p in pool)
    status = service.status("study")
    row = next(r for r in status.annotators if r.annotator == "ann")
    assert (row.cant_judge, row.later, row.done) == (1, 1, 0)
    assert sorted((m.annotator, m.state, m.reason) for m in status.marks) == [
        ("ann", "cant_judge", "paywall"),
        ("ann", "later", None),
    ]
    exported = [(g.annotator, g.state, g.reason) for g in service.grades("study")]
    assert ("ann", "cant_judge", "paywall") in exported
    # can't-judge is never offered again; later comes last
    offered = service.queue("study", ann, 100)
    keys = [(i.query_id, i.document_id) for i in offered]
    assert (items[0].query_id, items[0].document_id) not in keys
    assert keys[-1] == (items[1].query_id, items[1].document_id)
    # grading a marked item replaces the mark by the grade, with its seconds and explanation
    service.grade(
        "study", ann, items[1].query_id, items[1].document_id, 1, explanation="ok", seconds=4.0
    )
    mine = [g for g in service.grades("study") if g.annotator == "ann"]
    assert [(g.state, g.grade, g.explanation, g.seconds) for g in mine if g.grade is not None] == [
        ("graded", 1, "ok", 4.0)
    ]
    assert service.own_progress("study", ann).done == 1


def _random_grades(service: CampaignService, rng: np.random.Generator) -> None:
    """Every annotator grades a random subset of the items (from a sometimes-lenient mind)."""
    names = ["ann", "bob", "cid"]
    q, d = models.queries, models.documents
    with service.db.transaction() as s:
        items = s.execute(
            select(models.campaign_items.c.query_id, models.campaign_items.c.document_id)
        ).all()
        del q, d
    for k, name in enumerate(names):
        who = _id(service, name)
        for qi, di in items:
            if rng.random() < 0.8:
                truth = (qi * 7 + di * 3) % 5
                grade = int(np.clip(truth + rng.integers(-1, 2) + (k == 2), 0, 4))
                service.annotation.set_grade(who, qi, di, grade)


def test_status_statistics_match_sklearn_and_krippendorff(service: CampaignService) -> None:
    service.create(spec(overlap=3))
    rng = np.random.default_rng(5)
    _random_grades(service, rng)
    status = service.status("study")
    with service.db.transaction() as s:
        rows = s.execute(
            select(
                models.judgments.c.query_id,
                models.judgments.c.document_id,
                models.annotators.c.name,
                models.judgments.c.grade,
            ).join(models.annotators, models.annotators.c.id == models.judgments.c.annotator_id)
        ).all()
    grades: dict[tuple[int, int], dict[str, int]] = {}
    for qi, di, name, g in rows:
        grades.setdefault((qi, di), {})[name] = g
    names = ["ann", "bob", "cid"]
    keys = sorted(grades)
    for row in status.annotators:
        own, cons = [], []
        for key in keys:
            item = grades[key]
            others = sorted(g for n, g in item.items() if n != row.annotator)
            if row.annotator in item and others:
                own.append(item[row.annotator])
                cons.append(others[(len(others) - 1) // 2])
        expected_kappa = cohen_kappa_score(own, cons, labels=[0, 1, 2, 3, 4], weights="quadratic")
        assert row.kappa_vs_others == pytest.approx(expected_kappa, abs=1e-12)
        assert row.leniency == pytest.approx(np.mean(np.array(own) - np.array(cons)))
        rest = [n for n in names if n != row.annotator]
        matrix = np.array([[grades[k].get(n, np.nan) for k in keys] for n in rest], dtype=float)
        expected_alpha = krippendorff.alpha(
            reliability_data=matrix, level_of_measurement="ordinal", value_domain=[0, 1, 2, 3, 4]
        )
        assert row.alpha_without == pytest.approx(expected_alpha, abs=1e-9)
        assert row.done == sum(row.annotator in grades[k] for k in keys)
        assert sum(row.grades) == row.done
    # cid grades one higher: the most lenient
    leniency = {r.annotator: r.leniency for r in status.annotators}
    assert leniency["cid"] > leniency["ann"] and leniency["cid"] > leniency["bob"]
    # imported / plain-Annotate grades count: every item graded 3 times is complete
    complete = sum(1 for k in keys if len(grades[k]) >= 3)
    assert status.campaign.complete == complete
    assert sum(qs.complete for qs in status.queries) == complete


def test_a_grade_in_one_campaign_counts_in_every_campaign_that_pools_the_item(
    service: CampaignService,
) -> None:
    service.create(spec(name="one", overlap=1))
    service.create(spec(name="two", overlap=1, runs=["A"]))  # a subset of one's items
    ann, bob = _id(service, "ann"), _id(service, "bob")
    item = service.queue("two", ann, 1)[0]
    service.grade("two", ann, item.query_id, item.document_id, 4)
    assert service.get("one").complete == service.get("two").complete == 1
    # bob is never offered it in campaign one, and may not add an N+1-th grade there
    offered = {(i.query_id, i.document_id) for i in service.queue("one", bob, 100)}
    assert (item.query_id, item.document_id) not in offered
    with pytest.raises(ItemComplete):
        service.grade("one", bob, item.query_id, item.document_id, 0)


@pytest.mark.parametrize("strategy", ["depth", "mtf"])
def test_imported_grades_release_the_annotators_holds(
    service: CampaignService, tmp_path: Path, strategy: str
) -> None:
    """Issue 35.3: annotators who take their queue, grade it in a file and import the file take
    the campaign to N grades per item; an imported grade frees the annotator's hold on the item
    (it would otherwise count toward the item's load next to that very grade)."""
    service.create(spec(overlap=2, strategy=strategy))
    people = {name: _id(service, name) for name in ("ann", "bob", "cid")}
    importer = ImportService(service.db)
    for turn in range(100):
        dry = 0
        for name, annotator in people.items():
            batch = service.queue("study", annotator, 3)
            if not batch:
                dry += 1
                continue
            path = tmp_path / f"{name}-{turn}.csv"
            lines = [f"{i.query},{i.document},{name},2" for i in batch]
            path.write_text("\n".join(["query_id,doc_id,annotator,grade", *lines]) + "\n")
            importer.import_judgments(path)
        if dry == len(people):
            break
    info = service.get("study")
    assert (info.complete, info.items) == (N_QUERIES * 4, N_QUERIES * 4)
    with service.db.transaction() as s:
        assert s.execute(select(models.campaign_leases)).all() == []


def test_an_import_releases_only_the_holds_of_its_own_rows(
    service: CampaignService, tmp_path: Path
) -> None:
    service.create(spec(overlap=2))
    ann, bob = _id(service, "ann"), _id(service, "bob")
    mine = service.queue("study", ann, 2)
    theirs = service.queue("study", bob, 2)
    path = tmp_path / "ann.csv"
    path.write_text(f"query_id,doc_id,annotator,grade\n{mine[0].query},{mine[0].document},ann,3\n")
    ImportService(service.db).import_judgments(path)
    le = models.campaign_leases
    with service.db.transaction() as s:
        held = set(s.execute(select(le.c.annotator_id, le.c.query_id, le.c.document_id)).all())
    assert held == {(ann, mine[1].query_id, mine[1].document_id)} | {
        (bob, i.query_id, i.document_id) for i in theirs
    }


def test_a_held_item_completed_in_another_campaign_is_not_offered_again(
    service: CampaignService,
) -> None:
    """A hold does not keep offering an item whose N grades came from elsewhere (another
    campaign that pools it): its grade would only be refused, and each queue call extended
    the hold, so the annotator was offered it again and again."""
    service.create(spec(name="one", overlap=1))
    service.create(spec(name="two", overlap=1))
    ann, bob = _id(service, "ann"), _id(service, "bob")
    held = service.queue("one", ann, 2)
    item = held[0]
    service.grade("two", bob, item.query_id, item.document_id, 1)
    again = service.queue("one", ann, 2)
    assert (item.query_id, item.document_id) not in {(i.query_id, i.document_id) for i in again}
    assert again[0] == held[1]  # the hold still open comes first
    with pytest.raises(ItemComplete):
        service.grade("one", ann, item.query_id, item.document_id, 2)
