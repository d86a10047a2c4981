"""Compare ▸ What changed (A → B) on a hand-made pair of runs: the table and the overall line
carry :class:`ChangesService`'s numbers, "Judge what entered…" makes a campaign of exactly the
documents that entered unjudged, the model passes qtmodeltester, and the headers are Russian."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, Qt

from ndcg_studio.services.changes.service import ChangesService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import apply_language
from ndcg_studio.ui.models.changes import ChangesTableModel
from ndcg_studio.ui.models.table import SORT_ROLE
from ndcg_studio.ui.views.compare.changes import JudgeEnteredDialog
from ndcg_studio.ui.views.compare.view import CompareView

K = 3
RUN_A = {"1": ["d1", "d2", "d3", "d4"], "2": ["d5", "d6", "d9"], "3": ["e1", "e2", "e3"]}
RUN_B = {"1": ["d2", "d1", "d7", "d8"], "2": ["d9", "d10", "d11"], "3": ["e1", "e2", "e3"]}
QRELS = "1 0 d1 1\n1 0 d2 2\n1 0 d3 1\n2 0 d5 1\n2 0 d10 2\n3 0 e1 1\n"
#: (query, document) of what entered B's top 3 without a judgment
UNJUDGED = {("1", "d7"), ("2", "d11")}


def _run_file(path: Path, lists: dict[str, list[str]], tag: str) -> Path:
    rows = (
        f"{q} Q0 {d} {i + 1} {10 - i} {tag}\n"
        for q, docs in lists.items()
        for i, d in enumerate(docs)
    )
    path.write_text("".join(rows), encoding="utf-8")
    return path


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(tmp_path / "changes.sqlite")
    imp = ImportService(database)
    imp.import_run(_run_file(tmp_path / "a.run", RUN_A, "a"), name="a")
    imp.import_run(_run_file(tmp_path / "b.run", RUN_B, "b"), name="b")
    qrels = tmp_path / "grades.qrels"
    qrels.write_text(QRELS, encoding="utf-8")
    imp.import_qrels(qrels, annotator="nist")
    yield database
    database.dispose()


@pytest.fixture
def view(qtbot: Any, qapp: Any, db: Database, qsettings: QSettings) -> CompareView:
    ctx = AppContext(qsettings)
    ctx.set_database(db, None, dispose_previous=False)
    ctx.set_setting(S.K, K)
    v = CompareView(ctx)
    qtbot.addWidget(v)
    v.resize(1024, 700)
    with qtbot.waitSignal(v.compared, timeout=20_000):
        v.show()
    v.set_runs("a", "b")
    with qtbot.waitSignal(v.changes.loaded, timeout=20_000):
        v.tabs.setCurrentWidget(v.changes)
    qtbot.waitUntil(lambda: not v.is_loading(), timeout=20_000)
    return v


def _cell(model: ChangesTableModel, row: int, column: int) -> Any:
    return model.data(model.index(row, column), SORT_ROLE)


def test_the_table_and_overall_line_carry_the_services_numbers(
    view: CompareView, db: Database
) -> None:
    expected = ChangesService(db).changes("a", "b", ScoringSettings(k=K), 0.9)
    model = view.changes.model
    assert model.rowCount() == len(expected.queries) == 3
    shown = {
        _cell(model, r, 0): tuple(_cell(model, r, c) for c in range(1, 7))
        for r in range(model.rowCount())
    }
    for c in expected.queries:
        o, rbo, entered, left, unjudged, delta = shown[c.query]
        assert (o, rbo) == pytest.approx((c.overlap, c.rbo))
        assert (entered, left, unjudged) == (len(c.entered), len(c.left), len(c.unjudged))
        assert delta == pytest.approx(c.delta_ndcg)
    overall = view.changes.overall.text()
    _all, overlap, jaccard, rbo, n_in, n_out, n_new, _a, _b, delta = expected.overall()
    assert f"overlap@{K} {overlap:.3f}" in overall
    assert f"Jaccard {jaccard:.3f}" in overall and f"RBO (p = 0.9) {rbo:.3f}" in overall
    assert f"(B − A) {delta:+.4f}" in overall
    moved = f"Entered the top {K}: {n_in} documents, {n_new} of them unjudged; left it: {n_out}."
    assert moved in overall
    assert (n_in, n_out, n_new) == (3, 3, 2)  # d7 | d10 d11 in; d3 | d5 d6 out


def test_a_new_p_recomputes_rbo(qtbot: Any, view: CompareView, db: Database) -> None:
    with qtbot.waitSignal(view.changes.loaded, timeout=20_000):
        view.changes.p_box.setValue(0.5)
    expected = ChangesService(db).changes("a", "b", ScoringSettings(k=K), 0.5)
    model = view.changes.model
    rbo = {_cell(model, r, 0): _cell(model, r, 2) for r in range(model.rowCount())}
    assert rbo == pytest.approx({c.query: c.rbo for c in expected.queries})


def test_judge_what_entered_creates_exactly_the_unjudged_items(
    qtbot: Any, view: CompareView, db: Database, tmp_path: Path
) -> None:
    panel = view.changes
    assert panel.judge_button.isEnabled()
    with qtbot.waitSignal(panel.campaign_created, timeout=20_000) as created:
        panel.create_campaign("new in b", ["ann", "bob"])
    info = created.args[0]
    assert (info.name, info.items, info.annotators) == ("new in b", 2, ("ann", "bob"))
    assert "new in b" in panel.message.text() and "ann, bob" in panel.message.text()
    with sqlite3.connect(tmp_path / "changes.sqlite") as conn:
        items = conn.execute(
            "SELECT q.external_id, d.external_id FROM campaign_items i "
            "JOIN queries q ON q.id = i.query_id JOIN documents d ON d.id = i.document_id"
        ).fetchall()
    assert set(items) == UNJUDGED and len(items) == len(UNJUDGED)


def test_the_dialog_reads_the_name_and_annotators(qtbot: Any, qapp: Any) -> None:
    dialog = JudgeEnteredDialog("b new in top 3", 2)
    qtbot.addWidget(dialog)
    dialog.annotators.setText("ann, bob  carol")
    assert dialog.name.text() == "b new in top 3"
    assert dialog.people() == ["ann", "bob", "carol"]


def test_one_run_twice_empties_the_tab(qtbot: Any, view: CompareView) -> None:
    view.set_runs("a", "a")
    assert view.changes.model.rowCount() == 0
    assert not view.changes.judge_button.isEnabled()


def test_the_model_passes_qtmodeltester(qtmodeltester: Any, view: CompareView) -> None:
    model = view.changes.model
    qtmodeltester.check(model, force_py=False)
    model.sort(6, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(model, force_py=False)
    model.set_changes(None)
    qtmodeltester.check(model, force_py=False)


def test_russian_headers_have_no_english_left(qapp: Any) -> None:
    undo = apply_language("ru")
    try:
        model = ChangesTableModel()
        headers = [
            model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
        ]
    finally:
        undo()
    acronyms = {"RBO", "nDCG", "B", "A"}
    for header in headers:
        words = set(re.findall(r"[A-Za-z]+", header)) - acronyms
        assert not words, f"English left in {header!r}"
    assert sum(bool(re.search("[а-яА-Я]", h)) for h in headers) == 5


def test_the_tab_fits_1024_by_700(view: CompareView) -> None:
    panel = view.changes
    for widget in (panel.judge_button, panel.overall, panel.table, panel.p_box):
        assert widget.isVisible()
        rect = QRect(widget.mapTo(view, QPoint(0, 0)), widget.size())
        assert view.rect().contains(rect), f"{widget.objectName()} at {rect} is cut off"
    assert panel.table.height() > 60


def test_a_campaign_made_in_compare_is_offered_in_annotate_at_once(
    qtbot: Any, main_window: Any
) -> None:
    """The window wires Compare's campaign_created to Annotate's campaign panel."""
    panel = main_window.campaign_panel
    assert panel is not None
    refreshed: list[bool] = []
    original = panel.refresh
    panel.refresh = lambda: (refreshed.append(True), original())  # type: ignore[method-assign]
    main_window.view("Compare").changes.campaign_created.emit(object())
    assert refreshed == [True]
