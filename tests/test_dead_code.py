"""No dead code in the package: vulture finds no unused function, class, method or variable.

Vulture reads the package together with the tests, scripts and benchmarks (a name they use is
alive) and :mod:`tests.dead_code_whitelist` (names used by frameworks or by dynamic dispatch).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _vulture(*paths: str) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "vulture", *paths, "--min-confidence", "60"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 3), proc.stderr  # 3: dead code found
    return proc.stdout.splitlines()


def test_the_package_has_no_dead_code() -> None:
    pytest.importorskip("vulture")
    found = _vulture(
        "ndcg_studio",
        "tests",
        "scripts",
        "benchmarks",
        "docs/hooks",
        "tests/dead_code_whitelist.py",
    )
    assert [line for line in found if line.startswith("ndcg_studio")] == []


def test_vulture_would_report_an_unused_function(tmp_path: Path) -> None:
    pytest.importorskip("vulture")
    module = tmp_path / "m.py"
    module.write_text("def used():\n    return 1\n\n\ndef unused():\n    return 2\n\n\nused()\n")
    found = _vulture(str(module))
    assert len(found) == 1 and "unused function 'unused'" in found[0]
