"""Alembic environment for NDCG Studio.

The app calls migrations programmatically (``ndcg_studio.storage.database.upgrade_to_head``) and
passes its own connection in ``config.attributes["connection"]``; the ``alembic`` command line
works too with ``-x db=URL``. ``render_as_batch=True`` so that ALTERs work on SQLite.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from ndcg_studio.storage.database import create_studio_engine, resolve_url
from ndcg_studio.storage.models import metadata

config = context.config
target_metadata = metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_studio_engine(resolve_url(context.get_x_argument(as_dictionary=True).get("db")))
    with engine.connect() as conn:
        _run(conn)
        conn.commit()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; pass -x db=URL")
run_migrations_online()
