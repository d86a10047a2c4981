"""ui.context.database_target: the one key of a database in the settings and in Open Recent."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from sqlalchemy import make_url
from sqlalchemy.engine import Engine

from ndcg_studio.storage.database import Database, resolve_url
from ndcg_studio.ui.context import database_target


def _target(url: str) -> str:
    # no engine needed: the target is a function of the URL alone
    return database_target(Database(make_url(url), cast(Engine, None)))


def test_a_server_url_is_remembered_without_its_password() -> None:
    assert (
        _target("postgresql+psycopg://ann:secret@db.example:5432/judging")
        == "postgresql+psycopg://ann@db.example:5432/judging"
    )


def test_a_file_is_remembered_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    expected = str((tmp_path / "a.sqlite").resolve())
    assert _target("sqlite:///a.sqlite") == expected  # a relative URL, as typed
    assert database_target(Database(resolve_url("a.sqlite"), cast(Engine, None))) == expected
    assert _target(f"sqlite:///{expected}") == expected
    assert _target("sqlite:///:memory:") == ":memory:"
