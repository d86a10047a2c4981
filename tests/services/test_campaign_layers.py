"""The campaign services: their SQL lives in storage; they import neither sqlalchemy
nor storage.models at run time (type-checking imports allowed)."""

from __future__ import annotations

import ast
from pathlib import Path

import ndcg_studio

SERVICES = Path(ndcg_studio.__file__).parent / "services" / "campaigns"


def _runtime_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []  # imports only for the type checker
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_campaign_services_leave_sql_to_storage() -> None:
    files = sorted(SERVICES.glob("*.py"))
    assert len(files) == 6  # the door and five modules
    for path in files:
        names = _runtime_imports(path)
        bad = {n for n in names if n.startswith("sqlalchemy") or "storage.models" in n}
        bad |= {n for n in names if n == "ndcg_studio.storage.models"}
        assert not bad, f"{path.name} imports {sorted(bad)}"
    # the test would see such an import
    probe = SERVICES.parents[1] / "storage" / "campaigns" / "queue.py"
    assert any(n.startswith("sqlalchemy") for n in _runtime_imports(probe))
