"""The app as a person uses it (:mod:`tests.e2e.x11`): a real X server with a window manager,
the installed app started as a process on Qt's ``xcb`` platform, and nothing but X11 key
presses.

Checked: the first start asks for a name (typed, Enter) and ``3`` pressed right after that
grades the first document; every tab is reached with Ctrl+Tab, Ctrl+Shift+Tab and Ctrl+1…4,
also while a table has the focus; in every view Tab and Shift+Tab go round the view's widgets,
leaving every table at the next press; back on Annotate ``4`` grades again; Ctrl+Q quits.

Skipped with the reason without Xvfb, xdotool or openbox, unless ``$NDCG_STUDIO_E2E_REQUIRED``
is set (.ci/run sets it), where that is a failure.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.e2e.x11 import (
    App,
    Focus,
    cli,
    first_start_then_3,
    require_tools,
    running,
    user_env,
    x_display,
)

require_tools()

pytestmark = pytest.mark.slow

VIEWS = ("Annotate", "Review", "Agreement", "Compare", "Stability")
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


def show(app: App, index: int) -> None:
    """Ctrl+(index + 1); waits for the tab to change unless it was current already."""
    app.read()
    app.key(f"ctrl+{index + 1}")
    if app.tab != VIEWS[index]:
        app.wait_for(lambda s: s == f"tab {VIEWS[index]}")


@pytest.fixture(scope="module")
def display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Xvfb and openbox; the environment for X clients."""
    with x_display(tmp_path_factory.mktemp("wm")) as env:
        yield env


@pytest.fixture(scope="module")
def app(display: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The app on a fresh demo database (made with the CLI), with its own empty home, as a
    person starts it (:func:`tests.e2e.x11.first_start_then_3`;
    :func:`test_3_right_after_start_grades_the_first_document` checks the result; the other
    tests need an annotator)."""
    home = tmp_path_factory.mktemp("home")
    db_path = home / "demo.sqlite"
    env = {**display, **user_env(home)}
    cli(env, db_path, "demo")
    with running(db_path, env) as app:
        first_start_then_3(app)
        yield app


def test_3_right_after_start_grades_the_first_document(app: App) -> None:
    rows = app.wait_for_judgments(1)
    assert rows and rows[0][0] == "1" and rows[0][2] == 3  # query 1, its first document


def test_every_tab_with_ctrl_tab_ctrl_shift_tab_and_ctrl_digits(app: App) -> None:
    show(app, 0)
    for expected in (*VIEWS[1:], VIEWS[0]):
        app.read()
        app.key("ctrl+Tab")
        app.wait_for(lambda s, e=expected: s == f"tab {e}")  # type: ignore[misc]
    for expected in reversed(VIEWS):
        app.read()
        app.key("ctrl+shift+Tab")
        app.wait_for(lambda s, e=expected: s == f"tab {e}")  # type: ignore[misc]
    for index in (1, 3, 0, 2):
        show(app, index)


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
    show(app, index)
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
    show(app, (index + 1) % len(VIEWS))


def test_after_a_tab_switch_annotate_grades_at_once(app: App) -> None:
    before = len(app.judgments())
    show(app, 1)
    show(app, 0)
    app.key("4")
    rows = app.wait_for_judgments(before + 1)
    assert len(rows) == before + 1 and rows[-1][2] == 4
