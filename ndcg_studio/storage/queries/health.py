"""The integrity check run before a write (an import, loading the demo)."""

from __future__ import annotations

from sqlalchemy import Connection, text

__all__ = ["quick_check"]


def quick_check(conn: Connection) -> list[str]:
    """SQLite's ``PRAGMA quick_check(3)``: ``["ok"]`` for a sound file, else up to three
    problems. It reads every page once (linear in the file's size). Other dialects: ``["ok"]``.
    """
    if conn.dialect.name != "sqlite":
        return ["ok"]
    return [str(r[0]) for r in conn.execute(text("PRAGMA quick_check(3)"))]
