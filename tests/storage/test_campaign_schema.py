"""Migration 0007 (a campaign's pool strategy): a campaign written at 0006 upgrades with its
items, runs and leases intact and reads as ``depth``; a downgrade back to 0006 keeps them too (on
SQLite, ``campaigns`` is never rebuilt, which would cascade into its items)."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ndcg_studio.storage.database import alembic_config, create_studio_engine

_COUNTS = (
    "SELECT (SELECT count(*) FROM campaign_items), (SELECT count(*) FROM campaign_runs), "
    "(SELECT count(*) FROM campaign_leases), (SELECT count(*) FROM campaigns)"
)


def test_0007_up_and_down_keep_every_campaign_row(db_url: str) -> None:
    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0006")
            for sql in (
                "INSERT INTO queries (id, external_id, text) VALUES (1, 'q', '')",
                "INSERT INTO documents (id, external_id, title, text, url) "
                "VALUES (1, 'd', '', '', '')",
                "INSERT INTO runs (id, name, description) VALUES (1, 'r', '')",
                "INSERT INTO annotators (id, name) VALUES (1, 'ann')",
                "INSERT INTO campaigns (id, name, guidelines, pool_depth, pool_strategy, overlap, "
                "gold_rate, gold_threshold, status) "
                "VALUES (1, 'c', '', 10, 'depth', 1, 0.05, 0.7, 'open')",
                "INSERT INTO campaign_runs (campaign_id, run_id) VALUES (1, 1)",
                "INSERT INTO campaign_items (campaign_id, query_id, document_id, shuffle) "
                "VALUES (1, 1, 1, 7)",
                "INSERT INTO campaign_leases (campaign_id, query_id, document_id, annotator_id, "
                "expires_at) VALUES (1, 1, 1, 1, CURRENT_TIMESTAMP)",
            ):
                conn.execute(text(sql))
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.connect() as conn:
            assert tuple(conn.execute(text(_COUNTS)).one()) == (1, 1, 1, 1)
            row = conn.execute(
                text(
                    "SELECT c.pool_strategy, c.pool_k, r.pair_side FROM campaigns c "
                    "JOIN campaign_runs r ON r.campaign_id = c.id"
                )
            ).one()
            assert tuple(row) == ("depth", None, None)
        with engine.begin() as conn:
            conn.execute(text("UPDATE campaign_runs SET pair_side = 'a'"))
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0006")
        with engine.connect() as conn:
            assert tuple(conn.execute(text(_COUNTS)).one()) == (1, 1, 1, 1)
    finally:
        engine.dispose()


def test_0007_down_refuses_an_ab_campaign_and_changes_nothing(db_url: str) -> None:
    """An ``ab`` campaign would come back from 0006 without its pair and K, a state that
    ``campaign create`` refuses and the queue cannot serve: the downgrade refuses, naming it."""
    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
            for sql in (
                "INSERT INTO runs (id, name, description) VALUES (1, 'a', ''), (2, 'b', '')",
                "INSERT INTO campaigns (id, name, guidelines, pool_depth, pool_strategy, "
                "pool_k, overlap, gold_rate, gold_threshold, status) "
                "VALUES (1, 'pair test', '', 10, 'ab', 5, 1, 0.05, 0.7, 'open')",
                "INSERT INTO campaign_runs (campaign_id, run_id, pair_side) "
                "VALUES (1, 1, 'a'), (1, 2, 'b')",
            ):
                conn.execute(text(sql))
        with (
            pytest.raises(RuntimeError, match="'pair test' use the ab pool order"),
            engine.begin() as conn,
        ):
            command.downgrade(alembic_config(conn), "0006")
        with engine.connect() as conn:
            row = conn.execute(
                text(
                    "SELECT c.pool_k, count(r.pair_side) FROM campaigns c "
                    "JOIN campaign_runs r ON r.campaign_id = c.id GROUP BY c.pool_k"
                )
            ).one()
            assert tuple(row) == (5, 2)
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() != "0006"
    finally:
        engine.dispose()
