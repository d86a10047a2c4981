"""Shared fixtures: databases under tmp_path (SQLite, and PostgreSQL when its binaries exist),
and hypothesis without deadlines."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# No per-example deadline: a property test's first example pays for imports and a new
# database, and a shared 2-core machine stretches any example; speed is the benchmarks' job
# (benchmarks/), never a timed unit test's.
settings.register_profile("ndcg-studio", deadline=None)
settings.load_profile("ndcg-studio")

if not os.environ.get("QT_QPA_PLATFORM"):  # unset or empty: Qt would try a display
    os.environ["QT_QPA_PLATFORM"] = "offscreen"

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO / ".." / "shared" / "data").resolve()

pytest_plugins = ["tests.pg"]


@pytest.fixture(autouse=True)
def _isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Never touch the real user's data, config or database during tests."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.delenv("NDCG_STUDIO_DB", raising=False)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'studio.sqlite'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database URL: an SQLite file under tmp_path, or a new database on the test
    PostgreSQL server (see tests/pg.py)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'studio.sqlite'}"
    else:
        server = request.getfixturevalue("postgres_server")
        yield from server.fresh_database()


@pytest.fixture
def db(db_url: str) -> Iterator[object]:
    """An opened (migrated) :class:`ndcg_studio.storage.database.Database`."""
    from ndcg_studio.storage.database import open_database

    database = open_database(db_url)
    yield database
    database.dispose()
