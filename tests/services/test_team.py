"""Noticing other people's work: change markers and team progress (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, event, insert

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.storage import models


def _data(db: Any) -> None:
    with db.engine.begin() as conn:
        conn.execute(insert(models.queries), [{"id": 1, "external_id": "q1", "text": "t"}])
        conn.execute(
            insert(models.documents),
            [{"id": i, "external_id": f"d{i}", "title": "", "text": "", "url": ""} for i in (1, 2)],
        )


def test_marker_moves_and_only_others_count(db: Any) -> None:
    _data(db)
    service = AnnotationService(db)
    alice = service.ensure_annotator("alice").id
    bob = service.ensure_annotator("bob").id
    start = service.change_marker()
    service.set_grade(alice, 1, 1, 3)
    mine = service.change_marker()
    assert mine != start
    assert not service.changed_by_others(start, alice)  # only alice wrote
    assert service.changed_by_others(start, bob)  # for bob, alice is "others"
    service.set_grade(bob, 1, 1, 1)
    assert service.changed_by_others(mine, alice)
    after_bob = service.change_marker()
    service.set_grade(bob, 1, 1, None)  # a cleared grade is a change too (history row)
    assert service.changed_by_others(after_bob, alice)
    assert not service.changed_by_others(service.change_marker(), alice)


def test_team_progress_counts_without_grades(db: Any) -> None:
    _data(db)
    service = AnnotationService(db)
    alice = service.ensure_annotator("alice").id
    bob = service.ensure_annotator("bob").id
    service.ensure_annotator("carol")
    service.set_grade(alice, 1, 1, 3)
    service.set_grade(alice, 1, 2, 0)
    service.set_grade(bob, 1, 2, 4)
    team = service.team_progress().members
    assert [(m.name, m.judged) for m in team] == [("alice", 2), ("bob", 1), ("carol", 0)]
    assert team[0].last_change is not None and team[0].last_change.tzinfo is not None
    assert team[2].last_change is None


def test_team_progress_leaves_the_connection_settings_as_they_were(db: Any) -> None:
    """The team poll scans the history with a small cache and its sorter on a temporary file
    (the desktop app's peak memory), then gives the pooled connection its own settings back."""
    _data(db)
    service = AnnotationService(db)
    service.set_grade(service.ensure_annotator("alice").id, 1, 1, 2)
    if db.engine.dialect.name != "sqlite":
        assert [m.judged for m in service.team_progress().members] == [1]
        return
    with db.engine.connect() as conn:
        before = [
            conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("cache_size", "temp_store")
        ]
    assert before == [-65536, 2]  # the engine's own: 64 MiB, in memory
    for _ in range(3):  # the pool hands the same connection back
        assert [m.judged for m in service.team_progress().members] == [1]
        with db.engine.connect() as conn:
            after = [
                conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("cache_size", "temp_store")
            ]
        assert after == before


def test_a_later_poll_reads_only_the_new_history_and_equals_a_whole_read(db: Any) -> None:
    """The team line kept from the last poll is brought up to date from the history rows
    written since (read by id); after a deletion (the history loses rows) it is read whole."""
    _data(db)
    service = AnnotationService(db)
    alice = service.ensure_annotator("alice").id
    bob = service.ensure_annotator("bob").id
    carol = service.ensure_annotator("carol").id
    service.set_grade(alice, 1, 1, 3)
    service.set_grade(carol, 1, 1, 2)  # carol's last change is only in what the first read saw
    first = service.team_progress()
    service.set_grade(bob, 1, 2, 4)
    service.set_grade(alice, 1, 2, 1)
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        statements.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        later = service.team_progress(first)
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)
    whole = service.team_progress()
    assert later.members == whole.members
    assert [(m.name, m.judged) for m in later.members] == [("alice", 2), ("bob", 1), ("carol", 1)]
    assert later.members[2].last_change is not None
    assert later.history_id == whole.history_id > first.history_id
    history_reads = [p for s, p in statements if "judgment_history" in s and "GROUP BY" in s]
    assert history_reads and all(str(first.history_id) in str(p) for p in history_reads), statements
    # a removed document takes its history rows with it: the next poll notices and reads whole
    with db.engine.begin() as conn:
        conn.execute(delete(models.documents).where(models.documents.c.id == 2))
    after_delete = service.team_progress(later)
    assert after_delete.members == service.team_progress().members
    judged = [(m.name, m.judged) for m in after_delete.members]
    assert judged == [("alice", 1), ("carol", 1), ("bob", 0)]
    assert after_delete.members[2].last_change is None  # bob's one change went with document 2
