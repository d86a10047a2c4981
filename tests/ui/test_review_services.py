"""The service methods added for the analyst views (no Qt): ScoringService.query_texts,
AgreementService.query_overview / adjudications / item_text."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.services.agreement import AgreementService, AgreementSettings
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService

GRADES = {  # (query, doc): grades of ann, bob, cy ('' = none)
    ("q1", "d1"): (4, 4, 0),
    ("q1", "d2"): (3, 3, 1),
    ("q1", "d3"): (0, 1, 1),
    ("q2", "d1"): (1, 1, 1),
    ("q2", "d5"): (0, 2, 0),
    ("q2", "d6"): (4, 3, 3),
    ("q10", "d7"): (2, "", ""),
}


@pytest.fixture
def judged(db: Any, tmp_path: Path) -> Any:
    lines = ["query_id,doc_id,annotator,grade"]
    for (q, d), grades in GRADES.items():
        lines += [f"{q},{d},{a},{g}" for a, g in zip("abc", grades, strict=True) if g != ""]
    (tmp_path / "j.csv").write_text("\n".join(lines) + "\n")
    ImportService(db).import_judgments(tmp_path / "j.csv")
    (tmp_path / "q.tsv").write_text("q1\tlift of wings\nq2\tboundary layers\n")
    ImportService(db).import_queries(tmp_path / "q.tsv")
    return db


def test_query_overview_matches_the_full_report(judged: Any) -> None:
    service = AgreementService(judged)
    for level in ("ordinal", "nominal", "interval"):
        overview = service.query_overview(level)  # type: ignore[arg-type]
        report = service.report(AgreementSettings(level=level))  # type: ignore[arg-type]
        assert overview.query_external == report.query_external
        np.testing.assert_allclose(overview.alpha, report.summary.per_query.value, equal_nan=True)
        per_query = service.per_query_alpha(level)  # type: ignore[arg-type]
        for q, i in overview.by_query().items():
            a, b = per_query[q], float(overview.alpha[i])
            assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)
    overview = service.query_overview()
    counts = dict(zip(overview.query_external, overview.n_disputed.tolist(), strict=True))
    expected: dict[str, int] = {q: 0 for q in overview.query_external}
    for item in service.report().disputed_items():
        expected[item.query_external] += 1
    assert counts == expected == {"q1": 2, "q10": 0, "q2": 1}
    items = dict(zip(overview.query_external, overview.n_items.tolist(), strict=True))
    multi = dict(zip(overview.query_external, overview.n_multi.tolist(), strict=True))
    assert items == {"q1": 3, "q10": 1, "q2": 3} and multi == {"q1": 3, "q10": 0, "q2": 3}
    wide = service.query_overview(disputed_range=4)
    assert wide.n_disputed.tolist() == [1, 0, 0]  # only (q1, d1): 4 vs 0


def test_query_texts_in_the_order_given(judged: Any) -> None:
    report = ScoringService(judged).score()
    texts = ScoringService(judged).query_texts(report.query_ids.tolist())
    by_query = dict(zip(report.query_external, texts, strict=True))
    assert by_query == {"q1": "lift of wings", "q2": "boundary layers", "q10": ""}
    assert ScoringService(judged).query_texts([10**6]) == [""]
    assert ScoringService(judged).query_texts([]) == []


def test_adjudications_and_item_text(judged: Any) -> None:
    service = AgreementService(judged)
    assert service.adjudications() == {}
    item = service.report().disputed_items()[0]
    lead = AnnotationService(judged).ensure_annotator("lead")
    AnnotationService(judged).set_adjudication(item.query_id, item.document_id, 3, lead.id)
    assert service.adjudications() == {(item.query_id, item.document_id): 3}
    text, title = service.item_text(item.query_id, item.document_id)
    assert text == "lift of wings" and title == ""
    assert service.item_text(10**6, 10**6) == ("", "")
