"""Migration 0005 (judgment sources) on SQLite and PostgreSQL: existing annotators and
judgments stay as they are; a source's membership goes with its annotator; downgrade removes
only the two new tables."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError


def test_upgrade_keeps_judgments_and_downgrade_drops_only_the_sources(db_url: str) -> None:
    from alembic import command
    from sqlalchemy.engine import make_url

    from ndcg_studio.storage.database import alembic_config, create_studio_engine

    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0002")
            conn.execute(text("INSERT INTO queries (id, external_id, text) VALUES (1, 'q', '')"))
            conn.execute(text(
                "INSERT INTO documents (id, external_id, title, text, url) "
                "VALUES (1, 'd', '', '', '')"))  # fmt: skip
            conn.execute(text("INSERT INTO annotators (id, name) VALUES (1, 'ada')"))
            conn.execute(text(
                "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
                "VALUES (1, 1, 1, 3)"))  # fmt: skip
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            assert {"sources", "annotator_sources"} <= set(inspect(conn).get_table_names())
            conn.execute(text("INSERT INTO sources (id, name, kind, description) "
                              "VALUES (1, 'gpt', 'model', '')"))  # fmt: skip
            conn.execute(text("INSERT INTO annotator_sources VALUES (1, 1)"))
            assert conn.execute(text("SELECT grade FROM judgments")).scalar_one() == 3
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0004")  # below the sources (0005)
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            assert "sources" not in tables and "annotator_sources" not in tables
            assert conn.execute(text("SELECT count(*) FROM judgments")).scalar_one() == 1
            assert conn.execute(text("SELECT count(*) FROM annotators")).scalar_one() == 1
    finally:
        engine.dispose()


def test_source_kind_is_checked_and_membership_follows_the_annotator(db: object) -> None:
    from ndcg_studio.storage import models

    engine = db.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(models.sources.insert().values(id=1, name="vendor", kind="vendor"))
        conn.execute(models.annotators.insert().values(id=1, name="v1"))
        conn.execute(models.annotator_sources.insert().values(annotator_id=1, source_id=1))
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(models.sources.insert().values(name="x", kind="robot"))
    with engine.begin() as conn:
        conn.execute(models.annotators.delete())
        assert conn.execute(text("SELECT count(*) FROM annotator_sources")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM sources")).scalar_one() == 1
