"""Grading from the keyboard at the end of a query, as a person does it: a real X server, a
window manager, the app on the ``xcb`` platform and nothing but X11 key presses.

A fast grader who keeps pressing digits after a query's last document must not change that
last grade again and again: once the query is complete the grade keys wait for a move (an
arrow, ``U``, another query), and the status line says so.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.e2e.x11 import NAME, App, cli, first_start, require_tools, running, user_env, x_display

require_tools()

pytestmark = pytest.mark.slow


def _make_database(home: object, env: dict[str, str]) -> object:
    from pathlib import Path

    home = Path(str(home))
    run = home / "run.txt"
    run.write_text("".join(f"q1 Q0 d{i} {i} {10 - i} sys\n" for i in (1, 2, 3)), encoding="utf-8")
    docs = home / "docs.jsonl"
    docs.write_text(
        "".join(
            json.dumps({"doc_id": f"d{i}", "title": f"Document {i}", "text": f"Text {i}."}) + "\n"
            for i in (1, 2, 3)
        ),
        encoding="utf-8",
    )
    db = home / "small.sqlite"
    for args in (["import", "run", str(run)], ["import", "documents", str(docs)]):
        cli(env, db, *args)
    return db


@pytest.fixture(scope="module")
def small_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The app on a database of one query with three pooled documents, started as a person
    starts it (the name typed at the first start, Enter)."""
    home = tmp_path_factory.mktemp("home")
    with x_display(tmp_path_factory.mktemp("wm")) as display:
        env = {**display, **user_env(home)}
        db_path = _make_database(home, env)
        with running(db_path, env) as app:  # type: ignore[arg-type]
            first_start(app)
            yield app


def _grades(app: App) -> dict[str, int]:
    return {doc: grade for _query, doc, grade in app.judgments()}


def test_keys_after_the_last_document_do_not_change_its_grade(small_app: App) -> None:
    app = small_app
    for key in ("3", "2", "4"):  # the three documents, in the pool's order
        app.key(key)
    rows = app.wait_for_judgments(3)
    assert sorted(g for _q, _d, g in rows) == [2, 3, 4]
    before = _grades(app)
    for key in ("1", "0", "1"):  # a fast grader keeps going
        app.key(key)
    time.sleep(1.0)  # a grade would be written within milliseconds
    assert _grades(app) == before
    # a move: the keys grade again (Left: the second document, then the third follows it)
    app.key("Left")
    app.key("1")
    deadline = time.monotonic() + 10
    while sorted(_grades(app).values()) == sorted(before.values()):
        assert time.monotonic() < deadline, "the grade after a move was not written"
        time.sleep(0.05)
    assert 1 in _grades(app).values()


def _notes(app: App) -> list[str]:
    import sqlite3

    with sqlite3.connect(app.db_path) as con:
        rows = con.execute(
            "SELECT j.note FROM judgments j JOIN annotators a ON a.id = j.annotator_id "
            "WHERE a.name = ? AND j.note IS NOT NULL ORDER BY j.id",
            (NAME,),
        ).fetchall()
    return [note for (note,) in rows]


def _wait_notes(app: App, expected: list[str]) -> list[str]:
    deadline = time.monotonic() + 10
    notes = _notes(app)
    while notes != expected and time.monotonic() < deadline:
        time.sleep(0.05)
        notes = _notes(app)
    return notes


def test_a_note_is_saved_from_the_keyboard(small_app: App) -> None:
    app = small_app
    app.key("Home")  # the first document: grade it, then back to it for its note
    app.key("2")
    app.key("Left")
    app.key("n")
    app.wait_active("Note")
    subprocess.run(["xdotool", "type", "abstract only"], env=app.env, check=True, timeout=10)
    app.key("ctrl+Return")  # saves
    assert _wait_notes(app, ["abstract only"]) == ["abstract only"]
    app.wait_active("— NDCG Studio")  # the keyboard is back in the main window
    app.key("n")
    app.wait_active("Note")
    subprocess.run(["xdotool", "type", ", see p. 2"], env=app.env, check=True, timeout=10)
    app.key("Tab")  # from the text to OK
    app.key("Return")
    assert _wait_notes(app, ["abstract only, see p. 2"]) == ["abstract only, see p. 2"]
    app.wait_active("— NDCG Studio")
