"""Idempotent writes (issue #14.3): a grade or an adjudication whose COMMIT reached the server but
whose acknowledgement was lost is retried by the app and recorded ONCE, and the GUI's undo edit
built from the returned change restores the value from before the write.

A TCP relay on 127.0.0.1 between the app and the suite's PostgreSQL server drops both sockets
right after the server's reply to COMMIT (the CommandComplete message ``COMMIT``), once per
arming; the app's own retry path (``storage.resilience.retrying`` in ``AnnotationService``) then
reconnects through the relay and runs the write again.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database
from tests.pg import SUPERUSER, PostgresServer

pytestmark = pytest.mark.postgres

#: The server's CommandComplete for COMMIT: type 'C', int32 length 4 + len("COMMIT\0").
COMMIT_REPLY = b"C\x00\x00\x00\x0bCOMMIT\x00"


class CommitDroppingRelay:
    """A TCP relay 127.0.0.1:port → the server; when armed, the next COMMIT reply from the
    server is swallowed and both sockets are closed (the commit happened; the client never
    hears so)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.armed = threading.Event()
        self.drops = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump_replies, args=(server, client), daemon=True).start()

    @staticmethod
    def _cut(*sockets: socket.socket) -> None:
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        self._cut(src, dst)

    def _pump_replies(self, server: socket.socket, client: socket.socket) -> None:
        tail = b""
        try:
            while data := server.recv(65536):
                if self.armed.is_set():
                    seen = tail + data
                    if COMMIT_REPLY in seen:
                        self.armed.clear()
                        self.drops += 1
                        break
                    tail = seen[-len(COMMIT_REPLY) :]
                client.sendall(data)
        except OSError:
            pass
        self._cut(server, client)

    def url(self, database: str) -> str:
        # no SSL/GSS negotiation: every byte from the server is a framed protocol message
        return (
            f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"
            "?sslmode=disable&gssencmode=disable"
        )

    def close(self) -> None:
        self._closing = True
        self.listener.close()


@pytest.fixture
def relayed(postgres_server: PostgresServer) -> Iterator[tuple[CommitDroppingRelay, Database]]:
    name = postgres_server.create_database()
    relay = CommitDroppingRelay(postgres_server.port)
    database = open_database(relay.url(name))
    try:
        yield relay, database
    finally:
        database.dispose()
        relay.close()
        postgres_server.drop_database(name)


def _catalogue(database: Database) -> tuple[int, int]:
    with database.engine.begin() as conn:
        q = conn.execute(
            models.queries.insert().values(external_id="q1", text="").returning(models.queries.c.id)
        ).scalar_one()
        d = conn.execute(
            models.documents.insert()
            .values(external_id="d1", title="", text="", url="")
            .returning(models.documents.c.id)
        ).scalar_one()
    return q, d


def _history(database: Database) -> list[tuple[str, int | None, int | None]]:
    h = models.judgment_history
    with database.engine.connect() as conn:
        rows = conn.execute(select(h.c.kind, h.c.old_grade, h.c.new_grade).order_by(h.c.id))
        return [tuple(r) for r in rows]  # type: ignore[misc]


def test_a_grade_whose_commit_reply_is_lost_is_recorded_once_and_undoable(
    relayed: tuple[CommitDroppingRelay, Database],
) -> None:
    from ndcg_studio.services.annotation.edits import GradeEdit

    relay, database = relayed
    service = AnnotationService(database)
    q, d = _catalogue(database)
    alice = service.ensure_annotator("alice")
    relay.armed.set()
    edit = GradeEdit(alice.id, q, d, 0)
    change, undo = edit.apply(service)
    assert relay.drops == 1  # the first attempt's acknowledgement was lost, then retried
    assert (change.old_grade, change.new_grade) == (None, 0)
    assert _history(database) == [("judgment", None, 0)]  # once, not "0 → 0" a second time
    undo.apply(service)  # the GUI's undo clears the grade again
    with database.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(models.judgments)).scalar() == 0
    assert _history(database) == [("judgment", None, 0), ("judgment", 0, None)]


def test_an_adjudication_whose_commit_reply_is_lost_is_recorded_once(
    relayed: tuple[CommitDroppingRelay, Database],
) -> None:
    from ndcg_studio.services.annotation.edits import AdjudicationEdit

    relay, database = relayed
    service = AnnotationService(database)
    q, d = _catalogue(database)
    lead = service.ensure_annotator("lead")
    service.set_adjudication(q, d, 2, by=lead.id)
    relay.armed.set()
    change, undo = AdjudicationEdit(q, d, 4, by=lead.id).apply(service)
    assert relay.drops == 1
    assert (change.old_grade, change.new_grade) == (2, 4)
    assert _history(database) == [("adjudication", None, 2), ("adjudication", 2, 4)]
    undo.apply(service)
    assert _history(database)[-1] == ("adjudication", 4, 2)
    relay.armed.set()  # and a lost acknowledgement of clearing it
    cleared = service.set_adjudication(q, d, None, by=lead.id)
    assert relay.drops == 2
    assert (cleared.old_grade, cleared.new_grade) == (2, None)
    assert _history(database)[-1] == ("adjudication", 2, None)
    assert len(_history(database)) == 4
