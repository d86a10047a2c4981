"""Names and texts by database id: runs, annotators, queries and documents.

The small tables (runs, annotators, queries) are read whole; documents, which may number
millions, only for the ids asked for (:func:`ndcg_studio.storage.bulk.columns.column_by_id`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Connection, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import column_by_id, id_map

__all__ = [
    "annotator_names",
    "document_external_ids",
    "document_titles",
    "has_queries",
    "item_text",
    "query_external_ids",
    "query_id",
    "query_names_and_texts",
    "query_texts",
    "query_texts_by_external",
    "run_descriptions",
    "run_names",
    "sorted_run_names",
]


def run_names(conn: Connection) -> dict[int, str]:
    """``{run id: run name}`` of every run."""
    return id_map(conn, models.runs, "name")


def run_descriptions(conn: Connection) -> dict[str, str]:
    """``{run name: description}`` of every run (the description as stored: '' or free text,
    or the JSON object a fetched run records)."""
    runs = models.runs
    rows = conn.execute(select(runs.c.name, runs.c.description))
    return {str(name): str(description or "") for name, description in rows}


def sorted_run_names(conn: Connection) -> list[str]:
    """Every run's name, ascending."""
    runs = models.runs
    return [str(n) for n in conn.execute(select(runs.c.name).order_by(runs.c.name)).scalars()]


def annotator_names(conn: Connection) -> dict[int, str]:
    """``{annotator id: annotator name}`` of every annotator."""
    return id_map(conn, models.annotators, "name")


def query_external_ids(conn: Connection) -> dict[int, str]:
    """``{query id: external id}`` of every query."""
    return id_map(conn, models.queries)


def query_names_and_texts(conn: Connection) -> tuple[dict[int, str], dict[int, str]]:
    """``({query id: external id}, {query id: text})`` of every query, in one scan (a NULL
    text is '')."""
    q = models.queries
    external: dict[int, str] = {}
    texts: dict[int, str] = {}
    for i, e, t in conn.execute(select(q.c.id, q.c.external_id, q.c.text)):
        external[int(i)] = str(e)
        texts[int(i)] = str(t or "")
    return external, texts


def query_id(conn: Connection, external_id: str) -> int | None:
    """The database id of the query ``external_id``, None when there is none."""
    q = models.queries
    found = conn.execute(select(q.c.id).where(q.c.external_id == external_id))
    value = found.scalar_one_or_none()
    return None if value is None else int(value)


def has_queries(conn: Connection) -> bool:
    """True when the database holds at least one query."""
    # the first row, not a count: the question is asked at every open of a default database
    return conn.execute(select(models.queries.c.id).limit(1)).first() is not None


def query_texts(conn: Connection, ids: Iterable[int] | NDArray[np.int64]) -> dict[int, str]:
    """``{query id: text}`` for the given ids (unknown ids absent; a NULL text is '')."""
    return {i: str(t or "") for i, t in column_by_id(conn, models.queries, ids, "text").items()}


def query_texts_by_external(conn: Connection, ids: Iterable[int]) -> dict[str, str]:
    """``{external id: text}`` of the queries with the given database ids."""
    q = models.queries
    stmt = select(q.c.external_id, q.c.text).where(q.c.id.in_([int(i) for i in ids]))
    return {str(e): t for e, t in conn.execute(stmt)}


def document_external_ids(
    conn: Connection, ids: Iterable[int] | NDArray[np.int64] | None = None
) -> dict[int, str]:
    """``{document id: external id}`` for the given ids (every document for None)."""
    if ids is None:
        return id_map(conn, models.documents)
    return {i: str(v) for i, v in column_by_id(conn, models.documents, ids, "external_id").items()}


def document_titles(conn: Connection, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """``{document id: (external id, title)}`` for a few ids (one ``IN`` list)."""
    d = models.documents
    stmt = select(d.c.id, d.c.external_id, d.c.title).where(d.c.id.in_([int(i) for i in ids]))
    return {int(i): (str(e), str(t)) for i, e, t in conn.execute(stmt)}


def item_text(conn: Connection, query: int, document: int) -> tuple[str, str]:
    """(query text, document title) of one item by database ids ('' when unknown)."""
    q, d = models.queries, models.documents
    text = conn.execute(select(q.c.text).where(q.c.id == query)).scalar_one_or_none()
    title = conn.execute(select(d.c.title).where(d.c.id == document)).scalar_one_or_none()
    return str(text or ""), str(title or "")
