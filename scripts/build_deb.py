"""Build a Debian/Ubuntu package (.deb) of the bundle with ``dpkg-deb`` (no network).

    python scripts/build_bundle.py && python scripts/build_deb.py  # dist/ndcg-studio_*.deb
    python scripts/build_deb.py --bundle dist/ndcg-studio --version 0.1.0-1 --out dist

What the package installs:

- ``/opt/ndcg-studio/``: the bundle (``scripts/build_bundle.py``), its own Python and Qt;
- ``/usr/bin/ndcg-studio``: a symbolic link to it (the app, and with a subcommand the CLI);
- ``/usr/share/applications/org.ndcgstudio.NDCGStudio.desktop``: the menu entry;
- ``/usr/share/icons/hicolor/*/apps/ndcg-studio.{png,svg}``: the icon in every size;
- ``/usr/share/metainfo/org.ndcgstudio.NDCGStudio.metainfo.xml``: AppStream metadata;
- ``/usr/share/doc/ndcg-studio/copyright``.

``Depends:`` is README's Debian list of Qt's xcb libraries (between its ``debian-packages``
markers, the list ``.ci/run`` installs), without ``python3-venv``: the bundle has its own
Python. Desktop menus and icon caches are refreshed by the triggers of desktop-file-utils and
hicolor-icon-theme, so the package has no maintainer scripts. The user's data (database,
settings, logs in the platformdirs places under ``$HOME``) are not the package's: removing or
upgrading it leaves them as they are.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINUX = ROOT / "packaging" / "linux"
HICOLOR = ROOT / "resources" / "icons" / "hicolor"
PACKAGE = "ndcg-studio"
APP_ID = "org.ndcgstudio.NDCGStudio"
PREFIX = Path("opt") / PACKAGE
#: README's packages the bundle does not need: it carries its own Python
NOT_FOR_THE_BUNDLE = ("python3-venv",)
#: ``.invalid`` (RFC 2606): no address is published for the team
MAINTAINER = "NDCG Studio team <ndcg-studio@maintainers.invalid>"


def readme_packages(readme: str) -> list[str]:
    """The packages of the ``apt install`` line between README's ``debian-packages`` markers
    (read as ``.ci/run`` reads them)."""
    start = readme.index("<!-- debian-packages -->")
    block = readme[start : readme.index("<!-- /debian-packages -->", start)]
    line = re.search(r"apt install ([^`]*)", block)
    if line is None:
        raise ValueError("no apt install line between README's debian-packages markers")
    return [word for word in line.group(1).split() if not word.startswith("-")]


def depends(readme: str) -> list[str]:
    """The ``Depends:`` of the package: README's list without :data:`NOT_FOR_THE_BUNDLE`."""
    return [p for p in readme_packages(readme) if p not in NOT_FOR_THE_BUNDLE]


def architecture() -> str:
    return subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()


def control(version: str, arch: str, installed_kib: int, readme: str) -> str:
    return (
        f"Package: {PACKAGE}\n"
        f"Version: {version}\n"
        f"Architecture: {arch}\n"
        f"Maintainer: {MAINTAINER}\n"
        f"Installed-Size: {installed_kib}\n"
        f"Depends: {', '.join(depends(readme))}\n"
        "Section: science\n"
        "Priority: optional\n"
        "Description: judge search results and score runs with NDCG@K\n"
        " NDCG Studio is a desktop tool for judging search results on a 0-4 scale and\n"
        " scoring search runs with NDCG@K, every part of the score visible, with\n"
        " inter-annotator agreement built in. The same program has a command line\n"
        " (ndcg-studio --help). It brings its own Python and Qt (in /opt/ndcg-studio).\n"
    )


def _normalise_modes(tree: Path) -> None:
    """0755 for folders and executables, 0644 for the rest (whatever the build's umask)."""
    for path in [tree, *tree.rglob("*")]:
        if path.is_symlink():
            continue
        executable = path.is_dir() or path.stat().st_mode & 0o111
        path.chmod(0o755 if executable else 0o644)


def stage(bundle: Path, root: Path, version: str) -> None:
    """The package's files under ``root`` (the future ``/``)."""
    shutil.copytree(bundle, root / PREFIX, symlinks=True)
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / PACKAGE).symlink_to(Path("/") / PREFIX / PACKAGE)
    share = root / "usr" / "share"
    (share / "applications").mkdir(parents=True)
    shutil.copy(LINUX / f"{APP_ID}.desktop", share / "applications")
    shutil.copytree(HICOLOR, share / "icons" / "hicolor")
    (share / "metainfo").mkdir()
    metainfo = (LINUX / f"{APP_ID}.metainfo.xml").read_text(encoding="utf-8")
    date = time.strftime("%Y-%m-%d", time.gmtime())
    upstream = version.split("-", maxsplit=1)[0]  # without the Debian revision
    metainfo = metainfo.replace("@VERSION@", upstream).replace("@DATE@", date)
    (share / "metainfo" / f"{APP_ID}.metainfo.xml").write_text(metainfo, encoding="utf-8")
    (share / "doc" / PACKAGE).mkdir(parents=True)
    shutil.copy(LINUX / "copyright", share / "doc" / PACKAGE)
    _normalise_modes(root)


def build_deb(bundle: Path, out: Path, version: str, compression: str = "xz") -> Path:
    """Stage and pack; the path of ``out/ndcg-studio_<version>_<arch>.deb``."""
    if not (bundle / PACKAGE).is_file():
        raise SystemExit(f"build_deb: {bundle / PACKAGE} missing: run scripts/build_bundle.py")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    arch = architecture()
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{PACKAGE}_{version}_{arch}.deb"
    with tempfile.TemporaryDirectory(prefix="ndcg-deb-") as tmp:
        root = Path(tmp) / "root"
        stage(bundle, root, version)
        size = sum(p.lstat().st_size for p in root.rglob("*") if not p.is_dir())
        (root / "DEBIAN").mkdir(mode=0o755)
        (root / "DEBIAN" / "control").write_text(
            control(version, arch, (size + 1023) // 1024, readme), encoding="utf-8"
        )
        subprocess.run(
            [
                "dpkg-deb",
                "--root-owner-group",
                f"-Z{compression}",
                "--build",
                str(root),
                str(target),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return target


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from ndcg_studio import __version__

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / PACKAGE)
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--version", default=__version__, help="default: the app's version")
    parser.add_argument(
        "--compression", default="xz", choices=("xz", "gzip", "zstd", "none"), help="default: xz"
    )
    args = parser.parse_args(argv)
    deb = build_deb(args.bundle.resolve(), args.out.resolve(), args.version, args.compression)
    print(f"{deb}: {deb.stat().st_size / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
