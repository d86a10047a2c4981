"""``score --measures all``: the measures for incomplete judgments as CSV columns after the
existing ones, the same values as :class:`IncompleteService`, the nDCG columns unchanged, and
per-query AP, bpref and recall@K equal to pytrec_eval (trec_eval's own code) on the trec_eval
test files; the summary gets the means."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.app import main
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.incomplete import IncompleteService
from ndcg_studio.services.scoring.report import (
    EXTRA_COLUMNS,
    INCOMPLETE_COLUMNS,
    SCORE_COLUMNS,
    measure_means,
)
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import open_database

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def trec(tmp_path: Path) -> str:
    """results.test (3 queries, ~1000 results each, unjudged documents among them) as two runs
    (the second one shorter), qrels.test as one annotator."""
    path = tmp_path / "t.sqlite"
    db = open_database(path)
    imp = ImportService(db)
    imp.import_run(DATA / "results.test")
    lines = (DATA / "results.test").read_text().splitlines(keepends=True)
    short = tmp_path / "short.txt"
    short.write_text("".join(line.replace("STANDARD", "SHORT") for line in lines[::3]))
    imp.import_run(short)
    imp.import_qrels(DATA / "qrels.test", annotator="nist")
    db.dispose()
    return str(path)


@pytest.mark.parametrize("k", [10, 100])
def test_the_measures_do_not_change_the_ndcg_columns(trec: str, k: int) -> None:
    db = open_database(trec)
    try:
        settings = ScoringSettings(k=k)
        plain = ScoringService(db).score(settings)
        every = ScoringService(db).score(settings, measures=True)
        separate = IncompleteService(db).measures(settings)
    finally:
        db.dispose()
    assert plain.incomplete is None
    assert plain.columns() == SCORE_COLUMNS + EXTRA_COLUMNS
    assert every.columns() == SCORE_COLUMNS + EXTRA_COLUMNS + INCOMPLETE_COLUMNS
    n = len(plain.columns())
    for name, a, b in zip(
        plain.columns(), plain.column_values(), every.column_values()[:n], strict=True
    ):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b, err_msg=name)  # RR completed alike
        else:
            assert a == b, name
    assert every.incomplete is not None
    for name in INCOMPLETE_COLUMNS:
        np.testing.assert_array_equal(
            getattr(every.incomplete, name), getattr(separate.table, name), err_msg=name
        )
    # holes in the judgments: nDCG' differs from nDCG somewhere
    assert np.nanmax(np.abs(every.incomplete.ndcg_condensed - every.table.ndcg)) > 1e-3
    means = measure_means(every)
    for run_name in every.run_names:
        idx = every.for_run(run_name)
        assert means[run_name]["bpref"] == pytest.approx(
            float(np.mean(every.incomplete.bpref[idx]))
        )


def test_score_csv_columns_against_pytrec_eval(
    trec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    out = tmp_path / "s.csv"
    code, _, err = run(
        capsys, "--db", trec, "score", "--measures", "all", "--format", "csv", "-o", str(out)
    )
    assert code == 0, err
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert tuple(rows[0]) == SCORE_COLUMNS + EXTRA_COLUMNS + INCOMPLETE_COLUMNS
    about = json.loads((tmp_path / "s.csv.settings.json").read_text())
    assert "measures=all" in about["settings"]
    assert "bpref: relevant = grade >= 1" in about["notes"][0]
    qrels: dict[str, dict[str, int]] = {}
    for line in (DATA / "qrels.test").read_text().splitlines():
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    runs: dict[str, dict[str, dict[str, float]]] = {}
    lines = (DATA / "results.test").read_text().splitlines()
    for name, chosen in (("STANDARD", lines), ("SHORT", lines[::3])):
        for line in chosen:
            q, _, d, _, s, _ = line.split()
            runs.setdefault(name, {}).setdefault(q, {})[d] = float(s)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "bpref", "recall.10"})
    checked = 0
    for name, result in runs.items():
        expected = evaluator.evaluate(result)
        for r in (r for r in rows if r["run"] == name):
            e: dict[str, Any] = expected[r["query_id"]]
            assert float(r["ap"]) == pytest.approx(e["map"], abs=1e-9)
            assert float(r["bpref"]) == pytest.approx(e["bpref"], abs=1e-9)
            assert float(r["recall"]) == pytest.approx(e["recall_10"], abs=1e-9)
            checked += 1
    assert checked == 6

    code, out_text, err = run(
        capsys, "--db", trec, "score", "--summary", "--measures", "all", "--format", "csv"
    )
    assert code == 0, err
    summary = list(csv.DictReader(io.StringIO(out_text)))
    assert [c for c in summary[0] if c.startswith("mean_")] == [
        "mean_ndcg",
        *(f"mean_{c}" for c in INCOMPLETE_COLUMNS),
    ]
    for s in summary:
        mine = [float(r["ap"]) for r in rows if r["run"] == s["run"]]
        assert float(s["mean_ap"]) == pytest.approx(np.mean(mine), abs=1e-12)
    code, out_text, _ = run(capsys, "--db", trec, "score", "--summary", "--format", "csv")
    assert "mean_ap" not in out_text.splitlines()[0]  # only when asked
