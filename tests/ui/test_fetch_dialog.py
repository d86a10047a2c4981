"""File ▸ Fetch from a search engine… against the loopback engine of tests/engine_server.py: Try
shows the engine's list for the query, Fetch stores the run and a second Fetch keeps a
snapshot, a bad endpoint file is reported by file, line and field with nothing sent, and team
annotators are not offered the action."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from ndcg_studio.services.fetching.snapshots import snapshots
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.roles import Rights
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.fetch import FetchDialog
from tests.engine_server import CRANFIELD, EngineServer, search

ENDPOINT = """\
name = "loopback"
url = "{url}/search"
method = "POST"
body = '{{"q": "{{query_text}}", "size": {{k}}, "qid": "{{query_id}}"}}'

[response]
hits = "results"
id = "doc_id"
score = "score"
title = "title"
"""


@pytest.fixture
def engine() -> Iterator[EngineServer]:
    with EngineServer() as server:
        yield server


@pytest.fixture
def queries(tmp_path: Path) -> dict[str, str]:
    """The first 3 Cranfield queries, numbered 1..3, in tmp_path/queries.tsv."""
    from ndcg_studio.io.smart import read_smart_queries

    q = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    texts = dict(list(zip(q.query_id, q.text, strict=True))[:3])
    lines = "".join(f"{k}\t{v}\n" for k, v in texts.items())
    (tmp_path / "queries.tsv").write_text(lines, encoding="utf-8")
    return texts


def dialog_for(
    qtbot: Any, context: AppContext, tmp_path: Path, text: str, k: int = 10
) -> FetchDialog:
    path = tmp_path / "cranfield-engine.toml"
    path.write_text(text, encoding="utf-8")
    dialog = FetchDialog(context)
    qtbot.addWidget(dialog)
    dialog.set_endpoint_file(str(path))
    dialog.set_queries_file(str(tmp_path / "queries.tsv"))
    dialog.k_spin.setValue(k)
    dialog.show()
    return dialog


def column(dialog: FetchDialog, c: int) -> list[str]:
    table = dialog.hits_table
    return [table.item(r, c).text() for r in range(table.rowCount())]


def stored(db: Database, name: str) -> dict[str, list[str]]:
    """The run's documents per query, in rank order."""
    r, q, d, runs = models.results, models.queries, models.documents, models.runs
    query = (
        select(q.c.external_id, d.c.external_id)
        .select_from(r.join(runs, runs.c.id == r.c.run_id))
        .join(q, q.c.id == r.c.query_id)
        .join(d, d.c.id == r.c.document_id)
        .where(runs.c.name == name)
        .order_by(q.c.external_id, r.c.rank)
    )
    lists: dict[str, list[str]] = {}
    with db.engine.connect() as conn:
        for qid, doc in conn.execute(query):
            lists.setdefault(qid, []).append(doc)
    return lists


def test_the_run_name_defaults_to_the_endpoint_files_stem(
    qtbot: Any, context: AppContext, tmp_path: Path, engine: EngineServer, queries: Any
) -> None:
    dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url))
    assert dialog.name_edit.text() == "cranfield-engine"
    assert "loopback" in dialog.endpoint_text.toPlainText()


def test_try_shows_the_engines_list_for_the_first_query(
    qtbot: Any,
    qtmodeltester: Any,
    context: AppContext,
    tmp_path: Path,
    engine: EngineServer,
    queries: dict[str, str],
) -> None:
    dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url))
    dialog.try_button.click()
    qtbot.waitUntil(lambda: dialog.hits_table.rowCount() > 0, timeout=10_000)
    expected = search(queries["1"], 10)
    assert column(dialog, 1) == [hit["doc_id"] for hit in expected]
    assert column(dialog, 0) == [str(n) for n in range(1, 11)]
    assert column(dialog, 3)[0] == expected[0]["title"]
    assert engine.requests == {"1": 1}
    assert context.require_database() is not None and not stored(
        context.require_database(), "cranfield-engine"
    )  # nothing stored
    qtmodeltester.check(dialog.hits_table.model(), force_py=False)


def test_try_a_typed_query(
    qtbot: Any, context: AppContext, tmp_path: Path, engine: EngineServer, queries: Any
) -> None:
    dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url), k=5)
    dialog.try_edit.setText("supersonic boundary layer")
    dialog.try_button.click()
    qtbot.waitUntil(lambda: dialog.hits_table.rowCount() > 0, timeout=10_000)
    assert column(dialog, 1) == [h["doc_id"] for h in search("supersonic boundary layer", 5)]


def test_an_http_failure_shows_the_status_and_the_answer(
    qtbot: Any, context: AppContext, tmp_path: Path, queries: Any
) -> None:
    with EngineServer(faults={"1": ["404"]}) as engine:
        dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url))
        dialog.try_button.click()
        qtbot.waitUntil(dialog.try_button.isEnabled, timeout=10_000)
    assert "HTTP 404" in dialog.report.text()
    assert "fault 404 for 1" in dialog.report.text()


def test_a_bad_endpoint_file_names_file_line_and_field_and_sends_nothing(
    qtbot: Any, context: AppContext, tmp_path: Path, engine: EngineServer, queries: Any
) -> None:
    bad = ENDPOINT.format(url=engine.url).replace('id = "doc_id"', 'id = "doc_id["')
    dialog = dialog_for(qtbot, context, tmp_path, bad)
    line = bad.splitlines().index('id = "doc_id["') + 1
    dialog.try_button.click()
    qtbot.waitUntil(dialog.try_button.isEnabled, timeout=10_000)
    assert f"cranfield-engine.toml:{line}: response.id:" in dialog.report.text()
    dialog.fetch_button.click()
    qtbot.waitUntil(dialog.fetch_button.isEnabled, timeout=10_000)
    assert f"cranfield-engine.toml:{line}: response.id:" in dialog.report.text()
    assert engine.requests == {}
    assert dialog.outcome is None


def test_an_edited_endpoint_is_saved_before_it_is_tried(
    qtbot: Any, context: AppContext, tmp_path: Path, engine: EngineServer, queries: Any
) -> None:
    dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url="http://127.0.0.1:9"))
    dialog.endpoint_text.setPlainText(ENDPOINT.format(url=engine.url))
    dialog.try_button.click()
    qtbot.waitUntil(lambda: dialog.hits_table.rowCount() > 0, timeout=10_000)
    saved = (tmp_path / "cranfield-engine.toml").read_text(encoding="utf-8")
    assert engine.url in saved


def test_fetch_stores_the_run_and_a_second_fetch_keeps_a_snapshot(
    qtbot: Any,
    qtmodeltester: Any,
    context: AppContext,
    tmp_path: Path,
    engine: EngineServer,
    queries: dict[str, str],
) -> None:
    db = context.require_database()
    dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url))
    changed: list[bool] = []
    context.database_changed.connect(lambda: changed.append(True))
    dialog.fetch_button.click()
    qtbot.waitUntil(lambda: dialog.outcome is not None, timeout=20_000)
    first = dialog.outcome
    assert first is not None and first.stored and first.kept is None
    assert changed
    assert stored(db, "cranfield-engine") == {
        qid: [h["doc_id"] for h in search(text, 10)] for qid, text in queries.items()
    }
    assert "Run “cranfield-engine” stored: 3 ranked lists." in dialog.report.text()
    qtbot.waitUntil(lambda: dialog.snapshots_table.rowCount() == 1, timeout=10_000)
    assert "a new snapshot" in dialog.name_note.text().lower()

    dialog.outcome = None
    dialog.fetch_button.click()
    qtbot.waitUntil(lambda: dialog.outcome is not None, timeout=20_000)
    second = dialog.outcome
    assert second is not None and second.stored and second.kept is not None
    assert second.kept.startswith("cranfield-engine@")
    found = snapshots(db, "cranfield-engine")
    assert [s.name for s in found] == ["cranfield-engine", second.kept]
    assert second.kept in dialog.report.text()
    qtbot.waitUntil(lambda: dialog.snapshots_table.rowCount() == 2, timeout=10_000)
    assert dialog.snapshots_table.item(1, 0).text() == second.kept
    assert dialog.snapshots_table.item(0, 2).text() == f"{engine.url}/search"
    qtmodeltester.check(dialog.snapshots_table.model(), force_py=False)


def test_an_imported_run_of_that_name_is_replaced_only_when_confirmed(
    qtbot: Any,
    context: AppContext,
    tmp_path: Path,
    engine: EngineServer,
    queries: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url))
    dialog.name_edit.setText("bm25-secret-run")  # a run of the test database, not fetched
    qtbot.waitUntil(lambda: "imported" in dialog.name_note.text(), timeout=10_000)
    asked: list[str] = []
    monkeypatch.setattr(dialog, "confirm_replace", lambda name: asked.append(name) or False)
    dialog.fetch_button.click()
    qtbot.waitUntil(dialog.fetch_button.isEnabled, timeout=10_000)
    assert asked == ["bm25-secret-run"] and engine.requests == {} and dialog.outcome is None
    monkeypatch.setattr(dialog, "confirm_replace", lambda name: True)
    dialog.fetch_button.click()
    qtbot.waitUntil(lambda: dialog.outcome is not None, timeout=20_000)
    assert dialog.outcome is not None and dialog.outcome.stored
    assert set(stored(context.require_database(), "bm25-secret-run")) == set(queries)


def test_team_annotators_are_not_offered_the_fetch(
    qtbot: Any, context: AppContext, main_window: Any
) -> None:
    assert main_window.fetch_action.isEnabled()
    db, alice = context.require_database(), context.annotator
    context.set_database(
        db, alice, dispose_previous=False, rights=Rights(login="alice", owner=False, lead=False)
    )
    assert not main_window.fetch_action.isEnabled()


def test_a_failed_query_is_reported_and_nothing_is_stored(
    qtbot: Any, context: AppContext, tmp_path: Path, queries: Any
) -> None:
    with EngineServer(faults={"2": ["404"]}) as engine:
        dialog = dialog_for(qtbot, context, tmp_path, ENDPOINT.format(url=engine.url))
        dialog.fetch_button.click()
        qtbot.waitUntil(lambda: dialog.outcome is not None, timeout=20_000)
    assert dialog.outcome is not None and not dialog.outcome.stored
    assert "1 request failed, so nothing was stored" in dialog.report.text()
    assert '2: HTTP 404: {"error": "fault 404 for 2"}' in dialog.report.text()
    assert not stored(context.require_database(), "cranfield-engine")
