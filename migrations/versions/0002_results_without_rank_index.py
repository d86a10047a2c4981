"""results: drop the unique (run, query, rank) index

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 18:50:00

Every run import already refuses a file with the same rank twice for a query (the reader checks
it, naming both lines), and runs are only written by that import, which replaces a run whole.
The index duplicated that check at a cost of ~0.6 s per million imported results; no query
needs it (scoring and the annotation pool read by the primary key).

On SQLite the table is rebuilt (an inline constraint cannot be dropped) and stays a clustered
``WITHOUT ROWID`` table; the rows are copied unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UNIQUE = "uq_results_run_id_query_id_rank"


def _results(with_rank_index: bool) -> sa.Table:
    """The results table as it is after (or, with the index, before) this revision."""
    constraints: list[sa.Constraint] = [
        sa.CheckConstraint("position >= 1", name="ck_results_position_positive"),
        sa.CheckConstraint("rank >= 1", name="ck_results_rank_positive"),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name="fk_results_document_id_documents",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"], ["queries.id"], name="fk_results_query_id_queries", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name="fk_results_run_id_runs", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("query_id", "run_id", "document_id", name="pk_results"),
    ]
    if with_rank_index:
        constraints.append(sa.UniqueConstraint("run_id", "query_id", "rank", name=_UNIQUE))
    return sa.Table(
        "results",
        sa.MetaData(),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        *constraints,
        sqlite_with_rowid=False,
    )


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "results", copy_from=_results(with_rank_index=False), recreate="always"
        ):
            pass
    else:
        op.drop_constraint(_UNIQUE, "results", type_="unique")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "results", copy_from=_results(with_rank_index=True), recreate="always"
        ):
            pass
    else:
        op.create_unique_constraint(_UNIQUE, "results", ["run_id", "query_id", "rank"])
