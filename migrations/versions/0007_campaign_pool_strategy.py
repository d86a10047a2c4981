"""campaign pool strategies: ``campaigns.pool_k`` and ``campaign_runs.pair_side``

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 23:20:00

A campaign's queue may offer its pool in the order of a pooling strategy (``depth``, ``mtf``,
``bandit`` or ``ab``; ``campaigns.pool_strategy`` exists since 0006). The ``ab`` strategy needs
two runs and a cutoff: ``campaigns.pool_k`` (NULL for the other strategies) and
``campaign_runs.pair_side`` (``a`` / ``b`` for the pair's runs, else NULL). Both columns are
nullable additions; the CHECK on ``pair_side`` rebuilds ``campaign_runs`` on SQLite (batch mode),
a table no other table refers to, so nothing cascades.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("campaigns", sa.Column("pool_k", sa.Integer(), nullable=True))
    with op.batch_alter_table("campaign_runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pair_side", sa.String(length=1), nullable=True))
        batch_op.create_check_constraint("ck_campaign_runs_pair_side", "pair_side IN ('a', 'b')")


def downgrade() -> None:
    # an ``ab`` campaign without its pair and cutoff is a state no version of the app can
    # serve (0006's app knows no ``ab``; upgraded again it would have lost its pair): refuse,
    # naming the campaigns, before anything is changed
    ab = [
        name
        for (name,) in op.get_bind().execute(
            sa.text("SELECT name FROM campaigns WHERE pool_strategy = 'ab' ORDER BY name")
        )
    ]
    if ab:
        names = ", ".join(repr(n) for n in ab)
        raise RuntimeError(
            f"cannot downgrade below 0007: the campaign(s) {names} use the ab pool order, "
            "whose pair of runs and cutoff K schema 0006 cannot hold; export their grades "
            "and delete them first"
        )
    with op.batch_alter_table("campaign_runs", schema=None) as batch_op:
        batch_op.drop_constraint("ck_campaign_runs_pair_side", type_="check")
        batch_op.drop_column("pair_side")
    # ALTER TABLE ... DROP COLUMN (SQLite >= 3.35): a batch rebuild of ``campaigns`` would
    # drop the table its items, leases and states cascade from
    op.drop_column("campaigns", "pool_k")
