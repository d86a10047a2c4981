"""history written by triggers; write ids; annotator logins; row-level security (PostgreSQL)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 20:10:00

- ``judgment_history`` is written by the database itself: one row for every INSERT, every UPDATE
  that changes the grade or the note, and every DELETE of a judgment or an adjudication, by any
  route (the app, an import, plain SQL). Before, the app and the import each wrote history with
  their own rule (the app every call, the import only changed grades).
- ``write_id`` on judgments, adjudications and the history (unique there): the app's id of one
  write, so a write retried after a lost COMMIT acknowledgement finds that it already landed.
- ``annotators.login``: the PostgreSQL login that may write this annotator's judgments.
- PostgreSQL: the history triggers are SECURITY DEFINER functions of the owner (the role running
  this migration), statement-level with transition tables (set-based: an import of a million
  judgments by ``COPY`` writes its history in one statement). Row-level security on judgments and
  adjudications (a login that is neither the owner nor a superuser writes only its own
  annotator's judgments and adjudicates only in its own name), and guard triggers that refuse the
  rest with a one-line message (SQLSTATE 42501) instead of RLS's silent "UPDATE 0". Who may write
  adjudications at all is a table privilege (``ndcg-studio team add-lead``).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_HISTORY_COLUMNS = (
    "kind, query_id, document_id, annotator_id, old_grade, new_grade, old_note, new_note, "
    "changed_by, changed_at, write_id"
)
#: (table, history kind, whose judgment, who changed it) per audited table; X is NEW or OLD.
_AUDITED = (
    ("judgments", "judgment", "X.annotator_id", "X.annotator_id"),
    ("adjudications", "adjudication", "NULL", "X.adjudicator_id"),
)


def _fresh(value: str) -> str:
    """``value`` if it names no history row yet, else NULL (a row's write id goes to the history
    once, with the write that set it; later changes by other routes keep the row's stale id)."""
    return (
        f"CASE WHEN {value} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM judgment_history h "
        f"WHERE h.write_id = {value}) THEN {value} END"
    )


# ---------------------------------------------------------------------------------- SQLite
_SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')"


def _sqlite_triggers() -> list[str]:
    statements = []
    for table, kind, whose, by in _AUDITED:
        new_whose, new_by = whose.replace("X.", "NEW."), by.replace("X.", "NEW.")
        old_whose, old_by = whose.replace("X.", "OLD."), by.replace("X.", "OLD.")
        insert = f"INSERT INTO judgment_history ({_HISTORY_COLUMNS}) VALUES"
        statements += [
            f"CREATE TRIGGER trg_{table}_history_insert AFTER INSERT ON {table} BEGIN "
            f"{insert} ('{kind}', NEW.query_id, NEW.document_id, {new_whose}, NULL, NEW.grade, "
            f"NULL, NEW.note, {new_by}, {_SQLITE_NOW}, {_fresh('NEW.write_id')}); END",
            f"CREATE TRIGGER trg_{table}_history_update AFTER UPDATE ON {table} "
            "WHEN OLD.grade IS NOT NEW.grade OR OLD.note IS NOT NEW.note BEGIN "
            f"{insert} ('{kind}', NEW.query_id, NEW.document_id, {new_whose}, OLD.grade, "
            f"NEW.grade, OLD.note, NEW.note, {new_by}, {_SQLITE_NOW}, "
            f"CASE WHEN NEW.write_id IS NOT OLD.write_id THEN {_fresh('NEW.write_id')} END); END",
            f"CREATE TRIGGER trg_{table}_history_delete AFTER DELETE ON {table} BEGIN "
            f"{insert} ('{kind}', OLD.query_id, OLD.document_id, {old_whose}, OLD.grade, NULL, "
            f"OLD.note, NULL, {old_by}, {_SQLITE_NOW}, {_fresh('OLD.write_id')}); END",
        ]
    return statements


# ------------------------------------------------------------------------------ PostgreSQL
def _pg_history_function(schema: str, table: str, kind: str, whose: str, by: str) -> str:
    """The history trigger function of ``table``. One statement touches each item once, so the
    rows it records need no order among themselves (no sort of an import's million rows)."""
    n = {"whose": whose.replace("X.", "n."), "by": by.replace("X.", "n.")}
    o = {"whose": whose.replace("X.", "o."), "by": by.replace("X.", "o.")}
    insert = f"INSERT INTO judgment_history ({_HISTORY_COLUMNS})"
    return f"""
CREATE FUNCTION ndcg_history_of_{table}() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = "{schema}", pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    {insert}
    SELECT '{kind}', n.query_id, n.document_id, {n["whose"]}, NULL, n.grade, NULL, n.note,
           {n["by"]}, now(), {_fresh("n.write_id")}
    FROM new_rows n;
  ELSIF TG_OP = 'UPDATE' THEN
    {insert}
    SELECT '{kind}', n.query_id, n.document_id, {n["whose"]}, o.grade, n.grade, o.note, n.note,
           {n["by"]}, now(),
           CASE WHEN n.write_id IS DISTINCT FROM o.write_id THEN {_fresh("n.write_id")} END
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.grade IS DISTINCT FROM n.grade OR o.note IS DISTINCT FROM n.note;
  ELSE
    {insert}
    SELECT '{kind}', o.query_id, o.document_id, {o["whose"]}, o.grade, NULL, o.note, NULL,
           {o["by"]}, now(), {_fresh("o.write_id")}
    FROM old_rows o;
  END IF;
  RETURN NULL;
END $$"""


def _pg_guard_functions(schema: str) -> list[str]:
    """BEFORE ROW triggers for logins under row-level security (not the owner, not a
    superuser): a one-line refusal naming whose row it is."""
    own = "EXISTS (SELECT 1 FROM annotators a WHERE a.id = {col} AND a.login = current_user)"
    name = "(SELECT a.name FROM annotators a WHERE a.id = {col})"
    return [
        f"""
CREATE FUNCTION ndcg_guard_judgments() RETURNS trigger
LANGUAGE plpgsql SET search_path = "{schema}", pg_temp AS $$
DECLARE
  r judgments;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF row_security_active('judgments') THEN
    IF TG_OP <> 'INSERT' AND NOT {own.format(col="OLD.annotator_id")} THEN
      RAISE EXCEPTION 'login % may change only its own judgments, not those of annotator %',
        current_user, {name.format(col="OLD.annotator_id")}
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF TG_OP <> 'DELETE' AND NOT {own.format(col="NEW.annotator_id")} THEN
      RAISE EXCEPTION 'login % may write only its own judgments, not those of annotator %',
        current_user, {name.format(col="NEW.annotator_id")}
        USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  RETURN r;
END $$""",
        f"""
CREATE FUNCTION ndcg_guard_adjudications() RETURNS trigger
LANGUAGE plpgsql SET search_path = "{schema}", pg_temp AS $$
BEGIN
  IF NOT row_security_active('adjudications') THEN
    NULL;
  ELSIF TG_OP = 'DELETE' THEN
    -- the history names the last adjudicator as who cleared it: clear only your own decision
    -- (the app first sets the decision in the lead's name, then deletes it)
    IF NOT {own.format(col="OLD.adjudicator_id")} THEN
      RAISE EXCEPTION 'login % may clear only its own adjudication, not one by annotator %',
        current_user, {name.format(col="OLD.adjudicator_id")}
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  ELSIF NOT {own.format(col="NEW.adjudicator_id")} THEN
    RAISE EXCEPTION 'login % may adjudicate only in its own name, not as annotator %',
      current_user, {name.format(col="NEW.adjudicator_id")}
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$""",
    ]


def _pg_statements(schema: str) -> list[str]:
    statements: list[str] = []
    for table, kind, whose, by in _AUDITED:
        statements.append(_pg_history_function(schema, table, kind, whose, by))
        for event, refs in (
            ("INSERT", "NEW TABLE AS new_rows"),
            ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"),
            ("DELETE", "OLD TABLE AS old_rows"),
        ):
            statements.append(
                f"CREATE TRIGGER trg_{table}_history_{event.lower()} AFTER {event} ON {table} "
                f"REFERENCING {refs} FOR EACH STATEMENT "
                f"EXECUTE FUNCTION ndcg_history_of_{table}()"
            )
    statements += _pg_guard_functions(schema)
    # WHEN: the owner's writes (imports of a million rows) skip the PL/pgSQL call per row
    statements += [
        "CREATE TRIGGER trg_judgments_guard BEFORE INSERT OR UPDATE OR DELETE ON judgments "
        "FOR EACH ROW WHEN (row_security_active('judgments')) "
        "EXECUTE FUNCTION ndcg_guard_judgments()",
        "CREATE TRIGGER trg_adjudications_guard BEFORE INSERT OR UPDATE OR DELETE ON adjudications "
        "FOR EACH ROW WHEN (row_security_active('adjudications')) "
        "EXECUTE FUNCTION ndcg_guard_adjudications()",
    ]
    own_judgment = "annotator_id IN (SELECT a.id FROM annotators a WHERE a.login = current_user)"
    own_adjudication = (
        "adjudicator_id IN (SELECT a.id FROM annotators a WHERE a.login = current_user)"
    )
    for table, own in (("judgments", own_judgment), ("adjudications", own_adjudication)):
        statements += [
            f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"CREATE POLICY {table}_read ON {table} FOR SELECT USING (true)",
            f"CREATE POLICY {table}_insert ON {table} FOR INSERT WITH CHECK ({own})",
            # USING (true): another's row stays visible to UPDATE and DELETE so that the guard
            # trigger refuses it loudly; WITH CHECK keeps every written row the login's own.
            f"CREATE POLICY {table}_update ON {table} FOR UPDATE USING (true) WITH CHECK ({own})",
        ]
    statements += [
        "CREATE POLICY judgments_delete ON judgments FOR DELETE USING (true)",
        "CREATE POLICY adjudications_delete ON adjudications FOR DELETE USING (true)",
    ]
    return statements


def _pg_drop_statements() -> list[str]:
    statements = []
    for table, *_ in _AUDITED:
        for event in ("insert", "update", "delete"):
            statements.append(f"DROP TRIGGER trg_{table}_history_{event} ON {table}")
        statements.append(f"DROP TRIGGER trg_{table}_guard ON {table}")
        statements.append(f"DROP FUNCTION ndcg_history_of_{table}()")
        statements.append(f"DROP FUNCTION ndcg_guard_{table}()")
        for policy in ("read", "insert", "update", "delete"):
            statements.append(f"DROP POLICY {table}_{policy} ON {table}")
        statements.append(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    return statements


# ----------------------------------------------------------------------------------------
def upgrade() -> None:
    op.add_column("annotators", sa.Column("login", sa.String(), nullable=True))
    op.create_index("ix_annotators_login", "annotators", ["login"], unique=True)
    for table in ("judgments", "adjudications", "judgment_history"):
        op.add_column(table, sa.Column("write_id", sa.String(length=32), nullable=True))
    op.create_index(
        "ix_judgment_history_write_id",
        "judgment_history",
        ["write_id"],
        unique=True,
        sqlite_where=sa.text("write_id IS NOT NULL"),
        postgresql_where=sa.text("write_id IS NOT NULL"),
    )
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        statements = _sqlite_triggers()
    else:
        schema = bind.execute(sa.text("SELECT current_schema()")).scalar_one()
        statements = _pg_statements(str(schema))
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for table, *_ in _AUDITED:
            for event in ("insert", "update", "delete"):
                op.execute(f"DROP TRIGGER trg_{table}_history_{event}")
    else:
        for statement in _pg_drop_statements():
            op.execute(statement)
    op.drop_index("ix_judgment_history_write_id", table_name="judgment_history")
    op.drop_index("ix_annotators_login", table_name="annotators")
    for table, column in (
        ("judgment_history", "write_id"),
        ("adjudications", "write_id"),
        ("judgments", "write_id"),
        ("annotators", "login"),
    ):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
