"""IncompleteService end to end: import TREC DL 2019 (BM25 top 1000), compare with trec_eval.

Expected values: tests/data/trec_dl19_passage/expected.trec_eval.q.all_trec.txt
(``trec_eval -c -q -m all_trec``; 4 decimals, tolerance 1e-4).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.incomplete import IncompleteService
from ndcg_studio.services.scoring.report import INCOMPLETE_COLUMNS
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings

DL19 = Path(__file__).resolve().parents[1] / "data" / "trec_dl19_passage"


def _expected(measure: str) -> dict[str, float]:
    out = {}
    for line in (DL19 / "expected.trec_eval.q.all_trec.txt").read_text().splitlines():
        parts = line.split()
        if parts[0] == measure:
            out[parts[1]] = float(parts[2])
    return out


@pytest.mark.slow
def test_dl19_measures_from_the_database(db: Any) -> None:
    imp = ImportService(db)
    imp.import_run(DL19 / "run.bm25-default.dl19.txt")
    imp.import_qrels(DL19 / "qrels.dl19-passage.txt", annotator="nist")
    service = IncompleteService(db)
    report = service.measures(ScoringSettings(k=100))
    graded = service.measures(ScoringSettings(k=100), persistence=0.9, rbp_gain="graded")
    assert len(report) == 43
    ids = [report.query_external[int(q)] for q in report.group_query]
    checks = [
        (report.table.ap, "map"),
        (report.table.ap_at_k, "map_cut_100"),
        (report.table.recall, "recall_100"),
        (report.table.bpref, "bpref"),
        (graded.table.rbp, "rbp"),
        (graded.table.rbp_residual, "rbp_resid"),
    ]
    for values, measure in checks:
        expected = _expected(measure)
        for query, value in zip(ids, values.tolist(), strict=True):
            assert value == pytest.approx(expected[query], abs=1e-4), (measure, query)
        assert float(np.mean(values)) == pytest.approx(expected["all"], abs=1e-4)
    # same groups, same order as the nDCG report; the top 100 holds unjudged passages
    scores = ScoringService(db).score(ScoringSettings(k=100))
    assert [scores.query_of(g) for g in range(len(scores))] == ids
    assert np.any(np.abs(report.table.ndcg_condensed - scores.table.ndcg) > 1e-3)
    rows = list(report.rows())
    assert report.columns() == ("query_id", "run", *INCOMPLETE_COLUMNS)
    assert len(rows) == 43 and rows[0][1] == report.run_names[0]


def test_queries_without_judgments_have_no_values(db: Any, tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 1.0 r\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d2 1\nq1 0 d3 0\n")
    ImportService(db).import_run(run)
    ImportService(db).import_qrels(qrels, annotator="a")
    report = IncompleteService(db).measures(ScoringSettings(k=10))
    by_query = dict(
        zip([report.query_external[int(q)] for q in report.group_query], report.rows(), strict=True)
    )
    q1 = by_query["q1"]
    # d1 unjudged, d2 relevant at rank 2: nDCG' ranks it first -> 1; AP = 1/2; bpref 1
    assert q1[2] == pytest.approx(1.0)
    assert q1[3] == pytest.approx(0.5)
    assert q1[5] == pytest.approx(1.0)
    assert q1[6] == pytest.approx(0.2 * 0.8)  # binary RBP, p = 0.8, relevant at rank 2
    assert q1[7] == pytest.approx(0.2 + 0.8**2)  # d1 unjudged at rank 1 + tail
    assert all(v is None for v in by_query["q2"][2:])
    assert math.isnan(
        float(
            report.table.ap[[report.query_external[int(q)] for q in report.group_query].index("q2")]
        )
    )
