"""SQLite: a command-line command's bulk import writes through a rollback journal when its
connection is the file's only one, and the file is back in WAL after
(``sqlite_import.import_settings``): committed, rolled back, killed — and never while another
connection has the file open, nor in the desktop app or a library's engine."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import bulk_transaction
from ndcg_studio.storage.bulk.external_ids import map_external_ids
from ndcg_studio.storage.database import Database, open_database


def _modes(conn: object) -> tuple[str, int]:
    run = conn.exec_driver_sql  # type: ignore[attr-defined]
    return run("PRAGMA journal_mode").scalar(), int(run("PRAGMA synchronous").scalar())


def _queries(database: Database) -> list[str]:
    with database.engine.connect() as conn:
        return sorted(conn.execute(select(models.queries.c.external_id)).scalars())


def test_alone_a_command_imports_through_a_rollback_journal(tmp_path: Path) -> None:
    path = tmp_path / "alone.sqlite"
    database = open_database(path, command=True)
    try:
        with bulk_transaction(database.engine) as conn:
            assert _modes(conn) == ("delete", 2)  # synchronous=FULL
            map_external_ids(conn, models.queries, ["kept"], defaults={"text": ""})
            # the price, stated in bulk_transaction: a program opening the file meanwhile
            # cannot set WAL (nor, once pages are written, read) until the import ends
            newcomer = sqlite3.connect(path, timeout=0.05)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                newcomer.execute("PRAGMA journal_mode=WAL")
            newcomer.close()
        with database.engine.connect() as conn:
            assert _modes(conn) == ("wal", 1)  # synchronous=NORMAL, as every connection's
        assert _queries(database) == ["kept"]
        assert not (tmp_path / "alone.sqlite-journal").exists()

        with pytest.raises(RuntimeError, match="boom"), bulk_transaction(database.engine) as conn:
            assert _modes(conn) == ("delete", 2)
            map_external_ids(conn, models.queries, ["dropped"], defaults={"text": ""})
            raise RuntimeError("boom")
        with database.engine.connect() as conn:
            assert _modes(conn) == ("wal", 1)
        assert _queries(database) == ["kept"]
    finally:
        database.dispose()
    reader = sqlite3.connect(path)
    assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # the file's own mode
    reader.close()


def test_a_program_opening_the_file_meanwhile_waits_for_the_import(tmp_path: Path) -> None:
    """It cannot set WAL while the import holds the file; it waits (holding no lock, so the
    import goes on) and opens the file as the import left it."""
    path = tmp_path / "waited.sqlite"
    database = open_database(path, command=True)
    opened: dict[str, object] = {}

    def newcomer() -> None:
        started = time.perf_counter()
        other = open_database(path, command=True)
        opened["seconds"] = time.perf_counter() - started
        opened["queries"] = _queries(other)
        other.dispose()

    thread = threading.Thread(target=newcomer)
    try:
        with bulk_transaction(database.engine) as conn:
            assert _modes(conn) == ("delete", 2)
            map_external_ids(conn, models.queries, ["during"], defaults={"text": ""})
            thread.start()
            time.sleep(1.0)
            assert thread.is_alive() and not opened  # still waiting
            map_external_ids(conn, models.queries, ["later"], defaults={"text": ""})
        thread.join(timeout=15)
        assert opened["queries"] == ["during", "later"]
        assert 0.9 < float(opened["seconds"]) < 10  # type: ignore[arg-type]
        with database.engine.connect() as conn:
            assert _modes(conn) == ("wal", 1)
    finally:
        thread.join(timeout=15)
        database.dispose()


def test_not_while_another_connection_has_the_file_open(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    database = open_database(path, command=True)
    other = sqlite3.connect(path)
    try:
        assert other.execute("SELECT count(*) FROM queries").fetchone() == (0,)  # open in WAL
        started = time.perf_counter()
        with bulk_transaction(database.engine) as conn:
            assert _modes(conn) == ("wal", 1)
            map_external_ids(conn, models.queries, ["q"], defaults={"text": ""})
            # WAL: the other connection still reads what was there before the import
            assert other.execute("SELECT count(*) FROM queries").fetchone() == (0,)
        assert time.perf_counter() - started < 5  # refused at once, not after the busy timeout
        assert other.execute("SELECT count(*) FROM queries").fetchone() == (1,)
    finally:
        other.close()
        database.dispose()


@pytest.mark.parametrize("lean", [True, False])
def test_not_in_the_desktop_app_nor_outside_a_command(tmp_path: Path, lean: bool) -> None:
    database = open_database(tmp_path / "app.sqlite", lean=lean)
    try:
        with bulk_transaction(database.engine) as conn:
            assert _modes(conn) == ("wal", 1)
    finally:
        database.dispose()


def test_an_import_killed_midway_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """``kill -9`` while the import has written pages into the file itself: the next open
    rolls them back from the journal, and the file is in WAL again."""
    path = tmp_path / "killed.sqlite"
    database = open_database(path, command=True)
    with database.engine.begin() as conn:
        map_external_ids(conn, models.queries, ["before"], defaults={"text": ""})
    database.dispose()
    qrels = tmp_path / "big.qrels"
    with qrels.open("w") as out:
        for q in range(4_000):
            out.writelines(f"q{q} 0 doc-{q}-{d}-{'x' * 40} {d % 5}\n" for d in range(100))
    size_before = path.stat().st_size
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ndcg_studio", "--db", str(path), "import", "qrels", str(qrels)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    journal = tmp_path / "killed.sqlite-journal"
    deadline = time.monotonic() + 120
    try:
        # pages of the import in the file itself, the journal beside it: mid-transaction
        while not (journal.exists() and path.stat().st_size > size_before + (1 << 20)):
            assert proc.poll() is None, f"the import ended before the kill: {proc.stderr}"
            assert time.monotonic() < deadline, "the import wrote nothing into the file"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    database = open_database(path, command=True)
    try:
        assert _queries(database) == ["before"]
        with database.engine.connect() as conn:
            assert _modes(conn) == ("wal", 1)
            assert conn.execute(select(func.count()).select_from(models.judgments)).scalar() == 0
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    finally:
        database.dispose()
