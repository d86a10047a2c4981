"""Surviving a lost database connection (team mode: a PostgreSQL server that restarts or drops).

A *unit of work* is a function that opens its own transaction and commits it (for instance
``lambda: annotation.set_grade(...)``, where ``set_grade`` runs in one transaction). When the
connection to the server breaks inside it, the transaction is rolled back by the server, so
running the whole unit again is safe. :func:`retrying` does exactly that for disconnects and
re-raises every other error unchanged; when the server stays unreachable it raises
:class:`ConnectionLost`, whose message tells the person that the change was *not* saved.

What counts as a disconnect (:func:`is_disconnect`):

- SQLAlchemy marked the connection invalidated (``DBAPIError.connection_invalidated``: the
  socket closed under a running statement, e.g. ``pg_ctl restart``);
- an ``OperationalError`` from the driver without an SQLSTATE (libpq could not connect: server
  stopped, host unreachable, connect timeout), or with an SQLSTATE of class ``08`` (connection
  exception) or ``57P01``–``57P03`` (admin/crash shutdown, server starting up); SQLSTATE codes
  from the PostgreSQL manual, Appendix A "PostgreSQL Error Codes".

Lock timeouts, serialization failures, constraint violations and SQLite's "database is locked"
are *not* disconnects and are re-raised as they are.

Caveat (inherent to any client-side retry): if the connection drops after the server committed
but before the client heard so, the retried unit runs twice. Units of work must therefore be
idempotent: the annotation service's writes carry a write id, kept across the retries and stored
with the history row the write produced, and a retry that finds it returns the recorded change
instead of writing again.

:func:`refusal_of` turns the server's "insufficient privilege" (team mode: roles, row-level
security) into :class:`WriteRefused`, a one-line message instead of a driver traceback.

Pool-level protection is separate: engines use ``pool_pre_ping=True``, so a connection that died
while idle in the pool is replaced before use and never reaches the unit of work.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, OperationalError

from ndcg_studio.storage.database import Database, DatabaseError

T = TypeVar("T")

#: SQLSTATE codes (PostgreSQL manual, Appendix A) meaning "the server went away or is not
#: accepting connections yet": admin_shutdown, crash_shutdown, cannot_connect_now.
_SHUTDOWN_STATES = frozenset({"57P01", "57P02", "57P03"})


class ConnectionLost(DatabaseError):
    """The database server is not reachable; the unit of work was not saved (rolled back).

    Attributes:
        label: the database's password-free label (``describe_url``), or None if unknown.
        unsaved: what was not saved, as shown to the person (e.g. ``"your last grade"``); None
            when nothing was being saved (a connection probe).
    """

    def __init__(self, label: str | None = None, unsaved: str | None = "your last change") -> None:
        self.label = label
        self.unsaved = unsaved
        server = f"The database server {label}" if label else "The database server"
        lost = f" {unsaved} was NOT saved;" if unsaved else ""
        super().__init__(
            f"{server} is not reachable;{lost} reconnecting… (check the network, or ask whoever "
            "runs the server whether it is up)"
        )


class WriteRefused(DatabaseError):
    """The database server refused a change because of who is logged in (SQLSTATE ``42501``,
    insufficient privilege: a table privilege, row-level security or the app's guard trigger).
    Nothing was written; the message is one line and says what to do."""


#: SQLSTATE insufficient_privilege (PostgreSQL manual, Appendix A).
_INSUFFICIENT_PRIVILEGE = "42501"


def refusal_of(exc: BaseException, label: str | None = None) -> WriteRefused | None:
    """:class:`WriteRefused` for a driver error meaning "this login may not do that", else None.

    The message holds the server's first line (``permission denied for table adjudications``,
    ``login alice may change only its own judgments, not those of annotator bob``, …) and the
    remedy.
    """
    if not isinstance(exc, DBAPIError):
        return None
    orig = exc.orig
    if getattr(orig, "sqlstate", None) != _INSUFFICIENT_PRIVILEGE:
        return None
    first = str(orig).strip().splitlines()[0] if str(orig).strip() else "permission denied"
    server = f"the database {label}" if label else "the database"
    return WriteRefused(
        f"{server} refused the change: {first}. Nothing was written; your login may not do "
        "this (grades go under your own annotator name; adjudicating needs a lead login, "
        "imports and schema changes the owner's: see 'ndcg-studio team --help')"
    )


def is_disconnect(exc: BaseException) -> bool:
    """True when ``exc`` means the connection to the database server is gone or cannot be made
    (see the module docstring for the exact rule); False for every other error."""
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if not isinstance(exc, OperationalError):
        return False
    orig = exc.orig
    module = type(orig).__module__
    if not module.startswith("psycopg"):
        return False  # SQLite's OperationalError ("database is locked", ...) is not a disconnect
    sqlstate = getattr(orig, "sqlstate", None)
    if sqlstate is None:
        return True  # raised by libpq itself: could not connect / connection closed
    return bool(sqlstate.startswith("08") or sqlstate in _SHUTDOWN_STATES)


def retrying(
    fn: Callable[[], T],
    *,
    attempts: int = 3,
    delay: float = 0.5,
    label: str | None = None,
    unsaved: str = "your last change",
    on_retry: Callable[[int, BaseException], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run the unit of work ``fn()``; run it again when the database connection was lost.

    Args:
        fn: a complete unit of work (opens, commits or rolls back its own transaction).
        attempts: how many times ``fn`` runs at most (≥ 1).
        delay: seconds to wait before the second attempt; the n-th retry waits ``n × delay``
            (linear back-off: 0.5 s, 1 s, … by default, about 1.5 s in all for 3 attempts).
        label: the database's label for the error message (``Database.label``).
        unsaved: what is lost if all attempts fail, for the message (``"your last grade"``).
        on_retry: called as ``on_retry(attempt, error)`` before each retry (status bar, log).
        sleep: the wait function (tests pass a fake).

    Returns:
        ``fn()``'s result.

    Raises:
        ConnectionLost: every attempt failed with a disconnect (:func:`is_disconnect`); chained
            to the last driver error.
        Exception: any other error of ``fn``, re-raised unchanged on its first occurrence.
        ValueError: ``attempts < 1``.
    """
    if attempts < 1:
        raise ValueError(f"attempts must be >= 1, got {attempts}")
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except Exception as exc:
            if not is_disconnect(exc):
                raise
            if attempt == attempts:
                raise ConnectionLost(label, unsaved) from exc
            if on_retry is not None:
                on_retry(attempt, exc)
            sleep(delay * attempt)
    raise AssertionError("unreachable")  # pragma: no cover


def check_connection(database: Database) -> None:
    """Run ``SELECT 1`` on ``database``: the cheap "are we back?" probe for a reconnect loop.

    Raises:
        ConnectionLost: the server is not reachable.
        sqlalchemy.exc.DBAPIError: any other database error.
    """
    try:
        with database.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        if is_disconnect(exc):
            raise ConnectionLost(database.label, None) from exc
        raise


def is_reachable(database: Database) -> bool:
    """True when ``database`` answers ``SELECT 1`` now (see :func:`check_connection`)."""
    try:
        check_connection(database)
    except ConnectionLost:
        return False
    return True
