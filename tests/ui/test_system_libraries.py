"""Qt's xcb plugin without its system libraries: one line naming them and their Debian
packages, exit 1 — from ldd's output (parsed here from a recorded sample), and from a real start
of the app with an ``ldd`` on PATH that reports two libraries missing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ndcg_studio.ui import system_libraries as sl

REPO = Path(__file__).resolve().parents[2]

# `ldd libqxcb.so` on Debian 12 without libxcb-icccm4 and libxcb-keysyms1 (abridged)
LDD_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd4b5f6000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x1)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f5a1c9e8000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f5a1c9d9000)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibfoo-unknown.so.7 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f5a1cb0a000)
"""


def test_ldd_output_is_parsed_into_the_missing_sonames() -> None:
    assert sl.missing_libraries(LDD_MISSING) == [
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libfoo-unknown.so.7",
    ]
    assert sl.missing_libraries("\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x1)\n") == []
    assert sl.missing_libraries("\tnot a dynamic executable\n") == []


def test_the_line_names_libraries_and_debian_packages() -> None:
    line = sl.problem_line(sl.missing_libraries(LDD_MISSING))
    assert "\n" not in line
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1, libfoo-unknown.so.7" in line
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in line
    assert "no known package for libfoo-unknown.so.7" in line


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb;wayland"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "wayland"}, "linux", False),
        ({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"XDG_SESSION_TYPE": "x11"}, "linux", True),
        ({}, "darwin", False),
        ({}, "win32", False),
    ],
)
def test_the_check_applies_where_qt_tries_xcb_first(
    environ: dict[str, str], platform: str, expected: bool
) -> None:
    assert sl.uses_xcb(environ, platform) is expected


def test_the_readme_debian_line_installs_every_mapped_package() -> None:
    """The README's Debian/Ubuntu line (which .ci/run installs) = the packages this module
    names, plus python3-venv for the README's `python3 -m venv`."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- debian-packages -->(.*?)<!-- /debian-packages -->", readme, re.S)
    assert block is not None
    command = re.search(r"apt install ([^`]*)", block.group(1))  # as .ci/run reads it
    assert command is not None
    packages = {w for w in command.group(1).split() if not w.startswith("-")}
    assert packages == set(sl.DEBIAN_PACKAGES.values()) | {"python3-venv"}


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="needs Linux ldd"
)
def test_on_this_machine_nothing_is_missing() -> None:
    """With the README's packages installed (.ci/run does), the real ldd finds everything; a
    package missing from that list fails here in CI."""
    plugin = sl.xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    assert sl.check_xcb({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}) is None
    assert sl.check_xcb({"QT_QPA_PLATFORM": "offscreen"}) is None
    # no X display (and no Wayland one): Qt would abort with "could not connect to display"
    assert sl.check_xcb({"QT_QPA_PLATFORM": "xcb"}) == sl.NO_DISPLAY
    assert sl.check_xcb({"WAYLAND_DISPLAY": "wayland-0"}) is None


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="needs Linux ldd"
)
def test_the_app_prints_one_line_and_exits_1_without_the_libraries(tmp_path: Path) -> None:
    """A real start of the app (``python -m ndcg_studio``) with an ``ldd`` on PATH that runs the
    real one and reports libxcb-icccm and libxcb-keysyms as not found."""
    real = shutil.which("ldd")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "ldd"
    fake.write_text(
        "#!/bin/sh\n"
        f'"{real}" "$@" | sed -e "s#libxcb-icccm.so.4 => .*#libxcb-icccm.so.4 => not found#" '
        '-e "s#libxcb-keysyms.so.1 => .*#libxcb-keysyms.so.1 => not found#"\n'
    )
    fake.chmod(0o755)
    database = tmp_path / "studio.sqlite"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "QT_QPA_PLATFORM": "xcb",
        "PYTHONPATH": str(REPO),
    }
    result = subprocess.run(
        [sys.executable, "-m", "ndcg_studio", "--db", str(database)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in lines[0]
    assert lines[0].endswith("sudo apt install libxcb-icccm4 libxcb-keysyms1")
    assert not database.exists()
