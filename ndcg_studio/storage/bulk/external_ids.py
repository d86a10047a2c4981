"""Rows by external id (queries, documents, annotators by their names in the files): their
database ids, creating the missing rows (the id/rowid tricks of the import paths behind one
interface, :func:`map_external_ids`), and :func:`upsert`. SQLite joins a ``json_each`` array
and numbers new rows by rowid arithmetic (checked); PostgreSQL goes through a temporary table
filled by ``COPY``. (An import's documents on SQLite:
:mod:`ndcg_studio.storage.bulk.staged_ids`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    column,
    func,
    literal,
    select,
    true,
)

from ndcg_studio.storage.bulk.columns import (
    bulk_insert,
    driver_cursor,
    fetch_array,
    is_empty,
    json_array,
    largest_id,
    sql_literals,
)
from ndcg_studio.storage.bulk.pg_copy import copy_keyed_texts, copy_rows

if TYPE_CHECKING:
    from sqlalchemy import Connection

__all__ = [
    "create_absent",
    "ids_of_inserted",
    "insert_distinct",
    "map_external_ids",
    "upsert",
]


def _temp_table(conn: Connection, name: str) -> Table:
    """PostgreSQL: an empty temporary table of ``(id, ext)``: each value's position in the
    caller's list and the value, without an index (filled and read whole)."""
    table = Table(
        name,
        MetaData(),
        Column("id", Integer, nullable=False),
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
    """Database ids of ``external_ids`` in ``table``, in the same order.

    ``external_ids`` must be unique with ``create``; for a lookup (``create`` false) they may
    repeat, each occurrence getting the id.

    With ``create`` the missing ones are inserted (other columns from ``defaults``), race-safe
    (``ON CONFLICT DO NOTHING``) so two importers on one PostgreSQL server do not collide.
    Returns ``(ids, n_created)``; ``ids`` is int64 of shape ``(len(external_ids),)``, with -1 for
    ids that do not exist when ``create`` is false.
    """
    if not external_ids:
        return np.empty(0, dtype=np.int64), 0
    target = table.c[key]
    if conn.dialect.name == "sqlite":
        return _map_sqlite(conn, table, target, external_ids, create, defaults)
    tmp = _temp_table(conn, f"tmp_ext_{table.name}")
    try:
        _fill(conn, tmp, external_ids)
        # One probe of the unique index per value, the values sorted first (in the column's
        # collation: the probes then walk the index from one leaf to the next): the cost of
        # the values looked up. A join is planned as a hash of the whole table, once per call,
        # and an import calls once per piece of its file (bench_scale.py --postgres); LIMIT
        # keeps the planner from flattening the subquery back into that join.
        in_order = select(tmp.c.id, tmp.c.ext).order_by(tmp.c.ext).subquery("in_order")
        probe = select(table.c.id).where(target == in_order.c.ext).limit(1).lateral("found")
        lookup = select(in_order.c.id.label("seq"), probe.c.id).select_from(
            in_order.join(probe, true())
        )
        found = fetch_array(conn, lookup, [("seq", "i8"), ("id", "i8")])
        n_existing = len(found)
        ids = np.full(len(external_ids), -1, dtype=np.int64)
        ids[found["seq"]] = found["id"]
        if not create or n_existing == len(external_ids):
            return ids, 0
        extra = dict(defaults or {})
        names = [key, *extra]
        source = select(tmp.c.ext, *(literal(v) for v in extra.values())).order_by(tmp.c.id)
        if n_existing:  # only the missing ones (all are missing on a first import)
            source = (
                select(in_order.c.ext, *(literal(v) for v in extra.values()))
                .select_from(in_order.outerjoin(probe, true()))
                .where(probe.c.id.is_(None))
                .order_by(in_order.c.id)
            )
        stmt = (
            _dialect_insert(conn)(table)
            .from_select(names, source)
            .on_conflict_do_nothing(index_elements=[key])
        )
        conn.execute(stmt)
        found = fetch_array(conn, lookup, [("seq", "i8"), ("id", "i8")])
        ids[found["seq"]] = found["id"]
        return ids, len(found) - n_existing
    finally:
        tmp.drop(conn, checkfirst=True)


def _fill(conn: Connection, tmp: Table, values: Sequence[str]) -> None:
    """PostgreSQL: ``values`` into :func:`_temp_table`'s ``tmp``, each with its position in
    ``values``; by text ``COPY`` made in pieces (:func:`copy_keyed_texts`), else a row at a
    time."""
    positions = np.arange(len(values), dtype=np.int64)
    if copy_keyed_texts(conn, tmp, positions, "ext", values, {}) is None:
        bulk_insert(conn, tmp, ("id", "ext"), enumerate(values))


def create_absent(
    conn: Connection,
    table: Table,
    external_ids: Sequence[str],
    *,
    key: str = "external_id",
    defaults: Mapping[str, str | int] | None = None,
) -> NDArray[np.int64] | None:
    """PostgreSQL, inside an import: create one row per value of ``external_ids`` — distinct
    values that ``table`` was found not to hold since this transaction locked it against other
    writers (``ndcg_lock_for_import()``, migration 0008) — and return their ids, ``(n,)``
    int64 in the order of ``external_ids``. None, with nothing written, when this transaction
    does not hold that lock or the table has no serial ``id`` (the caller then takes
    :func:`map_external_ids`).

    The ids are drawn from the table's sequence (:func:`_draw`, as the column's default would,
    ascending in the order of ``external_ids``: the numbering an ``INSERT … ORDER BY`` gives)
    and the rows are written by one ``COPY`` with them: no temporary table, no ``ON CONFLICT``
    (its speculative insertion per row) and no look-up of the new ids
    (``benchmarks/bench_scale.py --postgres``, numbers in ``benchmarks/README.md``). Under the
    lock no other writer can create one of these values meanwhile; a value already stored is
    refused by the unique index (a wrong caller), never given a second row.

    Raises:
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    sequence = conn.exec_driver_sql(
        "SELECT pg_get_serial_sequence(%(t)s, 'id') "
        "WHERE EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'relation' "
        "AND l.relation = %(t)s::regclass AND l.pid = pg_backend_pid() AND l.granted "
        "AND l.mode IN ('ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'))",
        {"t": table.name},
    ).scalar()
    if sequence is None:
        return None
    ids = _draw(conn, str(sequence), len(external_ids))
    fixed = dict(defaults or {})
    texts = {c: v for c, v in fixed.items() if isinstance(v, str)}
    if (
        len(texts) < len(fixed)
        or copy_keyed_texts(conn, table, ids, key, external_ids, texts) is None
    ):
        rows = zip(ids.tolist(), external_ids, strict=True)
        copy_rows(conn, table, ("id", key), rows, fixed)
    return ids


def _draw(conn: Connection, sequence: str, n: int) -> NDArray[np.int64]:
    """PostgreSQL: ``n`` new values of ``sequence``, ascending, ``(n,)`` int64.

    Where the sequence counts by one and this login may set it: the next value and ``n - 1``
    more taken by one ``setval`` (what ``n`` calls of ``nextval`` give when no one else draws
    meanwhile: :func:`create_absent`'s caller holds the table locked against its writers, whose
    defaults draw from it). Else ``n`` calls of ``nextval`` (``bench_scale.py --postgres``).
    """
    if n == 0:
        return np.empty(0, dtype=np.int64)
    last = conn.exec_driver_sql(
        "SELECT setval(%(s)s, nextval(%(s)s) + %(n)s - 1) FROM pg_sequence q "
        "WHERE q.seqrelid = %(s)s::regclass AND q.seqincrement = 1 "
        "AND has_sequence_privilege(%(s)s, 'UPDATE')",
        {"s": sequence, "n": n},
    ).scalar()
    if last is not None:
        return np.arange(int(last) - n + 1, int(last) + 1, dtype=np.int64)
    drawn = select(func.nextval(sequence)).select_from(func.generate_series(1, n))
    return np.sort(fetch_array(conn, drawn, [("id", "i8")])["id"])


def _map_sqlite(
    conn: Connection,
    table: Table,
    target: Column[Any],
    external_ids: Sequence[str],
    create: bool,
    defaults: Mapping[str, Any] | None,
) -> tuple[NDArray[np.int64], int]:
    """:func:`map_external_ids` on SQLite: the known ids joined straight from one
    ``json_each`` array (:func:`_look_up`; nothing to look up in an empty table), the missing
    ones inserted the same way (:func:`insert_distinct`) and numbered by rowid arithmetic
    (:func:`ids_of_inserted`) — no temporary table."""
    if create and is_empty(conn, table):
        ids = np.full(len(external_ids), -1, dtype=np.int64)
    else:
        ids = _look_up(conn, table, target, external_ids)
    missing = np.flatnonzero(ids < 0)
    if not create or len(missing) == 0:
        return ids, 0
    new = [external_ids[i] for i in missing.tolist()]
    before = largest_id(conn, table) or 0
    created = insert_distinct(conn, table, new, key=target.name, defaults=defaults)
    ids[missing] = ids_of_inserted(conn, table, new, before, created, key=target.name)
    return ids, created


def _look_up(
    conn: Connection, table: Table, target: Column[Any], external_ids: Sequence[str]
) -> NDArray[np.int64]:
    """SQLite: the id of each of ``external_ids`` (-1 where absent), joined straight from one
    ``json_each`` array against ``target``'s unique index — one statement, no temporary table
    to fill first (``benchmarks/bench_end_to_end.py``)."""
    each = func.json_each(json_array(external_ids)).table_valued(column("key", Integer), "value")
    lookup = select(each.c.key, table.c.id).select_from(each.join(table, target == each.c.value))
    found = fetch_array(conn, lookup, [("seq", "i8"), ("id", "i8")])
    ids = np.full(len(external_ids), -1, dtype=np.int64)
    ids[found["seq"]] = found["id"]
    return ids


def insert_distinct(
    conn: Connection,
    table: Table,
    values: Sequence[str],
    *,
    key: str = "external_id",
    defaults: Mapping[str, Any] | None = None,
) -> int:
    """SQLite: insert every distinct value of ``values`` that ``table`` does not hold yet (in
    its unique column ``key``; other columns from ``defaults``), in order of first appearance,
    as one statement over one ``json_each`` array: repeats and known values are skipped by the
    unique index (``ON CONFLICT DO NOTHING``). Returns the number of rows created; pass it to
    :func:`ids_of_inserted` for their ids.

    Made to run in a helper thread beside Python work: the statement goes to the driver
    directly, so the thread needs the GIL only for the JSON text and one call (each extra
    statement would wait for the GIL again, as a ``max(id)`` query through SQLAlchemy does
    beside a busy parsing thread).
    """
    extra = dict(defaults or {})
    cols = ", ".join(f'"{c}"' for c in [key, *extra])
    selected = ", ".join(["value", *sql_literals(conn, extra.values())])
    statement = (
        f'INSERT INTO "{table.name}" ({cols}) SELECT {selected} FROM json_each(?) '
        "WHERE true ON CONFLICT DO NOTHING"  # WHERE: SQLite's parser needs it before ON
    )
    with driver_cursor(conn, statement) as cursor:
        cursor.execute(statement, (json_array(values),))
        return int(cursor.rowcount)


def ids_of_inserted(
    conn: Connection,
    table: Table,
    distinct: Sequence[str],
    before: int,
    created: int,
    *,
    key: str = "external_id",
) -> NDArray[np.int64]:
    """Ids of ``distinct`` — the distinct values, in order of first appearance, of which
    :func:`insert_distinct` has just created ``created`` rows in ``table``, whose largest id
    was ``before`` — as ``(n,)`` int64.

    SQLite gives each new row the largest rowid plus one and ``json_each`` yields the array in
    order, so the ids are ``before + 1 …`` in the order of ``distinct``: used when the counts
    and a sample of 64 rows confirm it (see :func:`_assign_new_rowids`), else looked up.
    """
    ids = np.full(len(distinct), -1, dtype=np.int64)
    target = table.c[key]
    every = np.arange(len(distinct))
    if not _assign_new_rowids(conn, table, target, distinct, ids, every, before, created):
        ids, _ = map_external_ids(conn, table, distinct, key=key, create=False)
    return ids


def _dialect_insert(conn: Connection) -> Any:
    """The dialect's ``insert`` construct (with ``on_conflict_do_nothing``), imported on first
    use: the PostgreSQL dialect package pulls in asyncio, a cost to every SQLite command's
    start-up (``benchmarks/bench_startup.py``)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert


def _assign_new_rowids(
    conn: Connection,
    table: Table,
    target: Column[Any],
    external_ids: Sequence[str],
    ids: NDArray[np.int64],
    missing: NDArray[np.intp],
    before: int,
    created: int,
) -> bool:
    """SQLite: give ``ids[missing]`` the rowids just created, without looking them up.

    SQLite gives a new row the largest rowid plus one, and ``INSERT … SELECT … ORDER BY seq``
    inserts in that order, so when the insert created one row per missing id and the largest id
    grew by exactly that many (no other writer, no reused ids) the new ids are
    ``before + 1 … before + created`` in order of ``missing``. Checked by those two counts and
    by looking up a sample of 64 new rows; False (the caller looks every id up) if any check
    fails. Saves a join over the new rows (``benchmarks/bench_end_to_end.py``).
    """
    if created != len(missing):
        return False
    after = largest_id(conn, table) or 0
    if after != before + created:
        return False
    new_ids = np.arange(before + 1, after + 1, dtype=np.int64)
    sample = np.unique(np.linspace(0, created - 1, num=min(created, 64)).astype(np.intp))
    wanted = {external_ids[int(missing[i])]: int(new_ids[i]) for i in sample}
    stored = dict(conn.execute(select(target, table.c.id).where(target.in_(list(wanted)))).all())
    if stored != wanted:
        return False
    ids[missing] = new_ids
    return True


def upsert(conn: Connection, table: Table, key: str, columns: Mapping[str, Sequence[Any]]) -> int:
    """Insert one row per value of ``columns[key]`` (unique, in ``table``'s unique column
    ``key``), or, where that key exists, set its other columns to the given values; returns how
    many rows were created. All of ``columns`` have one length.

    One ``INSERT … ON CONFLICT (key) DO UPDATE`` for every row: on SQLite straight through the
    driver's ``executemany`` (far faster than creating them empty and then updating each
    through SQLAlchemy; ``benchmarks/bench_end_to_end.py``); on PostgreSQL from a
    temporary table filled by ``COPY``, counting the created rows with ``xmax = 0``.

    Raises:
        ValueError: columns of different lengths, or ``key`` not among them.
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    names = list(columns)
    if key not in names:
        raise ValueError(f"the key column {key!r} is not among the columns")
    n = len(columns[key])
    if any(len(columns[c]) != n for c in names):
        raise ValueError("columns of different lengths")
    if n == 0:
        return 0
    cols = ", ".join(f'"{c}"' for c in names)
    updates = (
        ", ".join(f'"{c}" = excluded."{c}"' for c in names if c != key) or f'"{key}" = "{key}"'
    )
    conflict = f'ON CONFLICT ("{key}") DO UPDATE SET {updates}'
    rows = zip(*(columns[c] for c in names), strict=True)
    if conn.dialect.name == "postgresql":
        stage = Table(
            f"stage_upsert_{table.name}",
            MetaData(),
            *(Column(c, table.c[c].type) for c in names),
            prefixes=["TEMPORARY"],
        )
        stage.drop(conn, checkfirst=True)
        stage.create(conn)
        try:
            bulk_insert(conn, stage, names, rows)
            created = conn.exec_driver_sql(
                f'WITH changed AS (INSERT INTO "{table.name}" ({cols}) '
                f'SELECT {cols} FROM "{stage.name}" {conflict} RETURNING (xmax = 0) AS created) '
                "SELECT count(*) FROM changed WHERE created"
            ).scalar()
        finally:
            stage.drop(conn, checkfirst=True)
        return int(created or 0)
    before = largest_id(conn, table) or 0
    statement = (
        f'INSERT INTO "{table.name}" ({cols}) VALUES ({", ".join("?" for _ in names)}) {conflict}'
    )
    with driver_cursor(conn, statement) as cursor:
        cursor.executemany(statement, rows)
    (id_column,) = table.primary_key.columns
    # new rows, and only they, get rowids above the largest one before (SQLite's rule)
    return int(
        conn.execute(select(func.count()).select_from(table).where(id_column > before)).scalar_one()
    )
