"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 16:02:01.838634
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "annotators",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_annotators")),
        sa.UniqueConstraint("name", name=op.f("uq_annotators_name")),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("external_id", sa.String(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
        sa.UniqueConstraint("external_id", name=op.f("uq_documents_external_id")),
    )
    op.create_table(
        "queries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("external_id", sa.String(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("narrative", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queries")),
        sa.UniqueConstraint("external_id", name=op.f("uq_queries_external_id")),
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_runs")),
        sa.UniqueConstraint("name", name=op.f("uq_runs_name")),
    )
    op.create_table(
        "adjudications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("grade", sa.SmallInteger(), nullable=False),
        sa.Column("adjudicator_id", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint("grade BETWEEN 0 AND 4", name=op.f("ck_adjudications_grade_range")),
        sa.ForeignKeyConstraint(
            ["adjudicator_id"],
            ["annotators.id"],
            name=op.f("fk_adjudications_adjudicator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_adjudications_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_adjudications_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_adjudications")),
        sa.UniqueConstraint(
            "query_id", "document_id", name=op.f("uq_adjudications_query_id_document_id")
        ),
    )
    op.create_table(
        "judgment_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=True),
        sa.Column("old_grade", sa.SmallInteger(), nullable=True),
        sa.Column("new_grade", sa.SmallInteger(), nullable=True),
        sa.Column("old_note", sa.Text(), nullable=True),
        sa.Column("new_note", sa.Text(), nullable=True),
        sa.Column("changed_by", sa.Integer(), nullable=True),
        sa.Column(
            "changed_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "kind IN ('judgment', 'adjudication')", name=op.f("ck_judgment_history_kind")
        ),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name=op.f("fk_judgment_history_annotator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["changed_by"],
            ["annotators.id"],
            name=op.f("fk_judgment_history_changed_by_annotators"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_judgment_history_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_judgment_history_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judgment_history")),
    )
    with op.batch_alter_table("judgment_history", schema=None) as batch_op:
        batch_op.create_index("ix_judgment_history_item", ["query_id", "document_id"], unique=False)

    op.create_table(
        "judgments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.Column("grade", sa.SmallInteger(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("(CURRENT_TIMESTAMP)"),
            nullable=False,
        ),
        sa.CheckConstraint("grade BETWEEN 0 AND 4", name=op.f("ck_judgments_grade_range")),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name=op.f("fk_judgments_annotator_id_annotators"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_judgments_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_judgments_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judgments")),
        sa.UniqueConstraint(
            "query_id",
            "document_id",
            "annotator_id",
            name=op.f("uq_judgments_query_id_document_id_annotator_id"),
        ),
    )
    with op.batch_alter_table("judgments", schema=None) as batch_op:
        batch_op.create_index(
            "ix_judgments_annotator_query", ["annotator_id", "query_id"], unique=False
        )

    op.create_table(
        "results",
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.CheckConstraint("position >= 1", name=op.f("ck_results_position_positive")),
        sa.CheckConstraint("rank >= 1", name=op.f("ck_results_rank_positive")),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_results_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"],
            ["queries.id"],
            name=op.f("fk_results_query_id_queries"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_results_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("query_id", "run_id", "document_id", name=op.f("pk_results")),
        sa.UniqueConstraint(
            "run_id", "query_id", "rank", name=op.f("uq_results_run_id_query_id_rank")
        ),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:

    op.drop_table("results")
    with op.batch_alter_table("judgments", schema=None) as batch_op:
        batch_op.drop_index("ix_judgments_annotator_query")

    op.drop_table("judgments")
    with op.batch_alter_table("judgment_history", schema=None) as batch_op:
        batch_op.drop_index("ix_judgment_history_item")

    op.drop_table("judgment_history")
    op.drop_table("adjudications")
    op.drop_table("runs")
    op.drop_table("queries")
    op.drop_table("documents")
    op.drop_table("annotators")
