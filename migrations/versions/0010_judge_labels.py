"""machine judges: ``judge_labels``, the provenance of every machine label

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 04:30:00

One new table (see ``storage/models.py``): the model as asked and as the server reported it,
the template's hash, the parameters, time, tokens and raw answer of each label a machine judge
gave. No existing table changes, so upgrade and downgrade are the same on SQLite and
PostgreSQL; its foreign keys are ordinary ones on both (the set-wise checks of 0008 cover only
the three big tables).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "judge_labels",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("template_hash", sa.String(length=64), nullable=False),
        sa.Column("template_name", sa.String(), nullable=False),
        sa.Column("model", sa.String(), nullable=False),
        sa.Column("model_reported", sa.String(), nullable=True),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("grade", sa.SmallInteger(), nullable=True),
        sa.Column("raw_answer", sa.Text(), nullable=True),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("prompt_tokens", sa.Integer(), nullable=True),
        sa.Column("completion_tokens", sa.Integer(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "status IN ('graded', 'unparsed', 'failed')", name=op.f("ck_judge_labels_status")
        ),
        sa.CheckConstraint("grade BETWEEN 0 AND 4", name=op.f("ck_judge_labels_grade_range")),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name=op.f("fk_judge_labels_annotator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_judge_labels_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_judge_labels_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judge_labels")),
        sa.UniqueConstraint(
            "annotator_id",
            "query_id",
            "document_id",
            "template_hash",
            "model",
            name=op.f("uq_judge_labels_annotator_id_query_id_document_id_template_hash_model"),
        ),
    )


def downgrade() -> None:
    op.drop_table("judge_labels")
