"""Before Qt starts on Linux: are the system libraries of Qt's ``xcb`` platform plugin there?

Qt aborts (SIGABRT, a core dump and a paragraph that names only ``xcb-cursor0``) when its X11
platform plugin cannot be loaded. This module asks the dynamic linker instead — ``ldd`` of the
wheel's ``PySide6/Qt/plugins/platforms/libqxcb.so``, which lists every library that plugin pulls
in, directly or through ``libQt6XcbQpa``/``libQt6Gui``, and marks the absent ones ``not found`` —
so the app can print one line naming the missing libraries and the Debian packages that provide
them, and exit 1.

It imports nothing from Qt (importing ``PySide6.QtGui`` would itself fail without ``libEGL``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: soname -> Debian/Ubuntu package, for every library ``ldd libqxcb.so`` lists outside the
#: wheel and outside libc/libstdc++ (``dpkg -S`` on Debian 12 with PySide6 6.11).
DEBIAN_PACKAGES: dict[str, str] = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
}


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` reported as ``not found``, in its order, each once.

    ``ldd_output``: ldd's stdout, lines like ``\\tlibxcb-icccm.so.4 => not found``.
    """
    missing: list[str] = []
    for line in ldd_output.splitlines():
        name, arrow, target = line.strip().partition("=>")
        if arrow and target.strip() == "not found" and name.strip() not in missing:
            missing.append(name.strip())
    return missing


NO_DISPLAY = (
    "ndcg-studio: no display to open the window on ($DISPLAY is not set): start it from a "
    "desktop session, or use the command line (ndcg-studio --help)"
)


def problem_line(missing: list[str]) -> str:
    """One line for stderr: what is missing and ``apt install`` of the packages providing it
    (a soname not in :data:`DEBIAN_PACKAGES` is named without a package)."""
    packages = sorted({DEBIAN_PACKAGES[m] for m in missing if m in DEBIAN_PACKAGES})
    unknown = [m for m in missing if m not in DEBIAN_PACKAGES]
    line = (
        "ndcg-studio: Qt's X11 (xcb) platform plugin cannot load, these system libraries are "
        f"missing: {', '.join(missing)}"
    )
    if packages:
        line += f"; on Debian/Ubuntu: sudo apt install {' '.join(packages)}"
    if unknown:
        line += f" (no known package for {', '.join(unknown)})"
    return line


def xcb_plugin() -> Path | None:
    """``…/PySide6/Qt/plugins/platforms/libqxcb.so`` of the installed wheel, if present."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def uses_xcb(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt will try its xcb plugin first: Linux, and ``QT_QPA_PLATFORM`` unset (outside
    a Wayland session, where Qt prefers its wayland plugin) or naming xcb first."""
    if not platform.startswith("linux"):
        return False
    requested = environ.get("QT_QPA_PLATFORM", "").strip()
    if requested:
        return requested.split(";")[0].split(":")[0] == "xcb"
    return not (environ.get("XDG_SESSION_TYPE") == "wayland" and environ.get("WAYLAND_DISPLAY"))


def check_xcb(environ: Mapping[str, str] | None = None) -> str | None:
    """The line to print when Qt's xcb plugin lacks system libraries or there is no display
    (Qt would abort on either), else None.

    None also when the check does not apply (not Linux, another platform plugin requested) or
    cannot be made (no ``ldd`` on PATH, no plugin, ldd failing): Qt then reports for itself.
    """
    environ = os.environ if environ is None else environ
    if not uses_xcb(environ):
        return None
    plugin = xcb_plugin()
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None:
        return None
    try:
        result = subprocess.run(
            [ldd, str(plugin)], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    missing = missing_libraries(result.stdout)
    if missing:
        return problem_line(missing)
    if not environ.get("DISPLAY") and not environ.get("WAYLAND_DISPLAY"):
        return NO_DISPLAY
    return None
