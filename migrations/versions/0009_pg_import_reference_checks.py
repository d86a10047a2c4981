"""PostgreSQL: an import's reference checks as one anti-join each

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 02:10:00

Migration 0008 checks the references of the rows a statement writes into ``judgments``,
``results`` and ``judgment_history`` once per statement. Inside an import, which holds its
parents locked against writers (``ndcg_lock_for_import()``), that check counted the distinct
references of the new rows and the parents found among them with ``p.id IN (SELECT …)``, which
the planner ran as one index probe per distinct reference (it cannot estimate the distinct count
of a transition table): 906,179 probes for a million qrels lines, a third of the time of copying
the judgments, and as much of a million-line run (``EXPLAIN ANALYZE``; ``benchmarks/README.md``,
section "PostgreSQL at SQLite's pace").

Here that branch counts the new rows whose parent is missing with ``NOT EXISTS``, planned anew
for each statement (``EXECUTE``), so the planner knows the transition table's size: a hash
anti-join for an import's million rows, index probes for a few. Same outcome — a missing
parent raises SQLSTATE 23503 with PostgreSQL's wording, nothing written. Outside an import (the
app's writes) the check locks the parents ``FOR KEY SHARE`` as before. Functions only: no table
or row changes, on SQLite nothing at all.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _m0008() -> ModuleType:
    """Migration 0008 (its references, messages and functions), loaded from beside this file."""
    path = next(Path(__file__).resolve().parent.glob("0008_*.py"))
    spec = importlib.util.spec_from_file_location("ndcg_migration_0008", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _child_function(m: ModuleType, schema: str, child: str) -> str:
    checks = []
    for table, column, parent, _ in m.REFERENCES:
        if table != child:
            continue
        message = (
            f'insert or update on table "{child}" violates foreign key constraint '
            f'"{m._fk_name(child, column, parent)}"'
        )
        anti_join = (
            f"SELECT count(*) FROM new_rows n WHERE n.{column} IS NOT NULL "
            f"AND NOT EXISTS (SELECT 1 FROM {parent} p WHERE p.id = n.{column})"
        )
        checks.append(f"""
  IF {m._holds_writers_off(parent)} THEN
    EXECUTE '{anti_join}' INTO missing;
  ELSE
    SELECT count(*) INTO wanted FROM (SELECT DISTINCT {column} FROM new_rows n
                                       WHERE {column} IS NOT NULL) s;
    PERFORM 1 FROM {parent} p WHERE p.id IN (SELECT {column} FROM new_rows) FOR KEY SHARE OF p;
    GET DIAGNOSTICS found = ROW_COUNT;
    missing := wanted - found;
  END IF;
  IF missing > 0 THEN
    RAISE EXCEPTION '{message}' USING ERRCODE = 'foreign_key_violation',
      DETAIL = 'A referenced row is not present in table "{parent}".';
  END IF;""")
    body = "".join(checks)
    if child == "judgment_history":  # as in 0008: rows the history triggers write are not checked
        body = f"\n  IF pg_trigger_depth() > 1 THEN\n    RETURN NULL;\n  END IF;{body}"
    declare = "DECLARE\n  wanted bigint;\n  found bigint;\n  missing bigint;\n"
    function = m._function(f"ndcg_references_of_{child}", schema, body, declare)
    return str(function).replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = str(bind.execute(sa.text("SELECT current_schema()")).scalar_one())
    m = _m0008()
    for child in m._children():
        op.execute(_child_function(m, schema, child))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = str(bind.execute(sa.text("SELECT current_schema()")).scalar_one())
    m = _m0008()
    for child in m._children():
        op.execute(
            m._child_function(schema, child).replace(
                "CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1
            )
        )
