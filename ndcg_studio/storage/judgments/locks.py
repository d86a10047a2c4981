"""Locks that serialise the writers of one item (a judgment or an adjudication) or of one
campaign, so that two processes grading the same item never lose an update nor give a campaign
item more than its N grades.

- PostgreSQL: a transaction-scoped advisory lock on the item (``pg_advisory_xact_lock`` of a
  BLAKE2b hash of the item's key) serialises every writer of that item, including a writer that
  finds no row yet (a row lock cannot lock a row that does not exist); the writer then reads with
  ``SELECT … FOR UPDATE`` and inserts with ``ON CONFLICT DO NOTHING`` (see
  :mod:`~ndcg_studio.storage.judgments.items`), which also protect against writers that do not
  take the advisory lock.
- A campaign grade also takes the campaign's lock (:func:`lock_campaign`, which the campaign's
  queue reads take too) and then the lock of the pooled item (:func:`lock_pooled_item`: its
  query and document, whoever grades it in whichever campaign), so the check "fewer than N
  grades" of two campaigns that pool the item exclude each other. Always in this order (item
  of one annotator, campaign, pooled item); the queue takes only campaign locks and a writer
  waits for nothing once it holds the pooled item's, so these locks cannot deadlock.
- SQLite: the transaction starts with a no-op write, which takes the database's write lock
  (waiting up to the busy timeout) before anything is read; a deferred SQLite transaction that
  reads first would fail with ``SQLITE_BUSY`` or read a stale value when another process writes
  in between.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from sqlalchemy import text

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def item_lock_key(kind: str, key: dict[str, int]) -> int:
    """A signed 64-bit advisory-lock key for one item (BLAKE2b-64 of its kind and key)."""
    data = f"ndcg-studio:{kind}:" + ",".join(f"{k}={v}" for k, v in sorted(key.items()))
    digest = hashlib.blake2b(data.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock_item(session: Session, kind: str, table: str, key: dict[str, int]) -> None:
    """Take the lock of one item of ``table`` (``judgments`` or ``adjudications``) for the rest of
    the transaction: PostgreSQL's advisory lock on ``(kind, key)``, SQLite's write lock."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(
            text("SELECT pg_advisory_xact_lock(:key)"), {"key": item_lock_key(kind, key)}
        )
    elif dialect == "sqlite":
        # A no-op write first: takes SQLite's write lock (waiting up to the busy timeout)
        # before we read the old value, so no other process can write in between.
        session.execute(text(f"UPDATE {table} SET grade = grade WHERE 1 = 0"))


def lock_campaign(session: Session, campaign_id: int) -> None:
    """Serialise the queue reads and campaign grades of one campaign (PostgreSQL: a
    transaction-scoped advisory lock; SQLite: the caller holds the database's write lock)."""
    if session.get_bind().dialect.name == "postgresql":
        key = item_lock_key("campaign", {"campaign_id": campaign_id})
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def lock_pooled_item(session: Session, query_id: int, document_id: int) -> None:
    """Serialise the campaign grades of one item across every campaign that pools it: a grade
    counts toward each of them, so their capacity checks must exclude each other (PostgreSQL:
    a transaction-scoped advisory lock on (query, document); SQLite: the caller holds the
    database's write lock)."""
    if session.get_bind().dialect.name == "postgresql":
        key = item_lock_key("pooled", {"query_id": query_id, "document_id": document_id})
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
