"""Agreement from the database equals the reference packages on the DIKU multi-annotator study."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.services.agreement import AGREEMENT_COLUMNS, AgreementService, AgreementSettings
from ndcg_studio.services.importing.service import ImportService
from tests.conftest import SHARED_DATA

DIKU = SHARED_DATA / "diku_relevance_credibility" / "judgments_long.csv"


@pytest.fixture
def diku_db(db: Any, tmp_path: Path) -> Any:
    if not DIKU.exists():
        pytest.skip(f"{DIKU} not found (the DIKU study is read from ../shared only)")
    out = tmp_path / "diku.csv"
    with DIKU.open() as f, out.open("w", newline="") as g:
        writer = csv.writer(g)
        writer.writerow(["query_id", "doc_id", "annotator", "grade"])
        seen = set()
        for row in csv.DictReader(f):
            key = (row["query_id"], row["doc_id"], row["annotator"])
            if key in seen:  # annotator P9 lists url 123 twice for query 5: keep the first
                continue
            seen.add(key)
            writer.writerow([*key, int(row["rel_1to4"]) - 1])
    ImportService(db).import_judgments(out)
    return db


def _reliability_matrix(report: Any) -> np.ndarray:
    r = report.ratings
    matrix = np.full((r.n_annotators, r.n_items), np.nan)
    matrix[r.annotator, r.item] = r.grade
    return matrix


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_equals_krippendorff_package(diku_db: Any, level: str) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    report = AgreementService(diku_db).report(AgreementSettings(level=level))  # type: ignore[arg-type]
    expected = krippendorff.alpha(
        reliability_data=_reliability_matrix(report),
        level_of_measurement=level,
        value_domain=[0, 1, 2, 3, 4],
    )
    assert report.summary.alpha.value == pytest.approx(expected, abs=1e-6)
    ci = report.summary.alpha_ci
    assert ci.low <= report.summary.alpha.value <= ci.high


def test_rows_per_scope(diku_db: Any) -> None:
    report = AgreementService(diku_db).report()
    (alpha_row, fleiss_row, pct_row) = list(report.rows("all"))
    assert len(alpha_row) == len(AGREEMENT_COLUMNS)
    assert alpha_row[2] == "krippendorff_alpha_ordinal"
    assert fleiss_row[2] == "fleiss_kappa" and fleiss_row[3] is None  # items have 1..10 grades
    assert pct_row[2] == "percent_agreement"
    queries = list(report.rows("query"))
    assert sorted(r[1] for r in queries) == sorted(str(q) for q in range(1, 11))
    pairs = list(report.rows("pair"))
    assert pairs and all(r[1] == "|".join(sorted(r[1].split("|"))) for r in pairs)
    assert len(list(report.rows("annotator"))) == 10
    items = list(report.rows("item"))
    assert {r[2] for r in items} >= {"range", "disputed", "std"}
    disputed = report.disputed_items()
    assert disputed and all(d.range >= 2 for d in disputed)
    assert disputed[0].range >= disputed[-1].range


def test_empty_database_is_undefined_not_an_error(db: Any) -> None:
    report = AgreementService(db).report()
    assert np.isnan(report.summary.alpha.value)
    assert report.summary.alpha.undefined_reason
    (alpha_row, *_rest) = list(report.rows("all"))
    assert alpha_row[3] is None
