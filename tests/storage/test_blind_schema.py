"""Migration 0011 (blind annotators): ``campaign_items.gold`` is filled from ``gold_grade`` on the
way up and dropped on the way down, every item kept (SQLite and PostgreSQL); on PostgreSQL an
annotator login that existed before the upgrade loses the gold answers and the others' grades,
a lead keeps them, and a downgrade gives the annotator back what it read before."""

from __future__ import annotations

import uuid

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from ndcg_studio.storage.database import alembic_config, create_studio_engine
from tests.pg import PostgresServer

_ITEMS = "SELECT document_id, gold_grade FROM campaign_items ORDER BY document_id"


def _seed(conn: object) -> None:
    for sql in (
        "INSERT INTO queries (id, external_id, text) VALUES (1, 'q', '')",
        "INSERT INTO documents (id, external_id, title, text, url) VALUES (1, 'd1', '', '', ''), "
        "(2, 'd2', '', '', '')",
        "INSERT INTO annotators (id, name, login) VALUES (1, 'ann', NULL), (2, 'other', NULL)",
        "INSERT INTO judgments (query_id, document_id, annotator_id, grade) VALUES (1, 1, 1, 2), "
        "(1, 1, 2, 3)",
        "INSERT INTO campaigns (id, name, guidelines, pool_depth, pool_strategy, overlap, "
        "gold_rate, gold_threshold, status) VALUES (1, 'c', '', 10, 'depth', 1, 0.05, 0.7, 'open')",
        "INSERT INTO campaign_items (campaign_id, query_id, document_id, gold_grade, shuffle) "
        "VALUES (1, 1, 1, NULL, 7), (1, 1, 2, 4, 3)",
    ):
        conn.execute(text(sql))  # type: ignore[attr-defined]


def test_0011_up_and_down_keep_every_item(db_url: str) -> None:
    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0010")
            _seed(conn)
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            gold = conn.execute(text("SELECT document_id, gold FROM campaign_items ORDER BY 1"))
            assert [(d, bool(g)) for d, g in gold] == [(1, False), (2, True)]
        with engine.begin() as conn, pytest.raises(DBAPIError):  # the flag follows the answer
            conn.execute(text("UPDATE campaign_items SET gold_grade = NULL WHERE document_id = 2"))
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0010")
        with engine.connect() as conn:
            assert [tuple(r) for r in conn.execute(text(_ITEMS))] == [(1, None), (2, 4)]
            columns = conn.execute(text("SELECT * FROM campaign_items")).keys()
            assert "gold" not in columns
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_0011_blinds_the_annotator_logins_that_exist(postgres_server: PostgresServer) -> None:
    server = postgres_server
    name = server.create_database()
    suffix = uuid.uuid4().hex[:8]
    ann, lead = f"ann_{suffix}", f"lead_{suffix}"
    engine = create_studio_engine(make_url(server.url(name)))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0010")
            _seed(conn)
            conn.execute(text(f"UPDATE annotators SET login = '{ann}' WHERE id = 1"))
            conn.execute(text(f"UPDATE annotators SET login = '{lead}' WHERE id = 2"))
            for login in (ann, lead):  # the grants of 'team add-annotator' / 'add-lead' at 0010
                conn.execute(text(f"CREATE ROLE {login} LOGIN"))
                conn.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {login}"))
            conn.execute(text(f"GRANT INSERT ON campaigns, campaign_items TO {lead}"))

        def read(login: str, sql: str) -> list[tuple[object, ...]]:
            url = make_url(server.url(name)).set(username=login)
            as_login = create_engine(url.set(drivername="postgresql+psycopg"))
            try:
                with as_login.connect() as conn:
                    return [tuple(r) for r in conn.execute(text(sql))]
            finally:
                as_login.dispose()

        grades = "SELECT annotator_id, grade FROM judgments ORDER BY 1"
        assert read(ann, _ITEMS) == [(1, None), (2, 4)]
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with pytest.raises(DBAPIError, match="permission denied"):
            read(ann, _ITEMS)
        assert read(ann, "SELECT document_id, gold FROM campaign_items ORDER BY 1") == [
            (1, False),
            (2, True),
        ]
        assert read(ann, grades) == [(1, 2)]
        assert read(ann, "SELECT * FROM item_grade_counts") == [(1, 1, 2)]
        assert read(ann, "SELECT query_id, document_id FROM item_grade_changes") == [(1, 1)] * 2
        assert read(lead, grades) == [(1, 2), (2, 3)]
        assert read(lead, _ITEMS) == [(1, None), (2, 4)]
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0010")
        assert read(ann, _ITEMS) == [(1, None), (2, 4)]
        assert read(ann, grades) == [(1, 2), (2, 3)]
    finally:
        engine.dispose()
        server.drop_database(name)
        for login in (ann, lead):
            server.admin_execute(f"DROP ROLE IF EXISTS {login}")
