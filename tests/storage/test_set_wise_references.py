"""Migration 0008 (PostgreSQL: the foreign keys of judgments, results and judgment_history
checked set-wise by statement triggers): data kept through 0007 → 0008 → 0007 on both databases,
and on the real server the same outcomes as the foreign keys — refused references, cascades,
changed or truncated parents refused. Migration 0009 (an import's checks as anti-joins): data
kept through 0008 → 0009 → 0008, and the same refusals inside an import."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from ndcg_studio.storage.database import alembic_config, create_studio_engine

_COUNTS = (
    "SELECT (SELECT count(*) FROM judgments), (SELECT count(*) FROM results), "
    "(SELECT count(*) FROM judgment_history), (SELECT count(*) FROM documents)"
)
_ROWS = (
    "INSERT INTO queries (id, external_id, text) VALUES (1, 'q', ''), (2, 'q2', '')",
    "INSERT INTO documents (id, external_id, title, text, url) "
    "VALUES (1, 'd', '', '', ''), (2, 'd2', '', '', '')",
    "INSERT INTO runs (id, name, description) VALUES (1, 'r', ''), (2, 'r2', '')",
    "INSERT INTO annotators (id, name) VALUES (1, 'ann'), (2, 'other')",
    "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
    "VALUES (1, 1, 1, 2), (1, 2, 2, 3)",
    "INSERT INTO results (query_id, run_id, document_id, position, score) "
    "VALUES (1, 1, 1, 1, 0.5), (2, 2, 2, 1, 0.5), (1, 2, 1, 1, 0.5)",
)


@pytest.fixture
def engine(db_url: str) -> Iterator[Any]:
    engine = create_studio_engine(make_url(db_url))
    yield engine
    engine.dispose()


def _at(engine: Any, revision: str) -> None:
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)


def test_0007_to_0008_and_back_keeps_every_row(engine: Any) -> None:
    _at(engine, "0007")
    with engine.begin() as conn:
        for sql in _ROWS:
            conn.execute(text(sql))
        before = conn.execute(text(_COUNTS)).one()
    assert tuple(before) == (2, 3, 2, 2)
    _at(engine, "0008")
    with engine.begin() as conn:
        assert conn.execute(text(_COUNTS)).one() == before
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0007")
        assert conn.execute(text(_COUNTS)).one() == before
    with pytest.raises(IntegrityError), engine.begin() as conn:  # the foreign key is back
        conn.execute(text("INSERT INTO results VALUES (1, 1, 99, NULL, 2, 0.1)"))


@pytest.fixture
def pg(engine: Any) -> Any:
    if engine.dialect.name != "postgresql":
        pytest.skip("migration 0008 changes PostgreSQL only")
    _at(engine, "head")
    with engine.begin() as conn:
        for sql in _ROWS:
            conn.execute(text(sql))
    return engine


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO judgments (query_id, document_id, annotator_id, grade) VALUES (1, 99, 1, 1)",
        "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
        "VALUES (1, 2, 1, 1), (2, 1, 99, 1)",  # one bad row of two
        "UPDATE judgments SET query_id = 99 WHERE annotator_id = 1",
        "INSERT INTO results (query_id, run_id, document_id, position, score) "
        "VALUES (2, 99, 1, 1, 0.5)",
        "INSERT INTO judgment_history (kind, query_id, document_id, changed_by) "
        "VALUES ('judgment', 1, 1, 99)",
        "UPDATE documents SET id = 50 WHERE id = 1",  # still referenced
        "DELETE FROM runs WHERE id = 1; TRUNCATE runs CASCADE",
    ],
)
def test_bad_references_are_refused_like_foreign_keys(pg: Any, sql: str) -> None:
    with pytest.raises(DBAPIError) as caught, pg.begin() as conn:
        for statement in sql.split("; "):
            conn.execute(text(statement))
    assert getattr(caught.value.orig, "sqlstate", None) in ("23503", "0A000")
    with pg.connect() as conn:
        assert conn.execute(text(_COUNTS)).one() == (2, 3, 2, 2)


def test_deletes_cascade_like_foreign_keys(pg: Any) -> None:
    with pg.begin() as conn:
        conn.execute(text("DELETE FROM runs WHERE id = 2"))
        assert conn.execute(text("SELECT run_id FROM results")).scalars().all() == [1]
        conn.execute(text("DELETE FROM queries WHERE id = 2"))  # no judgments: nothing refused
        conn.execute(text("UPDATE documents SET title = 'kept' WHERE id = 1"))  # ids unchanged
        conn.execute(text("DELETE FROM judgments WHERE annotator_id = 2"))
        conn.execute(text("UPDATE judgment_history SET changed_by = 2"))
        conn.execute(text("DELETE FROM judgment_history WHERE annotator_id = 2"))
        conn.execute(text("DELETE FROM annotators WHERE id = 2"))  # changed_by set NULL
        assert (
            conn.execute(
                text("SELECT count(*) FROM judgment_history WHERE changed_by IS NULL")
            ).scalar()
            == 1
        )
        # judgments, their history (also the rows their deletion records) and results go too
        conn.execute(text("DELETE FROM documents WHERE id = 1"))
        assert conn.execute(text(_COUNTS)).one() == (0, 0, 0, 1)


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        (
            "INSERT INTO results VALUES (2, 1, 2, NULL, 1, 0.5)",
            "INSERT INTO results VALUES (2, 1, 99, NULL, 2, 0.5)",
        ),
        (
            "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
            "VALUES (2, 1, 1, 1), (2, 2, 1, 0)",
            "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
            "VALUES (1, 2, 1, 1), (2, 2, 99, 0)",  # one bad row of two
        ),
        (
            "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
            "VALUES (2, 1, 1, 1)",
            "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
            "VALUES (99, 1, 1, 1)",
        ),
        (
            "INSERT INTO judgment_history (kind, query_id, document_id, changed_by) "
            "VALUES ('judgment', 1, 1, NULL)",  # NULL: no reference to check
            "INSERT INTO judgment_history (kind, query_id, document_id, changed_by) "
            "VALUES ('judgment', 1, 99, 1)",
        ),
    ],
)
def test_an_import_holding_the_parents_still_refuses_a_missing_one(
    pg: Any, good: str, bad: str
) -> None:
    """Inside an import the parents are locked against writers (no row lock per parent): the
    existence check (an anti-join, 0009) still refuses a reference to a missing row with
    SQLSTATE 23503, nothing is written, and the parents are locked."""
    from ndcg_studio.storage.bulk.imports import RowRefused, import_transaction

    with pytest.raises(RowRefused, match="foreign key") as caught, import_transaction(pg) as conn:
        modes = conn.execute(text(
            "SELECT l.mode FROM pg_locks l WHERE l.pid = pg_backend_pid() "
            "AND l.relation = 'documents'::regclass"
        )).scalars().all()  # fmt: skip
        assert "ShareRowExclusiveLock" in modes
        conn.execute(text(good))  # fine
        conn.execute(text(bad))
    cause = caught.value.__context__
    assert getattr(getattr(cause, "orig", None), "sqlstate", None) == "23503"
    with pg.connect() as conn:
        assert conn.execute(text(_COUNTS)).one() == (2, 3, 2, 2)


def _function_sources(conn: Any) -> dict[str, str]:
    rows = conn.execute(
        text("SELECT proname, prosrc FROM pg_proc WHERE proname LIKE 'ndcg_references_of_%'")
    )
    return {str(name): str(source) for name, source in rows}


def test_0008_to_0009_and_back_keeps_every_row(engine: Any) -> None:
    _at(engine, "0008")
    with engine.begin() as conn:
        for sql in _ROWS:
            conn.execute(text(sql))
        before = conn.execute(text(_COUNTS)).one()
        sources_0008 = _function_sources(conn) if conn.dialect.name == "postgresql" else {}
    _at(engine, "0009")
    with engine.begin() as conn:
        assert conn.execute(text(_COUNTS)).one() == before
        if conn.dialect.name == "postgresql":
            sources = _function_sources(conn)
            assert (
                set(sources)
                == set(sources_0008)
                == {
                    "ndcg_references_of_judgments",
                    "ndcg_references_of_results",
                    "ndcg_references_of_judgment_history",
                }
            )
            assert all("NOT EXISTS" in source for source in sources.values())
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0008")
        assert conn.execute(text(_COUNTS)).one() == before
        if conn.dialect.name == "postgresql":
            assert _function_sources(conn) == sources_0008
    with pytest.raises(IntegrityError), engine.begin() as conn:  # still checked at 0008
        conn.execute(text("INSERT INTO results VALUES (1, 1, 99, NULL, 2, 0.1)"))
