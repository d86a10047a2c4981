"""SQLite: the connection settings of a bulk import's transaction
(:func:`ndcg_studio.storage.bulk.columns.bulk_transaction`), and the rollback journal of a command's
import into a file nobody else has open."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from ndcg_studio.storage.database import LONE_BULK_JOURNAL

__all__ = ["IMPORT_SETTINGS", "import_settings"]

#: SQLite settings of a bulk transaction's connection (see :func:`import_settings`).
IMPORT_SETTINGS = {
    "temp_store": 1,  # FILE
    "mmap_size": 0,
    "threads": max(0, min(2, (os.cpu_count() or 1) - 1)),
}


@contextmanager
def import_settings(engine: Engine, conn: Connection) -> Iterator[None]:
    """``conn`` (an SQLite connection of ``engine``, outside a transaction) set up for one bulk
    import's transaction, which the block runs; its settings restored after, or the connection
    discarded if they cannot be.

    Foreign-key enforcement is off (``bulk_transaction`` says why). Temporary tables go to a
    file (``temp_store=FILE``: an import stages and sorts its whole file's document ids there,
    ``StagedIds``) and the memory map is off (its pages count in the process's memory, up to
    256 MiB of a large file) — the peak memory of a 10M-line import
    (``benchmarks/bench_scale.py``). SQLite's sorter may start helper threads for that sort
    (``threads``: up to two, one core left to the importing thread; ``bench_scale.py``).

    On an engine with the :data:`~ndcg_studio.storage.database.LONE_BULK_JOURNAL` option (a
    command's) whose connection is the file's only one, the transaction writes through a
    rollback journal (``journal_mode=DELETE``, ``synchronous=FULL``, which that journal needs
    to survive a power cut), and the file is back in WAL after: SQLite's advice for
    transactions over some dozens of megabytes (https://sqlite.org/wal.html, "WAL does not
    work well for very large transactions"). In WAL every page is written twice (log, then
    checkpoint at the commit), and a page the cache spilled and changed again makes the commit
    re-read the log after it to redo its checksums, a commit growing faster than the file
    (``bench_scale.py``; the finding is in ``benchmarks/README.md``).
    SQLite refuses the switch at once while any other connection, in this process or another,
    has the file open in WAL; the import then runs in WAL. A program opening the file during
    the import waits for it (``database._set_wal``) instead of reading what was there before.
    """
    current = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in IMPORT_SETTINGS}
    settings = {p: int(v) for p, v in current.items() if v is not None}  # none: in memory
    conn.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction: takes effect
    for pragma in settings:
        conn.exec_driver_sql(f"PRAGMA {pragma}={IMPORT_SETTINGS[pragma]}")
    lone = bool(engine.get_execution_options().get(LONE_BULK_JOURNAL))
    lone = lone and _rollback_journal(conn)
    conn.commit()
    try:
        yield
    finally:
        try:
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            for pragma, value in settings.items():
                conn.exec_driver_sql(f"PRAGMA {pragma}={value}")
            conn.commit()
            if lone:
                _back_to_wal(conn)
        except Exception:
            conn.invalidate()  # a new connection starts with foreign_keys=ON
            raise


def _rollback_journal(conn: Connection) -> bool:
    """Switch ``conn``'s file from WAL to a rollback journal with ``synchronous=FULL`` if it is
    the file's only connection; whether it did. SQLite refuses at once ("database is locked",
    no busy wait) while any other connection has the file open in WAL."""
    if conn.exec_driver_sql("PRAGMA journal_mode").scalar() != "wal":
        return False
    try:
        mode = conn.exec_driver_sql("PRAGMA journal_mode=DELETE").scalar()
    except OperationalError:
        return False
    if mode != "delete":
        return False
    conn.exec_driver_sql("PRAGMA synchronous=FULL")
    return True


def _back_to_wal(conn: Connection) -> None:
    """The file back in WAL with ``synchronous=NORMAL`` (every connection's settings,
    ``database._on_sqlite_connect``), after :func:`_rollback_journal`. A program that opened
    the file meanwhile may hold it past the busy timeout: the connection is then discarded
    (the import is committed; the next connection sets WAL as it opens)."""
    try:
        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        conn.exec_driver_sql("PRAGMA synchronous=NORMAL")
    except OperationalError:
        conn.invalidate()
