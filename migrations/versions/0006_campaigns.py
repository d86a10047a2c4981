"""judging campaigns: campaigns, their runs, annotators and items, leases, item states

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 21:01:52

- ``campaigns`` (name, guidelines, pool depth, overlap N, gold rate and warning threshold, the
  query sample and its seed, open/closed) with ``campaign_runs`` and ``campaign_annotators``;
- ``campaign_items``: the pooled (query, document) pairs and gold items (``gold_grade``), fixed at
  creation, each with a seeded shuffle key;
- ``campaign_leases``: an item held by an annotator until ``expires_at`` (expired = free);
- ``campaign_states``: ``graded`` (with the seconds it took), ``cant_judge`` (with a reason) or
  ``later``: NOT grades (grades stay in ``judgments``), so they never enter scores or agreement.
- PostgreSQL: row-level security on leases and states, so an annotator login holds, marks and
  releases only its own items (grants: ``ndcg-studio team add-annotator``).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


_OWN = "annotator_id IN (SELECT a.id FROM annotators a WHERE a.login = current_user)"
#: Tables whose rows belong to one annotator (row-level security for annotator logins).
_OWNED = ("campaign_leases", "campaign_states")


def _pg_row_security() -> list[str]:
    statements = []
    for table in _OWNED:
        statements += [
            f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"CREATE POLICY {table}_read ON {table} FOR SELECT USING (true)",
            f"CREATE POLICY {table}_insert ON {table} FOR INSERT WITH CHECK ({_OWN})",
            f"CREATE POLICY {table}_update ON {table} FOR UPDATE USING ({_OWN}) "
            f"WITH CHECK ({_OWN})",
            f"CREATE POLICY {table}_delete ON {table} FOR DELETE USING ({_OWN})",
        ]
    return statements


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("guidelines", sa.Text(), nullable=False),
        sa.Column("pool_depth", sa.Integer(), nullable=False),
        sa.Column("pool_strategy", sa.String(length=20), nullable=False),
        sa.Column("overlap", sa.Integer(), nullable=False),
        sa.Column("gold_rate", sa.Float(), nullable=False),
        sa.Column("gold_threshold", sa.Float(), nullable=False),
        sa.Column("query_sample", sa.Integer(), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('open', 'closed')", name=op.f("ck_campaigns_status")),
        sa.CheckConstraint(
            "gold_rate >= 0 AND gold_rate <= 1", name=op.f("ck_campaigns_gold_rate_range")
        ),
        sa.CheckConstraint("overlap >= 1", name=op.f("ck_campaigns_overlap_positive")),
        sa.CheckConstraint("pool_depth >= 1", name=op.f("ck_campaigns_depth_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_campaigns")),
        sa.UniqueConstraint("name", name=op.f("uq_campaigns_name")),
    )
    op.create_table(
        "campaign_annotators",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name=op.f("fk_campaign_annotators_annotator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name=op.f("fk_campaign_annotators_campaign_id_campaigns"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("campaign_id", "annotator_id", name=op.f("pk_campaign_annotators")),
    )
    op.create_table(
        "campaign_items",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("gold_grade", sa.SmallInteger(), nullable=True),
        sa.Column("shuffle", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "gold_grade BETWEEN 0 AND 4", name=op.f("ck_campaign_items_gold_grade_range")
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name=op.f("fk_campaign_items_campaign_id_campaigns"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_campaign_items_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_campaign_items_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "campaign_id", "query_id", "document_id", name=op.f("pk_campaign_items")
        ),
    )
    op.create_index(
        "ix_campaign_items_shuffle", "campaign_items", ["campaign_id", "shuffle"], unique=False
    )
    op.create_table(
        "campaign_leases",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name=op.f("fk_campaign_leases_annotator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name=op.f("fk_campaign_leases_campaign_id_campaigns"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_campaign_leases_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_campaign_leases_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "campaign_id",
            "query_id",
            "document_id",
            "annotator_id",
            name=op.f("pk_campaign_leases"),
        ),
    )
    with op.batch_alter_table("campaign_leases", schema=None) as batch_op:
        batch_op.create_index(
            "ix_campaign_leases_annotator", ["annotator_id", "campaign_id"], unique=False
        )

    op.create_table(
        "campaign_runs",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name=op.f("fk_campaign_runs_campaign_id_campaigns"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_campaign_runs_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("campaign_id", "run_id", name=op.f("pk_campaign_runs")),
    )
    op.create_table(
        "campaign_states",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "state IN ('graded', 'cant_judge', 'later')", name=op.f("ck_campaign_states_state")
        ),
        sa.CheckConstraint(
            "seconds IS NULL OR seconds >= 0", name=op.f("ck_campaign_states_seconds_nonnegative")
        ),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name=op.f("fk_campaign_states_annotator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name=op.f("fk_campaign_states_campaign_id_campaigns"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_campaign_states_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_campaign_states_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "campaign_id",
            "query_id",
            "document_id",
            "annotator_id",
            name=op.f("pk_campaign_states"),
        ),
    )
    with op.batch_alter_table("campaign_states", schema=None) as batch_op:
        batch_op.create_index(
            "ix_campaign_states_annotator", ["annotator_id", "campaign_id"], unique=False
        )

    if op.get_bind().dialect.name == "postgresql":
        for statement in _pg_row_security():
            op.execute(statement)


def downgrade() -> None:
    with op.batch_alter_table("campaign_states", schema=None) as batch_op:
        batch_op.drop_index("ix_campaign_states_annotator")

    op.drop_table("campaign_states")
    op.drop_table("campaign_runs")
    with op.batch_alter_table("campaign_leases", schema=None) as batch_op:
        batch_op.drop_index("ix_campaign_leases_annotator")

    op.drop_table("campaign_leases")
    op.drop_table("campaign_items")
    op.drop_table("campaign_annotators")
    op.drop_table("campaigns")
