"""Ranking stability on real judgments, checked against pytrec_eval (trec_eval's own code) and
scipy.

TREC DL 2019 passage (in tests/data) has one assessor team (NIST) and one run. Derived here,
reproducibly, with numpy's generator seeded 2019:

* runs: ``bm25`` (the run's top 100), ``bm25-rev10`` (its top 10 reversed), ``bm25-from6``
  (ranks 6.. moved up: the top 5 dropped), ``bm25-shuf20`` (its top 20 shuffled per query);
* a ``vendor`` source: each NIST grade g replaced by a grade drawn from row g of
  :data:`VENDOR_CONFUSION` (a vendor that is lenient on 0/1 and collapses much of 3 into 2);
* a ``model`` source: NIST's grades with 3 collapsed to 2 and 1 to 0 (a judge that only tells
  "relevant" from "not").

The DIKU study (10 participants judging their own Google top 5 of the same 10 queries; Lioma,
Simonsen & Larsen, ICTIR 2017) has no licence: read from ``../shared/data`` (or
``$NDCG_STUDIO_SHARED_DATA``), never copied; the test skips when it is absent.
"""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import pytrec_eval
from scipy.stats import kendalltau

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.service import StabilityService
from tests.conftest import SHARED_DATA

DL19 = Path(__file__).resolve().parents[1] / "data" / "trec_dl19_passage"
SHARED = Path(os.environ.get("NDCG_STUDIO_SHARED_DATA", SHARED_DATA))
DIKU = SHARED / "diku_relevance_credibility"

#: P(vendor grade | NIST grade), rows NIST 0..3, columns vendor 0..3.
VENDOR_CONFUSION = np.array(
    [
        [0.85, 0.10, 0.05, 0.00],
        [0.25, 0.50, 0.20, 0.05],
        [0.05, 0.25, 0.50, 0.20],
        [0.00, 0.10, 0.40, 0.50],
    ]
)

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]


def _read_run(path: Path) -> dict[str, list[str]]:
    ranked: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for line in path.read_text().splitlines():
        q, _, d, rank, _, _ = line.split()
        ranked[q].append((int(rank), d))
    return {q: [d for _, d in sorted(v)] for q, v in ranked.items()}


def _derived_runs() -> dict[str, dict[str, list[str]]]:
    rng = np.random.default_rng(2019)
    base = {q: docs[:100] for q, docs in _read_run(DL19 / "run.bm25-default.dl19.txt").items()}
    shuffled = {}
    for q in sorted(base):
        top = list(base[q][:20])
        rng.shuffle(top)
        shuffled[q] = top + base[q][20:]
    return {
        "bm25": base,
        "bm25-rev10": {q: d[:10][::-1] + d[10:] for q, d in base.items()},
        "bm25-from6": {q: d[5:] for q, d in base.items()},
        "bm25-shuf20": shuffled,
    }


def _derived_qrels() -> dict[str, Qrels]:
    nist: Qrels = defaultdict(dict)
    for line in (DL19 / "qrels.dl19-passage.txt").read_text().splitlines():
        q, _, d, g = line.split()
        nist[q][d] = int(g)
    rng = np.random.default_rng(2019)
    vendor: Qrels = defaultdict(dict)
    model: Qrels = defaultdict(dict)
    for q in sorted(nist):
        for d in sorted(nist[q]):
            g = nist[q][d]
            vendor[q][d] = int(rng.choice(4, p=VENDOR_CONFUSION[g]))
            model[q][d] = {0: 0, 1: 0, 2: 2, 3: 2}[g]
    return {"nist": dict(nist), "vendor": dict(vendor), "model": dict(model)}


def _trec_eval_means(qrels: Qrels, runs: dict[str, dict[str, list[str]]], k: int) -> list[float]:
    """Mean ndcg_cut_k per run by pytrec_eval over the qrels' queries (every run returns every
    query here, so trec_eval's mean equals the app's)."""
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"})
    out = []
    for name in sorted(runs):
        run: Run = {
            q: {d: float(len(docs) - i) for i, d in enumerate(docs)}
            for q, docs in runs[name].items()
            if q in qrels
        }
        per_query = evaluator.evaluate(run)
        assert set(per_query) == set(qrels)
        out.append(float(np.mean([v[f"ndcg_cut_{k}"] for v in per_query.values()])))
    return out


def _write_run(path: Path, name: str, ranked: dict[str, list[str]]) -> None:
    with path.open("w") as f:
        for q, docs in ranked.items():
            for i, d in enumerate(docs):
                f.write(f"{q} Q0 {d} {i + 1} {len(docs) - i} {name}\n")


def _write_qrels(path: Path, qrels: Qrels) -> None:
    with path.open("w") as f:
        for q, docs in qrels.items():
            for d, g in docs.items():
                f.write(f"{q} 0 {d} {g}\n")


@pytest.mark.slow
def test_dl19_with_derived_sources(db: Any, tmp_path: Path) -> None:
    runs = _derived_runs()
    qrels = _derived_qrels()
    imp = ImportService(db)
    for name, ranked in runs.items():
        _write_run(tmp_path / f"{name}.trec", name, ranked)
        imp.import_run(tmp_path / f"{name}.trec")
    kinds = {"nist": None, "vendor": "vendor", "model": "model"}
    for name, q in qrels.items():
        _write_qrels(tmp_path / f"{name}.qrels", q)
        source = {"source": name, "source_kind": kinds[name]} if kinds[name] else {}
        imp.import_qrels(tmp_path / f"{name}.qrels", annotator=name, **source)
    report = StabilityService(db).stability("source", ScoringSettings(k=10), n_resamples=2000)
    r = report.result
    assert [s.name for s in r.sets] == ["humans", "model", "vendor"]
    expected = {
        s: _trec_eval_means(qrels["nist" if s == "humans" else s], runs, 10)
        for s in ("humans", "model", "vendor")
    }
    assert list(r.runs) == sorted(runs)
    for i, s in enumerate(r.sets):
        assert r.means[i].tolist() == pytest.approx(expected[s.name], abs=1e-9)
    for p in r.pairs:
        a, b = r.means[p.set_a], r.means[p.set_b]
        assert p.kendall_tau == pytest.approx(kendalltau(a, b).statistic)
        brute = {
            (i, j) for i in range(4) for j in range(i + 1, 4) if (a[i] - a[j]) * (b[i] - b[j]) < 0
        }
        assert set(p.flipped) == brute
    # label agreement: vendor vs NIST on every judged item
    agree = {(x.source_a, x.source_b): x for x in report.agreement}
    vendor = agree[("humans", "vendor")]
    assert vendor.n_shared == 9260  # every qrels line is one item
    nist_counts = np.bincount([g for q in qrels["nist"].values() for g in q.values()], minlength=5)
    assert vendor.confusion.sum(axis=1).tolist() == nist_counts.tolist()
    print(
        "\nDL19 means", {s.name: np.round(r.means[i], 4).tolist() for i, s in enumerate(r.sets)},
        "\ntau", [(r.sets[p.set_a].name, r.sets[p.set_b].name, round(p.kendall_tau, 3),
                   round(p.tau_ap, 3), r.flipped_label(p)) for p in r.pairs],
        "\nkappa", {k: (round(v.kappa_linear, 3), round(v.alpha, 3)) for k, v in agree.items()},
        "\n" + r.sentence("bm25", "bm25-shuf20"),
    )  # fmt: skip


@pytest.mark.skipif(
    not (DIKU / "judgments_long.csv").is_file(),
    reason=f"DIKU study not found at {DIKU} (unlicensed data, read from ../shared/data only; "
    "set NDCG_STUDIO_SHARED_DATA)",
)
def test_diku_by_annotator_equals_trec_eval_per_annotator(db: Any, tmp_path: Path) -> None:
    """Each participant's run (their own Google top 5) scored under every participant's grades
    (relevance 1..4 stored as 0..3, as the study's trec/qrels.P*.rel0-3 files)."""
    runs_file = DIKU / "trec" / "runs.all_participants.dedup_first.trec"
    imp = ImportService(db)
    lines: dict[str, dict[str, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    for line in runs_file.read_text().splitlines():
        q, _, d, rank, _, tag = line.split()
        lines[tag][q].append((int(rank), d))
    ranked = {t: {q: [d for _, d in sorted(v)] for q, v in by.items()} for t, by in lines.items()}
    for tag, per_query in ranked.items():
        _write_run(tmp_path / f"{tag}.trec", tag, per_query)
        imp.import_run(tmp_path / f"{tag}.trec")
    per: dict[str, Qrels] = defaultdict(lambda: defaultdict(dict))
    rows = []
    with (DIKU / "judgments_long.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            q, d, a = row["query_id"], row["doc_id"], row["annotator"]
            if d in per[a][q]:
                continue  # P9 lists url 123 twice for query 5: keep the first (SOURCE.md)
            per[a][q][d] = int(row["rel_1to4"]) - 1
            rows.append(f"{q},{d},{a},{per[a][q][d]}")
    (tmp_path / "j.csv").write_text("query_id,doc_id,annotator,grade\n" + "\n".join(rows) + "\n")
    imp.import_judgments(tmp_path / "j.csv")
    service = StabilityService(db)
    report = service.stability("annotator", ScoringSettings(k=5), min_coverage=0.0, test=False)
    r = report.result
    assert len(r.sets) == 10 and len(r.runs) == 10
    for i, s in enumerate(r.sets):
        qrels = {q: dict(v) for q, v in per[s.name].items()}
        assert r.means[i].tolist() == pytest.approx(_trec_eval_means(qrels, ranked, 5), abs=1e-9)
    for p in r.pairs:
        a, b = r.means[p.set_a], r.means[p.set_b]
        assert p.kendall_tau == pytest.approx(kendalltau(a, b).statistic, nan_ok=True)
    for i, s in enumerate(r.sets):  # each participant's grades put their own list first
        assert r.runs[int(np.argmax(r.means[i]))] == s.name
    default = service.stability("annotator", ScoringSettings(k=5), test=False)
    assert [s.name for s in default.result.sets] == ["P4"]  # coverage 0.40-0.50
    taus = [p.kendall_tau for p in r.pairs]
    print(
        "\nDIKU coverage", {a: round(c, 2) for a, c in sorted(report.coverage.items())},
        "\nkept at 0.5:", [s.name for s in default.result.sets],
        f"\ntau over {len(taus)} pairs: min {np.nanmin(taus):.3f} "
        f"median {np.nanmedian(taus):.3f} max {np.nanmax(taus):.3f}",
        "\n" + r.sentence("P1", "P2"),
    )  # fmt: skip
