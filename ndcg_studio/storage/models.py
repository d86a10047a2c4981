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

On PostgreSQL the ten foreign keys of ``judgments``, ``results`` and ``judgment_history`` are
declared here but enforced set-wise by statement-level triggers (migration 0008: one check per
statement instead of one per row, same refusals and error codes, same cascades);
``tests/storage/test_database.py`` allows exactly those ten to differ from this metadata.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
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
    false,
    func,
    text,
)
from sqlalchemy.schema import SchemaItem

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


def _table_with_id(name: str, *items: SchemaItem) -> Table:
    """A table whose rows are addressed by an integer ``id``, its primary key and first column."""
    return Table(name, metadata, Column("id", Integer, primary_key=True), *items)


def _named_table(name: str, key: str, *items: SchemaItem) -> Table:
    """A :func:`_table_with_id` of named things: its second column ``key`` (the external id or
    the name) is a string, NOT NULL and unique."""
    return _table_with_id(name, Column(key, String, nullable=False, unique=True), *items)


queries = _named_table(
    "queries",
    "external_id",
    Column("text", Text, nullable=False, default=""),
    Column("description", Text),
    Column("narrative", Text),
)

documents = _named_table(
    "documents",
    "external_id",
    Column("title", Text, nullable=False, default=""),
    Column("text", Text, nullable=False, default=""),
    Column("url", Text, nullable=False, default=""),
)

runs = _named_table(
    "runs",
    "name",
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

annotators = _named_table(
    "annotators",
    "name",
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

#: Kinds of a judgment source (``sources.kind``).
SOURCE_KINDS = ("human", "vendor", "model")

# A judgment source: a team of assessors, a vendor's qrels, a model's (LLM) judgments. Its grades
# can be scored on their own like an annotator's (see services/stability.py).
sources = _named_table(
    "sources",
    "name",
    Column("kind", String(10), nullable=False, default="human"),
    Column("description", Text, nullable=False, default=""),
    _timestamp("created_at"),
    CheckConstraint("kind IN ('human', 'vendor', 'model')", name="kind"),
)

# Which source an annotator belongs to (at most one). An annotator without a row here is a
# human of no named source. A table of its own rather than a column of ``annotators``: adding a
# foreign key to ``annotators`` on SQLite would rebuild that parent table (migration 0005).
annotator_sources = Table(
    "annotator_sources",
    metadata,
    Column(
        "annotator_id",
        Integer,
        ForeignKey("annotators.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    _fk("source_id", "sources.id"),
    Index("ix_annotator_sources_source", "source_id"),
)

# One annotator's grade of one document for one query.
judgments = _table_with_id(
    "judgments",
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
adjudications = _table_with_id(
    "adjudications",
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
judgment_history = _table_with_id(
    "judgment_history",
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
    # should not add a million index entries. Partial on PostgreSQL too (migration 0004 says
    # so); ``postgresql_where`` is not repeated here because naming it loads SQLAlchemy's
    # PostgreSQL dialect into every process, SQLite ones included (``bench_startup.py``).
    # Alembic's autogenerate compares neither predicate.
    Index(
        "ix_judgment_history_write_id",
        "write_id",
        unique=True,
        sqlite_where=text("write_id IS NOT NULL"),
    ),
)

# ------------------------------------------------------------------------------ campaigns
# A judging campaign (migration 0006): who judges which pooled items, how many times (overlap),
# with gold items mixed in blind and guidelines shown beside the document. Grades themselves stay
# in ``judgments`` (one grade per annotator and item, whichever campaign or import wrote it), so
# an item judged in one campaign counts in every campaign that pools it.
CAMPAIGN_STATES = ("graded", "cant_judge", "later")

campaigns = _named_table(
    "campaigns",
    "name",
    Column("guidelines", Text, nullable=False, default=""),
    Column("pool_depth", Integer, nullable=False),
    # the order the queue offers the pool in (every run's top D): ``depth`` (fewest grades
    # first, seeded shuffle), ``mtf``, ``bandit``, ``ab`` (see services/campaigns/order.py) or
    # ``ppi`` (query by query, the drawn queries of ``campaign_queries`` by decreasing π)
    Column("pool_strategy", String(20), nullable=False, default="depth"),
    # the ``ab`` strategy's cutoff K (migration 0007); its runs A and B: campaign_runs.pair_side
    Column("pool_k", Integer),
    Column("overlap", Integer, nullable=False),
    Column("gold_rate", Float, nullable=False, default=0.05),
    # gold accuracy (exact) below this is flagged on the lead's dashboard
    Column("gold_threshold", Float, nullable=False, default=0.7),
    # the query selection: NULL every query of the runs (or the listed ones), else a sample
    Column("query_sample", Integer),
    Column("seed", Integer),
    Column("status", String(10), nullable=False, default="open"),
    _timestamp("created_at"),
    Column("closed_at", DateTime(timezone=True)),
    CheckConstraint("overlap >= 1", name="overlap_positive"),
    CheckConstraint("pool_depth >= 1", name="depth_positive"),
    CheckConstraint("gold_rate >= 0 AND gold_rate <= 1", name="gold_rate_range"),
    CheckConstraint("status IN ('open', 'closed')", name="status"),
)


def _campaign_key(*, item: bool, annotator: bool) -> list[Column[int]]:
    """The primary key columns a campaign table shares: the campaign, then (``item``) the query
    and document, then (``annotator``) the annotator, each a foreign key deleted with its row."""
    targets = [("campaign_id", "campaigns.id")]
    if item:
        targets += [("query_id", "queries.id"), ("document_id", "documents.id")]
    if annotator:
        targets.append(("annotator_id", "annotators.id"))
    return [
        Column(name, Integer, ForeignKey(target, ondelete="CASCADE"), primary_key=True)
        for name, target in targets
    ]


campaign_runs = Table(
    "campaign_runs",
    metadata,
    *_campaign_key(item=False, annotator=False),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    # ``a`` / ``b``: run A or B of the ``ab`` pool strategy's pair (migration 0007); else NULL
    Column("pair_side", String(1)),
    CheckConstraint("pair_side IN ('a', 'b')", name="pair_side"),
)

campaign_annotators = Table(
    "campaign_annotators",
    metadata,
    *_campaign_key(item=False, annotator=True),
)

# The campaign's items, fixed when it is created: the pooled (query, document) pairs and the gold
# items (``gold_grade`` not NULL: the known grade). ``shuffle`` is a seeded pseudo-random order
# key, so the queue's ties are blind to runs and ranks.
campaign_items = Table(
    "campaign_items",
    metadata,
    *_campaign_key(item=True, annotator=False),
    Column("gold_grade", SmallInteger),
    Column("shuffle", Integer, nullable=False),
    # a gold item? What the queue reads: an annotator login may not read ``gold_grade`` (the
    # answer) on PostgreSQL (migration 0011, ``storage/roles.py``)
    Column("gold", Boolean, nullable=False, default=False, server_default=false()),
    CheckConstraint(f"gold_grade BETWEEN {MIN_GRADE} AND {MAX_GRADE}", name="gold_grade_range"),
    CheckConstraint("gold = (gold_grade IS NOT NULL)", name="gold_flag"),
    # the queue walks a campaign's items in shuffle order and stops early
    Index("ix_campaign_items_shuffle", "campaign_id", "shuffle"),
)

# The ``ppi`` order's draw of queries (migration 0012; active human sampling, Zrnic & Candès
# 2024): every query of the campaign with its inclusion probability π in (0, 1] and whether it
# was drawn (ξ ~ Bernoulli(π), seeded); only drawn queries have items. The estimate weights a
# judged query by 1 / π (services/estimation/service.py).
campaign_queries = Table(
    "campaign_queries",
    metadata,
    *_campaign_key(item=False, annotator=False),
    Column("query_id", Integer, ForeignKey("queries.id", ondelete="CASCADE"), primary_key=True),
    Column("inclusion_probability", Float, nullable=False),
    Column("sampled", Boolean, nullable=False),
    CheckConstraint(
        "inclusion_probability > 0 AND inclusion_probability <= 1", name="probability_range"
    ),
)

# An item held by an annotator (offered by the queue) until ``expires_at``; an expired lease is
# free. One row per (campaign, item, annotator).
campaign_leases = Table(
    "campaign_leases",
    metadata,
    *_campaign_key(item=True, annotator=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_campaign_leases_annotator", "annotator_id", "campaign_id"),
)

# What an annotator did with a campaign item besides (or with) grading it: ``graded`` (the grade
# is in ``judgments``; ``seconds`` from showing the document to the grade), ``cant_judge`` (with
# a ``reason``) or ``later`` (skipped for now). Not a grade: scoring and agreement read only
# ``judgments``, so "can't judge" and "later" never enter scores or agreement.
campaign_states = Table(
    "campaign_states",
    metadata,
    *_campaign_key(item=True, annotator=True),
    Column("state", String(12), nullable=False),
    Column("reason", Text),
    Column("seconds", Float),
    _timestamp("updated_at"),
    CheckConstraint(f"state IN {CAMPAIGN_STATES!r}", name="state"),
    CheckConstraint("seconds IS NULL OR seconds >= 0", name="seconds_nonnegative"),
    Index("ix_campaign_states_annotator", "annotator_id", "campaign_id"),
)

# ------------------------------------------------------------------------------ machine judges
#: What became of a machine judge's request for one item (``judge_labels.status``).
JUDGE_STATUSES = ("graded", "unparsed", "failed")

# The provenance of every machine label (migration 0010): which annotator of a ``model`` source
# graded which item, with which model (as asked, and as the server reported it), template
# (SHA-256 of what was sent and how it was read) and parameters (JSON: backend, temperature,
# max_tokens, ...; never a key), when, for how many tokens, and the raw answer. ``graded`` rows
# hold the grade written into ``judgments``; ``unparsed`` rows (an answer that could not be
# read) and ``failed`` rows (no answer after the retries) keep the raw text or the error and are
# asked again on request. One row per (annotator, item, template, model asked): a resumed job
# never asks again for a row that is ``graded``.
judge_labels = _table_with_id(
    "judge_labels",
    _fk("annotator_id", "annotators.id"),
    _fk("query_id", "queries.id"),
    _fk("document_id", "documents.id"),
    Column("template_hash", String(64), nullable=False),
    Column("template_name", String, nullable=False),
    Column("model", String, nullable=False),
    Column("model_reported", String),
    Column("params", Text, nullable=False, default="{}"),
    Column("status", String(10), nullable=False),
    Column("grade", SmallInteger),
    Column("raw_answer", Text),
    Column("problem", Text),
    Column("prompt_tokens", Integer),
    Column("completion_tokens", Integer),
    _timestamp("created_at"),
    UniqueConstraint("annotator_id", "query_id", "document_id", "template_hash", "model"),
    CheckConstraint(f"status IN {JUDGE_STATUSES!r}", name="status"),
    CheckConstraint(_GRADE_CHECK, name="grade_range"),
)
