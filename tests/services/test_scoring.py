"""Import + score end to end against trec_eval's expected outputs, on SQLite and PostgreSQL."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.load import ScoringRead
from ndcg_studio.services.scoring.report import SCORE_COLUMNS
from ndcg_studio.services.scoring.service import ScoringService, summarize
from ndcg_studio.services.scoring.settings import ScoringSettings

DATA = Path(__file__).resolve().parents[1] / "data"
TREC = DATA / "trec_eval_test"
DL19 = DATA / "trec_dl19_passage"


def _expected(path: Path, measure: str) -> dict[str, float]:
    out = {}
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == measure:
            out[parts[1]] = float(parts[2])
    return out


@pytest.fixture
def trec_db(db: Any) -> Any:
    imp = ImportService(db)
    imp.import_run(TREC / "results.test")
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist", grade_map={-1: 0})
    return db


@pytest.mark.parametrize("k", [5, 10, 15, 20, 30, 100, 200, 500, 1000])
def test_trec_eval_test_suite_ndcg_cut(trec_db: Any, k: int) -> None:
    expected = _expected(TREC / "out.test.aql", f"ndcg_cut_{k}")
    report = ScoringService(trec_db).score(ScoringSettings(k=k))
    got = {report.query_of(g): float(report.table.ndcg[g]) for g in range(len(report))}
    for qid in ("301", "302", "303"):
        assert got[qid] == pytest.approx(expected[qid], abs=1e-4)
    mean = float(np.nanmean(report.table.ndcg))
    assert mean == pytest.approx(expected["all"], abs=1e-4)


def test_tied_scores_follow_docno_descending(trec_db: Any) -> None:
    """results.test has 10 tied scores; ordering by the file's rank gives the same numbers
    because its rank column is trec_eval's order (SOURCE.md)."""
    by_score = ScoringService(trec_db).score(ScoringSettings(k=20))
    by_rank = ScoringService(trec_db).score(ScoringSettings(k=20, order="rank"))
    np.testing.assert_allclose(by_score.table.ndcg, by_rank.table.ndcg)


@pytest.mark.slow
def test_dl19_every_query_every_cutoff(db: Any) -> None:
    imp = ImportService(db)
    imp.import_run(DL19 / "run.bm25-default.dl19.txt")
    imp.import_qrels(DL19 / "qrels.dl19-passage.txt", annotator="nist")
    service = ScoringService(db)
    expected_file = DL19 / "expected.trec_eval.q.ndcg_all_cutoffs.txt"
    for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000):
        expected = _expected(expected_file, f"ndcg_cut_{k}")
        report = service.score(ScoringSettings(k=k))
        got = {report.query_of(g): float(report.table.ndcg[g]) for g in range(len(report))}
        assert len(got) == 43
        for qid, value in expected.items():
            if qid == "all":
                assert float(np.nanmean(report.table.ndcg)) == pytest.approx(value, abs=1e-4)
            else:
                assert got[qid] == pytest.approx(value, abs=1e-4), (k, qid)
    exp = _expected(DL19 / "expected.trec_eval.q.ndcg_expgain.txt", "ndcg_0=0,1=1,2=3,3=7")
    report = service.score(ScoringSettings(k=1000, gain="exponential"))
    got = {report.query_of(g): float(report.table.ndcg[g]) for g in range(len(report))}
    for qid, value in exp.items():
        if qid != "all":
            assert got[qid] == pytest.approx(value, abs=1e-4)


def test_rows_csv_shape_and_empty_ndcg_for_unjudged(db: Any, tmp_path: Path) -> None:
    run = tmp_path / "r.txt"
    run.write_text("q1 Q0 d1 1 3.0 sys\nq1 Q0 d2 2 2.0 sys\nq2 Q0 d1 1 1.0 sys\n")
    qrels = tmp_path / "ann.qrels"
    qrels.write_text("q1 0 d1 3\nq1 0 d2 1\nq1 0 d9 4\n")
    imp = ImportService(db)
    imp.import_run(run)
    imp.import_qrels(qrels)
    report = ScoringService(db).score(ScoringSettings(k=3))
    rows = {r[0]: dict(zip(report.columns(), r, strict=True)) for r in report.rows()}
    assert report.columns()[: len(SCORE_COLUMNS)] == SCORE_COLUMNS
    assert rows["q2"]["ndcg"] is None and rows["q2"]["band"] == ""
    dcg = 3 + 1 / math.log2(3)
    idcg = 4 + 3 / math.log2(3) + 1 / 2
    assert rows["q1"]["ndcg"] == pytest.approx(dcg / idcg)
    assert rows["q1"]["judged_at_k"] == 1.0
    assert rows["q1"]["n_annotators"] == 1
    (summary,) = summarize(report)
    assert summary.n_queries == 1 and summary.n_without_judgments == 1


def test_unknown_run_or_annotator_is_a_clear_error(trec_db: Any) -> None:
    with pytest.raises(LookupError, match="unknown run 'nope'; known: STANDARD"):
        ScoringService(trec_db).score(ScoringSettings(runs=("nope",)))
    with pytest.raises(LookupError, match="unknown annotator 'x'; known: nist"):
        ScoringService(trec_db).score(ScoringSettings(annotator="x"))


def test_reimport_same_file_changes_nothing(trec_db: Any) -> None:
    before = ScoringService(trec_db).score(ScoringSettings(k=10)).table.ndcg
    summary = ImportService(trec_db).import_qrels(
        TREC / "qrels.rel_level", annotator="nist", grade_map={-1: 0}
    )
    assert summary.counts["judgments created"] == 0
    assert summary.counts["judgments updated"] == 0
    ImportService(trec_db).import_run(TREC / "results.test", replace=True)
    after = ScoringService(trec_db).score(ScoringSettings(k=10)).table.ndcg
    np.testing.assert_array_equal(before, after)


def test_a_run_import_never_replaces_a_run_unless_asked(trec_db: Any) -> None:
    """The same tag twice (every run of one toolkit carries it): refused, nothing written —
    the first run's results stay; another name imports beside it; ``replace`` replaces."""
    from ndcg_studio.services.importing.service import RunExists

    service = ImportService(trec_db)
    before = ScoringService(trec_db).score(ScoringSettings(k=10)).table
    (tag,) = service.run_names()
    with pytest.raises(RunExists) as raised:
        service.import_run(TREC / "results.test")
    assert raised.value.name == tag and "--replace" in str(raised.value)
    with pytest.raises(RunExists):
        service.import_run(TREC / "results.test", name=tag)
    after = ScoringService(trec_db).score(ScoringSettings(k=10)).table
    np.testing.assert_array_equal(before.ndcg, after.ndcg)
    service.import_run(TREC / "results.test", name="again")
    assert service.run_names() == sorted([tag, "again"])
    summary = service.import_run(TREC / "results.test", name="again", replace=True)
    assert summary.notes == ["run 'again' replaced"]


def test_top_k_read_equals_full_lists(trec_db: Any) -> None:
    """Scoring reads only the top K of each list (plus SQL counts and the rest of the lists
    whose first relevant document lies below K): every column equals scoring the full lists."""
    from ndcg_studio.domain.metrics.measures import score

    service = ScoringService(trec_db)
    for k in (1, 3, 10, 100):
        settings = ScoringSettings(k=k, relevance_threshold=2)
        fast = service.score(settings).table
        ids = [int(q) for q in _all_query_ids(trec_db)]
        full_data = service.load(ScoringRead(settings, query_ids=ids))
        full = score(full_data.lists, full_data.qrels, settings.params())
        for name in ("ndcg", "dcg", "idcg", "rr", "precision", "err", "judged_at_k", "n_returned"):
            np.testing.assert_allclose(getattr(fast, name), getattr(full, name), err_msg=name)


def test_rr_beyond_k(db: Any, tmp_path: Path) -> None:
    run = tmp_path / "r.txt"
    run.write_text("".join(f"q1 Q0 d{i} {i} {10 - i}.0 sys\n" for i in range(1, 7)))
    qrels = tmp_path / "ann.qrels"
    qrels.write_text("q1 0 d5 2\n")
    imp = ImportService(db)
    imp.import_run(run)
    imp.import_qrels(qrels)
    report = ScoringService(db).score(ScoringSettings(k=2))
    assert report.table.rr[0] == pytest.approx(1 / 5)
    assert report.table.n_returned[0] == 6
    assert report.table.ndcg[0] == 0.0


def _all_query_ids(db: Any) -> list[int]:
    from sqlalchemy import select

    from ndcg_studio.storage import models

    with db.engine.connect() as conn:
        return [int(i) for i in conn.execute(select(models.queries.c.id)).scalars()]


def test_consensus_and_adjudication_drive_the_grade(db: Any, tmp_path: Path) -> None:
    """Two annotators disagree on d1 (4 vs 0): the mean consensus gives 2; a lead's adjudicated
    grade wins over any consensus; scoring one annotator ignores the adjudication."""
    from ndcg_studio.services.annotation.service import AnnotationService

    run = tmp_path / "r.txt"
    run.write_text("q1 Q0 d1 1 2.0 sys\nq1 Q0 d2 2 1.0 sys\n")
    grades = tmp_path / "g.csv"
    grades.write_text(
        "query_id,doc_id,annotator,grade\nq1,d1,ann,4\nq1,d1,bob,0\nq1,d2,ann,2\nq1,d2,bob,2\n"
    )
    imp = ImportService(db)
    imp.import_run(run)
    imp.import_judgments(grades)
    service = ScoringService(db)

    def ndcg(**kw: Any) -> float:
        return float(service.score(ScoringSettings(k=2, **kw)).table.ndcg[0])

    # mean: d1=2, d2=2 -> the run's order is ideal
    assert ndcg() == pytest.approx(1.0)
    # max: d1=4, d2=2 -> ideal as well; min: d1=0, d2=2 -> d2 should be first
    assert ndcg(consensus="min") == pytest.approx((2 / math.log2(3)) / 2)
    annotation = AnnotationService(db)
    lead = annotation.ensure_annotator("lead").id
    with db.engine.connect() as conn:
        from sqlalchemy import select

        from ndcg_studio.storage import models

        q1 = conn.execute(select(models.queries.c.id)).scalar_one()
        d1 = conn.execute(
            select(models.documents.c.id).where(models.documents.c.external_id == "d1")
        ).scalar_one()
    annotation.set_adjudication(q1, d1, 0, lead)
    # adjudicated d1=0 wins over every consensus method
    assert ndcg() == pytest.approx((2 / math.log2(3)) / 2)
    assert ndcg(consensus="max") == pytest.approx((2 / math.log2(3)) / 2)
    # one annotator's own grades ignore the adjudication
    assert ndcg(annotator="ann") == pytest.approx(1.0)


def test_summaries_on_parallel_threads_equal_one_after_another(
    trec_db: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs resampled on several threads get the intervals they get one after another, each
    with its own run (a second run with reversed scores has other values)."""
    from ndcg_studio.services.scoring import service as scoring

    lines = (TREC / "results.test").read_text().splitlines()
    flipped = tmp_path / "flipped.run"
    flipped.write_text(
        "".join(
            f"{q} Q0 {d} {r} {-float(s)} flipped\n"
            for q, _, d, r, s, _ in (line.split() for line in lines if line.strip())
        )
    )
    ImportService(trec_db).import_run(flipped)
    report = ScoringService(trec_db).score(ScoringSettings(k=10))
    monkeypatch.setattr(scoring, "_PARALLEL_FROM", 10**9)
    serial = summarize(report)
    monkeypatch.setattr(scoring, "_PARALLEL_FROM", 0)
    parallel = summarize(report)
    assert [s.run for s in parallel] == ["STANDARD", "flipped"]
    assert parallel == serial
    assert parallel[0].ndcg != parallel[1].ndcg
