"""The X server the end-to-end tests drive: Xvfb with a window manager (openbox), one per test
module (see ``test_x11.py`` for what is checked and what is needed)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.e2e.x11 import stop


@pytest.fixture(scope="module")
def display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Xvfb on a free display (it picks the number: -displayfd) and openbox on it; the
    environment for X clients."""
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
        ready = tmp_path_factory.mktemp("wm") / "ready"
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
