"""Migration 0012 (the ``ppi`` order's draw of queries): ``campaign_queries`` is created empty
beside every campaign row, holds one probability in (0, 1] per (campaign, query), goes with its
campaign, and a downgrade refuses while a ``ppi`` campaign would lose its probabilities."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import exc, text
from sqlalchemy.engine import make_url

from ndcg_studio.storage.database import alembic_config, create_studio_engine

_SETUP = (
    "INSERT INTO queries (id, external_id, text) VALUES (1, 'q1', ''), (2, 'q2', '')",
    "INSERT INTO runs (id, name, description) VALUES (1, 'a', ''), (2, 'b', '')",
    "INSERT INTO campaigns (id, name, guidelines, pool_depth, pool_strategy, pool_k, overlap, "
    "gold_rate, gold_threshold, status) VALUES (1, 'plain', '', 10, 'depth', NULL, 1, 0.05, "
    "0.7, 'open')",
)


def test_0012_up_and_down_keep_every_campaign(db_url: str) -> None:
    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0011")
            for sql in _SETUP:
                conn.execute(text(sql))
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
        with engine.begin() as conn:
            assert conn.execute(text("SELECT count(*) FROM campaign_queries")).scalar() == 0
            conn.execute(
                text(
                    "INSERT INTO campaign_queries (campaign_id, query_id, inclusion_probability, "
                    "sampled) VALUES (1, 1, 0.25, TRUE), (1, 2, 1.0, FALSE)"
                )
            )
        for bad in (0.0, 1.5):
            with pytest.raises(exc.IntegrityError), engine.begin() as conn:
                conn.execute(
                    text(
                        "UPDATE campaign_queries SET inclusion_probability = :p WHERE query_id = 1"
                    ),
                    {"p": bad},
                )
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0011")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM campaigns")).scalar() == 1
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0011"
    finally:
        engine.dispose()


def test_0012_rows_go_with_their_campaign_and_down_refuses_a_ppi_campaign(db_url: str) -> None:
    engine = create_studio_engine(make_url(db_url))
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "head")
            for sql in (
                *_SETUP,
                "INSERT INTO campaigns (id, name, guidelines, pool_depth, pool_strategy, pool_k, "
                "overlap, gold_rate, gold_threshold, status) VALUES (2, 'active one', '', 10, "
                "'ppi', 5, 1, 0.05, 0.7, 'open')",
                "INSERT INTO campaign_queries (campaign_id, query_id, inclusion_probability, "
                "sampled) VALUES (1, 1, 0.5, TRUE), (2, 1, 0.5, TRUE), (2, 2, 0.5, FALSE)",
            ):
                conn.execute(text(sql))
        with (
            pytest.raises(RuntimeError, match="'active one' use the ppi order"),
            engine.begin() as conn,
        ):
            command.downgrade(alembic_config(conn), "0011")
        with engine.begin() as conn:
            assert conn.execute(text("SELECT count(*) FROM campaign_queries")).scalar() == 3
            conn.execute(text("DELETE FROM campaigns WHERE id = 2"))
            assert conn.execute(text("SELECT count(*) FROM campaign_queries")).scalar() == 1
    finally:
        engine.dispose()
