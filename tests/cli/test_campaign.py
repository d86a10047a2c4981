"""``ndcg-studio campaign create|queue|status|list|close|grades``: the names and columns of
issue #16, imported judgments counting, and bad input (exit 2, nothing written)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ndcg_studio.app import main
from ndcg_studio.cli.campaign import STATUS_COLUMNS
from ndcg_studio.storage import models
from ndcg_studio.storage.database import open_database


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_runs(sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    for name, docs in (("a", "1 2 3 4"), ("b", "4 3 2 5")):
        lines = [
            f"{q} Q0 D{d} {i + 1} {10 - i} {name}"
            for q in (1, 2, 3)
            for i, d in enumerate(docs.split())
        ]
        (tmp_path / f"{name}.run").write_text("\n".join(lines) + "\n")
        assert (
            run(capsys, "--db", sqlite_url, "import", "run", str(tmp_path / f"{name}.run"))[0] == 0
        )
    return sqlite_url


def _count(url: str, table: object) -> int:
    db = open_database(url)
    try:
        with db.transaction() as s:
            return int(s.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]
    finally:
        db.dispose()


def test_campaign_commands_with_the_issues_names_and_columns(
    two_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gold.qrels").write_text("1 0 D1 3\n2 D2 1\n")
    (tmp_path / "guide.md").write_text("# Guidelines\nGrade *topicality*.\n")
    (tmp_path / "queries.txt").write_text("# chosen\n1\n2\n")
    code, out, err = run(
        capsys,
        "campaign", "create", "study", "--db", two_runs, "--runs", "a", "b", "--depth", "2",
        "--overlap", "1", "--annotators", "ann", "bob", "--queries", str(tmp_path / "queries.txt"),
        "--gold", str(tmp_path / "gold.qrels"), "--gold-rate", "0.5",
        "--guidelines", str(tmp_path / "guide.md"),
    )  # fmt: skip
    assert code == 0, err
    # depth 2 of a (D1 D2) and b (D4 D3) on queries 1, 2: 4 items each; gold D1, D2 are in it
    assert "6 items" in out and "2 gold" in out
    code, out, err = run(
        capsys, "campaign", "queue", "study", "--db", two_runs, "--annotator", "ann",
        "--limit", "3", "--format", "csv",
    )  # fmt: skip
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.splitlines()[0] == "query_id,doc_id" and len(rows) == 3
    # bob is not offered what ann holds (overlap 1), except gold which everyone judges
    code, out, _ = run(
        capsys, "campaign", "queue", "study", "--db", two_runs, "--annotator", "bob",
        "--limit", "20", "--format", "csv",
    )  # fmt: skip
    bobs = {(r["query_id"], r["doc_id"]) for r in csv.DictReader(io.StringIO(out))}
    anns = {(r["query_id"], r["doc_id"]) for r in rows}
    gold = {("1", "D1"), ("2", "D2")}
    assert not (anns & bobs) - gold and len(bobs | anns) == 8
    # an imported judgment counts toward the campaign: (1, D3) by carol completes it
    (tmp_path / "j.qrels").write_text("1 0 D3 2\n")
    code, _, err = run(
        capsys, "import", "qrels", str(tmp_path / "j.qrels"), "--db", two_runs,
        "--annotator", "carol",
    )  # fmt: skip
    assert code == 0, err
    code, out, err = run(capsys, "campaign", "status", "study", "--db", two_runs, "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[0].startswith(
        "annotator,assigned,done,cant_judge,median_seconds,leniency,kappa_vs_others,"
        "alpha_without,gold_exact,gold_within_one"
    )
    assert out.splitlines()[0] == ",".join(STATUS_COLUMNS)
    status = {r["annotator"]: r for r in csv.DictReader(io.StringIO(out))}
    assert set(status) == {"ann", "bob"} and status["ann"]["assigned"] == "3"
    assert "1/6 items complete" in err
    code, out, _ = run(capsys, "campaign", "list", "--db", two_runs, "--format", "csv")
    assert out.splitlines()[1].startswith("study,open,1,6,1,2,")
    code, out, _ = run(capsys, "campaign", "grades", "study", "--db", two_runs)
    assert "study,1,D3,carol,graded,2," in out
    code, out, _ = run(capsys, "campaign", "close", "study", "--db", two_runs)
    assert code == 0 and "closed" in out
    code, _, err = run(
        capsys, "campaign", "queue", "study", "--db", two_runs, "--annotator", "ann",
    )  # fmt: skip
    assert code == 2 and "closed" in err


def test_bad_campaign_input_exits_2_and_writes_nothing(
    two_runs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gold.qrels").write_text("1 0 D1 3\n1 0 D2 7\n")
    annotators = _count(two_runs, models.annotators)
    base = ["campaign", "create", "x", "--db", two_runs, "--runs", "a", "--depth", "2",
            "--overlap", "1", "--annotators", "newbie"]  # fmt: skip
    code, _, err = run(capsys, *base, "--gold", str(tmp_path / "gold.qrels"))
    assert code == 2 and f"{tmp_path / 'gold.qrels'}:2: grade: 7 is outside 0–4" in err
    assert "Traceback" not in err
    code, _, err = run(capsys, *base[:6], "zzz", *base[7:])
    assert code == 2 and "no run called 'zzz'" in err
    code, _, err = run(capsys, *base, "--sample", "9")
    assert code == 2 and "only 3 queries" in err
    with pytest.raises(SystemExit) as exit_info:
        run(capsys, *base[:-2], "--overlap", "0", "--annotators", "a")
    assert exit_info.value.code == 2
    assert _count(two_runs, models.campaigns) == 0
    assert _count(two_runs, models.annotators) == annotators
    code, _, err = run(capsys, "campaign", "status", "nope", "--db", two_runs)
    assert code == 2 and "no campaign called 'nope'" in err


def test_create_with_a_pool_strategy(two_runs: str, capsys: pytest.CaptureFixture[str]) -> None:
    options = ["--db", two_runs, "--runs", "a", "b", "--depth", "3", "--overlap", "1"]
    options += ["--annotators", "ann"]

    def create(name: str, *extra: str) -> tuple[int, str, str]:
        return run(capsys, "campaign", "create", name, *extra, *options)

    code, out, _err = create("ab1", "--strategy", "ab", "--pair", "a", "b", "--k", "2")
    assert code == 0 and "offered in ab order" in out
    code, out, _err = create("mtf1", "--strategy", "mtf")
    assert code == 0 and "offered in mtf order" in out
    code, out, _err = run(capsys, "campaign", "list", "--db", two_runs, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["name"], r["strategy"]) for r in rows] == [("ab1", "ab"), ("mtf1", "mtf")]
    code, out, _err = run(
        capsys, "campaign", "queue", "ab1", "--db", two_runs, "--annotator", "ann", "--limit", "2"
    )
    assert code == 0 and len(out.strip().splitlines()) == 3  # header + 2
    # bad input: exit 2, one line, nothing written
    for extra, message in (
        (["--strategy", "ab"], "needs --pair A B and --k K"),
        (["--strategy", "ab", "--pair", "a", "c", "--k", "2"], "two different runs among"),
        (["--strategy", "depth", "--k", "2"], "belong to the ab and ppi strategies"),
    ):
        code, _out, err = create("bad", *extra)
        assert code == 2 and message in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exc:
        main(["campaign", "create", "bad", "--strategy", "best", *options])
    assert exc.value.code == 2
    assert _count(two_runs, models.campaigns) == 2


def test_the_cli_strategies_are_the_services() -> None:
    from ndcg_studio.cli.campaign import POOL_STRATEGIES as CLI_STRATEGIES
    from ndcg_studio.domain.pooling.strategies import STRATEGIES
    from ndcg_studio.services.campaigns.types import POOL_STRATEGIES

    assert CLI_STRATEGIES == POOL_STRATEGIES == (*STRATEGIES, "ppi")
