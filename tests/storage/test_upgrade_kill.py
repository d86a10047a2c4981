"""Schema upgrades of an SQLite file survive a kill (issue #14.2): the whole upgrade is one SQLite
transaction, and what an older version left behind after a kill (an ``_alembic_tmp_<table>`` copy
beside the intact table) is cleaned up by the next open."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ndcg_studio.storage.database import (
    SCHEMA_HEAD,
    DatabaseError,
    alembic_config,
    create_studio_engine,
    open_database,
)

ROOT = Path(__file__).resolve().parents[2]


def _database_at_0001(path: Path, n_results: int) -> None:
    """An SQLite file at revision 0001 holding ``n_results`` results (one run, 1,000 queries)."""
    from alembic import command

    engine = create_studio_engine(make_url(f"sqlite:///{path}"))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0001")
            conn.execute(text("INSERT INTO runs (id, name, description) VALUES (1, 'r', '')"))
            conn.exec_driver_sql(
                "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s "
                "WHERE i < 1000) INSERT INTO queries (id, external_id, text) "
                "SELECT i, 'q' || i, '' FROM s"
            )
            per_query = n_results // 1000
            conn.exec_driver_sql(
                f"WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s "
                f"WHERE i < {per_query}) INSERT INTO documents (id, external_id, title, text, url) "
                "SELECT i, 'd' || i, '', '', '' FROM s"
            )
            conn.exec_driver_sql(
                "INSERT INTO results (query_id, run_id, document_id, rank, position, score) "
                "SELECT q.id, 1, d.id, d.id, d.id, 1.0 / d.id FROM queries q, documents d"
            )
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        engine.dispose()


def _results_and_revision(path: Path) -> tuple[int, float, str | None]:
    database = open_database(path)
    try:
        with database.engine.connect() as conn:
            count, total = conn.execute(text("SELECT count(*), sum(score) FROM results")).one()
            revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            tmp = conn.execute(
                text("SELECT count(*) FROM sqlite_master WHERE name LIKE '%alembic_tmp%'")
            ).scalar_one()
        assert tmp == 0
    finally:
        database.dispose()
    return int(count), float(total), revision


def test_a_database_left_with_a_stale_batch_copy_opens_and_upgrades(tmp_path: Path) -> None:
    """The reported state: revision 0001, the real ``results`` intact and an empty
    ``_alembic_tmp_results`` (an older version's interrupted 0001 → 0002 rebuild)."""
    path = tmp_path / "stale.sqlite"
    _database_at_0001(path, 3000)
    engine = create_studio_engine(make_url(f"sqlite:///{path}"))
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TABLE _alembic_tmp_results (query_id INTEGER NOT NULL, run_id INTEGER "
            "NOT NULL, document_id INTEGER NOT NULL, rank INTEGER NOT NULL, position INTEGER "
            "NOT NULL, score FLOAT NOT NULL, PRIMARY KEY (query_id, run_id, document_id))"
        )
    engine.dispose()
    count, _, revision = _results_and_revision(path)
    assert (count, revision) == (3000, SCHEMA_HEAD)


def test_a_missing_table_with_only_its_copy_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite"
    _database_at_0001(path, 1000)
    engine = create_studio_engine(make_url(f"sqlite:///{path}"))
    with engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE results RENAME TO _alembic_tmp_results")
    engine.dispose()
    with pytest.raises(DatabaseError, match=r"RENAME TO \"results\"") as info:
        open_database(path)
    assert "\n" not in str(info.value)
    assert "backup" in str(info.value)


_OPEN = (
    "import sys; from ndcg_studio.storage.database import open_database; open_database(sys.argv[1])"
)


def _open_in_subprocess(path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", _OPEN, str(path)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@pytest.mark.slow
def test_kill_at_random_moments_of_an_upgrade_leaves_a_database_that_opens(
    tmp_path: Path,
) -> None:
    """SIGKILL a process upgrading 0001 → head a 300,000-result file at 10 random moments (seeded)
    of its run; every time the next open upgrades it with every result intact. A trial whose
    upgrade finished before the kill (the machine got faster than when the probe ran) is
    checked too, and the next ones aim earlier, until 10 kills have landed."""
    template = tmp_path / "template.sqlite"
    _database_at_0001(template, 300_000)
    with open_database(template, upgrade=False).engine.connect() as conn:
        expected = conn.execute(text("SELECT count(*), sum(score) FROM results")).one()
    # how long an uninterrupted upgrade takes in a subprocess (start-up included)
    probe = tmp_path / "probe.sqlite"
    shutil.copy(template, probe)
    t0 = time.perf_counter()
    proc = _open_in_subprocess(probe)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    duration = time.perf_counter() - t0
    rng = random.Random(14_2)
    killed = 0
    for trial in range(30):
        path = tmp_path / f"trial{trial}.sqlite"
        shutil.copy(template, path)
        proc = _open_in_subprocess(path)
        time.sleep(rng.uniform(0.3, 1.0) * duration)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        if proc.returncode == -signal.SIGKILL:
            killed += 1
        else:
            duration *= 0.8
        count, total, revision = _results_and_revision(path)
        assert (count, revision) == (expected[0], SCHEMA_HEAD), f"trial {trial}"
        assert total == pytest.approx(expected[1])
        path.unlink()
        if killed == 10:
            break
    assert killed == 10  # the kills landed before the upgrade finished
