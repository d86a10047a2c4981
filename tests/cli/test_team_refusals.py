"""Refusals in team mode that must read as refusals (one plain line: why, and what to do), not as
crashes, and team commands that must not break the team (set-up B of docs/team-mode.md on the
real test server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ndcg_studio.app import main
from tests.pg import SUPERUSER, PostgresServer
from tests.storage.test_postgres_roles import _url, team  # noqa: F401 (the fixture)

pytestmark = pytest.mark.postgres


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    _out, err = capsys.readouterr()
    return code, err


def test_an_annotators_import_and_demo_are_refused_in_plain_words(
    team: PostgresServer,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 bm25\n", encoding="utf-8")
    for args in (["import", "run", str(run)], ["demo"]):
        code, said = _run(capsys, "--db", _url(team, "alice"), *args)
        assert code != 0
        assert "unexpected" not in said.lower() and "Traceback" not in said
        assert "owner" in said  # what to do: the owner imports
        assert len(said.strip().splitlines()) == 1


def test_the_owner_and_a_superuser_cannot_become_members(
    team: PostgresServer,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    owner = _url(team, "studio_owner")
    for name in ("studio_owner", SUPERUSER):
        for action in ("add-annotator", "add-lead"):
            code, said = _run(capsys, "--db", owner, "team", action, name)
            assert code == 1, said
            assert len(said.strip().splitlines()) == 1 and "own" in said
            assert "rights updated" not in said
    # the owner still creates campaigns: its rights were left alone
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\n", encoding="utf-8")
    assert _run(capsys, "--db", owner, "import", "run", str(run), "-q")[0] == 0
    code, said = _run(
        capsys,
        *("--db", owner, "campaign", "create", "c1", "--runs", "bm25", "--depth", "2"),
        *("--overlap", "1", "--annotators", "alice", "bob"),
    )
    assert code == 0, said
