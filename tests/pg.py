"""A real PostgreSQL server for the team-mode tests, started by the test suite in a temp dir.

Loaded by ``tests/conftest.py`` as a pytest plugin. The session-scoped ``postgres_server`` fixture
runs ``initdb`` into a fresh temp dir and starts the server with ``pg_ctl -w`` on a free loopback
port (127.0.0.1 only, unix socket inside the temp dir, ``fsync``/``synchronous_commit``/
``full_page_writes`` off: a throw-away cluster need not survive a crash). The superuser role is
``studio`` with trust authentication. At the end of the session the server is stopped and the
temp dir removed.

PostgreSQL refuses to run as root; when the tests run as root (CI does), every server command is
run as an unprivileged OS user (``postgres`` if the Debian package created it, else ``nobody``)
through ``runuser`` (or ``su``), and the temp dir is chowned to that user.

The binaries are looked up on ``PATH`` and then under ``/usr/lib/postgresql/<version>/bin`` (the
Debian layout, not on ``PATH``). When they are absent every PostgreSQL-parametrised test is skipped
with a message that says which package to install.

``server.fresh_database()`` yields the URL of a new empty database and drops it afterwards
(``DROP DATABASE … WITH (FORCE)``, so connections a test forgot to close do not block the drop).
Tests that stop or restart a server use ``private_postgres_server`` (one per test module) so
the shared one is never disturbed.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from ndcg_studio.storage.database import Database

SUPERUSER = "studio"
_REQUIRED = ("initdb", "pg_ctl", "postgres")
SKIP_REASON = (
    "PostgreSQL server binaries not found (initdb/pg_ctl); install the Debian package "
    "'postgresql' (apt-get install postgresql) to run the team-mode tests"
)
#: Server settings for a fast, disposable cluster. ``max_connections`` leaves room for the
#: concurrency tests (two processes with a pool each) plus the admin connection.
_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "100",
    "shared_buffers": "32MB",
    "log_min_messages": "warning",
    "log_min_error_statement": "panic",  # the tests provoke errors on purpose; keep the log short
    "log_line_prefix": "'%m [%p] '",
}


def find_bin_dir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` of one installation, or None.

    ``PATH`` first (symlinks resolved, so that ``pg_ctl`` finds its own ``postgres``), then the
    newest ``/usr/lib/postgresql/<version>/bin``.
    """
    candidates: list[Path] = []
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.name.split(".")],
        reverse=True,
    )
    candidates.extend(versions)
    for folder in candidates:
        if all(os.access(folder / name, os.X_OK) for name in _REQUIRED):
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unprivileged_user() -> str:
    """The OS user that runs the server when we are root: ``postgres`` if it exists, else
    ``nobody``."""
    import pwd

    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root and neither a 'postgres' nor a 'nobody' user exists")


def _as_user(user: str, args: Sequence[str]) -> list[str]:
    """``args`` run as ``user`` (we are root): util-linux ``runuser`` (often in /usr/sbin, which
    may be missing from PATH), else ``su -s /bin/sh -c``."""
    runuser = shutil.which("runuser") or next(
        (p for p in ("/usr/sbin/runuser", "/sbin/runuser") if os.access(p, os.X_OK)), None
    )
    if runuser is not None:
        return [runuser, "-u", user, "--", *args]
    return ["su", user, "-s", "/bin/sh", "-c", shlex.join(args)]


def _clean_env() -> dict[str, str]:
    """The environment without PG* variables (a developer's PGHOST/PGPORT must not leak in)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    return env


@dataclass
class PostgresServer:
    """One running PostgreSQL cluster in a temp dir (see the module docstring)."""

    bin_dir: Path
    base: Path
    port: int
    os_user: str | None  # the OS user running the server (None: the current user)
    startup_seconds: float = 0.0
    _created: list[str] = field(default_factory=list)

    # -- paths -------------------------------------------------------------------------------
    @property
    def data_dir(self) -> Path:
        return self.base / "data"

    @property
    def socket_dir(self) -> Path:
        return self.base / "sock"

    @property
    def log_file(self) -> Path:
        return self.base / "server.log"

    # -- running server commands ------------------------------------------------------------
    def _command(self, args: Sequence[str]) -> list[str]:
        if self.os_user is None:
            return list(args)
        return _as_user(self.os_user, args)

    def run(self, *args: str, check: bool = True, timeout: float = 60) -> str:
        """Run a server binary (``args[0]`` is its name) as the server's OS user; its output.

        Raises:
            RuntimeError: non-zero exit (message holds the output and the server log).
        """
        argv = self._command([str(self.bin_dir / args[0]), *args[1:]])
        proc = subprocess.run(
            argv,
            cwd=self.base,
            env=_clean_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if check and proc.returncode != 0:
            raise RuntimeError(
                f"{' '.join(argv)} failed with exit code {proc.returncode}\n"
                f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}\n"
                f"--- server log ---\n{self.server_log()}"
            )
        return proc.stdout + proc.stderr

    def server_log(self) -> str:
        try:
            return self.log_file.read_text(errors="replace")[-20_000:]
        except OSError:
            return "(no server log)"

    # -- life cycle --------------------------------------------------------------------------
    @classmethod
    def start(cls, bin_dir: Path, *, attempts: int = 3) -> PostgresServer:
        """initdb + start a new cluster on a free port (retried if another process takes the
        port between choosing and binding it).

        Raises:
            RuntimeError: initdb or pg_ctl failed (the message carries the server log).
        """
        t0 = time.perf_counter()
        os_user = _unprivileged_user() if os.geteuid() == 0 else None
        # /tmp, not pytest's tmp_path: its parents are mode 0700 and owned by root, so the
        # unprivileged server user could not reach the data dir under them.
        base = Path(tempfile.mkdtemp(prefix="ndcg-pg-", dir="/tmp"))
        server = cls(bin_dir=bin_dir, base=base, port=0, os_user=os_user)
        try:
            server.socket_dir.mkdir()
            if os_user is not None:
                shutil.chown(base, os_user)
                shutil.chown(server.socket_dir, os_user)
            server.run(
                "initdb",
                "-D",
                str(server.data_dir),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            )
            conf_base = (server.data_dir / "postgresql.conf").read_text()
            for attempt in range(attempts):
                server.port = _free_port()
                settings = {
                    **_SETTINGS,
                    "listen_addresses": "'127.0.0.1'",
                    "port": str(server.port),
                    "unix_socket_directories": f"'{server.socket_dir}'",
                }
                extra = "\n".join(f"{k} = {v}" for k, v in settings.items())
                (server.data_dir / "postgresql.conf").write_text(
                    conf_base + "\n# ndcg-studio test server\n" + extra + "\n"
                )
                try:
                    server.pg_ctl("start")
                    break
                except RuntimeError:
                    if attempt == attempts - 1:
                        raise
        except BaseException:
            server.remove()
            raise
        server.startup_seconds = time.perf_counter() - t0
        return server

    def pg_ctl(self, action: str, *options: str, check: bool = True) -> str:
        """``pg_ctl <action>`` on this cluster, waiting (``-w``, 30 s) for it to complete."""
        return self.run(
            "pg_ctl", action, "-D", str(self.data_dir), "-l", str(self.log_file), "-w", "-t", "30",
            *options, check=check,
        )  # fmt: skip

    def is_running(self) -> bool:
        return "server is running" in self.pg_ctl("status", check=False)

    def stop_server(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m mode`` (waits until the server is down)."""
        self.pg_ctl("stop", "-m", mode)

    def start_server(self) -> None:
        """Start the (stopped) cluster again on the same port."""
        self.pg_ctl("start")

    def restart_server(self) -> None:
        """``pg_ctl restart -m fast``: every open connection is terminated."""
        self.pg_ctl("restart", "-m", "fast")

    def remove(self) -> None:
        """Stop the server (if running) and delete the temp dir."""
        if (self.data_dir / "postmaster.pid").exists():
            self.pg_ctl("stop", "-m", "immediate", check=False)
        shutil.rmtree(self.base, ignore_errors=True)

    # -- databases -----------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        """SQLAlchemy URL of ``database`` on this server, as the superuser."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def admin_execute(self, sql: str) -> None:
        """Run one statement on the ``postgres`` database in autocommit mode (CREATE/DROP
        DATABASE cannot run inside a transaction)."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)

    def create_database(self) -> str:
        """A new empty database ``test_<uuid>``; its name."""
        name = f"test_{uuid.uuid4().hex}"
        self.admin_execute(f'CREATE DATABASE "{name}"')
        self._created.append(name)
        return name

    def drop_database(self, name: str) -> None:
        self.admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        with contextlib.suppress(ValueError):
            self._created.remove(name)

    def fresh_database(self) -> Iterator[str]:
        """Yield the URL of a new empty database; drop it afterwards (also if the test left
        connections open)."""
        name = self.create_database()
        try:
            yield self.url(name)
        finally:
            self.drop_database(name)


def _start_or_skip() -> PostgresServer:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.skip(SKIP_REASON)
    try:
        return PostgresServer.start(bin_dir)
    except RuntimeError as exc:
        # fail loudly, with the server log, rather than silently skipping team mode
        pytest.fail(f"could not start the PostgreSQL test server:\n{exc}", pytrace=False)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The PostgreSQL server shared by the whole test session (skips if not installed)."""
    server = _start_or_skip()
    print(
        f"\nPostgreSQL test server on 127.0.0.1:{server.port} ({server.bin_dir}) started in "
        f"{server.startup_seconds:.2f} s",
        file=sys.stderr,
    )
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture(scope="module")
def private_postgres_server() -> Iterator[PostgresServer]:
    """A server of the test module's own, for tests that stop or restart it (skips if not
    installed). A test that stops it must start it again (``try/finally``)."""
    server = _start_or_skip()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def server_and_db(
    private_postgres_server: PostgresServer,
) -> Iterator[tuple[PostgresServer, Database]]:
    """A fresh database, opened (migrated), on the module's private server."""
    from ndcg_studio.storage.database import open_database

    server = private_postgres_server
    name = server.create_database()
    database = open_database(server.url(name))
    yield server, database
    database.dispose()
    server.drop_database(name)
