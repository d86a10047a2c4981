"""``export compare`` for N runs: one row per pair, corrected p-values, the ANOVA table and the
topic-set-size line in the settings file; two runs without --correction keep the per-query
deltas. Oracles: the means of ``score --summary``, statsmodels' ``anova_lm`` on the per-query
nDCG of ``score --format csv`` and ``multipletests(method="holm")`` on the p column."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from ndcg_studio.app import main
from ndcg_studio.services.scoring.multirun import PAIR_COLUMNS

RUNS = ("-good", "mid", "bad", "noise")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def four_runs(sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """30 queries x 20 documents, grades 0-3; four runs of decreasing quality (the first named
    with a leading '-')."""
    rng = np.random.default_rng(7)
    qrels, files = [], {name: [] for name in RUNS}
    for q in range(30):
        grades = rng.integers(0, 4, size=20)
        for d, g in enumerate(grades.tolist()):
            qrels.append(f"q{q} 0 d{d} {g}\n")
        for name, noise in zip(RUNS, (0.5, 1.5, 3.0, 1.5), strict=True):
            score = grades + rng.normal(0, noise, size=20)
            if name == "bad":
                score = -score
            order = np.argsort(-score)
            for rank, d in enumerate(order.tolist(), start=1):
                files[name].append(f"q{q} Q0 d{d} {rank} {score[d]:.6f} {name}\n")
    path = tmp_path / "qrels.txt"
    path.write_text("".join(qrels))
    code, _, err = run(capsys, "--db", sqlite_url, "import", "qrels", str(path))
    assert code == 0, err
    for name, lines in files.items():
        path = tmp_path / f"run{RUNS.index(name)}.txt"
        path.write_text("".join(lines))
        code, _, err = run(capsys, "--db", sqlite_url, "import", "run", str(path), f"--name={name}")
        assert code == 0, err
    return sqlite_url


def _read(path: Path) -> tuple[list[dict[str, str]], dict[str, object]]:
    text = path.read_text("utf-8")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    about = json.loads(path.with_name(path.name + ".settings.json").read_text("utf-8"))
    return rows, about


def _unguard(name: str) -> str:
    return name[1:] if name.startswith("'") else name


def _per_query(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, dict[str, float]]:
    code, out, err = run(capsys, "--db", db, "score", "--format", "csv")
    assert code == 0, err
    table: dict[str, dict[str, float]] = {}
    for r in csv.DictReader(io.StringIO(out)):
        table.setdefault(_unguard(r["run"]), {})[r["query_id"]] = float(r["ndcg"])
    return table


def test_all_pairs_with_tukey(
    four_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pairs.csv"
    code, _, err = run(
        capsys, "--db", four_runs, "export", "compare", "--runs", *RUNS, "-o", str(out)
    )
    assert code == 0, err
    assert "6 rows written" in err
    rows, about = _read(out)
    assert list(rows[0]) == list(PAIR_COLUMNS)
    assert [(_unguard(r["run_a"]), r["run_b"]) for r in rows] == [
        (a, b) for i, a in enumerate(RUNS) for b in RUNS[i + 1 :]
    ]
    per_query = _per_query(capsys, four_runs)
    means = {name: float(np.mean(list(v.values()))) for name, v in per_query.items()}
    for r in rows:
        a, b = _unguard(r["run_a"]), r["run_b"]
        assert float(r["mean_a"]) == pytest.approx(means[a], abs=1e-12)
        assert float(r["mean_b"]) == pytest.approx(means[b], abs=1e-12)
        assert float(r["delta"]) == pytest.approx(means[a] - means[b], abs=1e-12)
        assert float(r["ci_low"]) <= float(r["delta"]) <= float(r["ci_high"])
        assert 0 < float(r["p"]) <= float(r["p_adjusted"]) <= 1  # Tukey never lowers p
    good_bad = next(r for r in rows if r["run_b"] == "bad" and _unguard(r["run_a"]) == "-good")
    assert float(good_bad["delta"]) > 0.3 and float(good_bad["p_adjusted"]) < 0.01
    assert "correction=tukey" in str(about["settings"]) and "baselines=none" in str(
        about["settings"]
    )

    # the ANOVA table equals statsmodels' on the per-query nDCG of `score`
    pd = pytest.importorskip("pandas")
    smf = pytest.importorskip("statsmodels.formula.api")
    sm = pytest.importorskip("statsmodels.api")
    frame = pd.DataFrame(
        [(run_, q, v) for run_, values in per_query.items() for q, v in values.items()],
        columns=["run", "query", "y"],
    )
    expected = sm.stats.anova_lm(smf.ols("y ~ C(run) + C(query)", data=frame).fit())
    anova = about["anova"]
    assert isinstance(anova, dict)
    assert anova["run"]["ss"] == pytest.approx(expected.loc["C(run)", "sum_sq"], rel=1e-9)
    assert anova["run"]["df"] == expected.loc["C(run)", "df"] == 3
    assert anova["run"]["f"] == pytest.approx(expected.loc["C(run)", "F"], rel=1e-9)
    assert anova["run"]["p"] == pytest.approx(expected.loc["C(run)", "PR(>F)"], rel=1e-6)
    assert anova["query"]["ss"] == pytest.approx(expected.loc["C(query)", "sum_sq"], rel=1e-9)
    assert anova["residual"]["ms"] == pytest.approx(expected.loc["Residual", "mean_sq"], rel=1e-9)
    size = about["topic_set_size"]
    assert isinstance(size, dict)
    assert size["n_queries"] == 30
    assert size["sentence"] == (
        f"with 30 queries you can detect Δ ≥ {size['min_detectable_delta']:.3f} at 80% power"
    )
    assert size["sentence"] in about["notes"]  # type: ignore[operator]
    # effect size = delta / sqrt(residual mean square) (Sakai 2014)
    for r in rows:
        assert float(r["effect_size"]) == pytest.approx(
            float(r["delta"]) / math.sqrt(anova["residual"]["ms"]), rel=1e-9
        )


def test_baselines_with_holm(
    four_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    out = tmp_path / "base.csv"
    code, _, err = run(
        capsys,
        "--db",
        four_runs,
        "export",
        "compare",
        "--runs",
        *RUNS,
        "--baseline",
        "mid",
        "-o",
        str(out),
    )
    assert code == 0, err
    rows, about = _read(out)
    # the pairs with the baseline, the baseline as run_a (delta = baseline - other)
    assert [(r["run_a"], _unguard(r["run_b"])) for r in rows] == [
        ("mid", "-good"),
        ("mid", "bad"),
        ("mid", "noise"),
    ]
    assert float(rows[0]["delta"]) < 0 < float(rows[1]["delta"])
    p = [float(r["p"]) for r in rows]
    expected = multitest.multipletests(p, method="holm")[1]
    np.testing.assert_allclose([float(r["p_adjusted"]) for r in rows], expected, rtol=1e-12)
    assert "correction=holm" in str(about["settings"])  # Holm is the default with a baseline

    # Tukey with a baseline: the same pairs, adjusted over all six pairs
    code, _, err = run(
        capsys,
        "--db",
        four_runs,
        "export",
        "compare",
        "--runs",
        *RUNS,
        "--baseline",
        "mid",
        "--correction",
        "tukey",
        "-o",
        str(out),
    )
    assert code == 0, err
    tukey, _ = _read(out)
    assert [r["run_b"] for r in tukey] == [r["run_b"] for r in rows]
    assert [r["p"] for r in tukey] == [r["p"] for r in rows]


def test_two_runs_keep_the_per_query_deltas_unless_a_correction_is_asked(
    four_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--db", four_runs, "export", "compare", "--runs", "mid", "bad")
    assert code == 0, err
    assert out.startswith("query_id,ndcg_mid,ndcg_bad,delta\n")
    assert len(out.splitlines()) == 31
    code, out, err = run(
        capsys, "--db", four_runs, "export", "compare", "--runs", "mid", "bad", "--correction",
        "tukey",
    )  # fmt: skip
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 1 and (rows[0]["run_a"], rows[0]["run_b"]) == ("mid", "bad")
    # one pair: the Tukey range is the pair's own |delta| (up to the permutation draw)
    assert float(rows[0]["p"]) <= 0.001 and float(rows[0]["p_adjusted"]) <= 0.002


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--runs", "mid", "bad", "--correction", "holm"], "--correction holm needs --baseline"),
        (["--runs", "mid", "bad", "noise", "--baseline", "-good"], "not among the compared"),
        (["--runs", "mid", "nope", "bad"], "unknown run 'nope'"),
        (["--runs", "mid", "bad", "mid"], "named twice"),
    ],
)
def test_refusals_are_one_line(
    four_runs: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    out = tmp_path / "x.csv"
    code, _, err = run(capsys, "--db", four_runs, "export", "compare", *argv, "-o", str(out))
    assert code in (1, 2) and message in err, err
    assert err.count("\n") == 1
    assert not out.exists() and not (tmp_path / "x.csv.settings.json").exists()


def test_list_options_stop_at_the_next_option(four_runs: str) -> None:
    from ndcg_studio.cli.common import RUNS_SEPARATOR
    from ndcg_studio.cli.parser import normalize_argv

    words = normalize_argv(
        ["export", "compare", "--runs", "-a", "-b", "c", "--baseline", "-a", "c", "-o", "F"]
    )
    assert words == [
        "export",
        "compare",
        f"--runs=-a{RUNS_SEPARATOR}-b{RUNS_SEPARATOR}c",
        f"--baseline=-a{RUNS_SEPARATOR}c",
        "-o",
        "F",
    ]
