"""Exactness at the edges (issue #13): ranks as trec_eval ignores them, trec_eval's -1 kept,
any number of annotators and any ids, ratio alpha, scales other than 0-4 — on SQLite and
PostgreSQL, against trec_eval's own expected outputs, ir-measures (pytrec_eval) and the
``krippendorff`` package."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import ir_measures
import krippendorff
import numpy as np
import pytest
from sqlalchemy import insert, select

from ndcg_studio.app import main
from ndcg_studio.io.errors import InputError, InputFileError
from ndcg_studio.services.agreement import AgreementService, AgreementSettings
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage import models

TREC = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


def _expected(measure: str) -> dict[str, float]:
    out = {}
    for line in (TREC / "out.test.aql").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == measure and parts[1] != "all":
            out[parts[1]] = float(parts[2])
    return out


def _per_query(report: Any, run: str) -> dict[str, float]:
    return {
        report.query_of(g): float(report.table.ndcg[g])
        for g in range(len(report))
        if report.run_names[int(report.group_run[g])] == run
    }


# Rewrites of results.test's rank column (from its rank i, which is trec_eval's order);
# trec_eval ignores the column.
RANK_VARIANTS = {
    "zero_based": lambda i: str(i - 1),
    "negative": lambda i: str(-i),
    "all_ones": lambda i: "1",
    "float_text": lambda i: f"{i}.0",
    "beyond_int32": lambda i: str(2**31 + i),
    "words": lambda i: "rank",
}


def _rewrite_ranks(tmp_path: Path, name: str) -> Path:
    rewrite = RANK_VARIANTS[name]
    lines = []
    for line in (TREC / "results.test").read_text().splitlines():
        f = line.split()
        f[3], f[5] = rewrite(int(f[3])), name
        lines.append(" ".join(f))
    path = tmp_path / f"{name}.run"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_any_rank_column_imports_and_scores_like_trec_eval(db: Any, tmp_path: Path) -> None:
    """0-based, negative, repeated, non-integer and out-of-range ranks: the file imports and
    every cutoff equals trec_eval's printed values (out.test.aql, 4 decimals)."""
    imp = ImportService(db)
    for name in RANK_VARIANTS:
        imp.import_run(_rewrite_ranks(tmp_path, name))
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist")
    service = ScoringService(db)
    for k in (5, 10, 100, 1000):
        expected = _expected(f"ndcg_cut_{k}")
        report = service.score(ScoringSettings(k=k))
        for name in RANK_VARIANTS:
            got = _per_query(report, name)
            assert got == pytest.approx(expected, abs=5e-5), (name, k)


def test_order_rank_uses_usable_ranks_and_refuses_the_others(db: Any, tmp_path: Path) -> None:
    """--order rank: a 0-based or negative rank column orders the run (the same lists as
    trec_eval's order here, since results.test's ranks are that order); repeated or
    non-integer ranks are refused with FILE:LINE: rank: as found on import."""
    imp = ImportService(db)
    for name in ("zero_based", "negative", "all_ones", "float_text", "beyond_int32"):
        imp.import_run(_rewrite_ranks(tmp_path, name))
    imp.import_qrels(TREC / "qrels.rel_level", annotator="nist")
    service = ScoringService(db)
    by_score = service.score(ScoringSettings(k=20, runs=("zero_based",)))
    by_rank = service.score(ScoringSettings(k=20, order="rank", runs=("zero_based",)))
    np.testing.assert_allclose(by_rank.table.ndcg, by_score.table.ndcg)
    # ranks -1, -2, ...: ascending order is the reverse of the file's
    reverse = service.score(ScoringSettings(k=1000, order="rank", runs=("negative",)))
    assert reverse.table.ndcg[0] != pytest.approx(by_score.table.ndcg[0])
    for name, line, fragment in (
        ("all_ones", 2, "rank 1 appears twice for query '301' (duplicate of line 1)"),
        ("float_text", 1, "'104.0' is not an integer"),
        ("beyond_int32", 1, "'2147483752' is not an integer in [-2147483648, 2147483647]"),
    ):
        with pytest.raises(InputError) as excinfo:
            service.score(ScoringSettings(k=10, order="rank", runs=(name,)))
        message = str(excinfo.value)
        assert message.startswith(f"{tmp_path / name}.run:{line}: rank: {fragment}")
        assert f"(run {name!r}: --order rank is not possible)" in message
    # a re-import with good ranks clears the problem
    (tmp_path / "fixed.run").write_text("301 Q0 a 0 1.0 all_ones\n")
    imp.import_run(tmp_path / "fixed.run", name="all_ones", replace=True)
    assert len(service.score(ScoringSettings(k=10, order="rank", runs=("all_ones",))))


def test_cli_order_rank_refusal_is_exit_2_without_traceback(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.txt"
    run.write_text("q Q0 d1 0 2.0 r\nq Q0 d2 0 1.0 r\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q 0 d1 1\n")
    assert main(["--db", sqlite_url, "import", "run", str(run)]) == 0
    assert main(["--db", sqlite_url, "import", "qrels", str(qrels)]) == 0
    assert main(["--db", sqlite_url, "score", "--format", "csv"]) == 0
    capsys.readouterr()
    assert main(["--db", sqlite_url, "score", "--order", "rank"]) == 2
    err = capsys.readouterr().err
    assert f"{run}:2: rank: rank 0 appears twice for query 'q'" in err
    assert "Traceback" not in err


# ------------------------------------------------------------------- trec_eval's -1


#: Deeper than any list and any query's judgments: trec_eval's ``ndcg`` (no cutoff).
WHOLE = 10**6


def _ir_measures_ndcg(gains: dict[int, int] | None, k: int) -> dict[str, float]:
    measure = ir_measures.nDCG(gains=gains) if gains else ir_measures.nDCG
    measure = measure if k == WHOLE else measure @ k
    qrels = list(ir_measures.read_trec_qrels(str(TREC / "qrels.rel_level")))
    run = list(ir_measures.read_trec_run(str(TREC / "results.test")))
    return {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}


@pytest.mark.parametrize("gains", [None, {0: 1}, {0: 1, 1: 4}])
def test_minus_one_kept_scores_like_trec_eval_for_every_gain_setting(
    db: Any, gains: dict[int, int] | None
) -> None:
    """qrels.rel_level holds 304 judgments -1: imported without a map they are judged
    non-relevant,
    gain 0 even when --gains gives grade 0 a gain, outside the ideal list (pytrec_eval, as
    ir-measures runs it, is the oracle). A map -1:0 would give them grade 0's gain."""
    imp = ImportService(db)
    imp.import_run(TREC / "results.test")
    summary = imp.import_qrels(TREC / "qrels.rel_level", annotator="nist")
    assert summary.counts["judgments created"] == 3681  # every line
    service = ScoringService(db)
    for k in (10, 1000, WHOLE):
        report = service.score(ScoringSettings(k=k, custom_gains=gains))
        got = _per_query(report, "STANDARD")
        assert got == pytest.approx(_ir_measures_ndcg(gains, k), abs=1e-9), k
    judged = report.table.judged_at_k.copy()
    with db.engine.begin() as conn:  # what --grade-map -1:0 would have stored
        conn.execute(models.judgments.update().where(models.judgments.c.grade == -1)
                     .values(grade=0))  # fmt: skip
    mapped = ScoringService(db).score(ScoringSettings(k=WHOLE, custom_gains=gains))
    np.testing.assert_array_equal(mapped.table.judged_at_k, judged)  # -1 counts as judged
    if gains:  # the map gives them grade 0's gain: no longer trec_eval's numbers
        assert _per_query(mapped, "STANDARD") != pytest.approx(
            _ir_measures_ndcg(gains, WHOLE), abs=1e-6
        )


# ir-measures' own test data (test/test_pytrec_eval.py, test_infAP), with its pytrec_eval
# values for nDCG(gains={0:1,1:4}) printed in its test of that measure: 0.97177, 0.14949.
IR_MEASURES_QRELS = (
    "0 0 D0 1\n0 0 D1 -1\n0 0 D2 0\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D4 -1\n1 0 D5 0\n"
)
IR_MEASURES_RUN = (
    "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n"
    "0 0 D4 5 0.1 run\n1 0 D1 1 0.8 run\n1 0 D4 2 0.7 run\n1 0 D3 3 0.3 run\n"
    "1 0 D2 4 0.4 run\n"
)


def test_ir_measures_custom_gains_example(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "q.txt").write_text(IR_MEASURES_QRELS)
    (tmp_path / "r.txt").write_text(IR_MEASURES_RUN)
    assert main(["--db", sqlite_url, "import", "run", str(tmp_path / "r.txt")]) == 0
    assert main(["--db", sqlite_url, "import", "qrels", str(tmp_path / "q.txt")]) == 0
    capsys.readouterr()
    for gains, expected in (("0:1,1:4", (0.97177, 0.14949)), (None, (0.76019, 0.32739))):
        argv = ["--db", sqlite_url, "score", "--k", "1000", "--format", "csv"]
        assert main(argv + (["--gains", gains] if gains else [])) == 0
        rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
        got = {r["query_id"]: float(r["ndcg"]) for r in rows}
        assert got == pytest.approx(dict(zip("01", expected, strict=True)), abs=1e-5)


def test_minus_one_in_consensus_and_agreement(db: Any, tmp_path: Path) -> None:
    """-1 beside other grades counts as 0 (mean of -1 and 2 is 1); alone it stays -1; agreement
    reads it as grade 0."""
    path = tmp_path / "j.csv"
    path.write_text(
        "query_id,doc_id,annotator,grade\n"
        "q,a,x,-1\nq,a,y,2\n"  # mean 1
        "q,b,x,-1\nq,b,y,-1\n"  # stays -1: gain 0 even with --gains 0:5
        "q,c,x,0\nq,c,y,0\n"  # 0: gain 5 with --gains 0:5
    )
    ImportService(db).import_judgments(path)
    (tmp_path / "r.txt").write_text("q Q0 a 1 3 r\nq Q0 b 2 2 r\nq Q0 c 3 1 r\n")
    ImportService(db).import_run(tmp_path / "r.txt")
    report = ScoringService(db).score(ScoringSettings(k=3, custom_gains={0: 5}))
    # gains: a -> mean 1 (gain 1), b -> -1 (gain 0), c -> 0 (gain 5)
    dcg = 1 + 0 / np.log2(3) + 5 / np.log2(4)
    idcg = 5 + 1 / np.log2(3)
    assert float(report.table.dcg[0]) == pytest.approx(dcg)
    assert float(report.table.idcg[0]) == pytest.approx(idcg)
    report = AgreementService(db).report(AgreementSettings(level="interval", n_resamples=10))
    reference = krippendorff.alpha(
        reliability_data=[[0, 0, 0], [2, 0, 0]], level_of_measurement="interval"
    )
    assert report.summary.alpha.value == pytest.approx(reference, abs=1e-12)


# ------------------------------------------------------ many annotators, large ids


def test_nine_thousand_annotators_import_and_agree(db: Any, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    n_annotators, n_items = 9_000, 40
    lines = ["query_id,doc_id,annotator,grade"]
    truth = rng.integers(0, 5, n_items)
    matrix = np.full((n_annotators, n_items), np.nan)
    for a in range(n_annotators):
        for item in rng.choice(n_items, 2, replace=False).tolist():
            grade = int(np.clip(truth[item] + rng.integers(-1, 2), 0, 4))
            matrix[a, item] = grade
            lines.append(f"q{item % 4},d{item},w{a},{grade}")
    path = tmp_path / "crowd.csv"
    path.write_text("\n".join(lines) + "\n")
    summary = ImportService(db).import_judgments(path)
    assert summary.counts["annotators created"] == n_annotators
    assert summary.counts["judgments created"] == 2 * n_annotators
    again = ImportService(db).import_judgments(path)
    assert again.counts["unchanged"] == 2 * n_annotators
    per_query = AgreementService(db).per_query_alpha("ordinal")
    for q in range(4):
        reference = krippendorff.alpha(
            reliability_data=matrix[:, q::4],
            level_of_measurement="ordinal",
            value_domain=[0, 1, 2, 3, 4],
        )
        assert per_query[f"q{q}"] == pytest.approx(reference, abs=1e-9)
    # the whole report (pairwise kappas only for pairs sharing an item)
    report = AgreementService(db).report(AgreementSettings(level="ordinal", n_resamples=20))
    overall = krippendorff.alpha(
        reliability_data=matrix, level_of_measurement="ordinal", value_domain=[0, 1, 2, 3, 4]
    )
    assert report.summary.alpha.value == pytest.approx(overall, abs=1e-9)
    assert report.summary.n_annotators == n_annotators


@pytest.mark.parametrize("first_id", [2**26 + 3, 2**31 + 3, 2**40])
def test_judgments_and_agreement_with_ids_past_packing(
    sqlite_url: str, tmp_path: Path, first_id: int
) -> None:
    """Database ids past 2^26 and 2^31 (SQLite keeps any 64-bit id; PostgreSQL's are 32-bit):
    import, re-import with a change and agreement still match every judgment."""
    from ndcg_studio.storage.database import open_database

    db = open_database(sqlite_url)
    try:
        with db.engine.begin() as conn:
            conn.execute(insert(models.queries).values(id=first_id, external_id="q0", text=""))
            conn.execute(insert(models.documents).values(
                id=first_id, external_id="d0", title="", text="", url=""))  # fmt: skip
            conn.execute(insert(models.annotators).values(id=first_id, name="a0"))
        path = tmp_path / "j.csv"
        rows = [f"q{i % 3},d{i % 5},a{i % 2},{i % 5}" for i in range(30) if i < 10 or i % 7]
        unique = list(dict.fromkeys((r.rsplit(",", 1)[0], r) for r in rows))
        body = {key: row for key, row in unique}
        path.write_text("query_id,doc_id,annotator,grade\n" + "\n".join(body.values()) + "\n")
        first = ImportService(db).import_judgments(path)
        assert first.counts["judgments created"] == len(body)
        changed = [r[:-1] + str((int(r[-1]) + 1) % 5) if i == 0 else r
                   for i, r in enumerate(body.values())]  # fmt: skip
        path.write_text("query_id,doc_id,annotator,grade\n" + "\n".join(changed) + "\n")
        second = ImportService(db).import_judgments(path)
        assert second.counts["judgments updated"] == 1
        assert second.counts["judgments created"] == 0
        with db.engine.connect() as conn:
            ids = conn.execute(select(models.judgments.c.query_id)).scalars().all()
        assert max(ids) > first_id
        report = AgreementService(db).report(AgreementSettings(n_resamples=10))
        items = {k.rsplit(",", 1)[0] for k in body}
        assert len(report.item_doc) == len(items)
        assert report.summary.n_ratings == len(body)
    finally:
        db.dispose()


# ------------------------------------------------------------------------- ratio alpha


def test_ratio_alpha_through_the_service_equals_the_package(db: Any, tmp_path: Path) -> None:
    """Krippendorff (2011)'s worked example, 4 observers x 12 units (values 1-5, so mapped onto
    0-4): the ratio level needs the true values, which a map shifts — so the example is
    checked on the shifted data against the package, and the domain's 0.797 in
    tests/domain/test_agreement_oracles.py."""
    nan = np.nan
    data = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
    lines = ["query_id,doc_id,annotator,grade"]
    for o, row in enumerate(data):
        lines += [f"q,u{u},o{o},{int(v)}" for u, v in enumerate(row) if not np.isnan(v)]
    (tmp_path / "k.csv").write_text("\n".join(lines) + "\n")
    ImportService(db).import_judgments(tmp_path / "k.csv", grade_map={5: 4, 4: 3, 3: 2, 2: 1, 1: 0})
    report = AgreementService(db).report(AgreementSettings(level="ratio", n_resamples=10))
    shifted = np.asarray(data) - 1
    assert report.summary.alpha.value == pytest.approx(
        krippendorff.alpha(reliability_data=shifted, level_of_measurement="ratio"), abs=1e-12
    )
    assert round(krippendorff.alpha(reliability_data=data, level_of_measurement="ratio"), 3) == (
        0.797
    )


# ----------------------------------------------- scales other than 0-4 (seeds 004)

# The worked examples of a Russian-language NDCG note (seed 004): relevances up to 10, ideal
# = the returned list sorted, linear gains; its printed values (2 decimals).
SEED_004_EXAMPLES = [
    # (relevances in the model's order, DCG, IDCG, NDCG) as printed
    ([4, 5, 3, 2, 1], 9.9, 10.27, 0.96),
    ([7, 8, 9, 10], 20.85, 22.7, 0.92),
    ([5, 2, 3, 1], 8.19, 8.32, 0.98),
]


@pytest.mark.parametrize(("relevances", "dcg", "idcg", "ndcg"), SEED_004_EXAMPLES)
def test_scale_up_to_ten_keeps_its_gains_as_the_error_says(
    sqlite_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    relevances: list[int],
    dcg: float,
    idcg: float,
    ndcg: float,
) -> None:
    """The import error names the --grade-map and --gains that keep the file's scale; used as
    given, they reproduce the example's DCG, IDCG and NDCG."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q 0 d{i} {r}\n" for i, r in enumerate(relevances)))
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q Q0 d{i} {i + 1} {10 - i} model\n" for i in range(len(relevances))))
    assert main(["--db", sqlite_url, "import", "run", str(run)]) == 0
    assert main(["--db", sqlite_url, "import", "qrels", str(qrels)]) == 2
    err = capsys.readouterr().err
    found = re.search(r"--grade-map (\S+) and score with --gains (\S+)", err)
    assert found is not None, err
    grade_map, gains = found.groups()
    assert main(["--db", sqlite_url, "import", "qrels", str(qrels), "--grade-map", grade_map]) == 0
    capsys.readouterr()
    k = str(len(relevances))
    code = main(["--db", sqlite_url, "score", "--k", k, "--gains", gains, "--format", "csv"])
    assert code == 0
    (row,) = csv.DictReader(capsys.readouterr().out.splitlines())
    assert round(float(row["dcg"]), 2) == pytest.approx(dcg, abs=0.011)
    assert round(float(row["idcg"]), 2) == pytest.approx(idcg, abs=0.011)
    assert round(float(row["ndcg"]), 2) == ndcg


def test_one_to_five_scale_hint() -> None:
    from ndcg_studio.io.grades import scale_hint

    hint = scale_hint(np.array([1, 2, 3, 4, 5, 3]))
    assert hint.endswith(
        "--grade-map 1:0,2:1,3:2,4:3,5:4 and score with --gains 0:1,1:2,2:3,3:4,4:5"
    )
    many = scale_hint(np.arange(11))
    assert "uses 11 grades" in many and "--grade-map" in many


def test_out_of_range_grade_never_suggests_mapping_to_zero(tmp_path: Path) -> None:
    from ndcg_studio.io.trec.readers import read_trec_qrels

    path = tmp_path / "q.txt"
    path.write_text("q 0 a 0\nq 0 b 5\nq 0 c 3\n")
    with pytest.raises(InputFileError) as excinfo:
        read_trec_qrels(path)
    message = str(excinfo.value)
    assert "5:0" not in message
    assert "--grade-map 0:0,3:1,5:2" in message and "--gains 0:0,1:3,2:5" in message


def test_ratio_level_on_the_command_line(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.csv"
    grades = [[1, 2, 3, 4, 0, 2], [1, 3, 3, 4, 1, 2]]
    path.write_text(
        "query_id,doc_id,annotator,grade\n"
        + "".join(f"q,d{i},a{a},{g}\n" for a, row in enumerate(grades) for i, g in enumerate(row))
    )
    assert main(["--db", sqlite_url, "import", "judgments", str(path)]) == 0
    capsys.readouterr()
    assert main(["--db", sqlite_url, "agreement", "--level", "ratio", "--format", "csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    (row,) = [r for r in rows if r["statistic"] == "krippendorff_alpha_ratio"]
    reference = krippendorff.alpha(reliability_data=grades, level_of_measurement="ratio")
    assert float(row["value"]) == pytest.approx(reference, abs=1e-9)
