"""Issue #35.7 in the app: on a team database an annotator login's Agreement tab shows none of the
others' grades and offers no adjudication; it says that agreement is shown to leads. A lead's
tab shows the disputed item with every grade and the adjudication buttons."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.storage import models
from ndcg_studio.storage.database import open_database
from ndcg_studio.storage.roles import add_member, rights_of
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.views.agreement.view import AgreementView
from tests.pg import PostgresServer

pytestmark = pytest.mark.postgres


@pytest.fixture
def team_db(postgres_server: PostgresServer) -> Iterator[tuple[str, str, str]]:
    """A migrated team database with the annotator logins ann_* and bob_* and the lead lead_*;
    ann and bob disagree by 3 on (q1, d1) and agree on (q1, d2). Yields (URL of a login with
    '{login}' to fill in, annotator login, lead login)."""
    server = postgres_server
    name = server.create_database()
    suffix = uuid.uuid4().hex[:8]
    ann, bob, lead = f"ann_{suffix}", f"bob_{suffix}", f"lead_{suffix}"
    owner = open_database(server.url(name))
    try:
        for login in (ann, bob, lead):
            add_member(owner, login, lead=login == lead)
        with owner.engine.begin() as conn:
            conn.execute(models.queries.insert(), [{"id": 1, "external_id": "q1", "text": "t"}])
            conn.execute(
                models.documents.insert(),
                [{"id": i, "external_id": f"d{i}", "title": "", "text": "", "url": ""}
                 for i in (1, 2)],
            )  # fmt: skip
        service = AnnotationService(owner)
        for login, grades in ((ann, (1, 2)), (bob, (4, 2))):
            who = service.ensure_annotator(login).id
            for document, grade in zip((1, 2), grades, strict=True):
                service.set_grade(who, 1, document, grade)
    finally:
        owner.dispose()
    url = f"postgresql://{{login}}@127.0.0.1:{server.port}/{name}"
    try:
        yield url, ann, lead
    finally:
        server.drop_database(name)
        for login in (ann, bob, lead):
            server.admin_execute(f"DROP ROLE IF EXISTS {login}")


def _view(qtbot: Any, qsettings: QSettings, url: str, login: str) -> AgreementView:
    database = open_database(url.format(login=login))
    context = AppContext(qsettings)
    me = AnnotationService(database).ensure_annotator(login)
    context.set_database(database, me, rights=rights_of(database))
    view = AgreementView(context)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    with qtbot.waitSignal(view.data_loaded, timeout=15_000):
        view.show()
    return view


def test_an_annotator_sees_no_others_grades_and_cannot_adjudicate(
    qtbot: Any, qapp: object, qsettings: QSettings, team_db: tuple[str, str, str]
) -> None:
    url, ann, _lead = team_db
    view = _view(qtbot, qsettings, url, ann)
    try:
        assert view.pages.currentIndex() == 0  # the message page, not the report
        assert "Agreement is shown to leads" in view.empty.text()
        assert view.disputed_model.rowCount() == 0 and view.grades_model.rowCount() == 0
        assert not any(b.isEnabled() or b.isVisibleTo(view) for b in view.grade_buttons.values())
        assert view.adjudicate(0) is None
    finally:
        view.context.set_database(None)


def test_a_lead_sees_the_disputed_item_and_adjudicates(
    qtbot: Any, qapp: object, qsettings: QSettings, team_db: tuple[str, str, str]
) -> None:
    url, _ann, lead = team_db
    view = _view(qtbot, qsettings, url, lead)
    try:
        assert view.pages.currentIndex() == 1
        assert view.disputed_model.rowCount() == 1
        assert view.select_item(1, 1)
        qtbot.waitUntil(lambda: view.grades_model.rowCount() == 2, timeout=10_000)
        assert view.grade_buttons[0].isEnabled()
    finally:
        view.context.set_database(None)
