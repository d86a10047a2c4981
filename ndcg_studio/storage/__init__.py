"""Storage: the only package that speaks SQL (SQLAlchemy 2 Core, Alembic migrations).

The schema (:mod:`~ndcg_studio.storage.models`), opening and upgrading a database
(:mod:`~ndcg_studio.storage.database`), the one writer of judgments
(:mod:`~ndcg_studio.storage.judgments`), the reads of the services
(:mod:`~ndcg_studio.storage.queries`), the bulk paths of import and scoring
(:mod:`~ndcg_studio.storage.bulk`), campaigns (:mod:`~ndcg_studio.storage.campaigns`), and team
mode on PostgreSQL (roles, resilience to a lost connection). :mod:`~ndcg_studio.storage.failures`
puts a database's refusal into one line (locked, read-only, damaged, not allowed for the
login) for the CLI and the app alike.
"""
