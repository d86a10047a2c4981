"""Build NDCG Studio's one-folder bundle with PyInstaller (``pip install ".[build]"`` first).

    python scripts/build_bundle.py                  # dist/ndcg-studio/
    python scripts/build_bundle.py --dist OUT --work TMP

The bundle (``packaging/ndcg-studio.spec``) holds its own Python, Qt (with Qt's ``.qm``
translations), the Alembic migrations, the resources (demo data, translations, icon) and two
executables: ``ndcg-studio`` (the app; with a subcommand, the command line) and
``ndcg-studio-cli``. It needs no Python on the machine it runs on; on Linux it needs the system
libraries of Qt's xcb platform (README's Debian list), which the .deb depends on
(``scripts/build_deb.py``). It is built for the platform it is built on: Windows and macOS
builds are described in ``docs/install.md``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "ndcg-studio.spec"
NAME = "ndcg-studio"


def folder_size(folder: Path) -> int:
    """Bytes of the regular files under ``folder`` (symlinks not followed nor counted)."""
    return sum(
        path.stat().st_size
        for path in folder.rglob("*")
        if path.is_file() and not path.is_symlink()
    )


def build(dist: Path, work: Path, python: str = sys.executable) -> Path:
    """Run PyInstaller on the spec; the bundle folder (``dist/ndcg-studio``)."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    # the spec's collect_submodules imports the app's modules in a subprocess: no display there
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    subprocess.run(
        [
            python,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level",
            "WARN",
            "--distpath",
            str(dist),
            "--workpath",
            str(work),
            str(SPEC),
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    bundle = dist / NAME
    for executable in (NAME, f"{NAME}-cli"):
        suffix = ".exe" if sys.platform == "win32" else ""
        if not (bundle / f"{executable}{suffix}").is_file():
            raise SystemExit(f"build_bundle: {executable}{suffix} missing from {bundle}")
    return bundle


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="default: dist/")
    parser.add_argument(
        "--work", type=Path, default=ROOT / "build" / "bundle", help="default: build/bundle/"
    )
    args = parser.parse_args(argv)
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit('build_bundle: PyInstaller is missing: pip install ".[build]"')
    bundle = build(args.dist.resolve(), args.work.resolve())
    print(f"{bundle}: {folder_size(bundle) / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
