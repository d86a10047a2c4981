"""Opening databases: URL resolution, pragmas, migrations equal to the models, version guard."""

from __future__ import annotations

import importlib.util
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, event, func, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError

from ndcg_studio.storage import models
from ndcg_studio.storage.database import (
    DatabaseError,
    DatabaseVersionError,
    _release_page_cache,
    default_database_path,
    head_revision,
    open_database,
    resolve_url,
)
from tests.cli.test_cli_failures import damage_table


def test_resolve_url_path_env_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = resolve_url(tmp_path / "a.sqlite")
    assert url.drivername == "sqlite"
    assert url.database == str(tmp_path / "a.sqlite")
    assert resolve_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert resolve_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    monkeypatch.setenv("NDCG_STUDIO_DB", str(tmp_path / "env.sqlite"))
    assert resolve_url(None).database == str(tmp_path / "env.sqlite")
    monkeypatch.delenv("NDCG_STUDIO_DB")
    assert resolve_url(None).database == str(default_database_path())
    assert "ndcg-studio" in str(default_database_path())
    with pytest.raises(DatabaseError, match="not a database path or URL"):
        resolve_url("::://nonsense")
    # SQLite's name for an in-memory database is not taken for a file name
    assert resolve_url(":memory:").database is None
    assert resolve_url(":memory:").drivername == "sqlite"


def set_wise_references() -> set[tuple[str, str, str]]:
    """(table, column, parent) of the foreign keys migration 0008 replaces on PostgreSQL."""
    path = (
        Path(__file__).resolve().parents[2] / "migrations/versions/0008_pg_set_wise_references.py"
    )
    spec = importlib.util.spec_from_file_location("migration_0008", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {(child, column, parent) for child, column, parent, _ in module.REFERENCES}


def _reference(fk: Any) -> tuple[str, str, str]:
    return (fk.table.name, next(iter(fk.column_keys)), fk.referred_table.name)


def test_upgrade_of_empty_database_equals_models(db_url: str) -> None:
    database = open_database(db_url)
    try:
        with database.engine.connect() as conn:
            diff = compare_metadata(
                MigrationContext.configure(conn, opts={"compare_type": True}), models.metadata
            )
            if conn.dialect.name == "postgresql":  # migration 0008: checked set-wise instead
                replaced = [d for d in diff if d[0] == "add_fk"]
                diff = [d for d in diff if d[0] != "add_fk"]
                assert {_reference(d[1]) for d in replaced} == set_wise_references()
            assert diff == []
            assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    finally:
        database.dispose()


def test_sqlite_pragmas_on_every_connection(sqlite_url: str) -> None:
    database = open_database(sqlite_url)
    try:
        for _ in range(2):
            with database.engine.connect() as conn:
                assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
                assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        database.dispose()


def test_the_desktop_apps_connections_have_no_memory_map(sqlite_url: str) -> None:
    """The CLI maps up to 256 MiB of the file; the desktop app (``lean``) none — every other
    setting the same."""
    for lean, expected in ((False, 268435456), (True, 0)):
        database = open_database(sqlite_url, lean=lean)
        try:
            for _ in range(2):  # every connection of the pool, not only the first
                with database.engine.connect() as conn:
                    assert conn.execute(text("PRAGMA mmap_size")).scalar() == expected
                    assert conn.execute(text("PRAGMA cache_size")).scalar() == -65536
                    assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
                    assert (
                        conn.execute(select(func.count()).select_from(models.queries)).scalar() == 0
                    )
            # and a lean connection frees its page cache when it goes back to the pool, also
            # when it was invalidated meanwhile (the pool then checks in no DB-API connection)
            assert event.contains(database.engine, "checkin", _release_page_cache) is lean
            with database.engine.connect() as conn:
                conn.invalidate()
            with database.engine.connect() as conn:
                assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        finally:
            database.dispose()


def test_new_sqlite_files_get_16k_pages_and_old_files_keep_theirs(tmp_path: Path) -> None:
    """page_size applies to a new file only; a file written with 4 KiB pages (as before) opens,
    upgrades and keeps 4 KiB."""
    import sqlite3

    new = open_database(f"sqlite:///{tmp_path / 'new.sqlite'}")
    try:
        with new.engine.connect() as conn:
            assert conn.execute(text("PRAGMA page_size")).scalar() == 16384
    finally:
        new.dispose()
    old_path = tmp_path / "old.sqlite"
    raw = sqlite3.connect(old_path)
    raw.execute("PRAGMA page_size=4096")
    raw.execute("CREATE TABLE note (x)")
    raw.close()
    old = open_database(f"sqlite:///{old_path}")
    try:
        with old.engine.connect() as conn:
            assert conn.execute(text("PRAGMA page_size")).scalar() == 4096
            assert conn.execute(text("SELECT count(*) FROM queries")).scalar() == 0
    finally:
        old.dispose()


def test_constraints_enforced(db: object) -> None:
    database = db  # type: ignore[assignment]
    with database.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(insert(models.queries), [{"external_id": "q1", "text": "t"}])
        conn.execute(
            insert(models.documents), [{"external_id": "d1", "title": "", "text": "", "url": ""}]
        )
        conn.execute(insert(models.annotators), [{"name": "ann"}])
    with pytest.raises(IntegrityError), database.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(
            insert(models.judgments),
            [{"query_id": 1, "document_id": 1, "annotator_id": 1, "grade": 7}],
        )
    with pytest.raises(IntegrityError), database.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(  # foreign key: no query 99
            insert(models.judgments),
            [{"query_id": 99, "document_id": 1, "annotator_id": 1, "grade": 2}],
        )
    with database.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(
            insert(models.judgments),
            [{"query_id": 1, "document_id": 1, "annotator_id": 1, "grade": 2}],
        )
    with pytest.raises(IntegrityError), database.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(  # unique per query+document+annotator
            insert(models.judgments),
            [{"query_id": 1, "document_id": 1, "annotator_id": 1, "grade": 3}],
        )


def test_constraint_names_follow_convention(sqlite_url: str) -> None:
    database = open_database(sqlite_url)
    try:
        insp = inspect(database.engine)
        uniques = {u["name"] for u in insp.get_unique_constraints("judgments")}
        assert "uq_judgments_query_id_document_id_annotator_id" in uniques
        checks = {c["name"] for c in insp.get_check_constraints("judgments")}
        assert "ck_judgments_grade_range" in checks
        checks = {c["name"] for c in insp.get_check_constraints("results")}
        assert "ck_results_position_positive" in checks
        assert "ck_results_rank_positive" not in checks  # trec_eval ignores ranks (0003)
    finally:
        database.dispose()


def test_database_from_newer_app_is_refused(sqlite_url: str) -> None:
    open_database(sqlite_url).dispose()
    database = open_database(sqlite_url)
    with database.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    database.dispose()
    with pytest.raises(DatabaseVersionError, match="newer version of NDCG Studio"):
        open_database(sqlite_url)


def test_schema_head_constant_matches_the_migrations() -> None:
    from ndcg_studio.storage.database import SCHEMA_HEAD

    assert head_revision() == SCHEMA_HEAD


def test_reopen_is_idempotent(sqlite_url: str) -> None:
    open_database(sqlite_url).dispose()
    database = open_database(sqlite_url)
    with database.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == head_revision()
    database.dispose()


def test_unreachable_database_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(DatabaseError, match="cannot open the database"):
        open_database(blocker / "sub" / "x.sqlite")


def test_headless_scoring_path_imports_neither_the_orm_nor_the_postgresql_dialect(
    sqlite_url: str,
) -> None:
    """``ndcg-studio score`` must start fast: importing ``sqlalchemy.orm`` costs ~0.1 s, and the
    schema, opening a database at the newest revision and scoring need SQLAlchemy Core only;
    a SQLite database needs nothing of PostgreSQL's dialect (a ``postgresql_where`` or a
    module-level ``postgresql.insert`` would load all of it)."""
    open_database(sqlite_url).dispose()  # created and upgraded here, so the child skips Alembic
    code = (
        "import sys\n"
        "import ndcg_studio.storage.database, ndcg_studio.storage.models\n"
        "import ndcg_studio.services.scoring.service, ndcg_studio.cli.commands\n"
        "print('sqlalchemy.orm' in sys.modules)\n"
        "from ndcg_studio.services.scoring.service import ScoringService, ScoringSettings\n"
        "from ndcg_studio.storage.database import open_database\n"
        f"db = open_database({sqlite_url!r})\n"
        "ScoringService(db).score(ScoringSettings())\n"
        "db.dispose()\n"
        "print('sqlalchemy.orm' in sys.modules, 'alembic' in sys.modules)\n"
        "print([m for m in sys.modules if m.startswith('sqlalchemy.dialects.postgresql')])\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:3] == ["False", "False False", "[]"]


def test_sessions_are_created_on_first_use(sqlite_url: str) -> None:
    database = open_database(sqlite_url)
    try:
        assert "sessions" not in vars(database)
        with database.transaction() as session:
            assert session.execute(text("SELECT 1")).scalar_one() == 1
        assert database.sessions is database.sessions
    finally:
        database.dispose()


def test_upgrade_0001_to_0002_keeps_results_and_drops_the_rank_index(db_url: str) -> None:
    """A database written at revision 0001 (with the unique (run, query, rank) index) upgrades
    with every result intact; on SQLite the table stays clustered (WITHOUT ROWID); a downgrade
    puts the index back."""
    from alembic import command
    from sqlalchemy.engine import make_url

    from ndcg_studio.storage.database import alembic_config, create_studio_engine

    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0001")
            conn.execute(text("INSERT INTO queries (id, external_id, text) VALUES (1, 'q', '')"))
            conn.execute(text("INSERT INTO runs (id, name, description) VALUES (1, 'r', '')"))
            for i in range(1, 4):
                conn.execute(text(
                    "INSERT INTO documents (id, external_id, title, text, url) "
                    f"VALUES ({i}, 'd{i}', '', '', '')"))  # fmt: skip
                conn.execute(text(
                    "INSERT INTO results (query_id, run_id, document_id, rank, position, score) "
                    f"VALUES (1, 1, {i}, {i}, {i}, {1.5 - i})"))  # fmt: skip
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT document_id, rank, position, score FROM results "
                                     "ORDER BY document_id")).all()  # fmt: skip
            uniques = {u["name"] for u in inspect(conn).get_unique_constraints("results")}
            if conn.dialect.name == "sqlite":
                ddl = conn.execute(
                    text("SELECT sql FROM sqlite_master WHERE name = 'results'")
                ).scalar_one()
                assert "WITHOUT ROWID" in ddl
        assert [tuple(r) for r in rows] == [(i, i, i, 1.5 - i) for i in range(1, 4)]
        assert "uq_results_run_id_query_id_rank" not in uniques
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0001")
        with engine.connect() as conn:
            uniques = {u["name"] for u in inspect(conn).get_unique_constraints("results")}
            assert conn.execute(text("SELECT count(*) FROM results")).scalar_one() == 3
        assert "uq_results_run_id_query_id_rank" in uniques
    finally:
        engine.dispose()


def test_upgrade_0002_to_0003_keeps_rows_and_accepts_any_rank_and_minus_one(db_url: str) -> None:
    """Results and judgments written at 0002 survive 0003 unchanged; afterwards a NULL or 0
    rank and a judgment -1 are accepted (adjudications stay 0-4); a downgrade removes only
    the rows 0002 cannot hold."""
    from alembic import command
    from sqlalchemy.engine import make_url

    from ndcg_studio.storage.database import alembic_config, create_studio_engine

    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0002")
            conn.execute(text("INSERT INTO queries (id, external_id, text) VALUES (1, 'q', '')"))
            conn.execute(text("INSERT INTO runs (id, name, description) VALUES (1, 'r', '')"))
            conn.execute(text("INSERT INTO annotators (id, name) VALUES (1, 'a')"))
            for i in range(1, 4):
                conn.execute(text(
                    "INSERT INTO documents (id, external_id, title, text, url) "
                    f"VALUES ({i}, 'd{i}', '', '', '')"))  # fmt: skip
                conn.execute(text(
                    "INSERT INTO results (query_id, run_id, document_id, rank, position, score) "
                    f"VALUES (1, 1, {i}, {i}, {i}, {1.5 - i})"))  # fmt: skip
                conn.execute(text(
                    "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
                    f"VALUES (1, {i}, 1, {i})"))  # fmt: skip
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0003")
        with engine.begin() as conn:
            results = conn.execute(text("SELECT document_id, rank, position, score FROM results "
                                        "ORDER BY document_id")).all()  # fmt: skip
            grades = conn.execute(text("SELECT grade FROM judgments ORDER BY id")).scalars().all()
            assert [tuple(r) for r in results] == [(i, i, i, 1.5 - i) for i in range(1, 4)]
            assert grades == [1, 2, 3]
            conn.execute(text("UPDATE results SET rank = NULL WHERE document_id = 1"))
            conn.execute(text("UPDATE results SET rank = 0 WHERE document_id = 2"))
            conn.execute(text("UPDATE judgments SET grade = -1 WHERE document_id = 3"))
            problem = conn.execute(text("SELECT rank_problem FROM runs")).scalar_one()
            assert problem is None
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(text("UPDATE judgments SET grade = -2 WHERE document_id = 3"))
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO adjudications (query_id, document_id, grade, adjudicator_id) "
                "VALUES (1, 1, -1, 1)"))  # fmt: skip
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0002")
        with engine.connect() as conn:
            kept = conn.execute(text("SELECT document_id FROM results")).scalars().all()
            judged = conn.execute(text("SELECT grade FROM judgments ORDER BY id")).scalars().all()
            assert kept == [3] and judged == [1, 2]
            assert conn.execute(text("SELECT count(*) FROM runs")).scalar_one() == 1
    finally:
        engine.dispose()


def _quick_checks(path: Path, *, dispose: bool = True) -> tuple[int, Any]:
    """Open ``path`` and count the ``PRAGMA quick_check`` statements the open ran."""
    seen: list[str] = []

    def listen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "quick_check" in statement:
            seen.append(statement)

    event.listen(Engine, "before_cursor_execute", listen)
    try:
        db = open_database(path)
    finally:
        event.remove(Engine, "before_cursor_execute", listen)
    if dispose:
        db.dispose()
    return len(seen), db


def test_an_unchanged_sound_file_is_not_checked_again(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    assert _quick_checks(path)[0] == 1  # new: checked, then remembered as sound when closed
    assert _quick_checks(path)[0] == 0
    with sqlite3.connect(path) as conn:  # another program writes: checked again
        conn.execute("CREATE TABLE scratch (x)")
    conn.close()
    assert _quick_checks(path)[0] == 1
    assert _quick_checks(path)[0] == 0


def test_a_file_damaged_right_after_it_was_found_sound_is_refused(tmp_path: Path) -> None:
    """Damage written at once after the file was remembered as sound (same size, same inode)
    changes its stamp: the open checks it and refuses it."""
    path = tmp_path / "a.sqlite"
    db = open_database(path)
    with db.engine.begin() as conn:
        conn.execute(text("CREATE TABLE filler (x)"))
        conn.execute(text("INSERT INTO filler VALUES (randomblob(200000))"))
    db.dispose()
    assert _quick_checks(path)[0] == 0
    damage_table(path, "filler")
    with pytest.raises(DatabaseError, match="malformed"):
        open_database(path)


def test_a_file_with_a_pending_write_ahead_log_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite"
    _quick_checks(path)
    writer = sqlite3.connect(path)
    writer.execute("CREATE TABLE scratch (x)")  # stays in the -wal while this one is open
    writer.commit()
    try:
        count, db = _quick_checks(path, dispose=False)
        assert count == 1
        db.engine.dispose()
    finally:
        writer.close()
