"""judgment sources: ``sources`` (name, kind human|vendor|model) and ``annotator_sources``

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 20:40:00

An annotator may belong to one source (a vendor's qrels, a model's judgments, a team); the
membership is a table of its own, so no existing table changes: on SQLite, adding a foreign key
column to ``annotators`` would rebuild that parent table, whose DROP cascades into the
judgments. Both tables are new, so upgrade and downgrade are the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sources",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint("kind IN ('human', 'vendor', 'model')", name="ck_sources_kind"),
        sa.PrimaryKeyConstraint("id", name="pk_sources"),
        sa.UniqueConstraint("name", name="uq_sources_name"),
    )
    op.create_table(
        "annotator_sources",
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name="fk_annotator_sources_annotator_id_annotators",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["sources.id"],
            name="fk_annotator_sources_source_id_sources",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("annotator_id", name="pk_annotator_sources"),
    )
    op.create_index("ix_annotator_sources_source", "annotator_sources", ["source_id"])


def downgrade() -> None:
    op.drop_index("ix_annotator_sources_source", table_name="annotator_sources")
    op.drop_table("annotator_sources")
    op.drop_table("sources")
