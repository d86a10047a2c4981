"""Fixtures of the packaging tests: the scripts and spec helpers as modules, the bundle (built
once per session with ``scripts/build_bundle.py``), an X display, a user without Python."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load(relative: str) -> ModuleType:
    """A script of the repository (``scripts/build_deb.py``, …) as a module."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses and typing look modules up by name
    spec.loader.exec_module(module)
    return module


def requirement(reason: str) -> None:
    """Skip with ``reason``, or fail under ``$NDCG_STUDIO_E2E_REQUIRED`` (.ci/run sets it)."""
    if os.environ.get("NDCG_STUDIO_E2E_REQUIRED"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one-folder bundle, built from this checkout into a temporary folder."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the bundle tests run on Linux (docs/install.md: Windows, macOS)")
    if importlib.util.find_spec("PyInstaller") is None:
        requirement('the bundle tests need PyInstaller: pip install -e ".[test,build]"')
    build_bundle = load("scripts/build_bundle.py")
    work = tmp_path_factory.mktemp("bundle-work")
    folder: Path = build_bundle.build(tmp_path_factory.mktemp("bundle-dist"), work)
    shutil.rmtree(work)  # PyInstaller's work files: as large as the bundle
    return folder


@pytest.fixture(scope="session")
def display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Xvfb and openbox (:func:`tests.e2e.x11.x_display`); the environment of the X tools."""
    from tests.e2e.x11 import require_tools, x_display

    require_tools()
    with x_display(tmp_path_factory.mktemp("wm")) as env:
        yield env


def without_python(folder: Path) -> str:
    """A ``PATH`` with no Python on it: ``folder``, holding only ``ldd`` (the app's check of
    Qt's system libraries runs it)."""
    folder.mkdir(parents=True, exist_ok=True)
    ldd = shutil.which("ldd")
    if ldd is not None and not (folder / "ldd").exists():
        (folder / "ldd").symlink_to(ldd)
    for name in ("python", "python3", f"python3.{sys.version_info.minor}"):
        assert shutil.which(name, path=str(folder)) is None, name
    return str(folder)


def desktop_user(display: dict[str, str], home: Path, path: str) -> dict[str, str]:
    """The whole environment of a person on the X display with a fresh home and ``PATH``:
    no ``PYTHONPATH``/``PYTHONHOME``, no virtual environment, a UTF-8 locale."""
    from tests.e2e.x11 import user_env

    home.mkdir(parents=True, exist_ok=True)
    return {"DISPLAY": display["DISPLAY"], "LANG": "C.UTF-8", "PATH": path, **user_env(home)}
