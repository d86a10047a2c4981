"""Sources, per-annotator nDCG and ranking stability end to end, against independent
computations: scoring each annotator alone (``annotator=NAME``), each consensus rule alone,
scipy's Kendall tau, sklearn's weighted kappa and confusion matrix, krippendorff's alpha."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import krippendorff
import numpy as np
import pytest
from scipy.stats import kendalltau
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from ndcg_studio.io.errors import InputError
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService, summarize
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.report import STABILITY_COLUMNS
from ndcg_studio.services.stability.service import StabilityService

RUNS = {
    # run: {query: [docs in order]}
    "alpha": {"1": ["a", "b", "c", "d"], "2": ["e", "f", "g"], "3": ["h", "i", "j"]},
    "beta": {"1": ["d", "c", "b", "a"], "2": ["g", "f", "e"], "3": ["j", "i", "h"]},
    "gamma": {"1": ["b", "a", "x", "d"], "2": ["f", "e", "y"], "3": ["i", "h", "z"]},
}
# (query, doc): {annotator: grade}
GRADES: dict[tuple[str, str], dict[str, int]] = {
    ("1", "a"): {"ada": 3, "bob": 1, "llm": 0},
    ("1", "b"): {"ada": 2, "bob": 2, "llm": 2},
    ("1", "c"): {"ada": 0, "bob": 3, "llm": 4},
    ("1", "d"): {"ada": 0, "bob": 3, "llm": 3},
    ("1", "x"): {"bob": 1},
    ("2", "e"): {"ada": 4, "bob": 2, "llm": 4},
    ("2", "f"): {"ada": 1, "bob": 2, "llm": 1},
    ("2", "g"): {"ada": 0, "llm": 0},
    ("3", "h"): {"bob": 0, "llm": 1},
    ("3", "i"): {"bob": 3, "llm": 3},
    ("3", "j"): {"bob": 1, "llm": 3},
}


def _build(db: Any, tmp_path: Path) -> Any:
    run_file = tmp_path / "runs.trec"
    lines = []
    for run, per_query in RUNS.items():
        for q, docs in per_query.items():
            lines += [f"{q} Q0 {d} {i + 1} {10 - i} {run}" for i, d in enumerate(docs)]
    imp = ImportService(db)
    for run in RUNS:
        run_file.write_text("\n".join(x for x in lines if x.endswith(f" {run}")) + "\n")
        imp.import_run(run_file)
    human = tmp_path / "human.csv"
    human.write_text(
        "query_id,doc_id,annotator,grade\n"
        + "".join(
            f"{q},{d},{a},{g}\n"
            for (q, d), by in GRADES.items()
            for a, g in by.items()
            if a != "llm"
        )
    )
    imp.import_judgments(human)
    model = tmp_path / "model.csv"
    model.write_text(
        "query_id,doc_id,annotator,grade,explanation\n"
        + "".join(
            f"{q},{d},llm,{by['llm']},says {by['llm']}\n"
            for (q, d), by in GRADES.items()
            if "llm" in by
        )
    )
    summary = imp.import_judgments(model, source="gpt", source_kind="model")
    assert "llm in model source 'gpt'" in summary.message()
    return db


@pytest.fixture
def built(db: Any, tmp_path: Path) -> Any:
    return _build(db, tmp_path)


def _by_key(report: Any, values: Any) -> dict[tuple[str, str], float]:
    return {(report.query_of(g), report.run_of(g)): float(values[g]) for g in range(len(report))}


def test_sources_and_the_explanation_column(built: Any) -> None:
    service = StabilityService(built)
    (gpt,) = service.sources()
    assert (gpt.name, gpt.kind, gpt.annotators) == ("gpt", "model", ("llm",))
    assert service.source_of() == {"llm": ("gpt", "model")}
    from sqlalchemy import text

    with built.engine.connect() as conn:
        notes = conn.execute(
            text(
                "SELECT j.note FROM judgments j JOIN annotators a ON a.id = j.annotator_id "
                "WHERE a.name = 'llm' ORDER BY j.id"
            )
        ).scalars()
        assert list(notes)[:2] == ["says 0", "says 2"]
    with pytest.raises(ValueError, match="kind"):
        service.set_source(["ada"], "x", "robot")  # type: ignore[arg-type]
    with pytest.raises(LookupError, match="nobody"):
        service.set_source(["nobody"], "x")


def test_a_reserved_or_bad_source_name_is_refused_at_import(built: Any, tmp_path: Path) -> None:
    f = tmp_path / "q.txt"
    f.write_text("1 0 a 1\n")
    with pytest.raises(InputError, match="humans"):
        ImportService(built).import_qrels(f, annotator="zed", source="humans")


def test_per_annotator_ndcg_equals_scoring_each_annotator_alone(built: Any) -> None:
    spread = StabilityService(built).spread(ScoringSettings(k=3))
    scoring = ScoringService(built)
    pools = {
        q: {d for run in RUNS.values() for d in run[q][:3]} for q in ("1", "2", "3")
    }  # every run's top 3
    for name in ("ada", "bob", "llm"):
        alone = scoring.score(ScoringSettings(k=3, annotator=name))
        expected = _by_key(alone, alone.table.ndcg)
        got = _by_key(spread.report, spread.values[spread.sets.index(name)])
        for (q, run), value in got.items():
            graded_pool = any(name in GRADES.get((q, d), {}) for d in pools[q])
            if graded_pool:
                assert value == pytest.approx(expected[(q, run)], abs=1e-12), (name, q, run)
            else:
                assert math.isnan(value), (name, q, run)
    # the spread column: max - min over annotators and the two sources (humans, gpt)
    assert spread.sets[-2:] == ["source:humans", "source:gpt"]
    for g in range(len(spread.report)):
        col = spread.values[:, g]
        assert spread.spread[g] == pytest.approx(np.nanmax(col) - np.nanmin(col))
    rows = list(StabilityService(built).by_annotator_rows(spread))
    assert rows[0][2:6] == ("ada", "humans", "human", 3)
    assert {r[2] for r in rows} == {"ada", "bob", "llm"}
    assert all(r[3:5] == ("gpt", "model") for r in rows if r[2] == "llm")


def test_score_source_equals_scoring_its_only_annotator(built: Any) -> None:
    """The source gpt has one annotator (llm): its scores are llm's, RR included where the
    first relevant document lies below K (alpha, query 1: a is 0 for llm, b at rank 2 is 2)."""
    for k in (1, 2, 10):
        settings = ScoringSettings(k=k)
        got = StabilityService(built).score_source("gpt", settings)
        want = ScoringService(built).score(ScoringSettings(k=k, annotator="llm"))
        for column in ("ndcg", "dcg", "idcg", "rr", "n_returned", "judged_at_k"):
            assert _by_key(got, getattr(got.table, column)) == _by_key(
                want, getattr(want.table, column)
            ), (k, column)
    one = StabilityService(built).score_source("gpt", ScoringSettings(k=1))
    assert _by_key(one, one.table.rr)[("1", "alpha")] == 0.5


def test_stability_by_consensus_equals_scoring_each_rule(built: Any) -> None:
    report = StabilityService(built).stability("consensus", ScoringSettings(k=3), n_resamples=200)
    r = report.result
    assert [s.name for s in r.sets] == ["mean", "median", "majority", "max", "min"]
    scoring = ScoringService(built)
    for i, rule in enumerate(["mean", "median", "majority", "max", "min"]):
        summaries = summarize(scoring.score(ScoringSettings(k=3, consensus=rule)))  # type: ignore[arg-type]
        assert r.means[i].tolist() == pytest.approx([s.ndcg.mean for s in summaries])
    for p in r.pairs:
        expected = kendalltau(r.means[p.set_a], r.means[p.set_b]).statistic
        assert p.kendall_tau == pytest.approx(expected) or (
            math.isnan(p.kendall_tau) and math.isnan(expected)
        )
    rows = list(report.rows())
    assert len(rows) == 10 and len(rows[0]) == len(STABILITY_COLUMNS)


def test_stability_by_annotator_honours_coverage(built: Any) -> None:
    service = StabilityService(built)
    report = service.stability("annotator", ScoringSettings(k=3), n_resamples=200)
    for name in ("ada", "bob", "llm"):  # the smallest share of a run's top 3 they graded
        shares = [
            np.mean([name in GRADES.get((q, d), {}) for q, docs in run.items() for d in docs[:3]])
            for run in RUNS.values()
        ]
        assert report.coverage[name] == pytest.approx(min(shares))
    assert report.coverage["ada"] == pytest.approx(4 / 9)  # gamma's top 3: a, b, e, f
    assert report.excluded == ["ada"]
    assert [s.name for s in report.result.sets] == ["bob", "llm"]
    assert any("ada 44%" in n for n in report.notes())
    low = service.stability("annotator", ScoringSettings(k=3), min_coverage=0.0, test=False)
    assert [s.name for s in low.result.sets] == ["ada", "bob", "llm"]
    alone = summarize(ScoringService(built).score(ScoringSettings(k=3, annotator="ada")))
    assert low.result.means[0].tolist() == pytest.approx([s.ndcg.mean for s in alone])


def test_stability_by_source_with_label_agreement(built: Any) -> None:
    report = StabilityService(built).stability("source", ScoringSettings(k=3), test=False)
    assert [s.name for s in report.result.sets] == ["humans", "gpt"]
    assert [s.phrase for s in report.result.sets] == ["humans' grades", "gpt's grades"]
    (agree,) = report.agreement
    (note,) = [n for n in report.notes() if "confusion" in n]
    assert note.startswith(f"humans vs gpt: {agree.n_shared} items, kappa_linear")
    assert "0: " + " ".join(str(c) for c in agree.confusion[0].tolist()) in note
    # independent: the humans' mean grade per item vs llm, on the items both graded
    humans = {
        k: np.mean([g for a, g in by.items() if a != "llm"])
        for k, by in GRADES.items()
        if any(a != "llm" for a in by)
    }
    shared = sorted(k for k in humans if "llm" in GRADES[k])
    a = [humans[k] for k in shared]
    b = [GRADES[k]["llm"] for k in shared]
    assert agree.n_shared == len(shared)
    # sklearn weighs label positions: pass the fractional grades on a half-grade lattice
    labels = np.arange(0, 4.5, 0.5)
    assert agree.kappa_linear == pytest.approx(
        cohen_kappa_score(np.array(a) * 2, np.array(b) * 2, weights="linear", labels=labels * 2)
    )
    assert agree.alpha == pytest.approx(
        krippendorff.alpha(
            reliability_data=np.array([a, b], dtype=float), level_of_measurement="ordinal"
        )
    )
    rounded = np.floor(np.array(a) + 0.5).astype(int)
    assert agree.confusion.tolist() == confusion_matrix(rounded, b, labels=range(5)).tolist()
    assert agree.n_two_apart == sum(abs(x - y) >= 2 for x, y in zip(a, b, strict=True))
    two = [f"{q}/{d}" for q, d in shared if abs(humans[(q, d)] - GRADES[(q, d)]["llm"]) >= 2]
    queue = StabilityService(built).source_disputes("humans", "gpt")
    assert sorted(f"{i.query_external}/{i.doc_external}" for i in queue) == sorted(two)
    assert all(i.range >= 2 for i in queue)
    with pytest.raises(LookupError, match="unknown source"):
        StabilityService(built).source_disputes("humans", "acme")


def test_two_runs_get_the_sentence(built: Any) -> None:
    settings = ScoringSettings(k=3, runs=("alpha", "beta"))
    report = StabilityService(built).stability("consensus", settings, n_resamples=200)
    (sentence,) = [n for n in report.notes() if "better than" in n]
    assert sentence == report.result.sentence("alpha", "beta")
    assert " under " in sentence and " of 5 grade sets" in sentence


def test_query_spread_equals_the_full_spread(built: Any) -> None:
    service = StabilityService(built)
    spread = service.spread(ScoringSettings(k=3))
    for g in range(len(spread.report)):
        q, run = spread.report.query_of(g), spread.report.run_of(g)
        one = service.query_spread(q, run, ScoringSettings(k=3))
        assert one == pytest.approx(spread.by_group(g))
    with pytest.raises(LookupError, match="unknown query"):
        service.query_spread("nope", "alpha")
    with pytest.raises(LookupError, match="unknown run"):
        service.query_spread("1", "delta")


def test_the_judgments_export_names_the_source(built: Any, tmp_path: Path) -> None:
    from ndcg_studio.services.exporting.service import ExportService

    table = ExportService(built).judgments()
    header = list(table.header)
    assert header[-2:] == ["source", "source_kind"]
    rows = list(zip(*table.columns, strict=True))
    by_annotator = {r[header.index("annotator")]: r[-2:] for r in rows}
    assert by_annotator == {"ada": (None, None), "bob": (None, None), "llm": ("gpt", "model")}
    notes = {r[4] for r in rows if r[2] == "llm"}
    assert "says 4" in notes  # the model's explanations travel as notes
    path = tmp_path / "j.csv"
    table.write_csv(path, excel=False, cancelled=None)
    again = ImportService(built).import_judgments(path)  # the extra columns are ignored
    assert again.message().endswith("(27 unchanged)")
