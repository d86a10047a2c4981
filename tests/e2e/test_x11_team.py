"""A team database (PostgreSQL, set-up B of docs/team-mode.md on the suite's real server) as an
annotator meets it: a real X server, a window manager, the app on the ``xcb`` platform and
nothing but X11 key presses.

Checked: the first start asks nothing (the login is the annotator; ``3`` grades under it); the
menu items an annotator may not use are disabled (the demo, switching annotator, new campaign,
the lead's dashboard); a refused import says why and what to do in plain words (not
"Unexpected error"), and after the message the keyboard is back in the main window (``4``
grades at once).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from ndcg_studio.app import main
from tests.e2e.x11 import App, require_tools, running, user_env, x_display
from tests.pg import PostgresServer
from tests.storage.test_postgres_roles import _url, team  # noqa: F401 (the fixture)

require_tools()

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def _grades(server: PostgresServer, login: str) -> list[int]:
    with psycopg.connect(
        host="127.0.0.1", port=server.port, user="studio_owner", dbname="relevance"
    ) as conn:
        rows = conn.execute(
            "SELECT j.grade FROM judgments j JOIN annotators a ON a.id = j.annotator_id "
            "WHERE a.name = %s ORDER BY j.id",
            (login,),
        ).fetchall()
    return [grade for (grade,) in rows]


def _wait_grades(server: PostgresServer, login: str, n: int) -> list[int]:
    deadline = time.monotonic() + 10
    grades = _grades(server, login)
    while len(grades) < n and time.monotonic() < deadline:
        time.sleep(0.05)
        grades = _grades(server, login)
    return grades


@pytest.fixture
def alice(
    team: PostgresServer,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[App, PostgresServer, Path]]:
    """The app as the annotator login ``alice`` on the team database, a run imported by the
    owner; alice's home is empty (a first start)."""
    home = tmp_path_factory.mktemp("home")
    run = home / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\n", encoding="utf-8")
    assert main(["--db", _url(team, "studio_owner"), "import", "run", str(run), "-q"]) == 0
    with x_display(tmp_path_factory.mktemp("wm")) as display:
        env = {**display, **user_env(home)}
        with running(_url(team, "alice"), env, home / "unused") as app:
            yield app, team, home


def _menu(app: App, key: str, title: str) -> dict[str, bool]:
    """Open a menu with its Alt key; its items and whether each is enabled; closes it."""
    app.read()
    app.key(key)
    line = app.wait_for(lambda s: s.startswith(f"menu {title} |"))
    app.key("Escape", "Escape")  # the menu, then the menu bar
    items = line.split(" | ", 1)[1].split("; ")
    return {item.rsplit("=", 1)[0]: item.endswith("=on") for item in items}


def test_an_annotator_starts_under_its_login_and_is_refused_plainly(
    alice: tuple[App, PostgresServer, Path],
) -> None:
    app, server, home = alice
    # an annotator login grades under its login: nobody is asked for a name
    app.wait_for(lambda s: s.startswith("query "), timeout=30)
    assert not [line for line in app.lines if line.startswith("dialog Welcome")], app.lines
    app.wait_active("— NDCG Studio")
    app.key("3")
    assert _wait_grades(server, "alice", 1) == [3]

    assert _menu(app, "alt+h", "Help")["Load the Cranfield demo"] is False
    assert _menu(app, "alt+a", "Annotator")["Switch annotator…"] is False
    campaign = _menu(app, "alt+c", "Campaign")
    assert campaign["New campaign…"] is False and campaign["Lead's dashboard…"] is False
    assert campaign["Next from queue"] is True
    app.wait_active("— NDCG Studio")

    # bob's grades, imported by alice: the server refuses; the app says so plainly
    qrels = home / "bob.qrels"
    qrels.write_text("q1 0 d2 1\n", encoding="utf-8")
    app.read()
    app.key("ctrl+i")
    app.wait_for(lambda s: s.startswith("dialog Import |"))
    app.wait_active("Import")
    app.key("Return")  # the first kind an annotator is offered: judgments as TREC qrels
    app.wait_for(lambda s: s.startswith("dialog Import judgments"))
    app.wait_active("Import judgments")
    subprocess.run(["xdotool", "type", str(qrels)], env=app.env, check=True, timeout=10)
    app.key("Return")
    app.wait_for(lambda s: s.startswith("dialog Import |"))  # whose judgments: annotators
    app.wait_active("Import")
    app.key("Return")
    app.wait_for(lambda s: s.startswith("dialog Import |"))  # the annotator: asked
    app.wait_active("Import")
    app.key("ctrl+a")
    subprocess.run(["xdotool", "type", "bob"], env=app.env, check=True, timeout=10)
    app.key("Return")
    line = app.wait_for(lambda s: s.startswith("dialog ") and "refused" in s, timeout=20)
    assert "Unexpected" not in line and "report" not in line and "SELECT" not in line, line
    assert "Nothing was written" in line, line
    app.wait_active(line.split(" | ")[0].removeprefix("dialog "))
    app.key("Return")  # OK
    app.wait_active("— NDCG Studio")
    app.wait_for(lambda s: s.startswith("focus ") and " DocumentPanel " in s)  # Annotate's
    app.key("4")  # the keyboard is back in Annotate: the second document (shown after the 3)
    assert _wait_grades(server, "alice", 2) == [3, 4]
    assert _grades(server, "bob") == []
