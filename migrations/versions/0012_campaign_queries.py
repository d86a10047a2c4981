"""campaign queries: each query's inclusion probability and draw for the ``ppi`` order

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 02:00:00

A campaign in the ``ppi`` order (active human sampling, Zrnic & Candès 2024) draws the queries
the humans judge: query i with a known probability π_i (``inclusion_probability``, in (0, 1])
and the draw ξ_i (``sampled``). Both are kept for every query of the campaign, drawn or not, so
that the estimate can weight each judged query by 1 / π_i (``estimate --campaign``). One row
per (campaign, query); deleted with the campaign or the query. A new table, so the other
campaign tables are untouched; PostgreSQL: the lead logins that may create campaigns may write
it too (``storage/roles.py`` grants it to new ones).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LEADS = (
    "SELECT quote_ident(r.rolname) FROM annotators a JOIN pg_roles r ON r.rolname = a.login "
    "WHERE NOT r.rolsuper AND has_table_privilege(r.oid, 'campaigns', 'INSERT') "
    "ORDER BY r.rolname"
)


def upgrade() -> None:
    op.create_table(
        "campaign_queries",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("inclusion_probability", sa.Float(), nullable=False),
        sa.Column("sampled", sa.Boolean(), nullable=False),
        sa.CheckConstraint(
            "inclusion_probability > 0 AND inclusion_probability <= 1",
            name=op.f("ck_campaign_queries_probability_range"),
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name=op.f("fk_campaign_queries_campaign_id_campaigns"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_campaign_queries_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("campaign_id", "query_id", name=op.f("pk_campaign_queries")),
    )
    if op.get_bind().dialect.name == "postgresql":
        for (login,) in op.get_bind().execute(sa.text(_LEADS)):
            op.execute(f"GRANT INSERT, UPDATE, DELETE ON campaign_queries TO {login}")


def downgrade() -> None:
    # a ``ppi`` campaign without its probabilities could give no valid estimate and 0011's app
    # knows no ``ppi`` order: refuse, naming them, before anything is changed
    ppi = [
        name
        for (name,) in op.get_bind().execute(
            sa.text("SELECT name FROM campaigns WHERE pool_strategy = 'ppi' ORDER BY name")
        )
    ]
    if ppi:
        names = ", ".join(repr(n) for n in ppi)
        raise RuntimeError(
            f"cannot downgrade below 0012: the campaign(s) {names} use the ppi order, whose "
            "inclusion probabilities schema 0011 cannot hold; export their grades and delete "
            "them first"
        )
    op.drop_table("campaign_queries")
