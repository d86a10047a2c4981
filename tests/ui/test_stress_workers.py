"""Stress: the main window's tabs, the cutoff K, the pool depth, reloads, run swaps and grades,
a few hundred of them in quick succession while workers read SQL on the same engine.

Twice a full ``tests/ui`` run died with a segfault while the GUI thread started a new task
(Compare's verdict; opening a query) and a previous task's worker was still reading SQL on a
connection of the same engine. This test does that on purpose, many times: the app must stay
alive (pytest's faulthandler prints every thread's stack if it does not), and once everything
has settled the numbers shown must be those of the last settings, computed afresh by the
services. Before the fix in ``ui/workers.py`` it crashed one run in four or so under
``pytest -s`` (far more rarely with pytest's output capture, for reasons not found): to check a
change there, run it in a loop with ``-s`` and ``NDCG_STUDIO_STRESS_SEED`` set to each seed.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import insert

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.screens.compare import compare_rows, load_scores
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import bulk_insert
from ndcg_studio.storage.database import Database, open_database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.dialogs.scoring_settings import scoring_settings_from
from ndcg_studio.ui.window.main_window import MainWindow
from ndcg_studio.ui.workers import running_tasks

N_QUERIES = 1000
RUNS = ("run-a", "run-b", "run-c")
ANNOTATORS = ("ann1", "ann2", "ann3")
#: actions per test; each followed by a random 0-20 ms of the event loop
STEPS = 200


def build_database(path: Path, seed: int = 0) -> None:
    """``N_QUERIES`` queries, 5 documents per query, three runs of 10 results per query drawn
    from a pool of 20, and three annotators who graded the same 3-4 pooled documents of each
    query (a true grade plus noise)."""
    rnd = random.Random(seed)
    n_docs = 5 * N_QUERIES
    db = open_database(path)
    with db.engine.begin() as conn:
        bulk_insert(
            conn,
            models.queries,
            ["id", "external_id", "text"],
            ((q, f"Q{q}", f"query {q} about topic {q % 97}") for q in range(1, N_QUERIES + 1)),
        )
        bulk_insert(
            conn,
            models.documents,
            ["id", "external_id", "title", "text", "url"],
            (
                (d, f"D{d}", f"Title {d}", f"Body of document {d}. " * 4, "")
                for d in range(1, n_docs + 1)
            ),
        )
        conn.execute(insert(models.runs), [{"id": i, "name": n} for i, n in enumerate(RUNS, 1)])
        conn.execute(
            insert(models.annotators), [{"id": i, "name": n} for i, n in enumerate(ANNOTATORS, 1)]
        )
        results, judgments = [], []
        now = models.utcnow()
        for q in range(1, N_QUERIES + 1):
            pool = rnd.sample(range(1, n_docs + 1), 20)
            for run_id in range(1, len(RUNS) + 1):
                docs = rnd.sample(pool, 10)
                results += [(q, run_id, d, r, r, 100.0 - r) for r, d in enumerate(docs, start=1)]
            for d in pool[: 3 + (q % 3 == 1)]:
                true = rnd.randrange(5)
                for a in range(1, len(ANNOTATORS) + 1):
                    grade = min(4, max(0, true + rnd.choice((-1, 0, 0, 0, 1))))
                    judgments.append((q, d, a, grade, now, now))
        bulk_insert(
            conn,
            models.results,
            ["query_id", "run_id", "document_id", "rank", "position", "score"],
            results,
        )
        bulk_insert(
            conn,
            models.judgments,
            ["query_id", "document_id", "annotator_id", "grade", "created_at", "updated_at"],
            judgments,
        )
    db.dispose()


@pytest.fixture(scope="module")
def stress_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stress") / "stress.sqlite"
    build_database(path)
    return path


@pytest.fixture
def stress_db(stress_file: Path, tmp_path: Path) -> Iterator[Database]:
    """A copy of the module's database (the test grades: each test starts from the same data),
    opened as the app opens it (lean)."""
    path = tmp_path / "stress.sqlite"
    path.write_bytes(stress_file.read_bytes())
    db = open_database(path, lean=True)
    yield db
    db.dispose()


def settle(qtbot: Any, window: MainWindow, timeout: int = 60_000) -> None:
    """Wait until no task of any view is running (their outcomes delivered)."""

    def idle() -> bool:
        views = window.views.values()
        return running_tasks() == 0 and not any(getattr(v, "is_loading", bool)() for v in views)

    qtbot.waitUntil(idle, timeout=timeout)


def show_tab(qtbot: Any, window: MainWindow, title: str) -> Any:
    """Make ``title`` current and wait until its load with the current settings is in."""
    view = window.view(title)
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: not getattr(view, "_dirty", False), timeout=10_000)
    settle(qtbot, window)
    return view


class Stress:
    """The actions, drawn at random with their weights; each says whether it did something (a
    swap, a grade or another pool needs its tab to be current: the tabs stay mixed, and hidden
    analyst views do not load)."""

    WEIGHTS: ClassVar[dict[str, int]] = {
        "tab": 4,
        "k": 2,
        "depth": 2,
        "reload": 3,
        "swap": 2,
        "grade": 3,
        "query": 2,
    }

    def __init__(self, qtbot: Any, window: MainWindow, rnd: random.Random) -> None:
        self.qtbot, self.window, self.rnd = qtbot, window, rnd
        self.context = window.context
        self.annotate, self.compare = window.view("Annotate"), window.view("Compare")

    def run(self, steps: int) -> dict[str, int]:
        """``steps`` actions, each followed by 0-20 ms of the event loop; how many did something,
        by name."""
        names = list(self.WEIGHTS)
        done = dict.fromkeys(names, 0)
        for _ in range(steps):
            name = self.rnd.choices(names, list(self.WEIGHTS.values()))[0]
            done[name] += getattr(self, name)()
            self.qtbot.wait(self.rnd.choice((0, 0, 1, 5, 20)))
        return done

    def tab(self) -> bool:
        self.window.tabs.setCurrentIndex(self.rnd.randrange(self.window.tabs.count()))
        return True

    def k(self) -> bool:  # every analyst view rescores (Review, Compare, Stability)
        self.context.set_setting(S.K, self.rnd.choice((3, 5, 10, 20)))
        return True

    def depth(self) -> bool:  # Compare starts its verdict again at once
        self.context.set_setting(S.POOL_DEPTH, self.rnd.choice((5, 8, 10)))
        return True

    def reload(self) -> bool:
        current = self.window.tabs.currentWidget()
        if hasattr(current, "reload"):
            current.reload()
        return True

    def swap(self) -> bool:  # Compare: the deltas, then the test, verdict and matrix again
        if not self.compare.isVisible():
            return False
        self.compare.swap_runs()
        return True

    def grade(self) -> bool:  # a grade written on the GUI thread while workers read
        if not self.annotate.isVisible() or self.annotate.current_item() is None:
            return False
        key = Qt.Key(Qt.Key.Key_0 + self.rnd.randrange(5))
        self.qtbot.keyClick(self.annotate.panel, key)
        return True

    def query(self) -> bool:  # the pool of another query, loaded in a worker
        if not self.annotate.isVisible():
            return False
        self.annotate.loader.open_query(self.rnd.randrange(1, N_QUERIES + 1))
        return True


def check_last_numbers(review: Any, compare: Any, context: AppContext, db: Database) -> None:
    """Review's means and Compare's deltas and p-value are those of the current settings and
    grades, computed afresh by the services."""
    settings = scoring_settings_from(context)
    assert review.data.report.settings == settings
    scored = load_scores(db, settings)  # with the grades typed meanwhile
    shown = {s.run: s.ndcg.mean for s in review.summary_model.summaries}
    assert shown.keys() == set(RUNS)
    for run, mean in shown.items():
        assert mean == pytest.approx(scored.summaries[run].ndcg.mean, abs=1e-12), run
    rows = compare.model.rows
    assert rows.k == settings.k
    want = compare_rows(scored, rows.run_a, rows.run_b)
    assert len(rows) == len(want) > 0
    got, order = np.argsort(rows.query), np.argsort(want.query)
    np.testing.assert_array_equal(rows.query[got], want.query[order])
    np.testing.assert_allclose(rows.delta[got], want.delta[order], rtol=0, atol=1e-12)
    assert rows.comparison is not None and want.comparison is not None
    assert not math.isnan(rows.comparison.p_value)  # the late test arrived too
    assert rows.comparison.p_value == want.comparison.p_value


def test_rapid_tab_setting_and_reload_changes_with_workers_in_flight(
    qtbot: Any, qapp: Any, stress_db: Database, tmp_path: Path
) -> None:
    """(``NDCG_STUDIO_STRESS_SEED`` picks another sequence of actions, for runs in a loop.)"""
    rnd = random.Random(int(os.environ.get("NDCG_STUDIO_STRESS_SEED", "20")))
    context = AppContext(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    annotator = AnnotationService(stress_db).ensure_annotator("ann1")
    context.set_database(stress_db, annotator, dispose_previous=False)
    window = MainWindow(context)
    qtbot.addWidget(window)
    window.show()

    done = Stress(qtbot, window, rnd).run(STEPS)
    assert window.isVisible() and QApplication.instance() is qapp
    assert sum(done.values()) >= STEPS // 2, done  # it really was busy

    # the last settings, then every analyst tab settles on them
    context.set_setting(S.K, 7)
    review = show_tab(qtbot, window, "Review")
    compare = show_tab(qtbot, window, "Compare")
    show_tab(qtbot, window, "Agreement")
    show_tab(qtbot, window, "Stability")
    settle(qtbot, window)
    assert window.isVisible()
    check_last_numbers(review, compare, context, stress_db)
