"""The role set-up of docs/team-mode.md (set-up B), executed verbatim on the test server: the
owner migrates; an annotator login can grade, clear, adjudicate and read, but cannot import runs,
rewrite the history or migrate the schema."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import ProgrammingError

from ndcg_studio.storage import models
from ndcg_studio.storage.database import DatabaseError, open_database
from tests.pg import SUPERUSER, PostgresServer

pytestmark = pytest.mark.postgres

DOC = Path(__file__).resolve().parents[2] / "docs" / "team-mode.md"
ROLES = ("alice", "bob", "annotators", "studio_owner")
DATABASES = ("relevance", "relevance_next")


def sql_blocks() -> list[list[str]]:
    """The statements of each ```sql block of the doc (psql meta-commands and comments left
    out)."""
    blocks = re.findall(r"```sql\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    statements = []
    for block in blocks:
        lines = [ln for ln in block.splitlines() if not ln.startswith(("\\", "--"))]
        statements.append([s.strip() for s in "\n".join(lines).split(";") if s.strip()])
    return statements


def _execute(server: PostgresServer, user: str, dbname: str, statements: list[str]) -> None:
    with psycopg.connect(
        host="127.0.0.1", port=server.port, user=user, dbname=dbname, autocommit=True
    ) as conn:
        for statement in statements:
            conn.execute(statement)


def _url(server: PostgresServer, user: str, dbname: str = "relevance") -> str:
    return f"postgresql://{user}@127.0.0.1:{server.port}/{dbname}"


@pytest.fixture
def team_server(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    yield postgres_server
    for name in DATABASES:
        postgres_server.admin_execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    for role in ROLES:
        postgres_server.admin_execute(f"DROP ROLE IF EXISTS {role}")


def test_the_docs_role_recipe_works(team_server: PostgresServer) -> None:
    server = team_server
    create_roles, grants = sql_blocks()
    _execute(server, SUPERUSER, "postgres", create_roles)
    open_database(_url(server, "studio_owner")).dispose()  # the owner's first open migrates
    _execute(server, "studio_owner", "relevance", grants)
    owner = open_database(_url(server, "studio_owner"))
    with owner.engine.begin() as conn:  # the owner imports
        conn.execute(insert(models.queries), [{"external_id": "q1", "text": "ocean"}])
        conn.execute(
            insert(models.documents), [{"external_id": "d1", "title": "", "text": "", "url": ""}]
        )
        conn.execute(insert(models.runs), [{"name": "bm25"}])
    owner.dispose()

    from ndcg_studio.services.annotation import AnnotationService

    alice_db = open_database(_url(server, "alice"))  # at head: no migration needed
    try:
        service = AnnotationService(alice_db)
        alice = service.ensure_annotator("alice")
        assert service.ensure_annotator("alice") == alice
        service.set_grade(alice.id, 1, 1, 3, note="about oceans")
        service.set_grade(alice.id, 1, 1, 2)
        service.set_adjudication(1, 1, 2, by=alice.id)
        service.set_grade(alice.id, 1, 1, None)  # clearing deletes the row
        assert [(h.old_grade, h.new_grade) for h in service.history(1, 1)] == [
            (None, 3),
            (3, 2),
            (None, 2),
            (2, None),
        ]
        forbidden = [
            insert(models.runs).values(name="sneaky"),
            update(models.judgment_history).values(new_grade=4),
            delete(models.judgment_history),
            delete(models.queries),
        ]
        for statement in forbidden:
            with (
                pytest.raises(ProgrammingError, match="permission denied"),
                alice_db.engine.begin() as conn,
            ):
                conn.execute(statement)
        with alice_db.engine.connect() as conn:  # but alice reads everything
            assert conn.execute(select(models.runs.c.name)).scalars().all() == ["bm25"]
    finally:
        alice_db.dispose()


def test_annotator_cannot_migrate_only_the_owner_can(team_server: PostgresServer) -> None:
    """A database whose schema is behind the app (here: not created yet) can be migrated only
    by the owner; an annotator gets a clear 'permission denied' DatabaseError, not a crash."""
    server = team_server
    create_roles, _ = sql_blocks()
    _execute(server, SUPERUSER, "postgres", create_roles)
    server.admin_execute("CREATE DATABASE relevance_next OWNER studio_owner")
    server.admin_execute("GRANT CONNECT ON DATABASE relevance_next TO annotators")
    _execute(
        server, "studio_owner", "relevance_next", ["REVOKE CREATE ON SCHEMA public FROM PUBLIC"]
    )
    with pytest.raises(DatabaseError, match=r"cannot open the database .*permission denied"):
        open_database(_url(server, "alice", "relevance_next"))
    open_database(_url(server, "studio_owner", "relevance_next")).dispose()
