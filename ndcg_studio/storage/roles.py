"""Team mode on PostgreSQL: annotator and lead logins, and what the server lets them write.

What a login may do is enforced by the server, not by the app (migration 0004 and the grants
here; see README "Team mode", set-up B):

- an **annotator** is blind to the others: it reads only its own judgments and their history,
  no adjudication and no gold answer (``campaign_items.gold_grade``); the view
  ``item_grade_counts`` tells it how many grades each item has, and nothing else, and
  ``item_grade_changes`` which items' grades changed (not who or how; row-level
  security and column privileges, migration 0011). It reads the rest (queries, documents, runs,
  campaigns); it writes judgments only of the annotator whose
  ``annotators.login`` is that login (row-level security, plus a guard trigger that refuses any
  other row with a one-line message); it may update only a judgment's grade, note, ``updated_at``
  and ``write_id`` (column privileges: a judgment cannot be moved to another annotator, query or
  document); it may import a file of its own judgments; it writes nothing else (no runs,
  queries, documents, annotators, adjudications or history);
- in judging campaigns an annotator holds (leases), marks ("can't judge", "later", the seconds a
  grade took) and releases only its own items (row-level security, migration 0006);
- a **lead** login is an annotator that may also adjudicate, in its own name only, and create,
  change and close campaigns; it reads every grade and gold answer;
- the **history** is written by SECURITY DEFINER triggers of the owner, so no login but the owner
  can insert, change or delete history rows.

An annotator's name in the app is its login name. :func:`add_member` is run by the database owner
(who owns the tables and needs the ``CREATEROLE`` attribute to create logins) or a superuser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, DatabaseError

#: PostgreSQL's longest identifier (NAMEDATALEN - 1 bytes).
_MAX_NAME_BYTES = 63
#: Login names: letters, digits and ``_ . @ -`` (a name that is also a safe file, URL and
#: ``.pgpass`` user without quoting).
_NAME = re.compile(r"[A-Za-z0-9_.@-]+")
#: What an annotator may update in its own judgments (column privileges).
_JUDGMENT_COLUMNS = ("grade", "note", "updated_at", "write_id")
_ADJUDICATION_COLUMNS = ("grade", "note", "adjudicator_id", "updated_at", "write_id")
#: Campaign tables an annotator writes (its own rows only: row-level security).
_CAMPAIGN_WORK = ("campaign_leases", "campaign_states")
#: Campaign tables a lead writes (creating and closing campaigns).
_CAMPAIGN_SETUP = (
    "campaigns",
    "campaign_runs",
    "campaign_annotators",
    "campaign_items",
    "campaign_queries",
)
#: What an annotator may read of a campaign's items: not ``gold_grade``, the gold answer.
_ITEM_COLUMNS = ("campaign_id", "query_id", "document_id", "gold", "shuffle")


@dataclass(frozen=True, slots=True)
class Member:
    """What :func:`add_member` did: the login, whether it was created now (else it existed and
    got the grants), its role, and the database it was granted."""

    login: str
    created: bool
    lead: bool
    database: str


@dataclass(frozen=True, slots=True)
class Rights:
    """What the login of an open database may do, so the app offers only that (the server
    enforces it either way).

    Attributes:
        login: the PostgreSQL login (the annotator name it grades under), or None for an SQLite
            file, which has no logins.
        owner: owns the tables (or is a superuser): imports, campaigns, adjudication, all.
        lead: may adjudicate and create campaigns (a lead login, or the owner).
    """

    login: str | None
    owner: bool
    lead: bool

    @property
    def team(self) -> bool:
        """A team database (PostgreSQL): annotator names are logins."""
        return self.login is not None


#: an SQLite file: one person, every right
SOLE = Rights(login=None, owner=True, lead=True)


def rights_of(database: Database) -> Rights:
    """The :class:`Rights` of ``database``'s login: three catalogue look-ups on PostgreSQL,
    :data:`SOLE` for SQLite."""
    if database.is_sqlite:
        return SOLE
    with database.engine.connect() as conn:
        login, owner, lead = conn.execute(
            text(
                "SELECT current_user, "
                "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user) "
                "OR pg_has_role(current_user, "
                "(SELECT relowner FROM pg_class WHERE oid = 'judgments'::regclass), 'USAGE'), "
                "has_table_privilege(current_user, 'campaigns', 'INSERT')"
            )
        ).one()
    return Rights(login=str(login), owner=bool(owner), lead=bool(owner or lead))


def _quote(conn: Connection, name: str) -> str:
    return str(conn.execute(text("SELECT quote_ident(:n)"), {"n": name}).scalar_one())


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ValueError("a login needs a name")
    if len(name.encode()) > _MAX_NAME_BYTES:
        raise ValueError(f"a login name has at most {_MAX_NAME_BYTES} bytes: {name!r}")
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name!r} cannot be a login name: use letters, digits and _ . @ - only")
    if name.lower().startswith("pg_"):
        raise ValueError(f"{name!r} cannot be a login name (pg_ names are PostgreSQL's own)")
    return name


def _require_postgres(database: Database) -> None:
    if database.is_sqlite:
        raise DatabaseError(
            f"{database.label} is an SQLite file, which has no logins: team logins exist on a "
            "PostgreSQL team database (--db postgresql://owner@host/dbname)"
        )


def add_member(database: Database, name: str, *, lead: bool) -> Member:
    """Create the login ``name`` (``LOGIN``, no password yet) unless it exists, grant it the
    annotator's (or with ``lead`` the lead's) rights on this database, and make it the login of
    the annotator ``name`` (created if missing). Idempotent; running ``add-annotator`` for a lead
    takes the adjudication rights away again.

    Raises:
        ValueError: ``name`` is empty, too long or reserved; or it is the login of the tables'
            owner or of a superuser (:func:`_refuse_unbound`).
        DatabaseError: not a PostgreSQL database, or the server refused (the message says to
            run it as the owner with CREATEROLE, or as a superuser).
    """
    _require_postgres(database)
    name = _check_name(name)
    try:
        with database.engine.begin() as conn:
            _refuse_unbound(conn, name)
            return _add_member(conn, name, lead)
    except DBAPIError as exc:
        first = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        raise DatabaseError(
            f"could not set up the login {name!r} on {database.label}: {first}. Run 'ndcg-studio "
            "team' as the database's owner (whose role has CREATEROLE) or as a superuser"
        ) from exc


def _refuse_unbound(conn: Connection, name: str) -> None:
    """Refuse to make a member of a login that the team's rules cannot bind: the owner of the
    tables (grants and revokes apply to it too, so ``add-annotator`` on the owner's own login
    took away its campaign and adjudication rights, and then no one could create a campaign),
    or a superuser (row security and privileges do not bind it: "annotator" would be a lie, it
    can rewrite anyone's grades)."""
    owner = conn.execute(
        text("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'judgments'::regclass")
    ).scalar_one()
    if name == owner:
        raise ValueError(
            f"{name!r} owns the team database's tables and keeps every right: it cannot be "
            "made an annotator or a lead. Give each person a login of their own "
            "('ndcg-studio team add-annotator NAME')"
        )
    superuser = conn.execute(
        text("SELECT rolsuper FROM pg_roles WHERE rolname = :n"), {"n": name}
    ).scalar()
    if superuser:
        raise ValueError(
            f"{name!r} is a PostgreSQL superuser: row security does not bind it, so it could "
            "change anyone's grades. Give the person a login of their own without SUPERUSER "
            "('ndcg-studio team add-annotator NAME' with another name)"
        )


def _add_member(conn: Connection, name: str, lead: bool) -> Member:
    # PostgreSQL only: imported here so that SQLite processes never load that dialect
    from sqlalchemy.dialects.postgresql import insert

    login = _quote(conn, name)
    exists = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first()
    if exists is None:
        conn.exec_driver_sql(f"CREATE ROLE {login} LOGIN")
    dbname, schema = conn.execute(text("SELECT current_database(), current_schema()")).one()
    db_q, schema_q = _quote(conn, str(dbname)), _quote(conn, str(schema))
    judgment_cols = ", ".join(_JUDGMENT_COLUMNS)
    statements = [
        # TEMPORARY: an import of the login's own judgments stages its rows in a temp table
        f"GRANT CONNECT, TEMPORARY ON DATABASE {db_q} TO {login}",
        f"GRANT USAGE ON SCHEMA {schema_q} TO {login}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema_q} TO {login}",
        # blind: no gold answers (a table-level REVOKE also drops the column grants)
        f"REVOKE SELECT ON campaign_items FROM {login}",
        f"GRANT SELECT ({', '.join(_ITEM_COLUMNS)}) ON campaign_items TO {login}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema_q} TO {login}",
        f"GRANT INSERT, DELETE ON judgments TO {login}",
        f"GRANT UPDATE ({judgment_cols}) ON judgments TO {login}",
        f"REVOKE INSERT, UPDATE, DELETE ON adjudications FROM {login}",
        f"REVOKE UPDATE ({', '.join(_ADJUDICATION_COLUMNS)}) ON adjudications FROM {login}",
        f"GRANT INSERT, UPDATE, DELETE ON {', '.join(_CAMPAIGN_WORK)} TO {login}",
        f"REVOKE INSERT, UPDATE, DELETE ON {', '.join(_CAMPAIGN_SETUP)} FROM {login}",
        # tables of later releases stay readable
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema_q} GRANT SELECT ON TABLES TO {login}",
    ]
    if lead:
        statements += [
            f"GRANT INSERT, DELETE ON adjudications TO {login}",
            f"GRANT UPDATE ({', '.join(_ADJUDICATION_COLUMNS)}) ON adjudications TO {login}",
            f"GRANT INSERT, UPDATE, DELETE ON {', '.join(_CAMPAIGN_SETUP)} TO {login}",
            f"GRANT SELECT ON campaign_items TO {login}",
        ]
    for statement in statements:
        conn.exec_driver_sql(statement)
    a = models.annotators
    stmt = insert(a).values(name=name, login=name, created_at=models.utcnow())
    conn.execute(stmt.on_conflict_do_update(index_elements=[a.c.name], set_={"login": name}))
    return Member(login=name, created=exists is None, lead=lead, database=str(dbname))


def set_password(database: Database, name: str, password: str) -> None:
    """Set the password of the login ``name``, encrypted on this machine by libpq (SCRAM, as
    psql's ``\\password`` does), so that the clear text reaches neither the server's log nor its
    statistics.

    Raises:
        ValueError: empty password.
        DatabaseError: not PostgreSQL, or the server refused.
    """
    _require_postgres(database)
    name = _check_name(name)
    if not password:
        raise ValueError("an empty password would let no one in: give one")
    try:
        with database.engine.begin() as conn:
            raw: Any = conn.connection.dbapi_connection
            encrypted = raw.pgconn.encrypt_password(password.encode(), name.encode()).decode()
            login = _quote(conn, name)
            literal = conn.execute(text("SELECT quote_literal(:p)"), {"p": encrypted}).scalar_one()
            conn.exec_driver_sql(f"ALTER ROLE {login} PASSWORD {literal}")
    except DBAPIError as exc:
        first = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        raise DatabaseError(f"could not set the password of {name!r}: {first}") from exc
