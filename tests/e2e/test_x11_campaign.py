"""An annotator's first minutes in a campaign, and switching annotator on a database file, as a
person does them: a real X server, a window manager, the app on the ``xcb`` platform and nothing
but X11 key presses.

The campaign the annotator takes part in is chosen for them, so ``Q`` takes the next document
from its queue at once; typing a new name in Switch annotator asks before it creates an
annotator, and the dialog says that a database file has no logins.
"""

from __future__ import annotations

import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.x11 import (
    NAME,
    App,
    cli,
    first_start,
    first_start_then_3,
    require_tools,
    running,
    user_env,
    x_display,
)

require_tools()

pytestmark = pytest.mark.slow


def _query(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute(sql, args).fetchall()


@pytest.fixture
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The app on a database with a run of two queries and a campaign for NAME and bob,
    started as a person starts it (the name typed at the first start, Enter)."""
    home = tmp_path_factory.mktemp("home")
    with x_display(tmp_path_factory.mktemp("wm")) as display:
        env = {**display, **user_env(home)}
        db = home / "study.sqlite"
        run = home / "run.txt"
        run.write_text(
            "".join(f"q{q} Q0 d{q}{i} {i} {10 - i} bm25\n" for q in (1, 2) for i in (1, 2, 3))
        )
        cli(env, db, "import", "run", str(run))
        cli(env, db, "campaign", "create", "study", "--runs", "bm25", "--depth", "3",
            "--overlap", "1", "--gold-rate", "0", "--annotators", NAME, "bob")  # fmt: skip
        with running(db, env) as app:
            yield app


def _held_by(app: App, name: str) -> int:
    return int(
        _query(
            app.db_path,
            "SELECT count(*) FROM campaign_leases l JOIN annotators a ON a.id = l.annotator_id "
            "WHERE a.name = ?",
            name,
        )[0][0]
    )


def test_q_takes_from_the_campaign_at_once(app: App) -> None:
    first_start(app)  # nothing graded yet: nothing held
    assert _held_by(app, NAME) == 0
    app.key("q")
    deadline = time.monotonic() + 10
    while _held_by(app, NAME) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _held_by(app, NAME) >= 1  # the queue held the document it opened


def test_switching_to_a_new_name_asks_first(app: App) -> None:
    first_start_then_3(app)
    app.wait_for_judgments(1)
    for answer, created in (("Escape", False), ("Return", True)):
        app.read()
        app.key("ctrl+shift+a")
        shown = app.wait_for(lambda s: s.startswith("dialog Switch annotator"))
        app.wait_active("Switch annotator")
        app.key("ctrl+a")
        subprocess.run(["xdotool", "type", "zed"], env=app.env, check=True, timeout=10)
        app.key("Return")
        asked = app.wait_for(lambda s: s.startswith("dialog Switch annotator | There is no"))
        assert "zed" in asked
        app.wait_active("Switch annotator")
        app.key(answer)
        app.wait_active("— NDCG Studio")
        deadline = time.monotonic() + 5  # the window is active again before the write ends
        names = [n for (n,) in _query(app.db_path, "SELECT name FROM annotators")]
        while created and "zed" not in names and time.monotonic() < deadline:
            time.sleep(0.05)
            names = [n for (n,) in _query(app.db_path, "SELECT name FROM annotators")]
        assert ("zed" in names) is created, names
        assert "has no logins" in shown, shown
