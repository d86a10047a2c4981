"""PostgreSQL-specific facts of team mode, on the real test server started by tests/pg.py.

- the test server itself is what tests/pg.py promises (loopback only, UTF-8, fast settings);
- several processes opening the same fresh database at once all succeed, because
  ``upgrade_to_head`` serialises migrations with an advisory lock;
- the version guard refuses a database written by a newer app, as on SQLite;
- Unicode text round-trips unchanged on both back ends; the differences PostgreSQL enforces and
  SQLite does not (NUL characters, VARCHAR lengths) and timezone-aware timestamps are pinned
  down so that the import and service layers know about them.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.exc import DataError

from ndcg_studio.storage import models
from ndcg_studio.storage.database import (
    _MIGRATION_LOCK_KEY,
    APP_NAME,
    Database,
    DatabaseVersionError,
    head_revision,
    open_database,
)
from tests.pg import PostgresServer

pytestmark = pytest.mark.postgres

N_OPENERS = 3


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> Iterator[str]:
    yield from postgres_server.fresh_database()


@pytest.fixture
def pg_db(pg_url: str) -> Iterator[Database]:
    database = open_database(pg_url)
    yield database
    database.dispose()


def test_test_server_is_loopback_utf8_and_fast(pg_db: Database) -> None:
    with pg_db.engine.connect() as conn:
        show = {
            name: conn.execute(text(f"SHOW {name}")).scalar()
            for name in ("listen_addresses", "server_encoding", "fsync", "synchronous_commit")
        }
        is_super = conn.execute(
            text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        ).scalar()
    assert is_super is True
    assert show == {
        "listen_addresses": "127.0.0.1",
        "server_encoding": "UTF8",
        "fsync": "off",
        "synchronous_commit": "off",
    }


def test_engine_sets_application_name_and_connect_timeout(pg_db: Database) -> None:
    with pg_db.engine.connect() as conn:
        assert conn.execute(text("SHOW application_name")).scalar() == APP_NAME
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        assert dbapi.info.get_parameters()["connect_timeout"] == "10"


def test_url_query_overrides_connect_args(postgres_server: PostgresServer, pg_url: str) -> None:
    database = open_database(pg_url + "?application_name=alice-laptop")
    try:
        with database.engine.connect() as conn:
            assert conn.execute(text("SHOW application_name")).scalar() == "alice-laptop"
    finally:
        database.dispose()


# --- two processes opening the same fresh database --------------------------------------------


def _open_in_child(url: str, results: Any) -> None:
    """Child process: open (and so migrate) the database; report the revision or the error."""
    try:
        database = open_database(url)
        try:
            with database.engine.connect() as conn:
                revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        finally:
            database.dispose()
        results.put(("ok", revision))
    except BaseException as exc:  # report everything: the parent asserts on it
        results.put(("error", f"{type(exc).__name__}: {exc}"))


def _waiting_for_migration_lock(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND (classid::bigint << 32) + objid::bigint = %s",
        (_MIGRATION_LOCK_KEY,),
    ).fetchone()
    assert row is not None
    return int(row[0])


def test_processes_opening_a_fresh_database_at_once_all_succeed(
    postgres_server: PostgresServer, pg_url: str
) -> None:
    """The test holds the migration advisory lock, starts N processes that open the empty
    database, waits until all N are queued on that lock (so they really are concurrent and the
    lock really is taken), then releases it: exactly one migrates, the others find the schema at
    head. Without the lock they would run CREATE TABLE side by side and all but one fail."""
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    db_name = pg_url.rsplit("/", 1)[1]
    with psycopg.connect(
        host="127.0.0.1", port=postgres_server.port, user="studio", dbname=db_name
    ) as holder:
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK_KEY,))
        children = [
            ctx.Process(target=_open_in_child, args=(pg_url, results)) for _ in range(N_OPENERS)
        ]
        for child in children:
            child.start()
        try:
            deadline = time.monotonic() + 60
            with psycopg.connect(
                host="127.0.0.1", port=postgres_server.port, user="studio", dbname=db_name,
                autocommit=True,
            ) as observer:  # fmt: skip
                while _waiting_for_migration_lock(observer) < N_OPENERS:
                    assert all(c.is_alive() for c in children), "a child exited before the lock"
                    assert time.monotonic() < deadline, "children never queued on the lock"
                    time.sleep(0.05)
        finally:
            holder.commit()  # releases the transaction-level advisory lock
        outcomes = [results.get(timeout=60) for _ in children]
        for child in children:
            child.join(timeout=30)
            assert child.exitcode == 0
    assert outcomes == [("ok", head_revision())] * N_OPENERS
    database = open_database(pg_url)
    try:
        with database.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM judgments")).scalar() == 0
    finally:
        database.dispose()


def test_database_from_newer_app_is_refused_on_postgres(pg_url: str) -> None:
    database = open_database(pg_url)
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    database.dispose()
    with pytest.raises(DatabaseVersionError, match="newer version of NDCG Studio"):
        open_database(pg_url)
    database = open_database(pg_url, upgrade=False)  # nothing was touched by the refusal
    try:
        with database.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
                "9999_future"
            )
    finally:
        database.dispose()


# --- text and time ----------------------------------------------------------------------------

UNICODE_TEXTS = [
    "naïve café — “quoted” ‘text’ …",
    "Ελληνικά κείμενα και ορολογία",
    "日本語の検索クエリ、全角スペース\u3000付き",
    "עברית ועربية: right-to-left",
    "emoji outside the BMP: 🔍📄😀 and a ZWJ family 👩\u200d👩\u200d👧",
    "combining: e\u0301 (NFD) vs \u00e9 (NFC)",
    "line\nbreaks\r\nand\ttabs and a line separator \u2028 here",
    "",
]


def test_unicode_round_trip(db: Database) -> None:
    """Every text comes back code point for code point; NFC and NFD spellings of one word are
    distinct external ids (no normalisation by either back end)."""
    rows: list[dict[str, str | None]] = [
        {"external_id": f"q{i}-{t[:20]}", "text": t, "description": t[::-1]}
        for i, t in enumerate(UNICODE_TEXTS)
    ]
    rows.append({"external_id": "caf\u00e9", "text": "NFC", "description": None})
    rows.append({"external_id": "cafe\u0301", "text": "NFD", "description": None})
    with db.engine.begin() as conn:
        conn.execute(insert(models.queries), rows)
    with db.engine.connect() as conn:
        got = conn.execute(
            select(
                models.queries.c.external_id,
                models.queries.c.text,
                models.queries.c.description,
            ).order_by(models.queries.c.id)
        ).all()
        found = conn.execute(
            select(models.queries.c.text).where(models.queries.c.external_id == "cafe\u0301")
        ).scalar_one()
    assert [tuple(r) for r in got] == [
        (r["external_id"], r["text"], r["description"]) for r in rows
    ]
    assert found == "NFD"


def test_postgres_rejects_nul_characters(pg_db: Database) -> None:
    """PostgreSQL text cannot hold U+0000 (SQLite can): importers must strip or refuse it."""
    with pytest.raises(DataError, match="NUL"), pg_db.engine.begin() as conn:
        conn.execute(insert(models.queries), [{"external_id": "q", "text": "a\x00b"}])


def test_long_external_ids_work_on_postgres_as_on_sqlite(pg_db: Database) -> None:
    """External ids and names are unbounded ``VARCHAR`` (a length limit would make PostgreSQL
    refuse what SQLite accepts)."""
    long_id = "x" * 5000
    with pg_db.engine.begin() as conn:
        conn.execute(insert(models.queries), [{"external_id": long_id, "text": ""}])
        stored = conn.execute(select(models.queries.c.external_id)).scalar_one()
    assert stored == long_id


def test_postgres_timestamps_are_timezone_aware(pg_db: Database) -> None:
    """``DateTime(timezone=True)`` comes back aware on PostgreSQL (in the session's TimeZone),
    naive on SQLite: services that compare or display times must normalise
    (``dt.replace(tzinfo=UTC)`` if naive, ``dt.astimezone(UTC)`` otherwise)."""
    with pg_db.engine.begin() as conn:
        conn.execute(insert(models.annotators), [{"name": "alice"}])  # server default: now()
        created = conn.execute(select(models.annotators.c.created_at)).scalar_one()
        now = conn.execute(text("SELECT now()")).scalar_one()
    assert created.tzinfo is not None
    assert abs(now - created) < timedelta(minutes=1)
