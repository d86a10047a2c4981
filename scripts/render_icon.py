"""Render the app icon's PNG sizes from its SVG source, with Qt's SVG renderer (PySide6).

    python scripts/render_icon.py          # write the PNGs
    python scripts/render_icon.py --check  # exit 1 when a PNG is missing or differs

Source: ``resources/icons/hicolor/scalable/apps/ndcg-studio.svg``. Output: the freedesktop
``hicolor`` layout next to it (``resources/icons/hicolor/<n>x<n>/apps/ndcg-studio.png``), which
the window (:mod:`ndcg_studio.ui.app_icon`), the bundle and the .deb use as it is, plus
``docs/images/ndcg-studio.png`` (128 px) for the documentation. The PNGs are committed, so
neither a wheel nor a bundle build needs an SVG renderer.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HICOLOR = ROOT / "resources" / "icons" / "hicolor"
SVG = HICOLOR / "scalable" / "apps" / "ndcg-studio.svg"
#: the sizes desktop menus, panels and docks ask for (hicolor's usual set)
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
DOCS_PNG = ROOT / "docs" / "images" / "ndcg-studio.png"
DOCS_SIZE = 128


def png_path(size: int) -> Path:
    return HICOLOR / f"{size}x{size}" / "apps" / "ndcg-studio.png"


def render(size: int) -> bytes:
    """The SVG as a ``size``×``size`` PNG (transparent outside the rounded square)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _ = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def targets() -> dict[Path, int]:
    return {**{png_path(size): size for size in SIZES}, DOCS_PNG: DOCS_SIZE}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    stale = []
    for path, size in targets().items():
        png = render(size)
        if args.check:
            if not path.is_file() or path.read_bytes() != png:
                stale.append(path.relative_to(ROOT))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        print(path.relative_to(ROOT))
    if stale:
        print("stale (run scripts/render_icon.py):", *stale, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
