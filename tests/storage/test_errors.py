"""storage.errors: which exceptions mean a locked SQLite file or a lost server (the UI words
them without importing SQLAlchemy)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError, OperationalError

from ndcg_studio.storage.errors import is_connection_lost, is_locked
from ndcg_studio.storage.resilience import ConnectionLost


def test_a_real_lock_is_recognised(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'locked.sqlite'}"
    holder = sqlite3.connect(tmp_path / "locked.sqlite", isolation_level=None)
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")
    engine = create_engine(url, connect_args={"timeout": 0})
    try:
        with pytest.raises(OperationalError) as caught, engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (1)"))
        assert is_locked(caught.value)
        assert not is_connection_lost(caught.value)  # a lock is not a lost server
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        engine.dispose()


def test_other_errors_are_not_locks() -> None:
    other = OperationalError("SELECT 1", {}, sqlite3.OperationalError("no such table: t"))
    assert not is_locked(other)
    integrity = IntegrityError("INSERT", {}, sqlite3.IntegrityError("database is locked"))
    assert not is_locked(integrity)  # the message alone is not enough: the type must match
    assert not is_locked(ValueError("locked"))


def test_connection_lost_is_recognised() -> None:
    assert is_connection_lost(ConnectionLost("db"))
    assert not is_connection_lost(ValueError("gone"))
