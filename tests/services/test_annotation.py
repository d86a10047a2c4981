"""The annotation service: annotators, blind pools in a stable order, progress, grades, notes,
history and adjudication, on every database of the ``db`` fixture (SQLite, PostgreSQL)."""

from __future__ import annotations

import hashlib
import random
import threading
from dataclasses import dataclass, fields
from typing import Any

import pytest
from sqlalchemy import func, insert, select

from ndcg_studio.services.annotation.pool_order import pool_order_key
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import PoolItem
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judgments.items import KEEP, GradeChange

# (run, query) -> documents at ranks 1, 2, ...
RESULTS = {
    ("bm25", "q1"): ["d1", "d2", "d3", "d4", "d5"],
    ("dense", "q1"): ["d4", "d5", "d6", "d7", "d8"],
    ("bm25", "q2"): ["d1", "d2"],
}


@dataclass
class Data:
    db: Database
    service: AnnotationService
    query: dict[str, int]
    doc: dict[str, int]


def build(db: Database) -> Data:
    """3 queries (q3 has no results), 9 documents (d9 is in no run), 2 runs."""
    with db.transaction() as s:
        s.execute(
            insert(models.queries),
            [{"external_id": f"q{i}", "text": f"query text {i}"} for i in (1, 2, 3)],
        )
        s.execute(
            insert(models.documents),
            [
                {
                    "external_id": f"d{i}",
                    "title": f"Title {i}",
                    "text": f"Body {i}",
                    "url": f"https://example.org/{i}",
                }
                for i in range(1, 10)
            ],
        )
        s.execute(insert(models.runs), [{"name": "bm25"}, {"name": "dense"}])
        qid = dict(s.execute(select(models.queries.c.external_id, models.queries.c.id)).all())
        did = dict(s.execute(select(models.documents.c.external_id, models.documents.c.id)).all())
        rid = dict(s.execute(select(models.runs.c.name, models.runs.c.id)).all())
        rows = [
            {
                "run_id": rid[run],
                "query_id": qid[q],
                "document_id": did[d],
                "rank": rank,
                "position": rank,
                "score": 10.0 - rank,
            }
            for (run, q), docs in RESULTS.items()
            for rank, d in enumerate(docs, start=1)
        ]
        s.execute(insert(models.results), rows)
    return Data(db=db, service=AnnotationService(db), query=qid, doc=did)


@pytest.fixture
def data(db: Database) -> Data:
    return build(db)


def _count(db: Database, table: Any) -> int:
    with db.transaction() as s:
        return int(s.execute(select(func.count()).select_from(table)).scalar_one())


def test_ensure_annotator_creates_once_and_lists_by_name(data: Data) -> None:
    svc = data.service
    bob = svc.ensure_annotator("bob")
    alice = svc.ensure_annotator("  alice ")
    assert alice.name == "alice"
    assert svc.ensure_annotator("alice") == alice
    assert svc.ensure_annotator("bob").id == bob.id
    assert svc.list_annotators() == [alice, bob]
    assert _count(data.db, models.annotators) == 2
    with pytest.raises(ValueError, match="needs a name"):
        svc.ensure_annotator("   ")


def test_pool_is_the_deduplicated_union_of_every_runs_top_d(data: Data) -> None:
    svc, q1 = data.service, data.query["q1"]
    assert {it.external_id for it in svc.pool(q1, None, 10)} == {f"d{i}" for i in range(1, 9)}
    assert {it.external_id for it in svc.pool(q1, None, 2)} == {"d1", "d2", "d4", "d5"}
    assert {it.external_id for it in svc.pool(q1, None, 1)} == {"d1", "d4"}
    assert svc.pool(data.query["q3"], None, 10) == []
    with pytest.raises(ValueError, match="pool depth"):
        svc.pool(q1, None, 0)
    with pytest.raises(LookupError):
        svc.pool(10_000, None, 10)


def test_pool_order_is_the_blake2b_shuffle_not_the_rank_order(data: Data) -> None:
    items = data.service.pool(data.query["q1"], None, 10)
    # computed independently of the service
    expected = sorted(
        (f"d{i}" for i in range(1, 9)),
        key=lambda d: hashlib.blake2b(f"q1\x1f{d}".encode(), digest_size=8).digest(),
    )
    assert [it.external_id for it in items] == expected
    assert expected != [f"d{i}" for i in range(1, 9)]  # the shuffle does shuffle here
    assert pool_order_key("q1", "d1") == hashlib.blake2b(b"q1\x1fd1", digest_size=8).digest()
    # the same order every call
    assert data.service.pool(data.query["q1"], None, 10) == items


def test_pool_is_blind_only_the_own_grade_and_note(data: Data) -> None:
    svc, q1 = data.service, data.query["q1"]
    alice, bob = svc.ensure_annotator("alice"), svc.ensure_annotator("bob")
    svc.set_grade(bob.id, q1, data.doc["d1"], 4, note="bob's secret")
    svc.set_grade(alice.id, q1, data.doc["d2"], 1, note="mine")
    names = {f.name for f in fields(PoolItem)}
    assert names == {"document_id", "external_id", "title", "text", "url", "grade", "note"}
    by_ext = {it.external_id: it for it in svc.pool(q1, alice.id, 10)}
    assert by_ext["d1"].grade is None and by_ext["d1"].note is None
    assert (by_ext["d2"].grade, by_ext["d2"].note) == (1, "mine")
    assert by_ext["d3"].title == "Title 3" and by_ext["d3"].url == "https://example.org/3"
    assert all(it.grade is None for it in svc.pool(q1, None, 10))


def test_query_progress_counts_only_the_annotators_pooled_judgments(data: Data) -> None:
    svc, q, d = data.service, data.query, data.doc
    alice, bob = svc.ensure_annotator("alice"), svc.ensure_annotator("bob")
    svc.set_grade(alice.id, q["q1"], d["d1"], 2)
    svc.set_grade(alice.id, q["q1"], d["d6"], 0)  # in the depth-10 pool, not the depth-2 one
    svc.set_grade(alice.id, q["q1"], d["d9"], 3)  # in no pool (e.g. an imported qrel)
    svc.set_grade(alice.id, q["q2"], d["d2"], 1)
    svc.set_grade(bob.id, q["q1"], d["d2"], 4)
    rows = {p.external_id: (p.pool_size, p.judged) for p in svc.query_progress(alice.id, 10)}
    assert rows == {"q1": (8, 2), "q2": (2, 1), "q3": (0, 0)}
    rows = {p.external_id: (p.pool_size, p.judged) for p in svc.query_progress(alice.id, 2)}
    assert rows == {"q1": (4, 1), "q2": (2, 1), "q3": (0, 0)}
    rows = {p.external_id: (p.pool_size, p.judged) for p in svc.query_progress(None, 10)}
    assert rows == {"q1": (8, 0), "q2": (2, 0), "q3": (0, 0)}
    progress = svc.query_progress(alice.id, 10)
    assert [p.query_id for p in progress] == sorted(q.values())
    assert progress[0].text == "query text 1"
    assert not progress[0].complete and not progress[2].complete
    svc.set_grade(alice.id, q["q2"], d["d1"], 1)
    assert svc.query_progress(alice.id, 10)[1].complete


def test_set_grade_creates_updates_clears_and_records_every_change(data: Data) -> None:
    svc, q1, d1 = data.service, data.query["q1"], data.doc["d1"]
    alice = svc.ensure_annotator("alice")

    c1 = svc.set_grade(alice.id, q1, d1, 3)
    assert (c1.old_grade, c1.new_grade, c1.kind, c1.changed) == (None, 3, "judgment", True)
    c2 = svc.set_grade(alice.id, q1, d1, 1, note="  only the abstract  ")
    assert (c2.old_grade, c2.new_grade, c2.old_note, c2.new_note) == (
        3,
        1,
        None,
        "only the abstract",
    )
    c3 = svc.set_grade(alice.id, q1, d1, 1)  # same grade again: no change, nothing recorded
    assert not c3.changed and c3.new_note == "only the abstract"
    with data.db.transaction() as s:
        row = s.execute(select(models.judgments)).one()
    assert (row.grade, row.note, row.annotator_id) == (1, "only the abstract", alice.id)

    c4 = svc.set_grade(alice.id, q1, d1, None)
    assert (c4.old_grade, c4.new_grade, c4.old_note, c4.new_note) == (
        1,
        None,
        "only the abstract",
        None,
    )
    assert _count(data.db, models.judgments) == 0

    hist = svc.history(q1, d1)
    assert [(h.old_grade, h.new_grade) for h in hist] == [(None, 3), (3, 1), (1, None)]
    assert {(h.kind, h.annotator_id, h.changed_by) for h in hist} == {
        ("judgment", alice.id, alice.id)
    }
    assert [h.id for h in hist] == sorted(h.id for h in hist)


@pytest.mark.parametrize("bad", [5, -1, True, 2.0, "2"])
def test_set_grade_rejects_anything_but_0_to_4(data: Data, bad: Any) -> None:
    alice = data.service.ensure_annotator("alice")
    with pytest.raises(ValueError, match="grade"):
        data.service.set_grade(alice.id, data.query["q1"], data.doc["d1"], bad)
    assert _count(data.db, models.judgments) == 0
    assert _count(data.db, models.judgment_history) == 0


def test_notes_keep_replace_remove_and_need_a_grade(data: Data) -> None:
    svc, q1, d2 = data.service, data.query["q1"], data.doc["d2"]
    alice = svc.ensure_annotator("alice")
    with pytest.raises(LookupError, match="grade the document"):
        svc.set_note(alice.id, q1, d2, "no grade yet")
    svc.set_grade(alice.id, q1, d2, 2, note="first")
    assert svc.set_grade(alice.id, q1, d2, 3, note=KEEP).new_note == "first"
    change = svc.set_note(alice.id, q1, d2, "second")
    assert (change.old_note, change.new_note, change.old_grade, change.new_grade) == (
        "first",
        "second",
        3,
        3,
    )
    assert svc.set_note(alice.id, q1, d2, "   ").new_note is None
    assert svc.set_grade(alice.id, q1, d2, 3, note="x").new_note == "x"
    assert svc.set_grade(alice.id, q1, d2, 3, note=None).new_note is None
    assert len(svc.history(q1, d2)) == 6  # the failed set_note is not recorded


def test_unknown_ids_raise_lookup_error_and_write_nothing(data: Data) -> None:
    svc = data.service
    alice = svc.ensure_annotator("alice")
    with pytest.raises(LookupError):
        svc.set_grade(alice.id, data.query["q1"], 999_999, 2)
    with pytest.raises(LookupError):
        svc.set_grade(999_999, data.query["q1"], data.doc["d1"], 2)
    with pytest.raises(LookupError):
        svc.set_adjudication(data.query["q1"], data.doc["d1"], 2, by=999_999)
    assert _count(data.db, models.judgments) == 0
    assert _count(data.db, models.judgment_history) == 0


def test_adjudication_later_write_wins_and_both_are_in_the_history(data: Data) -> None:
    svc, q1, d3 = data.service, data.query["q1"], data.doc["d3"]
    lead, other = svc.ensure_annotator("lead"), svc.ensure_annotator("other")
    svc.set_grade(other.id, q1, d3, 0)
    a = svc.set_adjudication(q1, d3, 3, by=lead.id, note="agreed in meeting")
    b = svc.set_adjudication(q1, d3, 2, by=other.id)
    assert (a.kind, a.annotator_id, a.old_grade, a.new_grade) == ("adjudication", None, None, 3)
    assert (b.old_grade, b.new_grade, b.new_note, b.changed_by) == (
        3,
        2,
        "agreed in meeting",
        other.id,
    )
    with data.db.transaction() as s:
        row = s.execute(select(models.adjudications)).one()
    assert (row.grade, row.adjudicator_id) == (2, other.id)
    svc.set_adjudication(q1, d3, None, by=lead.id)
    assert _count(data.db, models.adjudications) == 0
    assert _count(data.db, models.judgments) == 1  # the judgment is untouched
    kinds = [(h.kind, h.new_grade, h.changed_by) for h in svc.history(q1, d3)]
    assert kinds == [
        ("judgment", 0, other.id),
        ("adjudication", 3, lead.id),
        ("adjudication", 2, other.id),
        ("adjudication", None, lead.id),
    ]


def test_concurrent_writers_leave_a_consistent_history(data: Data) -> None:
    """Two threads, each with its own sessions, grade the same five items at once (and clear
    some): every call that changed something is in the history exactly once, each item's
    history is one unbroken chain (every old value is the previous new value: no lost update),
    and the stored grade is the chain's last value."""
    svc = data.service
    alice = svc.ensure_annotator("alice")
    q1 = data.query["q1"]
    items = [data.doc[f"d{i}"] for i in range(1, 6)]
    calls_per_thread = 120
    errors: list[BaseException] = []
    changes: list[GradeChange] = []
    barrier = threading.Barrier(2)

    def work(seed: int) -> None:
        rnd = random.Random(seed)
        barrier.wait()
        try:
            for _ in range(calls_per_thread):
                grade = rnd.choice([None, 0, 1, 2, 3, 4])
                changes.append(svc.set_grade(alice.id, q1, rnd.choice(items), grade))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(changes) == 2 * calls_per_thread
    assert _count(data.db, models.judgment_history) == sum(c.changed for c in changes) > 100
    with data.db.transaction() as s:
        stored = dict(
            s.execute(select(models.judgments.c.document_id, models.judgments.c.grade)).all()
        )
    for doc in items:
        chain = svc.history(q1, doc)
        previous = None
        for h in chain:
            assert h.old_grade == previous
            previous = h.new_grade
        assert stored.get(doc) == previous


def test_grade_change_is_a_frozen_value(data: Data) -> None:
    alice = data.service.ensure_annotator("alice")
    change = data.service.set_grade(alice.id, data.query["q2"], data.doc["d1"], 4)
    assert isinstance(change, GradeChange)
    with pytest.raises(AttributeError):
        change.new_grade = 1  # type: ignore[misc]
