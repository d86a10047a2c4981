"""PostgreSQL: the references of judgments, results and their history checked set-wise

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 00:35:00

PostgreSQL checks a foreign key with one row-level trigger call per written row (a prepared
``SELECT … FOR KEY SHARE`` on the parent): importing a million qrels lines made 3 million such
calls for ``judgments`` and 4 million for the ``judgment_history`` rows its trigger writes, a
million-line run 3 million for ``results`` — 85-90% of the server's time of those imports
(``EXPLAIN ANALYZE``, ``benchmarks/README.md``). SQLite's imports skip the checks (its write lock
keeps the ids they just read or created valid), hence the gap between the two.

On PostgreSQL only, the ten foreign keys of these three tables are replaced by statement-level
triggers with transition tables that do the same work once per statement:

- on the referencing table, AFTER INSERT and AFTER UPDATE: every referenced parent of the new
  rows is locked ``FOR KEY SHARE`` (as PostgreSQL's own check does, so a concurrent DELETE of a
  parent waits for this transaction, and a parent deleted meanwhile is missing) in one
  statement per reference; a missing one raises SQLSTATE 23503 (``foreign_key_violation``) with
  PostgreSQL's own wording;
- on the parent (queries, documents, annotators, runs), AFTER DELETE: the referencing rows are
  deleted (``ON DELETE CASCADE``; ``judgment_history.changed_by``: set NULL) in one statement
  each, judgments and results before the history; AFTER UPDATE: a changed id still referenced
  is refused (``NO ACTION``); BEFORE TRUNCATE: refused while referencing rows exist.

The functions are SECURITY DEFINER of the owner, as PostgreSQL runs its own checks (an
annotator login needs no lock privilege on the parents). Same outcomes as the foreign keys:
the same rows refused with the same SQLSTATE, the same cascades; on SQLite nothing changes (the
foreign keys of ``models.py`` stay its schema). ``tests/storage/test_database.py`` compares the
PostgreSQL schema with ``models.py`` less these ten foreign keys.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (referencing table, column, parent, on delete) — the foreign keys replaced, in the order the
#: parents' cascades run them (the history last: deleting judgments writes history rows).
REFERENCES = (
    ("judgments", "query_id", "queries", "CASCADE"),
    ("judgments", "document_id", "documents", "CASCADE"),
    ("judgments", "annotator_id", "annotators", "CASCADE"),
    ("results", "query_id", "queries", "CASCADE"),
    ("results", "run_id", "runs", "CASCADE"),
    ("results", "document_id", "documents", "CASCADE"),
    ("judgment_history", "query_id", "queries", "CASCADE"),
    ("judgment_history", "document_id", "documents", "CASCADE"),
    ("judgment_history", "annotator_id", "annotators", "CASCADE"),
    ("judgment_history", "changed_by", "annotators", "SET NULL"),
)


def _fk_name(child: str, column: str, parent: str) -> str:
    return f"fk_{child}_{column}_{parent}"


#: The parents an import locks against other writers for its whole transaction
#: (``ndcg_lock_for_import()``, called by ``storage.imports.import_transaction``).
IMPORT_LOCKED = ("queries", "documents")


def _holds_writers_off(parent: str) -> str:
    """SQL: whether this transaction holds a lock on ``parent`` that no writer of it can share
    (SHARE ROW EXCLUSIVE or stronger): then no parent can be deleted or changed before this
    transaction ends, and existence is checked without locking each parent row."""
    return (
        "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'relation' "
        f"AND l.relation = '{parent}'::regclass AND l.pid = pg_backend_pid() AND l.granted "
        "AND l.mode IN ('ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'))"
    )


def _lock_function(schema: str) -> str:
    """``ndcg_lock_for_import()``: the import's lock on the big parents (SECURITY DEFINER, so an
    annotator login's import takes it too). Imports then run one after the other, as SQLite's
    ``BEGIN IMMEDIATE`` makes them; readers and the app's judgment writes (which lock parent
    rows ``FOR KEY SHARE``, a ROW SHARE table lock) are not blocked."""
    tables = ", ".join(IMPORT_LOCKED)
    return f"""
CREATE FUNCTION ndcg_lock_for_import() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = "{schema}", pg_temp AS $$
BEGIN
  LOCK TABLE {tables} IN SHARE ROW EXCLUSIVE MODE;
END $$"""


def _still_referenced(child: str, column: str, parent: str) -> str:
    return (
        f'update or delete on table "{parent}" violates foreign key constraint '
        f'"{_fk_name(child, column, parent)}" on table "{child}"'
    )


def _children() -> list[str]:
    return list(dict.fromkeys(child for child, *_ in REFERENCES))


def _parents() -> list[str]:
    return list(dict.fromkeys(parent for _, _, parent, _ in REFERENCES))


def _function(name: str, schema: str, body: str, declare: str = "") -> str:
    return f"""
CREATE FUNCTION {name}() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = "{schema}", pg_temp AS $$
{declare}BEGIN
{body}
  RETURN NULL;
END $$"""


def _child_function(schema: str, child: str) -> str:
    checks = []
    for table, column, parent, _ in REFERENCES:
        if table != child:
            continue
        message = (
            f'insert or update on table "{child}" violates foreign key constraint '
            f'"{_fk_name(child, column, parent)}"'
        )
        checks.append(f"""
  SELECT count(*) INTO wanted FROM (SELECT DISTINCT {column} FROM new_rows n
                                     WHERE {column} IS NOT NULL) s;
  IF {_holds_writers_off(parent)} THEN
    SELECT count(*) INTO found FROM {parent} p WHERE p.id IN (SELECT {column} FROM new_rows);
  ELSE
    PERFORM 1 FROM {parent} p WHERE p.id IN (SELECT {column} FROM new_rows) FOR KEY SHARE OF p;
    GET DIAGNOSTICS found = ROW_COUNT;
  END IF;
  IF found < wanted THEN
    RAISE EXCEPTION '{message}' USING ERRCODE = 'foreign_key_violation',
      DETAIL = 'A referenced row is not present in table "{parent}".';
  END IF;""")
    body = "".join(checks)
    if child == "judgment_history":
        # Written inside a trigger (pg_trigger_depth() > 1: the history triggers of 0004, the
        # only writers besides the owner's plain SQL), the rows copy the ids of the judgments
        # or adjudications of the same statement, whose own checks refuse it whole if one is
        # missing: checking them again would lock every parent a second time.
        body = f"\n  IF pg_trigger_depth() > 1 THEN\n    RETURN NULL;\n  END IF;{body}"
    declare = "DECLARE\n  wanted bigint;\n  found bigint;\n"
    return _function(f"ndcg_references_of_{child}", schema, body, declare)


def _parent_function(schema: str, parent: str) -> str:
    actions = []
    for child, column, table, on_delete in REFERENCES:
        if table != parent:
            continue
        if on_delete == "CASCADE":
            actions.append(f"    DELETE FROM {child} c USING old_rows o WHERE c.{column} = o.id;")
        else:
            actions.append(
                f"    UPDATE {child} c SET {column} = NULL FROM old_rows o WHERE c.{column} = o.id;"
            )
    update = "".join(
        f"""
    IF EXISTS (SELECT 1 FROM old_rows o
               WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id)
               AND EXISTS (SELECT 1 FROM {child} c WHERE c.{column} = o.id)) THEN
      RAISE EXCEPTION '{_still_referenced(child, column, parent)}'
        USING ERRCODE = 'foreign_key_violation';
    END IF;"""
        for child, column, table, _ in REFERENCES
        if table == parent
    )
    truncate = "".join(
        f"""
    IF EXISTS (SELECT 1 FROM {child}) THEN
      RAISE EXCEPTION 'cannot truncate a table referenced in a foreign key constraint'
        USING ERRCODE = 'feature_not_supported',
        DETAIL = 'Table "{child}" references "{parent}".';
    END IF;"""
        for child, _, table, _ in REFERENCES
        if table == parent
    )
    body = (
        "  IF TG_OP = 'DELETE' THEN\n" + "\n".join(actions) + "\n"
        "  ELSIF TG_OP = 'UPDATE' THEN" + update + "\n"
        "  ELSE" + truncate + "\n  END IF;"
    )
    return _function(f"ndcg_references_to_{parent}", schema, body)


def _create_statements(schema: str) -> list[str]:
    statements = [
        f"ALTER TABLE {child} DROP CONSTRAINT {_fk_name(child, column, parent)}"
        for child, column, parent, _ in REFERENCES
    ]
    statements.append(_lock_function(schema))
    for child in _children():
        statements.append(_child_function(schema, child))
        for event in ("INSERT", "UPDATE"):
            statements.append(
                f"CREATE TRIGGER trg_{child}_references_{event.lower()} AFTER {event} ON {child} "
                "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
                f"EXECUTE FUNCTION ndcg_references_of_{child}()"
            )
    for parent in _parents():
        statements.append(_parent_function(schema, parent))
        statements += [
            f"CREATE TRIGGER trg_{parent}_referenced_delete AFTER DELETE ON {parent} "
            "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT "
            f"EXECUTE FUNCTION ndcg_references_to_{parent}()",
            f"CREATE TRIGGER trg_{parent}_referenced_update AFTER UPDATE ON {parent} "
            "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT "
            f"EXECUTE FUNCTION ndcg_references_to_{parent}()",
            f"CREATE TRIGGER trg_{parent}_referenced_truncate BEFORE TRUNCATE ON {parent} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION ndcg_references_to_{parent}()",
        ]
    return statements


def _drop_statements() -> list[str]:
    statements = []
    for parent in _parents():
        for event in ("delete", "update", "truncate"):
            statements.append(f"DROP TRIGGER trg_{parent}_referenced_{event} ON {parent}")
        statements.append(f"DROP FUNCTION ndcg_references_to_{parent}()")
    for child in _children():
        for event in ("insert", "update"):
            statements.append(f"DROP TRIGGER trg_{child}_references_{event} ON {child}")
        statements.append(f"DROP FUNCTION ndcg_references_of_{child}()")
    statements.append("DROP FUNCTION ndcg_lock_for_import()")
    statements += [
        f"ALTER TABLE {child} ADD CONSTRAINT {_fk_name(child, column, parent)} "
        f"FOREIGN KEY ({column}) REFERENCES {parent} (id) ON DELETE {on_delete}"
        for child, column, parent, on_delete in REFERENCES
    ]
    return statements


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    schema = bind.execute(sa.text("SELECT current_schema()")).scalar_one()
    for statement in _create_statements(str(schema)):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for statement in _drop_statements():
        op.execute(statement)
