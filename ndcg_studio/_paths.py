"""Where the files that ship with the package live: Alembic migrations and resources.

In an installed wheel they are inside the package (``ndcg_studio/_migrations``,
``ndcg_studio/_resources``, mapped there by ``pyproject.toml``); in a source checkout they are the
top-level ``migrations/`` and ``resources/`` folders. Standard library only: every layer may use it.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _locate(installed: str, checkout: str) -> Path:
    for candidate in (_PACKAGE / installed, _PACKAGE.parent / checkout):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"NDCG Studio is incomplete: neither {_PACKAGE / installed} nor "
        f"{_PACKAGE.parent / checkout} exists; reinstall the package"
    )


def migrations_dir() -> Path:
    """The Alembic script directory (contains ``env.py`` and ``versions/``)."""
    return _locate("_migrations", "migrations")


def resources_dir() -> Path:
    """The resources folder (demo data, icons)."""
    return _locate("_resources", "resources")
