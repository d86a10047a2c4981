"""The database schema as SQLAlchemy 2.x typed ORM models.

Constraint names come from a naming convention so that Alembic migrations (batch mode on SQLite)
can address them. Bulk paths (import, scoring) use the ``__table__`` objects with SQLAlchemy Core;
the ORM classes serve single-row use cases.

Grades are integers 0–4 (0 irrelevant, 1 marginal, 2 relevant, 3 highly relevant, 4 perfect),
enforced by CHECK constraints. Every change of a judgment or an adjudication is appended to
``judgment_history`` by the services layer, so no grade is ever silently lost.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import cast

from sqlalchemy import (
    CheckConstraint,
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
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIN_GRADE = 0
MAX_GRADE = 4

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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


_GRADE_CHECK = f"grade BETWEEN {MIN_GRADE} AND {MAX_GRADE}"


class Query(Base):
    __tablename__ = "queries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    external_id: Mapped[str] = mapped_column(String, unique=True)
    text: Mapped[str] = mapped_column(Text, default="")
    description: Mapped[str | None] = mapped_column(Text)
    narrative: Mapped[str | None] = mapped_column(Text)


class Document(Base):
    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    external_id: Mapped[str] = mapped_column(String, unique=True)
    title: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text, default="")
    url: Mapped[str] = mapped_column(Text, default="")


class Run(Base):
    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    description: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, server_default=func.current_timestamp()
    )


class Result(Base):
    """One line of a run: a document returned for a query at a rank with a score.

    ``rank`` is the rank column of the imported file. ``position`` is the document's 1-based place
    in trec_eval's order (score descending, ties by document id descending), computed at import by
    the domain's run ordering; scoring reads ``position <= K`` first and the annotation pool is
    every run's ``position <= D``.
    """

    __tablename__ = "results"
    __table_args__ = (
        UniqueConstraint("run_id", "query_id", "rank"),
        CheckConstraint("rank >= 1", name="rank_positive"),
        CheckConstraint("position >= 1", name="position_positive"),
        # A clustered table on SQLite: the primary key (query first) also serves the annotation
        # pool (all runs' results of one query) and scoring's full scan; two B-trees in all keep
        # bulk imports fast. ``position`` is unique per (run, query) by construction.
        {"sqlite_with_rowid": False},
    )

    query_id: Mapped[int] = mapped_column(
        ForeignKey("queries.id", ondelete="CASCADE"), primary_key=True
    )
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    document_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    rank: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)


class Annotator(Base):
    __tablename__ = "annotators"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, server_default=func.current_timestamp()
    )


class Judgment(Base):
    """One annotator's grade of one document for one query."""

    __tablename__ = "judgments"
    __table_args__ = (
        UniqueConstraint("query_id", "document_id", "annotator_id"),
        CheckConstraint(_GRADE_CHECK, name="grade_range"),
        Index("ix_judgments_annotator_query", "annotator_id", "query_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    query_id: Mapped[int] = mapped_column(ForeignKey("queries.id", ondelete="CASCADE"))
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    annotator_id: Mapped[int] = mapped_column(ForeignKey("annotators.id", ondelete="CASCADE"))
    grade: Mapped[int] = mapped_column(SmallInteger)
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, server_default=func.current_timestamp()
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, server_default=func.current_timestamp()
    )


class Adjudication(Base):
    """The final grade of a (query, document) set by a lead; wins over the consensus."""

    __tablename__ = "adjudications"
    __table_args__ = (
        UniqueConstraint("query_id", "document_id"),
        CheckConstraint(_GRADE_CHECK, name="grade_range"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    query_id: Mapped[int] = mapped_column(ForeignKey("queries.id", ondelete="CASCADE"))
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    grade: Mapped[int] = mapped_column(SmallInteger)
    adjudicator_id: Mapped[int] = mapped_column(ForeignKey("annotators.id", ondelete="CASCADE"))
    note: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, server_default=func.current_timestamp()
    )


class JudgmentHistory(Base):
    """Append-only log of every change of a judgment or an adjudication.

    ``kind`` is ``judgment`` (``annotator_id`` is whose judgment changed) or ``adjudication``
    (``annotator_id`` is NULL). ``old_grade`` NULL means the grade was created; ``new_grade`` NULL
    means it was cleared. ``changed_by`` is the annotator who made the change.
    """

    __tablename__ = "judgment_history"
    __table_args__ = (
        CheckConstraint("kind IN ('judgment', 'adjudication')", name="kind"),
        Index("ix_judgment_history_item", "query_id", "document_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), default="judgment")
    query_id: Mapped[int] = mapped_column(ForeignKey("queries.id", ondelete="CASCADE"))
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    annotator_id: Mapped[int | None] = mapped_column(
        ForeignKey("annotators.id", ondelete="CASCADE")
    )
    old_grade: Mapped[int | None] = mapped_column(SmallInteger)
    new_grade: Mapped[int | None] = mapped_column(SmallInteger)
    old_note: Mapped[str | None] = mapped_column(Text)
    new_note: Mapped[str | None] = mapped_column(Text)
    changed_by: Mapped[int | None] = mapped_column(ForeignKey("annotators.id", ondelete="SET NULL"))
    changed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, server_default=func.current_timestamp()
    )


#: Core tables, for bulk statements.
queries = cast(Table, Query.__table__)
documents = cast(Table, Document.__table__)
runs = cast(Table, Run.__table__)
results = cast(Table, Result.__table__)
annotators = cast(Table, Annotator.__table__)
judgments = cast(Table, Judgment.__table__)
adjudications = cast(Table, Adjudication.__table__)
judgment_history = cast(Table, JudgmentHistory.__table__)
