"""The app's icon for its windows: every PNG size of ``resources/icons/hicolor`` in one QIcon.

The PNGs are rendered from the SVG by ``scripts/render_icon.py``; loading PNGs needs no SVG
plugin, so the bundle (``scripts/build_bundle.py``) can leave Qt's SVG support out. The same
``hicolor`` tree is what the .deb installs for desktop menus.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QIcon

from ndcg_studio._paths import resources_dir

ICON_NAME = "ndcg-studio"


def icon_files() -> list[Path]:
    """The icon's PNGs, smallest first (``hicolor/<n>x<n>/apps/ndcg-studio.png``)."""
    folder = resources_dir() / "icons" / "hicolor"
    found = folder.glob(f"*x*/apps/{ICON_NAME}.png")
    return sorted(found, key=lambda path: int(path.parent.parent.name.partition("x")[0]))


def app_icon() -> QIcon:
    """The window icon (empty when the PNGs are missing: the window manager's default)."""
    icon = QIcon()
    for path in icon_files():
        icon.addFile(str(path))
    return icon
