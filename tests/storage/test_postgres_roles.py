"""Set-up B of docs/team-mode.md on the real test server (issue #14.4): the superuser's SQL block
of the doc verbatim, the owner's first open (migration), ``ndcg-studio team add-annotator`` /
``add-lead``; then every forbidden route — plain SQL and the app — is refused by the server with a
one-line message, and every allowed route is recorded in the history by the server's triggers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from ndcg_studio.app import main
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.campaigns.types import PoolStrategy
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, DatabaseError, open_database
from ndcg_studio.storage.resilience import WriteRefused
from tests.pg import SUPERUSER, PostgresServer

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "team-mode.md", ROOT / "README.md")
LOGINS = ("alice", "bob", "carol", "studio_owner")
DATABASES = ("relevance", "relevance_next")


def superuser_block() -> list[str]:
    """The statements of the doc's ```sql block (psql meta-commands and comments left out)."""
    (block,) = re.findall(r"```sql\n(.*?)```", DOCS[0].read_text(encoding="utf-8"), flags=re.S)
    lines = [ln for ln in block.splitlines() if not ln.startswith(("\\", "--"))]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def test_readme_leads_to_the_team_mode_page() -> None:
    assert "](docs/team-mode.md)" in DOCS[1].read_text(encoding="utf-8")
    assert DOCS[0].read_text(encoding="utf-8").startswith("# Team mode")


def _url(server: PostgresServer, user: str, dbname: str = "relevance") -> str:
    return f"postgresql://{user}@127.0.0.1:{server.port}/{dbname}"


def _sql(server: PostgresServer, user: str, statement: str, dbname: str = "relevance") -> None:
    with psycopg.connect(
        host="127.0.0.1", port=server.port, user=user, dbname=dbname, autocommit=True
    ) as conn:
        conn.execute(statement)


def _team(capsys: pytest.CaptureFixture[str], server: PostgresServer, *args: str) -> str:
    code = main(["--db", _url(server, "studio_owner"), "team", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out + err


@pytest.fixture
def team(
    postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> Iterator[PostgresServer]:
    server = postgres_server
    for statement in superuser_block():
        _sql(server, SUPERUSER, statement, "postgres")
    open_database(_url(server, "studio_owner")).dispose()  # the owner's first open migrates
    out = _team(capsys, server, "add-annotator", "alice")
    assert "login 'alice' created" in out and "\\password alice" in out
    _team(capsys, server, "add-annotator", "bob")
    _team(capsys, server, "add-lead", "carol")
    owner = open_database(_url(server, "studio_owner"))
    with owner.engine.begin() as conn:  # the owner imports the catalogue
        conn.execute(models.queries.insert(), [{"id": 1, "external_id": "q1", "text": "ocean"}])
        conn.execute(
            models.documents.insert(),
            [{"id": i, "external_id": f"d{i}", "title": "", "text": "", "url": ""} for i in (1, 2)],
        )
    owner.dispose()
    try:
        yield server
    finally:
        for name in DATABASES:
            server.admin_execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        for role in LOGINS:
            server.admin_execute(f"DROP ROLE IF EXISTS {role}")


def _as(server: PostgresServer, login: str) -> tuple[Database, AnnotationService]:
    database = open_database(_url(server, login))  # at head: no migration needed
    return database, AnnotationService(database)


def _refused(server: PostgresServer, login: str, statement: str) -> str:
    """Run ``statement`` as ``login``; the server's one-line refusal."""
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as info:
        _sql(server, login, statement)
    message = info.value.diag.message_primary or ""
    assert message and "\n" not in message
    return message


def _history(server: PostgresServer) -> list[tuple[str, str | None, int | None, int | None, str]]:
    owner = open_database(_url(server, "studio_owner"))
    h, a = models.judgment_history, models.annotators
    try:
        with owner.engine.connect() as conn:
            whose = a.alias("whose")
            rows = conn.execute(
                select(h.c.kind, whose.c.name, h.c.old_grade, h.c.new_grade, a.c.name)
                .select_from(h.outerjoin(whose, whose.c.id == h.c.annotator_id))
                .join(a, a.c.id == h.c.changed_by)
                .order_by(h.c.id)
            ).all()
    finally:
        owner.dispose()
    return [tuple(r) for r in rows]  # type: ignore[misc]


def test_allowed_routes_are_recorded_by_the_server(team: PostgresServer, tmp_path: Path) -> None:
    alice_db, alice_app = _as(team, "alice")
    carol_db, carol_app = _as(team, "carol")
    try:
        alice = alice_app.ensure_annotator("alice")
        carol = carol_app.ensure_annotator("carol")
        alice_app.set_grade(alice.id, 1, 1, 3, note="about oceans")
        alice_app.set_grade(alice.id, 1, 1, 2)
        alice_app.set_grade(alice.id, 1, 1, None)  # clearing deletes the row
        carol_app.set_adjudication(1, 1, 2, by=carol.id)
        carol_app.set_grade(carol.id, 1, 2, 1)  # a lead grades too
        csv = tmp_path / "mine.csv"  # alice imports her own judgments
        csv.write_text("query_id,doc_id,annotator,grade\nq1,d1,alice,4\nq1,d2,alice,0\n")
        ImportService(alice_db).import_judgments(csv)
        _sql(team, "alice", "UPDATE judgments SET grade = 1 WHERE document_id = 2 AND "
             "annotator_id = (SELECT id FROM annotators WHERE login = current_user)")  # fmt: skip
    finally:
        alice_db.dispose()
        carol_db.dispose()
    assert _history(team) == [
        ("judgment", "alice", None, 3, "alice"),
        ("judgment", "alice", 3, 2, "alice"),
        ("judgment", "alice", 2, None, "alice"),
        ("adjudication", None, None, 2, "carol"),
        ("judgment", "carol", None, 1, "carol"),
        ("judgment", "alice", None, 4, "alice"),
        ("judgment", "alice", None, 0, "alice"),
        ("judgment", "alice", 0, 1, "alice"),
    ]


def test_forbidden_sql_routes_are_refused_with_one_line(team: PostgresServer) -> None:
    bob_db, bob_app = _as(team, "bob")
    try:
        bob = bob_app.ensure_annotator("bob")
        bob_app.set_grade(bob.id, 1, 1, 3)
    finally:
        bob_db.dispose()
    before = _history(team)
    own = "login alice may change only its own judgments, not those of annotator bob"
    assert own in _refused(team, "alice", "UPDATE judgments SET grade = 0")
    assert own in _refused(team, "alice", "DELETE FROM judgments")
    stolen = "UPDATE judgments SET annotator_id = (SELECT id FROM annotators WHERE name='alice')"
    assert "permission denied for table judgments" in _refused(team, "alice", stolen)
    forged = (
        "INSERT INTO judgments (query_id, document_id, annotator_id, grade) "
        "SELECT 1, 2, id, 4 FROM annotators WHERE name = 'bob'"
    )
    assert "may write only its own judgments, not those of annotator bob" in _refused(
        team, "alice", forged
    )
    history = [
        "INSERT INTO judgment_history (kind, query_id, document_id, annotator_id, new_grade, "
        "changed_by) SELECT 'judgment', 1, 1, id, 4, id FROM annotators WHERE name = 'bob'",
        "UPDATE judgment_history SET new_grade = 4",
        "DELETE FROM judgment_history",
    ]
    for statement in history:
        assert "permission denied for table judgment_history" in _refused(team, "carol", statement)
    assert "permission denied for table adjudications" in _refused(
        team,
        "alice",
        "INSERT INTO adjudications (query_id, document_id, grade, adjudicator_id) "
        "SELECT 1, 1, 4, id FROM annotators WHERE name = 'alice'",
    )
    assert "may adjudicate only in its own name, not as annotator alice" in _refused(
        team,
        "carol",
        "INSERT INTO adjudications (query_id, document_id, grade, adjudicator_id) "
        "SELECT 1, 1, 4, id FROM annotators WHERE name = 'alice'",
    )
    for statement in ("INSERT INTO runs (name) VALUES ('sneaky')", "DELETE FROM queries",
                      "INSERT INTO annotators (name) VALUES ('mallory')"):  # fmt: skip
        assert "permission denied" in _refused(team, "alice", statement)
    assert _history(team) == before  # nothing was written, nothing recorded


def test_forbidden_app_routes_are_refused_with_one_line(
    team: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice_db, alice_app = _as(team, "alice")
    try:
        alice = alice_app.ensure_annotator("alice")
        bob = alice_app.ensure_annotator("bob")  # exists: only read
        with pytest.raises(WriteRefused, match="may write only its own judgments") as info:
            alice_app.set_grade(bob.id, 1, 1, 4)  # grading as another annotator
        assert "\n" not in str(info.value) and "Nothing was written" in str(info.value)
        with pytest.raises(WriteRefused, match="permission denied for table adjudications"):
            alice_app.set_adjudication(1, 1, 4, by=alice.id)  # not a lead
        with pytest.raises(WriteRefused, match="permission denied for table annotators"):
            alice_app.ensure_annotator("mallory")
    finally:
        alice_db.dispose()
    bob_db, bob_app = _as(team, "bob")
    try:
        bob_app.set_grade(bob.id, 1, 1, 3)
    finally:
        bob_db.dispose()
    csv = tmp_path / "theirs.csv"  # an import rewriting bob's grade
    csv.write_text("query_id,doc_id,annotator,grade\nq1,d1,bob,0\n")
    code = main(["--db", _url(team, "alice"), "import", "judgments", str(csv), "-q"])
    _, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    # bob's grade is invisible to alice (migration 0011), so the import writes one of bob's
    assert "may write only its own judgments, not those of annotator bob" in err
    carol_db, carol_app = _as(team, "carol")
    try:
        with pytest.raises(WriteRefused, match="may adjudicate only in its own name"):
            carol_app.set_adjudication(1, 1, 4, by=alice.id)  # a lead, in another's name
    finally:
        carol_db.dispose()
    assert _history(team) == [("judgment", "bob", None, 3, "bob")]


def test_a_lead_clears_another_leads_decision_in_its_own_name(
    team: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _team(capsys, team, "add-lead", "bob")
    bob_db, bob_app = _as(team, "bob")
    try:
        bob_app.set_adjudication(1, 1, 3, by=bob_app.ensure_annotator("bob").id)
    finally:
        bob_db.dispose()
    refusal = "may clear only its own adjudication, not one by annotator bob"
    assert refusal in _refused(team, "carol", "DELETE FROM adjudications")  # plain SQL
    carol_db, carol_app = _as(team, "carol")
    try:  # the app sets the decision in carol's name first, then clears it
        carol_app.set_adjudication(1, 1, None, by=carol_app.ensure_annotator("carol").id)
    finally:
        carol_db.dispose()
    assert _history(team) == [
        ("adjudication", None, None, 3, "bob"),
        ("adjudication", None, 3, None, "carol"),
    ]


def test_history_times_are_utc_whatever_the_server_time_zone(team: PostgresServer) -> None:
    """Issue #15.7: a database whose TimeZone is not UTC shows the same "When (UTC)"."""
    team.admin_execute("ALTER DATABASE relevance SET timezone TO 'Asia/Kolkata'")
    with psycopg.connect(
        host="127.0.0.1", port=team.port, user="alice", dbname="relevance"
    ) as conn:
        assert conn.execute("SHOW TimeZone").fetchone() == ("Asia/Kolkata",)
    alice_db, alice_app = _as(team, "alice")
    try:
        alice = alice_app.ensure_annotator("alice")
        change = alice_app.set_grade(alice.id, 1, 1, 2)
        (entry,) = alice_app.history(1, 1)
        with alice_db.engine.connect() as conn:
            assert conn.execute(text("SHOW TimeZone")).scalar() == "UTC"
    finally:
        alice_db.dispose()
    now = datetime.now(UTC)
    for stamp in (change.changed_at, entry.changed_at):
        assert stamp.utcoffset() == timedelta(0)
        assert abs(stamp - now) < timedelta(minutes=1)
    assert change.changed_at == entry.changed_at


def test_annotator_cannot_migrate_only_the_owner_can(team: PostgresServer) -> None:
    """A database whose schema is behind the app can be migrated only by the owner; an annotator
    gets a clear 'permission denied' DatabaseError, not a crash."""
    from alembic import command

    from ndcg_studio.storage.database import alembic_config

    owner = open_database(_url(team, "studio_owner"))
    with owner.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0002")
    owner.dispose()
    with pytest.raises(
        DatabaseError, match=r"cannot open the database .*(permission denied|must be owner)"
    ):
        open_database(_url(team, "alice"))
    open_database(_url(team, "studio_owner")).dispose()
    open_database(_url(team, "alice")).dispose()


def test_team_commands_refuse_an_sqlite_file_and_bad_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], team: PostgresServer
) -> None:
    sqlite = tmp_path / "a.sqlite"
    assert main(["--db", str(sqlite), "team", "add-annotator", "x"]) == 2  # no such database
    assert "no database at" in capsys.readouterr().err and not sqlite.exists()
    topics = tmp_path / "topics.tsv"
    topics.write_text("q1\tfirst\n")
    assert main(["--db", str(sqlite), "import", "queries", str(topics), "-q"]) == 0
    capsys.readouterr()
    assert main(["--db", str(sqlite), "team", "add-annotator", "x"]) == 1
    assert "SQLite file, which has no logins" in capsys.readouterr().err
    assert main(["--db", _url(team, "studio_owner"), "team", "add-lead", "pg_x"]) == 1
    assert "cannot be a login name" in capsys.readouterr().err
    assert main(["--db", _url(team, "alice"), "team", "add-lead", "dave"]) == 1
    err = capsys.readouterr().err
    assert "could not set up the login 'dave'" in err and "CREATEROLE" in err


def test_password_is_asked_twice_and_stored_encrypted(
    team: PostgresServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["s3cret", "s3cret", "one", "other"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    out = _team(capsys, team, "add-lead", "alice", "--password")
    assert "already existed; rights updated" in out and "password of 'alice' set" in out
    with psycopg.connect(host="127.0.0.1", port=team.port, user=SUPERUSER, dbname="postgres") as c:
        (stored,) = c.execute(
            "SELECT rolpassword FROM pg_authid WHERE rolname = 'alice'"
        ).fetchone()
    assert stored.startswith("SCRAM-SHA-256$") and "s3cret" not in stored
    code = main(["--db", _url(team, "studio_owner"), "team", "add-lead", "bob", "--password"])
    assert code == 1 and "the two passwords differ" in capsys.readouterr().err


def test_campaign_work_as_annotator_and_lead_logins(team: PostgresServer) -> None:
    """Issue #16: an annotator login holds, grades, marks and releases its own campaign items; it
    cannot hold or mark for another annotator, nor create a campaign; a lead can."""
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec

    owner = open_database(_url(team, "studio_owner"))
    with owner.engine.begin() as conn:
        run_id = conn.execute(
            models.runs.insert().values(name="bm25").returning(models.runs.c.id)
        ).scalar_one()
        conn.execute(
            models.results.insert(),
            [
                {"run_id": run_id, "query_id": 1, "document_id": d, "position": d, "score": -d}
                for d in (1, 2)
            ],
        )
    owner.dispose()
    lead_db = open_database(_url(team, "carol"))
    spec = CampaignSpec("c1", ["bm25"], 2, 1, ["alice", "bob"], gold_rate=0.0)
    CampaignService(lead_db).create(spec)
    lead_db.dispose()
    database = open_database(_url(team, "alice"))
    try:
        service = CampaignService(database)
        alice = service.annotation.ensure_annotator("alice").id
        bob = service.annotation.ensure_annotator("bob").id
        items = service.queue("c1", alice, 2)
        assert len(items) == 2
        service.grade("c1", alice, 1, items[0].document_id, 3, explanation="on topic", seconds=2)
        service.mark("c1", alice, 1, items[1].document_id, "cant_judge", "not English")
        assert service.release(alice) == 0
        with pytest.raises(WriteRefused):
            service.queue("c1", bob, 1)
        with pytest.raises(WriteRefused):
            service.mark("c1", bob, 1, 1, "later")
        with pytest.raises(WriteRefused):
            service.create(CampaignSpec("c2", ["bm25"], 2, 1, ["alice"]))
        assert [c.name for c in service.all()] == ["c1"]
        with pytest.raises(WriteRefused):  # the dashboard shows everyone's grades: a lead's
            service.status("c1")
    finally:
        database.dispose()
    lead_db = open_database(_url(team, "carol"))
    try:
        status = CampaignService(lead_db).status("c1")
        row = next(r for r in status.annotators if r.annotator == "alice")
        assert (row.done, row.cant_judge, row.median_seconds) == (1, 1, 2.0)
    finally:
        lead_db.dispose()
    _refused(
        team,
        "alice",
        f"INSERT INTO campaign_leases VALUES (1, 1, 1, {bob}, now() + interval '1 hour')",
    )


def test_the_connect_hint_carries_no_password(
    team: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """The printed hint for a new member names the member's login and never the admin's
    password, not even masked (URL.set(password=None) kept it as '***')."""
    url = f"postgresql://studio_owner:secret@127.0.0.1:{team.port}/relevance"
    assert main(["--db", url, "team", "add-annotator", "dora"]) == 0
    out, _ = capsys.readouterr()
    assert f"dora connects with: ndcg-studio --db postgresql://dora@127.0.0.1:{team.port}" in out
    assert "***" not in out and "secret" not in out


def _blind_campaign(
    team: PostgresServer, capsys: pytest.CaptureFixture[str], strategy: PoolStrategy = "depth"
) -> None:
    """Documents 1–5 of q1, a run returning 1–4, the annotator login dave, and campaign c1
    (overlap 2, alice, bob and dave; ordered by ``strategy``) created by the lead carol with d5
    as a gold item (grade 3)."""
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec, GoldItem

    _team(capsys, team, "add-annotator", "dave")
    owner = open_database(_url(team, "studio_owner"))
    with owner.engine.begin() as conn:
        conn.execute(
            models.documents.insert(),
            [{"id": i, "external_id": f"d{i}", "title": "", "text": "", "url": ""}
             for i in (3, 4, 5)],
        )  # fmt: skip
        run_id = conn.execute(
            models.runs.insert().values(name="bm25").returning(models.runs.c.id)
        ).scalar_one()
        conn.execute(
            models.results.insert(),
            [{"run_id": run_id, "query_id": 1, "document_id": d, "position": d, "score": -d}
             for d in (1, 2, 3, 4)],
        )  # fmt: skip
    owner.dispose()
    lead_db = open_database(_url(team, "carol"))
    try:
        spec = CampaignSpec(
            "c1", ["bm25"], 4, 2, ["alice", "bob", "dave"],
            gold=[GoldItem("q1", "d5", 3)], gold_rate=0.5, strategy=strategy,
        )  # fmt: skip
        CampaignService(lead_db).create(spec)
    finally:
        lead_db.dispose()


def test_an_annotator_reads_only_its_own_grades_and_no_gold_answer(
    team: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #35.7: in plain SQL an annotator login sees only its own judgments and their
    history, and cannot read a gold item's answer; a lead sees every grade."""
    _blind_campaign(team, capsys)
    for login, grade in (("alice", 1), ("bob", 4), ("carol", 2)):
        database, app = _as(team, login)
        try:
            me = app.ensure_annotator(login).id
            app.set_grade(me, 1, 1, grade)
            app.set_grade(me, 1, 5, grade)  # the gold item too
        finally:
            database.dispose()
    alice_db = open_database(_url(team, "alice"))
    try:
        with alice_db.engine.connect() as conn:
            seen = conn.execute(
                text("SELECT a.name, j.grade FROM judgments j JOIN annotators a "
                     "ON a.id = j.annotator_id ORDER BY j.document_id")
            ).all()  # fmt: skip
            assert [tuple(r) for r in seen] == [("alice", 1), ("alice", 1)]
            history = conn.execute(
                text("SELECT DISTINCT a.name FROM judgment_history h JOIN annotators a "
                     "ON a.id = h.changed_by")
            ).scalars().all()  # fmt: skip
            assert history == ["alice"]
            assert conn.execute(text("SELECT count(*) FROM campaign_items")).scalar_one() == 5
        with (
            alice_db.engine.connect() as conn,
            pytest.raises(DBAPIError, match="permission denied") as info,
        ):
            conn.execute(text("SELECT gold_grade FROM campaign_items"))
        assert getattr(info.value.orig, "sqlstate", None) == "42501"
        with alice_db.engine.connect() as conn, pytest.raises(DBAPIError):
            conn.execute(text("SELECT * FROM campaign_items"))
    finally:
        alice_db.dispose()
    assert "permission denied" in _refused(
        team, "bob", "SELECT 1 FROM campaign_items WHERE gold_grade = 3"
    )
    carol_db = open_database(_url(team, "carol"))
    try:
        with carol_db.engine.connect() as conn:
            grades = conn.execute(text("SELECT grade FROM judgments WHERE document_id = 1"))
            assert sorted(grades.scalars()) == [1, 2, 4]
            gold = conn.execute(text("SELECT gold_grade FROM campaign_items WHERE document_id = 5"))
            assert gold.scalar_one() == 3
    finally:
        carol_db.dispose()


@pytest.mark.parametrize("strategy", ["depth", "mtf"])
def test_the_queue_counts_everyones_grades_for_an_annotator_login(
    team: PostgresServer, capsys: pytest.CaptureFixture[str], strategy: PoolStrategy
) -> None:
    """Issue #35.7: an annotator login cannot read the others' grades, yet its queue (overlap 2,
    fewest grades first or an adaptive order) counts them: alice and bob each grade every item,
    after which dave is offered only the gold item (judged by everyone), a regular item is
    refused to him as complete, and every login sees the campaign complete."""
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.storage.judgments.items import ItemComplete

    _blind_campaign(team, capsys, strategy)
    for login in ("alice", "bob"):
        database = open_database(_url(team, login))
        try:
            service = CampaignService(database)
            me = service.annotation.ensure_annotator(login).id
            items = service.queue("c1", me, 10)
            assert sorted(i.document for i in items) == ["d1", "d2", "d3", "d4", "d5"]
            for item in items:
                service.grade("c1", me, item.query_id, item.document_id, 2, seconds=1)
            assert service.own_progress("c1", me).done == 5
        finally:
            database.dispose()
    database = open_database(_url(team, "dave"))
    try:
        service = CampaignService(database)
        dave = service.annotation.ensure_annotator("dave").id
        assert [i.document for i in service.queue("c1", dave, 10)] == ["d5"]
        with pytest.raises(ItemComplete):
            service.grade("c1", dave, 1, 1, 3)
        service.grade("c1", dave, 1, 5, 3)  # gold: everyone judges it
        assert service.queue("c1", dave, 10) == []
        assert service.get("c1").complete == 4
    finally:
        database.dispose()
