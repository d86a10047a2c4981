"""The app as a person uses it: a real X server (Xvfb, 1024×700) with a window manager
(openbox), the installed app started as a process on Qt's ``xcb`` platform, and nothing but X11
key presses (xdotool) — no ``setFocus()``, no clicks.

What the app does is read from the SQLite file (judgments) and from the log it writes when
``$NDCG_STUDIO_E2E_LOG`` is set (:mod:`ndcg_studio.ui.e2e_log`: focus changes, tab changes,
the query shown in Annotate).

Checked: the first start asks for a name (typed, Enter) and ``3`` pressed right after that
grades the first document; every tab is reached with Ctrl+Tab, Ctrl+Shift+Tab and Ctrl+1…4,
also while a table has the focus; in every view Tab and Shift+Tab go round the view's widgets,
leaving every table at the next press; back on Annotate ``4`` grades again; Ctrl+Q quits.

Needs ``Xvfb``, ``xdotool`` and ``openbox`` (Debian: xvfb, xdotool, openbox; .ci/run installs
them). Skipped with the reason when one is absent, unless ``$NDCG_STUDIO_E2E_REQUIRED`` is set
(.ci/run sets it), where that is a failure.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.e2e.x11 import NAME, VIEWS, App, Focus, require_x11, stop

require_x11()

pytestmark = pytest.mark.slow

# the tables of each view (objectName) that Tab must reach and leave
TABLES = {
    "Annotate": {"query_table"},
    "Review": {"summary_table", "review_table"},
    "Agreement": {
        "kappa_table",
        "loo_table",
        "agreement_query_table",
        "disputed_table",
        "grades_table",
        "history_table",
    },
    "Compare": {"compare_matrix_table", "compare_table"},
    "Stability": {"stability_matrix_table", "stability_means_table", "stability_pairs_table"},
}


@pytest.fixture(scope="module")
def app(display: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The app on a fresh demo database (made with the CLI), on the real xcb platform, with its
    own empty home (no remembered annotator: the first start asks for a name), as a person
    starts it: the name typed, Enter, and — as soon as the first document is shown — ``3``
    (:func:`test_3_right_after_start_grades_the_first_document` checks the result; the other
    tests need an annotator)."""
    home = tmp_path_factory.mktemp("home")
    db_path = home / "demo.sqlite"
    log_path = home / "e2e.log"
    log_path.touch()
    env = {
        **display,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "QT_QPA_PLATFORM": "xcb",  # .ci/run exports offscreen for the rest of the suite
        "NDCG_STUDIO_E2E_LOG": str(log_path),
    }
    made = subprocess.run(
        [sys.executable, "-m", "ndcg_studio", "--db", str(db_path), "demo"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    process = subprocess.Popen(
        [sys.executable, "-m", "ndcg_studio", "--db", str(db_path)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(home / "app.stderr").open("wb"),
    )
    app = App(process, env, log_path, db_path)
    try:
        # the window is mapped, then the first start asks who is annotating
        subprocess.run(
            ["xdotool", "search", "--sync", "--onlyvisible", "--name", "Welcome to NDCG Studio"],
            env=env,
            check=True,
            timeout=30,
            stdout=subprocess.DEVNULL,
        )
        app.wait_active("Welcome to NDCG Studio")
        app.key("ctrl+a")
        subprocess.run(["xdotool", "type", NAME], env=env, check=True, timeout=10)
        app.key("Return")
        app.wait_for(lambda s: s.startswith("query "), timeout=20)  # the first query is shown
        app.wait_active("— NDCG Studio")
        app.key("3")
        yield app
        if process.poll() is None:
            app.key("ctrl+q")  # File ▸ Quit
            assert process.wait(15) == 0
    finally:
        stop(process)
        stderr = (home / "app.stderr").read_text(errors="replace")
        assert "Traceback" not in stderr, stderr


def test_3_right_after_start_grades_the_first_document(app: App) -> None:
    rows = app.wait_for_judgments(1)
    assert rows and rows[0][0] == "1" and rows[0][2] == 3  # query 1, its first document


def test_every_tab_with_ctrl_tab_ctrl_shift_tab_and_ctrl_digits(app: App) -> None:
    app.show(0)
    for expected in (*VIEWS[1:], VIEWS[0]):
        app.read()
        app.key("ctrl+Tab")
        app.wait_for(lambda s, e=expected: s == f"tab {e}")  # type: ignore[misc]
    for expected in reversed(VIEWS):
        app.read()
        app.key("ctrl+shift+Tab")
        app.wait_for(lambda s, e=expected: s == f"tab {e}")  # type: ignore[misc]
    for index in (1, 3, 0, 2):
        app.show(index)


def _cycle(app: App, key: str, view: str) -> list[Focus]:
    """Press ``key`` until the focus comes back to where the first press put it; every press
    must move the focus (a table keeping it is a trap). The widgets visited, in order."""
    first = app.press_for_focus(key)
    assert first is not None, f"{view}: {key} moved the focus nowhere"
    visited = [first]
    for _ in range(40):
        current = app.press_for_focus(key)
        assert current is not None, f"{view}: {key} did not leave {visited[-1]}"
        if current.address == first.address:
            return visited
        visited.append(current)
    raise AssertionError(f"{view}: {key} did not come round in 40 presses: {visited}")


@pytest.mark.parametrize("index", range(len(VIEWS)), ids=VIEWS)
def test_tab_and_shift_tab_go_round_each_view_and_leave_every_table(app: App, index: int) -> None:
    view = VIEWS[index]
    app.show(index)
    deadline = time.monotonic() + 20
    while True:  # the view's tables appear once its data are loaded
        forward = _cycle(app, "Tab", view)
        if TABLES[view] <= {f.name for f in forward if f.is_table}:
            break
        assert time.monotonic() < deadline, f"{view}: Tab never reached {TABLES[view]}"
        time.sleep(0.3)
    backward = _cycle(app, "shift+Tab", view)
    assert {f.address for f in backward} == {f.address for f in forward}
    # Ctrl+digit while a table has the focus: the next view
    table = next(f for f in forward if f.is_table)
    for _ in range(len(forward)):
        focus = app.press_for_focus("Tab")
        if focus is not None and focus.address == table.address:
            break
    else:
        raise AssertionError(f"{view}: Tab did not come back to {table}")
    app.show((index + 1) % len(VIEWS))


def test_after_a_tab_switch_annotate_grades_at_once(app: App) -> None:
    before = len(app.judgments())
    app.show(1)
    app.show(0)
    app.key("4")
    rows = app.wait_for_judgments(before + 1)
    assert len(rows) == before + 1 and rows[-1][2] == 4
