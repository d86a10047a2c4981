"""The layer rule, checked with import-linter contracts from pyproject.toml, plus a direct scan.

domain imports neither Qt nor SQLAlchemy; only ui imports PySide6; ui/cli above services above
storage/io above domain.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ndcg_studio"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_import_linter_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run(
        [str(lint), "--config", str(PACKAGE.parent / "pyproject.toml")],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: " in proc.stdout and " broken" in proc.stdout
    assert "0 broken" in proc.stdout


def test_only_ui_imports_qt_and_domain_is_pure() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        layer = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        for module in _imports(path):
            top = module.split(".")[0]
            if top in {"PySide6", "shiboken6"} and layer != "ui":
                offenders.append(f"{rel}: {module}")
            if layer == "domain" and top in {"sqlalchemy", "alembic", "psycopg", "PySide6"}:
                offenders.append(f"{rel}: {module}")
    assert offenders == []


def test_the_scan_would_catch_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtCore import QObject\nimport sqlalchemy as sa\n")
    assert {"PySide6.QtCore", "sqlalchemy"} <= _imports(bad)
