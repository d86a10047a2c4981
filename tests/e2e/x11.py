"""What the X11 end-to-end tests share: the app as a process they drive with xdotool and read
through its end-to-end log and its database (:class:`App`), and stopping a process."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

#: the annotator name the tests type at the first start
NAME = "e2e-tester"
#: what the tests need besides Python (Debian: xvfb, xdotool, openbox; .ci/run installs them)
TOOLS = ("Xvfb", "xdotool", "openbox")
#: the tabs, in order
VIEWS = ("Annotate", "Review", "Agreement", "Compare", "Stability")


@dataclass(frozen=True)
class Focus:
    address: str
    cls: str
    name: str
    is_table: bool


@dataclass
class App:
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

    def show(self, index: int) -> None:
        """Ctrl+(index + 1); waits for the tab to change unless it was current already."""
        self.read()
        self.key(f"ctrl+{index + 1}")
        if self.tab != VIEWS[index]:
            self.wait_for(lambda s: s == f"tab {VIEWS[index]}")

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


def stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def require_x11() -> None:
    """Skip the calling test module, with the reason, when Xvfb, xdotool or openbox is absent
    (or not on Linux); fail instead when ``$NDCG_STUDIO_E2E_REQUIRED`` is set (.ci/run)."""
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
