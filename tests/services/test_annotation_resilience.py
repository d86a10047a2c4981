"""A grade written while the PostgreSQL server goes away: saved after a restart, or reported as
NOT saved (ConnectionLost) — never silently dropped."""

from __future__ import annotations

import pytest
from sqlalchemy import func, insert, select

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.resilience import ConnectionLost
from tests.pg import PostgresServer

pytestmark = pytest.mark.postgres


@pytest.fixture
def data(server_and_db: tuple[PostgresServer, Database]) -> tuple[PostgresServer, Database]:
    _server, database = server_and_db
    with database.engine.begin() as conn:
        conn.execute(insert(models.queries), [{"id": 1, "external_id": "q1", "text": "t"}])
        conn.execute(
            insert(models.documents),
            [{"id": i, "external_id": f"d{i}", "title": "", "text": "", "url": ""} for i in (1, 2)],
        )
    return server_and_db


def _counts(database: Database) -> tuple[int, int]:
    with database.engine.connect() as conn:
        n_j = conn.execute(select(func.count()).select_from(models.judgments)).scalar_one()
        n_h = conn.execute(select(func.count()).select_from(models.judgment_history)).scalar_one()
    return int(n_j), int(n_h)


def test_grade_after_server_restart_is_saved(data: tuple[PostgresServer, Database]) -> None:
    server, database = data
    service = AnnotationService(database)
    alice = service.ensure_annotator("alice").id
    service.set_grade(alice, 1, 1, 3)
    server.restart_server()
    service.set_grade(alice, 1, 2, 4)
    assert _counts(database) == (2, 2)


def test_grade_with_server_down_is_reported_not_saved(
    data: tuple[PostgresServer, Database],
) -> None:
    server, database = data
    service = AnnotationService(database)
    alice = service.ensure_annotator("alice").id
    service.set_grade(alice, 1, 1, 3)
    server.stop_server()
    try:
        with pytest.raises(ConnectionLost, match="your last grade was NOT saved"):
            service.set_grade(alice, 1, 2, 4)
    finally:
        server.start_server()
    assert _counts(database) == (1, 1)
    service.set_grade(alice, 1, 2, 4)  # reconnected
    assert _counts(database) == (2, 2)
