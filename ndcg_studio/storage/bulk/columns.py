"""Bulk reads into numpy and bulk writes from columns: the fast paths of import and scoring.

Everything here works on one SQLAlchemy ``Connection`` inside the caller's transaction, on SQLite
and PostgreSQL alike. Statements are SQLAlchemy Core; rows travel through the database driver's
own bulk interfaces (``executemany`` on SQLite, ``COPY`` on PostgreSQL via psycopg) and are read
back with ``numpy.fromiter`` on the driver cursor, so no Python object is built per row beyond the
driver's tuple — or, on SQLite, for integer columns, as one ``group_concat`` text per column that
numpy parses in C (no Python object per row at all; ``benchmarks/bench_scoring_arrays.py``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray
from sqlalchemy import (
    Boolean,
    Connection,
    Engine,
    Executable,
    Integer,
    Select,
    Table,
    UniqueConstraint,
    func,
    literal,
    select,
)
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError

from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.storage.bulk.pg_copy import copy_any, copy_out_array, copy_rows, rows_in_any_order
from ndcg_studio.storage.bulk.sqlite_import import import_settings
from ndcg_studio.storage.database import describe_url
from ndcg_studio.storage.resilience import refusal_of

_CHUNK = 50_000
#: From this many rows on, SQLite inserts go through a staging table (see bulk_insert).
_STAGE_FROM = 5_000


@contextmanager
def bulk_transaction(engine: Engine) -> Iterator[Connection]:
    """One write transaction for a bulk import: committed at the end, rolled back on any error.

    SQLite: the write lock is taken at the start (``BEGIN IMMEDIATE``), so no other writer can
    change the rows an import looks up or creates before its own rows reference them, and
    foreign-key enforcement is off for the transaction (``PRAGMA foreign_keys`` cannot change
    inside one). Imports reference only ids they have just read or created under that lock, so
    the checks (three parent lookups per inserted row) could not fail; skipping them halves the
    time of inserting a million judgments or results. Enforcement is switched back on before
    the connection returns to the pool (or the connection is discarded). The connection's other
    settings for the transaction, and the rollback journal of a command's import into a file
    nobody else has open: :func:`~ndcg_studio.storage.bulk.sqlite_import.import_settings`.
    PostgreSQL: an ordinary transaction, constraints checked (the references of judgments,
    results and their history set-wise, once per statement: migration 0008).

    Raises:
        whatever the body raises, after the rollback.
    """
    with engine.connect() as conn:
        if conn.dialect.name != "sqlite":
            try:
                with conn.begin():
                    yield conn
            except DBAPIError as exc:  # team mode: a login writing what it may not
                refusal = refusal_of(exc, describe_url(engine.url))
                if refusal is not None:
                    raise refusal from exc
                raise
            return
        with import_settings(engine, conn), conn.begin():
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn


def json_array(values: Sequence[str]) -> str:
    """``values`` as one JSON array text for ``json_each``.

    Raises:
        ValueError: a value contains a NUL character, which SQLite's JSON functions cut off
            (``json_each('["a\\u0000b"]')`` yields ``'a'``): it would be stored wrong.
    """
    text = json.dumps(values if isinstance(values, list) else list(values))
    if "\\u0000" in text and any("\x00" in v for v in values):  # else a literal backslash-u
        raise ValueError("an id contains a NUL character, which cannot be stored exactly")
    return text


def fetch_array(
    conn: Connection, statement: Executable, dtype: DTypeLike, *, into: DTypeLike | None = None
) -> NDArray[Any]:
    """Run ``statement`` and return its rows as a numpy structured array of ``dtype``.

    ``dtype`` is a list of ``(name, type)`` pairs in the order of the selected columns, e.g.
    ``[("query_id", "i8"), ("grade", "f8")]``; NULLs are not allowed in integer columns.
    ``into``: return an array of this structured dtype instead, holding ``dtype``'s fields
    (by name) and zeros in its others — filled as read where possible, not copied afterwards
    (one array of the rows less at the peak; ``bench_gui_scale.py`` Review).

    On SQLite an unordered ``SELECT`` of integer columns only is read as one ``group_concat``
    text per column (see :func:`_fetch_integer_columns`); anything else (REAL columns, whose
    text form SQLite does not round-trip exactly; ``ORDER BY``, which an aggregate need not
    keep; NULLs; texts beyond SQLite's length limit) row by row with ``numpy.fromiter``.
    """
    if conn.dialect.name == "sqlite" and isinstance(statement, Select):
        columns = _fetch_integer_columns(conn, statement, np.dtype(dtype), into)
        if columns is not None:
            return columns
    array = _fetch_rows(conn, statement, dtype)
    if into is None:
        return array
    out: NDArray[Any] = np.zeros(len(array), dtype=into)  # the fields copied by name, others 0
    for name in array.dtype.names or ():
        out[name] = array[name]
    return out


def fetch_columns(
    conn: Connection, statement: Executable, dtype: DTypeLike
) -> dict[str, NDArray[Any]]:
    """The rows of ``statement`` as ``{name: (n,) contiguous array}`` (``dtype`` and the ways
    of reading as :func:`fetch_array`); on SQLite's integer path each column is parsed straight
    into its own, no structured array of the rows (``bench_gui_scale.py`` Review)."""
    dt = np.dtype(dtype)
    if conn.dialect.name == "sqlite" and isinstance(statement, Select):
        texts = _integer_texts(conn, statement, dt)
        if texts is not None:
            out: dict[str, NDArray[Any]] = {}
            for name, values in _parsed(texts, dt):
                if values is None:  # NULLs: row by row below
                    break
                out[name] = values.astype(dt[name], copy=False)
            else:
                return out
    array = _fetch_rows(conn, statement, dt)
    return {name: np.ascontiguousarray(array[name]) for name in dt.names or ()}


def _fetch_rows(conn: Connection, statement: Executable, dtype: DTypeLike) -> NDArray[Any]:
    """PostgreSQL's binary ``COPY`` where it applies, else a tuple per row via ``fromiter``."""
    if conn.dialect.name == "postgresql" and isinstance(statement, Select):
        copied = copy_out_array(conn, statement, dtype)  # binary COPY, no tuple per row
        if copied is not None:
            return copied
    result = conn.execute(statement)
    try:
        rows: Iterable[Any] = result.cursor  # type: ignore[assignment]
        array: NDArray[Any] = np.fromiter(rows, dtype=np.dtype(dtype))
        return array
    finally:
        result.close()


def _fetch_integer_columns(
    conn: Connection,
    statement: Select[Any],
    dtype: np.dtype[Any],
    into: DTypeLike | None = None,
) -> NDArray[Any] | None:
    """SQLite: the rows of ``statement`` via ``SELECT count(*), group_concat(c1), … FROM
    (statement)``, each text parsed by ``numpy.fromstring`` — None when this does not apply.
    ``into`` as in :func:`fetch_array`.

    Applies when every selected column has an integer SQL type (exact in text form) and the
    statement has no ``ORDER BY``/``LIMIT``. The aggregates of one row are updated together, so
    the columns stay aligned; ``group_concat`` skips NULLs, so a column whose length differs
    from ``count(*)`` means NULLs were present, and the caller reads row by row instead.
    """
    texts = _integer_texts(conn, statement, dtype)
    if texts is None:
        return None
    array: NDArray[Any] = np.zeros(int(texts[0]), dtype=dtype if into is None else np.dtype(into))
    for name, values in _parsed(texts, dtype):
        if values is None:
            return None
        array[name] = values
    return array


def _integer_texts(
    conn: Connection, statement: Select[Any], dtype: np.dtype[Any]
) -> list[Any] | None:
    """``[row count, text of column 1, …]`` of :func:`_fetch_integer_columns`' statement
    (None when it does not apply)."""
    columns = list(statement.selected_columns)
    if (
        len(columns) != len(dtype.names or ())
        or not rows_in_any_order(statement)
        or not all(isinstance(c.type, Integer | Boolean) for c in columns)
    ):
        return None
    sub = statement.subquery()
    query = select(func.count(), *(func.group_concat(c) for c in sub.c))
    try:
        return list(conn.execute(query).one())
    except DataError:  # a text longer than SQLITE_MAX_LENGTH (hundreds of millions of rows)
        return None


def _parsed(
    texts: list[Any], dtype: np.dtype[Any]
) -> Iterator[tuple[str, NDArray[np.int64] | None]]:
    """(name, int64 values) of each column of ``texts`` (:func:`_integer_texts`), None for a
    column with NULLs (fewer values than rows). Each text is let go once parsed: the texts of
    all the columns together are as large as the values."""
    n = int(texts[0])
    for i, name in enumerate(dtype.names or (), start=1):
        values = np.fromstring(texts[i] or "", sep=",", dtype=np.int64)
        texts[i] = None
        yield name, values if len(values) == n else None


def bulk_insert(
    conn: Connection,
    table: Table,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    constants: Mapping[str, str | int] | None = None,
) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; returns the row count.

    ``constants`` gives columns one value for every row (e.g. an import's timestamp). On SQLite
    they are written into the statement as literals instead of being bound for each row: the
    driver's per-row binding and SQLite's per-row evaluation of a ``CURRENT_TIMESTAMP`` default
    show in ``benchmarks/bench_end_to_end.py`` (numbers in ``benchmarks/README.md``).

    SQLite: a table with no index besides its primary key (results) gets the driver's
    ``executemany`` straight from ``rows``; others, from 5,000 rows on, go through a staging
    table. PostgreSQL: ``COPY … FROM STDIN``. Constraint violations raise
    ``sqlalchemy.exc.IntegrityError`` on both; the caller's transaction then rolls back.
    """
    fixed = dict(constants or {})
    if conn.dialect.name == "postgresql":
        return copy_rows(conn, table, columns, rows, fixed)
    literals = sql_literals(conn, fixed.values())
    cols = ", ".join(f'"{c}"' for c in [*columns, *fixed])
    values = ", ".join(["?" for _ in columns] + literals)
    if not _has_secondary_index(table):
        # Straight into the table: the driver's executemany consumes the iterator itself (no
        # list per chunk); faster than a staging table for the results' clustered key alone.
        statement = f'INSERT INTO "{table.name}" ({cols}) VALUES ({values})'
        with driver_cursor(conn, statement) as cursor:
            cursor.executemany(statement, rows)
            return int(cursor.rowcount)  # the rows inserted, summed over the executions
    iterator = iter(rows)
    first = list(itertools.islice(iterator, _CHUNK))
    if not first:
        return 0
    if len(first) < _STAGE_FROM:
        conn.exec_driver_sql(f'INSERT INTO "{table.name}" ({cols}) VALUES ({values})', first)
        return len(first)
    return _staged_insert(conn, table, len(columns), cols, literals, first, iterator)


def _staged_insert(
    conn: Connection,
    table: Table,
    width: int,
    cols: str,
    literals: list[str],
    first: list[Sequence[Any]],
    iterator: Iterator[Sequence[Any]],
) -> int:
    """SQLite: rows (``first``, then the rest of ``iterator``) into a temporary table without
    constraints, then into ``table`` with one INSERT … SELECT, which maintains the table's
    indexes in one pass (faster than executemany into a table with several B-trees,
    ``benchmarks/bench_end_to_end.py``). Returns the row count."""
    stage = f"stage_{table.name}"
    staged = [f"c{i}" for i in range(width)]
    conn.exec_driver_sql(f'DROP TABLE IF EXISTS temp."{stage}"')
    conn.exec_driver_sql(f'CREATE TEMP TABLE "{stage}" ({", ".join(staged)})')
    n = 0
    try:
        fill = f'INSERT INTO temp."{stage}" VALUES ({", ".join("?" for _ in range(width))})'
        batch = first
        while batch:
            conn.exec_driver_sql(fill, batch)
            n += len(batch)
            batch = list(itertools.islice(iterator, _CHUNK))
        conn.exec_driver_sql(
            f'INSERT INTO "{table.name}" ({cols}) '
            f'SELECT {", ".join(staged + literals)} FROM temp."{stage}" ORDER BY rowid'
        )
    finally:
        conn.exec_driver_sql(f'DROP TABLE IF EXISTS temp."{stage}"')
    return n


@contextmanager
def driver_cursor(conn: Connection, statement: str) -> Iterator[Any]:
    """A cursor of the database driver itself on ``conn`` (inside its transaction), closed
    after the block; the driver's IntegrityError becomes SQLAlchemy's, naming ``statement``.
    For the few bulk statements where SQLAlchemy's per-statement work shows (see callers)."""
    raw = conn.connection.driver_connection
    assert raw is not None
    cursor = raw.cursor()
    try:
        yield cursor
    except conn.dialect.loaded_dbapi.IntegrityError as exc:
        raise IntegrityError(statement, None, exc) from exc
    finally:
        cursor.close()


def _has_secondary_index(table: Table) -> bool:
    """Whether ``table`` has an index or unique constraint besides its primary key."""
    return (
        bool(table.indexes)
        or any(isinstance(c, UniqueConstraint) for c in table.constraints)
        or any(c.unique for c in table.columns)
    )


def sql_literals(conn: Connection, values: Iterable[str | int]) -> list[str]:
    """Each value as an SQL literal of the connection's dialect (quotes escaped)."""
    return [str(literal(v).compile(conn, compile_kwargs={"literal_binds": True})) for v in values]


def bulk_insert_columns(
    conn: Connection,
    table: Table,
    columns: Mapping[str, NDArray[np.integer[Any]]],
    *,
    constants: Mapping[str, str | int] | None = None,
) -> int:
    """Insert rows given column by column as integer arrays of one length.

    SQLite, when the columns' ranges (max - min of each) fit together in 63 bits (judgments:
    ids of up to 16 million queries, 67 million documents and 1,000 annotators, a grade from
    -1): each row packed into one integer (less its column's minimum), sent as one JSON array
    through ``json_each``, unpacked by SQL (``bench_end_to_end.py``); new integer ids follow
    the rows' order. PostgreSQL: binary ``COPY`` (``pg_copy``). Else :func:`bulk_insert`.

    Raises:
        ValueError: columns of different lengths.
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    names = list(columns)
    arrays = [np.asarray(columns[c], dtype=np.int64) for c in names]
    n = len(arrays[0]) if arrays else 0
    if any(len(a) != n for a in arrays):
        raise ValueError("columns of different lengths")
    lows = [int(a.min()) if n else 0 for a in arrays]
    widths = [
        max((int(a.max()) - low).bit_length(), 1) if n else 1
        for a, low in zip(arrays, lows, strict=True)
    ]
    if conn.dialect.name == "postgresql":
        return copy_any(conn, table, dict(zip(names, arrays, strict=True)), constants)
    if conn.dialect.name != "sqlite" or sum(widths) > 63 or n < _STAGE_FROM:
        rows = zip(*(a.tolist() for a in arrays), strict=True)
        return bulk_insert(conn, table, names, rows, constants=constants)
    packed = np.zeros(n, dtype=np.int64)
    shifts = []
    shift = 0
    for a, width, low in zip(reversed(arrays), reversed(widths), reversed(lows), strict=True):
        packed |= (a - low if low else a) << shift
        shifts.append((shift, (1 << width) - 1, low))
        shift += width
    shifts.reverse()
    fixed = dict(constants or {})
    unpack = [
        f"((value >> {s}) & {mask})" + (f" + ({low})" if low else "") for s, mask, low in shifts
    ]
    # Ids in array order, written out (``key`` is the array index) rather than left to the
    # order rows arrive in: an ``ORDER BY key`` to guarantee that order would sort the rows
    # again.
    (key,) = table.primary_key.columns
    if key.name not in names and isinstance(key.type, Integer):
        names.append(key.name)
        unpack.append(f"key + {(largest_id(conn, table) or 0) + 1}")
    unpack += sql_literals(conn, fixed.values())
    cols = ", ".join(f'"{c}"' for c in [*names, *fixed])
    conn.exec_driver_sql(
        f'INSERT INTO "{table.name}" ({cols}) SELECT {", ".join(unpack)} FROM json_each(?)',
        (json.dumps(packed.tolist()),),
    )
    return n


def largest_id(conn: Connection, table: Table) -> int | None:
    """The largest value of ``table``'s one-column integer primary key (an index lookup);
    None when the table is empty."""
    (key,) = table.primary_key.columns
    largest = conn.execute(select(func.max(key))).scalar()
    return None if largest is None else int(largest)


def is_empty(conn: Connection, table: Table) -> bool:
    """Whether ``table`` has no rows (reads at most one)."""
    return conn.execute(select(literal(1)).select_from(table).limit(1)).first() is None


def id_map(conn: Connection, table: Table, key: str = "external_id") -> dict[int, str]:
    """``{id: external id}`` of a small table (queries, runs, annotators)."""
    # the driver's cursor, not SQLAlchemy's rows: 100,000 queries (bench_gui_scale.py Agreement)
    result = conn.execute(select(table.c.id, table.c[key]))
    try:
        rows: Iterable[tuple[Any, Any]] = result.cursor  # type: ignore[assignment]
        return {int(i): str(k) for i, k in rows}
    finally:
        result.close()


def column_by_id(
    conn: Connection, table: Table, ids: Iterable[int] | NDArray[np.int64], column: str
) -> dict[int, Any]:
    """``{id: value of column}`` for the given database ids (missing ids are absent).

    A few ids are read with ``IN`` lists; many (over 2,000) on SQLite as one JSON array joined
    to the table by ``json_each`` (one primary-key look-up per id, only the wanted rows reach
    Python; ``bench_gui_scale.py`` Agreement), elsewhere with one scan of the id range,
    filtered here — a long ``IN`` list costs more to compile and run than either.
    """
    given = (
        ids.astype(np.int64, copy=False)
        if isinstance(ids, np.ndarray)
        else np.fromiter((int(i) for i in ids), dtype=np.int64)
    )
    wanted = distinct(given)
    if len(wanted) == 0:
        return {}
    key, value = table.c.id, table.c[column]
    if len(wanted) <= 2_000:
        stmt = select(key, value).where(key.in_(wanted.tolist()))
        return {int(i): v for i, v in conn.execute(stmt)}
    if conn.dialect.name == "sqlite":
        listed = func.json_each(json.dumps(wanted.tolist())).table_valued("value")
        stmt = select(key, value).join_from(listed, table, key == listed.c.value)
        result = conn.execute(stmt)
        try:
            found: Iterable[tuple[int, Any]] = result.cursor  # type: ignore[assignment]
            return dict(found)
        finally:
            result.close()
    stmt = select(key, value).where(key.between(int(wanted[0]), int(wanted[-1])))
    keep = set(wanted.tolist())
    result = conn.execute(stmt)
    try:
        rows: Iterable[tuple[int, Any]] = result.cursor  # type: ignore[assignment]
        return {i: v for i, v in rows if i in keep}
    finally:
        result.close()
