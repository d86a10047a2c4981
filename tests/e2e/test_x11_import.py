"""File ▸ Import… of a run whose tag names a run already, as a person does it: a real X server,
a window manager, the app on the ``xcb`` platform and nothing but X11 key presses.

Nothing is replaced unless asked: the app asks for the new run's name (proposed: the file's
name), imports beside the old run on Enter, replaces the old run only on "Replace" (Alt+R),
and the one-line result fits the status bar.
"""

from __future__ import annotations

import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.x11 import App, cli, first_start, require_tools, running, user_env, x_display

require_tools()

pytestmark = pytest.mark.slow


@pytest.fixture
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The app on a database with the run ``bm25`` (documents d1–d3 of query q1), started as
    a person starts it (the name typed at the first start, Enter)."""
    home = tmp_path_factory.mktemp("home")
    with x_display(tmp_path_factory.mktemp("wm")) as display:
        env = {**display, **user_env(home)}
        db = home / "runs.sqlite"
        first = home / "first.txt"
        first.write_text("".join(f"q1 Q0 d{i} {i} {10 - i} bm25\n" for i in (1, 2, 3)))
        cli(env, db, "import", "run", str(first))
        with running(db, env) as app:
            first_start(app)
            yield app


def _runs(app: App) -> dict[str, list[str]]:
    with sqlite3.connect(app.db_path) as con:
        rows = con.execute(
            "SELECT r.name, d.external_id FROM results x JOIN runs r ON r.id = x.run_id "
            "JOIN documents d ON d.id = x.document_id ORDER BY r.name, x.rank"
        ).fetchall()
    runs: dict[str, list[str]] = {}
    for name, doc in rows:
        runs.setdefault(name, []).append(doc)
    return runs


def _runs_become(app: App, expected: dict[str, list[str]], timeout: float = 10.0) -> None:
    """Wait until the file holds ``expected`` (read by another process, as a terminal would)."""
    deadline = time.monotonic() + timeout
    while (found := _runs(app)) != expected and time.monotonic() < deadline:
        time.sleep(0.1)
    assert found == expected


def _import_run(app: App, path: Path) -> None:
    """Ctrl+I, Enter on the first kind (a run), the file's path typed, Enter; waits for the
    question about the taken name."""
    app.read()
    app.key("ctrl+i")
    app.wait_for(lambda s: s.startswith("dialog Import |"))
    app.wait_active("Import")  # mapped and with the keyboard: a person sees it, then types
    app.key("Return")
    app.wait_for(lambda s: s.startswith("dialog Import a run"))
    app.wait_active("Import a run")
    subprocess.run(["xdotool", "type", str(path)], env=app.env, check=True, timeout=10)
    app.key("Return")


def test_a_taken_tag_asks_and_replaces_only_when_told(app: App, tmp_path: Path) -> None:
    second = tmp_path / "second.txt"
    second.write_text("".join(f"q1 Q0 d{i} {4 - i} {i} bm25\n" for i in (1, 2, 3)))
    before = _runs(app)
    assert before == {"bm25": ["d1", "d2", "d3"]}

    _import_run(app, second)
    app.wait_for(lambda s: s.startswith("dialog Run exists"))
    app.wait_active("Run exists")
    app.key("Return")  # Import as new run, under the proposed name: the file's
    line = app.wait_for(lambda s: s.startswith("status second.txt"))
    assert "run 'second' created" in line and line.endswith("| yes"), line  # whole, not elided
    _runs_become(app, {"bm25": ["d1", "d2", "d3"], "second": ["d3", "d2", "d1"]})

    app.wait_active("— NDCG Studio")
    _import_run(app, second)
    app.wait_for(lambda s: s.startswith("dialog Run exists"))
    app.wait_active("Run exists")
    app.key("alt+r")  # Replace "bm25"
    # (the first import's line may be logged again: the status bar refits it to new counts)
    line = app.wait_for(lambda s: s.startswith("status second.txt") and "bm25" in s)
    assert "run 'bm25' replaced" in line and line.endswith("| yes"), line
    _runs_become(app, {"bm25": ["d3", "d2", "d1"], "second": ["d3", "d2", "d1"]})

    app.wait_active("— NDCG Studio")
    _import_run(app, second)  # and Escape: nothing at all
    app.wait_for(lambda s: s.startswith("dialog Run exists"))
    app.wait_active("Run exists")
    app.key("Escape")
    app.wait_active("— NDCG Studio")
    assert _runs(app) == {"bm25": ["d3", "d2", "d1"], "second": ["d3", "d2", "d1"]}
