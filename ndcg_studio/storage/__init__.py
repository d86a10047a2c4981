"""Storage layer: SQLAlchemy 2.x models, engine/session factory, migrations, repositories."""
