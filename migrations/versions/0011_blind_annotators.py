"""blind annotators: their own grades only, no gold answers (PostgreSQL); ``campaign_items.gold``

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 01:20:00

- ``campaign_items.gold``: whether the item is a gold item (``gold_grade IS NOT NULL``, kept so
  by a CHECK), so that the queue can tell gold items from the others without reading the answer.
- PostgreSQL, for a login that is neither the owner, a superuser nor a lead (a lead may create
  campaigns):
  - row security lets it SELECT only its own annotator's rows of ``judgments`` and of
    ``judgment_history``, and no row of ``adjudications`` (the adjudication rows of the history
    neither); a lead and the owner see every row;
  - column privileges: it may not read ``campaign_items.gold_grade`` (the grants of ``ndcg-studio
    team add-annotator``; this migration applies them to the annotator logins that exist);
  - ``item_grade_counts``, a view of the owner (whose rights it reads with: the owner is not
    bound by row security), gives every login how many grades each (query, document) has and
    nothing else, for the campaign queue's load and capacity check;
    ``item_grade_changes`` (the history's ids and items, not who or which grade) tells the
    adaptive queue orders which items' counts changed.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OWN = "{col} IN (SELECT a.id FROM annotators a WHERE a.login = current_user)"
#: a lead login (the owner is not bound by row security); a subquery: evaluated once
_LEAD = "(SELECT has_table_privilege('campaigns', 'INSERT'))"
_READ = {
    "judgments": f"{_OWN.format(col='annotator_id')} OR {_LEAD}",
    "judgment_history": f"{_OWN.format(col='annotator_id')} OR {_LEAD}",
    "adjudications": _LEAD,
}
#: what an annotator login may read of ``campaign_items`` (not ``gold_grade``)
_ITEM_COLUMNS = "campaign_id, query_id, document_id, gold, shuffle"
_VIEWS = {
    "item_grade_counts": "SELECT query_id, document_id, count(*) AS grades FROM judgments "
    "GROUP BY query_id, document_id",
    "item_grade_changes": "SELECT id, query_id, document_id FROM judgment_history "
    "WHERE kind = 'judgment'",
}
#: the logins of annotators that the team's rules bind (not the owner, not a superuser)
_MEMBERS = (
    "SELECT quote_ident(r.rolname), has_table_privilege(r.oid, 'campaigns', 'INSERT') "
    "FROM annotators a JOIN pg_roles r ON r.rolname = a.login "
    "WHERE NOT r.rolsuper AND NOT pg_has_role(r.oid, "
    "(SELECT relowner FROM pg_class WHERE oid = 'judgments'::regclass), 'USAGE') "
    "ORDER BY r.rolname"
)


def _members() -> list[tuple[str, bool]]:
    return [(str(n), bool(lead)) for n, lead in op.get_bind().execute(sa.text(_MEMBERS))]


def upgrade() -> None:
    with op.batch_alter_table("campaign_items") as batch:
        batch.add_column(sa.Column("gold", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.execute("UPDATE campaign_items SET gold = (gold_grade IS NOT NULL)")
    with op.batch_alter_table("campaign_items") as batch:
        batch.create_check_constraint(
            op.f("ck_campaign_items_gold_flag"), "gold = (gold_grade IS NOT NULL)"
        )
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE judgment_history ENABLE ROW LEVEL SECURITY")
    for table, rule in _READ.items():
        if table != "judgment_history":
            op.execute(f"DROP POLICY {table}_read ON {table}")
        op.execute(f"CREATE POLICY {table}_read ON {table} FOR SELECT USING ({rule})")
    for view, query in _VIEWS.items():
        op.execute(f"CREATE VIEW {view} WITH (security_barrier) AS {query}")
    for login, lead in _members():
        op.execute(f"GRANT SELECT ON {', '.join(_VIEWS)} TO {login}")
        if not lead:
            op.execute(f"REVOKE SELECT ON campaign_items FROM {login}")
            op.execute(f"GRANT SELECT ({_ITEM_COLUMNS}) ON campaign_items TO {login}")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for login, lead in _members():
            if not lead:
                op.execute(f"REVOKE SELECT ({_ITEM_COLUMNS}) ON campaign_items FROM {login}")
                op.execute(f"GRANT SELECT ON campaign_items TO {login}")
        op.execute(f"DROP VIEW {', '.join(_VIEWS)}")
        for table in _READ:
            op.execute(f"DROP POLICY {table}_read ON {table}")
            if table != "judgment_history":
                op.execute(f"CREATE POLICY {table}_read ON {table} FOR SELECT USING (true)")
        op.execute("ALTER TABLE judgment_history DISABLE ROW LEVEL SECURITY")
    with op.batch_alter_table("campaign_items") as batch:
        batch.drop_constraint(op.f("ck_campaign_items_gold_flag"), type_="check")
        batch.drop_column("gold")
