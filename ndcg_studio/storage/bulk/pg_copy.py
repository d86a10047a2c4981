"""PostgreSQL: numpy columns in and out through binary ``COPY``, no Python object per row.

The binary COPY format (PostgreSQL documentation, "COPY", section "Binary Format"): a 19-byte
header (the signature ``PGCOPY\\n\\377\\r\\n\\0``, 32-bit flags, 32-bit header-extension length),
then per row a 16-bit field count and per field a 32-bit length (-1: NULL) followed by the value
in the type's network-order binary form, then the 16-bit trailer -1. When no field is NULL and
every field has a fixed width (integers, ``float8``), every row has the same length, so a whole
COPY stream is one big-endian numpy structured array: :func:`copy_out_array` reads a ``SELECT``
that way (each column cast to ``int8``/``float8`` on the server), :func:`copy_in_columns`
writes integer and float columns that way. ``benchmarks/bench_scale.py --postgres`` measures
both (numbers in ``benchmarks/README.md``).

Both return None where the fast form does not apply (other column types, NULLs, an integer
beyond the column's width), and the caller takes its row-by-row path.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import DTypeLike, NDArray
from sqlalchemy import BigInteger, Boolean, Float, Integer, Select, SmallInteger, cast
from sqlalchemy.exc import IntegrityError

if TYPE_CHECKING:
    from sqlalchemy import Connection, Table

__all__ = [
    "copy_any",
    "copy_columns",
    "copy_in_columns",
    "copy_keyed_texts",
    "copy_out_array",
    "copy_rows",
    "copy_target",
    "rows_in_any_order",
]

_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"
_HEADER = _SIGNATURE + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00"
_TRAILER = b"\xff\xff"


def _row_dtype(fields: list[tuple[str, str]]) -> np.dtype[Any]:
    """The structured dtype of one binary COPY row of non-NULL ``(name, '>i4' …)`` fields."""
    layout: list[tuple[str, str]] = [("_count", ">i2")]
    for i, (name, kind) in enumerate(fields):
        layout += [(f"_len{i}", ">i4"), (name, kind)]
    return np.dtype(layout)


def copy_out_array(
    conn: Connection, statement: Select[Any], dtype: DTypeLike
) -> NDArray[Any] | None:
    """The rows of ``statement`` as a structured array of ``dtype`` (integer and float fields,
    in the order of the selected columns), read by ``COPY (…) TO STDOUT (FORMAT binary)``;
    None when a field is neither integer nor float or a value is NULL (read row by row then).
    Row order is the statement's (``ORDER BY`` kept)."""
    out_dtype = np.dtype(dtype)
    names = list(out_dtype.names or ())
    columns = list(statement.selected_columns)
    if len(columns) != len(names):
        return None
    casts: list[Any] = []
    fields: list[tuple[str, str]] = []
    for name, column in zip(names, columns, strict=True):
        kind = out_dtype[name].kind
        if kind in "iub":
            casts.append(cast(column, BigInteger))
            fields.append((name, ">i8"))
        elif kind == "f":
            casts.append(cast(column, Float(precision=53)))
            fields.append((name, ">f8"))
        else:
            return None
    compiled = statement.with_only_columns(*casts).compile(
        dialect=conn.dialect, compile_kwargs={"render_postcompile": True}
    )
    arrays = None
    if rows_in_any_order(statement):
        arrays = _copy_out_arrays(conn, compiled.string, compiled.params, fields)
    if arrays is None:
        buffer = _copy_out(
            conn, f"COPY ({compiled.string}) TO STDOUT (FORMAT binary)", compiled.params
        )
        arrays = _parse_rows(buffer, fields)
    if arrays is None:
        return None
    out: NDArray[Any] = np.empty(len(arrays[0]), dtype=out_dtype)
    for name, values in zip(names, arrays, strict=True):
        out[name] = values  # from network order, field by field
    return out


def rows_in_any_order(statement: Select[Any]) -> bool:
    """Whether ``statement`` has no ``ORDER BY``, ``LIMIT`` or ``OFFSET``: its rows may then
    come through an aggregate (PostgreSQL's ``array_agg`` here, SQLite's ``group_concat`` in
    :mod:`~ndcg_studio.storage.bulk.columns`), which need not keep an order."""
    return not (
        statement._order_by_clauses  # no public accessor for these three
        or statement._limit_clause is not None
        or statement._offset_clause is not None
    )


def _copy_out(conn: Connection, sql: str, params: Mapping[str, Any] | None) -> bytearray:
    """The whole output of the ``COPY … TO STDOUT`` statement ``sql``."""
    raw = conn.connection.driver_connection
    assert raw is not None
    buffer = bytearray()
    with raw.cursor() as cursor, cursor.copy(sql, params or None) as copy:
        for block in copy:
            buffer += block
    return buffer


#: one-dimensional array, binary form: dimensions, has-NULLs flag, element type, then the
#: dimension's length and lower bound (PostgreSQL's ``array_send``), then each element.
_ARRAY_HEADER = np.dtype(
    [("ndim", ">i4"), ("nulls", ">i4"), ("oid", ">i4"), ("n", ">i4"), ("lb", ">i4")]
)


def _copy_out_arrays(
    conn: Connection, sql: str, params: Mapping[str, Any] | None, fields: list[tuple[str, str]]
) -> list[NDArray[Any]] | None:
    """The rows of the unordered ``SELECT`` ``sql`` (its columns already ``int8``/``float8``)
    as one column array per field, read as one row of ``array_agg`` arrays: COPY sends a
    row per message, and reading a million messages one by one takes longer than the server's
    work (``bench_scale.py --postgres``). The aggregates
    of one row see the rows in the same order, so the columns stay aligned. None when a
    value is NULL or the arrays do not fit in one of the server's values (1 GB): rows then."""
    import psycopg  # only on PostgreSQL, where the dialect has imported it

    aggregates = ", ".join(f"array_agg(c{i})" for i in range(len(fields)))
    aliases = ", ".join(f"c{i}" for i in range(len(fields)))
    outer = f"SELECT {aggregates} FROM ({sql}) AS t ({aliases})"
    savepoint = conn.begin_nested()
    try:
        buffer = _copy_out(conn, f"COPY ({outer}) TO STDOUT (FORMAT binary)", params)
    except (psycopg.errors.ProgramLimitExceeded, psycopg.errors.OutOfMemory):
        savepoint.rollback()
        return None
    savepoint.commit()
    return _parse_arrays(buffer, fields)


def _parse_arrays(buffer: bytearray, fields: list[tuple[str, str]]) -> list[NDArray[Any]] | None:
    """The arrays of :func:`_copy_out_arrays`' one row, in network order (views of
    ``buffer``); None: a NULL element."""
    body = _copy_body(buffer)
    if body is None:
        return None
    at = 2  # the row's field count
    columns: list[NDArray[Any]] = []
    for _, kind in fields:
        length = int.from_bytes(body[at : at + 4], "big", signed=True)
        at += 4
        if length < 0:  # array_agg of no rows: NULL
            columns.append(np.empty(0, dtype=kind))
            continue
        head = np.frombuffer(body, dtype=_ARRAY_HEADER, count=1, offset=at)[0]
        if head["ndim"] != 1 or head["nulls"] != 0:
            return None
        n = int(head["n"])
        element = np.dtype([("len", ">i4"), ("value", kind)])
        values = np.frombuffer(body, dtype=element, count=n, offset=at + _ARRAY_HEADER.itemsize)
        if (values["len"] != 8).any():
            return None
        columns.append(values["value"])
        at += length
    return columns


def _copy_body(buffer: bytearray) -> memoryview | None:
    """The rows of a binary COPY stream: between its header (signature, flags, extension)
    and its trailer; None when it is not one."""
    if not buffer.startswith(_SIGNATURE) or not buffer.endswith(_TRAILER):
        return None
    extension = int.from_bytes(buffer[15:19], "big")
    return memoryview(buffer)[19 + extension : len(buffer) - len(_TRAILER)]


def _parse_rows(buffer: bytearray, fields: list[tuple[str, str]]) -> list[NDArray[Any]] | None:
    """The ``fields`` of binary COPY rows (:func:`_row_dtype`), one array each in network
    order (views of ``buffer``); None: a NULL."""
    row = _row_dtype(fields)
    body = _copy_body(buffer)
    if body is None or len(body) % row.itemsize:
        return None  # a NULL (a field without its bytes)
    rows = np.frombuffer(body, dtype=row)
    names = [name for name, _ in fields]
    width = len(names)
    if len(rows) and (
        (rows["_count"] != width).any() or any((rows[f"_len{i}"] != 8).any() for i in range(width))
    ):
        return None
    return [rows[name] for name in names]


#: (binary form, smallest, largest) of the column types written in binary.
_BINARY_INTEGERS = (
    (SmallInteger, ">i2", -(2**15), 2**15 - 1),
    (BigInteger, ">i8", -(2**63), 2**63 - 1),
    (Integer, ">i4", -(2**31), 2**31 - 1),  # after its subclasses SmallInteger, BigInteger
)


def _binary_kind(table: Table, name: str, values: NDArray[Any]) -> str | None:
    """The binary form of ``values`` for column ``name`` of ``table``; None when the column's
    type has none here or a value does not fit it (the server then refuses it in words)."""
    sql_type = table.c[name].type
    if isinstance(sql_type, Boolean):
        return None
    if isinstance(sql_type, Float):
        return ">f8" if values.dtype.kind in "iuf" else None
    if values.dtype.kind not in "iu":
        return None
    for kind, form, low, high in _BINARY_INTEGERS:
        if isinstance(sql_type, kind):
            fits = len(values) == 0 or (int(values.min()) >= low and int(values.max()) <= high)
            return form if fits else None
    return None


def copy_in_columns(
    conn: Connection,
    table: Table,
    columns: Mapping[str, NDArray[Any]],
    constants: Mapping[str, int | float] | None = None,
    *,
    target: str | None = None,
    order: NDArray[np.integer[Any]] | None = None,
    on_block: Callable[[int], None] | None = None,
) -> int | None:
    """Write rows given as numpy columns of one length (plus ``constants``, one value for every
    row) into ``table`` — or into the table named ``target`` with the same columns — by one
    ``COPY … FROM STDIN (FORMAT binary)``; with ``order`` (indexes into the columns) the rows
    ``order[0]``, ``order[1]`` … in that order. Returns the row count, or None when a column is
    not an integer or float column of ``table`` or a value does not fit its type (nothing
    written).

    The rows are made and sent ``_BINARY_ROWS`` at a time (gathered through ``order`` block by
    block): the memory of a block, not of the whole file, so a whole import goes in one
    statement and the statement triggers of migrations 0004 and 0008 (history, references) run
    once for it — per statement they scan the parent tables whole (``bench_scale.py
    --postgres``). ``on_block`` is called with the number of rows sent after each block (a
    progress report; an exception it raises, such as a cancellation, abandons the COPY and
    propagates: the caller's transaction rolls back).

    Raises:
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    arrays = {name: np.asarray(values) for name, values in columns.items()}
    n = len(next(iter(arrays.values()))) if arrays else 0
    if order is not None:
        n = len(order)
    fixed = {name: np.asarray([value]) for name, value in (constants or {}).items()}
    fields = []
    for name, values in {**arrays, **fixed}.items():
        kind = _binary_kind(table, name, values)
        if kind is None:
            return None
        fields.append((name, kind))
    row = _row_dtype(fields)
    cols = ", ".join(f'"{name}"' for name, _ in fields)
    into = target or f'"{table.name}"'
    statement = f"COPY {into} ({cols}) FROM STDIN (FORMAT binary)"
    raw = conn.connection.driver_connection
    assert raw is not None
    block = np.empty(min(n, _BINARY_ROWS), dtype=row)
    block["_count"] = len(fields)
    for i, (name, kind) in enumerate(fields):
        block[f"_len{i}"] = np.dtype(kind).itemsize
        if name in fixed:
            block[name] = fixed[name][0]
    try:
        with raw.cursor() as cursor, cursor.copy(statement) as copy:
            copy.write(_HEADER)
            for start in range(0, n, _BINARY_ROWS):
                stop = min(n, start + _BINARY_ROWS)
                part = block[: stop - start]
                rows = slice(start, stop) if order is None else order[start:stop]
                for name, values in arrays.items():
                    part[name] = values[rows]
                copy.write(part.tobytes())
                if on_block is not None:
                    on_block(stop)
            copy.write(_TRAILER)
    except conn.dialect.loaded_dbapi.IntegrityError as exc:
        raise IntegrityError(statement, None, exc) from exc
    return n


#: Rows per block of a binary COPY (:func:`copy_in_columns`).
_BINARY_ROWS = 1 << 16


def copy_rows(
    conn: Connection,
    table: Table,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    fixed: Mapping[str, str | int],
) -> int:
    """``rows`` (tuples in the order of ``columns``, then ``fixed``'s values) into ``table``
    by text ``COPY … FROM STDIN``, one Python tuple per row; returns the row count.

    Raises:
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    raw = conn.connection.driver_connection
    assert raw is not None
    cols = ", ".join(f'"{c}"' for c in [*columns, *fixed])
    target = copy_target(conn, table, cols)
    statement = f"COPY {target} ({cols}) FROM STDIN"
    extra = tuple(fixed.values())
    n = 0
    try:
        with raw.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row((*row, *extra))
                n += 1
        _copied(conn, table, target, cols)
    except conn.dialect.loaded_dbapi.IntegrityError as exc:
        raise IntegrityError(statement, None, exc) from exc
    return n


#: Characters the text COPY format escapes (and NUL, which no text value may hold).
_ESCAPED = ("\\", "\t", "\n", "\r", "\x00")
_TEXT_ROWS = 1 << 16  # rows per piece of COPY text (bounded copies of the strings)


def copy_keyed_texts(
    conn: Connection,
    table: Table,
    ids: NDArray[np.int64],
    key: str,
    values: Sequence[str],
    fixed: Mapping[str, str],
) -> int | None:
    """Rows ``(id, value of key, *fixed's values)`` into ``table`` — ``ids`` ``(n,)`` int64 and
    ``values`` of one length — by text ``COPY``, its text made a piece at a time by joins in C
    instead of :func:`copy_rows`' tuple per row (the client's CPU of creating an import's
    documents, ``bench_scale.py --postgres``). Returns the row count; None, with
    nothing written, when a value or a constant holds a character the text format escapes
    (the caller then takes :func:`copy_rows`).

    Raises:
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    if len(ids) != len(values):
        raise ValueError("ids and values of different lengths")
    constants = list(fixed.values())
    if any(c in "".join(constants) for c in _ESCAPED):
        return None
    pieces = []
    for start in range(0, len(values), _TEXT_ROWS):
        part = values[start : start + _TEXT_ROWS]
        if any(c in "".join(part) for c in _ESCAPED):
            return None
        pieces.append(part)
    cols = ", ".join(f'"{c}"' for c in ["id", key, *fixed])
    target = copy_target(conn, table, cols)
    statement = f"COPY {target} ({cols}) FROM STDIN"
    tail = ["\t".join(constants)] if constants else []
    raw = conn.connection.driver_connection
    assert raw is not None
    try:
        with raw.cursor() as cursor, cursor.copy(statement) as copy:
            for i, part in enumerate(pieces):
                start = i * _TEXT_ROWS
                numbers = map(str, ids[start : start + len(part)].tolist())
                fields = zip(numbers, part, *(itertools.repeat(t) for t in tail), strict=False)
                copy.write("\n".join(map("\t".join, fields)) + "\n")
        _copied(conn, table, target, cols)
    except conn.dialect.loaded_dbapi.IntegrityError as exc:
        raise IntegrityError(statement, None, exc) from exc
    return len(values)


def copy_columns(
    conn: Connection,
    table: Table,
    columns: Mapping[str, NDArray[Any]],
    constants: Mapping[str, str | int] | None,
    *,
    order: NDArray[np.integer[Any]] | None = None,
    on_block: Callable[[int], None] | None = None,
) -> int | None:
    """Integer and float columns (numpy, one length) and ``constants`` (one number for every
    row) into ``table`` by binary ``COPY`` (:func:`copy_in_columns`, ``order`` and ``on_block``
    as there; under
    row-level security through :func:`copy_target`). Returns the row count; None, with nothing
    written, when that does not apply (the caller then takes :func:`copy_rows`).

    Raises:
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    fixed: dict[str, int | float] = {}
    for name, value in (constants or {}).items():
        if not isinstance(value, int | float):
            return None
        fixed[name] = value
    cols = ", ".join(f'"{c}"' for c in [*columns, *fixed])
    target = copy_target(conn, table, cols)
    try:
        n = copy_in_columns(
            conn, table, columns, fixed, target=target, order=order, on_block=on_block
        )
        if n is not None:
            _copied(conn, table, target, cols)
    except conn.dialect.loaded_dbapi.IntegrityError as exc:
        raise IntegrityError(f"COPY {target}", None, exc) from exc
    if n is None and target != f'"{table.name}"':
        conn.exec_driver_sql(f"DROP TABLE pg_temp.{target}")
    return n


def copy_target(conn: Connection, table: Table, cols: str) -> str:
    """PostgreSQL: the table a ``COPY`` into ``table`` writes. COPY refuses a table under
    row-level security (team mode: an annotator login importing its own judgments): then a
    temporary copy of the columns ``cols``, which :func:`_copied` moves into ``table`` with
    INSERT … SELECT, which the policies and the guard trigger check row by row."""
    secured = conn.exec_driver_sql(f"SELECT row_security_active('{table.name}')").scalar()
    if not secured:
        return f'"{table.name}"'
    target = f'"stage_{table.name}"'
    conn.exec_driver_sql(f"DROP TABLE IF EXISTS pg_temp.{target}")
    conn.exec_driver_sql(
        f'CREATE TEMP TABLE {target} AS SELECT {cols} FROM "{table.name}" WITH NO DATA'
    )
    return target


def _copied(conn: Connection, table: Table, target: str, cols: str) -> None:
    """After a COPY into :func:`copy_target`'s ``target``: its rows into ``table``."""
    if target != f'"{table.name}"':
        conn.exec_driver_sql(
            f'INSERT INTO "{table.name}" ({cols}) SELECT {cols} FROM pg_temp.{target}'
        )
        conn.exec_driver_sql(f"DROP TABLE pg_temp.{target}")


def copy_any(
    conn: Connection,
    table: Table,
    columns: Mapping[str, NDArray[Any]],
    constants: Mapping[str, str | int] | None = None,
    *,
    order: NDArray[np.integer[Any]] | None = None,
) -> int:
    """:func:`copy_columns`, or where that does not apply :func:`copy_rows` (text ``COPY``,
    the server's refusal in its words); returns the row count. With ``order`` (indexes into
    the columns) the rows ``order[0]``, ``order[1]`` … in that order.

    Raises:
        sqlalchemy.exc.IntegrityError: a constraint violation (the transaction rolls back).
    """
    copied = copy_columns(conn, table, columns, constants, order=order)
    if copied is not None:
        return copied
    picked = (np.asarray(v) if order is None else np.asarray(v)[order] for v in columns.values())
    rows = zip(*(v.tolist() for v in picked), strict=True)
    return copy_rows(conn, table, list(columns), rows, dict(constants or {}))
