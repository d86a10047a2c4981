"""The report export: every (query, run) row with its score columns, query text and alpha."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import pytest

from ndcg_studio.services.agreement import AgreementService
from ndcg_studio.services.exporting.service import REPORT_EXTRA, ExportRequest, ExportService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.report import SCORE_COLUMNS
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings


def test_report_rows_carry_scores_text_and_alpha(db: Any, tmp_path: Path) -> None:
    (tmp_path / "run.txt").write_text(
        "q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq2 Q0 d1 1 1.0 r\nq3 Q0 d9 1 1.0 r\n"
    )
    (tmp_path / "topics.tsv").write_text("q1\tfirst query\nq2\t=cmd()\nq3\tthird\n")
    service = ImportService(db)
    service.import_run(tmp_path / "run.txt")
    service.import_queries(tmp_path / "topics.tsv")
    # a qrels file whose 2nd column names the annotator
    (tmp_path / "two.qrels").write_text(
        "q1 ann d1 3\nq1 bob d1 3\nq1 ann d2 0\nq1 bob d2 1\nq2 ann d1 2\n"
    )
    service.import_qrels(tmp_path / "two.qrels", annotator_column=True)
    out = tmp_path / "report.csv"
    settings = ScoringSettings(k=10)
    assert ExportService(db).write(ExportRequest("report", out, settings=settings)) == 3
    rows = list(csv.DictReader(out.read_text().splitlines()))
    about = json.loads((tmp_path / "report.csv.settings.json").read_text())
    assert about["what"] == "report" and about["settings"].startswith("k=10 ")
    report = ScoringService(db).score(settings)
    assert tuple(rows[0]) == (*report.columns(), *REPORT_EXTRA)
    assert report.columns()[: len(SCORE_COLUMNS)] == SCORE_COLUMNS
    by_query = {r["query_id"]: r for r in rows}
    ndcg = {report.query_of(g): float(report.table.ndcg[g]) for g in range(len(report))}
    assert float(by_query["q1"]["ndcg"]) == ndcg["q1"]
    assert by_query["q3"]["ndcg"] == "" and math.isnan(ndcg["q3"])  # no judgments
    assert by_query["q1"]["query_text"] == "first query"
    assert by_query["q2"]["query_text"] == "'=cmd()"  # formula-safe
    alpha = AgreementService(db).per_query_alpha("ordinal")
    assert float(by_query["q1"]["query_alpha"]) == pytest.approx(alpha["q1"])
    assert by_query["q2"]["query_alpha"] == "" and by_query["q3"]["query_alpha"] == ""
