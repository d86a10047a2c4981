"""QueryBreakdown.grade_range: the breakdown's disputed documents follow the one rule of
ndcg_studio.domain.agreement.disputed, as the agreement statistics do (trec_eval's -1 counts as
0)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ndcg_studio.domain.agreement.disputed import is_disputed
from ndcg_studio.services.agreement import AgreementService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.storage.database import Database, open_database


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    run = tmp_path / "r.run"
    run.write_text("".join(f"q1 Q0 d{i} {i} {10 - i} r\n" for i in range(1, 6)))
    judgments = tmp_path / "j.csv"
    judgments.write_text(
        "query_id,doc_id,annotator,grade\n"
        "q1,d1,ann,-1\nq1,d1,bob,1\n"  # range 1 (-1 is 0), raw difference 2
        "q1,d2,ann,0\nq1,d2,bob,3\n"  # range 3: disputed
        "q1,d3,ann,2\n"  # one grade: range 0
    )
    database = open_database(tmp_path / "b.sqlite")
    ImportService(database).import_run(run)
    ImportService(database).import_judgments(judgments)
    yield database
    database.dispose()


def test_breakdown_grade_range_and_disputed_documents(db: Database) -> None:
    qb = ScoringService(db).breakdown("q1", "r")
    rng = qb.grade_range()
    by_doc = dict(zip(qb.doc_external, rng.tolist(), strict=True))
    assert by_doc["d1"] == 1.0 and by_doc["d2"] == 3.0 and by_doc["d3"] == 0.0
    assert np.isnan(by_doc["d4"]) and np.isnan(by_doc["d5"])  # nobody graded them
    disputed = {d for d, f in zip(qb.doc_external, is_disputed(rng), strict=True) if f}
    assert disputed == {"d2"}
    # the agreement service's disputed list says the same
    items = AgreementService(db).report().disputed_items()
    assert {i.doc_external for i in items} == disputed
