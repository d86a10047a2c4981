"""Refusals a new user meets in the first hour, each one plain line that says why and what to
do: files swapped or given as folders, trec_eval options that are not there, campaign reports
into a file, names that start with a minus."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ndcg_studio.app import main

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"
QRELS, RUN = DATA / "qrels.test", DATA / "results.test"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_with_qrels_and_run_swapped_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "eval", str(RUN), str(QRELS))
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert "give the qrels first" in err and str(RUN) in err and str(QRELS) in err


@pytest.mark.parametrize("argv", [("eval", "FOLDER", str(RUN)), ("import", "run", "FOLDER")])
def test_a_folder_given_as_a_file_is_called_a_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    args = [str(folder) if a == "FOLDER" else a for a in argv]
    code, _out, err = run(capsys, "--db", str(tmp_path / "x.sqlite"), *args)
    assert code == 2 and err.count("\n") == 1, err
    assert f"{folder} is a folder, not a file" in err
    assert not (tmp_path / "x.sqlite").exists()


def test_eval_takes_trec_eval_s_depth_cap_and_refuses_a_bad_one_by_its_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(capsys, "eval", "-M", "10", "-m", "num_ret", str(QRELS), str(RUN))
    assert code == 0 and out.splitlines()[-1].split() == ["num_ret", "all", "30"]
    code, _out, err = run(capsys, "eval", "-M", "0", str(QRELS), str(RUN))
    assert code == 2 and err.count("\n") == 1, err
    assert "-M 0" in err and "unrecognized" not in err


def test_eval_never_says_nothing_was_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.qrels"
    bad.write_text("1 0 d1 x\n", encoding="utf-8")
    code, _out, err = run(capsys, "eval", str(bad), str(RUN))
    assert code == 2 and "grade" in err and "nothing was written" not in err


@pytest.fixture
def demo_campaign(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    db = tmp_path / "demo.sqlite"
    assert run(capsys, "--db", str(db), "demo")[0] == 0
    code, _out, err = run(
        capsys,
        "--db",
        str(db),
        "campaign",
        "create",
        "--runs",
        "bm25-title",
        "--depth",
        "2",
        "--overlap",
        "1",
        "--sample",
        "3",
        "--annotators",
        "-ann",
        "bob",
        "--",
        "-study",
    )
    assert code == 0, err
    return db


def test_campaign_and_annotator_names_may_start_with_a_minus(
    capsys: pytest.CaptureFixture[str], demo_campaign: Path
) -> None:
    code, out, err = run(capsys, "--db", str(demo_campaign), "campaign", "list", "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[1].startswith("-study,open,1,")
    code, out, _err = run(
        capsys, "--db", str(demo_campaign), "campaign", "status", "--format", "csv", "--", "-study"
    )
    assert code == 0
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["-ann", "bob"]


@pytest.mark.parametrize(("action", "columns"), [("status", 18), ("grades", 10)])
def test_campaign_status_and_grades_write_a_file(
    capsys: pytest.CaptureFixture[str],
    demo_campaign: Path,
    tmp_path: Path,
    action: str,
    columns: int,
) -> None:
    target = tmp_path / f"{action}.csv"
    argv = ["--db", str(demo_campaign), "campaign", action, "--format", "csv", "-o", str(target)]
    code, out, err = run(capsys, *argv, "--", "-study")
    assert code == 0, err
    assert out == ""
    assert pd.read_csv(target).shape[1] == columns
    code, _out, err = run(capsys, *argv[:-1], str(tmp_path / "no" / "x.csv"), "--", "-study")
    assert code == 2 and "no folder" in err


def test_a_second_run_with_the_same_tag_is_refused_unless_replaced(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "runs.sqlite")
    assert run(capsys, "--db", db, "import", "run", str(RUN))[0] == 0
    code, _out, err = run(capsys, "--db", db, "import", "run", str(RUN))
    assert code == 2 and "exists already" in err and "--replace" in err
    code, out, err = run(capsys, "--db", db, "import", "run", str(RUN), "--replace")
    assert code == 0 and "replaced" in out + err
    code, _out, err = run(capsys, "--db", db, "import", "qrels", str(QRELS), "--replace")
    assert code == 2 and "--replace: only for runs" in err
