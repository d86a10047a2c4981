"""The command line's promises: its own --help per command and export kind, refusals with
exit 2 (missing database, missing folder, options that do not apply, invalid values), names
starting with '-', a run compared with itself, one message for a file of the other TREC kind."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

import pytest

from ndcg_studio.app import main
from ndcg_studio.cli.parser import build_parser

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse: --help (0) and usage errors (2)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _every_parser() -> list[tuple[list[str], argparse.ArgumentParser]]:
    found = []
    for name, sub in _subparsers(build_parser()).items():
        found.append(([name], sub))
        found += [([name, kind], p) for kind, p in _subparsers(sub).items()]
    return found


@pytest.mark.parametrize("words", [w for w, _ in _every_parser()], ids=" ".join)
def test_every_command_and_export_kind_has_help_naming_every_option(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    parser = dict((" ".join(w), p) for w, p in _every_parser())[" ".join(words)]
    code, out, _ = run(capsys, *words, "--help")
    assert code == 0
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        assert action.help, f"{words} {action.option_strings or action.dest}: no help text"
        for option in action.option_strings:
            assert option in out
    assert out.startswith(f"usage: ndcg-studio {' '.join(words)}")


@pytest.mark.parametrize(
    "argv",
    [
        ["score"],
        ["score", "--summary", "--format", "csv"],
        ["agreement"],
        ["export", "report"],
        ["export", "judgments"],
        ["export", "qrels"],
        ["export", "agreement"],
        ["export", "compare"],
    ],
    ids=" ".join,
)
def test_read_only_commands_refuse_a_missing_database_and_create_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    missing = tmp_path / "typo" / "x.sqlite"
    code, _, err = run(capsys, "--db", str(missing), *argv)
    assert code == 2
    assert err.strip() == (
        f"ndcg-studio {argv[0]}: no database at {missing}; `import` or `demo` creates one"
    )
    assert list(tmp_path.iterdir()) == []
    code, _, err = run(capsys, *argv, "--db", str(missing))  # --db after the command
    assert code == 2 and list(tmp_path.iterdir()) == []


def test_default_database_is_not_created_by_a_read_only_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ndcg_studio.storage.database import default_database_path

    code, _, err = run(capsys, "score")
    assert code == 2 and "no database at" in err
    assert not default_database_path().exists() and not default_database_path().parent.exists()


@pytest.fixture
def two_runs(sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    results = (DATA / "results.test").read_text().splitlines(keepends=True)
    for name, lines in (("-run2", results[:900]), ("other", results[300:])):
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(" ".join(line.split()[:5]) + f" {name}\n" for line in lines))
        code, _, err = run(capsys, "--db", sqlite_url, "import", "run", str(path))
        assert code == 0, err
    code, _, err = run(
        capsys, "--db", sqlite_url, "import", "qrels", str(DATA / "qrels.test"), "--annotator=-a"
    )
    assert code == 0 and "1 annotator created" in err, err  # singular
    return sqlite_url


def test_output_into_a_missing_folder(
    two_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nope" / "out.csv"
    for argv in (["score"], ["agreement"], ["export", "report"], ["export", "qrels"]):
        code, _, err = run(capsys, "--db", two_runs, *argv, "-o", str(target))
        assert code == 2 and err.count("\n") == 1, err
        assert f"no folder {target.parent}; create it first" in err
    assert not target.parent.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "judgments", "--k", "5"],
        ["export", "judgments", "--runs", "a", "b"],
        ["export", "qrels", "--excel"],
        ["export", "qrels", "--k", "5"],
        ["export", "agreement", "--gain", "linear"],
        ["export", "report", "--wide"],
        ["export", "compare", "--run", "x"],
        ["score", "--wide"],
        ["agreement", "--k", "3"],
        ["score", "--k", "0"],
        ["score", "--k", "abc"],
        ["score", "--k", "-1"],
        ["export", "report", "--k", "0"],
        ["agreement", "--disputed-range", "0"],
        ["score", "--gains", "0:x"],
        ["score", "--gains", "1:inf"],
        ["score", "--format", "xml"],
        ["import", "qrels", "FILE", "--grade-map", "1:9"],
        ["export", "compare", "--runs=onlyone"],
        ["export"],
    ],
    ids=" ".join,
)
def test_what_does_not_apply_or_is_invalid_exits_2(
    two_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    argv = [str(DATA / "qrels.test") if a == "FILE" else a for a in argv]
    code, _, err = run(capsys, "--db", two_runs, *argv)
    assert code == 2, err
    assert "error:" in err
    if argv[:3] == ["export", "judgments", "--k"]:  # refused by the kind's own parser
        assert "ndcg-studio export judgments: error: unrecognized arguments: --k 5" in err


def test_names_starting_with_a_dash(
    two_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--db", two_runs, "score", "--run", "-run2", "--format", "csv")
    assert code == 0, err
    assert {r["run"] for r in csv.DictReader(io.StringIO(out))} == {"'-run2"}  # guarded
    code, out, err = run(capsys, "--db", two_runs, "score", "--run=-run2", "--annotator", "-a")
    assert code == 0, err
    code, _, err = run(capsys, "--db", two_runs, "score", "--annotator", "-nobody")
    assert code == 1 and "'-nobody'" in err
    for runs in (["--runs", "-run2", "other"], ["--runs=-run2,other"]):
        code, out, err = run(capsys, "--db", two_runs, "export", "compare", *runs)
        assert code == 0, err
        assert out.startswith("query_id,ndcg_-run2,ndcg_other,delta\n")
    path = tmp_path / "r.txt"
    path.write_text("q1 Q0 d1 1 1.0 tag\n")
    code, _, err = run(capsys, "--db", two_runs, "import", "run", str(path), "--name", "-r3")
    assert code == 0 and "run '-r3' created" in err, err


def test_compare_needs_no_runs_when_there_are_two(
    two_runs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--db", two_runs, "export", "compare")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["query_id", "ndcg_-run2", "ndcg_other", "delta"]


def test_a_run_compared_with_itself(
    two_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "self.csv"
    code, _, err = run(
        capsys, "--db", two_runs, "export", "compare", "--runs", "other", "other", "-o", str(out)
    )
    assert code == 0, err
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert list(rows[0]) == ["query_id", "ndcg_other_a", "ndcg_other_b", "delta"]
    _, scores, _ = run(capsys, "--db", two_runs, "score", "--run", "other", "--format", "csv")
    own = {r["query_id"]: r["ndcg"] for r in csv.DictReader(io.StringIO(scores))}
    assert {r["query_id"]: r["ndcg_other_a"] for r in rows} == own
    assert all(r["ndcg_other_a"] == r["ndcg_other_b"] and r["delta"] == "0.0" for r in rows)
    assert any(float(v) > 0 for v in own.values())
    notes = json.loads((tmp_path / "self.csv.settings.json").read_text())["notes"]
    assert "p = 1;" in notes[0] + ";" and "ties 3" in notes[0]


def test_a_file_of_the_other_trec_kind_is_one_message(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--db", sqlite_url, "import", "run", str(DATA / "qrels.test"))
    assert code == 2 and err.count("\n") == 1, err
    assert "this looks like a qrels file (4 columns" in err and "use `import qrels`" in err
    code, _, err = run(capsys, "--db", sqlite_url, "import", "qrels", str(DATA / "results.test"))
    assert code == 2 and err.count("\n") == 1, err
    assert "this looks like a run file (6 columns" in err and "use `import run`" in err


def test_runs_takes_every_name_up_to_the_next_option() -> None:
    from ndcg_studio.cli.common import RUNS_SEPARATOR
    from ndcg_studio.cli.parser import normalize_argv

    argv = ["simulate", "--runs", "a", "-b", "c", "-o", "out.csv", "--depth", "2"]
    assert normalize_argv(argv) == [
        "simulate",
        f"--runs=a{RUNS_SEPARATOR}-b{RUNS_SEPARATOR}c",
        "-o",
        "out.csv",
        "--depth",
        "2",
    ]
    # a run named like an option goes after "=", comma-separated
    assert normalize_argv(["simulate", "--runs=-o,x"]) == ["simulate", "--runs=-o,x"]
