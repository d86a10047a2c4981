"""The data the analysts' views show, computed below ui (services.screens: review, agreement,
compare, sort_keys): checked against the services they assemble, with no QApplication."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.services.agreement import AgreementService, AgreementSettings
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.report import compare
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.agreement import DisputedRows, load_agreement, load_item
from ndcg_studio.services.screens.compare import compare_rows, load_scores
from ndcg_studio.services.screens.review import ReviewRows, load_review
from ndcg_studio.services.screens.sort_keys import dense_ranks, natural_key
from ndcg_studio.storage.database import Database, open_database

# (query, doc) -> grades of ann, bob, cy ('' = not graded)
GRADES = {
    ("q1", "d1"): (4, 4, 0),
    ("q1", "d2"): (3, 3, 1),
    ("q1", "d3"): (0, 1, 4),
    ("q1", "d4"): (2, 2, ""),
    ("q2", "d1"): (1, 1, 1),
    ("q2", "d5"): (0, 2, 0),
    ("q2", "d6"): (4, 3, 3),
    ("q10", "d7"): (2, "", ""),
}
ANNOTATORS = ("ann", "bob", "cy")
RUNS = {
    "first": {"q1": ["d1", "d2", "d3", "d4"], "q2": ["d1", "d5", "d6"], "q10": ["d7"]},
    "second": {"q1": ["d4", "d3", "d2", "d1"], "q2": ["d6", "d5", "d1"], "q10": ["d8", "d7"]},
}


@pytest.fixture
def judged(tmp_path: Path) -> Iterator[Database]:
    db = open_database(tmp_path / "rows.sqlite")
    lines = ["query_id,doc_id,annotator,grade"]
    for (q, d), grades in GRADES.items():
        lines += [f"{q},{d},{a},{g}" for a, g in zip(ANNOTATORS, grades, strict=True) if g != ""]
    (tmp_path / "j.csv").write_text("\n".join(lines) + "\n")
    service = ImportService(db)
    service.import_judgments(tmp_path / "j.csv")
    for name, lists in RUNS.items():
        run = [
            f"{q} Q0 {d} {rank} {10 - rank} {name}"
            for q, docs in lists.items()
            for rank, d in enumerate(docs, start=1)
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(run) + "\n")
        service.import_run(tmp_path / f"{name}.run")
    yield db
    db.dispose()


# ------------------------------------------------------------------ sort keys
def test_natural_key_orders_ids_as_people_do() -> None:
    ids = np.array(["q10", "q2", "q1", "q2"])
    assert ids[np.argsort(natural_key(ids), kind="stable")].tolist() == ["q1", "q2", "q2", "q10"]
    assert natural_key(np.array(["10", "9", "100"])).tolist() == [10, 9, 100]


@given(st.lists(st.integers(-5, 5), max_size=30))
def test_dense_ranks_are_the_ranks_among_distinct_values(values: list[int]) -> None:
    key = np.array(values, dtype=np.int64)
    expected = np.unique(key, return_inverse=True)[1].reshape(-1) if values else key
    assert dense_ranks(key).tolist() == expected.tolist()


# ------------------------------------------------------------------ review
def test_review_rows_align_scores_texts_and_agreement(judged: Database) -> None:
    data = load_review(judged, ScoringSettings(k=3))
    report, rows = data.report, data.rows
    assert len(rows) == len(report) == 6  # 3 queries × 2 runs
    overview = AgreementService(judged).query_overview()
    where = overview.by_query()
    for i in range(len(rows)):
        q, run = str(rows.query[i]), str(rows.run[i])
        group = report.for_run(run)[report.query_external.index(q)]
        assert rows.ndcg[i] == report.table.ndcg[group]
        alpha = overview.alpha[where[q]]
        assert (math.isnan(alpha) and math.isnan(rows.alpha[i])) or rows.alpha[i] == alpha
        assert rows.n_disputed[i] == overview.n_disputed[where[q]]
    by_query = dict(zip(rows.query.tolist(), rows.n_disputed.tolist(), strict=True))
    assert by_query == {"q1": 3, "q2": 1, "q10": 0}  # grade range >= 2
    assert {s.run for s in data.summaries} == set(RUNS)
    assert rows.spread is not None  # three annotators: nDCG spread computed
    assert data.counts is None and data.source is None


def test_review_of_an_empty_database_says_what_is_there(tmp_path: Path) -> None:
    db = open_database(tmp_path / "empty.sqlite")
    try:
        data = load_review(db, ScoringSettings())
    finally:
        db.dispose()
    assert len(data.rows) == 0 and len(ReviewRows.empty()) == 0
    assert data.counts is not None and data.counts.runs == 0 and data.counts.judgments == 0


# ------------------------------------------------------------------ agreement
def test_disputed_rows_are_the_service_list_most_disputed_first(judged: Database) -> None:
    data = load_agreement(judged, AgreementSettings())
    rows, service_list = data.disputed, data.report.disputed_items()
    assert len(rows) == len(service_list) == 4
    by_item = {(i.query_id, i.document_id): i for i in service_list}
    for i in range(len(rows)):
        item = by_item[(int(rows.query_id[i]), int(rows.document_id[i]))]
        assert rows.grades[i] == item.grades
        assert float(rows.range[i]) == item.range
    assert rows.range.tolist() == [4.0, 4.0, 2.0, 2.0]
    assert list(zip(rows.query.tolist(), rows.document.tolist(), strict=True))[:2] == [
        ("q1", "d1"),  # range 4, std of (4, 4, 0) larger than of (0, 1, 4)
        ("q1", "d3"),
    ]
    assert np.isnan(rows.adjudicated).all() and data.by_sources == {}


def test_an_adjudication_shows_in_the_rows_and_the_item_history(judged: Database) -> None:
    annotation = AnnotationService(judged)
    lead = annotation.ensure_annotator("lead")
    first = load_agreement(judged, AgreementSettings()).disputed
    q, d = int(first.query_id[0]), int(first.document_id[0])
    annotation.set_adjudication(q, d, 3, by=lead.id)
    rows = load_agreement(judged, AgreementSettings()).disputed
    assert rows.adjudicated[0] == 3.0 and np.isnan(rows.adjudicated[1:]).all()
    item = load_item(judged, q, d)
    assert (item.query_id, item.document_id) == (q, d)
    assert ("adjudication", 3) in [(h.kind, h.new_grade) for h in item.history]
    assert item.names[lead.id] == "lead"


def test_disputed_rows_from_items_keep_their_order(judged: Database) -> None:
    items = list(reversed(load_agreement(judged, AgreementSettings()).report.disputed_items()))
    rows = DisputedRows.from_items(items, {(items[0].query_id, items[0].document_id): 1})
    assert rows.document.tolist() == [i.doc_external for i in items]
    assert rows.adjudicated[0] == 1.0
    assert len(DisputedRows.from_items([])) == 0


# ------------------------------------------------------------------ compare
def test_compare_rows_are_the_paired_comparison(judged: Database) -> None:
    scored = load_scores(judged, ScoringSettings(k=3))
    assert set(scored.summaries) == set(RUNS)
    rows = compare_rows(scored, "first", "second")
    comparison = compare(scored.report, "first", "second")
    assert len(rows) == comparison.n == 3
    np.testing.assert_allclose(rows.delta, comparison.deltas)
    np.testing.assert_allclose(rows.delta, rows.ndcg_a - rows.ndcg_b)
    assert int((rows.outcome > 0).sum()) == comparison.wins
    assert int((rows.outcome < 0).sum()) == comparison.losses
    assert int((rows.outcome == 0).sum()) == comparison.ties


def test_the_view_data_imports_no_qt() -> None:
    modules = "review, agreement, compare, sort_keys"
    code = (
        f"import sys; from ndcg_studio.services.screens import {modules}; "
        "from ndcg_studio.services.annotation import edits; "
        "assert not [m for m in sys.modules if m.startswith('PySide6')], 'Qt imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
