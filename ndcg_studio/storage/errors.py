"""Classify a database exception without importing SQLAlchemy above storage.

The UI tells a person what happened (:mod:`ndcg_studio.ui.errors`); which exceptions mean a
locked file or a lost server is storage's knowledge, kept here beside
:func:`ndcg_studio.storage.resilience.is_disconnect`.
"""

from __future__ import annotations

from sqlalchemy.exc import OperationalError

from ndcg_studio.storage.resilience import ConnectionLost, is_disconnect

__all__ = ["is_connection_lost", "is_locked"]


def is_locked(exc: BaseException) -> bool:
    """True when ``exc`` says the database (an SQLite file) stayed locked by another writer
    past the busy timeout (SQLite's ``OperationalError: database is locked``)."""
    return isinstance(exc, OperationalError) and "locked" in (str(exc) or "").lower()


def is_connection_lost(exc: BaseException) -> bool:
    """True when ``exc`` means the database server is gone: a :class:`ConnectionLost` raised
    after the retries, or a driver error that :func:`is_disconnect` recognises."""
    return isinstance(exc, ConnectionLost) or is_disconnect(exc)
