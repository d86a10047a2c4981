"""Opening a database: URL resolution, engine set-up, upgrade to the newest schema.

A *database* is any SQLAlchemy URL: an SQLite file for one person (the default, in the user data
directory given by platformdirs) or a PostgreSQL server for a team (``postgresql://…``, driven by
psycopg 3). Opening one always upgrades its schema to the newest Alembic revision; a database
written by a newer version of the app is refused with :class:`DatabaseVersionError`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url

from ndcg_studio._paths import migrations_dir

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.orm import Session, sessionmaker

#: The newest schema revision of this version of the app. Opening a database already at this
#: revision skips Alembic entirely (importing it would dominate every command's start-up,
#: guarded by ``benchmarks/bench_startup.py``);
#: ``tests/storage/test_database.py`` checks that it equals the migrations' head.
SCHEMA_HEAD = "0012"

ENV_VAR = "NDCG_STUDIO_DB"
APP_NAME = "ndcg-studio"
DEFAULT_FILE = "studio.sqlite"
#: PostgreSQL advisory-lock key held while migrating, so that two processes opening the same
#: server at once do not both run the same migration.
_MIGRATION_LOCK_KEY = 4_172_023_001
#: Execution option of an SQLite engine whose bulk imports may write through a rollback journal
#: when theirs is the file's only connection (:func:`ndcg_studio.storage.bulk.sqlite_import.
#: import_settings`): set on the engines of the command line's commands (``command``), not on
#: the desktop app's, whose other connections read while an import runs.
LONE_BULK_JOURNAL = "ndcg_studio_lone_bulk_journal"


class DatabaseError(Exception):
    """A database cannot be opened or used; the message says what to do."""


class DatabaseVersionError(DatabaseError):
    """The database was written by a newer version of NDCG Studio."""


def default_database_path() -> Path:
    """The default SQLite file: ``<user data dir>/ndcg-studio/studio.sqlite``."""
    from platformdirs import user_data_dir  # only when no database is named

    return Path(user_data_dir(APP_NAME, appauthor=False)) / DEFAULT_FILE


def resolve_url(db: str | os.PathLike[str] | None = None) -> URL:
    """Turn ``--db`` (a path or any SQLAlchemy URL), else ``$NDCG_STUDIO_DB``, else the default
    file, into a SQLAlchemy URL.

    ``postgresql://`` and ``postgres://`` URLs use the psycopg 3 driver
    (``postgresql+psycopg://``). A plain path becomes ``sqlite:///<absolute path>``;
    ``:memory:`` a database in memory (``sqlite://``), as SQLite names it.

    Raises:
        DatabaseError: the text is neither a path nor a URL SQLAlchemy understands.
    """
    raw = os.fspath(db) if db is not None else os.environ.get(ENV_VAR) or None
    if raw is None:
        path = default_database_path()
        return URL.create("sqlite", database=str(path))
    if raw == ":memory:":  # SQLite's own name for a database in memory, not a file name
        return URL.create("sqlite")
    if "://" not in raw:
        return URL.create("sqlite", database=str(Path(raw).expanduser().resolve()))
    if raw.startswith("postgres://"):
        raw = "postgresql://" + raw[len("postgres://") :]
    try:
        url = make_url(raw)
    except Exception as exc:  # sqlalchemy.exc.ArgumentError
        raise DatabaseError(f"not a database path or URL: {raw!r} ({exc})") from exc
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    return url


def in_memory(url: URL) -> bool:
    """Whether ``url`` names an SQLite database in memory (no file; with SQLAlchemy's pool, one
    database per thread)."""
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def describe_url(url: URL) -> str:
    """A short, password-free label for the status bar and messages: the URL a person typed,
    without the driver the app adds (``postgresql://``, not ``postgresql+psycopg://``)."""
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # 16 KiB pages for a NEW database (the setting only applies before the first table is
    # written, so existing files keep theirs): imports are faster and scoring no slower than
    # with SQLite's default 4 KiB (benchmarks/bench_end_to_end.py; numbers in its README).
    cursor.execute("PRAGMA page_size=16384")
    cursor.execute("PRAGMA foreign_keys=ON")
    _set_wal(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={_BUSY_SECONDS * 1000}")
    # 64 MiB page cache (default 2 MiB) and in-memory temp tables: bulk imports touch large
    # indexes in random key order.
    cursor.execute("PRAGMA cache_size=-65536")
    cursor.execute("PRAGMA temp_store=MEMORY")
    # Reads through a memory map of up to 256 MiB of the file instead of copying each page into
    # the page cache: a scoring's first scan of the judgments is faster (the score step of
    # benchmarks/bench_end_to_end.py; the number in benchmarks/README.md). (SQLite's
    # caveat: an I/O error while reading a mapped page is a signal, not an error code — the
    # database must be on a local disk, as SQLite requires for WAL anyway.)
    cursor.execute("PRAGMA mmap_size=268435456")
    cursor.close()


#: Seconds a connection waits for the file (SQLite's busy timeout, and for setting WAL).
_BUSY_SECONDS = 10


def _set_wal(cursor: Any) -> None:
    """``PRAGMA journal_mode=WAL``, waiting up to :data:`_BUSY_SECONDS` while the file is
    locked: a command's import writes it through a rollback journal when nothing else has it
    open (``sqlite_import.import_settings``), and SQLite refuses the switch at once, without
    its busy timeout, until that import ends. Meanwhile this connection holds no lock, so it
    cannot hold the import up.

    Raises:
        sqlite3.OperationalError: still locked after the wait ("database is locked"), or
            another failure.
    """
    import sqlite3  # imported already by SQLAlchemy's SQLite dialect; not at start-up

    deadline = time.monotonic() + _BUSY_SECONDS
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _without_memory_map(dbapi_connection: Any, _record: Any) -> None:
    # After _on_sqlite_connect (a lean engine): read through the page cache instead. Pages of
    # a memory map count in the process's RSS (RssFile) as they are touched, up to the whole
    # map, for no measurable gain in the GUI's loads (bench_gui_scale.py).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA mmap_size=0")
    cursor.close()


def _release_page_cache(dbapi_connection: Any, _record: Any) -> None:
    # A lean engine's connection back in the pool frees its page cache (up to 64 MiB each, and
    # the pool keeps several connections): a job has the whole cache while it runs, an idle
    # app does not hold it (bench_gui_scale.py RSS). None: a connection invalidated meanwhile.
    if dbapi_connection is None:
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA shrink_memory")
    cursor.close()


def create_studio_engine(url: URL, *, lean: bool = False, command: bool = False) -> Engine:
    """An engine for ``url`` with our connection settings.

    SQLite: ``PRAGMA foreign_keys=ON``, WAL journal, ``synchronous=NORMAL``, a 10 s busy
    timeout, a 64 MiB page cache and a 256 MiB memory map on every connection, 16 KiB pages for
    a new file; the parent folder is created. ``lean`` (the desktop app, a long-lived process
    whose RSS counts): no memory map, and a connection's page cache is freed when it goes back
    to the pool; ``command`` (a command-line command's): the :data:`LONE_BULK_JOURNAL` option.
    PostgreSQL: ``pool_pre_ping`` so a restarted server is noticed and reconnected to, plus
    :data:`POSTGRES_CONNECT_ARGS` (connect timeout, TCP keepalives, application name) unless the
    URL's query sets them.
    """
    if url.get_backend_name() == "sqlite":
        if not in_memory(url) and url.database:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": _BUSY_SECONDS})
        event.listen(engine, "connect", _on_sqlite_connect)
        if lean:
            event.listen(engine, "connect", _without_memory_map)
            event.listen(engine, "checkin", _release_page_cache)
        if command and not in_memory(url):
            engine.update_execution_options(**{LONE_BULK_JOURNAL: True})
        return engine
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=5,
        max_overflow=5,
        connect_args=_postgres_connect_args(url),
    )


#: libpq connection parameters for team mode (any of them given in the URL's query wins):
#: ``connect_timeout`` so an unreachable server fails in seconds instead of hanging the app (libpq
#: waits forever by default); TCP keepalives so a connection whose server vanished is noticed in
#: about a minute, not after the kernel's two hours; ``application_name`` so the server's admin
#: sees who is connected (``pg_stat_activity``); ``options`` sets the session's ``TimeZone`` to
#: UTC, so timestamps come back (and print) in UTC whatever the server's or database's setting.
POSTGRES_CONNECT_ARGS: dict[str, Any] = {
    "connect_timeout": 10,
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "application_name": APP_NAME,
    "options": "-c TimeZone=UTC",
}


def _postgres_connect_args(url: URL) -> dict[str, Any]:
    return {k: v for k, v in POSTGRES_CONNECT_ARGS.items() if k not in url.query}


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at the shipped migrations (usable from an installed wheel)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest schema revision this version of the app knows (from the migration scripts)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(connection: Connection) -> str | None:
    """The schema revision stored in the database (None for an empty database)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def upgrade_to_head(engine: Engine) -> None:
    """Bring the schema to the newest revision.

    Raises:
        DatabaseVersionError: the database's revision is unknown to this app (a newer app wrote it).
    """
    if _stored_revision(engine) == SCHEMA_HEAD:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK_KEY})
        else:
            # pysqlite's legacy transaction handling opens a transaction only before INSERT/
            # UPDATE/DELETE: a batch migration's CREATE TABLE _alembic_tmp_x would run (and
            # commit) on its own, and a kill before the rename left it behind. An explicit
            # BEGIN makes the whole upgrade, DDL included, one SQLite transaction (SQLAlchemy's
            # "pysqlite serializable isolation / transactional DDL" recipe), so a kill at any
            # moment rolls all of it back.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            _drop_stale_batch_tables(connection)
        revision = current_revision(connection)
        if revision is not None:
            try:
                script.get_revision(revision)
            except Exception:
                raise DatabaseVersionError(
                    f"This database was written by a newer version of NDCG Studio (schema "
                    f"revision {revision!r}; this version knows up to {head_revision()!r}). "
                    "Install the newer version to open it."
                ) from None
        if revision != script.get_current_head():
            command.upgrade(alembic_config(connection), "head")


#: The prefix of the copy Alembic's batch mode builds while it rebuilds an SQLite table.
_BATCH_TMP_PREFIX = "_alembic_tmp_"


def _drop_stale_batch_tables(connection: Connection) -> None:
    """Remove what an interrupted SQLite batch migration of an older version left behind: an
    ``_alembic_tmp_<table>`` copy beside the intact ``<table>`` (that version ran the copy's
    CREATE outside the migration's transaction, so a kill kept it). The migration is then run
    again from the start by the caller.

    Raises:
        DatabaseError: the copy exists but ``<table>`` does not (a state no version of the app
            leaves; the message says how to repair the file by hand).
    """
    rows = connection.exec_driver_sql(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_alembic\\_tmp\\_%' "
        "ESCAPE '\\'"
    ).all()
    for (tmp,) in rows:
        table = str(tmp)[len(_BATCH_TMP_PREFIX) :]
        exists = connection.exec_driver_sql(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).first()
        if exists is None:
            raise DatabaseError(
                f"the database was left half-upgraded: table {table!r} is missing and only its "
                f"copy {tmp!r} exists. Restore the file from a backup, or rename the copy with "
                f'the sqlite3 tool (ALTER TABLE "{tmp}" RENAME TO "{table}") and open it again'
            )
        connection.exec_driver_sql(f'DROP TABLE "{tmp}"')


def _stored_revision(engine: Engine) -> str | None:
    """The revision in ``alembic_version`` without importing Alembic (None if no such table)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


@dataclass
class Database:
    """An open database: the engine and a session factory. One session per user action or job.

    The session factory is built on first use: ``sqlalchemy.orm`` is imported only then, so that
    headless commands working with Core alone (``ndcg-studio score``) do not pay for it.
    """

    url: URL
    engine: Engine

    @cached_property
    def sessions(self) -> sessionmaker[Session]:
        """The session factory (``expire_on_commit=False``), created on first use."""
        from sqlalchemy.orm import sessionmaker

        return sessionmaker(self.engine, expire_on_commit=False)

    @property
    def label(self) -> str:
        return describe_url(self.url)

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session inside one transaction: committed on success, rolled back on any error."""
        with self.sessions.begin() as session:
            yield session

    #: the SQLite file passed ``PRAGMA quick_check`` when opened (see :func:`open_database`)
    checked: bool = False

    def dispose(self) -> None:
        """Close the engine's pooled connections; a checked SQLite file is remembered as sound
        in the state it is left in (:func:`remember_sound`), so that the next open of the
        unchanged file skips the check."""
        self.engine.dispose()
        if self.checked:
            remember_sound(self.url)


def open_database(
    db: str | os.PathLike[str] | URL | None = None,
    *,
    upgrade: bool = True,
    lean: bool = False,
    command: bool = False,
    check: bool = True,
) -> Database:
    """Open (creating if needed) and upgrade the database named by ``db`` (see :func:`resolve_url`).
    ``lean``: SQLite connections for a long-lived process; ``command``: for a command-line
    command (see :func:`create_studio_engine`); ``check``: an SQLite file is first checked
    page by page (``PRAGMA quick_check``, linear in the file's size; skipped for a file unchanged
    since it was last found sound, :func:`remember_sound`) and refused when damaged,
    before anything — the schema upgrade, the first start's annotator row, an import — is
    written into it or read out of it (a damaged index can hide rows from a read without an
    error, so an export would be silently incomplete).

    Raises:
        DatabaseVersionError: written by a newer app version.
        DatabaseError: cannot connect, or the file is damaged (the message names the database
            and the cause; :func:`ndcg_studio.storage.failures.explain` words the damage).
    """
    url = db if isinstance(db, URL) else resolve_url(db)
    try:
        engine = create_studio_engine(url, lean=lean, command=command)
    except Exception as exc:
        raise DatabaseError(f"cannot open the database {describe_url(url)}: {exc}") from exc
    checked = False
    try:
        if check:
            checked = _refuse_damaged(engine, url)
        if upgrade:
            upgrade_to_head(engine)
        else:
            with engine.connect():
                pass
    except DatabaseError:
        engine.dispose()
        raise
    except Exception as exc:
        engine.dispose()
        raise DatabaseError(f"cannot open the database {describe_url(url)}: {exc}") from exc
    return Database(url=url, engine=engine, checked=checked)


def _refuse_damaged(engine: Engine, url: URL) -> bool:
    """Raise :class:`DatabaseError` when SQLite's ``PRAGMA quick_check(3)`` finds a problem in
    the file behind ``engine``; True when the file is sound (checked now, or unchanged since it
    was last found sound: :func:`remember_sound`), False for other dialects and in-memory files.
    """
    if engine.dialect.name != "sqlite" or in_memory(url):
        return False
    path = Path(str(url.database))
    stamp = _file_stamp(path)
    if stamp is not None and stamp == _sound_files().get(_key(path)):
        return True
    with engine.connect() as conn:
        problems = [str(r[0]) for r in conn.execute(text("PRAGMA quick_check(3)"))]
    if problems != ["ok"]:
        raise DatabaseError(
            f"database disk image is malformed: PRAGMA quick_check says {problems[0]!r}"
        )
    remember_sound(url)
    return True


# The check reads every page (linear in the file's size: bench_gui_scale's first rows), so a
# file is checked once per change: the files found sound are remembered by device, inode, size,
# modification and status-change times, in the user cache directory. Any write by any program
# (a damaged copy, another tool, a crash's leftover write-ahead log) changes the stamp, and the
# file is checked again; what this cannot see is damage that keeps every one of these.
_SOUND_FILES = "sound-files.json"
_SOUND_FILES_KEPT = 64
_TICK_NS = 20_000_000


def _key(path: Path) -> str:
    return str(path.resolve())


def _file_stamp(path: Path) -> list[int] | None:
    """The stamp of an SQLite file with no pending write-ahead log, else None (check it)."""
    try:
        st = path.stat()
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return None
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _sound_files_path() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False)) / _SOUND_FILES


def _sound_files() -> dict[str, list[int]]:
    import json

    try:
        loaded = json.loads(_sound_files_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def remember_sound(url: URL) -> None:
    """Remember the SQLite file of ``url`` as sound in its current state (nothing for other
    dialects, in-memory databases, or a file with a pending write-ahead log); an unwritable
    cache directory only means the next open checks again."""
    import json
    import tempfile

    if url.get_backend_name() != "sqlite" or in_memory(url):
        return
    path = Path(str(url.database))
    stamp = _file_stamp(path)
    if stamp is None:
        return
    # file times come from a clock that ticks every few milliseconds: a write within the tick of
    # the last one would keep the stamp, so the stamp is taken once that tick is over
    if time.time_ns() - stamp[3] < _TICK_NS:
        time.sleep(_TICK_NS / 1e9)
        if _file_stamp(path) != stamp:
            return
    files = _sound_files()
    files.pop(_key(path), None)
    files[_key(path)] = stamp
    kept = dict(list(files.items())[-_SOUND_FILES_KEPT:])
    target = _sound_files_path()
    temporary: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=target.parent, suffix=".tmp", delete=False, encoding="utf-8"
        ) as out:
            temporary = out.name
            json.dump(kept, out)
        os.replace(temporary, target)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
