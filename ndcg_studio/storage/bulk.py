"""Bulk reads into numpy and bulk writes from columns: the fast paths of import and scoring.

Everything here works on one SQLAlchemy ``Connection`` inside the caller's transaction, on SQLite
and PostgreSQL alike. Statements are SQLAlchemy Core; rows travel through the database driver's
own bulk interfaces (``executemany`` on SQLite, ``COPY`` on PostgreSQL via psycopg) and are read
back with ``numpy.fromiter`` on the driver cursor, so no Python object is built per row beyond the
driver's tuple.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray
from sqlalchemy import (
    Column,
    Connection,
    Executable,
    Integer,
    MetaData,
    String,
    Table,
    literal,
    select,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

_CHUNK = 50_000


def fetch_array(conn: Connection, statement: Executable, dtype: DTypeLike) -> NDArray[Any]:
    """Run ``statement`` and return its rows as a numpy structured array of ``dtype``.

    ``dtype`` is a list of ``(name, type)`` pairs in the order of the selected columns, e.g.
    ``[("query_id", "i8"), ("grade", "f8")]``; NULLs are not allowed in integer columns.
    """
    result = conn.execute(statement)
    try:
        rows: Iterable[Any] = result.cursor  # type: ignore[assignment]
        array: NDArray[Any] = np.fromiter(rows, dtype=np.dtype(dtype))
        return array
    finally:
        result.close()


def bulk_insert(
    conn: Connection, table: Table, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; returns the row count.

    SQLite: the driver's ``executemany`` in chunks of 50,000. PostgreSQL: ``COPY … FROM STDIN``.
    Constraint violations raise ``sqlalchemy.exc.IntegrityError`` on both; the caller's
    transaction then rolls back.
    """
    n = 0
    if conn.dialect.name == "postgresql":
        raw = conn.connection.driver_connection
        assert raw is not None
        cols = ", ".join(f'"{c}"' for c in columns)
        statement = f'COPY "{table.name}" ({cols}) FROM STDIN'
        try:
            with raw.cursor() as cursor, cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)
                    n += 1
        except conn.dialect.loaded_dbapi.IntegrityError as exc:
            raise IntegrityError(statement, None, exc) from exc
        return n
    placeholders = ", ".join("?" for _ in columns)
    cols = ", ".join(f'"{c}"' for c in columns)
    sql = f'INSERT INTO "{table.name}" ({cols}) VALUES ({placeholders})'
    batch: list[Sequence[Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= _CHUNK:
            conn.exec_driver_sql(sql, batch)
            n += len(batch)
            batch = []
    if batch:
        conn.exec_driver_sql(sql, batch)
        n += len(batch)
    return n


def _temp_table(conn: Connection, name: str) -> Table:
    table = Table(
        name,
        MetaData(),
        Column("seq", Integer, primary_key=True, autoincrement=False),
        Column("ext", String, nullable=False),
        prefixes=["TEMPORARY"],
    )
    table.drop(conn, checkfirst=True)
    table.create(conn)
    return table


def map_external_ids(
    conn: Connection,
    table: Table,
    external_ids: Sequence[str],
    *,
    key: str = "external_id",
    create: bool = True,
    defaults: Mapping[str, Any] | None = None,
) -> tuple[NDArray[np.int64], int]:
    """Database ids of ``external_ids`` (which must be unique) in ``table``, in the same order.

    With ``create`` the missing ones are inserted (other columns from ``defaults``), race-safe
    (``ON CONFLICT DO NOTHING``) so two importers on one PostgreSQL server do not collide.
    Returns ``(ids, n_created)``; ``ids`` is int64 of shape ``(len(external_ids),)``, with -1 for
    ids that do not exist when ``create`` is false.
    """
    if not external_ids:
        return np.empty(0, dtype=np.int64), 0
    tmp = _temp_table(conn, f"tmp_ext_{table.name}")
    try:
        _fill_temp(conn, tmp, external_ids)
        target = table.c[key]
        lookup = (
            select(tmp.c.seq, table.c.id)
            .select_from(tmp.join(table, target == tmp.c.ext))
            .order_by(tmp.c.seq)
        )
        found = fetch_array(conn, lookup, [("seq", "i8"), ("id", "i8")])
        n_existing = len(found)
        if create and n_existing < len(external_ids):
            extra = dict(defaults or {})
            names = [key, *extra]
            source = (
                select(tmp.c.ext, *(literal(v) for v in extra.values()))
                .select_from(tmp.outerjoin(table, target == tmp.c.ext))
                .where(table.c.id.is_(None))
                .order_by(tmp.c.ext)  # in index order: faster B-tree inserts
            )
            dialect_insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
            stmt = (
                dialect_insert(table)
                .from_select(names, source)
                .on_conflict_do_nothing(index_elements=[key])
            )
            conn.execute(stmt)
            found = fetch_array(conn, lookup, [("seq", "i8"), ("id", "i8")])
        ids = np.full(len(external_ids), -1, dtype=np.int64)
        ids[found["seq"]] = found["id"]
        return ids, len(found) - n_existing
    finally:
        tmp.drop(conn, checkfirst=True)


def _fill_temp(conn: Connection, tmp: Table, values: Sequence[str]) -> None:
    """``tmp(seq, ext)`` ← ``enumerate(values)``: on SQLite one ``json_each`` statement (the
    driver's per-row binding costs ~1 µs a row), on PostgreSQL ``COPY``."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(
            f'INSERT INTO "{tmp.name}" (seq, ext) SELECT key, value FROM json_each(?)',
            (json.dumps(list(values)),),
        )
    else:
        bulk_insert(conn, tmp, ("seq", "ext"), enumerate(values))


def id_map(conn: Connection, table: Table, key: str = "external_id") -> dict[int, str]:
    """``{id: external id}`` of a small table (queries, runs, annotators)."""
    return {int(i): str(k) for i, k in conn.execute(select(table.c.id, table.c[key]))}


def column_by_id(
    conn: Connection, table: Table, ids: Iterable[int] | NDArray[np.int64], column: str
) -> dict[int, Any]:
    """``{id: value of column}`` for the given database ids (missing ids are absent).

    A few ids are read with ``IN`` lists; many (over 2,000) with one scan of the id range,
    filtered here — a long ``IN`` list costs more to compile and run than the scan.
    """
    wanted = np.unique(np.fromiter((int(i) for i in ids), dtype=np.int64))
    if len(wanted) == 0:
        return {}
    key, value = table.c.id, table.c[column]
    if len(wanted) <= 2_000:
        stmt = select(key, value).where(key.in_(wanted.tolist()))
        return {int(i): v for i, v in conn.execute(stmt)}
    stmt = select(key, value).where(key.between(int(wanted[0]), int(wanted[-1])))
    keep = set(wanted.tolist())
    result = conn.execute(stmt)
    try:
        rows: Iterable[tuple[int, Any]] = result.cursor  # type: ignore[assignment]
        return {i: v for i, v in rows if i in keep}
    finally:
        result.close()
