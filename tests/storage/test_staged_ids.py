"""StagedIds (SQLite): every staged line gets its row's id, the missing rows created once each,
in key order; and the settings of a bulk transaction's connection are restored after it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import bulk_transaction, id_map
from ndcg_studio.storage.bulk.staged_ids import StagedIds
from ndcg_studio.storage.database import open_database

_DOC = {"title": "", "text": "", "url": ""}
_NAMES = st.text(alphabet="ab\u00e9\u4e2d\"'\\ ", min_size=1, max_size=4)


@pytest.fixture(scope="module")
def sqlite_db(tmp_path_factory: pytest.TempPathFactory) -> Any:
    database = open_database(str(tmp_path_factory.mktemp("staged") / "s.sqlite"))
    yield database
    database.dispose()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    known=st.lists(_NAMES, unique=True, max_size=6),
    pieces=st.lists(st.lists(_NAMES, max_size=8), max_size=4),
)
def test_every_line_gets_its_rows_id_and_new_rows_are_created_once_in_key_order(
    sqlite_db: Any, known: list[str], pieces: list[list[str]]
) -> None:
    d = models.documents
    lines = [v for piece in pieces for v in piece]
    with bulk_transaction(sqlite_db.engine) as conn:
        conn.execute(d.delete())
        if known:
            conn.execute(d.insert(), [{"external_id": k, **_DOC} for k in known])
        before = {name: i for i, name in id_map(conn, d).items()}
        staged = StagedIds(conn, d, defaults={**_DOC, "url": "it's"})
        for piece in pieces:
            staged.add(piece)
        ids, created = staged.settle()
        names = id_map(conn, d)
        urls = dict(conn.execute(select(d.c.external_id, d.c.url)).all())
    new = sorted(set(lines) - set(known))
    assert created == len(new)
    assert [names[int(i)] for i in ids] == lines
    assert all(names[before[k]] == k and urls[k] == "" for k in known)  # known rows untouched
    new_ids = [int(ids[lines.index(v)]) for v in new]
    assert new_ids == sorted(new_ids)  # numbered in key order
    assert all(urls[v] == "it's" for v in new)


def test_a_nul_character_is_refused(sqlite_db: Any) -> None:
    with pytest.raises(ValueError, match="NUL"), bulk_transaction(sqlite_db.engine) as conn:
        StagedIds(conn, models.documents, defaults=_DOC).add(["a\x00b"])


def test_bulk_transaction_restores_the_connections_settings(tmp_path: Path) -> None:
    database = open_database(str(tmp_path / "p.sqlite"))
    pragmas = ("temp_store", "mmap_size", "foreign_keys", "threads")
    try:
        with database.engine.connect() as conn:
            outside = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
        with bulk_transaction(database.engine) as conn:
            inside = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
        with database.engine.connect() as conn:
            after = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
    finally:
        database.dispose()
    # temporary tables in a file, no memory map, no FK checks, the sorter's helper threads
    assert inside == [1, 0, 0, max(0, min(2, (os.cpu_count() or 1) - 1))]
    assert after == outside == [2, 268435456, 1, 0]


def _stage_and_settle(
    conn: Any, lines: int, progress: Any = None, cancelled: Any = None
) -> tuple[Any, int]:
    staged = StagedIds(conn, models.documents, defaults=_DOC)
    for start in range(0, lines, 5_000):
        staged.add([f"d{(i * 7919) % 40_009}" for i in range(start, min(lines, start + 5_000))])
    return staged.settle(progress, cancelled)


def test_settle_reports_progress_inside_its_statements_and_ends_at_100(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's progress handler moves the progress through the sort, the insert and the
    read-back (not only between them), never backwards, to 100; it is removed afterwards."""
    import ndcg_studio.storage.bulk.staged_ids as module

    monkeypatch.setattr(module, "_POLL_STEPS", 20_000)  # ~60 polls for the sort of 80k lines
    database = open_database(str(tmp_path / "p.sqlite"))
    seen: list[tuple[int, int]] = []
    try:
        with bulk_transaction(database.engine) as conn:
            ids, created = _stage_and_settle(conn, 80_000, lambda d, t: seen.append((d, t)))
            calls = len(seen)
            conn.exec_driver_sql("SELECT count(*) FROM documents").scalar()
            assert len(seen) == calls  # the handler is gone
    finally:
        database.dispose()
    assert len(ids) == 80_000 and created == 40_009
    done = [d for d, _ in seen]
    assert {t for _, t in seen} == {100}
    assert done == sorted(done) and done[-1] == 100
    for first, last, _ in module._STEPS.values():  # each statement's share is walked through
        assert len({d for d in done if first < d < last}) >= 3, (first, last, done)


@pytest.mark.parametrize(("stop_at", "statement"), [(1, "sort"), (30, "sort"), (70, "insert")])
def test_cancel_during_settle_stops_the_statement_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop_at: int, statement: str
) -> None:
    """Cancel polled inside the sort and the insert (one statement each): the running statement
    stops (the progress stays inside its share), OperationCancelled is raised, the import's
    transaction rolls back, and the database (and the connection, returned to the pool) works
    as before."""
    import ndcg_studio.storage.bulk.staged_ids as module
    from ndcg_studio.progress import OperationCancelled

    monkeypatch.setattr(module, "_POLL_STEPS", 20_000)
    database = open_database(str(tmp_path / "c.sqlite"))
    seen: list[int] = []
    try:
        with database.engine.begin() as conn:
            conn.execute(models.documents.insert(), [{"external_id": "kept", **_DOC}])
        with pytest.raises(OperationCancelled), bulk_transaction(database.engine) as conn:
            _stage_and_settle(
                conn,
                80_000,
                lambda d, t: seen.append(d),
                lambda: bool(seen) and seen[-1] >= stop_at,
            )
        with database.engine.connect() as conn:
            names = conn.execute(select(models.documents.c.external_id)).scalars().all()
            temp = conn.exec_driver_sql("SELECT count(*) FROM temp.sqlite_master").scalar()
            fk = conn.exec_driver_sql("PRAGMA foreign_keys").scalar()
        with bulk_transaction(database.engine) as conn:  # the next import settles in full
            ids, created = _stage_and_settle(conn, 1_000)
    finally:
        database.dispose()
    assert stop_at <= seen[-1] < module._STEPS[statement][1]
    assert names == ["kept"] and temp == 0 and fk == 1
    assert len(ids) == 1_000 and created == 1_000


def test_an_error_of_the_progress_callback_stops_the_statement_and_is_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ndcg_studio.storage.bulk.staged_ids as module

    monkeypatch.setattr(module, "_POLL_STEPS", 20_000)
    database = open_database(str(tmp_path / "e.sqlite"))

    def progress(done: int, total: int) -> None:
        if done > 10:
            raise KeyError("from the callback")

    try:
        with (
            pytest.raises(KeyError, match="from the callback"),
            bulk_transaction(database.engine) as conn,
        ):
            _stage_and_settle(conn, 80_000, progress)
        with database.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(models.documents)).scalar()
    finally:
        database.dispose()
    assert count == 0


def test_add_json_checks_the_ends_it_is_given(sqlite_db: Any) -> None:
    """The JSON text may be made in another thread (DocumentsMeanwhile.start): the values
    given for the check must be the text's first and last."""
    with (
        pytest.raises(RuntimeError, match="not numbered"),
        bulk_transaction(sqlite_db.engine) as conn,
    ):
        StagedIds(conn, models.documents, defaults=_DOC).add_json('["a", "b"]', 2, "a", "c")
