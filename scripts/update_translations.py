"""Collect the GUI's text into resources/i18n/*.ts and compile them into *.qm.

    python scripts/update_translations.py            # lupdate, then lrelease
    python scripts/update_translations.py --release  # lrelease only (after editing a .ts)

``pyside6-lupdate`` (from the PySide6 wheel) reads every ``ndcg_studio/**/*.py`` and merges its
``tr`` / ``QCoreApplication.translate`` / ``QT_TRANSLATE_NOOP`` messages into
``resources/i18n/ndcg_studio_<lang>.ts`` (``-no-obsolete``: a message gone from the code leaves
the file; ``-locations none``: moving code does not change the files). New messages come in as
``type="unfinished"``: translate them (Qt Linguist, ``pyside6-linguist``, or any editor), then
run again so ``pyside6-lrelease`` compiles the ``.qm`` files the app loads (committed, so a
``pip install .`` carries them without Qt's tools at build time).
``tests/ui/test_translations.py`` fails while a message is unfinished or a ``.qm`` is stale.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
#: the translated languages (English is the source)
LANGUAGES = ("zh_CN", "ru")


def tool(name: str) -> str:
    """The path of a PySide6 tool (``pyside6-lupdate``), preferring the running venv's."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: pip install PySide6 (it ships the tool)")
    return found


def ts_path(language: str, folder: Path = I18N) -> Path:
    return folder / f"ndcg_studio_{language}.ts"


def sources(root: Path = ROOT) -> list[str]:
    """Every Python file of the package, relative to ``root``, sorted."""
    return sorted(str(p.relative_to(root)) for p in (root / "ndcg_studio").rglob("*.py"))


def lupdate(ts_file: Path, language: str, root: Path = ROOT) -> None:
    """Merge the messages of the sources into ``ts_file`` (created when missing)."""
    subprocess.run(
        [
            tool("pyside6-lupdate"),
            *sources(root),
            "-no-obsolete",
            "-locations",
            "none",
            "-source-language",
            "en",
            "-target-language",
            language,
            "-silent",
            "-ts",
            str(ts_file),
        ],
        cwd=root,
        check=True,
    )


def lrelease(ts_file: Path, qm_file: Path | None = None) -> Path:
    """Compile ``ts_file`` into ``qm_file`` (default: beside it, ``.qm``)."""
    target = qm_file if qm_file is not None else ts_file.with_suffix(".qm")
    subprocess.run(
        [tool("pyside6-lrelease"), "-silent", str(ts_file), "-qm", str(target)], check=True
    )
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", action="store_true", help="only compile the .ts files")
    args = parser.parse_args(argv)
    I18N.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        if not args.release:
            lupdate(ts_path(language), language)
        print(lrelease(ts_path(language)).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
