"""Lost connections: ``ndcg_studio.storage.resilience`` against a real server that restarts or
stops (a private server per test, see ``private_postgres_server`` in tests/pg.py), plus the
classification and retry rules on constructed errors."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
import psycopg.errors
import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, DatabaseError
from ndcg_studio.storage.resilience import (
    ConnectionLost,
    check_connection,
    is_disconnect,
    is_reachable,
    retrying,
)
from tests.pg import PostgresServer

# --- classification and retry rules (no server needed) ---------------------------------------


def _wrapped(orig: BaseException, cls: type[DBAPIError] = OperationalError) -> DBAPIError:
    return cls("INSERT ...", {}, orig)


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (_wrapped(psycopg.OperationalError("connection refused")), True),  # libpq, no SQLSTATE
        (_wrapped(psycopg.errors.AdminShutdown()), True),  # 57P01: pg_ctl stop/restart
        (_wrapped(psycopg.errors.CannotConnectNow()), True),  # 57P03: server starting up
        (_wrapped(psycopg.errors.ConnectionFailure()), True),  # 08006
        (_wrapped(psycopg.errors.LockNotAvailable()), False),  # 55P03: not a disconnect
        (_wrapped(psycopg.errors.SerializationFailure()), False),  # 40001
        (_wrapped(sqlite3.OperationalError("database is locked")), False),
        (_wrapped(psycopg.errors.UniqueViolation(), IntegrityError), False),
        (ValueError("grade must be 0-4"), False),
    ],
    ids=lambda v: type(getattr(v, "orig", v)).__name__ if not isinstance(v, bool) else str(v),
)
def test_is_disconnect(error: BaseException, expected: bool) -> None:
    assert is_disconnect(error) is expected


def test_invalidated_connection_is_a_disconnect_whatever_the_error() -> None:
    error = DBAPIError("SELECT 1", {}, psycopg.DatabaseError("x"), connection_invalidated=True)
    assert is_disconnect(error)


class _Flaky:
    """A unit of work that fails with ``error`` the first ``failures`` times."""

    def __init__(self, failures: int, error: BaseException) -> None:
        self.failures = failures
        self.error = error
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return "saved"


DISCONNECT = _wrapped(psycopg.OperationalError("server closed the connection unexpectedly"))


def test_retrying_retries_disconnects_with_linear_backoff() -> None:
    fn = _Flaky(2, DISCONNECT)
    sleeps: list[float] = []
    retries: list[int] = []
    result = retrying(
        fn,
        attempts=3,
        delay=0.5,
        sleep=sleeps.append,
        on_retry=lambda attempt, exc: retries.append(attempt),
    )
    assert result == "saved"
    assert fn.calls == 3
    assert sleeps == [0.5, 1.0]
    assert retries == [1, 2]


def test_retrying_gives_up_with_connection_lost() -> None:
    fn = _Flaky(10, DISCONNECT)
    with pytest.raises(ConnectionLost) as info:
        retrying(fn, attempts=3, sleep=lambda s: None, label="db.example.org/relevance",
                 unsaved="your last grade")  # fmt: skip
    assert fn.calls == 3
    assert info.value.__cause__ is DISCONNECT
    assert isinstance(info.value, DatabaseError)
    message = str(info.value)
    assert "db.example.org/relevance is not reachable" in message
    assert "your last grade was NOT saved" in message
    assert "reconnecting" in message


def test_retrying_reraises_other_errors_at_once() -> None:
    error = _wrapped(psycopg.errors.UniqueViolation(), IntegrityError)
    fn = _Flaky(1, error)
    with pytest.raises(IntegrityError) as info:
        retrying(fn, sleep=lambda s: None)
    assert info.value is error
    assert fn.calls == 1
    with pytest.raises(ValueError, match="attempts"):
        retrying(fn, attempts=0)


# --- the real server --------------------------------------------------------------------------

pg = pytest.mark.postgres


def _add_annotator(database: Database, name: str) -> int:
    with database.engine.begin() as conn:
        key = conn.execute(insert(models.annotators).values(name=name)).inserted_primary_key
    assert key is not None
    return int(key[0])


def _names(database: Database) -> list[str]:
    with database.engine.connect() as conn:
        return list(conn.execute(select(models.annotators.c.name).order_by("id")).scalars())


@pg
def test_write_after_server_restart_succeeds(
    server_and_db: tuple[PostgresServer, Database],
) -> None:
    """A pooled connection killed by the restart is replaced by pool_pre_ping before use."""
    server, database = server_and_db
    _add_annotator(database, "before")
    server.restart_server()
    retries: list[int] = []
    retrying(lambda: _add_annotator(database, "after"), delay=0.1,
             on_retry=lambda attempt, exc: retries.append(attempt))  # fmt: skip
    assert _names(database) == ["before", "after"]
    assert retries == []  # pre-ping handled it; no unit of work was lost


@pg
def test_restart_inside_a_unit_of_work_is_retried_once(
    server_and_db: tuple[PostgresServer, Database],
) -> None:
    """The server restarts between two statements of one transaction: the first attempt fails
    with an invalidated connection and is rolled back; the retry commits exactly once."""
    server, database = server_and_db
    _add_annotator(database, "before")
    errors: list[BaseException] = []
    attempts = 0

    def unit_of_work() -> None:
        nonlocal attempts
        attempts += 1
        with database.transaction() as session:
            session.execute(insert(models.annotators).values(name="first half"))
            if attempts == 1:
                server.restart_server()
            session.execute(insert(models.annotators).values(name="second half"))

    retrying(unit_of_work, delay=0.1, on_retry=lambda attempt, exc: errors.append(exc))
    assert attempts == 2
    assert len(errors) == 1 and isinstance(errors[0], DBAPIError)
    assert errors[0].connection_invalidated
    assert _names(database) == ["before", "first half", "second half"]


@pg
def test_stopped_server_raises_connection_lost_and_saves_nothing(
    server_and_db: tuple[PostgresServer, Database],
) -> None:
    server, database = server_and_db
    _add_annotator(database, "saved")
    server.stop_server()
    try:
        assert not is_reachable(database)
        with pytest.raises(ConnectionLost, match="was NOT saved") as info:
            retrying(lambda: _add_annotator(database, "lost"), attempts=2, delay=0.05,
                     label=database.label, unsaved="your last grade")  # fmt: skip
        assert isinstance(info.value.__cause__, OperationalError)
        assert f"127.0.0.1:{server.port}" in str(info.value)
        with pytest.raises(ConnectionLost) as probe:
            check_connection(database)
        assert "NOT saved" not in str(probe.value)
    finally:
        server.start_server()
    assert is_reachable(database)
    assert _names(database) == ["saved"]  # the failed write left nothing behind
    retrying(lambda: _add_annotator(database, "retried"), delay=0.05)
    with database.engine.connect() as conn:
        count: Any = conn.execute(select(func.count()).select_from(models.annotators)).scalar()
    assert count == 2
