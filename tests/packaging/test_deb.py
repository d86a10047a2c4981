"""The .deb (``scripts/build_deb.py``) installed on this machine with apt, as a user gets it.

One sequence, in the order a user lives it: an older-versioned package is installed with
``apt-get install ./ndcg-studio_*.deb`` (no network: its dependencies are README's list, which
.ci/run installs); the menu entry's ``Exec`` line starts it on the real xcb platform (Xvfb,
openbox); the first start asks for a name, ``3`` grades; the database is then put back to an
older schema revision, as an older release would have left it; the newer package is installed
over the older one; its first start finds the remembered name and database, upgrades the
schema (the app's crash-safe upgrade), and ``4`` grades; ``apt-get remove`` leaves no file
under /opt, /usr or /etc that was not there before, and the user's data where they were.

Needs root, dpkg-deb and apt-get (Debian/Ubuntu), and a machine where ndcg-studio is not
installed already; skipped otherwise, unless ``$NDCG_STUDIO_E2E_REQUIRED`` is set (.ci/run,
which runs as root), where that is a failure.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ndcg_studio import __version__
from ndcg_studio.storage.database import SCHEMA_HEAD
from tests.e2e.x11 import App, app_stderr, first_start_then_3, launch, stop
from tests.packaging.conftest import desktop_user, load, requirement
from tests.packaging.test_bundle import grades

pytestmark = pytest.mark.slow

PACKAGE = "ndcg-studio"
DESKTOP = Path("/usr/share/applications/org.ndcgstudio.NDCGStudio.desktop")
METAINFO = Path("/usr/share/metainfo/org.ndcgstudio.NDCGStudio.metainfo.xml")
#: a desktop session's PATH
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
WATCHED = ("/opt", "/usr", "/etc")
#: caches the triggers of other packages (gtk-update-icon-cache, desktop-file-utils) rebuild
#: for every package that installs icons or menu entries: theirs, not the package's
TRIGGER_CACHES = {
    "/usr/share/icons/hicolor/icon-theme.cache",
    "/usr/share/applications/mimeinfo.cache",
}
#: a revision before the newest (0007 added a column on SQLite; 0008, 0009 change PostgreSQL)
OLDER_SCHEMA = "0006"


def apt(*args: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    done = subprocess.run(
        ["apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=300", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def installed_version() -> str | None:
    done = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Status} ${Version}", PACKAGE],
        capture_output=True,
        text=True,
        check=False,
    )
    status, _, version = done.stdout.rpartition(" ")
    return version if done.returncode == 0 and status == "install ok installed" else None


def snapshot() -> set[str]:
    """Every path under :data:`WATCHED`."""
    paths: set[str] = set()
    for top in WATCHED:
        for folder, dirs, files in os.walk(top):
            paths.update(os.path.join(folder, name) for name in (*dirs, *files))
    return paths


def menu_command() -> list[str]:
    """The installed menu entry's ``Exec`` line as a command (field codes dropped)."""
    text = DESKTOP.read_text(encoding="utf-8")
    line = re.search(r"^Exec=(.*)$", text, re.MULTILINE)
    assert line is not None, text
    return [word for word in shlex.split(line.group(1)) if not re.fullmatch(r"%[a-zA-Z]", word)]


def schema_revision(db: Path) -> str:
    with sqlite3.connect(db) as con:
        return str(con.execute("SELECT version_num FROM alembic_version").fetchone()[0])


def downgrade(db: Path, revision: str) -> None:
    """The schema of ``db`` put back to ``revision`` (this checkout's migrations)."""
    from alembic import command
    from sqlalchemy import create_engine

    from ndcg_studio.storage.database import alembic_config

    engine = create_engine(f"sqlite:///{db}")
    try:
        with engine.begin() as connection:
            command.downgrade(alembic_config(connection), revision)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def debs(bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """An older- and a newer-versioned package of the bundle; removed again after the test,
    whatever happened."""
    missing = [tool for tool in ("dpkg-deb", "apt-get") if shutil.which(tool) is None]
    if missing or os.geteuid() != 0:
        requirement(f"the .deb test installs a package: needs root and {missing or 'apt-get'}")
    if installed_version() is not None:
        pytest.skip(f"{PACKAGE} is installed on this machine: the test would replace it")
    build_deb = load("scripts/build_deb.py")
    out = tmp_path_factory.mktemp("debs")
    out.chmod(0o755)  # apt reads local packages as its own user when it can
    older = build_deb.build_deb(bundle, out, f"{__version__}~older", "zstd")
    newer = build_deb.build_deb(bundle, out, __version__, "zstd")
    yield older, newer
    if installed_version() is not None:
        apt("remove", PACKAGE)


def start(env: dict[str, str], db: Path, display: dict[str, str]) -> App:
    """The app started from the menu entry's Exec line: the bundle, not some Python."""
    app = launch(menu_command(), env, display, db)
    assert os.readlink(f"/proc/{app.process.pid}/exe") == f"/opt/{PACKAGE}/{PACKAGE}"
    return app


def test_deb_install_menu_start_upgrade_keeps_data_and_remove_leaves_nothing(
    debs: tuple[Path, Path], display: dict[str, str], tmp_path: Path
) -> None:
    older, newer = debs
    before = snapshot()
    apt("install", "--no-install-recommends", str(older))
    assert installed_version() == f"{__version__}~older"
    assert Path(f"/usr/bin/{PACKAGE}").resolve() == Path(f"/opt/{PACKAGE}/{PACKAGE}")
    for size in ("16x16", "48x48", "256x256", "512x512"):
        assert Path(f"/usr/share/icons/hicolor/{size}/apps/{PACKAGE}.png").is_file()
    assert METAINFO.is_file()
    if shutil.which("appstreamcli"):
        subprocess.run(["appstreamcli", "validate", "--no-net", str(METAINFO)], check=True)

    home = tmp_path / "home"
    env = desktop_user(display, home, SYSTEM_PATH)
    cli = Path(f"/usr/bin/{PACKAGE}")
    db = home / "data" / PACKAGE / "studio.sqlite"  # the default database, a platformdirs place
    settings = home / "config" / PACKAGE / f"{PACKAGE}.conf"
    app = start(env, db, display)  # no --db: the default database, the demo loaded into it
    try:
        first_start_then_3(app)
        assert app.wait_for_judgments(1)
        app.quit()
    finally:
        stop(app.process)
    assert grades(cli, None, env) == [("1", 3)]
    assert settings.is_file()
    downgrade(db, OLDER_SCHEMA)

    apt("install", "--no-install-recommends", str(newer))  # over the older one
    assert installed_version() == __version__
    app = start(env, db, display)
    try:  # the name is remembered: the window, straight away, on the first query
        app.wait_for(lambda line: line.startswith("query "), timeout=30)
        app.wait_active("— NDCG Studio")
        app.key("4")
        assert len(app.wait_for_judgments(2)) == 2
        app.quit()
    finally:
        stop(app.process)
        stderr = app_stderr(home)
        assert "Traceback" not in stderr, stderr
    assert schema_revision(db) == SCHEMA_HEAD
    assert sorted(grade for _query, grade in grades(cli, None, env)) == [3, 4]

    owned = subprocess.run(
        ["dpkg", "-L", PACKAGE], capture_output=True, text=True, check=True
    ).stdout.split()
    apt("remove", PACKAGE)
    assert installed_version() is None
    assert sorted(snapshot() - before - TRIGGER_CACHES) == []
    assert [p for p in owned if Path(p).exists() and not Path(p).is_dir()] == []
    assert db.is_file() and settings.is_file()  # the user's data stay
