"""A damaged database file opened in the app, as a person does it: a real X server, a window
manager, the app on the ``xcb`` platform and nothing but X11 key presses.

The app says the file is damaged and how to recover it, in one dialog that Enter closes, and
writes nothing into it — not the first start's annotator, not the schema.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.cli.test_cli_failures import damage_table
from tests.e2e.x11 import cli, require_tools, running, user_env, x_display

require_tools()

pytestmark = pytest.mark.slow


def test_a_damaged_file_is_refused_and_left_as_it_was(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    home = tmp_path_factory.mktemp("home")
    with x_display(tmp_path_factory.mktemp("wm")) as display:
        env = {**display, **user_env(home)}
        db = home / "team.sqlite"
        run = home / "run.txt"
        run.write_text("".join(f"q1 Q0 d{i} {i} {10 - i} bm25\n" for i in (1, 2, 3)))
        qrels = home / "qrels.txt"
        qrels.write_text("".join(f"q1 0 d{i} {i % 3}\n" for i in (1, 2, 3)))
        for kind, path in (("run", run), ("qrels", qrels)):
            cli(env, db, "import", kind, str(path))
        damage_table(db, "judgment_history")  # the first screen never reads it
        before = hashlib.sha256(db.read_bytes()).hexdigest()
        with running(db, env) as app:
            shown = app.wait_for(lambda s: s.startswith("dialog "), timeout=30)
            assert f"{db} is damaged" in shown and f"sqlite3 {db} .recover" in shown, shown
            assert "nexpected" not in shown and "Welcome" not in shown, shown
            # the message's own title: the main window's title holds "NDCG Studio" too, and a
            # Return sent while it still had the keyboard reached no button
            app.wait_active("Cannot do that")
            app.key("Return")  # closes the message; the keyboard goes back to the window
            app.wait_for(lambda s: s.startswith("focus ") and "DocumentPanel" in s, timeout=10)
        assert hashlib.sha256(db.read_bytes()).hexdigest() == before
        assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
