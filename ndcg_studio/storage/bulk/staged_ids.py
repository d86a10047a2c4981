"""SQLite: the ids of a whole file's lines by external id, staged while the file is read and
created and read back in key order once at the end (:class:`StagedIds`; the per-piece way is
:func:`ndcg_studio.storage.bulk.external_ids.map_external_ids`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Table

from ndcg_studio.progress import Cancelled, OperationCancelled, Progress
from ndcg_studio.storage.bulk.columns import driver_cursor, json_array, sql_literals

if TYPE_CHECKING:
    from sqlalchemy import Connection

__all__ = ["StagedIds", "json_piece"]


#: Staged lines whose ids are read back per statement by :meth:`StagedIds.settle` (bounded
#: memory: two texts of this many integers).
_SETTLE_SLICE = 1_000_000

#: SQLite virtual-machine instructions between two calls of the progress handler while
#: :meth:`StagedIds.settle` runs (a call polls Cancel and reports progress: a few per second).
_POLL_STEPS = 1_000_000

#: :meth:`StagedIds.settle`'s three statements: (share of its progress, 0-100, as their times
#: at 10M lines in ``benchmarks/README.md``; instructions per staged line, counted with SQLite
#: 3.40: the statements run the same instructions for every line, so the count is the
#: progress; a version that runs more stops at the share's end until the statement ends).
_STEPS = {"sort": (0, 62, 15), "insert": (62, 76, 18), "read": (76, 100, 13)}


def json_piece(values: Sequence[str]) -> tuple[str, int, str, str]:
    """The arguments of :meth:`StagedIds.add_json` for a non-empty piece of ``values``: their
    JSON array text, how many, the first and the last.

    Raises:
        ValueError: a value holds a NUL character (see ``json_array``).
    """
    return json_array(values), len(values), values[0], values[-1]


class StagedIds:
    """SQLite: the id in ``table`` (by its unique column ``key``) of every line of a file read
    in pieces, the rows not there yet created (other columns from ``defaults``) — in two steps,
    so that the unique index is walked once in key order instead of once per piece in random
    order.

    :meth:`add` appends a piece's values, one per line, to a temporary table (no index: an
    append); :meth:`settle`, after the last piece, sorts them once (SQLite's external sorter,
    memory bounded by the page cache), inserts the missing ones in key order (``ON CONFLICT DO
    NOTHING`` skips the known ones and the repeats) and reads every line's id back by joining
    the sorted lines to the index, again in key order. Per-piece look-ups and inserts of random
    keys into the growing index touched nearly every page of it per piece, so their cost grew
    with the square of the file (``benchmarks/bench_scale.py``, ``bench_import_phases.py``).

    New rows are therefore numbered in key order (an import's ids were in order of first
    appearance before); nothing reads meaning into the numbering. Runs inside the import's
    transaction (rolled back with it), on the import's connection; :meth:`add` may run in a
    helper thread (it needs the GIL only for the JSON text, as :func:`insert_distinct`).
    """

    def __init__(
        self,
        conn: Connection,
        table: Table,
        *,
        key: str = "external_id",
        defaults: Mapping[str, Any] | None = None,
    ) -> None:
        self._conn = conn
        self._table = table
        self._key = key
        self._defaults = dict(defaults or {})
        self._name = f"staged_ids_{table.name}"
        self.lines = 0  # staged so far; line i (0-based) is the stage's rowid i + 1

    def add(self, values: Sequence[str]) -> None:
        """Stage one piece's values, one per line, in file order.

        Raises:
            ValueError: a value holds a NUL character (see ``json_array``).
            RuntimeError: SQLite did not number the staged lines as expected.
        """
        if values:
            self.add_json(*json_piece(values))

    def add_json(self, text: str, n: int, first_value: str, last_value: str) -> None:
        """:meth:`add` of the JSON array ``text`` of ``n`` values, the first and the last of
        them given for the check (:func:`json_piece` makes the four): the text can be made in
        another thread than the one staging it (``DocumentsMeanwhile.start``).

        Raises:
            RuntimeError: SQLite did not number the staged lines as expected.
        """
        if n == 0:
            return
        statements = [f'INSERT INTO temp."{self._name}" (ext) SELECT value FROM json_each(?)']
        if self.lines == 0:
            statements[:0] = [f'DROP TABLE IF EXISTS temp."{self._name}"']
            statements[1:1] = [f'CREATE TEMP TABLE "{self._name}" (ext TEXT NOT NULL)']
        first, last = self.lines + 1, self.lines + n
        check = f'SELECT rowid, ext FROM temp."{self._name}" WHERE rowid IN (?, ?)'
        with driver_cursor(self._conn, statements[-1]) as cursor:
            for statement in statements[:-1]:
                cursor.execute(statement)
            cursor.execute(statements[-1], (text,))
            # a fresh table numbers the rows it is given 1, 2, ... in order: checked at both
            # ends of the piece (and by the count in settle)
            ends = dict(cursor.execute(check, (first, last)).fetchall())
        if ends != {first: first_value, last: last_value}:
            raise RuntimeError(f"staged lines {first}..{last} are not numbered in order")
        self.lines = last

    def settle(
        self, progress: Progress | None = None, cancelled: Cancelled | None = None
    ) -> tuple[NDArray[np.int64], int]:
        """The id of every staged line's row, ``(lines,)`` int64 in line order, creating the
        missing rows (in key order, once each); and how many were created. The stage is
        dropped.

        ``progress(done, 100)`` is reported and ``cancelled()`` polled every
        ``_POLL_STEPS`` instructions of SQLite's virtual machine, also inside the sort (one
        statement, the settle's longest: ``benchmarks/README.md``): Cancel stops the running
        statement.

        Raises:
            OperationCancelled: ``cancelled()`` returned True (the caller rolls back).
            RuntimeError: a staged value has no row after the insert (cannot happen under the
                import's write lock).
        """
        n, ids = self.lines, np.empty(self.lines, dtype=np.int64)
        if n == 0:
            return ids, 0
        stage, ordered = f'temp."{self._name}"', f'temp."{self._name}_sorted"'
        run = self._conn.exec_driver_sql
        with _polled(self._conn, n, progress, cancelled) as step:
            run(f"DROP TABLE IF EXISTS {ordered}")
            step("sort")
            run(
                f'CREATE TEMP TABLE "{self._name}_sorted" AS '
                f"SELECT ext, rowid AS line FROM {stage} ORDER BY ext"
            )
            run(f"DROP TABLE {stage}")
            counted = run(f"SELECT count(*), max(line) FROM {ordered}").one()
            if tuple(counted) != (n, n):
                raise RuntimeError(f"{n} lines staged, {tuple(counted)} found")
            step("insert")
            created = self._insert_missing(ordered)
            step("read")
            self._read_back(ordered, ids, step)
            run(f"DROP TABLE {ordered}")
        return ids, created

    def _insert_missing(self, ordered: str) -> int:
        """Insert the sorted values that have no row yet, in key order; how many."""
        cols = ", ".join(f'"{c}"' for c in [self._key, *self._defaults])
        selected = ", ".join(["ext", *sql_literals(self._conn, self._defaults.values())])
        statement = (
            f'INSERT INTO "{self._table.name}" ({cols}) SELECT {selected} FROM {ordered} '
            "WHERE true ORDER BY rowid ON CONFLICT DO NOTHING"  # rowid order: key order
        )
        with driver_cursor(self._conn, statement) as cursor:
            cursor.execute(statement)
            return int(cursor.rowcount)

    def _read_back(self, ordered: str, ids: NDArray[np.int64], step: _Step) -> None:
        """Every sorted line's row id into ``ids`` (by line), a slice per statement."""
        n = len(ids)
        join = (
            f"SELECT count(*), group_concat(s.line), group_concat(t.id) FROM {ordered} AS s "
            f'JOIN "{self._table.name}" AS t ON t."{self._key}" = s.ext '
            "WHERE s.rowid BETWEEN ? AND ?"
        )
        for start in range(1, n + 1, _SETTLE_SLICE):
            end = min(n, start + _SETTLE_SLICE - 1)
            step("read", start - 1)
            found, lines, row_ids = self._conn.exec_driver_sql(join, (start, end)).one()
            line = np.fromstring(lines or "", sep=",", dtype=np.int64)
            if found != end - start + 1 or len(line) != found:
                raise RuntimeError(f"staged values {start}..{end}: {found} found")
            ids[line - 1] = np.fromstring(row_ids, sep=",", dtype=np.int64)


class _Step:
    """``step(name, lines_done=0)``: :meth:`StagedIds.settle` begins its statement ``name``
    (of ``_STEPS``) at ``lines_done`` staged lines; SQLite's progress handler then moves the
    progress through that statement's share as its instructions run."""

    def __init__(self, lines: int, progress: Progress | None, cancelled: Cancelled | None):
        self.lines, self.progress, self.cancelled = lines, progress, cancelled
        self.share, self.steps, self.stopped = (0, 0, 15), 0, False
        self.failure: BaseException | None = None

    def __call__(self, name: str, lines_done: int = 0) -> None:
        self.share = _STEPS[name]
        self.steps = lines_done * self.share[2]
        self.poll(count=False)
        if self.stopped:
            raise OperationCancelled("cancelled")

    def poll(self, *, count: bool = True) -> int:
        """The progress handler: non-zero stops the running statement."""
        try:
            if self.cancelled is not None and self.cancelled():
                self.stopped = True
                return 1
            if count:
                self.steps += _POLL_STEPS
            if self.progress is not None:
                first, last, per_line = self.share
                expected = max(1, self.lines * per_line)
                self.progress(first + (last - first) * min(self.steps, expected) // expected, 100)
        except BaseException as exc:  # raised again once SQLite has stopped the statement
            self.failure, self.stopped = exc, True
            return 1
        return 0


@contextmanager
def _polled(
    conn: Connection, lines: int, progress: Progress | None, cancelled: Cancelled | None
) -> Iterator[_Step]:
    """SQLite's progress handler on ``conn`` for the block (removed after): :class:`_Step`.
    A statement it stopped raises ``OperationCancelled`` (or the callback's own error)."""
    step = _Step(lines, progress, cancelled)
    raw = conn.connection.driver_connection
    assert raw is not None
    if progress is not None or cancelled is not None:
        raw.set_progress_handler(step.poll, _POLL_STEPS)
    try:
        yield step
    except Exception as exc:
        if step.failure is not None:
            raise step.failure from None
        if step.stopped:
            raise OperationCancelled("cancelled") from exc
        raise
    finally:
        raw.set_progress_handler(None, 0)
    if progress is not None:
        progress(100, 100)
