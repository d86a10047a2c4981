"""``ndcg-studio estimate``: the CSV contract, the numbers against the domain, clear refusals."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pytest

from ndcg_studio.app import main
from ndcg_studio.domain.estimation.ppi import MIN_HUMAN_QUERIES, estimate_mean
from ndcg_studio.services.estimation.service import ESTIMATE_COLUMNS

FIRST = [
    *("run", "estimate", "low", "high", "human_only", "human_only_low", "human_only_high"),
    *("machine_only", "human_queries", "queries"),
]
N_QUERIES, N_DOCS = 16, 4


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _grades() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(4)
    human = rng.integers(0, 4, size=(N_QUERIES, N_DOCS))
    machine = np.clip(human + rng.integers(-1, 2, size=human.shape), 0, 3)
    return human, machine


@pytest.fixture
def db(sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    for name, order in (("a", [0, 1, 2, 3]), ("b", [3, 2, 1, 0])):
        lines = [
            f"q{q} Q0 D{q}-{d} {i + 1} {10 - i} {name}"
            for q in range(N_QUERIES)
            for i, d in enumerate(order)
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
        assert (
            run(capsys, "--db", sqlite_url, "import", "run", str(tmp_path / f"{name}.run"))[0] == 0
        )
    human, machine = _grades()
    for who, grades, extra in (
        ("nist", human, []),
        ("llm", machine, ["--source", "bot", "--source-kind", "model"]),
    ):
        lines = [f"q{q} 0 D{q}-{d} {grades[q, d]}" for q in range(N_QUERIES) for d in range(N_DOCS)]
        path = tmp_path / f"{who}.qrels"
        path.write_text("\n".join(lines) + "\n")
        argv = ["--db", sqlite_url, "import", "qrels", str(path), "--annotator", who, *extra]
        assert run(capsys, *argv)[0] == 0
    return sqlite_url


def _ndcg3(grades: np.ndarray) -> np.ndarray:
    """nDCG@3 of run a (documents 0, 1, 2 first) per query, linear gain."""
    disc = 1 / np.log2(np.arange(2, 5))
    dcg = (grades[:, :3] * disc).sum(axis=1)
    ideal = (-np.sort(-grades, axis=1)[:, :3] * disc).sum(axis=1)
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1), 0.0)


def _rows(out: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(out)))


def test_estimate_csv_matches_the_domain(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = [3, 0, 7, 9, 12, 1, 5, 14, 10, 2, 8, 15]
    listed = tmp_path / "sample.txt"
    listed.write_text("# the humans' queries\n" + "\n".join(f"q{q}" for q in sample) + "\n")
    code, out, err = run(
        capsys, "--db", db, "estimate", "--machine-source", "bot", "--human-annotator", "nist",
        "--human-queries", str(listed), "--k", "3", "--pair", "a", "b",
    )  # fmt: skip
    assert code == 0, err
    header = out.splitlines()[0].split(",")
    assert header[: len(FIRST)] == FIRST and header == list(ESTIMATE_COLUMNS)
    rows = _rows(out)
    assert [r["run"] for r in rows] == ["a", "b", "a - b"]
    human, machine = _grades()
    y, f = _ndcg3(human), _ndcg3(machine)
    want = estimate_mean(y[sample], f[sample], f)
    got = rows[0]
    assert float(got["estimate"]) == pytest.approx(want.estimate, abs=1e-12)
    assert (float(got["low"]), float(got["high"])) == pytest.approx((want.low, want.high))
    assert float(got["machine_only"]) == pytest.approx(f.mean())
    assert (got["human_queries"], got["queries"]) == (str(len(sample)), str(N_QUERIES))
    assert rows[2]["verdict"] in {"a better than b", "b better than a", "not yet decided"}
    assert "kappa" in err


def test_measure_precision(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = tmp_path / "all.txt"
    listed.write_text("\n".join(f"q{q}" for q in range(N_QUERIES)) + "\n")
    code, out, err = run(
        capsys, "--db", db, "estimate", "--machine-source", "bot", "--human-queries", str(listed),
        "--k", "3", "--measure", "precision", "--runs", "a",
    )  # fmt: skip
    assert code == 0, err
    (row,) = _rows(out)
    human, _ = _grades()
    # every query human-judged: the estimate is the all-human mean P@3 of run a
    assert float(row["estimate"]) == pytest.approx((human[:, :3] >= 1).mean())


def test_too_few_human_queries_say_so(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "few.txt"
    listed.write_text("\n".join(f"q{q}" for q in range(MIN_HUMAN_QUERIES - 1)) + "\n")
    code, out, _ = run(
        capsys, "--db", db, "estimate", "--machine-source", "bot",
        "--human-queries", str(listed), "--k", "3",
    )  # fmt: skip
    assert code == 0
    for row in _rows(out):
        assert row["low"] == "" and row["high"] == "" and "too few" in row["note"]
        assert math.isfinite(float(row["estimate"]))


@pytest.mark.parametrize(
    ("lines", "wanted"),
    [
        ("q1\nq404\n", "bad.txt:2: query: query 'q404' is not in the database"),
        ("q1\nq1\n", "bad.txt:2: query: query 'q1' repeated (first on line 1)"),
        ("q1 0 D1 2\n", "bad.txt:1: query: one query id a line, got 4 fields"),
    ],
)
def test_bad_query_list_names_file_line_and_field(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: str, wanted: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(lines)
    code, out, err = run(
        capsys, "--db", db, "estimate", "--machine-source", "bot",
        "--human-queries", str(bad), "--k", "3",
    )  # fmt: skip
    assert code == 2 and out == ""
    assert wanted in err and "Traceback" not in err


def test_a_human_source_is_refused(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "s.txt"
    listed.write_text("q1\n")
    code, _, err = run(
        capsys, "--db", db, "estimate", "--machine-source", "nobody",
        "--human-queries", str(listed), "--k", "3",
    )  # fmt: skip
    assert code != 0 and "unknown source 'nobody'; known: bot" in err and "Traceback" not in err


def test_help_names_the_minimum(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["estimate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"Below {MIN_HUMAN_QUERIES} human-judged queries no interval is given" in text


def test_a_campaign_without_inclusion_probabilities_is_refused(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "campaign", "create", "study", "--db", db, "--runs", "a", "b", "--depth", "2",
        "--overlap", "1", "--annotators", "ann",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = run(
        capsys, "--db", db, "estimate", "--machine-source", "bot", "--campaign", "study",
        "--k", "3",
    )  # fmt: skip
    assert code == 2 and out == "" and "Traceback" not in err
    assert "order depth" in err and "--human-queries" in err


def _create_ppi(db: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    return run(
        capsys, "campaign", "create", "active", "--db", db, "--runs", "a", "b", "--depth", "4",
        "--overlap", "2", "--annotators", "ann", "--strategy", "ppi", "--seed", "7", *extra,
    )  # fmt: skip


@pytest.mark.parametrize(
    "extra",
    [
        ("--pair", "a", "b", "--k", "3"),
        ("--machine", "bot", "--k", "3"),
        ("--machine", "bot", "--pair", "a", "b"),
    ],
)
def test_a_ppi_campaign_without_machine_pair_or_k_is_refused_in_one_line(
    db: str, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...]
) -> None:
    code, out, err = _create_ppi(db, capsys, *extra)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.strip().count("\n") == 0
    assert "the ppi strategy needs --machine SOURCE, --pair A B and --k K" in err


def test_estimate_from_a_complete_ppi_campaign(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every item has the machine's and nist's grade: with --overlap 2 every drawn query is
    complete, and the rows are the active estimate on the stored draw."""
    code, out, err = _create_ppi(db, capsys, "--machine", "bot", "--pair", "a", "b", "--k", "3")
    assert code == 0, err
    assert "offered in ppi order" in out
    code, out, err = run(
        capsys, "--db", db, "estimate", "--machine-source", "bot", "--campaign", "active",
        "--k", "3", "--pair", "a", "b",
    )  # fmt: skip
    assert code == 0, err
    rows = _rows(out)
    assert [r["run"] for r in rows] == ["a", "b", "a - b"]
    for row in rows:
        assert row["queries"] == str(N_QUERIES)
        assert 1 <= int(row["human_queries"]) <= N_QUERIES
        assert math.isfinite(float(row["estimate"]))
