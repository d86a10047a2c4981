"""Migration 0010 (``judge_labels``) up, down and up again on SQLite and PostgreSQL, keeping the
judgments; its constraints refuse a status or grade outside the vocabulary."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from ndcg_studio.storage.database import alembic_config


def _at(engine: object, revision: str, down: bool = False) -> None:
    with engine.begin() as conn:  # type: ignore[attr-defined]
        cfg = alembic_config(conn)
        (command.downgrade if down else command.upgrade)(cfg, revision)


def test_0010_up_down_up(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        _at(engine, "0009")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO queries (id, external_id, text) VALUES (1, 'q', '')"))
            conn.execute(
                text("INSERT INTO documents (id, external_id, title, text, url) "
                     "VALUES (1, 'd', '', '', '')")
            )  # fmt: skip
            conn.execute(text("INSERT INTO annotators (id, name) VALUES (1, 'gpt')"))
            conn.execute(
                text("INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
                     "VALUES (1, 1, 1, 2)")
            )  # fmt: skip
        _at(engine, "0010")
        assert "judge_labels" in inspect(engine).get_table_names()
        insert = (
            "INSERT INTO judge_labels (annotator_id, query_id, document_id, template_hash, "
            "template_name, model, params, status, grade) VALUES (1, 1, 1, 'h', 'umbrela', "
            "'m', '{}', :status, :grade)"
        )
        with engine.begin() as conn:
            conn.execute(text(insert), {"status": "graded", "grade": 2})
        for status, grade in (("done", 2), ("graded", 7)):
            with pytest.raises(IntegrityError), engine.begin() as conn:
                conn.execute(
                    text(insert.replace("'h'", "'h2'")), {"status": status, "grade": grade}
                )
        _at(engine, "0009", down=True)
        assert "judge_labels" not in inspect(engine).get_table_names()
        _at(engine, "0010")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT grade FROM judgments")).scalar_one() == 2
    finally:
        engine.dispose()
