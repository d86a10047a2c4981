"""Noticing other people's work: change markers and team progress (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert

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
    team = service.team_progress()
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
        assert [m.judged for m in service.team_progress()] == [1]
        return
    with db.engine.connect() as conn:
        before = [
            conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("cache_size", "temp_store")
        ]
    assert before == [-65536, 2]  # the engine's own: 64 MiB, in memory
    for _ in range(3):  # the pool hands the same connection back
        assert [m.judged for m in service.team_progress()] == [1]
        with db.engine.connect() as conn:
            after = [
                conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("cache_size", "temp_store")
            ]
        assert after == before
