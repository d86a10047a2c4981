"""Fixtures of the io tests: data folders and a helper that writes test files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TEST_DATA = REPO / "tests" / "data"
DEMO = REPO / "resources" / "demo"
CRANFIELD = DEMO / "cranfield"
# Licence-less or large data sets stay outside the repository (see the project brief).
SHARED_DATA = (REPO / ".." / "shared" / "data").resolve()
DIKU = SHARED_DATA / "diku_relevance_credibility"

WriteFile = Callable[[str, "str | bytes"], Path]


@pytest.fixture
def write_file(tmp_path: Path) -> WriteFile:
    """``write_file(name, content)``: str content is written as UTF-8 bytes verbatim (no
    newline translation), bytes as they are. Returns the path."""

    def write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)
        return path

    return write


def need(path: Path) -> Path:
    """Skip the test with a clear reason when a data file outside the repo is absent."""
    if not path.exists():
        pytest.skip(f"test data not available: {path} (kept outside the repository)")
    return path
