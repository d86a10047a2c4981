"""The app as a person uses it, for the end-to-end tests: a real X server (Xvfb, 1024×700)
with a window manager (openbox), the app started as a process on Qt's ``xcb`` platform, and
nothing but X11 key presses (xdotool) — no ``setFocus()``, no clicks.

What the app does is read from the SQLite file (judgments) and from the log it writes when
``$NDCG_STUDIO_E2E_LOG`` is set (:mod:`ndcg_studio.ui.e2e_log`: focus changes, tab changes,
the query shown in Annotate).

Used by ``tests/e2e/test_x11.py`` (the pip-installed app) and ``tests/packaging`` (the bundle
and the .deb). Needs ``Xvfb``, ``xdotool`` and ``openbox`` (Debian: xvfb, xdotool, openbox;
.ci/run installs them): :func:`require_tools` skips a test module with the reason when one is
absent, unless ``$NDCG_STUDIO_E2E_REQUIRED`` is set (.ci/run sets it), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TOOLS = ("Xvfb", "xdotool", "openbox")
#: the annotator name typed at the first start
NAME = "e2e-tester"


def require_tools() -> None:
    """Skip (or, with ``$NDCG_STUDIO_E2E_REQUIRED``, fail) the calling test module unless this
    is Linux with Xvfb, xdotool and openbox."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if sys.platform.startswith("linux") and not missing:
        return
    reason = (
        "the X11 end-to-end tests need Linux with Xvfb, xdotool and openbox "
        f"(apt install xvfb xdotool openbox); missing: {', '.join(missing) or sys.platform}"
    )
    if os.environ.get("NDCG_STUDIO_E2E_REQUIRED"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)


@dataclass(frozen=True)
class Focus:
    address: str
    cls: str
    name: str
    is_table: bool


@dataclass
class App:
    """A running app: its process, the environment of the X tools (``xdotool``), its log."""

    process: subprocess.Popen[bytes]
    env: dict[str, str]
    log_path: Path
    db_path: Path
    position: int = 0
    lines: list[str] = field(default_factory=list)
    tab: str = ""  # the current tab, as last logged

    def read(self) -> list[str]:
        """Lines the app logged since the last read."""
        with self.log_path.open(encoding="utf-8") as handle:
            handle.seek(self.position)
            text = handle.read()
        complete, _, _partial = text.rpartition("\n")
        if not complete and not text.endswith("\n"):
            return []
        self.position += len(complete) + 1
        new = complete.split("\n") if complete else []
        self.lines.extend(new)
        for line in new:
            if line.startswith("tab "):
                self.tab = line[4:]
        return new

    def wait_for(self, predicate: Callable[[str], bool], timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.read():
                if predicate(line):
                    return line
            assert self.process.poll() is None, f"the app exited ({self.process.returncode})"
            time.sleep(0.02)
        raise AssertionError(f"not logged within {timeout} s; last lines: {self.lines[-8:]}")

    def key(self, *keys: str) -> None:
        """Press ``keys`` (xdotool names) on whatever window has the X input focus."""
        subprocess.run(["xdotool", "key", *keys], env=self.env, check=True, timeout=10)

    def press_for_focus(self, key: str, timeout: float = 5.0) -> Focus | None:
        """Press ``key``; the widget that got the focus, or None when the focus did not move."""
        self.read()
        self.key(key)
        try:  # "focus none": in between two widgets
            line = self.wait_for(lambda s: s.startswith("focus ") and s != "focus none", timeout)
        except AssertionError:
            return None
        _, address, cls, name, kind = line.split()
        return Focus(address, cls, name, kind == "table")

    def wait_active(self, title_part: str, timeout: float = 10.0) -> None:
        """Wait until the window with the X input focus has ``title_part`` in its title (a
        person, too, types once the window is there)."""
        deadline = time.monotonic() + timeout
        title = ""
        while time.monotonic() < deadline:
            result = subprocess.run(
                ["xdotool", "getactivewindow", "getwindowname"],
                env=self.env,
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
            title = result.stdout.strip()
            if title_part in title:
                return
            time.sleep(0.05)
        raise AssertionError(f"the active window is {title!r}, not {title_part!r}")

    def judgments(self) -> list[tuple[str, str, int]]:
        with sqlite3.connect(self.db_path) as con:
            return con.execute(
                "SELECT q.external_id, d.external_id, j.grade FROM judgments j "
                "JOIN annotators a ON a.id = j.annotator_id "
                "JOIN queries q ON q.id = j.query_id JOIN documents d ON d.id = j.document_id "
                "WHERE a.name = ? ORDER BY j.id",
                (NAME,),
            ).fetchall()

    def wait_for_judgments(self, n: int, timeout: float = 10.0) -> list[tuple[str, str, int]]:
        """The judgments of :data:`NAME` once there are ``n`` (or all there are after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        rows = self.judgments()
        while len(rows) < n and time.monotonic() < deadline:
            time.sleep(0.05)
            rows = self.judgments()
        return rows

    def quit(self) -> None:
        """Ctrl+Q (File ▸ Quit) once the main window has the keyboard; the app must exit with
        0. A press made while the window manager was still handing the focus back from a
        closing dialog reaches no window (as for a person): then Ctrl+Q again."""
        self.wait_active("NDCG Studio")
        self.key("ctrl+q")
        try:
            code = self.process.wait(8)
        except subprocess.TimeoutExpired:
            self.wait_active("NDCG Studio")
            self.key("ctrl+q")
            try:
                code = self.process.wait(15)
            except subprocess.TimeoutExpired as exc:
                title = subprocess.run(
                    ["xdotool", "getactivewindow", "getwindowname"],
                    env=self.env,
                    capture_output=True,
                    text=True,
                    check=False,
                    timeout=10,
                ).stdout.strip()
                self.read()
                raise AssertionError(
                    f"the app did not quit; active window {title!r}; last lines {self.lines[-6:]}"
                ) from exc
        assert code == 0


def stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextmanager
def x_display(folder: Path) -> Iterator[dict[str, str]]:
    """Xvfb on a free display (it picks the number: -displayfd) and openbox on it; yields the
    environment for X clients (this process's, with ``DISPLAY``). ``folder``: for a file."""
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1024x700x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    wm: subprocess.Popen[bytes] | None = None
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        assert number.isdigit(), "Xvfb did not start"
        env = {
            k: v for k, v in os.environ.items() if k not in {"WAYLAND_DISPLAY", "NDCG_STUDIO_DB"}
        }
        env["DISPLAY"] = f":{number}"
        ready = folder / "openbox-ready"
        # openbox runs --startup once it manages the screen
        wm = subprocess.Popen(
            ["openbox", "--startup", f"touch {ready}"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while not ready.exists():
            assert time.monotonic() < deadline and wm.poll() is None, "openbox did not start"
            time.sleep(0.02)
        yield env
    finally:
        stop(wm)
        stop(xvfb)


def user_env(home: Path) -> dict[str, str]:
    """The variables of a user with their own empty home (no remembered annotator: the first
    start asks for a name), on the real xcb platform, logging for the tests."""
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "QT_QPA_PLATFORM": "xcb",  # .ci/run exports offscreen for the rest of the suite
        "NDCG_STUDIO_E2E_LOG": str(home / "e2e.log"),
    }


def launch(
    command: Sequence[str], env: Mapping[str, str], tool_env: dict[str, str], db_path: Path
) -> App:
    """Start ``command`` (the app) with ``env``; its stderr goes to ``$HOME/app.stderr``.
    ``tool_env``: the environment xdotool runs with (``DISPLAY``, a ``PATH`` that has it)."""
    home = Path(env["HOME"])
    log_path = Path(env["NDCG_STUDIO_E2E_LOG"])
    log_path.write_text("")  # a start of the same home reads this start's lines only
    with (home / "app.stderr").open("wb") as stderr:
        process = subprocess.Popen(
            list(command), env=dict(env), stdout=subprocess.DEVNULL, stderr=stderr
        )
    return App(process, tool_env, log_path, db_path)


def cli(env: Mapping[str, str], db: Path | str, *args: str) -> None:
    """Run ``ndcg-studio --db DB ARGS…`` as its own process (a person's terminal); it must
    succeed."""
    made = subprocess.run(
        [sys.executable, "-m", "ndcg_studio", "--db", str(db), *args],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stderr


@contextmanager
def running(db: Path | str, env: Mapping[str, str], db_path: Path | None = None) -> Iterator[App]:
    """The app on ``db`` (a path or URL) as a process (:func:`launch`); when the block ends,
    Ctrl+Q if it still runs, else it is stopped, and its stderr must hold no traceback.
    ``db_path``: the SQLite file :meth:`App.judgments` reads (default: ``db``)."""
    home = Path(env["HOME"])
    command = [sys.executable, "-m", "ndcg_studio", "--db", str(db)]
    app = launch(command, env, env, db_path if db_path is not None else Path(db))
    try:
        yield app
        if app.process.poll() is None:
            app.quit()
    finally:
        stop(app.process)
        stderr = app_stderr(home)
        assert "Traceback" not in stderr, stderr


def wait_mapped(app: App, name: str, timeout: float = 30.0) -> None:
    """Until a visible window whose name contains ``name`` is mapped. ``xdotool search``
    is asked again until it finds one: a window destroyed while it walks the window tree makes
    it exit with X's BadWindow (the app's short-lived windows at start-up), which is no answer."""
    deadline = time.monotonic() + timeout
    while True:
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--name", name],
            env=app.env,
            check=False,
            capture_output=True,
            text=True,
            timeout=10,
        )
        if found.returncode == 0 and found.stdout.strip():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"no visible window named {name!r} in {timeout} s: {found.stderr}")
        time.sleep(0.1)


def first_start(app: App) -> None:
    """What a person does at the first start, to grade: the window is mapped and Annotate asks
    who is annotating; Enter, the name (:data:`NAME`) typed, Enter; waits until the first query
    is shown. (Nobody is asked before grading starts: an analyst needs no name.)"""
    wait_mapped(app, "— NDCG Studio")
    app.wait_active("— NDCG Studio")
    app.wait_for(lambda s: s.startswith("focus ") and "DocumentPanel" in s, timeout=20)
    if not any(line.startswith("query ") for line in app.lines):  # the first document shown
        app.wait_for(lambda s: s.startswith("query "), timeout=20)
    app.key("Return")
    app.wait_for(lambda s: s.startswith("dialog Welcome to NDCG Studio"), timeout=20)
    app.wait_active("Welcome to NDCG Studio")
    app.key("ctrl+a")
    subprocess.run(["xdotool", "type", NAME], env=app.env, check=True, timeout=10)
    app.key("Return")
    app.wait_for(lambda s: s.startswith("query "), timeout=20)  # the first query is shown
    app.wait_active("— NDCG Studio")


def first_start_then_3(app: App) -> None:
    """:func:`first_start`, and — as soon as the first document is shown — ``3``."""
    first_start(app)
    app.key("3")


def app_stderr(home: Path) -> str:
    """What the app wrote to stderr (:func:`launch`)."""
    return (home / "app.stderr").read_text(errors="replace")
