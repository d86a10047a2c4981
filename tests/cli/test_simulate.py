"""``ndcg-studio simulate``: the CSV contract and clear errors."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from ndcg_studio.app import main
from ndcg_studio.services.simulation import SIMULATION_COLUMNS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_runs(sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    for name, docs in (("a", "1 2 3 4"), ("b", "4 3 2 1")):
        lines = [
            f"{q} Q0 D{d} {i + 1} {10 - i} {name}"
            for q in (1, 2)
            for i, d in enumerate(docs.split())
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
        assert (
            run(capsys, "--db", sqlite_url, "import", "run", str(tmp_path / f"{name}.run"))[0] == 0
        )
    grades = {"1": 3, "2": 2, "3": 0, "4": 0}
    qrels = [f"{q} 0 D{d} {g}" for q in (1, 2) for d, g in grades.items()]
    (tmp_path / "j.qrels").write_text("\n".join(qrels) + "\n")
    assert run(capsys, "--db", sqlite_url, "import", "qrels", str(tmp_path / "j.qrels"))[0] == 0
    return sqlite_url


@pytest.mark.parametrize("strategy", ["depth", "mtf", "bandit", "ab"])
def test_simulate_csv(two_runs: str, capsys: pytest.CaptureFixture[str], strategy: str) -> None:
    code, out, err = run(
        capsys,
        "simulate",
        "--db",
        two_runs,
        "--runs",
        "a",
        "b",
        "--strategy",
        strategy,
        "--depth",
        "2",
        "--k",
        "3",
        "--step",
        "2",
        "--seed",
        "5",
        "--format",
        "csv",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ",".join(SIMULATION_COLUMNS)
    rows = list(csv.DictReader(io.StringIO(out)))
    # pool: the top 2 of each run, per query: D1 D2 D3 D4 -> 4 documents x 2 queries
    assert [int(r["judgments"]) for r in rows] == [0, 2, 4, 6, 8]
    assert {r["strategy"] for r in rows} == {strategy}
    last = rows[-1]
    # run a ranks the relevant documents first: decided and correct at the end
    assert (last["pairs_decided"], last["pairs_correct"], float(last["mae"])) == ("1", "1", 0.0)
    assert float(last["kendall_tau"]) == 1.0
    assert rows[0]["kendall_tau"] == ""  # nothing judged: every run at 0, tau undefined


def test_simulate_errors(two_runs: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys,
        "simulate",
        "--db",
        two_runs,
        "--runs",
        "a",
        "zzz",
        "--strategy",
        "ab",
        "--depth",
        "2",
    )
    assert code == 1 and "zzz" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "simulate",
                "--db",
                two_runs,
                "--runs",
                "a",
                "b",
                "--strategy",
                "ab",
                "--depth",
                "2",
                "--step",
                "0",
            ]
        )
    assert exc.value.code == 2
    assert "--step" in capsys.readouterr().err
    code, _, err = run(
        capsys, "simulate", "--db", two_runs, "--runs", "a", "--strategy", "ab", "--depth", "2"
    )
    assert code == 2 and "two or more runs" in err
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--runs", "a", "b", "--strategy", "random", "--depth", "2"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "extra",
    [["--bandit-last-only"], ["--bandit-discount", "1"], ["--bandit-no-free-reward"]],
)
def test_simulate_bandit_variants(
    two_runs: str, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    code, out, err = run(
        capsys, "simulate", "--db", two_runs, "--runs", "a", "b", "--strategy", "bandit",
        "--depth", "2", "--k", "3", "--step", "2", *extra,
    )  # fmt: skip
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == list(SIMULATION_COLUMNS) and rows[-1][1] == "8"  # the whole pool
    assert "MaxMean" in err


def test_simulate_refuses_a_discount_outside_0_1(
    two_runs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--db", two_runs, "--runs", "a", "b", "--strategy", "bandit",
              "--depth", "2", "--bandit-discount", "0"])  # fmt: skip
    assert exit_info.value.code == 2
    assert "must lie in (0, 1]" in capsys.readouterr().err
