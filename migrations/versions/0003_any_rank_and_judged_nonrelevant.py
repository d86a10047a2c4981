"""results.rank as written (any integer or NULL), runs.rank_problem, judgments grade -1

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 20:20:00

trec_eval ignores a run's rank column (``get_trec_results.c``: "the rank field is ignored
here"), so runs numbered from 0, with negative, repeated or non-integer ranks are scored by it.
NDCG Studio now imports them too:

- ``results.rank`` loses its ``rank >= 1`` check and may be NULL: the file's rank when it is an
  integer that fits 32 bits (the same on SQLite and PostgreSQL), else NULL;
- ``runs.rank_problem`` (new, NULL when the ranks order the run) keeps the first reason,
  ``FILE:LINE: rank: ...``, why the rank column cannot order the run (``--order rank`` refuses
  such a run with that message);
- ``judgments.grade`` may be -1, trec_eval's "judged non-relevant" (gain 0 under every gain
  setting, outside the ideal list, counted as judged). Adjudications stay 0-4.

On SQLite the two tables are rebuilt (an inline CHECK cannot be dropped); ``results`` stays a
clustered ``WITHOUT ROWID`` table; rows are copied unchanged. A downgrade refuses nothing: rows
it cannot keep (rank NULL or < 1, grade -1) are deleted first — the data of a newer file.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_RANK_CHECK = "ck_results_rank_positive"
_GRADE_CHECK = "ck_judgments_grade_range"


def _results(new: bool) -> sa.Table:
    """The results table after (``new``) or before this revision."""
    constraints: list[sa.Constraint] = [
        sa.CheckConstraint("position >= 1", name="ck_results_position_positive"),
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
    if not new:
        constraints.append(sa.CheckConstraint("rank >= 1", name=_RANK_CHECK))
    return sa.Table(
        "results",
        sa.MetaData(),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=new),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        *constraints,
        sqlite_with_rowid=False,
    )


def _judgments(lowest: int) -> sa.Table:
    """The judgments table with grades ``lowest``..4."""
    stamp = {"server_default": sa.text("(CURRENT_TIMESTAMP)"), "nullable": False}
    return sa.Table(
        "judgments",
        sa.MetaData(),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("annotator_id", sa.Integer(), nullable=False),
        sa.Column("grade", sa.SmallInteger(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), **stamp),
        sa.Column("updated_at", sa.DateTime(timezone=True), **stamp),
        sa.CheckConstraint(f"grade BETWEEN {lowest} AND 4", name=_GRADE_CHECK),
        sa.ForeignKeyConstraint(
            ["annotator_id"],
            ["annotators.id"],
            name="fk_judgments_annotator_id_annotators",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name="fk_judgments_document_id_documents",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["query_id"], ["queries.id"], name="fk_judgments_query_id_queries", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_judgments"),
        sa.UniqueConstraint(
            "query_id",
            "document_id",
            "annotator_id",
            name="uq_judgments_query_id_document_id_annotator_id",
        ),
        sa.Index("ix_judgments_annotator_query", "annotator_id", "query_id"),
    )


def _rebuild(table: sa.Table) -> None:
    with op.batch_alter_table(table.name, copy_from=table, recreate="always"):
        pass


def upgrade() -> None:
    op.add_column("runs", sa.Column("rank_problem", sa.Text(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        _rebuild(_results(new=True))
        _rebuild(_judgments(lowest=-1))
    else:
        op.drop_constraint(op.f(_RANK_CHECK), "results", type_="check")
        op.alter_column("results", "rank", existing_type=sa.Integer(), nullable=True)
        op.drop_constraint(op.f(_GRADE_CHECK), "judgments", type_="check")
        op.create_check_constraint(op.f(_GRADE_CHECK), "judgments", "grade BETWEEN -1 AND 4")


def downgrade() -> None:
    op.execute("DELETE FROM results WHERE rank IS NULL OR rank < 1")
    op.execute("DELETE FROM judgments WHERE grade < 0")
    if op.get_bind().dialect.name == "sqlite":
        _rebuild(_results(new=False))
        _rebuild(_judgments(lowest=0))
        # not a batch rebuild: dropping ``runs`` would cascade to every result
        op.execute("ALTER TABLE runs DROP COLUMN rank_problem")
    else:
        op.alter_column("results", "rank", existing_type=sa.Integer(), nullable=False)
        op.create_check_constraint(op.f(_RANK_CHECK), "results", "rank >= 1")
        op.drop_constraint(op.f(_GRADE_CHECK), "judgments", type_="check")
        op.create_check_constraint(op.f(_GRADE_CHECK), "judgments", "grade BETWEEN 0 AND 4")
        op.drop_column("runs", "rank_problem")
