"""The keys of the campaign tables: how their rows meet a ``campaign_items`` row (the join
conditions the queue, :mod:`.queue`, and the reports, :mod:`.reads`, share) and whether a row
with a given key exists, each written once.

A campaign table keyed by (campaign, query, document[, annotator]) — ``campaign_leases``,
``campaign_states`` — is about the item of the ``campaign_items`` row with the same campaign,
query and document; a judgment grades an item whatever the campaign (grades live in
``judgments``, one per annotator and item: see :mod:`ndcg_studio.storage.models`).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import ColumnElement, Table, and_, select
from sqlalchemy.orm import Session

from ndcg_studio.storage import models

__all__ = ["has_row", "judgment_of_item", "same_item"]

_ci, _j = models.campaign_items, models.judgments


def same_item(row: Table) -> ColumnElement[bool]:
    """The row of ``row`` (a table with ``campaign_id``, ``query_id`` and ``document_id``) is
    about the item of the ``campaign_items`` row: same campaign, query and document."""
    return and_(
        row.c.campaign_id == _ci.c.campaign_id,
        row.c.query_id == _ci.c.query_id,
        row.c.document_id == _ci.c.document_id,
    )


def judgment_of_item() -> ColumnElement[bool]:
    """The ``judgments`` row grades the item of the ``campaign_items`` row (any annotator)."""
    return and_(_j.c.query_id == _ci.c.query_id, _j.c.document_id == _ci.c.document_id)


def has_row(session: Session, table: Table, key: Mapping[str, int]) -> bool:
    """Whether ``table`` has a row with these values (``{column name: value}``, e.g. its
    primary key)."""
    stmt = select(table.c[next(iter(key))]).where(*(table.c[k] == v for k, v in key.items()))
    return session.execute(stmt).first() is not None
