"""StagedIds (SQLite): every staged line gets its row's id, the missing rows created once each,
in key order; and the settings of a bulk transaction's connection are restored after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import bulk_transaction, id_map
from ndcg_studio.storage.database import open_database
from ndcg_studio.storage.staged_ids import StagedIds

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
    pragmas = ("temp_store", "mmap_size", "foreign_keys")
    try:
        with database.engine.connect() as conn:
            outside = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
        with bulk_transaction(database.engine) as conn:
            inside = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
        with database.engine.connect() as conn:
            after = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas]
    finally:
        database.dispose()
    assert inside == [1, 0, 0]  # temporary tables in a file, no memory map, no FK checks
    assert after == outside == [2, 268435456, 1]
