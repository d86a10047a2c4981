"""``ndcg-studio stability`` and ``score --by-annotator``: CSV whose line 1 is the header,
settings beside the file, numbers equal to the service's and to scoring each annotator alone."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ndcg_studio.app import main
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.stability.report import BY_ANNOTATOR_COLUMNS, STABILITY_COLUMNS
from ndcg_studio.storage.database import open_database
from tests.services.test_stability_service import GRADES, RUNS, _build


@pytest.fixture
def url(sqlite_url: str, tmp_path: Path) -> str:
    db = open_database(sqlite_url)
    try:
        _build(db, tmp_path)
    finally:
        db.dispose()
    return sqlite_url


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_stability_csv(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "st.csv"
    code, _, err = _run(
        capsys, "stability", "--db", url, "--by", "consensus", "--k", "3", "--format", "csv",
        "--resamples", "500", "-o", str(out),
    )  # fmt: skip
    assert code == 0, err
    lines = out.read_text().splitlines()
    assert lines[0] == ",".join(STABILITY_COLUMNS)
    rows = list(csv.DictReader(lines))
    assert len(rows) == 10  # 5 rules, every two
    assert {r["n_runs"] for r in rows} == {"3"}
    for r in rows:
        for pair in filter(None, r["flipped_pairs"].split("|")):
            first, second = pair.split(">")
            assert {first, second} <= set(RUNS)
    settings = json.loads((tmp_path / "st.csv.settings.json").read_text())
    assert settings["what"] == "stability --by consensus"
    assert "k=3" in settings["settings"] and "min_coverage=0.5" in settings["settings"]
    assert "n_resamples=500" in settings["settings"]
    assert any("tau-b" in n for n in settings["notes"])


def test_stability_two_runs_sentence_and_table(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(
        capsys, "stability", "--db", url, "--by", "source", "--k", "3",
        "--run", "alpha", "--run", "beta",
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("# kendall_tau is tau-b")
    assert "better than" in out and "of 2 grade sets" in out
    assert "humans" in out and "gpt" in out


def test_stability_refuses_bad_options(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["stability", "--db", url, "--min-coverage", "2"])
    assert exc.value.code == 2
    assert "must lie in [0, 1]" in capsys.readouterr().err
    code, _, err = _run(capsys, "stability", "--db", url, "--annotator", "ada")
    assert code == 2 and "leave it out" in err and "Traceback" not in err


def test_score_by_annotator_long_csv(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "by.csv"
    code, _, err = _run(
        capsys, "score", "--db", url, "--by-annotator", "--k", "3", "--format", "csv",
        "-o", str(out),
    )  # fmt: skip
    assert code == 0, err
    lines = out.read_text().splitlines()
    assert lines[0] == ",".join(BY_ANNOTATOR_COLUMNS)
    rows = list(csv.DictReader(lines))
    assert (tmp_path / "by.csv.settings.json").is_file()
    # oracle: `score --annotator NAME` for each annotator
    db = open_database(url)
    try:
        for name in ("ada", "bob", "llm"):
            alone = ScoringService(db).score(ScoringSettings(k=3, annotator=name))
            expected = {
                (alone.query_of(g), alone.run_of(g)): float(alone.table.ndcg[g])
                for g in range(len(alone))
            }
            mine = [r for r in rows if r["annotator"] == name]
            assert mine
            for r in mine:
                assert float(r["ndcg"]) == pytest.approx(expected[(r["query_id"], r["run"])])
    finally:
        db.dispose()
    ada_queries = {q for (q, _), by in GRADES.items() if "ada" in by}
    assert {r["query_id"] for r in rows if r["annotator"] == "ada"} == ada_queries
    assert {r["source"] for r in rows if r["annotator"] == "llm"} == {"gpt"}


def test_import_with_source(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "vendor.qrels"
    f.write_text("1 0 a 2\n1 0 b 0\n")
    code, _, err = _run(
        capsys, "import", "qrels", str(f), "--db", url, "--annotator", "acme1",
        "--source", "acme", "--source-kind", "vendor",
    )  # fmt: skip
    assert code == 0, err
    assert "acme1 in vendor source 'acme'" in err
    code, _, err = _run(capsys, "import", "run", str(f), "--db", url, "--source", "x")
    assert code == 2 and "--source: only for qrels and judgments" in err


def test_score_a_source_alone(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gpt has one annotator (llm): its scores equal `score --annotator llm`."""
    out_source, out_annotator = tmp_path / "s.csv", tmp_path / "a.csv"
    for extra, out in ((["--source", "gpt"], out_source), (["--annotator", "llm"], out_annotator)):
        code, _, err = _run(
            capsys, "score", "--db", url, "--k", "3", "--format", "csv", "-o", str(out), *extra
        )
        assert code == 0, err
    by_source = {(r["query_id"], r["run"]): r for r in csv.DictReader(out_source.open())}
    alone = {(r["query_id"], r["run"]): r for r in csv.DictReader(out_annotator.open())}
    for key, row in alone.items():
        for column in ("ndcg", "dcg", "idcg", "rr", "p_at_k"):
            assert by_source[key][column] == row[column], (key, column)
    settings = json.loads((tmp_path / "s.csv.settings.json").read_text())
    assert settings["settings"].endswith("source=gpt")
    code, _, err = _run(capsys, "score", "--db", url, "--source", "acme")
    assert code != 0 and "unknown source 'acme'" in err and "Traceback" not in err
