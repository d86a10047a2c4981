"""The database schema as SQLAlchemy Core tables on one :data:`metadata`.

Constraint names come from a naming convention so that Alembic migrations (batch mode on SQLite)
can address them. Every query, bulk or single-row, is a Core statement on these tables; the module
deliberately does not import ``sqlalchemy.orm`` (importing it would slow every headless
command's start-up, e.g. ``ndcg-studio score``; guarded by ``benchmarks/bench_startup.py``).
``migrations/env.py`` autogenerates against :data:`metadata` and
``tests/storage/test_database.py`` checks that the migrations equal it.

Grades are integers 0–4 (0 irrelevant, 1 marginal, 2 relevant, 3 highly relevant, 4 perfect),
enforced by CHECK constraints; an imported judgment may also be -1, trec_eval's "judged
non-relevant" (gain 0 under every gain setting, outside the ideal list, counted as judged).
Every change of a judgment or an adjudication is appended to ``judgment_history`` by the
database's own triggers (see that table), so no grade is ever silently lost.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
    text,
)

from ndcg_studio import vocabulary

# the grade scale comes from the one vocabulary; -1 (trec_eval's judged non-relevant) is kept by
# imports of judgments, not by adjudications
MIN_GRADE = vocabulary.MIN_GRADE
MAX_GRADE = vocabulary.MAX_GRADE
JUDGED_NONRELEVANT = vocabulary.JUDGED_NONRELEVANT

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (stored as UTC everywhere)."""
    return datetime.now(UTC)


#: All tables of the schema (the target of Alembic's autogenerate).
metadata = MetaData(naming_convention=NAMING_CONVENTION)

_GRADE_CHECK = f"grade BETWEEN {MIN_GRADE} AND {MAX_GRADE}"
_JUDGMENT_GRADE_CHECK = f"grade BETWEEN {JUDGED_NONRELEVANT} AND {MAX_GRADE}"


def _timestamp(name: str) -> Column[datetime]:
    """A NOT NULL timestamp set to now by the app (and by the server if the app omits it)."""
    return Column(
        name,
        DateTime(timezone=True),
        nullable=False,
        default=utcnow,
        server_default=func.current_timestamp(),
    )


def _fk(
    name: str, target: str, *, ondelete: str = "CASCADE", nullable: bool = False
) -> Column[int]:
    return Column(name, Integer, ForeignKey(target, ondelete=ondelete), nullable=nullable)


queries = Table(
    "queries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("external_id", String, nullable=False, unique=True),
    Column("text", Text, nullable=False, default=""),
    Column("description", Text),
    Column("narrative", Text),
)

documents = Table(
    "documents",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("external_id", String, nullable=False, unique=True),
    Column("title", Text, nullable=False, default=""),
    Column("text", Text, nullable=False, default=""),
    Column("url", Text, nullable=False, default=""),
)

runs = Table(
    "runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", Text, nullable=False, default=""),
    _timestamp("created_at"),
    # NULL when the file's rank column orders the run (``--order rank``); else the first
    # reason it cannot, as ``FILE:LINE: rank: ...`` (migration 0003).
    Column("rank_problem", Text),
)

# One line of a run: a document returned for a query at a rank with a score.
#
# ``rank`` is the rank column of the imported file when it is an integer that fits 32 bits, else
# NULL; trec_eval ignores it (0-based, negative and repeated ranks are kept as written).
# ``position`` is the document's 1-based place in trec_eval's order (score descending, ties by
# document id descending), computed at import by the domain's run ordering; scoring reads
# ``position <= K`` first and the annotation pool is every run's ``position <= D``.
#
# A clustered table on SQLite (``sqlite_with_rowid=False``): the primary key (query first) also
# serves the annotation pool (all runs' results of one query) and scoring's full scan; one B-tree
# keeps bulk imports fast. ``position`` is unique per (run, query) by construction; ``rank`` is
# unique per (run, query) unless ``runs.rank_problem`` says why not.
results = Table(
    "results",
    metadata,
    Column("query_id", Integer, ForeignKey("queries.id", ondelete="CASCADE"), primary_key=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "document_id", Integer, ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("rank", Integer),
    Column("position", Integer, nullable=False),
    Column("score", Float, nullable=False),
    CheckConstraint("position >= 1", name="position_positive"),
    sqlite_with_rowid=False,
)

annotators = Table(
    "annotators",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    _timestamp("created_at"),
    # Team mode (PostgreSQL): the server login that may write this annotator's judgments (row-
    # level security compares it with ``current_user``); NULL for annotators without one.
    Column("login", String),
    Index("ix_annotators_login", "login", unique=True),
)

#: The ``write_id`` of a judgment or adjudication names the app's last write of the row (a
#: client-generated UUID, hex); the history trigger copies it into the history row of that write,
#: where it is unique, so a write retried after a lost COMMIT acknowledgement can see that it
#: already landed. NULL for rows written by imports or plain SQL.
WRITE_ID_LENGTH = 32

# One annotator's grade of one document for one query.
judgments = Table(
    "judgments",
    metadata,
    Column("id", Integer, primary_key=True),
    _fk("query_id", "queries.id"),
    _fk("document_id", "documents.id"),
    _fk("annotator_id", "annotators.id"),
    Column("grade", SmallInteger, nullable=False),
    Column("note", Text),
    _timestamp("created_at"),
    _timestamp("updated_at"),
    Column("write_id", String(WRITE_ID_LENGTH)),
    UniqueConstraint("query_id", "document_id", "annotator_id"),
    CheckConstraint(_JUDGMENT_GRADE_CHECK, name="grade_range"),
    Index("ix_judgments_annotator_query", "annotator_id", "query_id"),
)

# The final grade of a (query, document) set by a lead; wins over the consensus.
adjudications = Table(
    "adjudications",
    metadata,
    Column("id", Integer, primary_key=True),
    _fk("query_id", "queries.id"),
    _fk("document_id", "documents.id"),
    Column("grade", SmallInteger, nullable=False),
    _fk("adjudicator_id", "annotators.id"),
    Column("note", Text),
    _timestamp("updated_at"),
    Column("write_id", String(WRITE_ID_LENGTH)),
    UniqueConstraint("query_id", "document_id"),
    CheckConstraint(_GRADE_CHECK, name="grade_range"),
)

# Append-only log of every change of a judgment or an adjudication, written by the database
# itself: triggers (migration 0004) append one row for every INSERT, every UPDATE that changes the
# grade or the note, and every DELETE of a judgment or an adjudication, whoever runs it (the app,
# an import, plain SQL). On PostgreSQL they are SECURITY DEFINER functions of the owner, so
# annotator logins, which may only read this table, cannot forge, alter or delete history.
#
# ``kind`` is ``judgment`` (``annotator_id`` is whose judgment changed) or ``adjudication``
# (``annotator_id`` is NULL). ``old_grade`` NULL means the grade was created; ``new_grade`` NULL
# means it was cleared. ``changed_by`` is the annotator who made the change: the judgment's own
# annotator, or for an adjudication its (last) adjudicator. ``write_id``: see WRITE_ID_LENGTH.
judgment_history = Table(
    "judgment_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("kind", String(20), nullable=False, default="judgment"),
    _fk("query_id", "queries.id"),
    _fk("document_id", "documents.id"),
    _fk("annotator_id", "annotators.id", nullable=True),
    Column("old_grade", SmallInteger),
    Column("new_grade", SmallInteger),
    Column("old_note", Text),
    Column("new_note", Text),
    _fk("changed_by", "annotators.id", ondelete="SET NULL", nullable=True),
    _timestamp("changed_at"),
    Column("write_id", String(WRITE_ID_LENGTH)),
    CheckConstraint("kind IN ('judgment', 'adjudication')", name="kind"),
    Index("ix_judgment_history_item", "query_id", "document_id"),
    # partial: imports and plain SQL leave write_id NULL, and a million imported judgments
    # should not add a million index entries
    Index(
        "ix_judgment_history_write_id",
        "write_id",
        unique=True,
        sqlite_where=text("write_id IS NOT NULL"),
        postgresql_where=text("write_id IS NOT NULL"),
    ),
)
